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

  std::size_t size() const { return tiles_.size(); }

 private:
  Machine& machine_;
  const Program& program_;
  std::deque<TileAccess> tiles_;  // deque: pointers stay valid as it grows
  std::unordered_map<std::string, const TileAccess*> by_view_;
  std::map<std::pair<const TileAccess*, int64_t>, const TileAccess*> by_rows_;
  std::vector<std::unique_ptr<uint8_t[]>> buffers_;
  std::string key_;  // reused for look-ups
};

}  // namespace nisa
