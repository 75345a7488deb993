// The .nbin layout shared by the encoder and the decoder (docs/NBIN.md).
// The instruction fields are described once, by code_instruction() below,
// which walks an instruction's spec encoding list; the encoder runs it with a
// FieldWriter and the decoder with a FieldReader (the Sail idea: one mapping
// used in both directions, so encode and decode cannot disagree).
#pragma once
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "bit_stream.hpp"
#include "program.hpp"
#include "spec.hpp"

namespace nisa::nbin {

// Header: every integer little-endian.
inline constexpr uint8_t kMagic[4] = {'N', 'B', 'I', 'N'};
// 2: programs for several cores (LANGUAGE.md 2.7); 3: the NKI version (`.nki`);
// 4: sequencer registers and loops (SEMANTICS S17)
inline constexpr uint64_t kFormatVersion = 4;
inline constexpr std::size_t kVersionAt = 4;      // u16
inline constexpr std::size_t kArchAt = 6;         // u16 index into Spec::archs
inline constexpr std::size_t kSpecIdAt = 8;       // u64 Spec::id
inline constexpr std::size_t kPayloadSizeAt = 16; // u32 bytes after the header
inline constexpr std::size_t kCrcAt = 20;         // u32 CRC-32 of bytes [0, 20) and the payload
inline constexpr std::size_t kHeaderSize = 24;

// CRC-32 (IEEE 802.3, reflected, as zlib's crc32), continuing from `crc`.
uint32_t crc32(const uint8_t* data, std::size_t size, uint32_t crc = 0);

// Tensors a program may declare: as many as the widest tensor index field of
// the spec can name (1024 with 10-bit fields). Bounds the decoder's work on a
// hostile tensor count as well as its memory.
inline std::size_t max_tensor_count(const Spec& spec) {
  int widest = 0;
  for (const InstructionSpec& is : spec.instructions)
    for (const FieldSpec& f : is.encoding) {
      OperandKind k = is.operands[static_cast<std::size_t>(f.operand)].kind;
      if ((k == OperandKind::tensor || k == OperandKind::tensor_or_scalar || k == OperandKind::tensor_list) && f.bits > widest) widest = f.bits;
    }
  return std::size_t{1} << widest;
}

// A register index (of scalar_offset=REG; register operands have their own
// field widths in the spec).
inline constexpr int kViewRegisterBits = 6;
static_assert((1 << kViewRegisterBits) >= kMaxRegisters);

// A register index read from a file names a declared register.
template <class Io>
void check_register(Io& io, const Program& p, int64_t r) {
  if (r < 0 || r >= static_cast<int64_t>(p.registers.size()))
    io.fail("register index " + std::to_string(r) + " but the program declares " + std::to_string(p.registers.size()));
}

// Instruction lines are stored as differences from the previous line.
inline uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
inline int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

// Whether a scalar operand (or the scalar form of a tensor-or-scalar one) is an
// exact int32 rather than a float32 (LANGUAGE.md 2.3; common/program.hpp).
inline bool scalar_is_integer(const Program& p, const InstructionSpec& is, const Instruction& ins, int operand) {
  return nisa::scalar_is_integer(p.tensors, is, ins.operands, operand);
}

// An access pattern: offset, entries - 1, then per entry a signed step and a
// num. Its bounds are check_instruction's (the loader runs it on every
// instruction), so the reader only stores.
template <class Io, class View>
void code_pattern(Io& io, const Spec& spec, View& v) {
  const PatternEncoding& pe = spec.pattern_encoding;
  int64_t offset = v.offset, extra = static_cast<int64_t>(v.pattern.size()) - 1;
  io.unsigned_field(offset, pe.offset_bits, "access pattern offset");
  io.unsigned_field(extra, pe.dims_bits, "access pattern entries");
  if constexpr (Io::reading) {
    v.dims.clear();
    v.is_pattern = true;
    v.offset = offset;
    v.pattern.assign(static_cast<std::size_t>(extra + 1), PatternDim{});
  }
  for (auto& d : v.pattern) {
    int64_t step = d.step, num = d.num;
    io.signed_field(step, pe.step_bits, "access pattern step");
    io.unsigned_field(num, pe.num_bits, "access pattern num");
    if constexpr (Io::reading) d = PatternDim{step, num};
  }
}

// One tensor view: index, 'whole tensor' bit, then 'access pattern' bit and
// the pattern (code_pattern), or per dimension 'whole dimension' bit or start,
// count, 'step present' bit and step. The writer
// walks a const instruction (View = const TensorView): only the reader stores.
template <class Io, class View>
void code_view(Io& io, const Spec& spec, const Program& p, int index_bits, View& v, bool is_index = false) {
  int64_t tensor = v.tensor;
  io.unsigned_field(tensor, index_bits, "tensor index");
  if (tensor < 0 || tensor >= static_cast<int64_t>(p.tensors.size()))
    io.fail("tensor index " + std::to_string(tensor) + " but the program declares " + std::to_string(p.tensors.size()));
  if constexpr (Io::reading) v.tensor = static_cast<int32_t>(tensor);
  const std::vector<int64_t>& shape = p.tensors[static_cast<std::size_t>(tensor)].shape;
  if constexpr (!Io::reading)
    if (!v.is_pattern && v.dims.size() != shape.size()) io.fail("view has " + std::to_string(v.dims.size()) + " dimensions, tensor has " + std::to_string(shape.size()));

  bool whole = !Io::reading && is_whole(p, v);  // canonical: a whole view is always coded as whole
  io.flag(whole);
  if (whole) {
    if constexpr (Io::reading) v = whole_view(p, v.tensor);
    return;
  }
  bool pattern = !Io::reading && v.is_pattern;
  io.flag(pattern);
  if (pattern) {
    code_pattern(io, spec, v);
    // NKI 0.6 dynamic access: 'indirect' bit, then 'vector' bit, indirect_dim,
    // 'index_stride given' bit and the stride (offset_bits: it counts
    // elements of the tensor, as the offset does), and the index view (never
    // itself indirect: check_instruction).
    bool indirect = !Io::reading && v.indirect != IndirectKind::none;
    io.flag(indirect);
    if constexpr (Io::reading) {
      v.indirect = IndirectKind::none;
      v.indirect_dim = 0;
      v.index_stride = 0;
      v.index_register = -1;
      v.index.clear();
    } else {
      if (!indirect && v.index_stride != 0) io.fail("index_stride on a view without a runtime index");
    }
    if (!indirect) return;
    if (is_index) io.fail("an index view is itself indirect");  // bounds the recursion
    // Tensor Indirection is coded as 'vector' with indirect_dim 1: a
    // vector_offset works on indirect_dim 0 only, so that pair was unused.
    bool vector = !Io::reading && (v.indirect == IndirectKind::vector || v.indirect == IndirectKind::tensor);
    io.flag(vector);
    int64_t dim = v.indirect_dim;
    io.unsigned_field(dim, spec.pattern_encoding.indirect_dim_bits, "indirect_dim");
    bool strided = !Io::reading && v.index_stride != 0;
    io.flag(strided);
    int64_t stride = v.index_stride;
    if (strided) io.unsigned_field(stride, spec.pattern_encoding.offset_bits, "index_stride");
    // scalar_offset: 1 bit 'register' (S17.3), then the register's index
    // instead of the index view.
    bool by_register = !Io::reading && v.index_register >= 0;
    if (!vector) io.flag(by_register);
    int64_t reg = v.index_register;
    if (by_register) {
      io.unsigned_field(reg, kViewRegisterBits, "register index");
      check_register(io, p, reg);
    }
    if constexpr (Io::reading) {
      // one encoding per program: a given stride is positive (0 means "not given")
      if (strided && stride < 1) io.fail("index_stride " + std::to_string(stride) + " is not positive");
      v.indirect = !vector ? IndirectKind::scalar : dim == 1 ? IndirectKind::tensor : IndirectKind::vector;
      v.indirect_dim = static_cast<int32_t>(dim);
      v.index_stride = strided ? stride : 0;
      v.index_register = by_register ? static_cast<int32_t>(reg) : -1;
      v.index.resize(by_register ? 0 : 1);
    } else {
      if (v.index.size() != (by_register ? 0u : 1u)) io.fail(by_register ? "register offset with an index view" : "indirect view without its index");
    }
    if (!by_register) code_view(io, spec, p, index_bits, v.index[0], true);
    return;
  }
  if constexpr (Io::reading) {
    v.dims.assign(shape.size(), DimSlice{});
    v.is_pattern = false;
    v.offset = 0;
    v.pattern.clear();
    v.indirect = IndirectKind::none;
    v.indirect_dim = 0;
    v.index_stride = 0;
    v.index_register = -1;
    v.index.clear();
  }
  const SliceEncoding& se = spec.slice_encoding;
  bool any_sliced = false;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    auto& s = v.dims[d];
    const DimSlice whole_dim{0, shape[d], 1};
    bool whole_d = !Io::reading && s == whole_dim;
    io.flag(whole_d);
    if (whole_d) {
      if constexpr (Io::reading) s = whole_dim;
      continue;
    }
    any_sliced = true;
    int64_t start = s.start, count = s.count, step = s.step;
    io.unsigned_field(start, se.start_bits, "slice start");
    io.unsigned_field(count, se.count_bits, "slice count");
    bool has_step = step != 1;
    io.flag(has_step);
    if (has_step) io.unsigned_field(step, se.step_bits, "slice step");
    if constexpr (Io::reading) {
      if (!has_step) step = 1;
      s = DimSlice{start, count, step};
      if (has_step && step <= 1) io.fail("slice step " + std::to_string(step) + " is not in canonical form");
      if (s == whole_dim) io.fail("whole dimension " + std::to_string(d) + " not coded as whole");
      // Division, not multiplication: with wide fields of a spec variant, start +
      // (count - 1) * step could overflow.
      if (count < 1 || start >= shape[d] || (count - 1) > (shape[d] - 1 - start) / step)
        io.fail("slice " + std::to_string(start) + " count " + std::to_string(count) + " step " + std::to_string(step) +
                " outside dimension " + std::to_string(d) + " of size " + std::to_string(shape[d]));
    }
  }
  if constexpr (Io::reading)
    if (!any_sliced) io.fail("whole tensor not coded as whole");
}

