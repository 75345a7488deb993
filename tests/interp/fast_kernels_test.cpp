// The AVX-512 kernels (interp/simd/: fused_lane_loop.hpp, simd_lanes.hpp and
// the instructions' <name>_avx512.cpp) against their portable twins, bit for
// bit: each program runs once with the portable kernels forced and once with
// the fast ones, on edge values (NaN payloads,
// -0.0, inf, denormals, bf16 rounding ties, fp32 max), odd lengths,
// unaligned starts and strided views; every byte of every tensor and both
// accumulators must match. The portable kernels are checked against NumPy by
// the reference_random tests; here only their equality matters.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "activation_exp.hpp"
#include "activation_functions.hpp"
#include "fast_kernels.hpp"
#include "numbers.hpp"
#include "reduction.hpp"
#include "simd_lanes.hpp"
#include "test_machine.hpp"

using namespace nisa;
using namespace nisa::test;

namespace {

// float32 bit patterns the kernels must carry exactly.
constexpr uint32_t kEdgeF32[] = {
    0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000,  // zeros, +-1, +-inf
    0x7FC00000, 0xFFC00000, 0x7FC12345, 0xFFA00001, 0x7F800001, 0xFF800001,  // NaN payloads, signalling NaN
    0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00400000, 0x00008000,  // denormals
    0x7F7FFFFF, 0xFF7FFFFF, 0x7F7F8000, 0x7F7F7FFF, 0x00800000, 0x80800000,  // fp32 max, bf16 overflow edge, min normal
    0x3F808000, 0x3F818000, 0x3F808001, 0x3F807FFF, 0xBF818000, 0x00018000,  // bf16 ties (even, odd), near ties
    0x40490FDB, 0xC2F6E979, 0x4B000001, 0x3DCCCCCD,
};
// bf16 codes likewise.
constexpr uint16_t kEdgeBf16[] = {0x0000, 0x8000, 0x3F80, 0xBF80, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7FC1, 0xFFA1,
                                  0x7F81, 0x0001, 0x807F, 0x0040, 0x7F7F, 0xFF7F, 0x0080, 0x4049, 0xC2F7, 0x3DCD};

// Fills every element of tensor t: edge values first (interleaved with
// random ones), predicates with many zeros.
void fill(TestMachine& m, int32_t t, uint32_t seed) {
  const TensorDecl& d = m.program().tensors[static_cast<std::size_t>(t)];
  std::mt19937 rng(seed);
  const int64_t elements = element_count(d.shape) / d.shape[0];
  for (int64_t p = 0; p < d.shape[0]; ++p)
    for (int64_t i = 0; i < elements; ++i) {
      const uint32_t r = static_cast<uint32_t>(rng());
      const auto pick = static_cast<std::size_t>((p * 7 + i) % 64);
      switch (d.dtype) {
        case Dtype::f32: {
          uint32_t bits = pick < std::size(kEdgeF32) && r % 3 != 0 ? kEdgeF32[pick] : r;
          if (r % 5 == 0) bits = std::bit_cast<uint32_t>(static_cast<float>(r % 2001) / 8.0f - 125.0f);  // ordinary values
          m.set<uint32_t>(t, p, i, bits);
          break;
        }
        case Dtype::bf16: {
          uint16_t code = pick < std::size(kEdgeBf16) && r % 3 != 0 ? kEdgeBf16[pick] : static_cast<uint16_t>(r);
          if (r % 5 == 0) code = Element<Dtype::bf16>::from_f32(static_cast<float>(r % 2001) / 8.0f - 125.0f);
          m.set<uint16_t>(t, p, i, code);
          break;
        }
        case Dtype::u8:
        case Dtype::i8: m.set<uint8_t>(t, p, i, static_cast<uint8_t>(r % 3 == 0 ? 0 : r >> 8)); break;
        default: FAIL("fill: dtype not covered");
      }
    }
}

struct Snapshot {
  std::vector<std::vector<uint8_t>> tensors;
  std::vector<float> vector_acc, scalar_acc;
};

Snapshot snapshot(TestMachine& m) {
  Snapshot s;
  const auto& tensors = m.program().tensors;
  for (std::size_t t = 0; t < tensors.size(); ++t) {
    const TensorDecl& d = tensors[t];
    const int64_t bytes = element_count(d.shape) / d.shape[0] * static_cast<int64_t>(dtype_size(d.dtype));
    std::vector<uint8_t> all;
    for (int64_t p = 0; p < d.shape[0]; ++p) {
      const uint8_t* at = m.at(static_cast<int32_t>(t), p, 0);
      all.insert(all.end(), at, at + bytes);
    }
    s.tensors.push_back(std::move(all));
  }
  s.vector_acc.assign(m.machine().vector_accumulator.begin(), m.machine().vector_accumulator.end());
  s.scalar_acc.assign(m.machine().scalar_accumulator.begin(), m.machine().scalar_accumulator.end());
  return s;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

Snapshot run_built(const std::function<void(TestMachine&)>& build) {
  TestMachine m;
  build(m);
  m.run();
  return snapshot(m);
}

void check_same_snapshots(const Snapshot& portable_run, const Snapshot& fast_run) {
  for (std::size_t t = 0; t < portable_run.tensors.size(); ++t) {
    const std::vector<uint8_t>&portable = portable_run.tensors[t], &fast = fast_run.tensors[t];
    std::size_t first = 0;  // the first word that differs, for the message
    while (first + 4 <= portable.size() && std::memcmp(&portable[first], &fast[first], 4) == 0) first += 4;
    uint32_t portable_word = 0, fast_word = 0;
    if (first + 4 <= portable.size()) std::memcpy(&portable_word, &portable[first], 4), std::memcpy(&fast_word, &fast[first], 4);
    CAPTURE(t);
    CAPTURE(first);
    CAPTURE(portable_word);
    CAPTURE(fast_word);
    CHECK(portable == fast);
  }
  CHECK(same_bits(portable_run.vector_acc, fast_run.vector_acc));
  CHECK(same_bits(portable_run.scalar_acc, fast_run.scalar_acc));
}

// Runs build's program with the portable kernels and with the fast ones,
// these narrowing to bf16 by bit arithmetic and, where the CPU has
// AVX512-BF16, also by instruction.
void check_same_results(const std::function<void(TestMachine&)>& build) {
  force_portable_kernels(true);
  const Snapshot portable = run_built(build);
  force_portable_kernels(false);
  const bool cpu_has_instructions = bf16_instructions_enabled();
  for (bool instruction : {false, true}) {
    if (instruction && !cpu_has_instructions) break;  // the same run again
    allow_bf16_instructions(instruction);
    CAPTURE(instruction);
    check_same_snapshots(portable, run_built(build));
  }
  allow_bf16_instructions(true);
}

// Free-dimension views of a [P, N] tensor: whole, from an unaligned start,
// strided (the strided one takes the portable loop in both runs).
enum class Layout { whole, offset, strided };
Operand free_view(TestMachine& m, int32_t t, Layout layout, int64_t n) {
  Operand o = m.whole(t);
  if (layout == Layout::offset) o.view.dims[1] = DimSlice{3, n, 1};
  if (layout == Layout::strided) o.view.dims[1] = DimSlice{1, n, 2};
  return o;
}
int64_t declared_length(Layout layout, int64_t n) { return layout == Layout::strided ? 2 * n + 1 : n + 3; }

constexpr int64_t kLengths[] = {1, 15, 16, 37, 100, 511, 600, 1030};
constexpr const char* kArithmetic[] = {"bypass", "add", "subtract", "multiply", "maximum", "minimum"};

}  // namespace

TEST_CASE("fast kernels: tensor_tensor matches the portable loop bit for bit") {
  for (Dtype dtype : {Dtype::f32, Dtype::bf16})
    for (const char* op : {"add", "subtract", "multiply", "maximum", "minimum", "power"})
      for (int64_t n : kLengths)
        for (Layout layout : {Layout::whole, Layout::offset, Layout::strided}) {
          const std::string op_name = op;
          CAPTURE(op_name);
          CAPTURE(n);
          CAPTURE(static_cast<int>(layout));
          CAPTURE(static_cast<int>(dtype));
          check_same_results([&](TestMachine& m) {
            const int64_t len = declared_length(layout, n);
            const int32_t a = m.sbuf("a", dtype, {9, len}), b = m.sbuf("b", dtype, {9, len});
            const int32_t out = m.sbuf("out", dtype, {9, len});
            fill(m, a, 1), fill(m, b, 2), fill(m, out, 3);
            m.add("tensor_tensor", {{"dst", free_view(m, out, layout, n)}, {"data1", free_view(m, a, layout, n)},
                                    {"data2", free_view(m, b, layout, n)}, {"op", op}});
            // In place: dst is data1.
            m.add("tensor_tensor", {{"dst", free_view(m, a, layout, n)}, {"data1", free_view(m, a, layout, n)},
                                    {"data2", free_view(m, out, layout, n)}, {"op", op}});
          });
        }
}

TEST_CASE("fast kernels: tensor_scalar matches the portable loop for every pair of arithmetic operators") {
  for (Dtype dtype : {Dtype::f32, Dtype::bf16})
    for (const char* op0 : kArithmetic)
      for (const char* op1 : kArithmetic)
        for (int64_t n : {int64_t{37}, int64_t{600}}) {
          const std::string op0_name = op0, op1_name = op1;
          CAPTURE(op0_name);
          CAPTURE(op1_name);
          CAPTURE(n);
          check_same_results([&](TestMachine& m) {
            const int32_t x = m.sbuf("x", dtype, {8, n + 3});
            const int32_t out = m.sbuf("out", dtype, {8, n + 3});
            const int32_t column = m.sbuf("column", Dtype::f32, {8, 1});
            fill(m, x, 4), fill(m, out, 5), fill(m, column, 6);
            m.add("tensor_scalar", {{"dst", free_view(m, out, Layout::offset, n)}, {"data", free_view(m, x, Layout::offset, n)},
                                    {"op0", op0}, {"operand0", number(0.1f)}, {"op1", op1},
                                    {"operand1", m.whole(column)}});
            m.add("tensor_scalar", {{"dst", m.whole(x)}, {"data", m.whole(x)}, {"op0", op0},
                                    {"operand0", m.whole(column)}, {"reverse0", boolean(true)}, {"op1", op1},
                                    {"operand1", number(-0.0f)}, {"reverse1", boolean(true)}});
            m.add("tensor_scalar", {{"dst", m.whole(out)}, {"data", m.whole(out)}, {"op0", op0},
                                    {"operand0", number(std::bit_cast<float>(0x7FC00001u))}, {"op1", op1},
                                    {"operand1", number(-1e-40f)}});
            // Reversed with a NaN scalar: whose NaN wins when data is NaN too.
            m.add("tensor_scalar", {{"dst", m.whole(out)}, {"data", m.whole(out)}, {"op0", op0},
                                    {"operand0", number(std::bit_cast<float>(0xFFC00003u))}, {"reverse0", boolean(true)},
                                    {"op1", op1}, {"operand1", number(std::bit_cast<float>(0x7FC00005u))},
                                    {"reverse1", boolean(true)}});
          });
        }
}

TEST_CASE("fast kernels: select_reduce matches the portable loops (row and batch folds)") {
  for (Dtype dtype : {Dtype::f32, Dtype::bf16})
    for (Dtype pred_dtype : {Dtype::u8, Dtype::i8})
      for (int64_t n : kLengths)
        for (Layout layout : {Layout::whole, Layout::offset, Layout::strided}) {
          CAPTURE(n);
          CAPTURE(static_cast<int>(layout));
          CAPTURE(static_cast<int>(dtype));
          check_same_results([&](TestMachine& m) {
            const int64_t len = declared_length(layout, n);
            const int32_t x = m.sbuf("x", dtype, {9, len}), pred = m.sbuf("pred", pred_dtype, {9, len});
            const int32_t out = m.sbuf("out", dtype, {9, len}), res = m.sbuf("res", Dtype::f32, {9, 1});
            const int32_t on_false = m.sbuf("on_false", Dtype::f32, {9, 1});
            // Many zeros of both signs: the sign of a zero maximum depends on the fold order.
            fill(m, x, 7), fill(m, pred, 8), fill(m, out, 9), fill(m, on_false, 10);
            for (int64_t p = 0; p < 9; p += 2)
              for (int64_t i = 0; i < len; ++i) {
                const uint32_t zero = (i * 7 + p) % 3 == 0 ? 0x80000000u : 0u;
                if (dtype == Dtype::f32) m.set<uint32_t>(x, p, i, i % 11 == 5 ? 0xBF800000u : zero);
                else m.set<uint16_t>(x, p, i, static_cast<uint16_t>(i % 11 == 5 ? 0xBF80u : zero >> 16));
              }
            for (const char* cmd : {"reset_reduce", "reduce", "idle"})
              for (bool reverse : {false, true})
                m.add("select_reduce", {{"dst", free_view(m, out, layout, n)}, {"predicate", free_view(m, pred, layout, n)},
                                        {"on_true", free_view(m, x, layout, n)}, {"on_false", m.whole(on_false)},
                                        {"reverse_pred", boolean(reverse)}, {"reduce_cmd", cmd}, {"reduce_res", m.whole(res)}});
            // In place, with a scalar on_false of -0.0.
            m.add("select_reduce", {{"dst", m.whole(x)}, {"predicate", m.whole(pred)}, {"on_true", m.whole(x)},
                                    {"on_false", number(-0.0f)}, {"reduce_cmd", "reduce"}, {"reduce_res", m.whole(res)}});
          });
        }
}

TEST_CASE("fast kernels: range_select matches the portable loop (kept runs at every offset)") {
  for (Dtype dtype : {Dtype::f32, Dtype::bf16})
    for (int64_t n : kLengths)
      for (Layout layout : {Layout::whole, Layout::offset, Layout::strided}) {
        CAPTURE(n);
        CAPTURE(static_cast<int>(layout));
        CAPTURE(static_cast<int>(dtype));
        check_same_results([&](TestMachine& m) {
          const int64_t len = declared_length(layout, n);
          const int32_t x = m.sbuf("x", dtype, {12, len}), out = m.sbuf("out", dtype, {12, len});
          const int32_t lo = m.sbuf("lo", Dtype::f32, {12, 1}), hi = m.sbuf("hi", Dtype::f32, {12, 1});
          const int32_t res = m.sbuf("res", Dtype::f32, {12, 1});
          fill(m, x, 11), fill(m, out, 12);
          // Zeros of both signs and -1 in every other partition: zero maxima, whose sign
          // depends on the fold order.
          for (int64_t p = 0; p < 12; p += 2)
            for (int64_t i = 0; i < len; ++i) {
              const uint32_t bits = i % 13 == 4 ? 0xBF800000u : ((i * 5 + p) % 3 == 0 ? 0x80000000u : 0u);
              if (dtype == Dtype::f32) m.set<uint32_t>(x, p, i, bits);
              else m.set<uint16_t>(x, p, i, static_cast<uint16_t>(bits >> 16));
            }
          // Bounds: empty, whole, inside, across batches, NaN.
          const float bounds[12][2] = {{0, 1e9f},   {5, 20},   {-3, 2},     {17, 17},   {100, 40},  {33, 560},
                                       {511, 513}, {1, 1029}, {2.5f, 9.5f}, {-1e9f, 0}, {NAN, 50}, {3, 1e30f}};
          for (int p = 0; p < 12; ++p) m.set<float>(lo, p, 0, bounds[p][0]), m.set<float>(hi, p, 0, bounds[p][1]);
          for (const char* cmd : {"reset_reduce", "reduce", "idle"})
            for (int64_t start : {int64_t{0}, int64_t{7}, int64_t{-5}})
              m.add("range_select", {{"dst", free_view(m, out, layout, n)}, {"on_true_tile", free_view(m, x, layout, n)},
                                     {"comp_op0", "greater_equal"}, {"comp_op1", "less"}, {"bound0", m.whole(lo)},
                                     {"bound1", m.whole(hi)}, {"reduce_cmd", cmd}, {"reduce_res", m.whole(res)},
                                     {"range_start", integer(start)}});
          m.add("range_select", {{"dst", m.whole(x)}, {"on_true_tile", m.whole(x)}, {"comp_op0", "greater"},
                                 {"comp_op1", "less_equal"}, {"bound0", m.whole(lo)}, {"bound1", m.whole(hi)},
                                 {"reduce_cmd", "reduce"}, {"reduce_res", m.whole(res)}});
        });
      }
}

TEST_CASE("fast kernels: activation exp matches the portable loop (sums left to right, S3)") {
  for (Dtype in_dtype : {Dtype::f32, Dtype::bf16})
    for (Dtype out_dtype : {Dtype::f32, Dtype::bf16})
      for (int64_t n : {int64_t{1}, int64_t{15}, int64_t{37}, int64_t{600}})
        for (int64_t partitions : {int64_t{9}, int64_t{21}, int64_t{128}})
          for (Layout layout : {Layout::whole, Layout::offset, Layout::strided}) {
            CAPTURE(n);
            CAPTURE(partitions);
            CAPTURE(static_cast<int>(layout));
            check_same_results([&](TestMachine& m) {
              const int64_t len = declared_length(layout, n);
              const int32_t x = m.sbuf("x", in_dtype, {partitions, len}), out = m.sbuf("out", out_dtype, {partitions, len});
              const int32_t bias = m.sbuf("bias", Dtype::f32, {partitions, 1}), res = m.sbuf("res", Dtype::f32, {partitions, 1});
              const int32_t plain = m.sbuf("plain", in_dtype, {partitions, len});  // (declared before the machine exists)
              fill(m, x, 13), fill(m, out, 14), fill(m, bias, 15);
              for (const char* cmd : {"reset_reduce", "reduce", "idle", "reset"})
                m.add("activation", {{"dst", free_view(m, out, layout, n)}, {"op", "exp"}, {"data", free_view(m, x, layout, n)},
                                     {"bias", m.whole(bias)}, {"scale", number(-0.37f)}, {"reduce_op", "add"},
                                     {"reduce_cmd", cmd}, {"reduce_res", m.whole(res)}});
              // Ordinary inputs in every other partition too (the edge values mostly give 0,
              // inf or NaN), scale and bias as tiles.
              for (int64_t p = 0; p < partitions; p += 2)
                for (int64_t i = 0; i < len; ++i) {
                  const float v = static_cast<float>((p * 31 + i * 7) % 97) / 13.0f - 3.0f;
                  if (in_dtype == Dtype::f32) m.set<float>(x, p, i, v);
                  else m.set<uint16_t>(x, p, i, Element<Dtype::bf16>::from_f32(v));
                }
              m.add("activation", {{"dst", free_view(m, out, layout, n)}, {"op", "exp"}, {"data", free_view(m, x, layout, n)},
                                   {"bias", number(0.25f)}, {"scale", m.whole(bias)}, {"reduce_op", "add"},
                                   {"reduce_cmd", "reduce"}, {"reduce_res", m.whole(res)}});
              // No NaN at all (the fused sums, not portable_sums), zeros of both signs and
              // subnormal results included.
              for (int64_t p = 0; p < partitions; ++p)
                for (int64_t i = 0; i < len; ++i) {
                  const float v = (p + i) % 5 == 0 ? -200.0f : static_cast<float>((p * 17 + i * 5) % 89) / 7.0f - 6.0f;
                  if (in_dtype == Dtype::f32) m.set<float>(plain, p, i, v);
                  else m.set<uint16_t>(plain, p, i, Element<Dtype::bf16>::from_f32(v));
                }
              m.add("activation", {{"dst", free_view(m, out, layout, n)}, {"op", "exp"}, {"data", free_view(m, plain, layout, n)},
                                   {"bias", number(-0.0f)}, {"scale", number(1.0f)}, {"reduce_op", "add"},
                                   {"reduce_cmd", "reset_reduce"}, {"reduce_res", m.whole(res)}});
              m.add("activation", {{"dst", free_view(m, out, layout, n)}, {"op", "exp"}, {"data", free_view(m, plain, layout, n)},
                                   {"bias", number(-100.0f)}, {"scale", number(0.5f)}, {"reduce_op", "add"},
                                   {"reduce_cmd", "reduce"}, {"reduce_res", m.whole(res)}});
            });
          }
}

TEST_CASE("fast kernels: tensor_copy_predicated's masked stores match the portable select") {
  for (Dtype dtype : {Dtype::f32, Dtype::bf16})
    for (Dtype pred_dtype : {Dtype::u8, Dtype::i8})
      for (int64_t n : kLengths)
        for (Layout layout : {Layout::whole, Layout::offset, Layout::strided}) {
          CAPTURE(n);
          CAPTURE(static_cast<int>(layout));
          CAPTURE(static_cast<int>(dtype));
          check_same_results([&](TestMachine& m) {
            const int64_t len = declared_length(layout, n);
            const int32_t x = m.sbuf("x", dtype, {9, len}), pred = m.sbuf("pred", pred_dtype, {9, len});
            const int32_t out = m.sbuf("out", dtype, {9, len});
            fill(m, x, 16), fill(m, pred, 17), fill(m, out, 18);
            for (bool reverse : {false, true}) {
              m.add("tensor_copy_predicated", {{"dst", free_view(m, out, layout, n)}, {"src", free_view(m, x, layout, n)},
                                               {"predicate", free_view(m, pred, layout, n)}, {"reverse_pred", boolean(reverse)}});
              m.add("tensor_copy_predicated", {{"dst", free_view(m, x, layout, n)}, {"src", number(-0.0f)},
                                               {"predicate", free_view(m, pred, layout, n)}, {"reverse_pred", boolean(reverse)}});
            }
          });
        }
}

TEST_CASE("fast kernels: chosen at pre-decode for the common forms, and not when forced portable") {
  if (!fast_kernels_enabled()) return;  // no AVX-512 here: the portable kernels are the only ones
  TestMachine m;
  for (Dtype dtype : {Dtype::f32, Dtype::bf16}) {
    const int32_t x = m.sbuf("x", dtype, {128, 64}), y = m.sbuf("y", dtype, {128, 64});
    const int32_t pred = m.sbuf("pred", Dtype::u8, {128, 64}), column = m.sbuf("column", Dtype::f32, {128, 1});
    m.add("tensor_tensor", {{"dst", m.whole(x)}, {"data1", m.whole(x)}, {"data2", m.whole(y)}, {"op", "add"}});
    m.add("tensor_scalar", {{"dst", m.whole(x)}, {"data", m.whole(x)}, {"op0", "multiply"}, {"operand0", number(0.5f)},
                            {"op1", "add"}, {"operand1", m.whole(column)}});
    m.add("select_reduce", {{"dst", m.whole(y)}, {"predicate", m.whole(pred)}, {"on_true", m.whole(x)},
                            {"on_false", number(-1.0f)}, {"reduce_cmd", "reduce"}});
    m.add("range_select", {{"dst", m.whole(y)}, {"on_true_tile", m.whole(x)}, {"comp_op0", "greater_equal"},
                           {"comp_op1", "less"}, {"bound0", m.whole(column)}, {"bound1", m.whole(column)},
                           {"reduce_cmd", "reduce"}});
    m.add("activation", {{"dst", m.whole(y)}, {"op", "exp"}, {"data", m.whole(x)}, {"bias", m.whole(column)},
                         {"reduce_op", "add"}, {"reduce_cmd", "reduce"}});
    m.add("tensor_copy_predicated", {{"dst", m.whole(y)}, {"src", m.whole(x)}, {"predicate", m.whole(pred)}});
  }
  const DecodedProgram fast = predecode(active_spec(), m.program(), m.machine());
  force_portable_kernels(true);
  const DecodedProgram portable = predecode(active_spec(), m.program(), m.machine());
  force_portable_kernels(false);
  REQUIRE(fast.steps.size() == portable.steps.size());
  for (std::size_t i = 0; i < fast.steps.size(); ++i) {
    CAPTURE(i);
    const bool differs = fast.steps[i].run != portable.steps[i].run;
    CHECK(differs);
  }
}

#if NISA_HAS_AVX512_KERNELS
namespace {

NISA_AVX512 void narrow_16(const float* in, uint16_t* out) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), simd::narrow_bf16(_mm512_loadu_ps(in)));
}
NISA_AVX512 void pack_32(const float* in, uint16_t* out) {
  _mm512_storeu_si512(out, simd::pack_bf16(simd::bf16_codes_high(_mm512_loadu_ps(in)), simd::bf16_codes_high(_mm512_loadu_ps(in + 16))));
}
// The kernels' stores, narrowing `how`: 16 of in (all lanes) and 32.
NISA_AVX512 void store_16(const float* in, uint16_t* out, simd::Narrowing how) {
  simd::store16<simd::Kind::bf16>(reinterpret_cast<uint8_t*>(out), _mm512_loadu_ps(in), 0xFFFF, how);
}
NISA_AVX512 void store_32(const float* in, uint16_t* out, simd::Narrowing how) {
  simd::store32<simd::Kind::bf16>(reinterpret_cast<uint8_t*>(out), _mm512_loadu_ps(in), _mm512_loadu_ps(in + 16), how);
}
NISA_AVX512 void widen_16(const uint16_t* in, float* out) {
  _mm512_storeu_ps(out, simd::widen_bf16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in))));
}
NISA_AVX512 void canonical_32(const uint16_t* in, uint16_t* out) {
  _mm512_storeu_si512(out, simd::canonical_bf16(_mm512_loadu_si512(in)));
}
// The 16384 floats from bit pattern `base` on, into `in`.
NISA_AVX512 void iota_16k(uint32_t base, float* in) {
  const __m512i step = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  for (uint32_t i = 0; i < 16384; i += 16)
    _mm512_storeu_si512(in + i, _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(base + i)), step));
}
// How many of exp16(in[i]) differ from want[i] in their bits.
NISA_AVX512 int exp_16k_mismatches(const float* in, const float* want) {
  int mismatches = 0;
  for (int i = 0; i < 16384; i += 16) {
    const __m512i got = _mm512_castps_si512(cephes::exp16(_mm512_loadu_ps(in + i)));
    mismatches += __builtin_popcount(_mm512_cmpneq_epi32_mask(got, _mm512_loadu_si512(want + i)));
  }
  return mismatches;
}
}  // namespace

