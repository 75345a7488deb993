// Wall time between marks of a run (`nisa run --phase-times`: "phases ms:
// load 1.20 inputs 0.80 ..."). Reads no clock when off: the first read faults
// in the vDSO's data pages (~25 us of a 3 ms run, issue 16).
#pragma once
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace nisa {

class PhaseClock {
 public:
  explicit PhaseClock(bool on) : on_(on) {
    if (on_) last_ = std::chrono::steady_clock::now();
  }
  void mark(const char* phase) {
    if (!on_) return;
    const auto now = std::chrono::steady_clock::now();
    phases_.emplace_back(phase, std::chrono::duration<double, std::milli>(now - last_).count());
    last_ = now;
  }
  std::string report() const {
    std::string out = "phases ms:";
    char buf[64];
    for (const auto& [name, ms] : phases_) {
      std::snprintf(buf, sizeof buf, " %s %.3f", name, ms);
      out += buf;
    }
    return out + "\n";
  }

 private:
  bool on_;
  std::chrono::steady_clock::time_point last_;
  std::vector<std::pair<const char*, double>> phases_;
};

}  // namespace nisa
