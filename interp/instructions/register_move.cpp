// register_move dst, src (SEMANTICS S17.1; NKI 0.6 nki.isa.register_move):
// the register dst takes an int32 constant or another register's value.
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::register_move;

struct Params {
  RegisterSite site;
  RegisterOrInt src;
  int32_t dst;
  int32_t unused = 0;
};

void run(const Step& s, Machine& m) {
  const Params& p = s.params<Params>();
  write_register(m, p.dst, p.src.get(m, p.site));
}

const TileAccess* no_result(const Step&) { return nullptr; }

void decode(const DecodeContext& c, Step& s) {
  s.set_params(Params{c.register_site(), c.register_or_int(slot::src), c.reg(slot::dst)});
  s.run = run;
}

}  // namespace

const InstructionSemantics register_move_semantics{decode, {.result_tile = no_result}};

}  // namespace nisa
