// One dynamic (vector_offset / scalar_offset) side of a DMA (NKI 0.6 nki-aps
// "Dynamic Access"), shared by dma_copy and dma_compute: decoded once into the
// tile table, then bounded against its tensor at run time (oob_mode decides
// what an index outside it does; docs/SEMANTICS.md, dma_copy).
#pragma once
#include <cstdint>
#include <string>

#include "decode_context.hpp"
#include "registers.hpp"

namespace nisa {

// Where a runtime index is read, for the fault an index out of bounds gives:
// the instruction, its line and the view's tensor (the DMA's dynamic
// views and tensor_copy's .indirect() views alike).
struct IndexSite {
  const Program* program = nullptr;
  const char* instruction = "";
  int32_t tensor = -1;
  uint32_t line = 0;
  const std::string& tensor_name() const { return program->tensors[static_cast<std::size_t>(tensor)].name; }
  // Throws RuntimeFault("FILE:LINE: error: INSTRUCTION: index N" + rest).
  [[noreturn]] void fault(int64_t index, const std::string& rest) const;
};
IndexSite index_site(const DecodeContext& c, const TensorView& v);

struct IndirectSide {
  const TileAccess* index = nullptr;  // the index view, in its own layout (nullptr: a register's)
  // scalar_offset=REG (S17.3): the register whose value is the index, read
  // from `machine` when the step runs; -1 with an index view.
  int32_t reg = -1;
  const Machine* machine = nullptr;
  RegisterSite reg_site;
  bool vector = false;                // one index per partition (else one for all)
  int64_t unit = 0;                   // elements one index step moves
  int64_t low = 0, high = 0;          // flat elements the static view reaches (index 0)
  int64_t total = 0;                  // elements of the tensor
  int64_t first_index = 0, last_index = 0;  // the indices that keep the view inside the tensor
  int64_t element_size = 0;
  IndexSite site;                     // for the fault message
};

// The runtime index at element `element` (a row of the index's row layout of
// length 1) of partition `partition` of index tile `t`, as a signed value: the
// integer dtypes check_instruction lets an index have.
int64_t index_at(const TileAccess& t, int64_t partition, int64_t element);

// nullptr for a static view; else the side, living in the tile table.
const IndirectSide* indirect_side(const DecodeContext& c, const TensorView& v);

// The byte shift of partition p on this side (0 for nullptr), or false when
// its index takes the view outside the tensor (`index` then holds it).
bool shift_of(const IndirectSide* side, int64_t p, int64_t& bytes, int64_t& index);

// The oob_mode=error fault for partition p's index.
[[noreturn]] void out_of_bounds(const IndirectSide& side, int64_t p, int64_t index);

}  // namespace nisa
