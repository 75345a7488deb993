// Replays fuzz findings in the normal build: `nisa_fuzz_replay TARGET PATH...`
// feeds every file (or every file of every folder) given to the same entry
// function as the libFuzzer target TARGET (fuzz/fuzz_entries.hpp). A file
// that still crashes ends the process (abort, sanitizer report, or an escaped
// exception); a clean pass prints how many inputs were replayed.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "file_io.hpp"
#include "fuzz_entries.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: nisa_fuzz_replay asm|nbin|npy PATH...\n");
    return 2;
  }
  const std::string target = argv[1];
  auto entry = target == "asm" ? nisa::fuzz::assemble_text
             : target == "nbin" ? nisa::fuzz::load_binary
             : target == "npy" ? nisa::fuzz::read_npy_bytes
                               : nullptr;
  if (entry == nullptr) {
    std::fprintf(stderr, "nisa_fuzz_replay: unknown target '%s'\n", target.c_str());
    return 2;
  }
  std::vector<std::string> files;
  for (int i = 2; i < argc; ++i) {
    if (std::filesystem::is_directory(argv[i])) {
      for (const auto& e : std::filesystem::directory_iterator(argv[i]))
        if (e.is_regular_file() && e.path().filename().string()[0] != '.') files.push_back(e.path().string());
    } else {
      files.push_back(argv[i]);
    }
  }
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) {
    std::fprintf(stderr, "replay %s\n", f.c_str());
    const std::vector<uint8_t> bytes = nisa::read_file_bytes(f);
    entry(bytes.data(), bytes.size());
  }
  std::printf("%s: %zu inputs replayed, no crash\n", target.c_str(), files.size());
  return 0;
}
