// The state and checks behind check_instruction (program_check.hpp), shared
// by program_check.cpp (each operand alone, then the driver) and
// program_check_relations.cpp (the spec's cross-operand checks). Internal to
// common/.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "program_check.hpp"

namespace nisa::check_detail {

// Message pieces.
std::string quoted(const std::string& key);
std::string float_text(float v);
std::string join_memories(const std::vector<Memory>& ms);
std::string dtype_list(const Spec& spec, uint32_t mask);
std::string enum_value_name(const Spec& spec, const OperandSpec& op, int64_t index);
std::string state_name(OperandState s);
std::string shape_text(const TensorView& v);
std::string slice_text(const DimSlice& d);

struct InstructionChecker {
  const Spec& spec;
  const Program& program;
  const Instruction& ins;
  const InstructionSpec& is;
  std::vector<CheckFailure> failures;

  void fail(int operand, std::string message) { failures.push_back({operand, std::move(message)}); }
  const Operand& operand(int i) const { return ins.operands[static_cast<std::size_t>(i)]; }
  const std::string& key(int i) const { return is.operands[static_cast<std::size_t>(i)].name; }
  bool is_tensor(int i) const { return i >= 0 && operand(i).state == OperandState::tensor; }  // -1: a check without that operand
  const TensorDecl& tensor_of(int i) const { return program.tensors[static_cast<std::size_t>(operand(i).view.tensor)]; }

  // The view lies inside its tensor (so no element access needs a bound check).
  bool check_view(int i) { return check_view(i, operand(i).view); }

  // Scalars stored as exact int32 (integer_if_dtype_of / integer_if_bitvec).
  bool scalar_is_integer(int i) const { return nisa::scalar_is_integer(program.tensors, is, ins.operands, i); }

  bool is_given(int i) const { return operand(i).state != OperandState::absent; }

  // --- issue 13, data movement (dma_transpose, nc_stream_shuffle, local_gather) ---

  int arch_version() const { return spec.archs[static_cast<std::size_t>(program.arch)].version; }

  // Each operand alone, and the driver (program_check.cpp).
  void check_arch();
  // Operand i's view, or the index view of its dynamic access pattern.
  bool check_view(int i, const TensorView& v);
  // An access pattern (LANGUAGE.md 2.3) lies inside its tensor: every element
  // flat[K + sum i_k * step_k] exists, and for SBUF/PSUM each partition's
  // elements stay within that partition. The spec loader keeps the encoding's
  // step, num and dimension widths within 62 bits together, so once each entry
  // fits its field no sum here overflows int64.
  bool check_pattern(int i, const TensorView& v);
  // NKI 0.6 dynamic access (nki-aps "Dynamic Access"; dma_copy's indirect
  // addressing): only where the spec allows it, on an HBM tensor, indexed by
  // an integer SBUF view: vector_offset one index per partition of the view on
  // indirect_dim 0, scalar_offset a single index on any dimension. The static
  // part of the view is bounded here with index 0; the index itself can only
  // be bounded at run time (oob_mode).
  bool check_indirect(int i, const TensorView& v);
  bool check_index_view(int i, const TensorView& v, const std::string& form);
  // An operand the instruction writes never names one element twice (a step of
  // 0, or overlapping strides): the result would depend on the order of the
  // writes. Sufficient test: with the dimensions sorted by |step|, each step
  // exceeds the reach of the ones inside it.
  void check_distinct_elements(int i);
  // S1.5: >64 partitions start at 0; 33..64 at 0 or 64; 1..32 at a multiple of 32.
  void check_alignment(int i);
  void check_tensor_operand(int i);
  bool check_memory_and_dtype(int i, const TensorDecl& t);
  // A tensor_list (dma_compute's srcs, only read; the DMA has no partition
  // alignment rule): the count, then every view like a tensor operand's.
  void check_tensor_list_operand(int i);
  void check_scalar_operand(int i);
  void check_operand(int i);
  // Entry count and the range of every item (spec list_items).
  void check_list_operand(int i);
  uint32_t integer_dtype_mask() const;
  void run();

