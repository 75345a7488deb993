// Diagnostics of the assembler: the did-you-mean helper and the collector
// that caps a run at kMaxErrors and kMaxDiagnosticBytes (LANGUAGE.md section 1:
// report every error, not only the first; 2.6 Limits). format_diagnostic is
// declared in assembler.hpp.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "assembler.hpp"
#include "source_lines.hpp"

namespace nisa {

inline constexpr std::size_t kMaxErrors = 20;
// All diagnostics of one assembly, as format_diagnostic prints them,
// "too many errors" line included.
inline constexpr std::size_t kMaxDiagnosticBytes = std::size_t{64} << 10;

// The candidate nearest to `name` by edit distance (adjacent transpositions
// count as one edit), if it is close enough to be a likely typo; else "".
std::string closest_name(std::string_view name, const std::vector<std::string>& candidates);

// "; did you mean 'X'?" for the closest candidate, or "" if none is close.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

// Collects diagnostics of one file, each with a bounded message and an
// excerpt of its line (diagnostic_text.hpp). After kMaxErrors distinct
// errors, or when the next one would take the printed text past
// kMaxDiagnosticBytes, it adds one final "too many errors" line and reports
// full(), so the caller stops.
class DiagnosticList {
 public:
  DiagnosticList(std::string file, const SourceLines& lines) : file_(std::move(file)), lines_(lines) {}
  void error(int line, int column, std::string message);
  bool full() const { return full_; }
  // Whether an error at this line and column is already in the list (or the
  // list is full): lets a caller skip building a costly repeated message.
  bool reported_at(int line, int column) const;
  std::vector<Diagnostic> take() { return std::move(list_); }
  bool empty() const { return list_.empty(); }

 private:
  std::string file_;
  const SourceLines& lines_;
  std::vector<Diagnostic> list_;
  std::size_t bytes_ = 0;  // of list_ once formatted
  bool full_ = false;
  void stop();
};

}  // namespace nisa
