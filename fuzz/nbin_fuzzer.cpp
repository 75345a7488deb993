// libFuzzer target: see fuzz_entries.hpp (load_binary).
#include "fuzz_entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nisa::fuzz::load_binary(data, size);
  return 0;
}
