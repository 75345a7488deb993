// nisa run (LANGUAGE.md section 1). Not built yet: refuses with exit 2.
#include "commands.hpp"
#include "error.hpp"

namespace nisa {

int command_run(const RunOptions&) { throw InputError("nisa: error: 'run' is not implemented yet"); }

}  // namespace nisa
