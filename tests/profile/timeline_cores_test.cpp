// The static timeline of a program for several cores (SEMANTICS S16.4):
// each core has its own five engines and its own dependencies; the cores
// wait for each other only at their meetings, whose instructions start
// when the last side is ready and end together. Times are hand-derived:
// trn3 runs every engine at 1.2 GHz; the cross-engine wait is FIXED = 100
// cycles (S6); a sendrecv costs CROSS_CORE_SYNC + FIXED + BYTES / 64 =
// 1560 + 100 + BYTES / 64 cycles and a core_barrier 1560 cycles of its
// engine (isa-spec cost section, estimates).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "assembler.hpp"
#include "profile_report.hpp"
#include "timeline.hpp"

using namespace nisa;

namespace {

Program assembled(const std::string& source) {
  AssembleResult r = assemble(active_spec(), source, "cores.nasm");
  REQUIRE_MESSAGE(r.diagnostics.empty(), (r.diagnostics.empty() ? "" : format_diagnostic(r.diagnostics[0])));
  return std::move(r.program);
}

Timeline timeline_of(const Program& program) { return build_timeline(active_spec(), program); }
Timeline timeline_of(const std::string& source) { return timeline_of(assembled(source)); }

bool depends(const Timeline& t, std::size_t later, std::size_t earlier, uint8_t kind = 0) {
  for (const Dependency& d : t.instructions[later].dependencies)
    if (d.instruction == earlier) return kind == 0 || (d.kinds & kind);
  return false;
}

constexpr double kNs = 1.0 / 1.2;    // one trn3 cycle, ns
constexpr double kWait = 100 * kNs;  // S6: a wait for another engine's result
constexpr double kSync = 1560;       // CROSS_CORE_SYNC cycles

// Core 0 is ready to exchange after 1 us, core 1 after 3 us; core 0 then
// reads what it received (r) and, on another engine, works on its own (u).
const char* kExchange = R"(
.arch trn3
.cores 2
.core 0
.sbuf t f32 [128, 1200]
.sbuf r f32 [128, 1200]
.sbuf u f32 [128, 1200]
memset dst=t, value=1
sendrecv src=t, dst=r, send_to_rank=1, recv_from_rank=1, pipe_id=0
activation dst=u, op=exp, data=u
tensor_scalar dst=u, data=r, op0=add, operand0=1.0
.core 1
.sbuf t f32 [128, 1200]
.sbuf r f32 [128, 1200]
memset dst=t, value=2
memset dst=t, value=3
memset dst=t, value=4
sendrecv src=t, dst=r, send_to_rank=0, recv_from_rank=0, pipe_id=0
)";

// The whitespace-separated words of each line of `text`.
std::vector<std::vector<std::string>> words_of_lines(const std::string& text) {
  std::vector<std::vector<std::string>> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    out.push_back(words);
  }
  return out;
}

bool has_line(const std::string& text, const std::vector<std::string>& words) {
  for (const auto& line : words_of_lines(text))
    if (line == words) return true;
  return false;
}

}  // namespace

TEST_CASE("two cores with independent work run side by side: the span is the longer core's, not the sum") {
  // The same SBUF name and address on both cores: each core's own SBUF (S16.1), so no dependency.
  const Timeline t = timeline_of(R"(
.arch trn3
.cores 2
.core 0
.sbuf a f32 [128, 1200]
memset dst=a, value=1
.core 1
.sbuf a f32 [128, 1200]
memset dst=a, value=2
memset dst=a, value=3
memset dst=a, value=4
)");
  REQUIRE(t.instructions.size() == 4);
  CHECK(t.cores == 2);
  CHECK(t.instructions[0].core == 0);
  CHECK(t.instructions[1].core == 1);
  CHECK(t.instructions[0].start_ns == 0);
  CHECK(t.instructions[0].end_ns == doctest::Approx(1000));  // 1200 Vector cycles
  CHECK(t.instructions[1].start_ns == 0);                    // core 1's Vector Engine is its own
  CHECK(t.instructions[1].dependencies.empty());
  CHECK(t.instructions[3].start_ns == doctest::Approx(2000));
  CHECK(t.span_ns == doctest::Approx(3000));
  CHECK(t.meetings.empty());
}

