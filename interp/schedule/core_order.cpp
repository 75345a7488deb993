#include "core_order.hpp"

#include <algorithm>
#include <cstdint>

namespace nisa {

CoreOrder start_core_order(int cores) {
  return CoreOrder{cores, std::vector<std::size_t>(static_cast<std::size_t>(cores) * static_cast<std::size_t>(cores), 0)};
}

void meet(CoreOrder& order, std::span<const MeetingSide> sides) {
  const auto n = static_cast<std::size_t>(order.cores);
  auto row = [&](int core) { return order.known.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(core) * n); };
  // Each side is done through its meeting instruction.
  for (const MeetingSide& s : sides) {
    std::size_t& own = row(s.core)[static_cast<std::ptrdiff_t>(s.core)];
    own = std::max(own, s.position + 1);
  }
  // The join: the latest each participant knows of every core.
  std::vector<std::size_t> joined(n, 0);
  for (const MeetingSide& s : sides)
    for (std::size_t d = 0; d < n; ++d) joined[d] = std::max(joined[d], row(s.core)[static_cast<std::ptrdiff_t>(d)]);
  for (const MeetingSide& s : sides) std::copy(joined.begin(), joined.end(), row(s.core));
}

std::size_t first_unordered(const CoreOrder& order, int earlier_core, int later) {
  if (earlier_core == later) return SIZE_MAX;
  const auto n = static_cast<std::size_t>(order.cores);
  return order.known[static_cast<std::size_t>(later) * n + static_cast<std::size_t>(earlier_core)];
}

bool happens_before(const CoreOrder& order, int earlier_core, std::size_t position, int later) {
  return position < first_unordered(order, earlier_core, later);
}

}  // namespace nisa
