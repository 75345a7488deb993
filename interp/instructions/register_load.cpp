// register_load dst, src (SEMANTICS S17.1; NKI 0.6 nki.isa.register_load,
// NKI 0.7 nki.isa.scalar_load): the register dst takes the int32 element src.
#include <cstring>

#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::register_load;

struct Params {
  int32_t dst;
};

void run(const Step& s, Machine& m) {
  int32_t v;
  std::memcpy(&v, s.in[0]->partition(0) + s.in[0]->row_offsets[0], sizeof v);  // check_instruction: one i32 element
  write_register(m, s.params<Params>().dst, v);
}

const TileAccess* no_result(const Step&) { return nullptr; }

void decode(const DecodeContext& c, Step& s) {
  // The element as the step's one input, so --strict checks it was written.
  s.in[0] = c.tiles.with_rows(c.tile(slot::src), 1);
  s.inputs = 1;
  s.partitions = 1;
  s.elements = 1;
  s.row_length = 1;
  s.set_params(Params{c.reg(slot::dst)});
  s.run = run;
}

}  // namespace

const InstructionSemantics register_load_semantics{decode, {.result_tile = no_result}};

}  // namespace nisa
