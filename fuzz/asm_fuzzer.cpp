// libFuzzer target: see fuzz_entries.hpp (assemble_text).
#include "fuzz_entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nisa::fuzz::assemble_text(data, size);
  return 0;
}
