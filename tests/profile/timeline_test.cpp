// The static timeline (SEMANTICS S6): engines overlap, each runs in program
// order, dependencies (RAW, WAR, WAW on overlapping partitions x bytes, and the
// accumulator lanes of S3) serialize, and a wait for another engine costs the
// spec's cross_engine_wait (FIXED = 100 cycles of the waiting engine). Times
// below are hand-derived: trn3 runs every engine at 1.2 GHz (S6), trn2's
// Vector Engine at 0.96 GHz.
#include <doctest/doctest.h>

#include <array>
#include <chrono>
#include <random>
#include <sstream>
#include <string>

#include "assembler.hpp"
#include "cost_model.hpp"
#include "timeline.hpp"

using namespace nisa;

namespace {

Program assembled(const std::string& source) {
  AssembleResult r = assemble(active_spec(), source, "timeline.nasm");
  REQUIRE_MESSAGE(r.diagnostics.empty(), (r.diagnostics.empty() ? "" : format_diagnostic(r.diagnostics[0])));
  return std::move(r.program);
}

Timeline timeline_of(const std::string& source) { return build_timeline(active_spec(), assembled(source)); }

bool depends(const Timeline& t, std::size_t later, std::size_t earlier, uint8_t kind = 0) {
  for (const Dependency& d : t.instructions[later].dependencies)
    if (d.instruction == earlier) return kind == 0 || (d.kinds & kind);
  return false;
}

const char* kTrn3 = R"(
.arch trn3
.hbm  x  f32 [128, 1200] input = 0
.hbm  y  f32 [128, 1200] output
.sbuf a  f32 [128, 1200]
.sbuf b  f32 [128, 1200]
.sbuf c  f32 [128, 1200]
.sbuf lo f32 [128, 1]
.sbuf hi f32 [128, 1]
.sbuf r  f32 [128, 1]
)";

constexpr double kNs = 1.0 / 1.2;     // one trn3 cycle, ns
constexpr double kWait = 100 * kNs;   // S6 fixed overhead of a dependent instruction

}  // namespace

TEST_CASE("independent instructions on different engines overlap") {
  const Timeline t = timeline_of(std::string(kTrn3) + R"(
memset dst=a, value=1
iota dst=b, base=0, partition_step=1, free_step=1
activation dst=c, op=exp, data=c
dma_copy dst=y, src=x
)");
  for (std::size_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(t.instructions[i].start_ns == 0);
    CHECK(t.instructions[i].dependencies.empty());
  }
  CHECK(t.instructions[0].end_ns == doctest::Approx(1200 * kNs));                // max(64, N)
  CHECK(t.instructions[1].end_ns == doctest::Approx((150 + 1200) * kNs));        // GpSimd start-up + N
  CHECK(t.instructions[3].end_ns == doctest::Approx((100 + 128 * 1200 * 4 / 64) * kNs));
  CHECK(t.span_ns == doctest::Approx((100 + 9600) * kNs));
}

TEST_CASE("same engine: program order, no dependency") {
  const Timeline t = timeline_of(std::string(kTrn3) + R"(
memset dst=a, value=1
memset dst=b, value=2
tensor_scalar dst=c, data=c, op0=add, operand0=1.0
)");
  CHECK(t.instructions[1].start_ns == doctest::Approx(1200 * kNs));
  CHECK(t.instructions[2].start_ns == doctest::Approx(2400 * kNs));
  for (std::size_t i = 0; i < 3; ++i) CHECK(t.instructions[i].dependencies.empty());
}

TEST_CASE("RAW across engines serializes, with the cross-engine wait") {
  const Timeline t = timeline_of(std::string(kTrn3) + R"(
dma_copy dst=a, src=x
activation dst=b, op=exp, data=a
tensor_scalar dst=c, data=b, op0=add, operand0=1.0
dma_copy dst=y, src=c
)");
  const double dma = (100 + 9600) * kNs;
  CHECK(depends(t, 1, 0, dependency_raw));
  CHECK(t.instructions[1].start_ns == doctest::Approx(dma + kWait));
  CHECK(depends(t, 2, 1, dependency_raw));
  CHECK(t.instructions[2].start_ns == doctest::Approx(dma + kWait + 1200 * kNs + kWait));
  CHECK(depends(t, 3, 2, dependency_raw));
  CHECK(t.instructions[3].start_ns == doctest::Approx(dma + 3 * kWait + 2400 * kNs));
}

