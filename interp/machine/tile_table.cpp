#include "tile_table.hpp"

#include <algorithm>
#include <cstring>

namespace nisa {

namespace {
// FNV-1a over 64-bit words, finished by a mix of the high bits downward.
uint64_t hash_words(const std::vector<int64_t>& words) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const int64_t w : words) h = (h ^ static_cast<uint64_t>(w)) * 0x100000001b3ull;
  return h ^ (h >> 29) ^ (h >> 47);
}
}  // namespace

const TileAccess* TileTable::view(const TensorView& v) {
  key_.clear();
  key_.push_back(v.tensor);
  if (v.is_pattern) {
    key_.push_back(-1);  // slice starts are never negative: the forms cannot collide
    key_.push_back(v.offset);
    // A vector_offset view's partitions all start at the offset (affine_view):
    // another tile than the same pattern's static or scalar_offset view.
    key_.push_back(v.indirect == IndirectKind::vector ? 1 : 0);
    for (const PatternDim& d : v.pattern) {
      key_.push_back(d.step);
      key_.push_back(d.num);
    }
  }
  for (const DimSlice& d : v.dims) {
    key_.push_back(d.start);
    key_.push_back(d.count);
    key_.push_back(d.step);
  }
  const uint64_t hash = hash_words(key_);
  if ((views_ + 1) * 2 > by_view_.size()) grow_views();
  const std::size_t mask = by_view_.size() - 1;
  for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    ViewSlot& s = by_view_[slot];
    if (s.tile == nullptr) {
      s.hash = hash;
      s.first = view_words_.size();
      s.count = key_.size();
      view_words_.insert(view_words_.end(), key_.begin(), key_.end());
      s.tile = add(resolve_tile(machine_, program_, v));
      ++views_;
      return s.tile;
    }
    if (s.hash == hash && s.count == key_.size() &&
        std::memcmp(view_words_.data() + s.first, key_.data(), key_.size() * sizeof(int64_t)) == 0)
      return s.tile;
  }
}

void TileTable::grow_views() {
  std::vector<ViewSlot> old = std::move(by_view_);
  by_view_.assign(std::max<std::size_t>(64, old.size() * 2), ViewSlot{});
  const std::size_t mask = by_view_.size() - 1;
  for (const ViewSlot& s : old) {
    if (s.tile == nullptr) continue;
    std::size_t slot = s.hash & mask;
    while (by_view_[slot].tile != nullptr) slot = (slot + 1) & mask;
    by_view_[slot] = s;
  }
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