  // The spec's cross-operand checks (program_check_relations.cpp).
  // reduced_by_axes: dst (a) holds data (b) reduced over the free axes listed
  // in `axes` (NKI 0.6 tensor_reduce: the last free axes, ending at the final
  // one; never axis 0), or over all free axes when `axes` is absent.
  void check_reduced_by_axes(const CheckSpec& c);
  // transposed_by_axes: dst (a) is src (b) with its axes permuted (NKI 0.6
  // dma_transpose: (1, 0), (2, 1, 0), (3, 1, 2, 0) for a 2-, 3-, 4-D src).
  // dst's first axis is the permuted first axis, its free elements the rest.
  void check_transposed_by_axes(const CheckSpec& c);
  // shuffle_quadrants (NKI 0.6 nc_stream_shuffle): both tiles start where the
  // number of active partitions allows, hold the same elements per partition,
  // and every mask entry is a partition of the quadrant (0..31) or 255, naming
  // a src partition that exists for every dst partition it feeds.
  void check_shuffle_quadrants(const CheckSpec& c);
  // local_gather_layout (NKI 0.6 local_gather): index covers whole GpSimd
  // cores (16 partitions from a multiple of 16), num_elem_per_idx is a power
  // of two up to 32, num_valid_indices at most a core's indices (4096 at
  // most), and dst holds num_valid_indices * num_elem_per_idx per partition.
  void check_local_gather_layout(const CheckSpec& c);
  // rng_state_shape (S11.5): a [1, 1] seed (set_rng_seed), or one row of
  // XORWOW state words per lane: 6 for GpSimd's generator, 24 for Vector's four.
  void check_rng_state_shape(const CheckSpec& c);
  // mx_scale (S13, NKI 0.6 quantize_mx/nc_matmul_mx): the packed data covers
  // whole 32-partition quadrants; each quadrant's four groups of 8 partitions
  // have their scales in partitions 32q..32q+3 of the scale tile, one per
  // packed element.
  void check_mx_scale(const CheckSpec& c);
  // mx_matmul (NKI 0.6 nc_matmul_mx): dst is [M, N] for a [K, M] stationary, M even and at most 128.
  void check_mx_matmul(const CheckSpec& c);
  // dma_compute_sources (NKI 0.6 dma_compute): every src is read element for
  // element against dst (S12.1: same partitions and elements per partition),
  // one scale per src, unique_indices=True, and read-modify-write (a dynamic
  // access pattern) with exactly two srcs.
  void check_dma_compute_sources(const CheckSpec& c);
  // tensor_indirection (NKI 0.6 tensor_copy etc., "Tensor indirection"): with
  // an .indirect() view on dst (a) or the input (b), NeuronCore-v4, the
  // Vector or Scalar engine, every index starting on a quadrant boundary, the
  // documented base-partition equalities, and no Scalar-engine scatter to PSUM
  // (program_check_indirect.cpp).
  void check_tensor_indirection(const CheckSpec& c);
  // An .indirect(IDX) view alone (check_indirect): a two-dimensional SBUF/PSUM
  // pattern, an integer SBUF index whose snake order covers every column.
  bool check_tensor_indirect_view(int i, const TensorView& v);
  // Dispatches one constraint by its CheckKind (common/spec.hpp).
  void check_relation(const CheckSpec& c);
  // on_engine: rules of the engine the instruction's engine= selects (NKI 0.6
  // tensor_copy: GpSimd cannot access PSUM, no Scalar copy on NeuronCore-v2;
  // nc_transpose: Tensor Engine [128, 128] from SBUF to PSUM, Vector [32, 32]).
  void check_on_engine(const CheckSpec& c);
  // matmul: NKI 0.6 nc_matmul (docstring "Tiling mode", "Data types",
  // "Layout", "Tile size"; SEMANTICS.md S8.3).
  void check_matmul(const CheckSpec& c);
  // NKI's operator classes (nki.api.shared.rst, "Supported Math Operators";
  // S7): the ops of one instruction are all bitvec or all arithmetic; bitvec
  // operators act on integer bit patterns, so their tiles are integer (a float
  // tile would be reinterpreted, not converted); arithmetic scalars are float.
  void check_op_class(const CheckSpec& c);
};

}  // namespace nisa::check_detail
