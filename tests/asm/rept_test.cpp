// .rept/.endr (nested, variables visible to inner bodies), .file and .loc.
#include "asm_test_support.hpp"

TEST_CASE(".rept repeats its body with VAR = 0..COUNT-1; lines are the template's") {
  auto p = asm_test::assemble_ok(
      ".sbuf t i32 [128, 8]\n"         // 1
      ".rept i, 3\n"                   // 2
      "memset dst=t[:, i], value=i\n"  // 3
      ".endr\n");
  REQUIRE(p.instructions.size() == 3);
  for (int i = 0; i < 3; ++i) {
    CHECK(p.instructions[i].operands[0].view.dims[1] == nisa::DimSlice{i, 1, 1});
    CHECK(p.instructions[i].operands[1].integer == i);
    CHECK(p.instructions[i].line == 3);
  }
}

TEST_CASE("nested .rept: the inner body sees the outer variable") {
  auto p = asm_test::assemble_ok(
      ".sbuf t i32 [128, 8]\n"
      ".equ N, 2\n"
      ".rept i, N\n"
      "  .rept j, N + 1\n"
      "    memset dst=t[:, i * 4 + j], value=i * 10 + j\n"
      "  .endr\n"
      ".endr\n");
  REQUIRE(p.instructions.size() == 6);
  std::vector<int64_t> values;
  for (const auto& ins : p.instructions) values.push_back(ins.operands[1].integer);
  CHECK(values == std::vector<int64_t>{0, 1, 2, 10, 11, 12});
  CHECK(p.instructions[5].operands[0].view.dims[1].start == 6);
}

TEST_CASE(".rept of zero runs nothing; the inner variable shadows an outer one") {
  auto p = asm_test::assemble_ok(".sbuf t i32 [128, 8]\n.rept i, 0\nmemset dst=t, value=1\n.endr\n.rept i, 1\n.rept i, 2\nmemset dst=t, value=i\n.endr\n.endr\n");
  REQUIRE(p.instructions.size() == 2);
  CHECK(p.instructions[1].operands[1].integer == 1);
}

TEST_CASE(".rept errors") {
  CHECK(asm_test::first_error(".rept i, 2\n") == ".rept without a matching .endr");
  CHECK(asm_test::first_error(".endr\n") == ".endr without a matching .rept");
  CHECK(asm_test::first_error(".rept i, -1\n.endr\n") == ".rept count -1 is out of range [0, 1000000]");
  // An error in a body is reported once, not once per iteration.
  auto r = nisa::assemble(asm_test::spec(), ".rept i, 5\nbogus\n.endr\n", "t.nasm");
  CHECK(r.diagnostics.size() == 1);
}

TEST_CASE(".loc numbers the following instructions; .file names the program") {
  auto p = asm_test::assemble_ok(".file \"orig.nasm\"\n.sbuf t f32 [128, 8]\n.loc 40\nmemset dst=t, value=1\n\nmemset dst=t, value=2\n");
  CHECK(p.file == "orig.nasm");
  REQUIRE(p.instructions.size() == 2);
  CHECK(p.instructions[0].line == 40);
  CHECK(p.instructions[1].line == 41);
  auto q = asm_test::assemble_ok(".sbuf t f32 [128, 8]\n\nmemset dst=t, value=1\n");
  CHECK(q.file == "t.nasm");
  CHECK(q.instructions[0].line == 3);
  CHECK(q.tensors[0].line == 1);
}

TEST_CASE(".arch: once, before everything; default from the spec") {
  CHECK(asm_test::assemble_ok("").arch == asm_test::spec().default_arch);
  CHECK(asm_test::assemble_ok(".arch trn3\n").arch == asm_test::spec().find_arch("trn3"));
  CHECK(asm_test::first_error(".sbuf t f32 [128, 8]\n.arch trn3\n") == ".arch must come before every declaration and instruction");
  CHECK(asm_test::first_error(".arch trn3\n.arch trn2\n") == ".arch is given twice (first at line 1)");
  CHECK(asm_test::first_error(".arch trn4\n") == "unknown arch 'trn4'; did you mean 'trn1'?");
}