TEST_CASE("fast kernels: bf16 narrowing equals numbers.hpp's on every high half with edge low halves") {
  if (!fast_kernels_enabled()) return;  // no AVX-512 here: nothing to compare
  // Every sign/exponent/kept-mantissa combination, with the low halves that
  // decide rounding: 0, 1, just below/at/above the tie, all ones.
  constexpr uint32_t kLow[] = {0x0000, 0x0001, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 0x4000, 0xC000};
  std::vector<float> in;
  for (uint32_t high = 0; high < 0x10000; ++high)
    for (uint32_t low : kLow) in.push_back(std::bit_cast<float>(high << 16 | low));
  std::mt19937 rng(7);
  for (int i = 0; i < (1 << 20); ++i) in.push_back(std::bit_cast<float>(static_cast<uint32_t>(rng())));
  // Blocks of one kind of value too, so that the instruction path's
  // all-ordinary vectors (no NaN, no denormal) meet every case.
  std::vector<float> sorted = in;
  std::sort(sorted.begin(), sorted.end(), [](float a, float b) {
    return std::bit_cast<uint32_t>(a) < std::bit_cast<uint32_t>(b);
  });
  in.insert(in.end(), sorted.begin(), sorted.end());
  const bool instructions = bf16_instructions_enabled();
  const auto how = instructions ? simd::Narrowing::instruction : simd::Narrowing::bits;
  std::vector<uint16_t> fast(in.size()), packed(in.size()), stored16(in.size()), stored32(in.size());
  for (std::size_t i = 0; i < in.size(); i += 32) {
    narrow_16(&in[i], &fast[i]);
    narrow_16(&in[i + 16], &fast[i + 16]);
    pack_32(&in[i], &packed[i]);
    store_16(&in[i], &stored16[i], how);
    store_16(&in[i + 16], &stored16[i + 16], how);
    store_32(&in[i], &stored32[i], how);
  }
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const uint16_t want = Element<Dtype::bf16>::from_f32(in[i]);
    mismatches += (fast[i] != want) + (packed[i] != want) + (stored16[i] != want) + (stored32[i] != want);
  }
  CAPTURE(instructions);
  CHECK(mismatches == 0);
  // Widening: every code.
  std::vector<uint16_t> codes(0x10000);
  for (uint32_t c = 0; c < 0x10000; ++c) codes[c] = static_cast<uint16_t>(c);
  std::vector<float> wide(0x10000);
  for (std::size_t i = 0; i < codes.size(); i += 16) widen_16(&codes[i], &wide[i]);
  for (uint32_t c = 0; c < 0x10000; ++c)
    if (std::bit_cast<uint32_t>(wide[c]) != std::bit_cast<uint32_t>(Element<Dtype::bf16>::to_f32(static_cast<uint16_t>(c))))
      ++mismatches;
  CHECK(mismatches == 0);
  // Canonicalising codes: every code through float32 and back.
  std::vector<uint16_t> canonical(0x10000);
  for (std::size_t i = 0; i < codes.size(); i += 32) canonical_32(&codes[i], &canonical[i]);
  for (uint32_t c = 0; c < 0x10000; ++c)
    if (canonical[c] != Element<Dtype::bf16>::from_f32(Element<Dtype::bf16>::to_f32(static_cast<uint16_t>(c)))) ++mismatches;
  CHECK(mismatches == 0);
}

