// The .nbin encoder and decoder (docs/NBIN.md): round trip on a program with
// every instruction form, canonical whole views, values that do not fit their
// field, and robustness against truncated and corrupted binaries (LANGUAGE.md
// section 3: refused with a clear message, never executed partly).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "error.hpp"
#include "nbin.hpp"
#include "nbin_format.hpp"
#include "program_check.hpp"
#include "program_builder.hpp"
#include "spec.hpp"

using namespace nisa;
using nisa::test::ProgramBuilder;

namespace {

const Spec& spec() {
  static const Spec s = load_spec(embedded_spec_text());
  return s;
}

std::string decode_error(const std::vector<uint8_t>& bytes) {
  try {
    decode_program(spec(), bytes, "t.nbin");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string encode_error(const Program& p) {
  try {
    encode_program(spec(), p);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void fix_crc(std::vector<uint8_t>& b) {
  uint32_t crc = nbin::crc32(b.data(), nbin::kCrcAt);
  crc = nbin::crc32(b.data() + nbin::kHeaderSize, b.size() - nbin::kHeaderSize, crc);
  for (int i = 0; i < 4; ++i) b[nbin::kCrcAt + static_cast<std::size_t>(i)] = static_cast<uint8_t>(crc >> (8 * i));
}

}  // namespace

TEST_CASE("every instruction form survives encode then decode") {
  Program p = test::sample_program(spec());
  std::vector<uint8_t> bytes = encode_program(spec(), p);
  Program q = decode_program(spec(), bytes, "t.nbin");
  CHECK(q.arch == p.arch);
  CHECK(q.file == p.file);
  REQUIRE(q.tensors.size() == p.tensors.size());
  for (std::size_t i = 0; i < p.tensors.size(); ++i) CHECK(q.tensors[i] == p.tensors[i]);
  REQUIRE(q.instructions.size() == p.instructions.size());
  for (std::size_t i = 0; i < p.instructions.size(); ++i) CHECK(q.instructions[i] == p.instructions[i]);
  CHECK(q.strings == std::vector<std::string>{"a; b # c, d = \t\xc3\xa9", ""});  // each text once, in order of first use
  CHECK(encode_program(spec(), q) == bytes);
}

namespace {

// A program of one device_print of a whole [2, 2] tile: its stream is the
// 6-bit opcode, the 16-bit byte count, the bytes, the tensor index and the
// 'whole' bit.
Program one_print(const std::string& prefix) {
  ProgramBuilder b(spec(), "trn2", "p.nasm");
  auto t = b.tensor("t", Memory::sbuf, Dtype::f32, {2, 2}, Role::none, 0);
  b.add("device_print", {{"print_prefix", b.text(prefix)}, {"tensor", b.view(t)}}, 3);
  return b.program;
}

}  // namespace

TEST_CASE("a string operand travels as its byte count and bytes, and is refused where text cannot hold it") {
  const std::vector<uint8_t> ab = encode_program(spec(), one_print("ab"));
  const std::size_t stream_bits = 6 + 16 + 2 * 8 + 10 + 1;
  const std::size_t stream_at = ab.size() - (stream_bits + 7) / 8;
  // The byte count sits in bits 6..21 of the stream: 2, then 'a' and 'b'.
  CHECK(((ab[stream_at] >> 6) | (ab[stream_at + 1] << 2) | ((ab[stream_at + 2] & 0x3F) << 10)) == 2);
  CHECK(encode_program(spec(), one_print("ab")).size() == encode_program(spec(), one_print("xy")).size());
  SUBCASE("a control character") {
    CHECK(decode_error(encode_program(spec(), one_print("a\x01"))) ==
          "t.nbin: error: instruction 0 (device_print, line 3), operand print_prefix: byte 1 of the string (0x01) is a '\"' "
          "or a control character, which a string cannot hold at byte " + std::to_string(stream_at + 4));
    CHECK(decode_error(encode_program(spec(), one_print("\""))).find("byte 0 of the string (0x22)") != std::string::npos);
  }
  SUBCASE("a byte count past the stream's end") {
    std::vector<uint8_t> b = ab;
    b[stream_at] |= 0xC0;
    b[stream_at + 1] = 0xFF;
    b[stream_at + 2] |= 0x3F;
    fix_crc(b);
    CHECK(decode_error(b).find("operand print_prefix: string of 65535 bytes runs past the stream") != std::string::npos);
  }
  SUBCASE("longer than its 16-bit field") {
    CHECK(encode_error(one_print(std::string(70000, 'x'))) ==
          "p.nasm:3: error: cannot encode instruction 0 (device_print), operand print_prefix: string length 70000 does not "
          "fit its 16-bit field");
  }
}

TEST_CASE("decoding to a sink hands over every instruction form, in order, with its line") {
  Program p = test::sample_program(spec());
  std::vector<uint8_t> bytes = encode_program(spec(), p);
  std::vector<Instruction> seen;
  std::size_t tensors_seen = 0;
  Program q = decode_program(spec(), bytes, "t.nbin", [&](const Program& program, const Instruction& ins) {
    tensors_seen = program.tensors.size();
    seen.push_back(ins);
  });
  CHECK(q.instructions.empty());
  CHECK(q.file == p.file);
  REQUIRE(q.tensors.size() == p.tensors.size());
  CHECK(tensors_seen == p.tensors.size());
  REQUIRE(seen.size() == p.instructions.size());
  for (std::size_t i = 0; i < p.instructions.size(); ++i) CHECK(seen[i] == p.instructions[i]);
}

TEST_CASE("the header holds magic, version, arch and spec id") {
  std::vector<uint8_t> b = encode_program(spec(), test::sample_program(spec()));
  CHECK(std::string(b.begin(), b.begin() + 4) == "NBIN");
  CHECK(b[nbin::kVersionAt] == 4);  // 2: core counts and tensor cores (LANGUAGE.md 2.7); 3: the NKI version; 4: registers
  CHECK(b[nbin::kArchAt] == spec().find_arch("trn3"));
  uint64_t id = 0;
  for (int i = 7; i >= 0; --i) id = (id << 8) | b[nbin::kSpecIdAt + static_cast<std::size_t>(i)];
  CHECK(id == spec().id);
}

TEST_CASE("CRC-32 is the standard IEEE one") {
  const std::string s = "123456789";  // the check value of CRC-32/ISO-HDLC
  CHECK(nbin::crc32(reinterpret_cast<const uint8_t*>(s.data()), s.size()) == 0xCBF43926u);
}

TEST_CASE("a view equal to the whole tensor is encoded as whole") {
  ProgramBuilder b(spec());
  auto a = b.tensor("a", Memory::sbuf, Dtype::f32, {128, 8});
  auto c = b.tensor("c", Memory::sbuf, Dtype::f32, {128, 8}, Role::none, 64);
  b.add("tensor_tensor", {{"dst", b.view(a)}, {"data1", b.view(c)}, {"data2", b.view(c)}, {"op", b.enumerated("alu", "add")}});
  std::vector<uint8_t> whole = encode_program(spec(), b.program);
  b.program.instructions[0].operands[0] = b.view(a, {{0, 128, 1}, {0, 8, 1}});  // spelled out: same view
  CHECK(encode_program(spec(), b.program) == whole);
}

TEST_CASE("values that do not fit their field name the instruction and operand") {
  ProgramBuilder b(spec());
  auto a = b.tensor("a", Memory::sbuf, Dtype::f32, {128, 8});
  b.add("memset", {{"dst", b.view(a)}, {"value", ProgramBuilder::f32(1)}}, 7);
  SUBCASE("slice step wider than step_bits") {
    auto big = b.tensor("big", Memory::hbm, Dtype::f32, {1 << 20}, Role::input);
    auto t = b.tensor("t", Memory::sbuf, Dtype::f32, {1, 4}, Role::none, 64);
    b.add("dma_copy", {{"dst", b.view(t)}, {"src", b.view(big, {{0, 4, 1 << 17}})}}, 9);
    b.program.instructions[1].operands[1].view.dims = {{0, 1, 1}};  // keep dims rank-1
    b.program.instructions[1].operands[1].view.dims[0] = {0, 4, 1 << 17};
    CHECK(encode_error(b.program) ==
          "sample.nasm:9: error: cannot encode instruction 1 (dma_copy), operand src: slice step 131072 does not fit its 16-bit field");
  }
  SUBCASE("int32 scalar where the dtype asks for float32") {
    b.program.instructions[0].operands[1] = ProgramBuilder::integer(3);
    CHECK(encode_error(b.program) ==
          "sample.nasm:7: error: cannot encode instruction 0 (memset), operand value: expected a float32 value");
  }
  SUBCASE("more tensors than the 10-bit tensor fields can name") {
    for (int i = 0; i < 1100; ++i) {
      std::string name = "t";
      name += std::to_string(i);  // (not "t" + ...: g++ 12 -Wrestrict false positive)
      b.tensor(name, Memory::hbm, Dtype::u8, {1}, Role::scratch);
    }
    CHECK(encode_error(b.program) == "sample.nasm: error: cannot encode: 1101 tensors, the spec's tensor fields can name 1024");
  }
  SUBCASE("tensor index beyond its field") {
    b.program.instructions[0].operands[0].view.tensor = -1;
    CHECK(encode_error(b.program) ==
          "sample.nasm:7: error: cannot encode instruction 0 (memset), operand dst: tensor index -1 does not fit its 10-bit field");
  }
}

TEST_CASE("the payload's NKI version (after the core count) round-trips and is checked") {
  Program p = test::sample_program(spec());
  for (const char* version : {"0.6", "0.7"}) {
    p.nki = spec().find_nki_version(version);
    std::vector<uint8_t> b = encode_program(spec(), p);
    CHECK(b[nbin::kHeaderSize + 1] == p.nki);  // one core: the count, then the version
    CHECK(decode_program(spec(), b, "t.nbin").nki == p.nki);
  }
  std::vector<uint8_t> b = encode_program(spec(), p);
  b[nbin::kHeaderSize + 1] = static_cast<uint8_t>(spec().nki_versions.size());
  fix_crc(b);
  CHECK(decode_error(b) == "t.nbin: error: unknown NKI version index " + std::to_string(spec().nki_versions.size()) + " at byte 25");
}

TEST_CASE("decode refuses another format version and another spec, naming both") {
  std::vector<uint8_t> b = encode_program(spec(), test::sample_program(spec()));
  SUBCASE("spec id") {
    b[nbin::kSpecIdAt] ^= 0x5a;
    fix_crc(b);
    std::string e = decode_error(b);
    CHECK(e.find("t.nbin: error: the binary was built with ISA spec ") == 0);
    CHECK(e.find("and this nisa has " + spec_id_hex(spec().id)) != std::string::npos);
    CHECK(e.find("at byte 8") != std::string::npos);
  }
  SUBCASE("version") {
    b[nbin::kVersionAt] = 2;
    CHECK(decode_error(b) == "t.nbin: error: format version 2, this nisa reads version 4 at byte 4");
  }
  SUBCASE("not a binary") {
    std::vector<uint8_t> text = {'.', 'a', 'r', 'c', 'h'};
    CHECK(decode_error(text) == "t.nbin: error: not a .nbin file (bad magic number) at byte 0");
    CHECK(decode_error({}) == "t.nbin: error: truncated header (0 of 24 bytes) at byte 0");
  }
}

TEST_CASE("every truncation and every flipped byte is refused with its offset") {
  std::vector<uint8_t> good = encode_program(spec(), test::sample_program(spec()));
  for (std::size_t n = 0; n < good.size(); ++n) {
    std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
    std::string e = decode_error(cut);
    INFO("truncated to " << n << " bytes");
    CHECK(e.find("at byte") != std::string::npos);
  }
  // Header, tensor table and the first instructions: the CRC catches each flip.
  std::size_t limit = good.size() < 400 ? good.size() : 400;
  for (std::size_t i = 0; i < limit; ++i) {
    for (uint8_t mask : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xff}}) {
      std::vector<uint8_t> bad = good;
      bad[i] ^= mask;
      INFO("byte " << i << " ^ " << int(mask));
      CHECK(decode_error(bad).find("at byte") != std::string::npos);
    }
  }
}

TEST_CASE("flips with a recomputed CRC are refused by the structural checks or decode to a valid program") {
  std::vector<uint8_t> good = encode_program(spec(), test::sample_program(spec()));
  int refused = 0, accepted = 0;
  for (std::size_t i = 0; i < good.size(); ++i) {
    if (i >= nbin::kCrcAt && i < nbin::kHeaderSize) continue;  // the CRC itself is recomputed
    for (int bit = 0; bit < 8; ++bit) {
      std::vector<uint8_t> bad = good;
      bad[i] = static_cast<uint8_t>(bad[i] ^ (1u << bit));
      fix_crc(bad);
      INFO("byte " << i << " bit " << bit);
      try {
        Program q = decode_program(spec(), bad, "t.nbin");
        // Accepted: a program the checker passes and the encoder reproduces exactly.
        for (std::size_t t = 0; t < q.tensors.size(); ++t) CHECK(check_tensor(spec(), q, static_cast<int>(t)).empty());
        for (const Instruction& ins : q.instructions) CHECK(check_instruction(spec(), q, ins).empty());
        CHECK(encode_program(spec(), q) == bad);
        ++accepted;
      } catch (const InputError& e) {
        CHECK(std::string(e.what()).find("at byte") != std::string::npos);
        ++refused;
      }
    }
  }
  MESSAGE("recomputed-CRC single-bit flips: " << refused << " refused, " << accepted << " decoded to valid programs");
  CHECK(refused > 0);
}

TEST_CASE("structural defects behind a valid CRC are named with their byte") {
  ProgramBuilder b(spec());
  auto a = b.tensor("a", Memory::sbuf, Dtype::f32, {128, 8});
  auto c = b.tensor("c", Memory::sbuf, Dtype::f32, {128, 8}, Role::none, 64);
  b.add("tensor_tensor", {{"dst", b.view(a)}, {"data1", b.view(c)}, {"data2", b.view(c)}, {"op", b.enumerated("alu", "add")}}, 4);

  // One instruction, every view whole: opcode, 3 x (index + whole bit), op.
  const InstructionSpec& is = spec().instructions[static_cast<std::size_t>(spec().find_instruction("tensor_tensor"))];
  int bits = spec().opcode_bits + 3;
  for (const FieldSpec& f : is.encoding) bits += f.bits;
  auto stream_at = [&](const std::vector<uint8_t>& bytes) { return bytes.size() - static_cast<std::size_t>((bits + 7) / 8); };

  SUBCASE("unknown opcode") {
    std::vector<uint8_t> bytes = encode_program(spec(), b.program);
    std::size_t at = stream_at(bytes);
    bytes[at] = static_cast<uint8_t>(bytes[at] & ~((1u << spec().opcode_bits) - 1));  // opcode 0: unused
    fix_crc(bytes);
    CHECK(decode_error(bytes) == "t.nbin: error: instruction 0 (line 4): unknown opcode 0 at byte " + std::to_string(at));
  }
  SUBCASE("enum value beyond the enum") {
    b.program.instructions[0].operands[3] = b.enumerated("alu", "rsqrt");  // index 27 = 0b11011, the last field
    std::vector<uint8_t> bytes = encode_program(spec(), b.program);
    int op_bit = bits - 3;  // the middle bit of the 5-bit op field: 0b11011 -> 0b11111 (29 values)
    std::size_t at = stream_at(bytes) + static_cast<std::size_t>(op_bit / 8);
    bytes[at] = static_cast<uint8_t>(bytes[at] | (1u << (op_bit % 8)));
    fix_crc(bytes);
    CHECK(decode_error(bytes) ==
          "t.nbin: error: instruction 0 (tensor_tensor, line 4), operand op: enum value 31 out of range for alu at byte " +
              std::to_string(stream_at(bytes) + static_cast<std::size_t>(bits / 8)));
    // The encoder refuses the same value through the same walk.
    b.program.instructions[0].operands[3].integer = 31;
    CHECK(encode_error(b.program) == "sample.nasm:4: error: cannot encode instruction 0 (tensor_tensor), operand op: enum value 31 out of range for alu");
  }
  SUBCASE("slice outside its tensor") {
    b.program.instructions[0].operands[1].view.dims[1] = {4, 5, 1};  // columns 4..8 of 8
    CHECK(decode_error(encode_program(spec(), b.program)).find(
              "operand data1: slice 4 count 5 step 1 outside dimension 1 of size 8 at byte") != std::string::npos);
  }
  SUBCASE("the shared checker runs on decoded programs") {
    b.program.instructions[0].operands[2] = b.view(c, {{0, 64, 1}});  // data2 has 64 partitions, dst 128 (S1.4)
    std::string e = decode_error(encode_program(spec(), b.program));
    CHECK(e.find("t.nbin: error: instruction 0 (tensor_tensor, line 4): ") == 0);
    CHECK(e.find(" at byte ") != std::string::npos);
  }
  SUBCASE("tensor record refused by check_tensor") {
    b.program.tensors[1].offset = 229376 - 16;  // runs past the end of trn2 SBUF partitions
    std::string e = decode_error(encode_program(spec(), b.program));
    CHECK(e.find("t.nbin: error: tensor record: ") == 0);
    CHECK(e.find(" at byte ") != std::string::npos);
  }
}

TEST_CASE("random multi-byte corruption behind a valid CRC never crashes") {
  std::vector<uint8_t> good = encode_program(spec(), test::sample_program(spec()));
  uint64_t state = 0x9e3779b97f4a7c15ull;  // fixed seed: the test is deterministic
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state >> 33);
  };
  int refused = 0;
  for (int round = 0; round < 4000; ++round) {
    std::vector<uint8_t> bad = good;
    int edits = 1 + static_cast<int>(next() % 4);
    for (int e = 0; e < edits; ++e) {
      std::size_t at = nbin::kHeaderSize + next() % (bad.size() - nbin::kHeaderSize);
      bad[at] = static_cast<uint8_t>(next());
    }
    fix_crc(bad);
    try {
      Program q = decode_program(spec(), bad, "t.nbin");
      CHECK(encode_program(spec(), q) == bad);
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find("at byte") != std::string::npos);
      ++refused;
    }
  }
  CHECK(refused > 2000);
}

