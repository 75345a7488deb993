// The assembler's speed paths (issue 5) must read exactly what the plain
// paths read: the first pass's quick line check and the lexer's inline
// integers against lex_number's errors, SourceLines against the line rules of
// LANGUAGE.md 2.1, and `nisa asm`'s on-the-fly encoder (InstructionSink +
// NbinEncoder) against encode_program of the whole program model.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "asm_test_support.hpp"
#include "nbin.hpp"
#include "source_lexer.hpp"
#include "source_lines.hpp"

namespace {

std::vector<std::string> lines_of(std::string_view text) {
  nisa::SourceLines lines(text);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lines.size(); ++i) out.emplace_back(lines[i]);
  return out;
}

// The error message of check_line_tokens and of tokenize_line ("" if none);
// they must agree, whichever path the check takes.
std::string lex_error(const std::string& line) {
  std::vector<nisa::Token> tokens;
  std::string checked, full;
  try {
    nisa::check_line_tokens(line, tokens);
  } catch (const nisa::SourceError& e) {
    checked = std::to_string(e.column) + ": " + e.message;
  }
  try {
    nisa::tokenize_line(line, tokens);
  } catch (const nisa::SourceError& e) {
    full = std::to_string(e.column) + ": " + e.message;
  }
  CHECK_MESSAGE(checked == full, line);
  return full;
}

struct Collect final : nisa::InstructionSink {
  nisa::NbinEncoder& encoder;
  explicit Collect(nisa::NbinEncoder& e) : encoder(e) {}
  void add(const nisa::Program& p, const nisa::Instruction& ins) override { encoder.add(p, ins); }
};

}  // namespace

TEST_CASE("source lines: newline, CRLF, a trailing newline adds no line, empty text is one line") {
  CHECK(lines_of("") == std::vector<std::string>{""});
  CHECK(lines_of("\n") == std::vector<std::string>{""});
  CHECK(lines_of("a") == std::vector<std::string>{"a"});
  CHECK(lines_of("a\n") == std::vector<std::string>{"a"});
  CHECK(lines_of("a\n\n") == std::vector<std::string>{"a", ""});
  CHECK(lines_of("a\r\nb\r\n") == std::vector<std::string>{"a", "b"});
  CHECK(lines_of("a\nb") == std::vector<std::string>{"a", "b"});
  CHECK(lines_of("a\n\r") == std::vector<std::string>{"a", ""});
}

TEST_CASE("the first pass's quick check reports the lexer's errors, at the same column") {
  CHECK(lex_error("memset dst=t, value=12") == "");
  CHECK(lex_error("memset dst=t, value=1.5e3") == "");
  CHECK(lex_error("memset dst=t, value=.5") == "");
  CHECK(lex_error("memset dst=t, value=0x1F ; comment 12abc") == "");
  CHECK(lex_error("memset dst=t, value=123456789012345678") == "");
  CHECK(lex_error("12 starts with a number") == "");
  CHECK(lex_error("memset dst=t, value=12abc") == "21: malformed number '12abc'");
  CHECK(lex_error("memset dst=t, value=1.2.3") == "21: malformed number '1.2.3'");
  CHECK(lex_error("memset dst=t, value=1e") == "21: malformed number '1e'");
  CHECK(lex_error("memset dst=t, value=0x") == "21: hex literal needs digits after '0x'");
  CHECK(lex_error("memset dst=t, value=9223372036854775807") == "");
  CHECK(lex_error("memset dst=t, value=9223372036854775808") == "21: integer literal 9223372036854775808 is too large");
  CHECK(lex_error("memset dst=t, value=99999999999999999999") == "21: integer literal 99999999999999999999 is too large");
  CHECK(lex_error("memset dst=t, value=$5") == "21: unexpected character '$'");
  CHECK(lex_error(".file \"open") == "7: unterminated string");
}

TEST_CASE("integer literals: the inline path gives the same values as the full one") {
  const nisa::Program p = asm_test::assemble_ok(
      ".sbuf t i32 [128, 64]\n"
      "memset dst=t[0:32, 7:23], value=123456789\n"
      "memset dst=t, value=0x7fffffff\n"
      "memset dst=t, value=2147483647\n");
  REQUIRE(p.instructions.size() == 3);
  CHECK(p.instructions[0].operands[0].view.dims[1].start == 7);
  CHECK(p.instructions[0].operands[0].view.dims[1].count == 16);
  CHECK(p.instructions[0].operands[1].integer == 123456789);
  CHECK(p.instructions[1].operands[1].integer == 0x7fffffff);
  CHECK(p.instructions[2].operands[1].integer == 2147483647);
}

TEST_CASE("encoding on the fly gives the bytes of encode_program, across stream chunks") {
  // ~300,000 instructions of mixed widths: a stream of several 1 MB chunks,
  // with instructions straddling the chunk edges; .file comes last (the
  // line table takes the final name).
  const std::string source =
      ".arch trn2\n"
      ".sbuf a f32 [128, 64]\n"
      ".sbuf b f32 [128, 64]\n"
      ".sbuf p u8 [128, 64]\n"
      ".rept i, 100000\n"
      "tensor_scalar dst=a[0:32, 0:16], data=b[32:64, 8:24], op0=multiply, operand0=0.5, op1=add, operand1=1.0\n"
      "tensor_copy_predicated dst=a, src=b, predicate=p\n"
      "memset dst=b[i % 4 * 32 : i % 4 * 32 + 32, :], value=i\n"
      ".endr\n"
      ".file \"renamed.nasm\"\n";
  const nisa::Spec& spec = asm_test::spec();
  const nisa::Program whole = asm_test::assemble_ok(source);
  const std::vector<uint8_t> expected = nisa::encode_program(spec, whole);

  nisa::NbinEncoder encoder(spec, 16);
  Collect sink(encoder);
  nisa::AssembleResult streamed = nisa::assemble(spec, source, "t.nasm", &sink);
  REQUIRE(streamed.diagnostics.empty());
  CHECK(streamed.program.instructions.empty());
  nisa::NbinEncoder::Parts parts = encoder.finish(streamed.program);
  CHECK(parts.stream.size() > 2);
  std::vector<uint8_t> bytes = parts.head;
  for (const auto& chunk : parts.stream) bytes.insert(bytes.end(), chunk.begin(), chunk.end());
  CHECK(bytes == expected);
  // And the independent reader gives the program back.
  CHECK(nisa::decode_program(spec, bytes, "t.nbin") == whole);
}
