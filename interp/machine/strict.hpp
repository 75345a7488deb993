// --strict (S1.1, S3, S5) as instructions see it: the knowledge particular to
// one instruction (which partitions it touches, which elements it writes,
// the values its activation function receives) is a StrictHooks in the
// instruction's own file; strict.cpp applies them generically.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "activation_functions.hpp"
#include "step.hpp"

namespace nisa {

// Raises the --strict fault of step s: RuntimeFault("FILE:LINE: error: message").
struct StrictFault {
  const Program& program;
  [[noreturn]] void operator()(const Step& s, const std::string& message) const;
};

// A tile a step reads or writes, as the HBM race check of a program for
// several cores sees it (SEMANTICS S16.5; hbm_races.hpp).
struct TileUse {
  const TileAccess* tile = nullptr;
  bool writes = false;
  int64_t partition_every = 1;  // StrictHooks::partition_every
  // Writes only the elements StrictHooks::written_elements lists.
  bool listed_elements = false;
  // A runtime index (dma_copy's vector_offset, scalar_offset) moves the
  // view: per partition of `tile`, the byte shift of its elements, or
  // kUntouched when the step moves nothing there (oob_mode=skip, or the
  // partitions after an index that faults). Empty: the view as it is.
  std::vector<int64_t> shift;
  static constexpr int64_t kUntouched = INT64_MIN;
};

struct StrictHooks {
  // Reads and writes touch only partitions whose physical number is a
  // multiple of this (nonzero_with_count: GpSimd core k serves partition 16k).
  int64_t partition_every = 1;
  // Extra checks before the step runs (S5: activation input ranges).
  void (*check)(const Step&, const StrictFault&) = nullptr;
  // The addresses the step will write when that is not all of dst, taken
  // before it runs (tensor_copy_predicated: the selected elements).
  void (*written_elements)(const Step&, std::vector<uint8_t*>& out) = nullptr;
  // The tile the result lands in when it is not dst (tensor_reduce: final_dst).
  const TileAccess* (*result_tile)(const Step&) = nullptr;
  // Every tile the step touches, taken before it runs, when in[], the
  // scalars' tiles and the result tile do not say it (a runtime index moves
  // a view; dma_compute's sources are a list); false: they do.
  bool (*tile_uses)(const Step&, std::vector<TileUse>& out) = nullptr;
};

// The tile step s writes its result to (StrictHooks::result_tile, else dst
// or, staged, final_dst), nullptr when none.
const TileAccess* step_result_tile(const Step& s);

// Every tile step s reads or writes (its hooks' tile_uses, else in[], the
// scalars' tiles, the result tile, reduce_res), reads first, appended to `out`.
void step_tile_uses(const Step& s, std::vector<TileUse>& out);

// f(p, i, address) for flat free element i of partition p of t (in its row
// layout), for the partitions `partition_every` selects.
template <class F>
void for_each_element(const TileAccess& t, int64_t partition_every, F f) {
  const int64_t rows = t.row_length == 0 ? 0 : t.elements / t.row_length;
  for (int64_t p = 0; p < t.partitions; ++p) {
    if ((t.first_partition + p) % partition_every != 0) continue;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < t.row_length; ++j)
        f(p, r * t.row_length + j, t.partition(p) + t.row_offsets[static_cast<std::size_t>(r)] + j * t.element_stride);
  }
}

// S5: every value activation function `fn` receives, stage(p, x) for each
// element x of s.in[0] at partition p, must lie in fn's valid range.
template <class Stage>
void check_activation_inputs(const Step& s, const StrictFault& fault, ActivationFn fn, Stage stage) {
  const TileAccess& data = *s.in[0];
  for_each_element(data, 1, [&](int64_t p, int64_t i, const uint8_t* address) {
    float v;
    data.load(address, data.element_stride, 1, &v);
    v = stage(p, v);
    if (!activation_input_valid(fn, v))
      fault(s, std::string(activation_name(fn)) + " input " + std::to_string(v) + " (partition " +
                   std::to_string(data.first_partition + p) + ", element " + std::to_string(i) +
                   ") is outside the hardware's valid range (S5)");
  });
}

}  // namespace nisa
