// nisa asm (LANGUAGE.md section 1). Not built yet: refuses with exit 2.
#include "commands.hpp"
#include "error.hpp"

namespace nisa {

int command_asm(const AsmOptions&) { throw InputError("nisa: error: 'asm' is not implemented yet"); }

}  // namespace nisa