// LANGUAGE.md 2.3 "Dynamic access": index_stride and an index written as an
// .ap view of an SBUF tile are kept through the binary; a stride coded as
// given but 0 (the "not given" value) is refused, so one program has one
// encoding.
TEST_CASE("a dynamic view's index_stride and .ap index survive the binary") {
  ProgramBuilder b(spec());
  auto flat = b.tensor("flat", Memory::hbm, Dtype::f32, {16, 8}, Role::inout);
  auto idx = b.tensor("idx", Memory::sbuf, Dtype::i32, {4, 3});
  auto t = b.tensor("t", Memory::sbuf, Dtype::f32, {4, 1}, Role::none, 64);
  Operand dst = b.view(flat);
  dst.view.dims.clear();
  dst.view.is_pattern = true;
  dst.view.pattern = {{8, 4}, {1, 1}};
  dst.view.indirect = IndirectKind::vector;
  dst.view.index_stride = 1;  // a 1-d reshape's stride (nki-library's scatter into one element)
  TensorView index = b.view(idx).view;
  index.dims.clear();
  index.is_pattern = true;
  index.offset = 2;
  index.pattern = {{3, 4}, {1, 1}};  // column 2 of idx
  dst.view.index = {index};
  b.add("dma_copy", {{"dst", dst}, {"src", b.view(t)}}, 5);
  REQUIRE(check_instruction(spec(), b.program, b.program.instructions[0]).empty());

  std::vector<uint8_t> with_1 = encode_program(spec(), b.program);
  Program q = decode_program(spec(), with_1, "t.nbin");
  REQUIRE(q.instructions.size() == 1);
  CHECK(q.instructions[0] == b.program.instructions[0]);
  CHECK(q.instructions[0].operands[0].view.index_stride == 1);
  CHECK(encode_program(spec(), q) == with_1);

  // Without the stride the view is another program, one bit shorter.
  b.program.instructions[0].operands[0].view.index_stride = 0;
  Program r = decode_program(spec(), encode_program(spec(), b.program), "t.nbin");
  CHECK(r.instructions[0].operands[0].view.index_stride == 0);
  CHECK(!(r.instructions[0] == q.instructions[0]));

  // Strides 1 and 2 differ in the stride field's two lowest bits: clearing the
  // lowest one of stride 1 codes "given, 0".
  b.program.instructions[0].operands[0].view.index_stride = 2;
  std::vector<uint8_t> with_2 = encode_program(spec(), b.program);
  REQUIRE(with_2.size() == with_1.size());
  std::size_t bit = 0;
  for (std::size_t k = nbin::kHeaderSize; k < with_1.size() && bit == 0; ++k)
    for (int j = 0; j < 8; ++j)
      if (((with_1[k] ^ with_2[k]) >> j) & 1) {
        bit = k * 8 + static_cast<std::size_t>(j);
        break;
      }
  REQUIRE(bit != 0);
  std::vector<uint8_t> zero = with_1;
  zero[bit / 8] = static_cast<uint8_t>(zero[bit / 8] & ~(1u << (bit % 8)));
  fix_crc(zero);
  CHECK(decode_error(zero).find("operand dst: index_stride 0 is not positive at byte") != std::string::npos);

  // A stride on a view without a runtime index has no encoding.
  b.program.instructions[0].operands[0].view.indirect = IndirectKind::none;
  b.program.instructions[0].operands[0].view.index.clear();
  CHECK(encode_error(b.program).find("index_stride on a view without a runtime index") != std::string::npos);
  CHECK(check_instruction(spec(), b.program, b.program.instructions[0]).size() == 1);
}