TEST_CASE("the wait is counted in the waiting engine's cycles (trn2: Vector 0.96 GHz)") {
  const Timeline t = timeline_of(R"(
.arch trn2
.sbuf a f32 [128, 960]
.sbuf b f32 [128, 960]
activation dst=a, op=exp, data=a
tensor_scalar dst=b, data=a, op0=add, operand0=1.0
)");
  CHECK(t.instructions[0].end_ns == doctest::Approx(960 / 1.2));                 // Scalar 1.2 GHz
  CHECK(t.instructions[1].start_ns == doctest::Approx(960 / 1.2 + 100 / 0.96));  // Vector waits 100 of its cycles
  CHECK(t.instructions[1].end_ns - t.instructions[1].start_ns == doctest::Approx(960 / 0.96));
}

TEST_CASE("WAR and WAW serialize") {
  const Timeline t = timeline_of(std::string(kTrn3) + R"(
activation dst=b, op=exp, data=a
memset dst=a, value=0
iota dst=a, base=0, partition_step=0, free_step=1
)");
  CHECK(depends(t, 1, 0, dependency_war));  // memset overwrites what activation reads
  CHECK(t.instructions[1].start_ns == doctest::Approx(1200 * kNs + kWait));
  CHECK(depends(t, 2, 1, dependency_waw));  // both write a
  CHECK(t.instructions[2].start_ns == doctest::Approx(2400 * kNs + 2 * kWait));
}

TEST_CASE("disjoint partitions or bytes of the same tensor do not depend") {
  const Timeline t = timeline_of(std::string(kTrn3) + R"(
memset dst=a[0:64], value=1
activation dst=b[64:128], op=exp, data=a[64:128]
memset dst=c[:, 0:600], value=1
activation dst=b[0:64, 0:600], op=exp, data=c[0:64, 600:1200]
activation dst=b[0:32, 600:1200], op=exp, data=a[0:32, 0:600]
)");
  CHECK(t.instructions[1].dependencies.empty());
  CHECK(t.instructions[1].start_ns == 0);
  CHECK(t.instructions[3].dependencies.empty());  // columns 600.. were not written
  CHECK(depends(t, 4, 0, dependency_raw));        // partitions 0..31 of a were
}

TEST_CASE("aliased tensors (@ OFFSET) depend; SBUF and PSUM at the same offset do not") {
  const Timeline t = timeline_of(R"(
.arch trn3
.sbuf a  f32 [128, 64] @ 0
.sbuf a2 f32 [128, 32] @ 128
.psum p  f32 [128, 64] @ 0
.sbuf z  f32 [128, 64] @ 1024
memset dst=a[:, 32:64], value=1
activation dst=z[:, 0:32], op=exp, data=a2
activation dst=p, op=exp, data=z
memset dst=p, value=0
)");
  CHECK(depends(t, 1, 0, dependency_raw));  // a2 is bytes 128..255: a's columns 32..63
  CHECK(depends(t, 2, 1, dependency_raw));
  CHECK(!depends(t, 2, 0));
  CHECK(depends(t, 3, 2, dependency_waw));  // PSUM p against PSUM p
  CHECK(!depends(t, 3, 0));                 // SBUF a is another memory
}

TEST_CASE("HBM tensors: rows (dimension 0) x bytes within a row") {
  const Timeline t = timeline_of(std::string(kTrn3) + R"(
dma_copy dst=y[0:64], src=a[0:64]
dma_copy dst=b[0:64], src=y[64:128]
dma_copy dst=c[0:64], src=y[0:64]
dma_copy dst=y[:, 0:600], src=a[:, 0:600]
dma_copy dst=y[:, 600:1200], src=a[:, 600:1200]
dma_copy dst=b[0:1, 0:600], src=y[3, 600:1200]
)");
  CHECK(!depends(t, 1, 0));
  CHECK(depends(t, 2, 0, dependency_raw));
  CHECK(depends(t, 3, 0, dependency_waw));
  CHECK(depends(t, 3, 2, dependency_war));
  CHECK(!depends(t, 4, 3));                 // other columns of the same rows
  CHECK(depends(t, 5, 4, dependency_raw));
  CHECK(!depends(t, 5, 3));
}

