// The text of a diagnostic, bounded (LANGUAGE.md 1 and 2.6): a message is
// cut to kMaxMessageBytes and a source line to an excerpt of about
// kExcerptBytes around the column, so that one error on a 10 MB generated
// line costs a few hundred bytes, not a copy of the line (issue 24).
// format_diagnostic (assembler.hpp) prints the excerpt with the caret.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace nisa {

inline constexpr std::size_t kExcerptBytes = 200;      // of the source line shown under an error
inline constexpr std::size_t kMaxMessageBytes = 1024;  // of one message

// `message` if it is at most kMaxMessageBytes long; else its start and its
// end (where a did-you-mean or the accepted values are) joined by "...".
std::string bounded_message(std::string message);

// At most about kExcerptBytes of `line` around the 1-based byte `column`,
// with "..." where the line was cut. `caret` receives the 0-based offset of
// that column in the excerpt.
std::string line_excerpt(std::string_view line, int column, int& caret);

}  // namespace nisa
