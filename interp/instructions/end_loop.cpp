// end_loop (SEMANTICS S17.2): the end of the innermost open loop; the walk
// goes back to its body or on past it (loop_walk.hpp).
#include "instructions.hpp"
#include "loop.hpp"

namespace nisa {

void end_loop_step(const Step&, Machine&) {}

namespace {

const TileAccess* no_result(const Step&) { return nullptr; }

void decode(const DecodeContext& c, Step& s) {
  LoopParams p;
  p.site = c.register_site();
  s.set_params(p);
  s.run = end_loop_step;
}

}  // namespace

const InstructionSemantics end_loop_semantics{decode, {.result_tile = no_result}};

}  // namespace nisa