TEST_CASE("accumulator chain on one engine (S3): reset_reduce, reduce, reduce_res read") {
  const Timeline t = timeline_of(std::string(kTrn3) + R"(
range_select dst=a, on_true_tile=a, comp_op0=ge, comp_op1=lt, bound0=lo, bound1=hi, reduce_cmd=reset_reduce
range_select dst=b, on_true_tile=b, comp_op0=ge, comp_op1=lt, bound0=lo, bound1=hi, reduce_cmd=reduce
range_select dst=c, on_true_tile=c, comp_op0=ge, comp_op1=lt, bound0=lo, bound1=hi, reduce_res=r
activation dst=c, op=exp, data=b, reduce_op=add, reduce_cmd=reset_reduce
range_select dst=b[0:32], on_true_tile=b[0:32], comp_op0=ge, comp_op1=lt, bound0=lo[0:32], bound1=hi[0:32], reduce_cmd=idle
)");
  CHECK(depends(t, 1, 0, dependency_accumulator));
  CHECK(depends(t, 2, 1, dependency_accumulator));  // reduce_res reads the lanes reduce wrote
  CHECK(!depends(t, 3, 0, dependency_accumulator)); // the Scalar accumulator is another one
  CHECK(!depends(t, 4, 2, dependency_accumulator)); // idle without reduce_res: no accumulator use
}

namespace {

// Independent O(n^2) reference for the random test: every earlier access that
// conflicts, no pruning; rectangles written out for 2-D tiles.
struct RefAccess {
  int space;  // 0 SBUF, 1 PSUM, 2 + engine: accumulator
  int64_t p0, p1, b0, b1;
  bool write;
};

std::vector<RefAccess> reference_accesses(const Spec& spec, const Program& program, const Instruction& ins) {
  std::vector<RefAccess> out;
  const InstructionSpec& is = spec.instructions[static_cast<std::size_t>(ins.spec_index)];
  for (std::size_t o = 0; o < ins.operands.size(); ++o) {
    const Operand& op = ins.operands[o];
    if (op.state != OperandState::tensor) continue;
    const TensorDecl& t = program.tensors[static_cast<std::size_t>(op.view.tensor)];
    const int64_t size = static_cast<int64_t>(dtype_size(t.dtype));
    const DimSlice& p = op.view.dims[0];
    const DimSlice& f = op.view.dims[1];
    const bool write = is.operands[o].name == "dst" || is.operands[o].name == "reduce_res";
    out.push_back({t.memory == Memory::psum ? 1 : 0, p.start, p.start + p.count, t.offset + f.start * size,
                   t.offset + (f.start + f.count) * size, write});
    if (is.operands[o].name == "reduce_res") out.push_back({2 + static_cast<int>(is.engine), p.start, p.start + p.count, 0, 1, false});
  }
  const int cmd = is.find_operand("reduce_cmd");
  if (cmd >= 0 && spec.enums[static_cast<std::size_t>(is.operands[static_cast<std::size_t>(cmd)].enum_id)]
                          .values[static_cast<std::size_t>(ins.operands[static_cast<std::size_t>(cmd)].integer)].name != "idle") {
    const DimSlice& p = ins.operands[0].view.dims[0];  // dst: same lanes as the data (S1.3)
    out.push_back({2 + static_cast<int>(is.engine), p.start, p.start + p.count, 0, 1, true});
  }
  return out;
}

std::string random_program(std::mt19937& rng, int count) {
  std::ostringstream s;
  s << R"(
.arch trn2
.sbuf A  f32 [128, 64] @ 0
.sbuf B  f32 [128, 64] @ 256
.sbuf C  f32 [128, 64] @ 128
.sbuf lo f32 [128, 1] @ 512
.sbuf hi f32 [128, 1] @ 576
.sbuf R  f32 [128, 1] @ 640
.psum Q  f32 [128, 64] @ 0
)";
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const char* sbuf[] = {"A", "B", "C"};
  const char* any[] = {"A", "B", "C", "Q"};
  const char* cmds[] = {"idle", "reset", "reset_reduce", "reduce"};
  for (int i = 0; i < count; ++i) {
    const int psize = std::array<int, 3>{32, 64, 128}[static_cast<std::size_t>(pick(3))];
    const int p0 = psize * pick(128 / psize);
    const int w = 1 + pick(16);
    // A random tile on this instruction's partitions, w columns wide.
    auto tile = [&](const char* name) {
      const int c0 = pick(64 - w + 1);
      std::ostringstream t;
      t << name << "[" << p0 << ":" << p0 + psize << ", " << c0 << ":" << c0 + w << "]";
      return t.str();
    };
    std::ostringstream lanes_text;
    lanes_text << "[" << p0 << ":" << p0 + psize << "]";
    const std::string lanes = lanes_text.str();
    switch (pick(5)) {
      case 0: s << "memset dst=" << tile(any[pick(4)]) << ", value=1\n"; break;
      case 1:
        s << "tensor_tensor dst=" << tile(any[pick(4)]) << ", data1=" << tile(any[pick(4)]) << ", data2=" << tile(any[pick(4)])
          << ", op=add\n";
        break;
      case 2:
        s << "activation dst=" << tile(any[pick(4)]) << ", op=copy, data=" << tile(any[pick(4)]) << ", reduce_op=add, reduce_cmd="
          << cmds[pick(4)];
        if (pick(2)) s << ", reduce_res=R" << lanes;
        s << "\n";
        break;
      case 3: {
        const std::string t = tile(any[pick(4)]);
        s << "range_select dst=" << t << ", on_true_tile=" << t << ", comp_op0=ge, comp_op1=lt, bound0=lo" << lanes << ", bound1=hi"
          << lanes << ", reduce_cmd=" << cmds[pick(4)];
        if (pick(2)) s << ", reduce_res=R" << lanes;
        s << "\n";
        break;
      }
      default: s << "iota dst=" << tile(sbuf[pick(3)]) << ", base=0, partition_step=1, free_step=1\n"; break;
    }
  }
  return s.str();
}

}  // namespace

