// The program model shared by the assembler (which builds it from text), the
// .nbin writer and reader, the disassembler and the interpreter's loader.
// Every operand is stored in the order of its instruction's spec entry.
#pragma once
#include <cstdint>
#include <string>
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

// A tensor operand: a declared tensor and one slice per declared dimension
// (always full rank: missing trailing dimensions are whole).
struct TensorView {
  int32_t tensor = -1;
  std::vector<DimSlice> dims;
  bool operator==(const TensorView&) const = default;
};

enum class OperandState : uint8_t { absent, tensor, scalar, integer, enumerated, boolean, list };

struct Operand {
  OperandState state = OperandState::absent;
  TensorView view;      // tensor
  float scalar = 0;     // scalar: already rounded to float32 (LANGUAGE.md 2.3)
  int64_t integer = 0;  // integer value, enum value index, or bool (0/1)
  // list: the integers of every entry, row-major (`pattern=[[1, 64], [2, 8]]`
  // is {1, 64, 2, 8}; the spec's list_items gives the entry size). Empty, and
  // so without an allocation, for every other kind.
  std::vector<int32_t> list;
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
  bool operator==(const TensorDecl& o) const {
    return name == o.name && memory == o.memory && dtype == o.dtype && shape == o.shape &&
           role == o.role && offset == o.offset && init == o.init && init_value == o.init_value &&
           line == o.line;
  }
};

struct Program {
  int arch = 0;            // index into Spec::archs
  std::string file;        // source name for the line table (.file)
  std::vector<TensorDecl> tensors;
  std::vector<Instruction> instructions;
  bool operator==(const Program&) const = default;
};

// --- geometry of views (S1.4) ---
int64_t element_count(const std::vector<int64_t>& shape);
int64_t tensor_bytes_per_partition(const TensorDecl& t);  // SBUF/PSUM: free elements * size
TensorView whole_view(const Program& p, int32_t tensor);
bool is_whole(const Program& p, const TensorView& v);
// "partitions" of a view: dims[0].count (for HBM views too: the first dimension).
int64_t view_partitions(const TensorView& v);
// Physical first partition (SBUF/PSUM) or first index of dimension 0 (HBM).
int64_t view_partition_start(const TensorView& v);
// Product of the free (non-first) dimension counts.
int64_t view_elements_per_partition(const TensorView& v);

}  // namespace nisa
