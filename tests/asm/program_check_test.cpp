// The checker on programs that did not come from the assembler (as the .nbin
// loader hands them over): every defect the parser would have stopped must
// still be caught, so a passing program runs without bounds checks.
#include "asm_test_support.hpp"
#include "program_check.hpp"

namespace {

using nisa::check_instruction;
using nisa::check_tensor;
using nisa::OperandState;

nisa::Program base() {
  return asm_test::assemble_ok(
      ".sbuf x f32 [128, 64]\n.sbuf y f32 [128, 64]\n.sbuf lo f32 [128, 1]\n.sbuf hi f32 [128, 1]\n"
      "range_select dst=y, on_true_tile=x, comp_op0=ge, comp_op1=lt, bound0=lo, bound1=hi\n");
}

std::string first_failure(const nisa::Program& p, const nisa::Instruction& ins) {
  auto f = check_instruction(asm_test::spec(), p, ins);
  return f.empty() ? "" : f[0].message;
}

}  // namespace

TEST_CASE("a program from the assembler passes the checker") {
  auto p = base();
  CHECK(check_instruction(asm_test::spec(), p, p.instructions[0]).empty());
  for (int t = 0; t < 4; ++t) CHECK(check_tensor(asm_test::spec(), p, t).empty());
}

TEST_CASE("structural defects of decoded instructions") {
  auto p = base();
  auto ins = p.instructions[0];
  ins.operands[0].state = OperandState::absent;
  CHECK(first_failure(p, ins) == "'dst' is missing");

  ins = p.instructions[0];
  ins.operands[0].view.tensor = 9;
  CHECK(first_failure(p, ins) == "'dst' names tensor number 9 of 4");

  ins = p.instructions[0];
  ins.operands[0].view.dims.pop_back();
  CHECK(first_failure(p, ins) == "'dst': tensor 'y' has 2 dimensions, the view 1");

  ins = p.instructions[0];
  ins.operands[1].view.dims[1] = nisa::DimSlice{60, 3, 2};  // 60, 62, 64: one past the end
  CHECK(first_failure(p, ins) == "'on_true_tile': dimension 1 of 'x': slice 60:65:2 is out of range (size 64)");

  ins = p.instructions[0];
  ins.operands[1].view.dims[1] = nisa::DimSlice{0, 0, 1};
  CHECK(first_failure(p, ins) == "'on_true_tile': dimension 1 of 'x' selects 0 elements; a slice must not be empty");

  ins = p.instructions[0];
  ins.operands[2].integer = 40;  // enum index past the compare enum
  CHECK(first_failure(p, ins) == "'comp_op0' enum index 40 is out of range for compare");

  ins = p.instructions[0];
  ins.operands[2].state = OperandState::scalar;
  CHECK(first_failure(p, ins) == "'comp_op0' must be an enum value, got a scalar");

  ins = p.instructions[0];
  ins.operands.pop_back();
  CHECK(first_failure(p, ins) == "range_select has 11 operands, got 10");

  ins = p.instructions[0];
  ins.spec_index = 99;
  CHECK(first_failure(p, ins) == "unknown instruction number 99");
}

TEST_CASE("cross checks run only when every operand is valid on its own") {
  auto p = base();
  auto ins = p.instructions[0];
  ins.operands[1].view.dims[1].count = 32;  // shape now differs from dst
  CHECK(first_failure(p, ins) == "'dst' and 'on_true_tile' differ in shape: 128 partitions x 64 elements vs 128 partitions x 32 elements");
  ins.operands[4].view = nisa::whole_view(p, 0);  // bound0 = x: a float32 tile, but not a column
  auto failures = check_instruction(asm_test::spec(), p, ins);
  REQUIRE(failures.size() == 2);
  CHECK(failures[1].operand == 4);
}

TEST_CASE("check_tensor on decoded declarations") {
  auto p = base();
  p.tensors[1].name = p.tensors[0].name;  // "x" twice
  CHECK(check_tensor(asm_test::spec(), p, 1)[0].message == "tensor 'x' is declared twice");
  p = base();
  p.tensors[0].shape = {128, 1LL << 40};
  CHECK(check_tensor(asm_test::spec(), p, 0)[0].message == "tensor 'x' is too large (more than 68719476736 elements)");
  p = base();
  p.tensors[0].role = nisa::Role::input;
  CHECK(check_tensor(asm_test::spec(), p, 0)[0].message == "tensor 'x' in sbuf cannot have a role");
  p = base();
  p.tensors[0].offset = 229376 - 255;
  CHECK(check_tensor(asm_test::spec(), p, 0)[0].message ==
        "tensor 'x' at offset 229121 ends at byte 229377, past the 229376 bytes of a sbuf partition on trn2");
  p = base();
  p.arch = 7;
  CHECK(check_tensor(asm_test::spec(), p, 0)[0].message == "unknown arch number 7");
}
