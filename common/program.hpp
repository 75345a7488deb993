// The program model shared by the assembler (which builds it from text), the
// .nbin writer and reader, the disassembler and the interpreter's loader.
// Every operand is stored in the order of its instruction's spec entry.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dtype.hpp"
#include "spec.hpp"

namespace nisa {

enum class Role : uint8_t { none, input, output, inout, scratch };  // none: SBUF/PSUM
std::string_view role_name(Role r);

enum class InitKind : uint8_t { none, fill, iota };

// One dimension of a view: elements start, start+step, ..., count of them.
struct DimSlice {
  int64_t start = 0;
  int64_t count = 0;
  int64_t step = 1;
  bool operator==(const DimSlice&) const = default;
};

// One dimension of an access pattern: num elements, step elements apart in
// the row-major flattened tensor (NKI 0.6 NkiTensor.ap; LANGUAGE.md 2.3).
struct PatternDim {
  int64_t step = 0;
  int64_t num = 0;
  bool operator==(const PatternDim&) const = default;
};

// NKI 0.6 dynamic access (nki-aps "Dynamic Access"): an access pattern whose
// start moves by a runtime index read from SBUF, `index * unit` elements
// (indirect_unit below). vector: partition p of the view moves by index[p]
// (the pattern's first step is ignored); scalar: the whole view moves by
// index[0]. tensor: NKI 0.6 NkiTensor.indirect (Tensor Indirection, NeuronCore-v4):
// a two-dimensional SBUF/PSUM pattern [[E, P], [s, N]] whose column i reads
// free offset index[snake(i)] * s instead of i * s, the same offset on every
// partition (tensor_indirect_offset below; docs/SEMANTICS.md S1.7).
enum class IndirectKind : uint8_t { none, vector, scalar, tensor };

// A tensor operand: a declared tensor and either one slice per declared
// dimension (always full rank: missing trailing dimensions are whole), or an
// access pattern `NAME.ap(pattern=[[step, num], ...], offset=K)`: element
// (i0, i1, ...) is flat[K + i0*step0 + i1*step1 + ...]. For SBUF/PSUM the
// first pattern entry is the partition dimension (its step is the tensor's
// elements per partition).
struct TensorView {
  int32_t tensor = -1;
  std::vector<DimSlice> dims;  // slice form; empty in pattern form
  bool is_pattern = false;
  int64_t offset = 0;                // pattern form: K
  std::vector<PatternDim> pattern;   // pattern form: outermost first
  IndirectKind indirect = IndirectKind::none;  // pattern form: vector_offset / scalar_offset
  int32_t indirect_dim = 0;
  // Elements one index step moves (`index_stride=S`: the stride of the
  // dimension of the NKI view the .ap was taken on, e.g. 1 on a 1-d reshape);
  // 0 = not given, the declared tensor's stride of indirect_dim. Only with
  // `indirect`.
  int64_t index_stride = 0;
  std::vector<TensorView> index;     // the index view when indirect (one entry), else empty
  // scalar_offset=REG (SEMANTICS S17.3): the register (index into
  // Program::registers) whose value moves the view, instead of an index view;
  // -1 otherwise. Only with IndirectKind::scalar.
  int32_t index_register = -1;
  bool operator==(const TensorView&) const = default;
};

// Either form as offset + pattern over the flattened tensor, in elements. For
// SBUF/PSUM the flat index of (partition p, free element f) is p * E + f, E =
// the declared elements per partition, so dims[0] is the partition dimension.
struct AffineView {
  int64_t offset = 0;
  std::vector<PatternDim> dims;
};

enum class OperandState : uint8_t { absent, tensor, scalar, integer, enumerated, boolean, list, tensor_list, string, reg };

struct Operand {
  OperandState state = OperandState::absent;
  TensorView view;      // tensor
  float scalar = 0;     // scalar: already rounded to float32 (LANGUAGE.md 2.3)
  int64_t integer = 0;  // integer value, enum value index, bool (0/1), string: index into Program::strings, reg: into Program::registers
  // list: the integers of every entry, row-major (`pattern=[[1, 64], [2, 8]]`
  // is {1, 64, 2, 8}; the spec's list_items gives the entry size). Empty, and
  // so without an allocation, for every other kind.
  std::vector<int32_t> list;
  // tensor_list: every view, in order (`srcs=[a, b[0:64]]`); empty otherwise.
  std::vector<TensorView> views;
  bool operator==(const Operand&) const = default;
};

struct Instruction {
  int spec_index = -1;            // index into Spec::instructions
  std::vector<Operand> operands;  // one per spec operand; defaults filled in
  uint32_t line = 0;              // source line (line table)
  bool operator==(const Instruction&) const = default;
};

struct TensorDecl {
  std::string name;
  Memory memory = Memory::hbm;
  Dtype dtype = Dtype::f32;
  std::vector<int64_t> shape;  // SBUF/PSUM: shape[0] is the partition count
  Role role = Role::none;      // HBM only
  int64_t offset = 0;          // SBUF/PSUM: byte offset within each partition
  bool explicit_offset = false;  // written with `@ OFFSET` (not stored in .nbin: dis always writes @)
  InitKind init = InitKind::none;
  Operand init_value;          // fill: scalar, or integer for integer dtypes
  uint32_t line = 0;           // declaration line
  // LANGUAGE.md 2.7: in a program for several cores, the core whose private
  // memory holds it (every SBUF/PSUM tensor; an HBM scratch tensor declared
  // in a `.core` section is that core's private HBM), or kShared: HBM every
  // core sees (and every tensor of a one-core program).
  int32_t core = kShared;
  static constexpr int32_t kShared = -1;
  bool operator==(const TensorDecl& o) const {
    return name == o.name && memory == o.memory && dtype == o.dtype && shape == o.shape &&
           role == o.role && offset == o.offset && init == o.init && init_value == o.init_value &&
           line == o.line && core == o.core;
  }
};

// A sequencer register (`.reg NAME`, NKI's register_alloc; SEMANTICS S17):
// a 32-bit signed integer, undefined until an instruction sets it.
struct RegisterDecl {
  std::string name;
  uint32_t line = 0;
  int32_t core = TensorDecl::kShared;  // the core whose section declares it (kShared: section-less)
  bool operator==(const RegisterDecl&) const = default;
};

struct Program {
  int arch = 0;            // index into Spec::archs
  int nki = 0;             // index into Spec::nki_versions: the NKI version whose instruction forms apply (`.nki`)
  std::string file;        // source name for the line table (.file)
  std::vector<TensorDecl> tensors;
  std::vector<Instruction> instructions;
  // The texts of string operands (LANGUAGE.md 2.3), each once: a string
  // operand's `integer` indexes them.
  std::vector<std::string> strings;
  // LANGUAGE.md 2.7: a program for several NeuronCores (`.cores N`): core k
  // runs the instructions at positions [core_starts[k], core_starts[k + 1])
  // (the last core to the end), each core's in program order. Empty: one
  // core, which runs them all.
  std::vector<uint64_t> core_starts;
  // SEMANTICS S17: the sequencer registers, in declaration order (at most
  // kMaxRegisters per core).
  std::vector<RegisterDecl> registers;
  bool operator==(const Program&) const = default;
};

// The number of cores a program runs on (1 without `.cores`).
inline int core_count(const Program& p) { return p.core_starts.empty() ? 1 : static_cast<int>(p.core_starts.size()); }
// Positions [begin, end) of core k's instructions, of `positions` in all.
struct PositionRange {
  std::size_t begin = 0, end = 0;
};
PositionRange core_positions(const Program& p, int core, std::size_t positions);
// The operand has its spec's default value (absent: an operand without one).
bool operand_is_default(const OperandSpec& os, const Operand& op);

// LANGUAGE.md 2.3: a string operand is text of one line: any byte but '"'
// and the control characters (below 0x20, except tab, and 0x7F). The offset
// of the first byte that is not allowed, or npos.
std::size_t first_bad_string_byte(std::string_view text);

// LANGUAGE.md 2.3: whether the scalar form of operand `i` of an instruction
// (`operands` in spec order; only earlier ones are looked at) is an exact
// int32 rather than a float32: when its integer_if_dtype_of tensor has an
// integer dtype, or its integer_if_bitvec enum operand is a bitvec operator.
bool scalar_is_integer(const std::vector<TensorDecl>& tensors, const InstructionSpec& is, const std::vector<Operand>& operands, int i);

// The engine that runs `ins`: the one its engine operand selects (NKI's
// engine= of tensor_copy, nc_transpose: InstructionSpec::engine_operand), or
// the instruction's own engine (also for engine=unknown).
Engine executing_engine(const InstructionSpec& is, const Instruction& ins);

// --- geometry of views (S1.4) ---
int64_t element_count(const std::vector<int64_t>& shape);
int64_t tensor_bytes_per_partition(const TensorDecl& t);  // SBUF/PSUM: free elements * size
TensorView whole_view(const Program& p, int32_t tensor);
bool is_whole(const Program& p, const TensorView& v);
AffineView affine_view(const Program& p, const TensorView& v);
// Elements a dynamic view moves per unit of its runtime index: index_stride
// when given, else the declared tensor's stride of indirect_dim,
// prod(shape[indirect_dim + 1:]) (for vector_offset, indirect_dim 0: one row).
int64_t indirect_unit(const Program& p, const TensorView& v);

// Tensor Indirection's snake order (NKI 0.6 NkiTensor.indirect: offset i comes
// from index[i % G, i // G], G the engine's group of partitions, 16 for
// Vector/Scalar/GpSimd): the index view (partitions x k elements) is read as
// its groups of G partitions side by side, so column i of the view takes
// index element (partition G * (j / k) + i % G, element j % k), j = i / G.
// With k = 1 that is index[i, 0]. Returns false when that lies outside an
// index view of `partitions` x `k`.
inline int64_t tensor_indirect_group(Engine e) { return e == Engine::tensor ? 32 : 16; }
bool tensor_indirect_slot(int64_t i, int64_t group, int64_t partitions, int64_t k, int64_t& partition, int64_t& element);
// "partitions" of a view: its first dimension's count (for HBM views too).
int64_t view_partitions(const TensorView& v);
// Physical first partition (SBUF/PSUM) or first index of dimension 0 (HBM;
// 0 for a pattern, whose first dimension may have any step).
int64_t view_partition_start(const Program& p, const TensorView& v);
// The view's shape: one count per slice dimension or pattern entry.
std::vector<int64_t> view_counts(const TensorView& v);
// Product of the free (non-first) dimension counts.
int64_t view_elements_per_partition(const TensorView& v);
// NKI 0.6 dma_transpose's permutation of a tensor of `rank` axes: [1, 0],
// [2, 1, 0], [3, 1, 2, 0]; empty for any other rank.
std::vector<int32_t> transpose_axes(std::size_t rank);

}  // namespace nisa
