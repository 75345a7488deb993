#include "interruption.hpp"

#include <algorithm>
#include <utility>

namespace nisa {

namespace {
// Clock reads aimed between these: fewer would let a slow stretch of steps
// pass kPollInterval unseen, more would cost time in a loop of tiny steps.
constexpr std::chrono::microseconds kReadAtLeast{250};
constexpr std::chrono::microseconds kReadAtMost{2000};
constexpr int64_t kMaxStride = int64_t{1} << 20;
}  // namespace

Interruption::Interruption(std::function<bool()> requested)
    : requested_(std::move(requested)), last_read_(std::chrono::steady_clock::now()), last_poll_(last_read_) {}

void Interruption::check_clock() {
  const auto now = std::chrono::steady_clock::now();
  const auto since_read = now - last_read_;
  if (since_read < kReadAtLeast) stride_ = std::min(stride_ * 2, kMaxStride);
  else if (since_read > kReadAtMost) stride_ = std::max<int64_t>(stride_ / 2, 1);
  countdown_ = stride_;
  last_read_ = now;
  if (now - last_poll_ < kPollInterval) return;
  last_poll_ = now;
  if (requested_()) throw RunInterrupted{};
}

}  // namespace nisa
