// .nbin bytes -> Program, validated completely before anything may run
// (LANGUAGE.md section 3, docs/NBIN.md). Order of the checks: header (magic,
// version, sizes, CRC, spec id, arch), then every field as it is read (counts
// capped by the bytes left, enum and tensor indices, slices inside their
// tensors), then the spec-driven checks of program_check.hpp. Every defect is
// an InputError "FILE: error: <reason> at byte <offset>".
#include <bit>
#include <map>

#include "error.hpp"
#include "nbin.hpp"
#include "nbin_format.hpp"
#include "cross_core.hpp"
#include "sequencer_check.hpp"
#include "nbin_validate.hpp"

namespace nisa {

namespace {

// The read side of the field walk: reports defects at the byte being read.
// The program's string table as strings are read: each text once, in order
// of first use (as the assembler builds it).
struct StringTable {
  std::vector<std::string>& strings;  // the decoded Program's
  std::map<std::string, int64_t, std::less<>> index;
};

struct FieldReader {
  static constexpr bool reading = true;
  BitReader& in;
  std::string where;  // "instruction N (mnemonic, line L)"
  std::vector<std::size_t> operand_at;  // byte offset of each operand's field, for later checks
  StringTable& strings;
  const std::string* operand = nullptr;  // the spec's name of the operand being read

