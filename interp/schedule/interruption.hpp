// Asking a long run whether it should stop (issue 24: Ctrl-C during a Python
// nisa.run arrived only when the run ended). The execute loops call
// between_steps() after each step; it costs a decrement and a branch, and
// every `stride` steps reads the clock. The stride adapts so that the clock is
// read about once a millisecond whatever a step costs, and `requested` (from
// Python: take the GIL and run the pending signal handlers) is asked at most
// every kPollInterval of work. When it answers yes the loop throws
// RunInterrupted between two steps, with no step half done.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>

namespace nisa {

// Thrown by between_steps() once `requested` said yes. Not a NisaError: the
// caller already knows why (a Python exception is pending).
struct RunInterrupted {};

class Interruption {
 public:
  static constexpr std::chrono::milliseconds kPollInterval{10};

  explicit Interruption(std::function<bool()> requested);

  void between_steps() {
    if (--countdown_ == 0) check_clock();
  }

 private:
  void check_clock();

  std::function<bool()> requested_;
  int64_t stride_ = 1;
  int64_t countdown_ = 1;
  std::chrono::steady_clock::time_point last_read_;
  std::chrono::steady_clock::time_point last_poll_;
};

// The loops' form: a null pointer is a run nobody can interrupt (the CLI,
// where SIGINT ends the process).
inline void between_steps(Interruption* interruption) {
  if (interruption != nullptr) interruption->between_steps();
}

}  // namespace nisa