// The 32 bits of a scalar: float32 bits, or int32 two's complement. The reader
// keeps the raw bits in `integer` until the whole instruction is read, because
// the operand that decides between the two may come later in field order
// (resolve_scalars below).
template <class Io, class Op>
void code_scalar(Io& io, const Program& p, const InstructionSpec& is, const Instruction& ins, int operand, Op& op) {
  int64_t raw = 0;
  if constexpr (!Io::reading) {
    bool integer = scalar_is_integer(p, is, ins, operand);
    const int64_t value = op.integer;
    if (integer && op.state == OperandState::integer) {
      if (value < INT32_MIN || value > INT32_MAX) io.fail("integer " + std::to_string(value) + " does not fit int32");
      raw = static_cast<int64_t>(static_cast<uint32_t>(static_cast<int32_t>(value)));
    } else if (!integer && op.state == OperandState::scalar) {
      raw = std::bit_cast<uint32_t>(op.scalar);
    } else {
      io.fail(integer ? "expected an int32 value (integer dtype)" : "expected a float32 value");
    }
  }
  io.unsigned_field(raw, 32, "scalar");
  if constexpr (Io::reading) {
    op.state = OperandState::scalar;
    op.integer = raw;
  }
}

// A list operand: the entry count (count_bits), then every integer of every
// entry, row-major, in two's complement (bits). Each integer stays inside its
// item's range, so a decoded list always fits int32.
template <class Io, class List>
void code_list(Io& io, const OperandSpec& os, const FieldSpec& f, List& list) {
  const auto size = static_cast<int64_t>(os.list_items.size());
  int64_t count = static_cast<int64_t>(list.size()) / size;
  if constexpr (!Io::reading)
    if (count * size != static_cast<int64_t>(list.size())) io.fail("list of " + std::to_string(list.size()) + " integers is not whole entries");
  io.unsigned_field(count, f.count_bits, "list count");
  if (count < os.list_min_count || count > os.list_max_count)
    io.fail("list of " + std::to_string(count) + " entries outside [" + std::to_string(os.list_min_count) + ", " + std::to_string(os.list_max_count) + "]");
  if constexpr (Io::reading) list.assign(static_cast<std::size_t>(count * size), 0);
  for (std::size_t k = 0; k < list.size(); ++k) {
    int64_t value = list[k];
    io.signed_field(value, f.bits, "list element");
    const ListItemSpec& item = os.list_items[k % static_cast<std::size_t>(size)];
    if (value < item.min || value > item.max)
      io.fail(item.name + " " + std::to_string(value) + " outside [" + std::to_string(item.min) + ", " + std::to_string(item.max) + "]");
    if constexpr (Io::reading) list[k] = static_cast<int32_t>(value);
  }
}

