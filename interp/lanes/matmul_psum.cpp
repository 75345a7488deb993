#include "matmul_psum.hpp"

#include <cstring>

#include "tile_table.hpp"

namespace nisa {

void load_matrix(const TileAccess& t, float* out) {
  const int64_t rows = t.elements / t.row_length;
  for (int64_t p = 0; p < t.partitions; ++p)
    for (int64_t r = 0; r < rows; ++r)
      t.load(t.partition(p) + t.row_offsets[static_cast<std::size_t>(r)], t.element_stride, t.row_length,
             out + p * t.elements + r * t.row_length);
}

void store_matrix(const TileAccess& t, const float* in) {
  const int64_t rows = t.elements / t.row_length;
  for (int64_t p = 0; p < t.partitions; ++p)
    for (int64_t r = 0; r < rows; ++r)
      t.store(t.partition(p) + t.row_offsets[static_cast<std::size_t>(r)], t.element_stride, t.row_length,
              in + p * t.elements + r * t.row_length);
}

void sum_products(const float* stationary, const float* moving, int64_t rows, int64_t m, int64_t n, bool transpose, float* result) {
  for (int64_t mi = 0; mi < m; ++mi) {
    float* out = result + mi * n;
    for (int64_t r = 0; r < rows; ++r) {
      const float a = stationary[r * m + mi];
      const float* b = moving + r * n;
      if (transpose) {
        for (int64_t j = 0; j < n; ++j)
          if (b[j] != 0.0f) out[j] += a * b[j];
      } else {
        for (int64_t j = 0; j < n; ++j) out[j] += a * b[j];  // -ffp-contract=off: rounded product, then the add
      }
    }
  }
}

void store_sum(const TileAccess& dst, bool accumulate, float* sum, float* old) {
  if (accumulate) {
    load_matrix(dst, old);
    const int64_t count = dst.partitions * dst.elements;
    for (int64_t i = 0; i < count; ++i) sum[i] = old[i] + sum[i];
  }
  store_matrix(dst, sum);
}

float* matmul_scratch(const DecodeContext& c, const TileAccess& dst, int64_t rows) {
  const int64_t m = dst.partitions, n = dst.elements;
  return reinterpret_cast<float*>(c.tiles.scratch(static_cast<std::size_t>(rows * (m + n) + 2 * m * n) * sizeof(float)));
}

MatmulScratch scratch_parts(float* scratch, const TileAccess& dst, int64_t rows) {
  const int64_t m = dst.partitions, n = dst.elements;
  float* moving = scratch + rows * m;
  float* result = moving + rows * n;
  return MatmulScratch{scratch, moving, result, result + m * n};
}

void set_matmul_tiles(Step& s, const TileAccess* dst, const TileAccess* stationary, const TileAccess* moving,
                      bool accumulate) {
  s.dst = dst;
  s.inputs = 0;
  s.in[s.inputs++] = stationary;
  s.in[s.inputs++] = moving;
  if (accumulate) s.in[s.inputs++] = dst;
  s.partitions = dst->partitions;
  s.elements = dst->elements;
  s.row_length = dst->row_length;
}

EarlierWrites earlier_matmul_writes(const DecodeContext& c, const TileAccess& dst) {
  uint8_t* flags = c.tiles.matmul_written_psum();
  EarlierWrites w;
  // One flag per byte, visited a byte range at a time: a whole row where its
  // elements are contiguous, else one element. Once some flag was set and
  // another was not, the answer is known and the rest is only marked.
  auto visit = [&](uint8_t* f, std::size_t bytes) {
    if (w.all || !w.any) {
      w.any = w.any || std::memchr(f, 1, bytes) != nullptr;
      w.all = w.all && std::memchr(f, 0, bytes) == nullptr;
    }
    std::memset(f, 1, bytes);
  };
  const int64_t rows = dst.row_length == 0 ? 0 : dst.elements / dst.row_length;
  const bool contiguous = dst.unit_stride();
  const auto run_bytes = static_cast<std::size_t>(contiguous ? dst.row_length * dst.element_size : dst.element_size);
  const int64_t runs_per_row = contiguous ? 1 : dst.row_length;
  for (int64_t p = 0; p < dst.partitions; ++p)
    for (int64_t r = 0; r < rows; ++r) {
      const uint8_t* row = dst.partition(p) + dst.row_offsets[static_cast<std::size_t>(r)];
      for (int64_t j = 0; j < runs_per_row; ++j)
        visit(flags + (row + j * dst.element_stride - c.machine.psum.data()), run_bytes);
    }
  return w;
}

}  // namespace nisa
