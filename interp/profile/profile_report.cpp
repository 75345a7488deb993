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
// column c to the right (numbers; a column past `right` to the left).
std::string aligned(const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& right) {
  std::vector<std::size_t> width;
  for (const auto& row : rows) {
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::size_t pad = width[c] - row[c].size();
      const bool to_right = c < right.size() && right[c];
      if (c) line.append(2, ' ');
      if (to_right) line.append(pad, ' ');
      line += row[c];
      if (!to_right && c + 1 < row.size()) line.append(pad, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

// `row` with `cell` inserted at column `at` when `add` (the core column of a
// program for several cores).
template <class T>
std::vector<T> with_column(bool add, std::size_t at, T cell, std::vector<T> row) {
  if (add) row.insert(row.begin() + static_cast<std::ptrdiff_t>(at), std::move(cell));
  return row;
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

std::vector<CoreUse> core_use(const Timeline& tl) {
  std::vector<CoreUse> cores(static_cast<std::size_t>(tl.cores));
  for (const TimedInstruction& ti : tl.instructions) {
    CoreUse& core = cores[static_cast<std::size_t>(ti.core)];
    EngineUse& engine = core.engines[static_cast<int>(ti.engine)];
    ++engine.instructions;
    engine.cycles += ti.cycles;
    engine.busy_ns += ti.end_ns - ti.start_ns;
    ++core.instructions;
    core.end_ns = std::max(core.end_ns, ti.end_ns);
  }
  for (const TimedMeeting& m : tl.meetings)
    for (std::size_t k = 0; k < m.instructions.size(); ++k) {
      const TimedInstruction& ti = tl.instructions[m.instructions[k]];
      cores[static_cast<std::size_t>(ti.core)].waiting_ns += ti.start_ns - m.ready_ns[k];
    }
  return cores;
}

std::string profile_table(const Spec& spec, const Program& program, const Timeline& tl, std::size_t top) {
  const std::size_t n = tl.instructions.size();
  const double span_us = tl.span_ns / 1000.0;
  const bool several = tl.cores > 1;
  std::ostringstream out;
  out << "profile: " << program.file << " (" << spec.archs[static_cast<std::size_t>(program.arch)].name << "), ";
  if (several) out << tl.cores << " cores, ";
  out << n << " instructions";
  if (tl.loops) out << " run (" << tl.program_instructions << " in the program; S17.4: loop bodies once per iteration)";
  out << ", estimated " << fixed(span_us, 3) << " us\n"
      << "(SEMANTICS S6 estimates: each engine's cycles at its own clock; engines overlap, dependencies serialize";
  if (several)
    out << ";\n S16.4: each core has its own engines; cores wait for each other only at sendrecv and core_barrier,"
        << " estimated too";
  out << ")\n\n";

  const std::vector<CoreUse> cores = core_use(tl);
  // The engine table: one-core programs' has no core column.
  std::vector<std::vector<std::string>> rows = {with_column<std::string>(
      several, 0, "core", {"engine", "instructions", "busy cycles", "clock GHz", "busy us", "utilisation"})};
  for (std::size_t c = 0; c < cores.size(); ++c)
    for (int e = 0; e < kEngineCount; ++e) {
      const EngineUse& use = cores[c].engines[e];
      const double utilisation = tl.span_ns > 0 ? 100.0 * use.busy_ns / tl.span_ns : 0.0;
      rows.push_back(with_column<std::string>(
          several, 0, std::to_string(c),
          {std::string(engine_name(static_cast<Engine>(e))), std::to_string(use.instructions), fixed(use.cycles, 0),
           fixed(tl.clock_ghz[e], 2), fixed(use.busy_ns / 1000.0, 3), fixed(utilisation, 1) + "%"}));
    }
  rows.push_back(with_column<std::string>(several, 0, "", {"total", std::to_string(n), "", "", "", ""}));
  out << aligned(rows, with_column(several, 0, false, {false, true, true, true, true, true}));
  if (several) {
    std::vector<std::vector<std::string>> per_core = {{"core", "instructions", "ends at us", "waits at meetings us"}};
    for (std::size_t c = 0; c < cores.size(); ++c)
      per_core.push_back({std::to_string(c), std::to_string(cores[c].instructions), fixed(cores[c].end_ns / 1000.0, 3),
                          fixed(cores[c].waiting_ns / 1000.0, 3)});
    out << "\n" << aligned(per_core, {false, true, true, true});
  }
  out << "span (estimated total time): " << fixed(span_us, 3) << " us" << (several ? " (the slowest core's end)" : "") << "\n";

  // The costliest program instructions: each one's runs summed (a loop
  // body's instruction ran once per iteration, S17.4).
  const std::size_t positions = tl.program_instructions;
  std::vector<uint64_t> runs(positions, 0);
  std::vector<double> cycles(positions, 0), total_ns(positions, 0);
  std::vector<uint32_t> first(positions, UINT32_MAX);
  for (std::size_t k = 0; k < n; ++k) {
    const TimedInstruction& ti = tl.instructions[k];
    const uint32_t i = ti.position;
    if (runs[i]++ == 0) first[i] = static_cast<uint32_t>(k);
    cycles[i] += ti.cycles;
    // cycles / clock rather than end - start: equal costs compare equal, so ties keep program order.
    total_ns[i] += ti.cycles / tl.clock_ghz[static_cast<int>(ti.engine)];
  }
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < positions; ++i)
    if (runs[i] > 0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return total_ns[a] > total_ns[b]; });
  order.resize(std::min(top, order.size()));
  if (order.empty()) return out.str();
  const bool loops = tl.loops;  // a runs column: how many times each ran
  out << "\ntop " << order.size() << " instructions by estimated time" << (loops ? " (all their runs)" : "") << ":\n";
  std::vector<std::string> head = {"rank", "source", "engine", "instruction", "cycles", "us", "start us"};
  std::vector<bool> right = {true, false, false, false, true, true, true};
  if (loops) {
    head.insert(head.begin() + 4, "runs");
    right.insert(right.begin() + 4, true);
  }
  std::vector<std::vector<std::string>> top_rows = {with_column<std::string>(several, 1, "core", head)};
  for (std::size_t r = 0; r < order.size(); ++r) {
    const std::size_t i = order[r];
    const TimedInstruction& ti = tl.instructions[first[i]];
    std::vector<std::string> row = {std::to_string(r + 1), source(program, i), std::string(engine_name(ti.engine)),
                                    mnemonic(spec, program, i), fixed(cycles[i], 0), fixed(total_ns[i] / 1000.0, 3),
                                    fixed(ti.start_ns / 1000.0, 3)};
    if (loops) row.insert(row.begin() + 4, std::to_string(runs[i]));
    top_rows.push_back(with_column<std::string>(several, 1, std::to_string(ti.core), std::move(row)));
  }
  out << aligned(top_rows, with_column(several, 1, true, right));
  if (loops) out << "(runs: times it ran; cycles and us: of all its runs; start us: its first run's)\n";
  return out.str();
}

std::string trace_json(const Spec& spec, const Program& program, const Timeline& tl) {
  std::string out;
  out.reserve(256 + tl.instructions.size() * 200);
  auto put = [&out](std::initializer_list<std::string_view> parts) {
    for (std::string_view p : parts) out += p;
  };
  const bool several = tl.cores > 1;
  // A one-core program's trace is one process, pid 1, with tids 0..4: core 0's.
  auto pid = [](int core) { return std::to_string(core + 1); };
  auto tid = [](int core, int engine) { return std::to_string(core * kEngineCount + engine); };
  const std::string& arch = spec.archs[static_cast<std::size_t>(program.arch)].name;
  put({"{\"displayTimeUnit\":\"ns\",\"otherData\":{\"program\":"});
  json_string(out, program.file);
  put({",\"arch\":\"", arch, "\""});
  if (several) put({",\"cores\":", std::to_string(tl.cores)});
  put({",\"estimated_us\":", microseconds(picoseconds(tl.span_ns)),
       ",\"model\":\"SEMANTICS S6 cost estimates; each engine's cycles at its own clock",
       several ? "; S16.4: each core its own engines, cores meet at sendrecv and core_barrier" : "", "\"},\n\"traceEvents\":[\n"});
  for (int c = 0; c < tl.cores; ++c) {
    put({c ? ",\n" : "", "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":", pid(c), ",\"args\":{\"name\":"});
    json_string(out, several ? "core " + std::to_string(c) : "nisa " + program.file + " (" + arch + ", estimated)");
    put({"}}"});
    if (several)
      put({",\n{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":", pid(c), ",\"args\":{\"sort_index\":",
           std::to_string(c), "}}"});
    for (int e = 0; e < kEngineCount; ++e) {
      const std::string t = tid(c, e);
      put({",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":", pid(c), ",\"tid\":", t, ",\"args\":{\"name\":\"",
           engine_name(static_cast<Engine>(e)), " (", fixed(tl.clock_ghz[e], 2), " GHz)\"}}",
           ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":", pid(c), ",\"tid\":", t,
           ",\"args\":{\"sort_index\":", t, "}}"});
    }
  }
  // Each instruction of a meeting of several cores: its meeting.
  std::vector<const TimedMeeting*> meeting_of(tl.meetings.empty() ? 0 : tl.instructions.size(), nullptr);
  for (const TimedMeeting& m : tl.meetings)
    if (m.instructions.size() > 1)
      for (uint32_t i : m.instructions) meeting_of[i] = &m;
  std::size_t flow = 0;
  auto arrow = [&](const TimedInstruction& from, int64_t from_ts, const TimedInstruction& to, int64_t to_ts, std::string_view name) {
    const std::string id = std::to_string(++flow);
    put({",\n{\"name\":\"", name, "\",\"cat\":\"", name, "\",\"ph\":\"s\",\"id\":", id, ",\"pid\":", pid(from.core),
         ",\"tid\":", tid(from.core, static_cast<int>(from.engine)), ",\"ts\":", microseconds(from_ts), "}",
         ",\n{\"name\":\"", name, "\",\"cat\":\"", name, "\",\"ph\":\"f\",\"bp\":\"e\",\"id\":", id,
         ",\"pid\":", pid(to.core), ",\"tid\":", tid(to.core, static_cast<int>(to.engine)), ",\"ts\":", microseconds(to_ts), "}"});
  };
  for (std::size_t i = 0; i < tl.instructions.size(); ++i) {
    const TimedInstruction& ti = tl.instructions[i];
    const int64_t start = picoseconds(ti.start_ns), end = picoseconds(ti.end_ns);
    put({",\n{\"name\":"});
    json_string(out, mnemonic(spec, program, ti.position));
    put({",\"cat\":\"", engine_name(ti.engine), "\",\"ph\":\"X\",\"pid\":", pid(ti.core), ",\"tid\":",
         tid(ti.core, static_cast<int>(ti.engine)), ",\"ts\":", microseconds(start), ",\"dur\":", microseconds(end - start),
         ",\"args\":{\"index\":", std::to_string(ti.position), ",\"source\":"});
    json_string(out, source(program, ti.position));
    if (tl.loops) put({",\"run\":", std::to_string(i)});
    put({",\"cycles\":", fixed(ti.cycles, 0), ",\"deps\":["});
    for (std::size_t k = 0; k < ti.dependencies.size(); ++k) {
      const Dependency& d = ti.dependencies[k];
      put({k ? "," : "", "{\"index\":", std::to_string(tl.instructions[d.instruction].position)});
      if (tl.loops) put({",\"run\":", std::to_string(d.instruction)});
      put({",\"kind\":\"", kinds_text(d.kinds), "\"}"});
    }
    put({"]"});
    // A meeting (S16.4): the other cores' instructions and how long this one
    // waited for them.
    const TimedMeeting* m = meeting_of.empty() ? nullptr : meeting_of[i];
    if (m != nullptr) {
      put({",\"meets\":["});
      const char* comma = "";
      double ready = 0;
      for (std::size_t k = 0; k < m->instructions.size(); ++k) {
        if (m->instructions[k] == i) {
          ready = m->ready_ns[k];
          continue;
        }
        put({comma, std::to_string(tl.instructions[m->instructions[k]].position)});
        comma = ",";
      }
      put({"],\"waited_us\":", microseconds(start - picoseconds(ready))});
    }
    put({"}}"});
    // Arrows from each producer on another engine to this instruction.
    for (const Dependency& d : ti.dependencies) {
      const TimedInstruction& before = tl.instructions[d.instruction];
      if (before.engine == ti.engine) continue;
      arrow(before, picoseconds(before.start_ns), ti, start, "dependency");
    }
    // After a meeting's last slice: arrows from the last core to arrive to
    // each core that waited for it.
    if (m != nullptr && m->instructions.back() == i) {
      std::size_t last = 0;
      for (std::size_t k = 1; k < m->instructions.size(); ++k)
        if (m->ready_ns[k] > m->ready_ns[last]) last = k;
      const TimedInstruction& latest = tl.instructions[m->instructions[last]];
      for (std::size_t k = 0; k < m->instructions.size(); ++k)
        if (m->ready_ns[k] < m->ready_ns[last]) arrow(latest, start, tl.instructions[m->instructions[k]], start, "meeting");
    }
  }
  put({"\n]}\n"});
  return out;
}

}  // namespace nisa