  void begin_operand(const std::string* name, int index) {
    operand = name;
    if (index >= 0) operand_at[static_cast<std::size_t>(index)] = in.byte_offset();
  }
  std::string context() const { return operand == nullptr || operand->empty() ? where : where + ", operand " + *operand; }
  [[noreturn]] void fail(const std::string& why) const { in.fail(context() + ": " + why, in.byte_offset()); }
  // The context is only spelled out if a read fails.
  auto describe() const {
    return [this] { return context(); };
  }
  void flag(bool& b) { b = in.bits(1, describe()) != 0; }
  void unsigned_field(int64_t& v, int width, const char*) { v = static_cast<int64_t>(in.bits(width, describe())); }
  // A string operand: its byte count, its bytes (no more than the stream
  // holds, and only those a string may hold), then its index in the table.
  void string_field(int64_t& index, int width, const Program&) {
    const uint64_t length = in.bits(width, describe());
    if (length > in.remaining() / 8) fail("string of " + std::to_string(length) + " bytes runs past the stream");
    std::string text;
    text.reserve(static_cast<std::size_t>(length));
    for (uint64_t i = 0; i < length; ++i) text += static_cast<char>(in.bits(8, describe()));
    if (const std::size_t bad = first_bad_string_byte(text); bad != std::string::npos) {
      static constexpr char hex[] = "0123456789abcdef";
      const auto c = static_cast<unsigned char>(text[bad]);
      fail(std::string("byte ") + std::to_string(bad) + " of the string (0x" + hex[c >> 4] + hex[c & 15] +
           ") is a '\"' or a control character, which a string cannot hold");
    }
    const auto found = strings.index.find(text);
    if (found != strings.index.end()) {
      index = found->second;
      return;
    }
    index = static_cast<int64_t>(strings.strings.size());
    strings.index.emplace(text, index);
    strings.strings.push_back(std::move(text));
  }
  void signed_field(int64_t& v, int width, const char*) {
    uint64_t u = in.bits(width, describe());
    if (width < 64 && ((u >> (width - 1)) & 1u)) u |= ~uint64_t{0} << width;  // sign-extend
    v = static_cast<int64_t>(u);
  }
};

void read_header(const std::vector<uint8_t>& bytes, const std::string& file, const Spec& spec, Program& p) {
  ByteReader r{bytes.data(), 0, bytes.size(), &file};
  if (bytes.size() < nbin::kHeaderSize) {
    for (std::size_t i = 0; i < bytes.size() && i < 4; ++i)
      if (bytes[i] != nbin::kMagic[i]) r.fail("not a .nbin file (bad magic number)", i);
    r.fail("truncated header (" + std::to_string(bytes.size()) + " of " + std::to_string(nbin::kHeaderSize) + " bytes)", bytes.size());
  }
  for (std::size_t i = 0; i < 4; ++i)
    if (bytes[i] != nbin::kMagic[i]) r.fail("not a .nbin file (bad magic number)", i);
  r.pos = nbin::kVersionAt;
  uint64_t version = r.fixed(2, "version");
  if (version != nbin::kFormatVersion)
    r.fail("format version " + std::to_string(version) + ", this nisa reads version " + std::to_string(nbin::kFormatVersion),
           nbin::kVersionAt);
  uint64_t arch = r.fixed(2, "arch");
  uint64_t spec_id = r.fixed(8, "spec id");
  uint64_t payload = r.fixed(4, "payload size");
  uint64_t stored_crc = r.fixed(4, "checksum");
  std::size_t have = bytes.size() - nbin::kHeaderSize;
  if (payload > have)
    r.fail("truncated: the header announces " + std::to_string(payload) + " payload bytes, the file has " + std::to_string(have),
           bytes.size());
  if (payload < have) r.fail("trailing bytes after the payload", nbin::kHeaderSize + payload);
  uint32_t crc = nbin::crc32(bytes.data(), nbin::kCrcAt);
  crc = nbin::crc32(bytes.data() + nbin::kHeaderSize, have, crc);
  if (crc != stored_crc) r.fail("checksum mismatch: the file is corrupt", nbin::kCrcAt);
  // After the CRC: a genuine binary of another spec gets this message, not "corrupt".
  if (spec_id != spec.id)
    r.fail("the binary was built with ISA spec " + spec_id_hex(spec_id) + " and this nisa has " + spec_id_hex(spec.id) +
               " (reassemble it)",
           nbin::kSpecIdAt);
  if (arch >= spec.archs.size()) r.fail("unknown arch index " + std::to_string(arch), nbin::kArchAt);
  p.arch = static_cast<int>(arch);
}

bool is_identifier(const std::string& s) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

// Tensor record: name, memory, dtype, role, rank, dims, offset, init kind,
// [init value], declaration line. The smallest record takes 9 bytes.
constexpr std::size_t kMinTensorRecord = 9;
constexpr int64_t kMaxElements = int64_t{1} << 40;  // keeps every size computation far from overflow

TensorDecl read_tensor(ByteReader& r, const Program& p) {
  TensorDecl t;
  std::size_t at = r.pos;
  const std::size_t name_at = at;
  t.name = r.text("tensor name");
  if (!is_identifier(t.name)) r.fail("tensor name is not an identifier", at);
  at = r.pos;
  uint64_t memory = r.u8("tensor memory");
  if (memory > static_cast<uint64_t>(Memory::psum)) r.fail("tensor " + t.name + ": unknown memory " + std::to_string(memory), at);
  t.memory = static_cast<Memory>(memory);
  at = r.pos;
  uint64_t dtype = r.u8("tensor dtype");
  if (dtype >= static_cast<uint64_t>(kDtypeCount)) r.fail("tensor " + t.name + ": unknown dtype " + std::to_string(dtype), at);
  t.dtype = static_cast<Dtype>(dtype);
  at = r.pos;
  uint64_t role = r.u8("tensor role");
  if (role > static_cast<uint64_t>(Role::scratch)) r.fail("tensor " + t.name + ": unknown role " + std::to_string(role), at);
  t.role = static_cast<Role>(role);
  if ((t.memory == Memory::hbm) == (t.role == Role::none))
    r.fail("tensor " + t.name + ": " + (t.role == Role::none ? "an HBM tensor needs a role" : "only HBM tensors have a role"), at);
  at = r.pos;
  // 0: shared; k + 1: core k's (LANGUAGE.md 2.7).
  const uint64_t core = r.u8("tensor core");
  if (core > static_cast<uint64_t>(core_count(p)))
    r.fail("tensor " + t.name + ": core " + std::to_string(core - 1) + " in a program for " + std::to_string(core_count(p)) + (core_count(p) == 1 ? " core" : " cores"), at);
  t.core = static_cast<int32_t>(core) - 1;
  for (const TensorDecl& o : p.tensors)
    if (o.name == t.name && (o.core == t.core || o.core == TensorDecl::kShared || t.core == TensorDecl::kShared))
      r.fail("tensor " + t.name + " declared twice", name_at);
  at = r.pos;
  uint64_t rank = r.u8("tensor rank");
  if (rank == 0) r.fail("tensor " + t.name + ": rank 0", at);
  int64_t elements = 1;
  for (uint64_t d = 0; d < rank; ++d) {
    at = r.pos;
    uint64_t size = r.varint("tensor dimension");
    if (size == 0 || size > static_cast<uint64_t>(kMaxElements) || elements > kMaxElements / static_cast<int64_t>(size))
      r.fail("tensor " + t.name + ": dimension " + std::to_string(size) + " is empty or too large", at);
    elements *= static_cast<int64_t>(size);
    t.shape.push_back(static_cast<int64_t>(size));
  }
  at = r.pos;
  uint64_t offset = r.varint("tensor offset");
  if (t.memory == Memory::hbm ? offset != 0 : offset > static_cast<uint64_t>(kMaxElements))
    r.fail("tensor " + t.name + ": offset " + std::to_string(offset), at);
  t.offset = static_cast<int64_t>(offset);
  t.explicit_offset = t.memory != Memory::hbm;
  at = r.pos;
  uint64_t init = r.u8("tensor init");
  if (init > static_cast<uint64_t>(InitKind::iota) || (init != 0 && t.memory != Memory::hbm))
    r.fail("tensor " + t.name + ": init kind " + std::to_string(init), at);
  t.init = static_cast<InitKind>(init);
  if (t.init == InitKind::fill) {
    uint32_t raw = static_cast<uint32_t>(r.fixed(4, "tensor init value"));
    if (dtype_is_int(t.dtype)) {
      t.init_value.state = OperandState::integer;
      t.init_value.integer = static_cast<int32_t>(raw);
    } else {
      t.init_value.state = OperandState::scalar;
      t.init_value.scalar = std::bit_cast<float>(raw);
    }
  }
  at = r.pos;
  uint64_t line = r.varint("tensor line");
  if (line < 1 || line > UINT32_MAX) r.fail("tensor " + t.name + ": line " + std::to_string(line), at);
  t.line = static_cast<uint32_t>(line);
  return t;
}

}  // namespace

Program decode_program(const Spec& spec, const std::vector<uint8_t>& bytes, const std::string& file_name) {
  return decode_program(spec, bytes, file_name, nullptr);
}

Program decode_program(const Spec& spec, const std::vector<uint8_t>& bytes, const std::string& file_name,
                       const DecodedInstructionSink& each) {
  Program p;
  read_header(bytes, file_name, spec, p);
  ByteReader r{bytes.data(), nbin::kHeaderSize, bytes.size(), &file_name};

  // Cores: their count, then where each core after the first starts (LANGUAGE.md 2.7).
  std::size_t core_at = r.pos;
  const uint64_t cores = r.varint("core count");
  const int max_cores = spec.archs[static_cast<std::size_t>(p.arch)].max_cores;
  if (cores < 1 || cores > static_cast<uint64_t>(max_cores))
    r.fail(std::to_string(cores) + " cores; arch " + spec.archs[static_cast<std::size_t>(p.arch)].name + " runs 1 to " + std::to_string(max_cores), core_at);
  if (cores > 1) p.core_starts.assign(1, 0);
  for (uint64_t k = 1; k < cores; ++k) {
    core_at = r.pos;
    const uint64_t start = r.varint("core start");
    if (start < p.core_starts.back()) r.fail("core " + std::to_string(k) + " starts at instruction " + std::to_string(start) + ", before core " + std::to_string(k - 1), core_at);
    p.core_starts.push_back(start);
  }
  const std::size_t last_start_at = core_at;
  const std::size_t nki_at = r.pos;
  const uint64_t nki = r.varint("NKI version");
  if (nki >= spec.nki_versions.size()) r.fail("unknown NKI version index " + std::to_string(nki), nki_at);
  p.nki = static_cast<int>(nki);

  std::size_t tensor_count = r.count("tensor count", kMinTensorRecord);
  if (tensor_count > nbin::max_tensor_count(spec))
    r.fail(std::to_string(tensor_count) + " tensors, the spec's tensor fields can name " + std::to_string(nbin::max_tensor_count(spec)),
           nbin::kHeaderSize);
  std::vector<std::size_t> tensor_at;
  for (std::size_t i = 0; i < tensor_count; ++i) {
    tensor_at.push_back(r.pos);
    p.tensors.push_back(read_tensor(r, p));
  }
  nbin::validate_tensors(spec, p, file_name, tensor_at);

  // Registers (SEMANTICS S17): name, core + 1 (0: section-less), line.
  const std::size_t register_count = r.count("register count", 3);
  for (std::size_t i = 0; i < register_count; ++i) {
    std::size_t at = r.pos;
    RegisterDecl reg;
    reg.name = r.text("register name");
    if (!is_identifier(reg.name)) r.fail("register name is not an identifier", at);
    const std::size_t core_field_at = r.pos;
    const uint64_t core = r.u8("register core");
    if (core > static_cast<uint64_t>(core_count(p))) r.fail("register " + reg.name + ": core " + std::to_string(core - 1), core_field_at);
    reg.core = static_cast<int32_t>(core) - 1;
    for (const TensorDecl& t : p.tensors)
      if (t.name == reg.name) r.fail("register " + reg.name + " has the name of a tensor", at);
    for (const RegisterDecl& o : p.registers)
      if (o.name == reg.name && (o.core == reg.core || o.core == TensorDecl::kShared || reg.core == TensorDecl::kShared))
        r.fail("register " + reg.name + " declared twice", at);
    if (registers_of_core(p, reg.core) >= kMaxRegisters)
      r.fail("more than " + std::to_string(kMaxRegisters) + " registers on one core", at);
    const std::size_t line_at = r.pos;
    const uint64_t line = r.varint("register line");
    if (line < 1 || line > UINT32_MAX) r.fail("register " + reg.name + ": line " + std::to_string(line), line_at);
    reg.line = static_cast<uint32_t>(line);
    p.registers.push_back(std::move(reg));
  }

  // Line table, before the stream so that errors in it can name source lines.
  p.file = r.text("source file name");
  std::size_t count = r.count("instruction count", 1);  // each has a line entry of >= 1 byte
  if (!p.core_starts.empty() && p.core_starts.back() > count)
    r.fail("core " + std::to_string(p.core_starts.size() - 1) + " starts at instruction " + std::to_string(p.core_starts.back()) + " of " + std::to_string(count), last_start_at);
  // The line table is walked twice: first checked without storing anything,
  // then, once the stream is known to hold `count` instructions of at least
  // an opcode each, stored. An Instruction takes ~40 bytes of memory per
  // 1-byte entry, so a table its file cannot back is refused before that
  // memory is taken (issue 15: 10 MB file, 400 MB used).
  const std::size_t table_at = r.pos;
  auto walk_line_table = [&](auto&& store) {
    int64_t line = 0;
    for (std::size_t i = 0; i < count; ++i) {
      std::size_t at = r.pos;
      int64_t delta = nbin::unzigzag(r.varint("line table entry"));
      if (delta > int64_t{UINT32_MAX} || delta < -int64_t{UINT32_MAX}) r.fail("line table entry out of range", at);
      line += delta;  // cannot overflow: both within 32 bits
      if (line < 1 || line > UINT32_MAX) r.fail("line " + std::to_string(line) + " out of range", at);
      store(i, static_cast<uint32_t>(line));
    }
  };
  walk_line_table([](std::size_t, uint32_t) {});

  std::size_t stream_bytes = r.count("instruction stream size", 1);
  if (stream_bytes != r.remaining()) r.fail("instruction stream size " + std::to_string(stream_bytes) + " does not match the " +
                                            std::to_string(r.remaining()) + " bytes left");
  const std::size_t stream_at = r.pos;
  if (spec.opcode_bits > 0 && count > stream_bytes * 8 / static_cast<std::size_t>(spec.opcode_bits))
    r.fail("instruction count " + std::to_string(count) + " needs more than the " + std::to_string(stream_bytes) +
               " bytes of the instruction stream",
           table_at);
  // With `each`, one instruction at a time in `scratch` (its operands are
  // assigned afresh by code_instruction) and the lines on their own.
  std::vector<uint32_t> lines;
  Instruction scratch;
  StringTable strings{p.strings, {}};
  if (each) lines.resize(count);
  else p.instructions.resize(count);
  r.pos = table_at;
  walk_line_table([&](std::size_t i, uint32_t line) { (each ? lines[i] : p.instructions[i].line) = line; });
  r.pos = stream_at;
  BitReader in{bytes.data() + r.pos, uint64_t{stream_bytes} * 8, 0, r.pos, &file_name};
  int core = 0;
  CrossCoreCollector cross_core;
  SequencerCheck sequencer(spec, p);
  for (std::size_t i = 0; i < count; ++i) {
    Instruction& ins = each ? scratch : p.instructions[i];
    if (each) ins.line = lines[i];
    std::size_t at = in.byte_offset();
    std::string where = "instruction " + std::to_string(i) + " (line " + std::to_string(ins.line) + ")";
    int64_t opcode = static_cast<int64_t>(in.bits(spec.opcode_bits, where));
    ins.spec_index = spec.find_opcode(static_cast<int>(opcode));
    if (ins.spec_index < 0) in.fail(where + ": unknown opcode " + std::to_string(opcode), at);
    const InstructionSpec& is = spec.instructions[static_cast<std::size_t>(ins.spec_index)];
    FieldReader fr{in, "instruction " + std::to_string(i) + " (" + is.name + ", line " + std::to_string(ins.line) + ")",
                   std::vector<std::size_t>(is.operands.size(), at), strings, nullptr};
    nbin::code_instruction(fr, spec, p, ins);
    nbin::resolve_scalars(p, is, ins);
    while (core + 1 < core_count(p) && p.core_starts[static_cast<std::size_t>(core) + 1] <= i) ++core;
    nbin::validate_instruction(spec, p, ins, core, file_name, fr.where, fr.operand_at, at);
    cross_core.add(spec, core, i, ins);
    if (const std::optional<CheckFailure> f = sequencer.add(core, ins, ins.line)) in.fail(where + ": " + f->message, at);
    if (each) each(p, ins);
  }
  if (const auto open = sequencer.finish()) throw InputError(p.file + ":" + std::to_string(open->text_line) + ": error: " + open->message);
  if (core_count(p) > 1)
    if (const CoreMeetings m = cross_core.match(spec, p); m.failure) throw InputError(p.file + ":" + std::to_string(m.failure->line) + ": error: " + m.failure->message);
  if (in.remaining() >= 8) in.fail("trailing bytes after the last instruction", in.byte_offset());
  if (in.remaining() > 0 && in.bits(static_cast<int>(in.remaining()), "padding") != 0)
    in.fail("nonzero padding after the last instruction", in.byte_offset() - 1);
  return p;
}

}  // namespace nisa
