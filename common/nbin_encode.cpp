// Program -> .nbin bytes (docs/NBIN.md). The instruction fields are written
// by nbin::code_instruction, the same walk the decoder reads with.
#include <algorithm>
#include <bit>

#include "error.hpp"
#include "nbin.hpp"
#include "nbin_format.hpp"
#include "prefault.hpp"

namespace nisa {

namespace {

// A field that does not fit: the message after the file name, which is only
// final once the whole source is read (a later .file changes it).
struct EncodeFailure {
  std::string after_file;
};

// The write side of the field walk: checks that each value fits its field and
// otherwise names the instruction and operand.
struct FieldWriter {
  static constexpr bool reading = false;
  BitWriter& out;
  const std::string& mnemonic;
  std::size_t index;  // instruction number, 0-based
  uint32_t line;
  const std::string* operand = nullptr;

  void begin_operand(const std::string* name, int) { operand = name; }
  [[noreturn]] void fail(const std::string& why) const {
    std::string where = ":" + std::to_string(line) + ": error: cannot encode instruction " + std::to_string(index) + " (" + mnemonic + ")";
    if (operand != nullptr && !operand->empty()) where += ", operand " + *operand;
    throw EncodeFailure{where + ": " + why};
  }
  // Inlined into the field walk: called for every field of every instruction.
  [[gnu::always_inline]] void flag(bool b) { out.bits(b ? 1 : 0, 1); }
  [[gnu::always_inline]] void unsigned_field(int64_t v, int width, const char* what) {
    if (v < 0 || (width < 63 && v >= (int64_t{1} << width)))
      fail(std::string(what) + " " + std::to_string(v) + " does not fit its " + std::to_string(width) + "-bit field");
    out.bits(static_cast<uint64_t>(v), width);
  }
  // A string operand's text (Program::strings[index]): its byte count, then its bytes.
  void string_field(int64_t which, int width, const Program& p) {
    if (which < 0 || static_cast<std::size_t>(which) >= p.strings.size())
      fail("string " + std::to_string(which) + " of a program with " + std::to_string(p.strings.size()));
    const std::string& text = p.strings[static_cast<std::size_t>(which)];
    unsigned_field(static_cast<int64_t>(text.size()), width, "string length");
    for (const char c : text) out.bits(static_cast<unsigned char>(c), 8);
  }
  void signed_field(int64_t v, int width, const char* what) {
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
  w.u8(static_cast<uint64_t>(t.core + 1));  // 0: shared, k + 1: core k's
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

namespace {
// The stream grows in chunks of this size: no regrowth copies, and each
// page is touched once.
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

void reserve_chunk(std::vector<uint8_t>& bytes, std::size_t size) {
  bytes.reserve(size);
  prefault_for_writing(bytes.data(), bytes.capacity());
}

}  // namespace

NbinEncoder::NbinEncoder(const Spec& spec, std::size_t expected_instructions) : spec_(spec) {
  line_table_.bytes.reserve(expected_instructions);
  reserve_chunk(stream_.bytes, std::min(kChunkBytes, expected_instructions * 16) + 256);
}

void NbinEncoder::add(const Program& program, const Instruction& ins) {
  const std::size_t index = count_++;
  // Line table: each instruction's line as a zig-zag difference from the
  // previous one (mostly +1: one byte each).
  line_table_.varint(nbin::zigzag(static_cast<int64_t>(ins.line) - previous_line_));
  previous_line_ = ins.line;
  if (!error_.empty()) return;  // only the first failure is reported
  if (ins.spec_index < 0 || static_cast<std::size_t>(ins.spec_index) >= spec_.instructions.size()) {
    error_ = ": error: cannot encode instruction " + std::to_string(index) + ": no such instruction";
    return;
  }
  const InstructionSpec& is = spec_.instructions[static_cast<std::size_t>(ins.spec_index)];
  try {
    stream_.bits(static_cast<uint64_t>(is.opcode), spec_.opcode_bits);
    FieldWriter fw{stream_, is.name, index, ins.line};
    nbin::code_instruction(fw, spec_, program, ins);
  } catch (const EncodeFailure& f) {
    error_ = f.after_file;
  }
  if (stream_.bytes.size() >= kChunkBytes) {
    // `bytes` holds only complete bytes (the writer keeps the partial word).
    std::vector<uint8_t> chunk;
    chunk.swap(stream_.bytes);
    reserve_chunk(stream_.bytes, kChunkBytes + 256);
    chunk_bytes_ += chunk.size();
    chunks_.push_back(std::move(chunk));
  }
}

NbinEncoder::Parts NbinEncoder::finish(const Program& program) {
  if (program.arch < 0 || static_cast<std::size_t>(program.arch) >= spec_.archs.size())
    throw InputError(file_error(program.file, "cannot encode: arch index " + std::to_string(program.arch)));

  ByteWriter w;
  w.bytes.assign(std::begin(nbin::kMagic), std::end(nbin::kMagic));
  w.fixed(nbin::kFormatVersion, 2);
  w.fixed(static_cast<uint64_t>(program.arch), 2);
  w.fixed(spec_.id, 8);
  w.fixed(0, 4);  // payload size, filled in below
  w.fixed(0, 4);  // CRC-32, filled in below

  if (program.tensors.size() > nbin::max_tensor_count(spec_))
    throw InputError(file_error(program.file, "cannot encode: " + std::to_string(program.tensors.size()) +
                                                  " tensors, the spec's tensor fields can name " +
                                                  std::to_string(nbin::max_tensor_count(spec_))));
  w.varint(static_cast<uint64_t>(core_count(program)));
  for (std::size_t k = 1; k < program.core_starts.size(); ++k) w.varint(program.core_starts[k]);
  if (program.nki < 0 || static_cast<std::size_t>(program.nki) >= spec_.nki_versions.size())
    throw InputError(file_error(program.file, "cannot encode: NKI version index " + std::to_string(program.nki)));
  w.varint(static_cast<uint64_t>(program.nki));
  w.varint(program.tensors.size());
  for (const TensorDecl& t : program.tensors) write_tensor(w, program, t);
  w.varint(program.registers.size());
  for (const RegisterDecl& reg : program.registers) {
    w.text(reg.name);
    w.u8(static_cast<uint64_t>(reg.core + 1));  // 0: section-less, k + 1: core k's
    w.varint(reg.line);
  }
  if (!error_.empty()) throw InputError(program.file + error_);

  stream_.finish();
  // Line table: the source name, the instruction count, then the differences.
  // It precedes the stream so decode errors can name lines.
  w.text(program.file);
  w.varint(count_);
  w.bytes.insert(w.bytes.end(), line_table_.bytes.begin(), line_table_.bytes.end());
  const std::size_t stream_size = chunk_bytes_ + stream_.bytes.size();
  w.varint(stream_size);

  const std::size_t payload = w.bytes.size() - nbin::kHeaderSize + stream_size;
  if (payload > UINT32_MAX) throw InputError(file_error(program.file, "cannot encode: program too large"));
  for (int i = 0; i < 4; ++i) w.bytes[nbin::kPayloadSizeAt + static_cast<std::size_t>(i)] = static_cast<uint8_t>(payload >> (8 * i));
  chunks_.push_back(std::move(stream_.bytes));
  uint32_t crc = nbin::crc32(w.bytes.data(), nbin::kCrcAt);
  crc = nbin::crc32(w.bytes.data() + nbin::kHeaderSize, w.bytes.size() - nbin::kHeaderSize, crc);
  for (const std::vector<uint8_t>& chunk : chunks_) crc = nbin::crc32(chunk.data(), chunk.size(), crc);
  for (int i = 0; i < 4; ++i) w.bytes[nbin::kCrcAt + static_cast<std::size_t>(i)] = static_cast<uint8_t>(crc >> (8 * i));
  return Parts{std::move(w.bytes), std::move(chunks_)};
}

std::vector<uint8_t> encode_program(const Spec& spec, const Program& program) {
  NbinEncoder encoder(spec, program.instructions.size());
  for (const Instruction& ins : program.instructions) encoder.add(program, ins);
  NbinEncoder::Parts parts = encoder.finish(program);
  for (const std::vector<uint8_t>& chunk : parts.stream) parts.head.insert(parts.head.end(), chunk.begin(), chunk.end());
  return std::move(parts.head);
}

}  // namespace nisa
