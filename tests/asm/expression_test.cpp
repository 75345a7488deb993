// Constant expressions (LANGUAGE.md 2.1), checked through .equ and memset's
// float32 scalar: C integer semantics for / and %, float otherwise.
#include <bit>
#include <cmath>
#include <limits>

#include "asm_test_support.hpp"

namespace {

// The value of EXPR as memset stores it into an f32 tile (float32, RNE).
float scalar_of(const std::string& expr, const std::string& prelude = "") {
  auto p = asm_test::assemble_ok(prelude + ".sbuf t f32 [128, 4]\nmemset dst=t, value=" + expr + "\n");
  REQUIRE(p.instructions.size() == 1);
  REQUIRE(p.instructions[0].operands[1].state == nisa::OperandState::scalar);
  return p.instructions[0].operands[1].scalar;
}

// The value of EXPR stored exactly as int32 (memset into an i32 tile).
int64_t integer_of(const std::string& expr, const std::string& prelude = "") {
  auto p = asm_test::assemble_ok(prelude + ".sbuf t i32 [128, 4]\nmemset dst=t, value=" + expr + "\n");
  REQUIRE(p.instructions[0].operands[1].state == nisa::OperandState::integer);
  return p.instructions[0].operands[1].integer;
}

}  // namespace

TEST_CASE("integer arithmetic follows C: / truncates toward zero, % takes the dividend's sign") {
  CHECK(integer_of("7 / 2") == 3);
  CHECK(integer_of("-7 / 2") == -3);
  CHECK(integer_of("7 / -2") == -3);
  CHECK(integer_of("-7 % 3") == -1);
  CHECK(integer_of("7 % -3") == 1);
  CHECK(integer_of("2 + 3 * 4") == 14);
  CHECK(integer_of("(2 + 3) * 4") == 20);
  CHECK(integer_of("--5") == 5);
  CHECK(integer_of("0x1F + 1") == 32);
  CHECK(integer_of("10 - 2 - 3") == 5);  // left associative
}

TEST_CASE("a float operand makes the operation float") {
  CHECK(scalar_of("7 / 2.0") == 3.5f);
  CHECK(scalar_of("1 / 4") == 0.0f);  // both ints: truncation
  CHECK(scalar_of("1.5e1") == 15.0f);
  CHECK(scalar_of("2E-1") == 0.2f);
  CHECK(scalar_of("7.5 % 2") == 1.5f);
}

TEST_CASE("named constants") {
  CHECK(std::bit_cast<uint32_t>(scalar_of("fp32.min")) == 0xFF7FFFFFu);  // S2.4
  CHECK(std::bit_cast<uint32_t>(scalar_of("fp32.max")) == 0x7F7FFFFFu);
  CHECK(scalar_of("inf") == std::numeric_limits<float>::infinity());
  CHECK(scalar_of("-inf") == -std::numeric_limits<float>::infinity());
  CHECK(std::isnan(scalar_of("nan")));
}

TEST_CASE("scalars round to float32 to nearest even") {
  CHECK(scalar_of("0.1") == 0.1f);
  // 2^24 + 1 is halfway between 2^24 and 2^24 + 2: ties to even gives 2^24.
  CHECK(scalar_of("16777217") == 16777216.0f);
  CHECK(scalar_of("16777219") == 16777220.0f);
  // Just above fp32.max but below the halfway point to 2^128 stays fp32.max.
  CHECK(std::bit_cast<uint32_t>(scalar_of("fp32.max * 1.0000000001")) == 0x7F7FFFFFu);
  CHECK(scalar_of("fp32.max * 2") == std::numeric_limits<float>::infinity());
}

TEST_CASE(".equ constants, integer and float, usable in later expressions") {
  CHECK(integer_of("N * 2", ".equ N, 21\n") == 42);
  CHECK(scalar_of("HALF + 1", ".equ HALF, 0.5\n") == 1.5f);
  CHECK(integer_of("B", ".equ A, 3\n.equ B, A * A\n") == 9);
}

TEST_CASE("integer scalars must be integral and in the int32 range") {
  CHECK(integer_of("4.0") == 4);
  CHECK(integer_of("-2147483648") == -2147483648LL);
  CHECK(asm_test::first_error(".sbuf t i32 [128, 4]\nmemset dst=t, value=2.5\n") == "'value' must be an exact integer, got 2.5");
  CHECK(asm_test::first_error(".sbuf t i32 [128, 4]\nmemset dst=t, value=2147483648\n") == "'value' = 2147483648 is out of the int32 range");
}

TEST_CASE("expression errors") {
  CHECK(asm_test::first_error(".sbuf t i32 [128, 4]\nmemset dst=t, value=1 / 0\n") == "integer division by zero");
  CHECK(asm_test::first_error(".sbuf t i32 [128, 4]\nmemset dst=t, value=(1 + 2\n") == "expected ')'");
  CHECK(asm_test::first_error(".equ COUNT, 3\n.sbuf t i32 [128, 4]\nmemset dst=t, value=CONT\n") ==
        "unknown name 'CONT'; did you mean 'COUNT'?");
  CHECK(asm_test::first_error(".sbuf t i32 [128, 4]\nmemset dst=t, value=9223372036854775807 + 1\n") == "integer overflow in '+'");
  CHECK(asm_test::first_error(".sbuf t f32 [128, 2.5]\n") == "a shape dimension must be an integer, got 2.5");
}
