// nisa diff (LANGUAGE.md section 1). Not built yet: refuses with exit 2.
#include "commands.hpp"
#include "error.hpp"

namespace nisa {

int command_diff(const DiffOptions&) { throw InputError("nisa: error: 'diff' is not implemented yet"); }

}  // namespace nisa
