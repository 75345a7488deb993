// A program for several cores without .core sections (LANGUAGE.md 2.7): its
// lines are read once per core with `core` = that core's number; the result
// is the program its sections would spell out.
#include <doctest/doctest.h>

#include "asm_test_support.hpp"

namespace {

using nisa::Program;
using nisa::TensorDecl;

const std::string kEveryCore =
    ".cores 2\n"
    ".hbm x f32 [256, 8] input\n"
    ".hbm y f32 [256, 8] output\n"
    ".sbuf t f32 [128, 8]\n"
    "dma_copy dst=t, src=x[core * 128:core * 128 + 128]\n"
    "dma_copy dst=y[core * 128:core * 128 + 128], src=t\n";

const std::string kSections =
    ".cores 2\n"
    ".hbm x f32 [256, 8] input\n"
    ".hbm y f32 [256, 8] output\n"
    ".core 0\n"
    ".sbuf t f32 [128, 8]\n"
    "dma_copy dst=t, src=x[0:128]\n"
    "dma_copy dst=y[0:128], src=t\n"
    ".core 1\n"
    ".sbuf t f32 [128, 8]\n"
    "dma_copy dst=t, src=x[128:256]\n"
    "dma_copy dst=y[128:256], src=t\n";

// The program without its line numbers, which differ between the two texts.
Program without_lines(Program p) {
  for (TensorDecl& t : p.tensors) t.line = 0;
  for (nisa::Instruction& i : p.instructions) i.line = 0;
  return p;
}

}  // namespace

TEST_CASE("every core's lines: the program its sections spell out") {
  const Program every = asm_test::assemble_ok(kEveryCore);
  const Program sections = asm_test::assemble_ok(kSections);
  CHECK(without_lines(every) == without_lines(sections));
  REQUIRE(every.core_starts == std::vector<uint64_t>{0, 2});
  CHECK(every.tensors[0].core == TensorDecl::kShared);
  CHECK(every.tensors[2].core == 0);
  CHECK(every.tensors[3].core == 1);
  // Each core's instructions keep their source lines (5 and 6).
  CHECK(every.instructions[2].line == 5);
  CHECK(every.instructions[3].line == 6);
}

TEST_CASE("every core's lines: --cores gives the count of a program without .cores") {
  const std::string body = kEveryCore.substr(kEveryCore.find('\n') + 1);
  auto r = nisa::assemble(asm_test::spec(), body, "t.nasm", nullptr, {}, 2);
  REQUIRE(r.diagnostics.empty());
  CHECK(nisa::core_count(r.program) == 2);
  auto mismatch = nisa::assemble(asm_test::spec(), kEveryCore, "t.nasm", nullptr, {}, 1);
  REQUIRE(mismatch.diagnostics.size() == 1);
  CHECK(mismatch.diagnostics[0].message == "the program is for 2 cores but --cores asks for 1");
  // Without a count, `core` is not a name.
  CHECK(asm_test::first_error(body).rfind("unknown name 'core' (the core number of a program for several cores", 0) == 0);
}

TEST_CASE("every core's lines: shared HBM is declared once, before the tiles") {
  CHECK(asm_test::first_error(".cores 2\n.sbuf t f32 [128, 8]\n.hbm x f32 [256, 8] input\n") ==
        "HBM tensor 'x' after on-chip tensor 't': a program for several cores without .core sections declares its (shared) HBM "
        "tensors first");
  CHECK(asm_test::first_error(".cores 2\n.hbm x f32 [128, core + 1] scratch\n") ==
        "tensor 'x' is declared differently for core 1 than for core 0; an HBM tensor of a program without .core sections is "
        "one tensor every core shares");
}

TEST_CASE("sections: tensors are per core, instructions inside sections") {
  CHECK(asm_test::first_error(".cores 2\n.hbm x f32 [128, 8] input\n.core 0\n.sbuf t f32 [128, 8]\n.core 1\ndma_copy dst=t, src=x\n") ==
        "unknown tensor 't' here: tensor 't' is core 0's, and a core reaches only its own tensors and shared HBM");
  CHECK(asm_test::first_error(".cores 2\n.hbm x f32 [128, 8] input\n.core 1\n.core 0\n") ==
        ".core 0 after .core 1: each core's section once, in order");
  CHECK(asm_test::first_error(".arch trn1\n.cores 2\n") == "2 cores: arch trn1 runs 1 per logical core");
  CHECK(asm_test::first_error(".cores 3\n") == "3 cores: arch trn2 runs 1 to 2 per logical core");
  CHECK(asm_test::first_error(".core 0\n") == ".core needs a program for several cores: `.cores 2` first");
}
