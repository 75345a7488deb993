// Issue 24: every limit of LANGUAGE.md 2.6 counts what the table says and is
// reported, with its name, at the line where it is first exceeded. The
// instruction and .rept limits are lowered through AssembleLimits (counting
// is what is tested); the tensor limit is the .nbin's own.
#include <chrono>

#include "asm_test_support.hpp"
#include "program_check.hpp"

namespace {

nisa::AssembleResult assemble_with(const std::string& source, const nisa::AssembleLimits& limits) {
  return nisa::assemble(asm_test::spec(), source, "t.nasm", nullptr, limits);
}

std::string declarations(int count) {
  std::string s;
  for (int i = 0; i < count; ++i) s += ".sbuf t" + std::to_string(i) + " u8 [1, 1]\n";
  return s;
}

}  // namespace

TEST_CASE("the instruction limit counts instructions: not declarations, .loc or other directives") {
  nisa::AssembleLimits limits;
  limits.instructions = 3;
  // Lines 1-4 declare and direct; lines 5, 7, 8 are the three instructions.
  const std::string three = ".arch trn2\n.sbuf t f32 [128, 4]\n.equ V, 2\n.loc 100\nmemset dst=t, value=1\n.loc 200\nmemset dst=t, value=V\nmemset dst=t, value=3\n";
  CHECK(assemble_with(three, limits).diagnostics.empty());
  const auto r = assemble_with(three + ".sbuf u f32 [128, 4]\nmemset dst=u, value=4\nmemset dst=u, value=5\n", limits);
  REQUIRE(r.diagnostics.size() == 1);  // at the fourth instruction (line 10), and the assembly stops there
  CHECK(r.diagnostics[0].line == 10);
  CHECK(r.diagnostics[0].column == 1);
  CHECK(r.diagnostics[0].message == "too many instructions: a program has at most 3 instructions (each .rept iteration's copy counted)");
}

TEST_CASE("the instruction limit counts each .rept iteration's copy, reported at the instruction") {
  nisa::AssembleLimits limits;
  limits.instructions = 6;
  const std::string body = ".sbuf t f32 [128, 4]\n.rept i, 2\n.rept j, 3\n.loc 7\nmemset dst=t, value=j\n.endr\n.endr\n";
  CHECK(assemble_with(body, limits).diagnostics.empty());  // 2 x 3 = 6
  const auto r = assemble_with(body + "memset dst=t, value=9\n", limits);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].line == 8);
  limits.instructions = 5;
  const auto inside = assemble_with(body, limits);
  REQUIRE(inside.diagnostics.size() == 1);
  CHECK(inside.diagnostics[0].line == 5);  // the memset line, whose sixth copy is one too many
}

TEST_CASE(".rept limits: lines run by bodies and iterations, each by name at the outermost .rept") {
  nisa::AssembleLimits limits;
  limits.rept_lines = 10;
  // Lines run by bodies: 2 x (.rept j line + 2 x 2 .equ lines) = 10. Flat lines do not count.
  const std::string ten = ".equ A, 1\n.equ B, 1\n.rept i, 2\n.rept j, 2\n.equ X, j\n.equ Y, j\n.endr\n.endr\n";
  CHECK(assemble_with(ten, limits).diagnostics.empty());
  limits.rept_lines = 9;
  auto r = assemble_with(ten, limits);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].line == 3);
  CHECK(r.diagnostics[0].message == ".rept expansion exceeds the assembler's limit of 9 lines run by .rept bodies");

  nisa::AssembleLimits iterations;
  iterations.rept_iterations = 6;  // 2 + 2 x 2 = 6 iterations
  CHECK(assemble_with(ten, iterations).diagnostics.empty());
  iterations.rept_iterations = 5;
  r = assemble_with(ten, iterations);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].line == 3);
  CHECK(r.diagnostics[0].message == ".rept expansion exceeds the assembler's limit of 5 iterations");
}

TEST_CASE("1024 tensors assemble; the 1025th declaration is refused at its line, by the limit's name") {
  // 1024: the spec's tensor operand fields are 10 bits wide (docs/NBIN.md).
  const auto ok = nisa::assemble(asm_test::spec(), declarations(1024), "t.nasm");
  CHECK(ok.diagnostics.empty());
  const auto r = nisa::assemble(asm_test::spec(), declarations(1030), "t.nasm");
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].line == 1025);
  CHECK(r.diagnostics[0].message.find("at most 1024 tensors") != std::string::npos);
}

TEST_CASE("100,000 declarations are refused at once, not after a quadratic check (was 68 s)") {
  const auto start = std::chrono::steady_clock::now();
  const auto r = nisa::assemble(asm_test::spec(), declarations(100'000), "t.nasm");
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 2);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].line == 1025);
}

TEST_CASE("TensorChecker finds what check_tensor finds, in one pass") {
  nisa::Program p;
  p.arch = asm_test::spec().default_arch;
  auto hbm = [](std::string name, int64_t rows) {
    nisa::TensorDecl t;
    t.name = std::move(name);
    t.memory = nisa::Memory::hbm;
    t.dtype = nisa::Dtype::f32;
    t.shape = {rows, 1 << 20};  // 4 MiB a row
    t.role = nisa::Role::scratch;
    return t;
  };
  // 256 rows x 4 MiB = 1 GiB each: four fit (the total is a run's limit,
  // not the checker's), a fifth of 16,385 rows is past the 64 GiB of one
  // tensor; the sixth repeats a name.
  for (const char* n : {"a", "b", "c", "d"}) p.tensors.push_back(hbm(n, 256));
  p.tensors.push_back(hbm("e", 16385));
  p.tensors.push_back(hbm("a", 1));
  nisa::TensorChecker checker;
  for (int i = 0; i < 6; ++i) {
    const auto one = nisa::check_tensor(asm_test::spec(), p, i);
    const auto running = checker.check(asm_test::spec(), p, i);
    REQUIRE(one.size() == running.size());
    for (std::size_t k = 0; k < one.size(); ++k) CHECK(one[k].message == running[k].message);
    CHECK(one.empty() == (i < 4));
  }
  CHECK(nisa::check_tensor(asm_test::spec(), p, 5)[0].message == "tensor 'a' is declared twice");
}