TEST_CASE("random programs: the same times as an all-pairs reference search") {
  const Spec& spec = active_spec();
  std::mt19937 rng(20261123);
  for (int round = 0; round < 3; ++round) {
    const Program program = assembled(random_program(rng, 1500));
    const Timeline t = build_timeline(spec, program);
    const std::size_t n = program.instructions.size();
    std::vector<std::vector<RefAccess>> acc(n);
    std::vector<double> end(n);
    double engine_free[kEngineCount] = {};
    for (std::size_t i = 0; i < n; ++i) {
      CAPTURE(i);
      acc[i] = reference_accesses(spec, program, program.instructions[i]);
      const int e = static_cast<int>(t.instructions[i].engine);
      const double clock = spec.archs[static_cast<std::size_t>(program.arch)].clock_ghz[e];
      double start = engine_free[e];
      std::vector<bool> conflict(i, false);
      for (std::size_t j = 0; j < i; ++j)
        for (const RefAccess& a : acc[i])
          for (const RefAccess& b : acc[j])
            if (a.space == b.space && (a.write || b.write) && a.p0 < b.p1 && b.p0 < a.p1 && a.b0 < b.b1 && b.b0 < a.b1) conflict[j] = true;
      for (std::size_t j = 0; j < i; ++j)
        if (conflict[j]) start = std::max(start, end[j] + (t.instructions[j].engine != t.instructions[i].engine ? 100 / clock : 0.0));
      end[i] = start + instruction_cycles(spec, program, program.instructions[i]) / clock;
      engine_free[e] = end[i];
      REQUIRE(t.instructions[i].start_ns == doctest::Approx(start).epsilon(1e-12));
      REQUIRE(t.instructions[i].end_ns == doctest::Approx(end[i]).epsilon(1e-12));
      for (const Dependency& d : t.instructions[i].dependencies) REQUIRE(conflict[d.instruction]);  // every listed one is real
    }
  }
}

