// nisa diff EXPECTED ACTUAL [--rtol R] [--atol A] (LANGUAGE.md section 1):
// compares two .npy files, or two folders of them by file name. Prints one
// report per file and returns 0 when all match, 1 when any differs; a file that
// cannot be read or parsed is an InputError (2), and nothing else is printed.
// Files are compared in chunks, so memory stays bounded whatever their size.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "commands.hpp"
#include "error.hpp"
#include "npy.hpp"
#include "tensor_compare.hpp"

namespace nisa {
namespace {

namespace fs = std::filesystem;

std::string number_text(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}

// Rows of cells as left-aligned columns, each line indented.
std::string table_text(const std::vector<std::vector<std::string>>& rows, const std::string& indent) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (widths.size() <= c) widths.push_back(0);
      widths[c] = std::max(widths[c], row[c].size());
    }
  std::string out;
  for (const auto& row : rows) {
    std::string line = indent;
    for (std::size_t c = 0; c < row.size(); ++c) {
      line += row[c];
      if (c + 1 < row.size()) line += std::string(widths[c] - row[c].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

std::string at_index(int64_t index, const std::vector<int64_t>& shape) {
  return index < 0 ? "" : " at " + index_text(index, shape);
}

// Compares two .npy files in bounded memory: the headers first, then the
// data in chunks of kChunkElements from each file (a Fortran-order file is
// read whole, to be put in C order).
constexpr std::size_t kChunkElements = std::size_t{1} << 20;  // at most 8 MiB of 8-byte elements

ArrayComparison compare_files(const std::string& expected_path, const std::string& actual_path, CompareTolerance tol,
                              NpyArray& expected_header) {
  NpyReader expected(expected_path);
  NpyReader actual(actual_path);
  expected_header = expected.header();
  if (expected.header().fortran_order || actual.header().fortran_order) {
    return compare_arrays(read_npy(expected_path), read_npy(actual_path), tol);
  }
  ArrayComparer comparer(expected.header(), actual.header(), tol);
  if (!comparer.compares_elements()) return comparer.result();
  // The sizes of the elements may differ (bf16 against float32).
  const std::size_t e_size = expected.header().type.size, a_size = actual.header().type.size;
  const auto count = static_cast<uint64_t>(expected.header().element_count());
  const auto chunk = static_cast<std::size_t>(std::min<uint64_t>(kChunkElements, count));
  std::vector<uint8_t> e(chunk * e_size), a(chunk * a_size);
  for (uint64_t done = 0; done < count;) {
    const auto n = static_cast<std::size_t>(std::min<uint64_t>(chunk, count - done));
    expected.read_data(e.data(), n * e_size);
    actual.read_data(a.data(), n * a_size);
    comparer.add(e.data(), a.data(), n);
    done += n;
  }
  if (expected.data_bytes() == 0) {  // a pipe must end after its header too
    expected.read_data(nullptr, 0);
    actual.read_data(nullptr, 0);
  }
  return comparer.result();
}

// Appends the report on one pair of files to `out`; returns whether they differ.
bool report_pair(const std::string& label, const std::string& expected_path, const std::string& actual_path,
                 CompareTolerance tol, std::string& out) {
  NpyArray expected;  // the header: type and shape
  const ArrayComparison c = compare_files(expected_path, actual_path, tol, expected);
  if (!c.whole_difference.empty()) {
    out += label + ": differs: " + c.whole_difference + " (expected vs actual)\n";
    return true;
  }
  const bool is_float = c.floats;
  const std::string errors = "max abs error " + number_text(c.max_abs_error) + at_index(c.max_abs_index, expected.shape) +
                             ", max rel error " + number_text(c.max_rel_error) + at_index(c.max_rel_index, expected.shape);
  const std::string elements = std::to_string(c.element_count) + " " + c.element_type + " elements";
  if (c.equal()) {
    out += label + ": match: " + elements + (is_float ? ", " + errors : "") + "\n";
    return false;
  }
  const std::string rule = is_float ? "outside rtol " + number_text(tol.rtol) + ", atol " + number_text(tol.atol)
                                    : "differ (compared exactly)";
  out += label + ": differs: " + std::to_string(c.mismatch_count) + " of " + elements + " " + rule + "\n";
  out += "    " + errors + "\n";
  std::vector<std::vector<std::string>> rows = {{"index", "expected", "actual", "abs error", "rel error"}};
  for (const ElementMismatch& m : c.first_mismatches)
    rows.push_back({index_text(m.flat_index, expected.shape), m.expected, m.actual, number_text(m.abs_error),
                    number_text(m.rel_error)});
  out += table_text(rows, "    ");
  if (c.mismatch_count > static_cast<int64_t>(c.first_mismatches.size()))
    out += "    ... and " + std::to_string(c.mismatch_count - static_cast<int64_t>(c.first_mismatches.size())) +
           " more\n";
  return true;
}

enum class PathKind { missing, file, folder };

PathKind kind_of(const std::string& path) {
  std::error_code ec;
  const fs::file_status s = fs::status(path, ec);
  if (ec || !fs::exists(s)) return PathKind::missing;
  return fs::is_directory(s) ? PathKind::folder : PathKind::file;
}

// Every entry named *.npy: one that is not a regular file (a dangling link, a
// FIFO, a folder) is an error, not a file that is absent (issue 15).
std::set<std::string> npy_names_in(const std::string& folder) {
  std::set<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    if (entry.path().extension() != ".npy") continue;
    const std::string path = entry.path().string();
    std::error_code status_ec;
    const fs::file_status status = fs::status(entry.path(), status_ec);
    if (status_ec) throw InputError(file_error(path, "cannot read: " + status_ec.message()));
    if (!fs::is_regular_file(status)) throw InputError(file_error(path, "cannot read: not a regular file"));
    names.insert(entry.path().filename().string());
  }
  if (ec) throw InputError(file_error(folder, "cannot list folder: " + ec.message()));
  return names;
}

std::string join(const std::string& folder, const std::string& name) { return (fs::path(folder) / name).string(); }

void check_tolerance(double value, const std::string& flag) {
  if (!(value >= 0) || std::isinf(value))
    throw InputError("nisa: error: " + flag + " must be a finite non-negative number");
}

}  // namespace

int command_diff(const DiffOptions& o) {
  check_tolerance(o.rtol, "--rtol");
  check_tolerance(o.atol, "--atol");
  const CompareTolerance tol{o.rtol, o.atol};
  const PathKind expected_kind = kind_of(o.expected);
  const PathKind actual_kind = kind_of(o.actual);
  if (expected_kind == PathKind::missing) throw InputError(file_error(o.expected, "cannot read: no such file or folder"));
  if (actual_kind == PathKind::missing) throw InputError(file_error(o.actual, "cannot read: no such file or folder"));
  if (expected_kind != actual_kind)
    throw InputError("nisa: error: cannot compare " + std::string(expected_kind == PathKind::folder ? "folder " : "file ") +
                     o.expected + " with " + (actual_kind == PathKind::folder ? "folder " : "file ") + o.actual);

  std::string report;
  bool differs = false;
  if (expected_kind == PathKind::file) {
    differs = report_pair(o.actual, o.expected, o.actual, tol, report);
  } else {
    const std::set<std::string> in_expected = npy_names_in(o.expected);
    const std::set<std::string> in_actual = npy_names_in(o.actual);
    std::set<std::string> all = in_expected;
    all.insert(in_actual.begin(), in_actual.end());
    int differing = 0;
    for (const std::string& name : all) {
      bool pair_differs = true;
      if (!in_actual.contains(name)) {
        report += name + ": differs: only in " + o.expected + " (not in " + o.actual + ")\n";
      } else if (!in_expected.contains(name)) {
        report += name + ": differs: only in " + o.actual + " (not in " + o.expected + ")\n";
      } else {
        pair_differs = report_pair(name, join(o.expected, name), join(o.actual, name), tol, report);
      }
      differing += pair_differs ? 1 : 0;
    }
    differs = differing > 0;
    if (all.empty()) report += "no .npy files in " + o.expected + " or " + o.actual + "\n";
    else if (differs) report += std::to_string(differing) + " of " + std::to_string(all.size()) + " files differ\n";
    else report += "all " + std::to_string(all.size()) + " files match\n";
  }
  std::cout << report;
  return differs ? kExitDiffer : kExitOk;
}

}  // namespace nisa
