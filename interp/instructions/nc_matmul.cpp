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

#include "matmul_psum.hpp"
#include "strict.hpp"
#include "instructions.hpp"

namespace nisa {
namespace {
namespace slot = spec_operand::nc_matmul;

struct Params {
  bool accumulate;
  bool onto_other_writes;  // NeuronCore-v2/v3 accumulating onto bytes no earlier nc_matmul wrote (--strict fault)
  bool transpose;
  int64_t contraction;  // K, or 2K with double_row: rows of the float32 matrices
  float* scratch;  // matmul_scratch
};

void run(const Step& s, Machine&) {
  const Params& k = s.params<Params>();
  const TileAccess& dst = *s.dst;
  const int64_t m = dst.partitions, n = dst.elements;
  const MatmulScratch w = scratch_parts(k.scratch, dst, k.contraction);
  // [K, 2, F] with double_row is, partition-major, the [2K, F] matrix whose
  // rows are (k, 0), (k, 1), ...: the contraction order of S8.3.
  load_matrix(*s.in[0], w.stationary);
  load_matrix(*s.in[1], w.moving);
  const float start = k.transpose ? -0.0f : 0.0f;
  for (int64_t i = 0; i < m * n; ++i) w.result[i] = start;
  sum_products(w.stationary, w.moving, k.contraction, m, n, k.transpose, w.result);
  store_sum(dst, k.accumulate, w.result, w.old);
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
  k.scratch = matmul_scratch(c, *dst, k.contraction);
  s.set_params(k);
  set_matmul_tiles(s, dst, stationary, moving, k.accumulate);
  s.run = run;
}

}  // namespace

const InstructionSemantics nc_matmul_semantics{decode, {.check = check_strict}};

}  // namespace nisa
