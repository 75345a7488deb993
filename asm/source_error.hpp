// An error found while reading one source line: the 1-based column it points
// at and a one-line message. The assembler turns it into a Diagnostic.
#pragma once
#include <string>

namespace nisa {

struct SourceError {
  int column = 1;
  std::string message;
};

}  // namespace nisa