template <class Io, class Ins>
void code_operand(Io& io, const Spec& spec, const Program& p, const InstructionSpec& is, Ins& ins, const FieldSpec& f) {
  const OperandSpec& os = is.operands[static_cast<std::size_t>(f.operand)];
  auto& op = ins.operands[static_cast<std::size_t>(f.operand)];
  if (os.optional_without_default()) {
    bool present = op.state != OperandState::absent;
    io.flag(present);
    if (!present) {
      if constexpr (Io::reading) op = Operand{};
      return;
    }
  } else if (!Io::reading && op.state == OperandState::absent) {
    io.fail("missing (it has no default)");
  }
  auto expect = [&](OperandState s) {
    if constexpr (!Io::reading) {
      if (op.state != s) io.fail("value of the wrong kind for a " + std::string(operand_kind_name(os.kind)) + " operand");
    } else {
      op.state = s;
    }
  };
  switch (os.kind) {
    case OperandKind::tensor:
      expect(OperandState::tensor);
      code_view(io, spec, p, f.bits, op.view);
      break;
    case OperandKind::tensor_or_scalar: {
      bool is_tensor = op.state == OperandState::tensor;
      io.flag(is_tensor);
      if (is_tensor) {
        if constexpr (Io::reading) op.state = OperandState::tensor;
        code_view(io, spec, p, f.bits, op.view);
      } else {
        code_scalar(io, p, is, ins, f.operand, op);
      }
      break;
    }
    case OperandKind::scalar:
      code_scalar(io, p, is, ins, f.operand, op);
      break;
    case OperandKind::enumeration: {
      expect(OperandState::enumerated);
      int64_t value = op.integer;
      io.unsigned_field(value, f.bits, "enum value");
      if constexpr (Io::reading) op.integer = value;
      const EnumSpec& e = spec.enums[static_cast<std::size_t>(os.enum_id)];
      if (value < 0 || value >= static_cast<int64_t>(e.values.size()))
        io.fail("enum value " + std::to_string(value) + " out of range for " + e.name);
      break;
    }
    case OperandKind::boolean: {
      expect(OperandState::boolean);
      bool b = op.integer != 0;
      io.flag(b);
      if constexpr (Io::reading) op.integer = b ? 1 : 0;
      break;
    }
    case OperandKind::integer: {
      expect(OperandState::integer);
      int64_t value = op.integer;
      io.signed_field(value, f.bits, "integer");
      if constexpr (Io::reading) op.integer = value;
      if (value < os.int_min || value > os.int_max)
        io.fail("integer " + std::to_string(value) + " outside [" + std::to_string(os.int_min) + ", " +
                std::to_string(os.int_max) + "]");
      break;
    }
    case OperandKind::list:
      expect(OperandState::list);
      code_list(io, os, f, op.list);
      break;
    case OperandKind::string: {  // the byte count (bits), then each byte (8 bits)
      expect(OperandState::string);
      int64_t index = op.integer;
      io.string_field(index, f.bits, p);
      if constexpr (Io::reading) op.integer = index;
      break;
    }
    case OperandKind::reg: {  // the register's index
      expect(OperandState::reg);
      int64_t r = op.integer;
      io.unsigned_field(r, f.bits, "register index");
      check_register(io, p, r);
      if constexpr (Io::reading) op.integer = r;
      break;
    }
    case OperandKind::reg_or_int: {  // 1 bit 'register', then the index or the integer
      bool is_register = op.state == OperandState::reg;
      io.flag(is_register);
      int64_t value = op.integer;
      if (is_register) {
        io.unsigned_field(value, f.bits, "register index");
        check_register(io, p, value);
      } else {
        expect(OperandState::integer);
        io.signed_field(value, f.bits, "integer");
        if (value < os.int_min || value > os.int_max)
          io.fail("integer " + std::to_string(value) + " outside [" + std::to_string(os.int_min) + ", " + std::to_string(os.int_max) + "]");
      }
      if constexpr (Io::reading) {
        op.state = is_register ? OperandState::reg : OperandState::integer;
        op.integer = value;
      }
      break;
    }
    case OperandKind::tensor_list: {  // the view count, then each view as a tensor operand
      expect(OperandState::tensor_list);
      int64_t count = static_cast<int64_t>(op.views.size());
      io.unsigned_field(count, f.count_bits, "tensor list count");
      if (count < os.list_min_count || count > os.list_max_count)
        io.fail("list of " + std::to_string(count) + " tensors outside [" + std::to_string(os.list_min_count) + ", " + std::to_string(os.list_max_count) + "]");
      if constexpr (Io::reading) op.views.assign(static_cast<std::size_t>(count), TensorView{});
      for (auto& v : op.views) code_view(io, spec, p, f.bits, v);
      break;
    }
  }
}

