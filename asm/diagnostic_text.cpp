#include "diagnostic_text.hpp"

#include <algorithm>

#include "assembler.hpp"

namespace nisa {

namespace {

constexpr std::string_view kCut = "...";

bool continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The largest position <= `at` that starts a UTF-8 character (or is the end):
// cuts never split a character.
std::size_t character_start(std::string_view s, std::size_t at) {
  while (at > 0 && at < s.size() && continuation_byte(s[at])) --at;
  return at;
}

}  // namespace

std::string bounded_message(std::string message) {
  if (message.size() <= kMaxMessageBytes) return message;
  // The end of a message teaches (did you mean, the accepted values): keep a
  // quarter of the budget for it.
  const std::size_t tail_bytes = kMaxMessageBytes / 4;
  const std::size_t head = character_start(message, kMaxMessageBytes - tail_bytes - kCut.size());
  const std::size_t tail = character_start(message, message.size() - tail_bytes);
  return message.substr(0, head) + std::string(kCut) + message.substr(tail);
}

std::string line_excerpt(std::string_view line, int column, int& caret) {
  // The caret may stand one past the last character (an error at the end).
  const std::size_t at = std::min<std::size_t>(column > 1 ? static_cast<std::size_t>(column - 1) : 0, line.size());
  if (line.size() <= kExcerptBytes) {
    caret = static_cast<int>(at);
    return std::string(line);
  }
  // Half the window before the column, unless the line ends sooner.
  std::size_t begin = std::min(at - std::min(at, kExcerptBytes / 2), line.size() - kExcerptBytes);
  std::size_t end = begin + kExcerptBytes;
  begin = character_start(line, begin);
  end = character_start(line, end);
  std::string out;
  if (begin > 0) out += kCut;
  caret = static_cast<int>(out.size() + (at - begin));
  out += line.substr(begin, end - begin);
  if (end < line.size()) out += kCut;
  return out;
}

std::string format_diagnostic(const Diagnostic& d) {
  if (d.line <= 0) return d.file + ": error: " + d.message + "\n";
  std::string out = d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": error: " + d.message + "\n";
  out += d.source_line + "\n";
  // Tabs stay tabs so the caret lines up under the same character.
  for (int i = 0; i < d.caret; ++i)
    out += static_cast<std::size_t>(i) < d.source_line.size() && d.source_line[static_cast<std::size_t>(i)] == '\t' ? '\t' : ' ';
  out += "^\n";
  return out;
}

}  // namespace nisa