TEST_CASE("sendrecv: the core that arrives first waits for the other; both end together") {
  const Timeline t = timeline_of(kExchange);
  REQUIRE(t.instructions.size() == 8);
  const double ready0 = 1000 + kWait;  // memset, then the DMA queue waits for the Vector result
  const double ready1 = 3000 + kWait;
  const double cost = (kSync + 100 + 128 * 1200 * 4 / 64) * kNs;  // 11260 DMA cycles
  CHECK(t.instructions[1].cycles == kSync + 100 + 9600);
  CHECK(t.instructions[1].start_ns == doctest::Approx(ready1));
  CHECK(t.instructions[7].start_ns == doctest::Approx(ready1));
  CHECK(t.instructions[1].end_ns == doctest::Approx(ready1 + cost));
  CHECK(t.instructions[7].end_ns == doctest::Approx(ready1 + cost));
  REQUIRE(t.meetings.size() == 1);
  CHECK(t.meetings[0].instructions == std::vector<uint32_t>{1, 7});
  CHECK(t.meetings[0].ready_ns[0] == doctest::Approx(ready0));
  CHECK(t.meetings[0].ready_ns[1] == doctest::Approx(ready1));
  // Other engines of core 0 go on: the activation does not wait for the exchange.
  CHECK(t.instructions[2].start_ns == 0);
  // What reads the received tile waits for the exchange's end (+ the wait of Vector for DMA).
  CHECK(depends(t, 3, 1, dependency_raw));
  CHECK(t.instructions[3].start_ns == doctest::Approx(ready1 + cost + kWait));
  CHECK(t.span_ns == doctest::Approx(ready1 + cost + kWait + 1000));
  const std::vector<CoreUse> use = core_use(t);
  REQUIRE(use.size() == 2);
  CHECK(use[0].waiting_ns == doctest::Approx(ready1 - ready0));  // 2 us
  CHECK(use[1].waiting_ns == 0);
  CHECK(use[0].instructions == 4);
  CHECK(use[1].engines[static_cast<int>(Engine::vector)].instructions == 3);
  CHECK(use[0].end_ns == doctest::Approx(t.span_ns));
  CHECK(use[1].end_ns == doctest::Approx(ready1 + cost));
}

TEST_CASE("core_barrier: every core waits for the last; what follows on a core and touches data waits for the barrier") {
  const Timeline t = timeline_of(R"(
.arch trn3
.cores 2
.hbm x f32 [128, 1200] input = 0
.hbm y f32 [128, 1200] output
.core 0
.sbuf t f32 [128, 1200]
.sbuf u f32 [128, 1200]
dma_copy dst=y[0:64], src=x[0:64]
core_barrier data=y, cores=[0, 1]
dma_copy dst=t, src=y
memset dst=u, value=0
.core 1
.sbuf t f32 [128, 1200]
memset dst=t, value=1
memset dst=t, value=2
memset dst=t, value=3
memset dst=t, value=4
memset dst=t, value=5
dma_copy dst=y[64:128], src=t[64:128]
core_barrier data=y, cores=[0, 1]
)");
  REQUIRE(t.instructions.size() == 11);
  const double half = (100 + 64 * 1200 * 4 / 64) * kNs;  // a DMA of 64 rows: 4900 cycles
  const double ready0 = half + kWait;                   // GpSimd waits for core 0's write of y
  const double ready1 = 5000 + kWait + half + kWait;    // five memsets, the DMA, then the barrier
  const double barrier = kSync * kNs;                   // 1.3 us on GpSimd
  CHECK(t.instructions[1].engine == Engine::gpsimd);    // core_barrier's engine= default (S16.3)
  CHECK(depends(t, 1, 0));
  REQUIRE(t.meetings.size() == 1);
  CHECK(t.meetings[0].instructions == std::vector<uint32_t>{1, 10});
  CHECK(t.meetings[0].ready_ns[0] == doctest::Approx(ready0));
  CHECK(t.meetings[0].ready_ns[1] == doctest::Approx(ready1));
  CHECK(t.instructions[1].start_ns == doctest::Approx(ready1));
  CHECK(t.instructions[10].start_ns == doctest::Approx(ready1));
  CHECK(t.instructions[1].end_ns == doctest::Approx(ready1 + barrier));
  CHECK(t.instructions[10].end_ns == doctest::Approx(ready1 + barrier));
  // Core 0 reads y (core 1's half too) only after the barrier: DMA waits for GpSimd.
  CHECK(depends(t, 2, 1, dependency_raw));
  CHECK(t.instructions[2].start_ns == doctest::Approx(ready1 + barrier + kWait));
  // Only the barrier's engine waits (NKI 0.6): core 0's Vector Engine goes on.
  CHECK(t.instructions[3].start_ns == 0);
  CHECK(core_use(t)[0].waiting_ns == doctest::Approx(ready1 - ready0));
}

