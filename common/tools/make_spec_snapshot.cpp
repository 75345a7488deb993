// Build-time tool: make_spec_snapshot SPEC.json OUT.cpp writes a C++ source
// defining nisa::embedded_spec_snapshot() (spec_snapshot.hpp) with the bytes
// of write_spec_snapshot(load_spec(SPEC.json)). A spec error fails the build
// with load_spec's message.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "spec.hpp"
#include "spec_snapshot.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: make_spec_snapshot SPEC.json OUT.cpp\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    std::cerr << argv[1] << ": error: cannot read\n";
    return 1;
  }
  std::string bytes;
  try {
    bytes = nisa::write_spec_snapshot(nisa::load_spec(text.str()));
  } catch (const nisa::SpecError& e) {
    std::cerr << argv[1] << ": " << e.what() << "\n";
    return 1;
  }
  const std::string tmp = std::string(argv[2]) + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << "// Generated from " << argv[1] << " by common/tools/make_spec_snapshot.cpp; do not edit.\n"
        << "#include <string_view>\n#include \"spec_snapshot.hpp\"\nnamespace nisa {\nstatic const char kSnapshot[] = {";
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      if (i % 16 == 0) out << "\n";
      out << static_cast<int>(static_cast<signed char>(bytes[i])) << ",";
    }
    out << "0};\nstd::string_view embedded_spec_snapshot() { return std::string_view(kSnapshot, " << bytes.size() << "); }\n}  // namespace nisa\n";
    if (!out) {
      std::cerr << tmp << ": error: cannot write\n";
      return 1;
    }
  }
  if (std::rename(tmp.c_str(), argv[2]) != 0) {
    std::cerr << argv[2] << ": error: cannot write\n";
    return 1;
  }
  return 0;
}
