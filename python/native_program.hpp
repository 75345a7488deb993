// What a nisa.Program holds of the compiled side: its loaded program, shared
// by every Program object and run that uses it.
#pragma once
#include <memory>

#include "loaded_program.hpp"

namespace nisa {

struct NativeProgram {
  std::shared_ptr<LoadedProgram> loaded;
};

}  // namespace nisa
