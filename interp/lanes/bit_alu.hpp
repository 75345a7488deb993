// The bitvec operators of NKI 0.6's operator table (nki.api.shared.rst,
// "Supported Math Operators for NKI ISA", bitvec rows) and their reductions.
// NKI: instructions using them "expect integer data types and treat input
// elements as bit patterns" without conversion (S7). The model's reading of
// that: each element's bits are zero-extended to 32 bits, the operator acts
// on the 32-bit patterns, and the result keeps the low bits of dst's width;
// an integer scalar is its int32 two's complement bits. Shifts by 32 or more
// give 0; right_shift is logical (NKI: arithmetic right shift is not
// supported).
#pragma once
#include <cstdint>

#include "lanes.hpp"
#include "step.hpp"

namespace nisa {

// n elements `stride` bytes apart <-> their bit patterns (zero-extended).
using LoadBits = void (*)(const uint8_t* src, int64_t stride, int64_t n, uint32_t* out);
using StoreBits = void (*)(uint8_t* dst, int64_t stride, int64_t n, const uint32_t* in);
LoadBits load_bits_for(Dtype t);
StoreBits store_bits_for(Dtype t);

inline uint32_t bit_alu(AluOp op, uint32_t a, uint32_t b) {
  switch (op) {
    case AluOp::bitwise_and: return a & b;
    case AluOp::bitwise_or: return a | b;
    case AluOp::bitwise_xor: return a ^ b;
    case AluOp::invert: return ~a;  // unary: b is ignored
    case AluOp::left_shift: return b >= 32 ? 0u : a << b;
    case AluOp::right_shift: return b >= 32 ? 0u : a >> b;
    default: return a;  // bypass (arithmetic operators take the float32 path, alu.hpp)
  }
}

// S3-style folds of the bitvec reductions (tensor_reduce): identities all
// ones for bitwise_and, 0 for bitwise_or/bitwise_xor.
inline uint32_t bit_reduce_identity(ReduceOp op) { return op == ReduceOp::bitwise_and ? ~0u : 0u; }
inline uint32_t bit_combine(ReduceOp op, uint32_t r, uint32_t x) {
  switch (op) {
    case ReduceOp::bitwise_and: return r & x;
    case ReduceOp::bitwise_or: return r | x;
    case ReduceOp::bitwise_xor: return r ^ x;
    default: return r;  // arithmetic reductions take the float32 path
  }
}

// A per-partition scalar's bits at partition p: an integer scalar's int32
// bits, or the [P, 1] tile's element as a bit pattern.
inline uint32_t bits_at(const PartitionScalar& ps, int64_t p) {
  if (ps.tile == nullptr) return ps.bits;
  uint32_t v = 0;
  load_bits_for(ps.tile->dtype)(ps.tile->base + p * ps.tile->partition_stride, ps.tile->element_stride, 1, &v);
  return v;
}

// Defaults for a bit Body: no reduction, nothing after the partition.
struct ElementwiseBitBody {
  static uint32_t start(const Step&) { return 0; }
  static void end(const Step&, int64_t, uint32_t) {}
};

// The per-element loop of the bitvec kernels: partitions x rows x batches of
// bit patterns. Body::apply(s, scalars, n, in, out) computes a batch;
// kStoresDst false: nothing is stored (tensor_reduce folds in apply and
// writes its result in Body::end(s, p, r)).
template <class Body, bool kStoresDst = true>
void run_bit_lanes(const Step& s, Machine&) {
  uint32_t in_buffer[3][kLaneBatch];
  uint32_t out[kLaneBatch];
  LoadBits load[3] = {nullptr, nullptr, nullptr};
  for (int k = 0; k < s.inputs; ++k) load[k] = load_bits_for(s.in[k]->dtype);
  const StoreBits store = kStoresDst ? store_bits_for(s.dst->dtype) : nullptr;
  const int64_t rows = s.rows(), length = s.row_length;
  for (int64_t p = 0; p < s.partitions; ++p) {
    uint32_t scalars[2] = {0, 0};
    for (int k = 0; k < 2; ++k)
      if (s.scalar[k].present) scalars[k] = bits_at(s.scalar[k], p);
    uint32_t r = Body::start(s);
    for (int64_t row = 0; row < rows; ++row) {
      const auto ri = static_cast<std::size_t>(row);
      for (int64_t c = 0; c < length; c += kLaneBatch) {
        const int64_t n = length - c < kLaneBatch ? length - c : kLaneBatch;
        const uint32_t* in[3] = {nullptr, nullptr, nullptr};
        for (int k = 0; k < s.inputs; ++k) {
          load[k](s.in[k]->partition(p) + s.in[k]->row_offsets[ri] + c * s.in[k]->element_stride, s.in[k]->element_stride, n, in_buffer[k]);
          in[k] = in_buffer[k];
        }
        Body::apply(s, scalars, n, in, out, r);
        if constexpr (kStoresDst) store(s.dst->partition(p) + s.dst->row_offsets[ri] + c * s.dst->element_stride, s.dst->element_stride, n, out);
      }
    }
    Body::end(s, p, r);
  }
}

}  // namespace nisa
