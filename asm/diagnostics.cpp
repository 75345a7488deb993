#include "diagnostics.hpp"

#include <algorithm>

#include "diagnostic_text.hpp"

namespace nisa {

namespace {

// Optimal string alignment distance (Levenshtein plus adjacent transposition)
// over three rolling rows kept in `rows`, or `bound + 1` as soon as every
// cell of a row exceeds `bound` (rows never decrease). It runs for every
// candidate of every misspelt name, the usual error of a fuzzed input.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t bound, std::vector<std::size_t>& rows) {
  const std::size_t n = b.size() + 1;
  rows.assign(3 * n, 0);
  std::size_t* two_back = rows.data();  // row i - 2
  std::size_t* back = two_back + n;     // row i - 1
  std::size_t* row = back + n;          // row i
  for (std::size_t j = 0; j < n; ++j) back[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    std::size_t row_min = row[0];
    for (std::size_t j = 1; j < n; ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({back[j] + 1, row[j - 1] + 1, back[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], two_back[j - 2] + 1);
      row_min = std::min(row_min, row[j]);
    }
    if (row_min > bound) return bound + 1;
    std::size_t* oldest = two_back;
    two_back = back;
    back = row;
    row = oldest;
  }
  return back[b.size()];
}

}  // namespace

std::string closest_name(std::string_view name, const std::vector<std::string>& candidates) {
  // A third of the name's length (at least one edit) still reads as a typo.
  std::size_t limit = std::max<std::size_t>(1, (name.size() + 2) / 3);
  std::string best;
  std::size_t best_distance = limit + 1;
  std::vector<std::size_t> rows;
  for (const auto& c : candidates) {
    // The distance is at least the difference in length: skip hopeless
    // candidates without the quadratic table (a 1 MB name took seconds).
    if (std::max(name.size(), c.size()) - std::min(name.size(), c.size()) > limit) continue;
    std::size_t dist = edit_distance(name, c, best_distance - 1, rows);
    if (dist < best_distance) {
      best_distance = dist;
      best = c;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best = closest_name(name, candidates);
  return best.empty() ? "" : "; did you mean '" + best + "'?";
}

bool DiagnosticList::reported_at(int line, int column) const {
  if (full_) return true;
  for (const auto& e : list_)
    if (e.line == line && e.column == column) return true;
  return false;
}

void DiagnosticList::stop() {
  list_.push_back(Diagnostic{file_, 0, 0, "too many errors, stopped after " + std::to_string(list_.size()), "", 0});
  full_ = true;
}

void DiagnosticList::error(int line, int column, std::string message) {
  if (full_) return;
  message = bounded_message(std::move(message));
  // A .rept body repeats its errors once per iteration: report each once.
  for (const auto& e : list_)
    if (e.line == line && e.column == column && e.message == message) return;
  if (list_.size() == kMaxErrors) return stop();
  Diagnostic d{file_, line, column, std::move(message), "", 0};
  // Only an excerpt of the line is kept (a generated line may be megabytes).
  if (line >= 1 && static_cast<std::size_t>(line) <= lines_.size())
    d.source_line = line_excerpt(lines_[static_cast<std::size_t>(line - 1)], column, d.caret);
  // Room is kept for the final line (the file's name and ~60 characters).
  const std::size_t bytes = format_diagnostic(d).size();
  if (bytes_ + bytes + file_.size() + 64 > kMaxDiagnosticBytes) return stop();
  bytes_ += bytes;
  list_.push_back(std::move(d));
}

}  // namespace nisa