#endif

#if NISA_HAS_AVX512_KERNELS
// Every float32 through exp16 and through the portable exp (the lane loop's
// apply_activation): ~5-40 s by build, so a ctest of its own
// (exp_exhaustive), skipped in the unit run. Under the sanitizers (many
// times slower) one block of 16384 in 64.
#if defined(__SANITIZE_ADDRESS__)
constexpr uint64_t kExhaustiveBlockStride = 64;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr uint64_t kExhaustiveBlockStride = 64;
#else
constexpr uint64_t kExhaustiveBlockStride = 1;
#endif
#else
constexpr uint64_t kExhaustiveBlockStride = 1;
#endif
TEST_CASE("fast kernels: exp16 equals the portable exp on all 2^32 floats" * doctest::skip()) {
  if (!fast_kernels_enabled()) return;
  std::vector<float> in(16384), portable(16384);
  uint64_t mismatches = 0;
  uint32_t first_mismatch = 0;  // the first block with one
  for (uint64_t base = 0; base < (uint64_t{1} << 32); base += 16384 * kExhaustiveBlockStride) {
    iota_16k(static_cast<uint32_t>(base), in.data());
    portable = in;
    apply_activation(ActivationFn::exp, portable.data(), 16384, 0.0f);
    const int block = exp_16k_mismatches(in.data(), portable.data());
    if (block != 0 && mismatches == 0) first_mismatch = static_cast<uint32_t>(base);
    mismatches += static_cast<uint64_t>(block);
  }
  CAPTURE(first_mismatch);
  CHECK(mismatches == 0);
}

