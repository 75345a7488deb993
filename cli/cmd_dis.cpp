// nisa dis (LANGUAGE.md section 1). Not built yet: refuses with exit 2.
#include "commands.hpp"
#include "error.hpp"

namespace nisa {

int command_dis(const DisOptions&) { throw InputError("nisa: error: 'dis' is not implemented yet"); }

}  // namespace nisa