TEST_CASE("a meeting's sides end together after the longest cost (engines at different clocks)") {
  // trn2: core 0 waits on its Vector Engine (0.96 GHz), core 1 on GpSimd (1.2 GHz).
  const Timeline t = timeline_of(R"(
.arch trn2
.cores 2
.hbm y f32 [128, 8] output
.core 0
core_barrier data=y, cores=[0, 1], engine=vector
.core 1
core_barrier data=y, cores=[0, 1]
)");
  REQUIRE(t.instructions.size() == 2);
  CHECK(t.instructions[0].engine == Engine::vector);
  CHECK(t.instructions[1].engine == Engine::gpsimd);
  CHECK(t.instructions[0].cycles == kSync);
  CHECK(t.instructions[1].cycles == kSync);
  CHECK(t.instructions[0].end_ns == doctest::Approx(1560 / 0.96));  // 1625 ns, the longer
  CHECK(t.instructions[1].end_ns == doctest::Approx(1560 / 0.96));
}

TEST_CASE("a barrier of one core (cores=[0, 1] in a one-core program) waits for no one") {
  const Timeline t = timeline_of(R"(
.arch trn3
.hbm y f32 [128, 8] output
.sbuf a f32 [128, 1200]
memset dst=a, value=1
core_barrier data=y, cores=[0, 1]
dma_copy dst=y, src=a[:, 0:8]
)");
  CHECK(t.cores == 1);
  CHECK(t.instructions[1].start_ns == 0);  // nothing it depends on; GpSimd is free
  CHECK(t.instructions[1].end_ns == doctest::Approx(kSync * kNs));
  CHECK(depends(t, 2, 1));  // the DMA writes y after the barrier (S16.4: the barrier counts as writing data)
  CHECK(t.instructions[2].start_ns == doctest::Approx(std::max(1000.0, kSync * kNs) + kWait));
}

TEST_CASE("cores without meetings: each core's times are those of its instructions alone") {
  // Random straight-line work on each core; the same work as a one-core program gives the same times.
  std::mt19937 rng(20261127);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const std::string decls = R"(
.sbuf A f32 [128, 64] @ 0
.sbuf B f32 [128, 64] @ 256
.psum Q f32 [128, 64] @ 0
)";
  auto body = [&](int count) {
    std::ostringstream s;
    const char* tiles[] = {"A", "B", "Q"};
    for (int i = 0; i < count; ++i) {
      const int p0 = 32 * pick(4), c0 = pick(48);
      auto tile = [&](int kinds = 3) {  // kinds 2: SBUF only (dma_copy)
        std::ostringstream v;
        v << tiles[pick(kinds)] << "[" << p0 << ":" << p0 + 32 << ", " << c0 << ":" << c0 + 16 << "]";
        return v.str();
      };
      switch (pick(4)) {
        case 0: s << "memset dst=" << tile() << ", value=1\n"; break;
        case 1: s << "tensor_tensor dst=" << tile() << ", data1=" << tile() << ", data2=" << tile() << ", op=add\n"; break;
        case 2: s << "activation dst=" << tile() << ", op=exp, data=" << tile() << "\n"; break;
        default: s << "dma_copy dst=" << tile(2) << ", src=" << tile(2) << "\n"; break;
      }
    }
    return s.str();
  };
  const std::string work0 = body(400), work1 = body(300);
  const Timeline both = timeline_of(".arch trn2\n.cores 2\n.core 0\n" + decls + work0 + ".core 1\n" + decls + work1);
  const Timeline alone0 = timeline_of(".arch trn2\n" + decls + work0);
  const Timeline alone1 = timeline_of(".arch trn2\n" + decls + work1);
  REQUIRE(both.instructions.size() == 700);
  for (std::size_t i = 0; i < 700; ++i) {
    CAPTURE(i);
    const TimedInstruction& alone = i < 400 ? alone0.instructions[i] : alone1.instructions[i - 400];
    CHECK(both.instructions[i].core == (i < 400 ? 0 : 1));
    CHECK(both.instructions[i].start_ns == alone.start_ns);
    CHECK(both.instructions[i].end_ns == alone.end_ns);
    REQUIRE(both.instructions[i].dependencies.size() == alone.dependencies.size());
    for (std::size_t k = 0; k < alone.dependencies.size(); ++k)
      CHECK(both.instructions[i].dependencies[k].instruction == alone.dependencies[k].instruction + (i < 400 ? 0 : 400));
  }
  CHECK(both.span_ns == std::max(alone0.span_ns, alone1.span_ns));
}

