// The run of a program for several cores (SEMANTICS S16): each core runs its
// own steps on its own machine, in program order; the cores wait for each
// other only at their meetings (cross_core.hpp: sendrecv pairs and
// barriers, matched before the run). The cores take turns on the calling
// thread in one fixed order: up to each meeting, every core that meets
// there runs up to it (lowest core first), then the meeting happens (a
// sendrecv's exchange), then on to the next meeting; after the last, each
// core runs to its end, core 0 first. A program whose cores touch the same
// HBM bytes only in an order its meetings fix gives the same bytes in every
// interleaving (the hardware's included); one that races gets this order's
// bytes, every run the same, and --strict names the race instead (S16.5).
// So outputs never depend on threads: a core's large steps still use the
// partition split's second thread (S14.2), which is bit-exact.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "cross_core.hpp"
#include "step.hpp"

namespace nisa {

// One core's side of the run.
struct CoreSteps {
  PositionRange positions;
  // Runs the core's positions [from, to) (within `positions`), in order.
  std::function<void(std::size_t from, std::size_t to)> run;
  // The step of one of its positions (a sendrecv's, for the exchange).
  std::function<const Step&(std::size_t position)> step_at;
};

// `ops` and `meetings` as match_meetings gave them. `met` (if given) is told
// of each meeting once all its participants are there, before any of them
// goes on (--strict's race check learns there what orders the cores).
void run_cores(std::vector<CoreSteps>& cores, const std::vector<CrossCoreOp>& ops, const std::vector<Meeting>& meetings,
               const std::function<void(const Meeting&)>& met = {});

}  // namespace nisa
