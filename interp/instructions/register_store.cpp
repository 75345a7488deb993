// register_store dst, src (SEMANTICS S17.1; NKI 0.6 nki.isa.register_store,
// NKI 0.7 nki.isa.scalar_store): the int32 element dst takes the register src.
#include <cstring>

#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::register_store;

struct Params {
  RegisterSite site;
  int32_t src;
  int32_t unused = 0;
};

void run(const Step& s, Machine& m) {
  const Params& p = s.params<Params>();
  const int32_t v = read_register(m, p.src, p.site);
  std::memcpy(s.dst->partition(0) + s.dst->row_offsets[0], &v, sizeof v);  // check_instruction: one i32 element
}

void decode(const DecodeContext& c, Step& s) {
  s.dst = c.tiles.with_rows(c.tile(slot::dst), 1);
  s.partitions = 1;
  s.elements = 1;
  s.row_length = 1;
  s.set_params(Params{c.register_site(), c.reg(slot::src)});
  s.run = run;
}

}  // namespace

const InstructionSemantics register_store_semantics{decode};

}  // namespace nisa