TEST_CASE("100k instructions: the dependency search stays about linear") {
  // A streaming loop: DMA in, Vector/Scalar/GpSimd work on rotating tiles, DMA out.
  const Program program = assembled(R"(
.arch trn2
.hbm  x  f32 [128, 4096] input = 0
.hbm  y  f32 [128, 4096] output
.sbuf t  f32 [128, 4096]
.sbuf u  f32 [128, 4096]
.sbuf m  f32 [128, 64]
.sbuf lo f32 [128, 1]
.sbuf hi f32 [128, 1]
.rept i, 10000
dma_copy dst=t[:, (i % 64) * 64:(i % 64) * 64 + 64], src=x[:, (i % 64) * 64:(i % 64) * 64 + 64]
range_select dst=t[:, (i % 64) * 64:(i % 64) * 64 + 64], on_true_tile=t[:, (i % 64) * 64:(i % 64) * 64 + 64], comp_op0=ge, comp_op1=lt, bound0=lo, bound1=hi, reduce_cmd=reset_reduce, reduce_res=m[:, i % 64]
activation dst=u[:, (i % 64) * 64:(i % 64) * 64 + 64], op=exp, data=t[:, (i % 64) * 64:(i % 64) * 64 + 64], reduce_op=add, reduce_cmd=reset_reduce
tensor_scalar dst=u[:, (i % 64) * 64:(i % 64) * 64 + 64], data=u[:, (i % 64) * 64:(i % 64) * 64 + 64], op0=multiply, operand0=m[:, i % 64]
iota dst=t[:, (i % 64) * 64:(i % 64) * 64 + 64], base=i, partition_step=1, free_step=0
tensor_tensor dst=u[0:64, (i % 64) * 64:(i % 64) * 64 + 64], data1=u[0:64, (i % 64) * 64:(i % 64) * 64 + 64], data2=u[64:128, (i % 64) * 64:(i % 64) * 64 + 64], op=add
memset dst=m[:, (i + 1) % 64], value=0
activation dst=u[64:128, (i % 64) * 64:(i % 64) * 64 + 64], op=copy, data=u[0:64, (i % 64) * 64:(i % 64) * 64 + 64]
tensor_reduce dst=m[:, (i + 2) % 64], data=u[:, (i % 64) * 64:(i % 64) * 64 + 64], op=maximum
dma_copy dst=y[:, (i % 64) * 64:(i % 64) * 64 + 64], src=u[:, (i % 64) * 64:(i % 64) * 64 + 64]
.endr
)");
  REQUIRE(program.instructions.size() == 100000);
  const auto t0 = std::chrono::steady_clock::now();
  const Timeline t = build_timeline(active_spec(), program);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::size_t deps = 0;
  for (const TimedInstruction& ti : t.instructions) deps += ti.dependencies.size();
  MESSAGE("build_timeline of 100000 instructions: ", seconds, " s, ", deps, " dependencies");
  CHECK(deps < 6 * program.instructions.size());  // direct dependencies only: a few per instruction
  CHECK(seconds < 20);                            // generous for sanitizer builds; Release takes well under 1 s
}

// S8.2: engine= puts tensor_copy and nc_transpose on the engine it names,
// engine=unknown on the instruction's own; nc_matmul runs on the Tensor
// Engine at its clock (trn2: 2.4 GHz) for MIN_II + N cycles (S6, estimate).
TEST_CASE("engine= selects the engine an instruction is timed on") {
  const Timeline t = timeline_of(R"(
.arch trn2
.sbuf a  f32 [128, 128]
.sbuf b  f32 [128, 128]
.psum p  f32 [128, 128]
memset dst=a, value=1
tensor_copy dst=b, src=a
tensor_copy dst=b, src=a, engine=gpsimd
tensor_copy dst=b, src=a, engine=scalar
nc_transpose dst=p, data=a
nc_transpose dst=b[0:32, 0:32], data=a[0:32, 0:32], engine=vector
nc_matmul dst=p, stationary=a, moving=b
)");
  REQUIRE(t.instructions.size() == 7);
  CHECK(t.instructions[1].engine == Engine::vector);
  CHECK(t.instructions[2].engine == Engine::gpsimd);
  CHECK(t.instructions[3].engine == Engine::scalar);
  CHECK(t.instructions[4].engine == Engine::tensor);
  CHECK(t.instructions[5].engine == Engine::vector);
  CHECK(t.instructions[6].engine == Engine::tensor);
  CHECK(t.clock_ghz[static_cast<int>(Engine::tensor)] == 2.4);
  CHECK(t.instructions[6].cycles == 64 + 128);
  CHECK(t.instructions[6].end_ns - t.instructions[6].start_ns == doctest::Approx((64 + 128) / 2.4));
  // the matmul reads b, last written by the Scalar copy: a cross-engine wait
  CHECK(depends(t, 6, 3, dependency_raw));
}
