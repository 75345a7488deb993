// nc_matmul dst, stationary, moving, ... (Tensor Engine; NKI 0.6 docstring;
// S8.3): dst[m, n] = sum over k of stationary[k, m] * moving[k, n]. The
// inputs are converted to float32 (exact for every input dtype but float32
// itself), each product is rounded to float32, and the products are added in
// float32 from 0, partition k ascending (perf_mode=double_row: for each k, its
// two rows in order). accumulate adds the sum to dst's float32 value; the
// result is converted to dst's dtype. is_transpose starts the sum at -0.0 and
// skips products whose moving value is zero, so an identity moving tile moves
// every stationary value through unchanged (NaN, infinities and -0.0 included).
// --strict also faults accumulating, on NeuronCore-v2/v3, onto PSUM bytes
// that no earlier nc_matmul wrote (NKI: undefined there).
#include <cstring>

#include "../matmul_psum.hpp"
#include "../strict.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::nc_matmul;

struct Params {
  bool accumulate;
  bool onto_other_writes;  // NeuronCore-v2/v3 accumulating onto bytes no earlier nc_matmul wrote (--strict fault)
  bool transpose;
  int64_t contraction;  // K, or 2K with double_row: rows of the float32 matrices
  int64_t m, n;
  float* scratch;  // stationary [contraction x m], moving [contraction x n], result and dst's old values [m x n]
};

void run(const Step& s, Machine&) {
  const Params& k = s.params<Params>();
  const TileAccess& dst = *s.dst;
  const int64_t rows = k.contraction, m = k.m, n = k.n;
  float* stationary = k.scratch;
  float* moving = stationary + rows * m;
  float* result = moving + rows * n;
  // [K, 2, F] with double_row is, partition-major, the [2K, F] matrix whose
  // rows are (k, 0), (k, 1), ...: the contraction order of S8.3.
  load_matrix(*s.in[0], stationary);
  load_matrix(*s.in[1], moving);
  const float start = k.transpose ? -0.0f : 0.0f;
  for (int64_t i = 0; i < m * n; ++i) result[i] = start;
  sum_products(stationary, moving, rows, m, n, k.transpose, result);
  store_sum(dst, k.accumulate, result, result + m * n);
}

// --strict: NKI 0.6: "On NeuronCore-v2 and NeuronCore-v3, matmul accumulating
// into a PSUM location that was value-initialized by a non-matmul instruction
// ... is undefined behavior on hardware" (bytes never written at all are
// already an S1.1 fault).
void check_strict(const Step& s, const StrictFault& fault) {
  if (s.params<Params>().onto_other_writes)
    fault(s, "accumulates onto PSUM bytes that no earlier nc_matmul wrote, which is undefined on NeuronCore-v2 and -v3 (S8.3)");
}

void decode(const DecodeContext& c, Step& s) {
  const TileAccess* dst = c.tile(slot::dst);
  const TileAccess* stationary = c.tile(slot::stationary);
  const TileAccess* moving = c.tile(slot::moving);
  const bool double_row = c.enum_value<spec_enum::matmul_perf_mode>(slot::perf_mode) == spec_enum::matmul_perf_mode::double_row;
  const EarlierWrites earlier = earlier_matmul_writes(c, *dst);
  Params k{};
  k.accumulate = c.present(slot::accumulate) ? c.boolean(slot::accumulate) : earlier.any;
  k.onto_other_writes = k.accumulate && !earlier.all && c.spec.archs[static_cast<std::size_t>(c.program.arch)].version < 4;
  k.transpose = c.boolean(slot::is_transpose);
  k.contraction = stationary->partitions * (double_row ? 2 : 1);
  k.m = dst->partitions;
  k.n = dst->elements;
  const auto floats = static_cast<std::size_t>(k.contraction * (k.m + k.n) + 2 * k.m * k.n);
  k.scratch = reinterpret_cast<float*>(c.tiles.buffer(floats * sizeof(float)));
  s.set_params(k);
  s.dst = dst;
  s.inputs = 0;
  s.in[s.inputs++] = stationary;
  s.in[s.inputs++] = moving;
  if (k.accumulate) s.in[s.inputs++] = dst;  // --strict: accumulating reads dst (S1.1)
  s.partitions = dst->partitions;
  s.elements = dst->elements;
  s.row_length = dst->row_length;
  s.run = run;
}

}  // namespace

const InstructionSemantics nc_matmul_semantics{decode, {.check = check_strict}};

}  // namespace nisa
