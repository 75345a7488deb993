// key=value resolution against the spec's operand list (LANGUAGE.md 2.3):
// spec order, defaults filled, each value kind.
#include <bit>
#include <limits>

#include "asm_test_support.hpp"

namespace {

using nisa::OperandState;

const std::string kTiles =
    ".sbuf x f32 [128, 64]\n.sbuf y f32 [128, 64]\n.sbuf lo f32 [128, 1]\n.sbuf hi f32 [128, 1]\n.sbuf m f32 [128, 1]\n";

int enum_value(const char* enum_name, const char* value) {
  const auto& s = asm_test::spec();
  return s.enums[static_cast<std::size_t>(s.find_enum(enum_name))].find(value);
}

}  // namespace

TEST_CASE("operands are stored in spec order with defaults filled, whatever the key order") {
  auto p = asm_test::assemble_ok(kTiles + "range_select bound1=hi, comp_op1=lt, bound0=lo, comp_op0=ge, on_true_tile=x, dst=y\n");
  const auto& ins = p.instructions[0];
  CHECK(ins.spec_index == asm_test::instruction_index("range_select"));
  REQUIRE(ins.operands.size() == 11);
  CHECK(ins.operands[0].view.tensor == 1);  // dst = y
  CHECK(ins.operands[1].view.tensor == 0);  // on_true_tile = x
  CHECK(ins.operands[2].integer == enum_value("compare", "greater_equal"));  // alias ge
  CHECK(ins.operands[3].integer == enum_value("compare", "less"));
  CHECK(ins.operands[6].state == OperandState::enumerated);  // reduce_cmd default idle
  CHECK(ins.operands[6].integer == enum_value("reduce_cmd", "idle"));
  CHECK(ins.operands[7].state == OperandState::absent);  // reduce_res: optional, no default
  CHECK(ins.operands[8].integer == enum_value("reduce", "maximum"));
  CHECK(ins.operands[9].state == OperandState::integer);  // range_start default 0
  CHECK(ins.operands[9].integer == 0);
  CHECK(std::bit_cast<uint32_t>(ins.operands[10].scalar) == 0xFF7FFFFFu);  // on_false_value default fp32.min (S4.4)
  CHECK(ins.line == 6);
}

TEST_CASE("spaces around = and after , are optional") {
  auto a = asm_test::assemble_ok(kTiles + "tensor_tensor dst=y,data1=x,data2=x,op=add\n");
  auto b = asm_test::assemble_ok(kTiles + "tensor_tensor  dst = y ,  data1 = x, data2 =x , op= add\n");
  CHECK(a.instructions[0].operands == b.instructions[0].operands);
}

TEST_CASE("tensor_or_scalar takes a tile or an expression; bools and ints") {
  auto p = asm_test::assemble_ok(kTiles + ".equ S, 0.5\n"
                                          "tensor_scalar dst=y, data=x, op0=mul, operand0=lo, reverse0=true, op1=add, operand1=S * 2\n");
  const auto& ops = p.instructions[0].operands;
  CHECK(ops[3].state == OperandState::tensor);
  CHECK(ops[4].state == OperandState::boolean);
  CHECK(ops[4].integer == 1);
  CHECK(ops[6].state == OperandState::scalar);
  CHECK(ops[6].scalar == 1.0f);
  CHECK(ops[7].integer == 0);  // reverse1 default false
}

TEST_CASE("integer_if_dtype_of: scalars for integer tiles are exact int32, else float32") {
  auto p = asm_test::assemble_ok(".sbuf a i32 [128, 4]\n.sbuf b f32 [128, 4]\n.sbuf pr u8 [128, 4]\n"
                                 "iota dst=a, base=16777217\niota dst=b, base=16777217\n"
                                 "tensor_copy_predicated dst=a, src=-5, predicate=pr\n");
  // iota: dst, pattern, offset, channel_multiplier, base (4), partition_step, free_step (6)
  CHECK(p.instructions[0].operands[4].state == OperandState::integer);
  CHECK(p.instructions[0].operands[4].integer == 16777217);  // exact, not rounded to float32
  CHECK(p.instructions[0].operands[6].state == OperandState::absent);  // free_step: 1 when absent, applied by the interpreter
  CHECK(p.instructions[1].operands[4].state == OperandState::scalar);
  CHECK(p.instructions[1].operands[4].scalar == 16777216.0f);
  CHECK(p.instructions[2].operands[1].state == OperandState::integer);
  CHECK(p.instructions[2].operands[1].integer == -5);
}

TEST_CASE("int parameters: integer expressions within the spec's range") {
  auto p = asm_test::assemble_ok(".sbuf s f32 [128, 8]\n.sbuf d i32 [128, 9]\nnonzero_with_count dst=d, src=s, index_offset=-2 * 8, padding_val=0x7FFFFFFF\n");
  CHECK(p.instructions[0].operands[2].integer == -16);
  CHECK(p.instructions[0].operands[3].integer == 2147483647);
  CHECK(asm_test::first_error(".sbuf s f32 [128, 8]\n.sbuf d i32 [128, 9]\nnonzero_with_count dst=d, src=s, index_offset=1.5\n") ==
        "'index_offset' must be an integer, got 1.5");
  CHECK(asm_test::first_error(kTiles + "range_select dst=y, on_true_tile=x, comp_op0=ge, comp_op1=lt, bound0=lo, bound1=hi, range_start=16777217\n") ==
        "'range_start' = 16777217 is out of range [-16777216, 16777216]");
}

