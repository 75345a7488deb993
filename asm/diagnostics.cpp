#include "diagnostics.hpp"

#include <algorithm>

namespace nisa {

std::string format_diagnostic(const Diagnostic& d) {
  if (d.line <= 0) return d.file + ": error: " + d.message + "\n";
  std::string out = d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": error: " + d.message + "\n";
  out += d.source_line + "\n";
  // Tabs stay tabs so the caret lines up under the same character.
  std::string pad;
  for (int i = 0; i + 1 < d.column; ++i)
    pad += (static_cast<std::size_t>(i) < d.source_line.size() && d.source_line[static_cast<std::size_t>(i)] == '\t') ? '\t' : ' ';
  out += pad + "^\n";
  return out;
}

namespace {

// Optimal string alignment distance (Levenshtein plus adjacent transposition).
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string closest_name(std::string_view name, const std::vector<std::string>& candidates) {
  // A third of the name's length (at least one edit) still reads as a typo.
  std::size_t limit = std::max<std::size_t>(1, (name.size() + 2) / 3);
  std::string best;
  std::size_t best_distance = limit + 1;
  for (const auto& c : candidates) {
    // The distance is at least the difference in length: skip hopeless
    // candidates without the quadratic table (a 1 MB name took seconds).
    if (std::max(name.size(), c.size()) - std::min(name.size(), c.size()) > limit) continue;
    std::size_t dist = edit_distance(name, c);
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

void DiagnosticList::error(int line, int column, std::string message) {
  if (full_) return;
  Diagnostic d{file_, line, column, std::move(message),
               line >= 1 && static_cast<std::size_t>(line) <= lines_.size() ? std::string(lines_[static_cast<std::size_t>(line - 1)]) : ""};
  // A .rept body repeats its errors once per iteration: report each once.
  for (const auto& e : list_)
    if (e.line == d.line && e.column == d.column && e.message == d.message) return;
  if (list_.size() == kMaxErrors) {
    list_.push_back(Diagnostic{file_, 0, 0, "too many errors, stopped after " + std::to_string(kMaxErrors), ""});
    full_ = true;
    return;
  }
  list_.push_back(std::move(d));
}

}  // namespace nisa
