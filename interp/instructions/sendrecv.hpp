// sendrecv's exchange (SEMANTICS S16.2), which the run of a program for
// several cores performs when both sides have arrived (core_run.hpp).
#pragma once
#include "step.hpp"

namespace nisa {

// Steps `a` and `b`, the two sides of one sendrecv (decoded on their own
// cores): a's src lands in b's dst and b's src in a's dst, bits exact. Both
// sources are read before either destination is written, so a side whose
// dst is its src swaps.
void sendrecv_exchange(const Step& a, const Step& b);

}  // namespace nisa
