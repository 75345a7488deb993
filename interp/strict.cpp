#include "interpreter.hpp"

namespace nisa {
void execute_strict(const Program&, const std::vector<Step>& steps, Machine& machine) { execute(steps, machine); }
}  // namespace nisa
