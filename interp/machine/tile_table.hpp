// Every tile a decoded program uses, resolved and laid out once. Steps hold
// pointers into the table, so a Step stays small, and a tile that many
// instructions use (the usual case: a kernel works on a few tiles over and
// over) costs one resolution and one row-offset table.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tile_access.hpp"

namespace nisa {

class TileTable {
 public:
  TileTable(Machine& machine, const Program& program) : machine_(machine), program_(program) {}
  TileTable(const TileTable&) = delete;
  TileTable& operator=(const TileTable&) = delete;

  // The view in its own row layout (rows of its innermost run).
  const TileAccess* view(const TensorView& v);
  // The same tile laid out in rows of row_length (a divisor of its innermost run).
  const TileAccess* with_rows(const TileAccess* t, int64_t row_length);
  // A tile of its own (staging copies); not shared.
  const TileAccess* add(TileAccess t);
  // A zeroed buffer that lives as long as the table (staging memory).
  uint8_t* buffer(std::size_t bytes);
  // Work space a step overwrites before it reads it, every time it runs, and
  // never keeps anything in: one buffer per size, shared by every step that
  // asks for that size (steps run one at a time; only partitions_independent
  // steps are cut for a second thread, so a step whose two halves might both
  // use it must take a buffer() of its own). A shared buffer keeps equal
  // steps equal byte for byte (SharedSteps), and a long program of matmuls
  // from touching fresh memory per step.
  uint8_t* scratch(std::size_t bytes);

  std::size_t size() const { return tiles_.size(); }

  // One flag per PSUM byte: written by an earlier nc_matmul of the program.
  // Steps are decoded in program order, which is the order they run in, so
  // nc_matmul's accumulate=None (S8.3) is resolved while decoding.
  uint8_t* matmul_written_psum() {
    if (matmul_written_psum_.empty()) matmul_written_psum_.assign(machine_.psum.size(), 0);
    return matmul_written_psum_.data();
  }

 private:
  Machine& machine_;
  const Program& program_;
  std::deque<TileAccess> tiles_;  // deque: pointers stay valid as it grows
  // The tiles of view(), by the view's words (tensor, then offset and
  // pattern or the slices): open addressing (linear probing), a power of two
  // of slots, at most half of them taken; the keys one after another in
  // view_words_. Flat: a program of distinct views (a DMA per tile of a large
  // tensor) adds one per instruction, and a node and a string each cost more
  // than resolving the view.
  struct ViewSlot {
    uint64_t hash = 0;
    std::size_t first = 0, count = 0;  // its key in view_words_
    const TileAccess* tile = nullptr;  // nullptr: an empty slot
  };
  std::vector<ViewSlot> by_view_;
  std::vector<int64_t> view_words_;
  std::size_t views_ = 0;
  std::vector<int64_t> key_;  // the view being looked up
  void grow_views();
  std::map<std::pair<const TileAccess*, int64_t>, const TileAccess*> by_rows_;
  std::vector<std::unique_ptr<uint8_t[]>> buffers_;
  std::unordered_map<std::size_t, std::unique_ptr<uint8_t[]>> scratch_;
  std::vector<uint8_t> matmul_written_psum_;
};

}  // namespace nisa
