// spec_snapshot.hpp: start-up reads the build-time snapshot instead of the
// JSON; it must be exactly what load_spec gives (a field left out of the
// snapshot's field lists would differ here), spec id and canonical JSON included.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>

#include "spec.hpp"
#include "spec_snapshot.hpp"

TEST_CASE("the embedded spec snapshot equals load_spec of the embedded JSON") {
  const nisa::Spec from_json = nisa::load_spec(nisa::embedded_spec_text());
  const std::optional<nisa::Spec> from_snapshot = nisa::read_spec_snapshot(nisa::embedded_spec_snapshot());
  REQUIRE(from_snapshot.has_value());
  CHECK(*from_snapshot == from_json);
  CHECK(from_snapshot->id == from_json.id);
  CHECK(from_snapshot->json == from_json.json);
  CHECK(nisa::load_embedded_spec() == from_json);
}

TEST_CASE("a snapshot reads back only whole and unchanged") {
  const nisa::Spec spec = nisa::load_spec(nisa::embedded_spec_text());
  const std::string bytes = nisa::write_spec_snapshot(spec);
  CHECK(bytes == std::string(nisa::embedded_spec_snapshot()));
  CHECK(nisa::read_spec_snapshot(bytes) == spec);
  CHECK_FALSE(nisa::read_spec_snapshot(std::string_view(bytes).substr(0, bytes.size() - 1)).has_value());
  CHECK_FALSE(nisa::read_spec_snapshot(bytes + "x").has_value());
  CHECK_FALSE(nisa::read_spec_snapshot("").has_value());
  std::string other_magic = bytes;
  other_magic[0] ^= 1;
  CHECK_FALSE(nisa::read_spec_snapshot(other_magic).has_value());
}
