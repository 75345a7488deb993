// nisa isa (LANGUAGE.md section 1): the reference generated from the active
// spec as Markdown (default), or the spec itself as pretty JSON.
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "error.hpp"
#include "isa_reference.hpp"
#include "spec.hpp"

namespace nisa {

int command_isa(const IsaOptions& o) {
  const Spec& spec = active_spec();
  if (o.json)
    std::cout << nlohmann::json::parse(spec.json).dump(2) << "\n";
  else
    std::cout << isa_reference_markdown(spec);
  return kExitOk;
}

}  // namespace nisa
