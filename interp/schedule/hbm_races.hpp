// --strict's data races on shared HBM (SEMANTICS S16.5): in a program for
// several cores, two cores access the same element of a shared HBM tensor,
// at least one of them writes it, and no meeting orders the two accesses
// (core_order.hpp). The run gives such a program the bytes of its one fixed
// interleaving (core_run.hpp); hardware could give others, so under --strict
// the later access of the pair is a runtime fault naming both instructions.
//
// Exact, element by element: a step's accesses are its tiles as --strict
// sees them (strict.hpp's step_tile_uses: the instruction's own StrictHooks
// where a runtime index moves a view or a list holds its operands), each
// element at its address, so two cores writing disjoint parts of one tensor
// never meet here. Views never reinterpret a tensor's dtype and always step
// by whole elements, so elements are the bytes' exact granularity. A
// runtime index counts at the row it selects, read just before the step
// runs (dma_copy.cpp names the one case where the run reads another). Two
// cores writing equal values still race: the rule is about order, not values.
//
// Per element of each shared HBM tensor: the position of its last write and
// of each core's last read (FastTrack's idea: a later access ordered after
// those is ordered after every earlier one, since each earlier one was
// either checked against them or came before them in its core's program
// order). Only shared HBM is tracked: SBUF and PSUM are per core, and a
// core's private HBM (TensorDecl::core >= 0) no other core can reach. Made
// only for --strict runs of programs for more than one core.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core_order.hpp"
#include "machine.hpp"
#include "program.hpp"
#include "step.hpp"
#include "strict.hpp"

namespace nisa {

// What the fault message says of the instruction at a position.
struct InstructionSite {
  std::string name;
  uint32_t line = 0;
};

// The last accesses to the elements of one shared HBM tensor.
struct SharedTensorAccesses {
  int32_t tensor = -1;
  const uint8_t* base = nullptr;  // its bytes (every core's machine has the same)
  int64_t element_size = 0;
  // Per element, 1 + cores entries: one past the position of its last
  // write, then one past that of each core's last read (0: none). Pages
  // zeroed by the OS as the run first touches them.
  ZeroedBytes last;
};

struct HbmRaces {
  const Program* program = nullptr;
  CoreOrder order;
  std::vector<SharedTensorAccesses> tensors;  // by base address
  std::vector<std::size_t> core_begin, core_end;  // each core's positions
  // The step at hand's: per core, the positions not ordered before it.
  std::vector<std::size_t> unordered_from, unordered_count;
  std::function<InstructionSite(int core, std::size_t position)> site_at;
  std::vector<TileUse> uses;                   // the step at hand's (kept for its capacity)
  std::vector<uint8_t*> listed;                // its written_elements, likewise
};

// The shadow of `machine`'s shared HBM tensors, for a program of `positions`
// positions; site_at names core `core`'s instruction at `position` in a
// fault message.
HbmRaces start_hbm_races(const Program& program, Machine& machine, std::size_t positions,
                         std::function<InstructionSite(int core, std::size_t position)> site_at);

// Step s of core `core` (Step::instruction is its position) is about to
// run: its accesses to shared HBM are checked against the earlier ones and
// recorded. Throws --strict's RuntimeFault at the first race.
void check_hbm_step(HbmRaces& races, int core, const Step& s);

}  // namespace nisa
