#include "partition_split.hpp"

#include "loop_walk.hpp"

#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "dead_stores.hpp"
#include "interpreter.hpp"
#include "plain_paths.hpp"

namespace nisa {

namespace {

// The same view `skip` partitions further on (a partition stride of 0, a
// broadcast view, stays where it is).
const TileAccess* upper_tile(const TileAccess* t, int64_t skip, TileTable& tiles) {
  if (t == nullptr) return nullptr;
  TileAccess upper = *t;
  upper.base += skip * t->partition_stride;
  upper.partitions -= skip;
  upper.first_partition += skip;
  return tiles.add(std::move(upper));
}

// A Tensor Indirection view (S1.7) reads its column offsets from an index
// tile while the step runs, and dst may overlap that tile: the two halves
// would race on it, so such a step runs whole.
bool reads_its_offsets(const Instruction& ins) {
  for (const Operand& o : ins.operands)
    if (o.state == OperandState::tensor && o.view.indirect == IndirectKind::tensor) return true;
  return false;
}

bool cuttable(const InstructionSpec& is, const Step& s) {
  if (!is.partitions_independent || s.staged || s.dst == nullptr) return false;
  // Every streamed tile has the step's partitions, so each half is a view of its own.
  auto same_partitions = [&](const TileAccess* t) { return t == nullptr || t->partitions == s.partitions; };
  bool same = same_partitions(s.dst) && same_partitions(s.reduce_res);
  for (int k = 0; k < s.inputs; ++k) same = same && same_partitions(s.in[k]);
  for (const PartitionScalar& ps : s.scalar) same = same && same_partitions(ps.tile);
  return same;
}

// A second thread that runs one step at a time: post() offers it a step,
// finish() returns once that step has run. Whoever claims the posted step
// first runs it (a compare-exchange to kClaimed): the second thread, or the
// main thread in finish() when the second thread has not taken it yet (it
// may be descheduled on a shared machine: the main thread then runs both
// halves rather than wait). Both spin before sleeping on the atomic (a
// futex), since a futex wake-up costs tens of microseconds on a VM, as long
// as half of a [128, 2048] step.
}  // namespace

class SecondThread {
 public:
  explicit SecondThread(Machine& machine) : machine_(machine), thread_([this] { loop(); }) {}
  SecondThread(const SecondThread&) = delete;
  SecondThread& operator=(const SecondThread&) = delete;
  ~SecondThread() {
    post(&stop_);
    thread_.join();
  }

  void post(const Step* s) {
    job_.store(s, std::memory_order_release);
    job_.notify_one();
  }

  void finish() {
    if (const Step* posted = claim()) {
      execute_step(*posted, machine_);
      job_.store(nullptr, std::memory_order_release);
      job_.notify_one();  // the second thread may be asleep on kClaimed
      return;
    }
    // The second thread runs it: it finishes in about the time the main
    // thread's half took, so spin that long before sleeping.
    if (spin_until([&] { return job_.load(std::memory_order_acquire) == nullptr; }, kFinishSpin)) return;
    while (const Step* running = job_.load(std::memory_order_acquire)) job_.wait(running, std::memory_order_acquire);
  }

 private:
  static constexpr std::chrono::microseconds kIdleSpin{50};  // the second thread's wait for the next step
  static constexpr std::chrono::microseconds kFinishSpin{500};
  static inline const Step kClaimed{};  // job_ while a thread runs the posted step

