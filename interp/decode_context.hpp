// What an instruction's decoder sees while turning one checked Instruction
// into a Step: its operands by spec name, resolved tiles, per-partition
// scalars and enum values as the C++ enums generated from the spec
// (spec_enums.hpp).
#pragma once
#include <initializer_list>
#include <string>
#include <string_view>

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

  const Operand& operand(std::string_view name) const;
  bool present(std::string_view name) const { return operand(name).state != OperandState::absent; }
  bool is_tile(std::string_view name) const { return operand(name).state == OperandState::tensor; }
  const TileAccess* tile(std::string_view name) const;  // in its own row layout
  // A scalar operand as float32 (an integer operand converted to nearest).
  float scalar(std::string_view name) const;
  double number(std::string_view name) const;  // scalar or integer, exactly
  bool integer_valued(std::string_view name) const { return operand(name).state == OperandState::integer; }
  int64_t integer(std::string_view name) const { return operand(name).integer; }
  bool boolean(std::string_view name) const { return operand(name).integer != 0; }
  PartitionScalar partition_scalar(std::string_view name, float if_absent) const;
};

// Enum operands: the spec's value index is the generated C++ enum's value.
AluOp alu_op(const DecodeContext& c, std::string_view operand);
CompareOp compare_op(const DecodeContext& c, std::string_view operand);
ReduceCmd reduce_cmd(const DecodeContext& c, std::string_view operand);
// s.reduce_op from the operand (if_absent when it is absent); the step folds.
void set_reduce_op(const DecodeContext& c, Step& s, std::string_view operand, ReduceOp if_absent);
ActivationFn activation_fn(const DecodeContext& c, std::string_view operand);

// Lays out dst and the streamed inputs in rows of one common length, and
// stages dst when it overlaps an input with another layout (S1.6).
// `reads_dst`: the instruction keeps some dst elements (staging starts as a copy).
void stream_tiles(const DecodeContext& c, Step& s, const TileAccess* dst, std::initializer_list<const TileAccess*> inputs,
                  bool reads_dst = false);

// S1.6: makes s.dst a private contiguous copy of `dst` (laid out in rows of
// row_length) that execute_step copies into place after the kernel ran.
void stage_dst(const DecodeContext& c, Step& s, const TileAccess* dst, int64_t row_length, bool reads_dst);

// Sets up the accumulator fields (S3) from reduce_cmd/reduce_op/reduce_res.
void accumulate_into(const DecodeContext& c, Step& s, AccumulatorEngine engine, int64_t first_lane,
                     ReduceOp default_op);

}  // namespace nisa
