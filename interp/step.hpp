// A pre-decoded instruction (wasm3 style): operands resolved to TileAccess,
// enum values as the C++ enums generated from the spec (spec_enums.hpp: an
// operand's enum index is the C++ value), and the kernel chosen by dtype.
// Executing a step does no parsing, no look-ups and no allocation. Tiles live
// in the decoded program's TileTable (shared by every step that uses them), so
// a step is a few hundred bytes however many operands it has.
#pragma once
#include <cstdint>
#include <vector>

#include "machine.hpp"
#include "spec_enums.hpp"
#include "tile_access.hpp"

namespace nisa {

using AluOp = spec_enum::alu;
using CompareOp = spec_enum::compare;
using ReduceOp = spec_enum::reduce;
using ReduceCmd = spec_enum::reduce_cmd;
using ActivationFn = spec_enum::activation;

// A float32 value per partition: a scalar operand or a [P, 1] tile (S4.3-S4.6).
struct PartitionScalar {
  bool present = false;
  float value = 0;               // scalar, already float32
  uint32_t bits = 0;             // an integer scalar's int32 bits (bitvec operators, bit_alu.hpp)
  const TileAccess* tile = nullptr;  // a [P, 1] tile, or nullptr for a scalar
  float at(int64_t p) const {
    if (tile == nullptr) return value;
    float v;
    tile->load(tile->base + p * tile->partition_stride, tile->element_stride, 1, &v);
    return v;
  }
};

struct Step;
using Kernel = void (*)(const Step&, Machine&);

// Which accumulator an instruction feeds (S1.3).
enum class AccumulatorEngine : uint8_t { none, vector, scalar };

struct Step {
  Kernel run = nullptr;
  int instruction = -1;     // index into Program::instructions
  uint32_t line = 0;

  // Streamed tiles: dst and up to three tile inputs, all laid out in rows of
  // the same length (rows() per partition).
  const TileAccess* dst = nullptr;
  const TileAccess* in[3] = {nullptr, nullptr, nullptr};
  int inputs = 0;
  int64_t partitions = 0;
  int64_t elements = 0;     // free elements per partition
  int64_t row_length = 0;
  int64_t rows() const { return row_length == 0 ? 0 : elements / row_length; }

  PartitionScalar scalar[3];  // per-instruction meaning (bias/scale, imm0/imm1/relu_param, ...)

  // Accumulating instructions (S3).
  AccumulatorEngine accumulator = AccumulatorEngine::none;
  int64_t first_lane = 0;
  bool reduces = false;  // reduce_op is set: the results fold into r (S3)
  ReduceOp reduce_op = ReduceOp::add;
  ReduceCmd reduce_cmd = ReduceCmd::idle;
  const TileAccess* reduce_res = nullptr;

  // Instruction-specific parameters, mapped once.
  ActivationFn activation = ActivationFn::copy;
  AluOp op0 = AluOp::bypass, op1 = AluOp::bypass;
  CompareOp compare0 = CompareOp::equal, compare1 = CompareOp::equal;
  bool flag0 = false, flag1 = false;  // reverse0/reverse1, reverse_pred, negate
  int64_t int0 = 0, int1 = 0, int2 = 0;  // index_offset/padding_val; range_start; iota (integer)
  double num0 = 0, num1 = 0, num2 = 0;     // iota base/partition_step/free_step
  uint32_t bits = 0;                       // memset/copy_predicated scalar as dst bits
  // iota's NKI 0.6 form (pattern given; int0 offset, int1 channel_multiplier):
  // the [step, num] entries, last innermost, padded in front with [0, 1].
  int32_t pattern_step[4] = {0, 0, 0, 0};
  int64_t pattern_num[4] = {1, 1, 1, 1};
  // tensor_reduce with axis: elements reduced into each result (int0), and one
  // partition's float32 data followed by its results (TileTable memory).
  float* scratch = nullptr;

  // For --strict: which partitions of the tiles are touched (nonzero_with_count:
  // every 16th physical one), whether the result went to final_dst
  // (tensor_reduce), and the stage before an activation function (S5).
  int64_t partition_every = 1;
  bool result_in_final_dst = false;
  bool predicated = false;  // tensor_copy_predicated: writes only where in[0] selects
  enum class Prestage : uint8_t { none, scale_bias, alu_pair } prestage = Prestage::none;

  // S1.6: dst overlaps an input with another layout: the kernel writes to a
  // private contiguous copy of dst (`dst` then describes it; its memory is
  // owned by the TileTable) and execute_step copies it into final_dst.
  // tensor_reduce also keeps its [P, 1] result tile in final_dst
  // (result_in_final_dst).
  bool staged = false;
  bool staging_reads_dst = false;
  const TileAccess* final_dst = nullptr;
  int64_t staging_row_length = 0;  // row layout shared by final_dst and the staging tile
};

}  // namespace nisa