  // Spins (PAUSE) until done() or for `limit`; true if done.
  template <class Done>
  static bool spin_until(Done done, std::chrono::microseconds limit) {
    const auto give_up = std::chrono::steady_clock::now() + limit;
    for (int spin = 1;; ++spin) {
      if (done()) return true;
      if (spin % 64 == 0 && std::chrono::steady_clock::now() > give_up) return false;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
  }

  // The posted step, now claimed by the caller; nullptr if none is waiting.
  const Step* claim() {
    const Step* posted = job_.load(std::memory_order_acquire);
    if (posted == nullptr || posted == &kClaimed || posted == &stop_) return nullptr;
    return job_.compare_exchange_strong(posted, &kClaimed, std::memory_order_acq_rel) ? posted : nullptr;
  }

  void loop() {
    for (;;) {
      const Step* seen = nullptr;
      spin_until(
          [&] {
            seen = job_.load(std::memory_order_acquire);
            return seen != nullptr && seen != &kClaimed;
          },
          kIdleSpin);
      while (seen == nullptr || seen == &kClaimed) {
        job_.wait(seen, std::memory_order_acquire);
        seen = job_.load(std::memory_order_acquire);
      }
      if (seen == &stop_) return;
      const Step* s = claim();
      if (s == nullptr) continue;  // the main thread took it
      execute_step(*s, machine_);
      job_.store(nullptr, std::memory_order_release);
      job_.notify_one();
    }
  }

  Machine& machine_;
  Step stop_;  // posted to end the thread
  std::atomic<const Step*> job_{nullptr};
  std::thread thread_;  // last: starts once the members above exist
};

bool second_thread_allowed() {
  if (plain_paths()) return false;
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  const int count = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
  if (count < 2) return false;
  const char* threads = std::getenv("NISA_THREADS");
  if (threads != nullptr && std::strcmp(threads, "1") == 0) return false;
  if (threads != nullptr && std::strcmp(threads, "2") == 0) return true;
  // Automatic: only when a CPU is idle. On a busy machine the second thread
  // waits for a CPU while the first waits for it (bench/README.md).
  double load = 0;
  return getloadavg(&load, 1) == 1 && load + 1.0 <= count;
}

int64_t split_min_elements() {
  const char* v = std::getenv("NISA_SPLIT_MIN_ELEMENTS");
  if (v == nullptr || *v == '\0') return kSplitMinElements;
  char* end = nullptr;
  const long long n = std::strtoll(v, &end, 10);
  return *end == '\0' && n > 0 ? n : kSplitMinElements;
}

UpperHalves split_partitions(const Spec& spec, std::vector<Step>& steps, TileTable& tiles,
                             const std::function<const Instruction&(const Step&)>& instruction_of,
                             int64_t min_elements) {
  UpperHalves upper;
  upper.of.assign(steps.size(), -1);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    Step& s = steps[i];
    if (s.run == skipped_step || s.partitions < 16 || s.partitions * s.elements < min_elements) continue;
    const Instruction& ins = instruction_of(s);
    if (!cuttable(spec.instructions[static_cast<std::size_t>(ins.spec_index)], s) || reads_its_offsets(ins)) continue;
    // A multiple of 8 partitions: the add reductions fold 8 partitions at once.
    const int64_t lower = (s.partitions / 2 + 7) / 8 * 8;
    Step top = s;
    top.partitions = s.partitions - lower;
    top.dst = upper_tile(s.dst, lower, tiles);
    for (int k = 0; k < s.inputs; ++k) top.in[k] = upper_tile(s.in[k], lower, tiles);
    for (PartitionScalar& ps : top.scalar) ps.tile = upper_tile(ps.tile, lower, tiles);
    top.reduce_res = upper_tile(s.reduce_res, lower, tiles);
    top.first_lane += lower;
    s.partitions = lower;
    upper.of[i] = static_cast<int32_t>(upper.steps.size());
    upper.steps.push_back(top);
  }
  return upper;
}

namespace {

// `second` is started at the first cut step (and kept by the caller).
template <class EachPosition>
void run_positions(const std::vector<Step>& steps, const UpperHalves& upper, Machine& machine,
                   std::unique_ptr<SecondThread>& second, Interruption* interruption, EachPosition&& each) {
  if (upper.empty()) {
    each([&](std::size_t k) {
      execute_step(steps[k], machine);
      between_steps(interruption);
    });
    return;
  }
  if (!second) second = std::make_unique<SecondThread>(machine);
  each([&](std::size_t k) {
    const int32_t u = upper.of[k];
    if (u < 0) {
      execute_step(steps[k], machine);
    } else {
      second->post(&upper.steps[static_cast<std::size_t>(u)]);
      execute_step(steps[k], machine);
      second->finish();
    }
    between_steps(interruption);
  });
}

}  // namespace

TwoThreads::TwoThreads(Machine& machine) : machine_(machine) {}
TwoThreads::~TwoThreads() = default;

// Positions walk with their loops (S17.2); run(k) runs step k.
void TwoThreads::execute(const std::vector<Step>& steps, std::span<const uint32_t> order, const UpperHalves& upper,
                         Interruption* interruption) {
  run_positions(steps, upper, machine_, second_, interruption, [&](auto&& run) {
    walk_positions(0, order.size(), machine_, [&](std::size_t i) -> const Step& { return steps[order[i]]; },
                   [&](std::size_t i) { run(order[i]); });
  });
}

void execute_two_threads(const std::vector<Step>& steps, const UpperHalves& upper, Machine& machine,
                         Interruption* interruption) {
  std::unique_ptr<SecondThread> second;
  run_positions(steps, upper, machine, second, interruption, [&](auto&& run) {
    walk_positions(0, steps.size(), machine, [&](std::size_t i) -> const Step& { return steps[i]; }, run);
  });
}

void execute_two_threads(const std::vector<Step>& steps, std::span<const uint32_t> order, const UpperHalves& upper,
                         Machine& machine, Interruption* interruption) {
  TwoThreads(machine).execute(steps, order, upper, interruption);
}

}  // namespace nisa
