#include "tile_table.hpp"

#include <cstring>

namespace nisa {

namespace {
void append(std::string& key, int64_t v) {
  char bytes[sizeof v];
  std::memcpy(bytes, &v, sizeof v);
  key.append(bytes, sizeof v);
}
}  // namespace

const TileAccess* TileTable::view(const TensorView& v) {
  key_.clear();
  append(key_, v.tensor);
  if (v.is_pattern) {
    append(key_, -1);  // slice starts are never negative: the forms cannot collide
    append(key_, v.offset);
    // A vector_offset view's partitions all start at the offset (affine_view):
    // another tile than the same pattern's static or scalar_offset view.
    append(key_, v.indirect == IndirectKind::vector ? 1 : 0);
    for (const PatternDim& d : v.pattern) {
      append(key_, d.step);
      append(key_, d.num);
    }
  }
  for (const DimSlice& d : v.dims) {
    append(key_, d.start);
    append(key_, d.count);
    append(key_, d.step);
  }
  const auto found = by_view_.find(key_);
  if (found != by_view_.end()) return found->second;
  const TileAccess* t = add(resolve_tile(machine_, program_, v));
  by_view_.emplace(key_, t);
  return t;
}

const TileAccess* TileTable::with_rows(const TileAccess* t, int64_t row_length) {
  if (t->row_length == row_length) return t;
  const auto key = std::make_pair(t, row_length);
  const auto found = by_rows_.find(key);
  if (found != by_rows_.end()) return found->second;
  TileAccess copy = *t;
  lay_out_rows(copy, row_length);
  const TileAccess* laid_out = add(std::move(copy));
  by_rows_.emplace(key, laid_out);
  return laid_out;
}

const TileAccess* TileTable::add(TileAccess t) { return &tiles_.emplace_back(std::move(t)); }

uint8_t* TileTable::buffer(std::size_t bytes) {
  buffers_.push_back(std::make_unique<uint8_t[]>(bytes == 0 ? 1 : bytes));
  return buffers_.back().get();
}

uint8_t* TileTable::scratch(std::size_t bytes) {
  std::unique_ptr<uint8_t[]>& at = scratch_[bytes];
  if (!at) at = std::make_unique<uint8_t[]>(bytes == 0 ? 1 : bytes);
  return at.get();
}

}  // namespace nisa
