#include "profile_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string_view>
#include <numeric>
#include <sstream>
#include <vector>

namespace nisa {

namespace {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string mnemonic(const Spec& spec, const Program& program, std::size_t i) {
  return spec.instructions[static_cast<std::size_t>(program.instructions[i].spec_index)].name;
}

std::string source(const Program& program, std::size_t i) {
  return program.file + ":" + std::to_string(program.instructions[i].line);
}

// Rows of cells, columns padded to their widest cell; `right[c]` aligns
// column c to the right (numbers).
std::string aligned(const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& right) {
  std::vector<std::size_t> width(right.size(), 0);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::size_t pad = width[c] - row[c].size();
      if (c) line.append(2, ' ');
      if (right[c]) line.append(pad, ' ');
      line += row[c];
      if (!right[c] && c + 1 < row.size()) line.append(pad, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

void json_string(std::string& out, std::string_view s) {
  out += '"';
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  out += '"';
}

// Microseconds from ns, rounded to the picosecond and printed exactly, so
// that rounding keeps the order of times (a start never precedes the end it
// waited for).
int64_t picoseconds(double ns) { return std::llround(ns * 1000.0); }
std::string microseconds(int64_t ps) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%lld.%06lld", static_cast<long long>(ps / 1000000), static_cast<long long>(ps % 1000000));
  return buf;
}

std::string kinds_text(uint8_t kinds) {
  std::string s;
  for (auto [bit, name] : {std::pair{dependency_raw, "RAW"}, {dependency_war, "WAR"}, {dependency_waw, "WAW"},
                           {dependency_accumulator, "accumulator"}})
    if (kinds & bit) {
      if (!s.empty()) s += '+';
      s += name;
    }
  return s;
}

}  // namespace

std::string profile_table(const Spec& spec, const Program& program, const Timeline& tl, std::size_t top) {
  const std::size_t n = tl.instructions.size();
  const double span_us = tl.span_ns / 1000.0;
  std::ostringstream out;
  out << "profile: " << program.file << " (" << spec.archs[static_cast<std::size_t>(program.arch)].name << "), " << n
      << " instructions, estimated " << fixed(span_us, 3) << " us\n"
      << "(SEMANTICS S6 estimates: each engine's cycles at its own clock; engines overlap, dependencies serialize)\n\n";

  std::vector<std::vector<std::string>> rows = {{"engine", "instructions", "busy cycles", "clock GHz", "busy us", "utilisation"}};
  std::size_t total_count = 0;
  for (int e = 0; e < kEngineCount; ++e) {
    std::size_t count = 0;
    double cycles = 0, busy_ns = 0;
    for (const TimedInstruction& ti : tl.instructions)
      if (static_cast<int>(ti.engine) == e) {
        ++count;
        cycles += ti.cycles;
        busy_ns += ti.end_ns - ti.start_ns;
      }
    total_count += count;
    const double utilisation = tl.span_ns > 0 ? 100.0 * busy_ns / tl.span_ns : 0.0;
    rows.push_back({std::string(engine_name(static_cast<Engine>(e))), std::to_string(count), fixed(cycles, 0),
                    fixed(tl.clock_ghz[e], 2), fixed(busy_ns / 1000.0, 3), fixed(utilisation, 1) + "%"});
  }
  rows.push_back({"total", std::to_string(total_count), "", "", "", ""});
  out << aligned(rows, {false, true, true, true, true, true});
  out << "span (estimated total time): " << fixed(span_us, 3) << " us\n";

  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  // cycles / clock rather than end - start: equal costs compare equal, so ties keep program order.
  auto duration = [&](std::size_t i) {
    return tl.instructions[i].cycles / tl.clock_ghz[static_cast<int>(tl.instructions[i].engine)];
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return duration(a) > duration(b); });
  order.resize(std::min(top, n));
  if (order.empty()) return out.str();
  out << "\ntop " << order.size() << " instructions by estimated time:\n";
  std::vector<std::vector<std::string>> top_rows = {{"rank", "source", "engine", "instruction", "cycles", "us", "start us"}};
  for (std::size_t r = 0; r < order.size(); ++r) {
    const std::size_t i = order[r];
    const TimedInstruction& ti = tl.instructions[i];
    top_rows.push_back({std::to_string(r + 1), source(program, i), std::string(engine_name(ti.engine)), mnemonic(spec, program, i),
                        fixed(ti.cycles, 0), fixed(duration(i) / 1000.0, 3), fixed(ti.start_ns / 1000.0, 3)});
  }
  out << aligned(top_rows, {true, false, false, false, true, true, true});
  return out.str();
}

std::string trace_json(const Spec& spec, const Program& program, const Timeline& tl) {
  std::string out;
  out.reserve(256 + tl.instructions.size() * 200);
  auto put = [&out](std::initializer_list<std::string_view> parts) {
    for (std::string_view p : parts) out += p;
  };
  const std::string& arch = spec.archs[static_cast<std::size_t>(program.arch)].name;
  put({"{\"displayTimeUnit\":\"ns\",\"otherData\":{\"program\":"});
  json_string(out, program.file);
  put({",\"arch\":\"", arch, "\",\"estimated_us\":", microseconds(picoseconds(tl.span_ns)),
       ",\"model\":\"SEMANTICS S6 cost estimates; each engine's cycles at its own clock\"},\n\"traceEvents\":[\n",
       "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":"});
  json_string(out, "nisa " + program.file + " (" + arch + ", estimated)");
  put({"}}"});
  for (int e = 0; e < kEngineCount; ++e) {
    const std::string tid = std::to_string(e);
    put({",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":", tid, ",\"args\":{\"name\":\"",
         engine_name(static_cast<Engine>(e)), " (", fixed(tl.clock_ghz[e], 2), " GHz)\"}}",
         ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":", tid, ",\"args\":{\"sort_index\":", tid, "}}"});
  }
  std::size_t flow = 0;
  for (std::size_t i = 0; i < tl.instructions.size(); ++i) {
    const TimedInstruction& ti = tl.instructions[i];
    const int64_t start = picoseconds(ti.start_ns), end = picoseconds(ti.end_ns);
    const std::string tid = std::to_string(static_cast<int>(ti.engine));
    put({",\n{\"name\":"});
    json_string(out, mnemonic(spec, program, i));
    put({",\"cat\":\"", engine_name(ti.engine), "\",\"ph\":\"X\",\"pid\":1,\"tid\":", tid, ",\"ts\":", microseconds(start),
         ",\"dur\":", microseconds(end - start), ",\"args\":{\"index\":", std::to_string(i), ",\"source\":"});
    json_string(out, source(program, i));
    put({",\"cycles\":", fixed(ti.cycles, 0), ",\"deps\":["});
    for (std::size_t k = 0; k < ti.dependencies.size(); ++k) {
      const Dependency& d = ti.dependencies[k];
      put({k ? "," : "", "{\"index\":", std::to_string(d.instruction), ",\"kind\":\"", kinds_text(d.kinds), "\"}"});
    }
    put({"]}}"});
    // Arrows from each producer on another engine to this instruction.
    for (const Dependency& d : ti.dependencies) {
      const TimedInstruction& before = tl.instructions[d.instruction];
      if (before.engine == ti.engine) continue;
      const std::string id = std::to_string(++flow);
      put({",\n{\"name\":\"dependency\",\"cat\":\"dependency\",\"ph\":\"s\",\"id\":", id, ",\"pid\":1,\"tid\":",
           std::to_string(static_cast<int>(before.engine)), ",\"ts\":", microseconds(picoseconds(before.start_ns)), "}",
           ",\n{\"name\":\"dependency\",\"cat\":\"dependency\",\"ph\":\"f\",\"bp\":\"e\",\"id\":", id,
           ",\"pid\":1,\"tid\":", tid, ",\"ts\":", microseconds(start), "}"});
    }
  }
  put({"\n]}\n"});
  return out;
}

}  // namespace nisa