TEST_CASE("sequencer registers and loops in a binary: a register index past the declared ones, a loop left open and a read before any set are refused") {
  ProgramBuilder b(spec());
  b.program.registers.push_back(RegisterDecl{"r", 2, TensorDecl::kShared});
  Operand r;
  r.state = OperandState::reg;
  r.integer = 0;
  b.add("register_move", {{"dst", r}, {"src", ProgramBuilder::integer(5)}}, 3);
  SUBCASE("the register table round-trips") {
    CHECK(decode_program(spec(), encode_program(spec(), b.program), "t.nbin").registers == b.program.registers);
  }
  SUBCASE("a register index past the declared ones") {
    // One instruction: opcode, dst (6 bits), src's register flag and its 32 bits.
    const InstructionSpec& is = spec().instructions[static_cast<std::size_t>(spec().find_instruction("register_move"))];
    int bits = spec().opcode_bits + 1;
    for (const FieldSpec& f : is.encoding) bits += f.bits;
    std::vector<uint8_t> bytes = encode_program(spec(), b.program);
    const std::size_t at = bytes.size() - static_cast<std::size_t>((bits + 7) / 8);
    for (int k = 0; k < 6; ++k) {  // dst 0 -> 63
      const int bit = spec().opcode_bits + k;
      bytes[at + static_cast<std::size_t>(bit / 8)] = static_cast<uint8_t>(bytes[at + static_cast<std::size_t>(bit / 8)] | (1u << (bit % 8)));
    }
    fix_crc(bytes);
    CHECK(decode_error(bytes).find("register index 63 but the program declares 1") != std::string::npos);
  }
  SUBCASE("a loop left open") {
    b.add("fori_loop", {{"var", r}, {"lower", ProgramBuilder::integer(0)}, {"upper", ProgramBuilder::integer(4)}, {"step", ProgramBuilder::integer(1)}}, 4);
    CHECK(decode_error(encode_program(spec(), b.program)) == "sample.nasm:4: error: loop not closed: no end_loop after it (S17.2)");
  }
  SUBCASE("a register read before anything sets it") {
    b.program.registers.push_back(RegisterDecl{"s", 2, TensorDecl::kShared});
    Operand s = r;
    s.integer = 1;
    b.add("register_move", {{"dst", r}, {"src", s}}, 4);
    const std::string e = decode_error(encode_program(spec(), b.program));
    CHECK(e.find("t.nbin: error: instruction 1 (line 4): register 's' is read before anything sets it (S17.1: register_move, "
                 "register_load, register_op or a fori_loop's var) at byte ") == 0);
  }
}
