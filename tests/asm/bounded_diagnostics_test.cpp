// Issue 24: a diagnostic echoes an excerpt of its line, not the line, and
// quotes a bounded message; all diagnostics of one assembly stay under 64 KiB
// (asm/diagnostic_text.hpp, LANGUAGE.md 2.6 "Limits"). Expected excerpts and
// caret positions are counted by hand from the generated lines.

#include "asm_test_support.hpp"
#include "diagnostic_text.hpp"

namespace {

const std::string kTile = ".sbuf t f32 [128, 4]\n";  // line 1
const std::string kHead = "memset dst=t, value=0";   // line 2 starts so; the first bad key is at column 24
const std::string kBadKey = ", zz=1";                // 6 bytes: bad key k (0-based) is at column 24 + 6k

std::string total_text(const std::vector<nisa::Diagnostic>& ds) {
  std::string all;
  for (const auto& d : ds) all += nisa::format_diagnostic(d);
  return all;
}

// The caret line of a formatted diagnostic (its third line).
std::string caret_line(const std::string& formatted) {
  const std::size_t first = formatted.find('\n');
  const std::size_t second = formatted.find('\n', first + 1);
  return formatted.substr(second + 1, formatted.find('\n', second + 1) - second - 1);
}

}  // namespace

TEST_CASE("a 10 MB line of bad keys: 20 short diagnostics, the caret under each key") {
  std::string line = kHead;
  for (int k = 0; k < 1'700'000; ++k) line += kBadKey;  // 10.2 MB
  // Was 204 MB of messages (issue 24); its time is the CLI test's (Release only).
  const auto r = nisa::assemble(asm_test::spec(), kTile + line + "\n", "t.nasm");
  REQUIRE(r.diagnostics.size() == 21);  // 20 errors and the "too many" line
  const std::string all = total_text(r.diagnostics);
  CHECK(all.size() < 64 * 1024);
  CHECK(r.diagnostics[20].message == "too many errors, stopped after 20");

  // Bad key 0 at column 24: the excerpt is the line's first 200 bytes and "...".
  const nisa::Diagnostic& first = r.diagnostics[0];
  CHECK(first.line == 2);
  CHECK(first.column == 24);
  CHECK(first.source_line == line.substr(0, 200) + "...");
  CHECK(first.caret == 23);
  CHECK(caret_line(nisa::format_diagnostic(first)) == std::string(23, ' ') + "^");

  // Bad key 19 at column 24 + 114 = 138 (byte 137): the window starts 100
  // bytes earlier, at byte 37, after a "..." of 3.
  const nisa::Diagnostic& last = r.diagnostics[19];
  CHECK(last.column == 138);
  CHECK(last.source_line == "..." + line.substr(37, 200) + "...");
  CHECK(last.caret == 103);
  CHECK(last.source_line.substr(103, 4) == "zz=1");
  CHECK(caret_line(nisa::format_diagnostic(last)) == std::string(103, ' ') + "^");
}

TEST_CASE("an excerpt near the end of a long line, and tabs kept in the padding") {
  int caret = 0;
  const std::string line = std::string(300, 'a') + "b";
  // Column 302 is one past the last byte: the window is the last 200 bytes.
  CHECK(nisa::line_excerpt(line, 302, caret) == "..." + line.substr(101));
  CHECK(caret == 203);
  CHECK(nisa::line_excerpt(line, 301, caret) == "..." + line.substr(101));
  CHECK(caret == 202);
  // A short line is kept whole.
  CHECK(nisa::line_excerpt("memset x", 8, caret) == "memset x");
  CHECK(caret == 7);
  // A tab at the start of a long line: its excerpt keeps it, and so does the
  // caret's padding (bad key 0 is now at column 25).
  std::string tabbed = "\t" + kHead;
  for (int k = 0; k < 100; ++k) tabbed += kBadKey;
  const auto r = nisa::assemble(asm_test::spec(), kTile + tabbed + "\n", "t.nasm");
  REQUIRE(!r.diagnostics.empty());
  CHECK(r.diagnostics[0].column == 25);
  CHECK(caret_line(nisa::format_diagnostic(r.diagnostics[0])) == "\t" + std::string(23, ' ') + "^");
}

TEST_CASE("a cut never splits a UTF-8 character") {
  int caret = 0;
  // 151 ASCII bytes, then 100 two-byte characters starting at the odd bytes
  // 151, 153, ...: for column 151 (byte 150) the window is bytes [50, 250),
  // and byte 250 is the second byte of the é at 249, so the cut moves back to 249.
  std::string line = std::string(151, 'a');
  for (int i = 0; i < 100; ++i) line += "\xc3\xa9";  // é
  const std::string excerpt = nisa::line_excerpt(line, 151, caret);
  CHECK(excerpt == "..." + line.substr(50, 199) + "...");
  CHECK(caret == 103);
}

TEST_CASE("a message quoting a 1 MB token is cut, keeping its start and its end") {
  const std::string key(1'000'000, 'q');
  const auto r = nisa::assemble(asm_test::spec(), kTile + kHead + ", " + key + "=1\n", "t.nasm");
  REQUIRE(r.diagnostics.size() == 1);
  const std::string& m = r.diagnostics[0].message;
  CHECK(m.size() <= nisa::kMaxMessageBytes);
  CHECK(m.starts_with("unknown key 'qqq"));
  CHECK(m.find("...") != std::string::npos);
  CHECK(m.ends_with(")"));  // the accepted keys, at the end, survive
  CHECK(r.diagnostics[0].source_line.size() <= nisa::kExcerptBytes + 6);

  // The lexer's own errors (first pass) are cut too: a 1 MB malformed number.
  const auto lexed = nisa::assemble(asm_test::spec(), kTile + "memset dst=t, value=1" + std::string(1'000'000, 'x') + "\n", "t.nasm");
  REQUIRE(lexed.diagnostics.size() == 1);
  CHECK(lexed.diagnostics[0].message.starts_with("malformed number '1xxx"));
  CHECK(lexed.diagnostics[0].message.size() <= nisa::kMaxMessageBytes);
}

TEST_CASE("all diagnostics together stay under 64 KiB, even with long file names and messages") {
  // 20 distinct 1 MB bad keys, each on its own line: each message is cut to
  // 1 KiB and each excerpt to ~200 bytes; a 3000-byte file name counts too.
  std::string source = kTile;
  for (int i = 0; i < 30; ++i) source += kHead + ", " + std::string(100'000, static_cast<char>('a' + i % 26)) + "=1\n";
  const auto r = nisa::assemble(asm_test::spec(), source, std::string(3000, 'f') + ".nasm");
  REQUIRE(!r.diagnostics.empty());
  CHECK(total_text(r.diagnostics).size() <= 64 * 1024);
  CHECK(r.diagnostics.back().line == 0);
  CHECK(r.diagnostics.back().message.starts_with("too many errors, stopped after "));
}
