// Seeds of the nbin fuzz target: assembles each .nasm given and writes
// OUT_DIR/<name>.<n>.nbin as the target reads it (fuzz_entries.hpp): one
// leading byte choosing CRC recomputation and --strict, then the binary.
// Programs that do not assemble (the bad-input tests) are skipped, each with
// its first error on stdout.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "assembler.hpp"
#include "error.hpp"
#include "file_io.hpp"
#include "nbin.hpp"
#include "spec.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: make_nbin_seeds OUT_DIR FILE.nasm...\n");
    return 2;
  }
  const std::string out = argv[1];
  const nisa::Spec& spec = nisa::active_spec();
  int written = 0;
  for (int i = 2; i < argc; ++i) {
    try {
      nisa::AssembleResult r = nisa::assemble(spec, nisa::read_file_text(argv[i]), argv[i]);
      if (!r.diagnostics.empty()) {
        std::printf("skipped %s", nisa::format_diagnostic(r.diagnostics.front()).c_str());
        continue;
      }
      std::vector<uint8_t> bytes = nisa::encode_program(spec, r.program);
      for (uint8_t mode : {uint8_t{0}, uint8_t{3}}) {
        std::vector<uint8_t> seed{mode};
        seed.insert(seed.end(), bytes.begin(), bytes.end());
        nisa::write_file_atomically(out + "/" + std::to_string(i) + "." + std::to_string(mode) + ".nbin", seed);
        ++written;
      }
    } catch (const nisa::NisaError& e) {
      std::fprintf(stderr, "%s\n", e.what());
    }
  }
  std::printf("%d nbin seeds in %s\n", written, out.c_str());
  return 0;
}