// Every operand in the spec's encoding order (the opcode is coded by the caller).
// The writer passes a const Instruction: it reads and never canonicalises in place.
template <class Io, class Ins>
void code_instruction(Io& io, const Spec& spec, const Program& p, Ins& ins) {
  const InstructionSpec& is = spec.instructions[static_cast<std::size_t>(ins.spec_index)];
  if constexpr (Io::reading) ins.operands.assign(is.operands.size(), Operand{});
  if (ins.operands.size() != is.operands.size()) io.fail("has " + std::to_string(ins.operands.size()) + " operands, the spec " + std::to_string(is.operands.size()));
  for (const FieldSpec& f : is.encoding) {
    io.begin_operand(&is.operands[static_cast<std::size_t>(f.operand)].name, f.operand);
    code_operand(io, spec, p, is, ins, f);
  }
  io.begin_operand(nullptr, -1);
}

// Reader side of code_scalar: now that every operand is known, the raw bits
// become a float32 or an int32.
inline void resolve_scalars(const Program& p, const InstructionSpec& is, Instruction& ins) {
  for (std::size_t i = 0; i < ins.operands.size(); ++i) {
    Operand& op = ins.operands[i];
    if (op.state != OperandState::scalar) continue;
    uint32_t raw = static_cast<uint32_t>(op.integer);
    if (scalar_is_integer(p, is, ins, static_cast<int>(i))) {
      op.state = OperandState::integer;
      op.integer = static_cast<int32_t>(raw);
    } else {
      op.scalar = std::bit_cast<float>(raw);
      op.integer = 0;
    }
  }
}

}  // namespace nisa::nbin