TEST_CASE("value kind errors name the key") {
  CHECK(asm_test::first_error(kTiles + "tensor_tensor dst=3, data1=x, data2=x, op=add\n") == "'dst' takes a tensor, got a number");
  CHECK(asm_test::first_error(kTiles + "tensor_tensor dst=y, data1=x, data2=x, op=x\n") == "'op' takes a value of enum alu, got tensor 'x'");
  CHECK(asm_test::first_error(kTiles + "tensor_reduce dst=m, data=x, op=add, negate=1\n") == "'negate' takes true or false, got a number");
  CHECK(asm_test::first_error(kTiles + "memset dst=y, value=x\n") == "'value' takes a scalar, got tensor 'x'");
  CHECK(asm_test::first_error(kTiles + "tensor_tensor dst=yy, data1=x, data2=x, op=add\n") == "unknown tensor 'yy'; did you mean 'y'?");
  // An unknown enum value: did-you-mean over names and aliases, then the values
  // the operand accepts (the full listing is pinned once, in the golden
  // enum_errors, on the stable compare enum).
  CHECK(asm_test::first_error(kTiles + "tensor_tensor dst=y, data1=x, data2=x, op=ad\n")
            .starts_with("unknown alu value 'ad' for 'op'; did you mean 'add'? (accepted: add, "));
  CHECK(asm_test::first_error(kTiles + "tensor_tensor dst=y, data1=x, data2=x, op=mutliply\n")
            .starts_with("unknown alu value 'mutliply' for 'op'; did you mean 'multiply'? (accepted: "));
  CHECK(asm_test::first_error(kTiles + "tensor_reduce dst=m, data=x, op=amx\n")
            .starts_with("unknown reduce value 'amx' for 'op'; did you mean 'max'? (accepted: "));
  CHECK(asm_test::first_error(kTiles + "range_select dst=y, on_true_tile=x, comp_op0=ge, comp_op1=les, bound0=lo, bound1=hi\n") ==
        "unknown compare value 'les' for 'comp_op1'; did you mean 'less'? (accepted: equal, less, less_equal, greater, greater_equal)");
  CHECK(asm_test::first_error(kTiles + "tensor_tensor dst=y, data1=x, data2=x, op=bypass\n") ==
        "'op' = bypass is not allowed for tensor_tensor; allowed: add, subtract, multiply, maximum, minimum, bitwise_and, "
        "bitwise_or, bitwise_xor, left_shift, right_shift, equal, not_equal, less, less_equal, greater, greater_equal, logical_and, "
        "logical_or, logical_xor, power, abs_max, abs_min");
  CHECK(asm_test::first_error(kTiles + "range_select dst=y, on_true_tile=x, comp_op0=ge, comp_op1=lt, bound0=lo, bound1=hi, on_false_value=0\n") ==
        "'on_false_value' must be fp32.min, got 0");
}

TEST_CASE("key errors") {
  // Each key error lists the instruction's keys, required then optional.
  CHECK(asm_test::first_error(kTiles + "tensor_tensor dts=y, data1=x, data2=x, op=add\n") ==
        "unknown key 'dts' for tensor_tensor; did you mean 'dst'? (keys: dst, data1, data2, op)");
  CHECK(asm_test::first_error(kTiles + "tensor_tensor dst=y, dst=y, data1=x, data2=x, op=add\n") ==
        "duplicated key 'dst', first given at column 15 (keys: dst, data1, data2, op)");
  CHECK(asm_test::first_error(kTiles + "tensor_tensor dst=y, data1=x, op=add\n") ==
        "missing required key 'data2' for tensor_tensor (keys: dst, data1, data2, op)");
  CHECK(asm_test::first_error(kTiles + "activation dst=y, op=exp, data=x, scal=2\n") ==
        "unknown key 'scal' for activation; did you mean 'scale'? (keys: dst, op, data; optional: bias, scale, reduce_op, reduce_res, reduce_cmd, engine)");
  CHECK(asm_test::first_error(kTiles + "tensor_tensr dst=y\n") == "unknown instruction 'tensor_tensr'; did you mean 'tensor_tensor'?");
  CHECK(asm_test::first_error(kTiles + "register_alloc dst=y\n") ==
        "NKI's register_alloc is written as a declaration, `.reg NAME` (SEMANTICS S17.1) in .nasm");
  CHECK(asm_test::first_error(kTiles + "register_move dst=y, src=1\n") == "'dst' takes a register, got tensor 'y'");
  CHECK(asm_test::first_error(kTiles + "tensor_tensor dst=y data1=x\n") == "unexpected 'data1' after the value of 'dst'");
}
