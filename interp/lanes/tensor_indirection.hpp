// Tensor Indirection on a compute instruction's operand (NKI 0.6
// NkiTensor.indirect, NeuronCore-v4; docs/SEMANTICS.md S1.7): the view's
// column i sits index[snake(i)] pattern steps into each partition's row
// instead of i steps. Decoded once (where the index lives, the bounds); the
// offsets are read from the index when the step runs, since they are data.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "decode_context.hpp"
#include "indirect_access.hpp"

namespace nisa {

struct TensorIndirection {
  const TileAccess* index = nullptr;  // the index view, one element per row
  int64_t index_partitions = 0, index_elements = 0;
  int64_t group = 16;                 // partitions per snake group (program.hpp tensor_indirect_group)
  int64_t step = 0;                   // elements one index unit moves (the pattern's free step)
  int64_t first_free = 0;             // the view's start within its partition's row, in elements
  int64_t row_elements = 0;           // elements of a partition's row of the tensor
  int64_t element_size = 0;
  IndexSite site;                     // for the fault message
};

// nullptr unless v is an .indirect() view; else the side, living in the tile table.
const TensorIndirection* tensor_indirection(const DecodeContext& c, const TensorView& v, Engine engine);

// The byte offset of each of the n columns from the start of a partition of
// the view: the index values times the step for an indirect side (a
// RuntimeFault naming the line for an offset outside the row), else the
// static layout of `t` (one element per row, t laid out by with_rows(t, 1)).
// An indirect side's offsets are from the view's start (t.partition(p)).
void column_offsets(const TensorIndirection* side, const TileAccess& t, int64_t n, std::vector<int64_t>& out);

// The operand's tile with one element per row; for an .indirect() view only
// its first element (the view's start in each partition, inside the row:
// check_pattern): its columns are the runtime offsets from there, and what
// reads the tile as it is (--strict's input check, a partition split) must
// not walk the static columns 0..N-1, which may leave the row.
const TileAccess* indirect_start_tile(const DecodeContext& c, OperandSlot slot);

// ---- Elementwise instructions (tensor_tensor, tensor_scalar, activation, ...) ----
//
// Their decoders stream streamed_tile(c, slot) for dst and each input, pick
// their kernel as for any step, then call finish_tensor_indirection. For an
// .indirect() operand the streamed tile is a contiguous staging tile of the
// view's P x N elements: the step gathers the indexed columns into it before
// the kernel runs and scatters dst's from it after (bits, in the operand's
// own dtype, so the kernel's conversions are the usual ones). All inputs are
// read before dst is written, as S1.6 has it for any step.

struct StrictFault;

struct IndirectStreams {
  Kernel inner = nullptr;                  // the instruction's kernel, on the staging tiles
  void (*check)(const Step&, const StrictFault&) = nullptr;  // the instruction's --strict check, likewise
  void (*written)(const Step&, std::vector<uint8_t*>&) = nullptr;  // its --strict written elements, likewise
  const TileAccess* staging[4] = {};       // dst, in[0..2]: the streamed staging tile (nullptr: a plain operand)
  const TileAccess* view[4] = {};          // the real view's start tile (indirect_start_tile)
  const TensorIndirection* side[4] = {};
  int64_t columns[4] = {};                 // each view's N (a reduction's dst has fewer than its input)
  bool gathers_dst = false;                // the kernel reads dst (keeps some of its bits): gather it first
  bool final_dst = false;                  // dst is Step::final_dst; dst streams the input (tensor_reduce)
};

// How the instruction holds its dst (finish_tensor_indirection).
struct IndirectDst {
  // The kernel leaves some of dst as it was (tensor_copy_predicated): a
  // scattered dst's columns are gathered into its staging tile first, and
  // --strict marks every scattered column written.
  bool read = false;
  // dst is Step::final_dst and Step::dst streams the input (tensor_reduce).
  bool final = false;
};

// The tile to stream for `slot`: c.tile(slot), or a staging tile for an .indirect() view.
const TileAccess* streamed_tile(const DecodeContext& c, OperandSlot slot);

// When dst or an input is an .indirect() view: s runs the gather, s.run's
// kernel on the staging tiles, the scatter; s.dst/s.in[] name the real
// views' start tiles (what --strict and the scheduler see), a scattered
// dst lists its written elements for --strict, and the instruction's own
// --strict check (S5 input ranges) and, for a plain dst, its written-elements
// hook (tensor_copy_predicated) see the gathered values. `inputs` are
// s.in[]'s slots.
void finish_tensor_indirection(const DecodeContext& c, Step& s, OperandSlot dst, std::initializer_list<OperandSlot> inputs,
                               IndirectDst how = {});

}  // namespace nisa
