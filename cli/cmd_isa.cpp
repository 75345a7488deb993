// nisa isa (LANGUAGE.md section 1). Not built yet: refuses with exit 2.
#include "commands.hpp"
#include "error.hpp"

namespace nisa {

int command_isa(const IsaOptions&) { throw InputError("nisa: error: 'isa' is not implemented yet"); }

}  // namespace nisa
