// A pre-decoded instruction (wasm3 style): operands resolved to TileAccess,
// enum values as the C++ enums generated from the spec (spec_enums.hpp: an
// operand's enum index is the C++ value), and the kernel chosen by dtype.
// Executing a step does no parsing, no look-ups and no allocation. What is
// particular to one instruction (its operators, flags, constants) is a typed
// struct declared in its own file, held in the step (params()). Tiles live
// in the decoded program's TileTable (shared by every step that uses them), so
// a step is a few hundred bytes however many operands it has.
#pragma once
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
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
// No padding bytes (explicit ones, zero): steps are compared byte for byte
// when positions share them (SharedSteps), and a copied struct's padding is
// whatever the compiler leaves there.
struct PartitionScalar {
  const TileAccess* tile = nullptr;  // a [P, 1] tile, or nullptr for a scalar
  float value = 0;               // scalar, already float32
  uint32_t bits = 0;             // an integer scalar's int32 bits (bitvec operators, bit_alu.hpp)
  bool present = false;
  uint8_t unused[7] = {};
  float at(int64_t p) const {
    if (tile == nullptr) return value;
    float v;
    tile->load(tile->base + p * tile->partition_stride, tile->element_stride, 1, &v);
    return v;
  }
};
static_assert(sizeof(PartitionScalar) == 24, "PartitionScalar has no padding bytes");

struct Step;
struct StrictHooks;
struct IndirectStreams;
using Kernel = void (*)(const Step&, Machine&);

// Which accumulator an instruction feeds (S1.3).
enum class AccumulatorEngine : uint8_t { none, vector, scalar };

// Room for an instruction's own parameter struct inside its Step.
inline constexpr std::size_t kStepParamBytes = 48;

// A parameter struct an instruction may keep in its Step: plain data (copied
// with the Step as bytes), small enough to fit.
template <class P>
concept StepParams = std::is_trivially_copyable_v<P> && std::is_trivially_destructible_v<P> &&
                     sizeof(P) <= kStepParamBytes && alignof(P) <= 8;

struct Step {
  Kernel run = nullptr;
  int instruction = -1;     // index into Program::instructions
  uint32_t line = 0;
  const StrictHooks* strict = nullptr;  // the instruction's --strict knowledge (strict.hpp)

  // Streamed tiles: dst and up to three tile inputs, all laid out in rows of
  // the same length (rows() per partition).
  const TileAccess* dst = nullptr;
  const TileAccess* in[3] = {nullptr, nullptr, nullptr};
  int inputs = 0;
  int64_t partitions = 0;
  int64_t elements = 0;     // free elements per partition
  int64_t row_length = 0;
  int64_t rows() const { return row_length == 0 ? 0 : elements / row_length; }

  // Streamed per-partition scalars, as in[] streams tiles: the lane loops
  // evaluate scalar[k] at each partition (Lane::scalar[k]); which operand
  // each one is, is the instruction's choice (its file names them).
  PartitionScalar scalar[3];

  // Accumulating instructions (S3).
  AccumulatorEngine accumulator = AccumulatorEngine::none;
  int64_t first_lane = 0;
  bool reduces = false;  // reduce_op is set: the results fold into r (S3)
  ReduceOp reduce_op = ReduceOp::add;
  ReduceCmd reduce_cmd = ReduceCmd::idle;
  const TileAccess* reduce_res = nullptr;

  // S1.6: dst overlaps an input with another layout: the kernel writes to a
  // private contiguous copy of dst (`dst` then describes it; its memory is
  // owned by the TileTable) and execute_step copies it into final_dst.
  // tensor_reduce also keeps its [P, 1] result tile in final_dst.
  bool staged = false;
  bool staging_reads_dst = false;
  const TileAccess* final_dst = nullptr;
  int64_t staging_row_length = 0;  // row layout shared by final_dst and the staging tile

  // Tensor Indirection (S1.7) on a streamed operand: the staging tiles the
  // kernel runs on and the runtime column offsets of the real views
  // (lanes/tensor_indirection.hpp); nullptr for every other step.
  const IndirectStreams* indirection = nullptr;

  // The instruction's own parameters: a struct declared in its file
  // (instructions/<name>.cpp), set by its decoder, read by its kernels and
  // strict hooks. Only that file knows the type, so only it reads them back;
  // an instruction whose AVX-512 kernel (simd/<name>_avx512.cpp) reads them
  // too declares them in instructions/<name>.hpp for both.
  template <StepParams P>
  const P& set_params(const P& p) {
#ifndef NDEBUG
    params_type_ = &kParamsTag<P>;
#endif
    return *::new (static_cast<void*>(params_)) P(p);
  }
  template <StepParams P>
  const P& params() const {
    assert(params_type_ == &kParamsTag<P>);
    return *std::launder(reinterpret_cast<const P*>(params_));
  }

 private:
#ifndef NDEBUG
  template <class P>
  static constexpr char kParamsTag = 0;  // its address names P (debug builds check params())
  const void* params_type_ = nullptr;
#endif
  alignas(8) std::byte params_[kStepParamBytes];
};

}  // namespace nisa
