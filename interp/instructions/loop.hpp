// The runtime loops of SEMANTICS S17.2 as steps: fori_loop, while_loop and
// end_loop decode to steps whose kernels do nothing; what runs next is the
// run's walk over positions (loop_walk.hpp), which recognises them by their
// kernel and reads their parameters here.
#pragma once
#include <cstdint>

#include "registers.hpp"
#include "step.hpp"

namespace nisa {

void fori_loop_step(const Step&, Machine&);
void while_loop_step(const Step&, Machine&);
void end_loop_step(const Step&, Machine&);

inline bool is_loop_step(const Step& s) { return s.run == fori_loop_step || s.run == while_loop_step || s.run == end_loop_step; }

struct LoopParams {
  RegisterSite site;
  RegisterOrInt lower, upper;  // fori_loop
  int32_t reg = -1;            // fori_loop: var; while_loop: cond
  int32_t step = 1;            // fori_loop
};
static_assert(sizeof(LoopParams) == 48, "LoopParams has no padding bytes");

}  // namespace nisa
