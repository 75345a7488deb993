// DistinctInstructions (how `nisa run` keeps a .nasm program's instructions):
// positions keep their own lines, equal instructions are stored once, and
// scalars compare by bits (-0.0 is not 0.0), so running through it is running
// the program itself.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "distinct_instructions.hpp"
#include "interpreter.hpp"
#include "test_machine.hpp"

using namespace nisa;
using namespace nisa::test;

TEST_CASE("distinct instructions: equal ones are stored once, each position keeps its line") {
  TestMachine m;
  const int32_t t = m.sbuf("t", Dtype::f32, {4, 8});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float operands[] = {1.5f, 0.0f, -0.0f, 1.5f, nan, nan, -0.0f};
  for (float x : operands)
    m.add("tensor_scalar", {{"dst", m.whole(t)}, {"data", m.whole(t)}, {"op0", "add"}, {"operand0", number(x)}});
  m.add("tensor_scalar", {{"dst", m.rows(t, 0, 2)}, {"data", m.rows(t, 0, 2)}, {"op0", "add"}, {"operand0", number(1.5f)}});
  DistinctInstructions d;
  for (const Instruction& ins : m.program().instructions) d.add(ins);
  REQUIRE(d.size() == 8);
  // 1.5, 0.0, -0.0, NaN, and 1.5 on another view: five.
  CHECK(d.distinct_count() == 5);
  for (std::size_t i = 0; i < d.size(); ++i) {
    const Instruction& want = m.program().instructions[i];
    const Instruction& got = d.at(i);
    CHECK(got.line == want.line);
    CHECK(same_operands(got, want));
    CHECK(std::bit_cast<uint32_t>(got.operands[3].scalar) == std::bit_cast<uint32_t>(want.operands[3].scalar));
    CHECK(got.operands[0].view == want.operands[0].view);
  }
}

TEST_CASE("distinct instructions: x + 0.0 and x + -0.0 on -0.0 stay two instructions (bits +0.0 and -0.0)") {
  TestMachine m;
  const int32_t x = m.sbuf("x", Dtype::f32, {2, 4});
  const int32_t plus = m.sbuf("plus", Dtype::f32, {2, 4});
  const int32_t minus = m.sbuf("minus", Dtype::f32, {2, 4});
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 4; ++i) m.set<float>(x, p, i, -0.0f);
  // IEEE 754: -0 + +0 = +0, -0 + -0 = -0 (round to nearest).
  m.add("tensor_scalar", {{"dst", m.whole(plus)}, {"data", m.whole(x)}, {"op0", "add"}, {"operand0", number(0.0f)}});
  m.add("tensor_scalar", {{"dst", m.whole(minus)}, {"data", m.whole(x)}, {"op0", "add"}, {"operand0", number(-0.0f)}});
  m.add("tensor_scalar", {{"dst", m.whole(plus)}, {"data", m.whole(plus)}, {"op0", "add"}, {"operand0", number(0.0f)}});
  DistinctInstructions d;
  for (const Instruction& ins : m.program().instructions) d.add(ins);
  CHECK(d.distinct_count() == 3);
  const DecodedProgram decoded = predecode(active_spec(), m.program(), d, m.machine());
  REQUIRE(decoded.steps.size() == 3);
  CHECK(decoded.steps[2].line == m.program().instructions[2].line);
  execute(decoded.steps, m.machine());
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 4; ++i) {
      CHECK(m.get<uint32_t>(plus, p, i) == 0x00000000u);
      CHECK(m.get<uint32_t>(minus, p, i) == 0x80000000u);
    }
}

TEST_CASE("shared steps: a repeated chain runs as the program (one step per distinct instruction, lines kept for --strict)") {
  TestMachine m;
  const int32_t x = m.sbuf("x", Dtype::f32, {4, 8});
  const int32_t y = m.sbuf("y", Dtype::f32, {4, 8});
  for (int p = 0; p < 4; ++p)
    for (int i = 0; i < 8; ++i) m.set<float>(x, p, i, static_cast<float>(p * 8 + i) - 7.25f);
  constexpr int kRepetitions = 50;
  for (int k = 0; k < kRepetitions; ++k) {  // x = x * 0.5 + 1; y = x * -3
    m.add("tensor_scalar", {{"dst", m.whole(x)}, {"data", m.whole(x)}, {"op0", "multiply"}, {"operand0", number(0.5f)},
                            {"op1", "add"}, {"operand1", number(1.0f)}});
    m.add("tensor_scalar", {{"dst", m.whole(y)}, {"data", m.whole(x)}, {"op0", "multiply"}, {"operand0", number(-3.0f)}});
  }
  DistinctInstructions d;
  for (const Instruction& ins : m.program().instructions) d.add(ins);
  const SharedSteps shared = predecode_shared(active_spec(), m.program(), d, m.machine());
  REQUIRE(shared.order.size() == 2 * kRepetitions);
  CHECK(shared.steps.size() == 2);
  execute(shared, m.machine());
  for (int p = 0; p < 4; ++p)
    for (int i = 0; i < 8; ++i) {
      float want = static_cast<float>(p * 8 + i) - 7.25f;  // float32 arithmetic, as S2.1
      for (int k = 0; k < kRepetitions; ++k) want = want * 0.5f + 1.0f;
      CHECK(std::bit_cast<uint32_t>(m.get<float>(x, p, i)) == std::bit_cast<uint32_t>(want));
      CHECK(std::bit_cast<uint32_t>(m.get<float>(y, p, i)) == std::bit_cast<uint32_t>(want * -3.0f));
    }
}

TEST_CASE("shared steps: steps that differ in their bytes are not shared") {
  TestMachine m;
  const int32_t x = m.sbuf("x", Dtype::f32, {4, 8});
  for (int k = 0; k < 3; ++k) {
    m.add("tensor_scalar", {{"dst", m.whole(x)}, {"data", m.whole(x)}, {"op0", "add"}, {"operand0", number(1.0f)}});
    m.add("tensor_scalar", {{"dst", m.rows(x, 0, 2)}, {"data", m.rows(x, 0, 2)}, {"op0", "add"}, {"operand0", number(1.0f)}});
  }
  DistinctInstructions d;
  for (const Instruction& ins : m.program().instructions) d.add(ins);
  const SharedSteps shared = predecode_shared(active_spec(), m.program(), d, m.machine());
  REQUIRE(shared.steps.size() == 2);
  CHECK(shared.order == std::vector<uint32_t>{0, 1, 0, 1, 0, 1});
  CHECK(shared.steps[0].line == m.program().instructions[0].line);
  CHECK(shared.steps[1].line == m.program().instructions[1].line);
  execute(shared, m.machine());
  for (int p = 0; p < 4; ++p) CHECK(m.get<float>(x, p, 3) == (p < 2 ? 6.0f : 3.0f));
}
