// Program -> .nbin bytes (docs/NBIN.md). The instruction fields are written
// by nbin::code_instruction, the same walk the decoder reads with.
#include <bit>

#include "error.hpp"
#include "nbin.hpp"
#include "nbin_format.hpp"

namespace nisa {

namespace {

// The write side of the field walk: checks that each value fits its field and
// otherwise names the instruction and operand.
struct FieldWriter {
  static constexpr bool reading = false;
  BitWriter& out;
  const Program& program;
  const std::string& mnemonic;
  std::size_t index;  // instruction number, 0-based
  uint32_t line;
  std::string operand;

  void begin_operand(const std::string& name, int) { operand = name; }
  [[noreturn]] void fail(const std::string& why) const {
    std::string where = program.file + ":" + std::to_string(line) + ": error: cannot encode instruction " +
                        std::to_string(index) + " (" + mnemonic + ")";
    if (!operand.empty()) where += ", operand " + operand;
    throw InputError(where + ": " + why);
  }
  void flag(bool& b) { out.bits(b ? 1 : 0, 1); }
  void unsigned_field(int64_t& v, int width, const char* what) {
    if (v < 0 || (width < 63 && v >= (int64_t{1} << width)))
      fail(std::string(what) + " " + std::to_string(v) + " does not fit its " + std::to_string(width) + "-bit field");
    out.bits(static_cast<uint64_t>(v), width);
  }
  void signed_field(int64_t& v, int width, const char* what) {
    if (width < 64 && (v < -(int64_t{1} << (width - 1)) || v >= (int64_t{1} << (width - 1))))
      fail(std::string(what) + " " + std::to_string(v) + " does not fit its " + std::to_string(width) + "-bit field");
    out.bits(static_cast<uint64_t>(v), width);
  }
};

[[noreturn]] void tensor_error(const Program& p, const TensorDecl& t, const std::string& why) {
  throw InputError(p.file + ":" + std::to_string(t.line) + ": error: cannot encode tensor " + t.name + ": " + why);
}

void write_tensor(ByteWriter& w, const Program& p, const TensorDecl& t) {
  w.text(t.name);
  w.u8(static_cast<uint64_t>(t.memory));
  w.u8(static_cast<uint64_t>(t.dtype));
  w.u8(static_cast<uint64_t>(t.role));
  if (t.shape.empty() || t.shape.size() > 255) tensor_error(p, t, "rank " + std::to_string(t.shape.size()));
  w.u8(t.shape.size());
  for (int64_t d : t.shape) {
    if (d < 1) tensor_error(p, t, "dimension " + std::to_string(d));
    w.varint(static_cast<uint64_t>(d));
  }
  if (t.offset < 0) tensor_error(p, t, "offset " + std::to_string(t.offset));
  w.varint(static_cast<uint64_t>(t.offset));
  w.u8(static_cast<uint64_t>(t.init));
  if (t.init == InitKind::fill) {
    // 32 bits: int32 for integer dtypes, float32 otherwise (LANGUAGE.md 2.3).
    const Operand& v = t.init_value;
    if (dtype_is_int(t.dtype)) {
      if (v.state != OperandState::integer || v.integer < INT32_MIN || v.integer > INT32_MAX)
        tensor_error(p, t, "fill value is not an int32");
      w.fixed(static_cast<uint32_t>(static_cast<int32_t>(v.integer)), 4);
    } else {
      if (v.state != OperandState::scalar) tensor_error(p, t, "fill value is not a float32");
      w.fixed(std::bit_cast<uint32_t>(v.scalar), 4);
    }
  }
  w.varint(t.line);
}

}  // namespace

std::vector<uint8_t> encode_program(const Spec& spec, const Program& program) {
  if (program.arch < 0 || static_cast<std::size_t>(program.arch) >= spec.archs.size())
    throw InputError(file_error(program.file, "cannot encode: arch index " + std::to_string(program.arch)));

  ByteWriter w;
  w.bytes.assign(std::begin(nbin::kMagic), std::end(nbin::kMagic));
  w.fixed(nbin::kFormatVersion, 2);
  w.fixed(static_cast<uint64_t>(program.arch), 2);
  w.fixed(spec.id, 8);
  w.fixed(0, 4);  // payload size, filled in below
  w.fixed(0, 4);  // CRC-32, filled in below

  if (program.tensors.size() > nbin::max_tensor_count(spec))
    throw InputError(file_error(program.file, "cannot encode: " + std::to_string(program.tensors.size()) +
                                                  " tensors, the spec's tensor fields can name " +
                                                  std::to_string(nbin::max_tensor_count(spec))));
  w.varint(program.tensors.size());
  for (const TensorDecl& t : program.tensors) write_tensor(w, program, t);

  // Line table: the source name, the instruction count, then each
  // instruction's line as a zig-zag difference from the previous one (mostly
  // +1: one byte each). It precedes the stream so decode errors can name lines.
  w.text(program.file);
  w.varint(program.instructions.size());
  int64_t previous = 0;
  for (const Instruction& ins : program.instructions) {
    w.varint(nbin::zigzag(static_cast<int64_t>(ins.line) - previous));
    previous = ins.line;
  }

  BitWriter stream;
  for (std::size_t i = 0; i < program.instructions.size(); ++i) {
    Instruction ins = program.instructions[i];  // the walk assigns canonical forms in place
    if (ins.spec_index < 0 || static_cast<std::size_t>(ins.spec_index) >= spec.instructions.size())
      throw InputError(file_error(program.file, "cannot encode instruction " + std::to_string(i) + ": no such instruction"));
    const InstructionSpec& is = spec.instructions[static_cast<std::size_t>(ins.spec_index)];
    stream.bits(static_cast<uint64_t>(is.opcode), spec.opcode_bits);
    FieldWriter fw{stream, program, is.name, i, ins.line, ""};
    nbin::code_instruction(fw, spec, program, ins);
  }
  w.varint(stream.bytes.size());
  w.bytes.insert(w.bytes.end(), stream.bytes.begin(), stream.bytes.end());

  std::size_t payload = w.bytes.size() - nbin::kHeaderSize;
  if (payload > UINT32_MAX) throw InputError(file_error(program.file, "cannot encode: program too large"));
  for (int i = 0; i < 4; ++i) w.bytes[nbin::kPayloadSizeAt + static_cast<std::size_t>(i)] = static_cast<uint8_t>(payload >> (8 * i));
  uint32_t crc = nbin::crc32(w.bytes.data(), nbin::kCrcAt);
  crc = nbin::crc32(w.bytes.data() + nbin::kHeaderSize, payload, crc);
  for (int i = 0; i < 4; ++i) w.bytes[nbin::kCrcAt + static_cast<std::size_t>(i)] = static_cast<uint8_t>(crc >> (8 * i));
  return std::move(w.bytes);
}

}  // namespace nisa
