// What an instruction's decoder sees while turning one checked Instruction
// into a Step: its operands by slot (spec_operands.hpp, generated from the
// spec: `c.tile(slot::dst)`, so a renamed operand is a compile error),
// resolved tiles, per-partition scalars and enum values as the C++ enums
// generated from the spec (spec_enums.hpp).
#pragma once
#include <initializer_list>

#include "registers.hpp"
#include "spec_operands.hpp"
#include "step.hpp"
#include "tile_table.hpp"

namespace nisa {

struct DecodeContext {
  const Spec& spec;
  const Program& program;
  Machine& machine;
  const InstructionSpec& instruction_spec;
  const Instruction& instruction;
  TileTable& tiles;
  int instruction_id;  // spec_instruction::id of this build for instruction_spec

  // Throws std::logic_error (an internal error, reported cleanly by main) for
  // a slot of another instruction.
  const Operand& operand(OperandSlot slot) const;
  bool present(OperandSlot o) const { return operand(o).state != OperandState::absent; }
  bool is_tile(OperandSlot o) const { return operand(o).state == OperandState::tensor; }
  const TileAccess* tile(OperandSlot o) const;  // in its own row layout
  // A scalar operand as float32 (an integer operand converted to nearest).
  float scalar(OperandSlot o) const;
  double number(OperandSlot o) const;  // scalar or integer, exactly
  bool integer_valued(OperandSlot o) const { return operand(o).state == OperandState::integer; }
  int64_t integer(OperandSlot o) const { return operand(o).integer; }
  bool boolean(OperandSlot o) const { return operand(o).integer != 0; }
  PartitionScalar partition_scalar(OperandSlot o, float if_absent) const;
  // A scalar operand as dst bits (memset, tensor_copy_predicated): converted
  // to `dtype` once, an integer operand for an integer dtype exactly (S2.2/S2.3).
  uint32_t scalar_bits(OperandSlot o, Dtype dtype) const;
  // S17: a register operand's index; a register-or-integer operand; where
  // this instruction reads registers, for the fault of an unset one.
  int32_t reg(OperandSlot o) const { return static_cast<int32_t>(operand(o).integer); }
  RegisterOrInt register_or_int(OperandSlot o) const {
    const Operand& op = operand(o);
    return op.state == OperandState::reg ? RegisterOrInt{static_cast<int32_t>(op.integer), 0} : RegisterOrInt{-1, static_cast<int32_t>(op.integer)};
  }
  RegisterSite register_site() const { return RegisterSite{&program, instruction_spec.name.c_str(), instruction.line, 0}; }
  // An enum operand: the spec's value index is the generated C++ enum's value.
  template <class E>
  E enum_value(OperandSlot o) const {
    return static_cast<E>(operand(o).integer);
  }
};

// Lays out dst and the streamed inputs in rows of one common length, and
// stages dst when it overlaps an input with another layout (S1.6).
// `reads_dst`: the instruction keeps some dst elements (staging starts as a copy).
void stream_tiles(const DecodeContext& c, Step& s, const TileAccess* dst, std::initializer_list<const TileAccess*> inputs,
                  bool reads_dst = false);

// S1.6: makes s.dst a private contiguous copy of `dst` (laid out in rows of
// row_length) that execute_step copies into place after the kernel ran.
void stage_dst(const DecodeContext& c, Step& s, const TileAccess* dst, int64_t row_length, bool reads_dst);

// s.reduce_op from the operand (if_absent when it is absent); the step folds.
void set_reduce_op(const DecodeContext& c, Step& s, OperandSlot reduce_op, ReduceOp if_absent);

// The accumulator operands of an instruction that feeds one (S3).
struct AccumulatorOperands {
  OperandSlot reduce_cmd, reduce_op, reduce_res;
};

// Sets up the accumulator fields (S3) from reduce_cmd/reduce_op/reduce_res.
void accumulate_into(const DecodeContext& c, Step& s, AccumulatorOperands operands, AccumulatorEngine engine,
                     int64_t first_lane, ReduceOp default_op);

}  // namespace nisa
