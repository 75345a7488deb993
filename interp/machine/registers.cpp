#include "registers.hpp"

#include <string>

#include "error.hpp"

namespace nisa {

void unset_register(const RegisterSite& site, int32_t reg) {
  throw RuntimeFault(site.program->file + ":" + std::to_string(site.line) + ": error: " + site.instruction + ": register '" +
                     site.program->registers[static_cast<std::size_t>(reg)].name +
                     "' is read before anything set it (S17.1: register_move, register_load, register_op or a fori_loop's var)");
}

}  // namespace nisa
