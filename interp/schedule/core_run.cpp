#include "core_run.hpp"

#include "sendrecv.hpp"

namespace nisa {

void run_cores(std::vector<CoreSteps>& cores, const std::vector<CrossCoreOp>& ops, const std::vector<Meeting>& meetings,
               const std::function<void(const Meeting&)>& met) {
  std::vector<std::size_t> next;  // per core: its first position not yet run
  for (const CoreSteps& c : cores) next.push_back(c.positions.begin);
  for (const Meeting& m : meetings) {
    // Each side runs up to and through its meeting instruction (whose own
    // step does nothing but --strict's bookkeeping), then they meet.
    for (const std::size_t k : m.ops) {
      const CrossCoreOp& op = ops[k];
      CoreSteps& core = cores[static_cast<std::size_t>(op.core)];
      std::size_t& at = next[static_cast<std::size_t>(op.core)];
      core.run(at, op.position + 1);
      at = op.position + 1;
    }
    if (m.kind == CrossCore::pair) {
      const CrossCoreOp& a = ops[m.ops[0]];
      const CrossCoreOp& b = ops[m.ops[1]];
      meet_pair(cores[static_cast<std::size_t>(a.core)].step_at(a.position), cores[static_cast<std::size_t>(b.core)].step_at(b.position));
    }
    if (met) met(m);
  }
  for (std::size_t c = 0; c < cores.size(); ++c) cores[c].run(next[c], cores[c].positions.end);
}

}  // namespace nisa
