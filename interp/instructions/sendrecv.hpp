// What the two sides of a sendrecv pair (sendrecv, sendrecv_compute; spec
// cross_core "pair") do when they meet (SEMANTICS S16.2, S16.6). A side's
// step cannot do it alone (the other side lives on another core's machine),
// so its kernel does nothing and the multi-core run (core_run.cpp) calls
// meet_pair with both sides' steps.
#pragma once
#include "step.hpp"

namespace nisa {

// The parameters of a pair's step: its meeting, and sendrecv_compute's operator.
struct PairParams {
  void (*meet)(const Step& a, const Step& b) = nullptr;
  AluOp op = AluOp::add;
  uint8_t unused[7] = {};  // no padding bytes (steps are compared byte for byte)
};

// Steps `a` and `b`, the two sides of one pair, decoded on their own cores.
inline void meet_pair(const Step& a, const Step& b) { a.params<PairParams>().meet(a, b); }

}  // namespace nisa
