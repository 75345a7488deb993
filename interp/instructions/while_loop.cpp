// while_loop cond (SEMANTICS S17.2; NKI nki.language.while_loop): the walk
// runs the body while the register cond is not zero, tested before each
// iteration; see loop_walk.hpp.
#include "instructions.hpp"
#include "loop.hpp"

namespace nisa {

void while_loop_step(const Step&, Machine&) {}

namespace {
namespace slot = spec_operand::while_loop;

const TileAccess* no_result(const Step&) { return nullptr; }

void decode(const DecodeContext& c, Step& s) {
  LoopParams p;
  p.site = c.register_site();
  p.reg = c.reg(slot::cond);
  s.set_params(p);
  s.run = while_loop_step;
}

}  // namespace

const InstructionSemantics while_loop_semantics{decode, {.result_tile = no_result}};

}  // namespace nisa
