// Every tile a decoded program uses, resolved and laid out once. Steps hold
// pointers into the table, so a Step stays small, and a tile that many
// instructions use (the usual case: a kernel works on a few tiles over and
// over) costs one resolution and one row-offset table.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
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
  std::unordered_map<std::string, const TileAccess*> by_view_;
  std::map<std::pair<const TileAccess*, int64_t>, const TileAccess*> by_rows_;
  std::vector<std::unique_ptr<uint8_t[]>> buffers_;
  std::unordered_map<std::size_t, std::unique_ptr<uint8_t[]>> scratch_;
  std::string key_;  // reused for look-ups
  std::vector<uint8_t> matmul_written_psum_;
};

}  // namespace nisa
