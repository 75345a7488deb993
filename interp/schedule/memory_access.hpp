// Memory accesses as rectangles, shared by the static timeline (S6) and
// dead-store elimination: an access is partitions [p0, p1) x bytes [b0, b1)
// of one memory space (the bounding box of a view within each partition; for
// HBM tensors the rows of dimension 0 play the partitions). Spaces: SBUF,
// PSUM, each engine's accumulator (one byte per lane), then each HBM tensor.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "program.hpp"
#include "spec.hpp"

namespace nisa {

struct Rect {
  int64_t p0 = 0, p1 = 0;  // partitions
  int64_t b0 = 0, b1 = 0;  // bytes within a partition (HBM: within a row)
  bool overlaps(const Rect& o) const { return p0 < o.p1 && o.p0 < p1 && b0 < o.b1 && o.b0 < b1; }
  bool inside(const Rect& o) const { return o.p0 <= p0 && p1 <= o.p1 && o.b0 <= b0 && b1 <= o.b1; }
};

struct Access {
  std::size_t space = 0;
  Rect rect;
  bool write = false;
  bool exact = false;  // a write of every byte of rect (a view that fills its bounding box)
};

// The space of a tensor (SBUF and PSUM are one space each: aliased tensors
// meet there) and of an engine's accumulator.
std::size_t access_space(const TensorDecl& t, std::size_t tensor);
std::size_t accumulator_space(Engine e);

// The bounding rectangle of a view (the whole tensor for a dynamic access).
Rect view_rect(const Program& program, const TensorView& view);
// Whether the view holds every byte of its bounding rectangle `r`.
bool view_fills_rect(const Program& program, const TensorView& view, const Rect& r);
// Bytes of one row of an HBM tensor (view_rect's byte range is within a row).
int64_t hbm_row_bytes(const TensorDecl& t);
bool empty_view(const TensorView& view);

// The memory and accumulator accesses of one instruction, from the spec's
// written operands and accumulator operands (S3): written operands are
// writes, every other tensor (and a dynamic access's index) a read, an
// accumulator command other than idle writes the lanes, the result operand
// reads them.
void collect_accesses(const Program& program, const InstructionSpec& is, const Instruction& ins, Engine engine,
                      std::vector<Access>& out);

}  // namespace nisa
