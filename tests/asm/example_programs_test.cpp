// The example programs assemble, pass the checker, and survive the .nbin
// encoder and decoder unchanged (LANGUAGE.md section 3: the line table included).
#include <string>

#include "asm_test_support.hpp"
#include "file_io.hpp"
#include "nbin.hpp"
#include "program_check.hpp"

TEST_CASE("example programs: assemble, check, encode, decode") {
  for (const char* name : {"vector_range_select", "scalar_activation", "gpsimd_nonzero"}) {
    CAPTURE(name);
    const std::string path = std::string(NISA_SOURCE_DIR) + "/programs/examples/" + name + "/prog.nasm";
    nisa::Program p = asm_test::assemble_ok(nisa::read_file_text(path));
    CHECK(!p.instructions.empty());
    for (int t = 0; t < static_cast<int>(p.tensors.size()); ++t) CHECK(nisa::check_tensor(asm_test::spec(), p, t).empty());
    for (const auto& ins : p.instructions) CHECK(nisa::check_instruction(asm_test::spec(), p, ins).empty());
    const auto bytes = nisa::encode_program(asm_test::spec(), p);
    CHECK(nisa::decode_program(asm_test::spec(), bytes, "x.nbin") == p);
  }
}

TEST_CASE("instruction lines in .rept bodies are the template's line") {
  nisa::Program p = asm_test::assemble_ok(nisa::read_file_text(std::string(NISA_SOURCE_DIR) + "/programs/examples/scalar_activation/prog.nasm"));
  REQUIRE(p.instructions.size() == 7);
  CHECK(p.instructions[1].line == p.instructions[2].line);
  CHECK(p.instructions[3].line == p.instructions[2].line + 3);
}