// Every float32 narrowed to bf16 by the kernels' stores with AVX512-BF16's
// instruction (where the CPU has it) and by numbers.hpp: ~5-20 s, so a ctest
// of its own (bf16_exhaustive), skipped in the unit run; one block in 64
// under the sanitizers.
TEST_CASE("fast kernels: bf16 stores by instruction equal numbers.hpp's on all 2^32 floats" * doctest::skip()) {
  if (!bf16_instructions_enabled()) return;  // nothing to compare on this CPU
  std::vector<float> in(16384);
  std::vector<uint16_t> stored16(16384), stored32(16384);
  uint64_t mismatches = 0;
  uint32_t first_mismatch = 0;  // the first block with one
  for (uint64_t base = 0; base < (uint64_t{1} << 32); base += 16384 * kExhaustiveBlockStride) {
    iota_16k(static_cast<uint32_t>(base), in.data());
    for (std::size_t i = 0; i < in.size(); i += 32) {
      store_16(&in[i], &stored16[i], simd::Narrowing::instruction);
      store_16(&in[i + 16], &stored16[i + 16], simd::Narrowing::instruction);
      store_32(&in[i], &stored32[i], simd::Narrowing::instruction);
    }
    uint64_t block = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      const uint16_t want = Element<Dtype::bf16>::from_f32(in[i]);
      block += (stored16[i] != want) + (stored32[i] != want);
    }
    if (block != 0 && mismatches == 0) first_mismatch = static_cast<uint32_t>(base);
    mismatches += block;
  }
  CAPTURE(first_mismatch);
  CHECK(mismatches == 0);
}
#endif