TEST_CASE("trace: one process per core (pid core + 1, named \"core K\"), its engines as threads") {
  const Program program = assembled(kExchange);
  const Timeline t = timeline_of(program);
  const nlohmann::json trace = nlohmann::json::parse(trace_json(active_spec(), program, t));
  CHECK(trace["otherData"]["cores"] == 2);
  std::map<int, std::string> processes;
  std::map<std::pair<int, int>, std::string> threads;
  std::vector<nlohmann::json> slices;
  std::vector<nlohmann::json> meeting_arrows;
  for (const nlohmann::json& e : trace["traceEvents"]) {
    if (e["name"] == "process_name") processes[e["pid"].get<int>()] = e["args"]["name"];
    if (e["name"] == "thread_name") threads[{e["pid"].get<int>(), e["tid"].get<int>()}] = e["args"]["name"];
    if (e["ph"] == "X") slices.push_back(e);
    if (e["name"] == "meeting") meeting_arrows.push_back(e);
  }
  CHECK(processes == std::map<int, std::string>{{1, "core 0"}, {2, "core 1"}});
  REQUIRE(threads.size() == 10);  // five engines per core, thread ids unique across cores
  CHECK(threads[{1, 1}] == "vector (1.20 GHz)");
  CHECK(threads[{2, 6}] == "vector (1.20 GHz)");
  CHECK(threads[{2, 9}] == "dma (1.20 GHz)");
  REQUIRE(slices.size() == 8);
  for (const nlohmann::json& s : slices) {
    const int index = s["args"]["index"];
    CAPTURE(index);
    const int core = index < 4 ? 0 : 1;
    CHECK(s["pid"] == core + 1);
    CHECK(s["tid"] == core * 5 + static_cast<int>(t.instructions[static_cast<std::size_t>(index)].engine));
  }
  // The exchange: each side names the other and how long it waited (core 0: 2 us).
  CHECK(slices[1]["args"]["meets"] == nlohmann::json::array({7}));
  CHECK(slices[1]["args"]["waited_us"].get<double>() == doctest::Approx(2.0));
  CHECK(slices[7]["args"]["meets"] == nlohmann::json::array({1}));
  CHECK(slices[7]["args"]["waited_us"].get<double>() == 0);
  CHECK(!slices[0]["args"].contains("meets"));
  // One arrow, from core 1 (the last to arrive) to core 0, at the exchange's start.
  REQUIRE(meeting_arrows.size() == 2);
  CHECK(meeting_arrows[0]["ph"] == "s");
  CHECK(meeting_arrows[0]["pid"] == 2);
  CHECK(meeting_arrows[0]["tid"] == 9);
  CHECK(meeting_arrows[1]["ph"] == "f");
  CHECK(meeting_arrows[1]["pid"] == 1);
  CHECK(meeting_arrows[1]["tid"] == 4);
  CHECK(meeting_arrows[1]["ts"] == slices[1]["ts"]);
}

TEST_CASE("trace of a one-core program: one process, pid 1, named after the program; no core fields") {
  const Program program = assembled(R"(
.arch trn3
.sbuf a f32 [128, 64]
memset dst=a, value=1
)");
  const nlohmann::json trace = nlohmann::json::parse(trace_json(active_spec(), program, timeline_of(program)));
  CHECK(!trace["otherData"].contains("cores"));
  int processes = 0;
  for (const nlohmann::json& e : trace["traceEvents"]) {
    if (e["name"] == "process_name") {
      ++processes;
      CHECK(e["args"]["name"] == "nisa cores.nasm (trn3, estimated)");
    }
    CHECK(e["name"] != "process_sort_index");
    if (e.contains("pid")) CHECK(e["pid"] == 1);
  }
  CHECK(processes == 1);
}

