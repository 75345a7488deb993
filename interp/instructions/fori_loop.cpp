// fori_loop var, lower, upper, step (SEMANTICS S17.2; NKI nki.language.fori_loop
// and dynamic_range): the walk runs the body once per i in range(lower,
// upper, step), the bounds read once on entry; see loop_walk.hpp.
#include "instructions.hpp"
#include "loop.hpp"

namespace nisa {

void fori_loop_step(const Step&, Machine&) {}

namespace {
namespace slot = spec_operand::fori_loop;

const TileAccess* no_result(const Step&) { return nullptr; }

void decode(const DecodeContext& c, Step& s) {
  s.set_params(LoopParams{c.register_site(), c.register_or_int(slot::lower), c.register_or_int(slot::upper), c.reg(slot::var),
                          static_cast<int32_t>(c.integer(slot::step))});
  s.run = fori_loop_step;
}

}  // namespace

const InstructionSemantics fori_loop_semantics{decode, {.result_tile = no_result}};

}  // namespace nisa
