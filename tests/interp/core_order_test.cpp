// What orders two cores' instructions (interp/schedule/core_order.hpp,
// SEMANTICS S16.5): program order within a core, meetings between cores,
// transitively. Positions as a program lays them out, core k's after core
// k-1's; every expectation follows from which meetings came before.
#include <doctest/doctest.h>

#include <vector>

#include "core_order.hpp"

namespace nisa {
namespace {

// Cores 0, 1, 2 at positions [0, 10), [10, 20), [20, 30).
TEST_CASE("core order: nothing between cores before they meet; a core's own instructions always") {
  const CoreOrder order = start_core_order(3);
  CHECK(happens_before(order, 0, 9, 0));
  CHECK(happens_before(order, 1, 19, 1));
  CHECK_FALSE(happens_before(order, 0, 0, 1));
  CHECK_FALSE(happens_before(order, 1, 10, 0));
  CHECK_FALSE(happens_before(order, 2, 20, 0));
}

TEST_CASE("core order: a meeting orders what each side did before it, its own instruction included") {
  CoreOrder order = start_core_order(2);
  const std::vector<MeetingSide> sides{{0, 5}, {1, 14}};
  meet(order, sides);
  CHECK(happens_before(order, 0, 4, 1));
  CHECK(happens_before(order, 0, 5, 1));
  CHECK_FALSE(happens_before(order, 0, 6, 1));  // after core 0's meeting
  CHECK(happens_before(order, 1, 13, 0));
  CHECK(happens_before(order, 1, 14, 0));
  CHECK_FALSE(happens_before(order, 1, 15, 0));
  // A second meeting moves both on.
  const std::vector<MeetingSide> again{{0, 8}, {1, 17}};
  meet(order, again);
  CHECK(happens_before(order, 0, 8, 1));
  CHECK_FALSE(happens_before(order, 0, 9, 1));
  CHECK(happens_before(order, 1, 17, 0));
  CHECK_FALSE(happens_before(order, 1, 18, 0));
}

TEST_CASE("core order: what a core learnt it passes on at its next meeting, and never forgets") {
  CoreOrder order = start_core_order(3);
  const std::vector<MeetingSide> first{{0, 3}, {1, 12}};
  meet(order, first);
  const std::vector<MeetingSide> second{{1, 15}, {2, 25}};
  meet(order, second);
  // Core 2 met only core 1, which had met core 0 at position 3.
  CHECK(happens_before(order, 0, 3, 2));
  CHECK_FALSE(happens_before(order, 0, 4, 2));
  CHECK(happens_before(order, 1, 15, 2));
  // Core 0 knows core 1 only up to their meeting, and nothing of core 2.
  CHECK(happens_before(order, 1, 12, 0));
  CHECK_FALSE(happens_before(order, 1, 13, 0));
  CHECK_FALSE(happens_before(order, 2, 20, 0));
  // Core 0 meets core 2: it learns core 1 up to 15 through core 2; core 2
  // keeps what it knew of core 1 (more than core 0 did).
  const std::vector<MeetingSide> third{{0, 6}, {2, 27}};
  meet(order, third);
  CHECK(happens_before(order, 1, 15, 0));
  CHECK_FALSE(happens_before(order, 1, 16, 0));
  CHECK(happens_before(order, 2, 27, 0));
  CHECK(happens_before(order, 0, 6, 2));
  CHECK(happens_before(order, 1, 15, 2));
  // Core 1 was not there: it still knows core 0 only up to 3, core 2 up to 25.
  CHECK(happens_before(order, 0, 3, 1));
  CHECK_FALSE(happens_before(order, 0, 4, 1));
  CHECK(happens_before(order, 2, 25, 1));
  CHECK_FALSE(happens_before(order, 2, 26, 1));
}

TEST_CASE("core order: a barrier of three joins all three") {
  CoreOrder order = start_core_order(3);
  const std::vector<MeetingSide> barrier{{0, 2}, {1, 11}, {2, 22}};
  meet(order, barrier);
  for (int later = 0; later < 3; ++later) {
    CHECK(happens_before(order, 0, 2, later));
    CHECK(happens_before(order, 1, 11, later));
    CHECK(happens_before(order, 2, 22, later));
  }
  CHECK_FALSE(happens_before(order, 0, 3, 1));
  CHECK_FALSE(happens_before(order, 2, 23, 0));
}

}  // namespace
}  // namespace nisa
