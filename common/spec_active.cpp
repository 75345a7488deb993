// The spec every command uses (spec.hpp): the embedded one, from the
// snapshot made at build time (no JSON parse at start-up), or a --spec /
// NISA_SPEC file loaded from its JSON.
#include <cstdlib>
#include <optional>

#include "error.hpp"
#include "file_io.hpp"
#include "spec.hpp"
#include "spec_snapshot.hpp"

namespace nisa {

namespace {
std::optional<Spec>& active_slot() {
  static std::optional<Spec> slot;
  return slot;
}
}  // namespace

void set_active_spec_file(const std::string& path) {
  // read_file_text: bounded for a pipe or device (/dev/zero stops at its
  // first NUL, which the JSON parser then refuses).
  std::string text;
  try {
    text = read_file_text(path);
  } catch (const InputError&) {
    throw SpecError("isa-spec: cannot read " + path);
  }
  active_slot() = load_spec(text);
}

const Spec& active_spec() {
  auto& slot = active_slot();
  if (!slot) {
    if (const char* env = std::getenv("NISA_SPEC"); env && *env)
      set_active_spec_file(env);
    else
      slot = load_embedded_spec();
  }
  return *slot;
}

Spec load_embedded_spec() {
  // The snapshot is load_spec(embedded_spec_text()) saved at build time
  // (tests/common/spec_test.cpp checks they are equal); the JSON is the
  // fallback should it ever not read back.
  if (std::optional<Spec> s = read_spec_snapshot(embedded_spec_snapshot())) return std::move(*s);
  return load_spec(embedded_spec_text());
}

}  // namespace nisa
