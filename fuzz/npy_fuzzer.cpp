// libFuzzer target: see fuzz_entries.hpp (read_npy_bytes).
#include "fuzz_entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nisa::fuzz::read_npy_bytes(data, size);
  return 0;
}