TEST_CASE("--profile table: engine rows per core, each core's end and waiting, the slowest core's span") {
  const Program program = assembled(kExchange);
  const std::string table = profile_table(active_spec(), program, timeline_of(program));
  CAPTURE(table);
  // span: core 0 reads r after the exchange (3.083 + 9.383 + 0.083 us) and takes 1 us.
  CHECK(table.find("profile: cores.nasm (trn3), 2 cores, 8 instructions, estimated 13.550 us\n") == 0);
  CHECK(has_line(table, {"core", "engine", "instructions", "busy", "cycles", "clock", "GHz", "busy", "us", "utilisation"}));
  CHECK(has_line(table, {"0", "vector", "2", "2400", "1.20", "2.000", "14.8%"}));
  CHECK(has_line(table, {"0", "dma", "1", "11260", "1.20", "9.383", "69.2%"}));
  CHECK(has_line(table, {"1", "vector", "3", "3600", "1.20", "3.000", "22.1%"}));
  CHECK(has_line(table, {"total", "8"}));
  CHECK(has_line(table, {"core", "instructions", "ends", "at", "us", "waits", "at", "meetings", "us"}));
  CHECK(has_line(table, {"0", "4", "13.550", "2.000"}));
  CHECK(has_line(table, {"1", "4", "12.467", "0.000"}));
  CHECK(has_line(table, {"span", "(estimated", "total", "time):", "13.550", "us", "(the", "slowest", "core's", "end)"}));
  CHECK(has_line(table, {"1", "0", "cores.nasm:9", "dma", "sendrecv", "11260", "9.383", "3.083"}));
  CHECK(has_line(table, {"2", "1", "cores.nasm:18", "dma", "sendrecv", "11260", "9.383", "3.083"}));
}

TEST_CASE("two cores of 50k instructions each, meeting every 10: the timeline stays about linear") {
  std::ostringstream s;
  s << ".arch trn2\n.cores 2\n.hbm x f32 [128, 4096] input = 0\n.hbm y f32 [128, 4096] output\n";
  for (int core = 0; core < 2; ++core) {
    s << ".core " << core << R"(
.sbuf t f32 [128, 4096]
.sbuf u f32 [128, 4096]
.sbuf r f32 [128, 64]
.rept i, 5000
dma_copy dst=t[:, (i % 64) * 64:(i % 64) * 64 + 64], src=x[:, (i % 64) * 64:(i % 64) * 64 + 64]
activation dst=u[:, (i % 64) * 64:(i % 64) * 64 + 64], op=exp, data=t[:, (i % 64) * 64:(i % 64) * 64 + 64]
tensor_scalar dst=u[:, (i % 64) * 64:(i % 64) * 64 + 64], data=u[:, (i % 64) * 64:(i % 64) * 64 + 64], op0=multiply, operand0=2.0
sendrecv src=u[:, (i % 64) * 64:(i % 64) * 64 + 64], dst=r, send_to_rank=)"
      << 1 - core << ", recv_from_rank=" << 1 - core << R"(, pipe_id=0
tensor_tensor dst=u[:, (i % 64) * 64:(i % 64) * 64 + 64], data1=u[:, (i % 64) * 64:(i % 64) * 64 + 64], data2=r, op=add
iota dst=t[:, (i % 64) * 64:(i % 64) * 64 + 64], base=i, partition_step=1, free_step=0
memset dst=r, value=0
tensor_reduce dst=r[:, 0:1], data=u[:, (i % 64) * 64:(i % 64) * 64 + 64], op=maximum
dma_copy dst=y[)" << core * 64 << ":" << core * 64 + 64 << R"(, (i % 64) * 64:(i % 64) * 64 + 64], src=u[0:64, (i % 64) * 64:(i % 64) * 64 + 64]
core_barrier data=y, cores=[0, 1]
.endr
)";
  }
  const Program program = assembled(s.str());
  REQUIRE(program.instructions.size() == 100000);
  const auto t0 = std::chrono::steady_clock::now();
  const Timeline t = timeline_of(program);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::size_t deps = 0;
  for (const TimedInstruction& ti : t.instructions) deps += ti.dependencies.size();
  MESSAGE("build_timeline of 2 cores x 50000 instructions, 10000 meetings: ", seconds, " s, ", deps, " dependencies");
  CHECK(t.meetings.size() == 10000);
  CHECK(deps < 6 * program.instructions.size());
  CHECK(seconds < 20);  // generous for sanitizer builds; Release takes well under 1 s
  // The cores are symmetric: every meeting's sides were ready at the same time.
  for (const TimedMeeting& m : t.meetings) REQUIRE(m.ready_ns[0] == m.ready_ns[1]);
}
