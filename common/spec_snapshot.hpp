// The embedded spec as a build-time snapshot: load_spec(isa-spec/isa.json)
// saved as bytes by a tool run during the build (tools/make_spec_snapshot.cpp)
// and read back at start-up. Reading it allocates only the Spec itself: no
// JSON tree, no parse, no canonical dump for the spec id, which together were
// most of `nisa run`'s start-up (about 75 page faults and 1.5 ms here).
// Host byte order and struct layout: a snapshot is only read by the build
// that made it.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "spec.hpp"

namespace nisa {

std::string write_spec_snapshot(const Spec& spec);

// nullopt if the bytes are not a whole snapshot of this build's layout.
std::optional<Spec> read_spec_snapshot(std::string_view bytes);

// The snapshot compiled into the executable (generated at build time).
std::string_view embedded_spec_snapshot();

// The embedded spec: the snapshot, or load_spec(embedded_spec_text()) if the
// snapshot does not read back.
Spec load_embedded_spec();

}  // namespace nisa
