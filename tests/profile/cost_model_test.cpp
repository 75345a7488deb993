// Cost formulas (compiled once from the spec) and the estimated cycles of each
// instruction form, hand-derived from SEMANTICS S4/S6 and NKI's cost
// tables (MIN_II = 64, GPSIMD_STARTUP = 150, FIXED = 100, 64 DMA bytes/cycle).
#include <algorithm>
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "assembler.hpp"
#include "cost_formula.hpp"
#include "cost_model.hpp"
#include "spec.hpp"

using namespace nisa;

namespace {

const std::vector<std::pair<std::string, double>> kConstants = {{"MIN_II", 64}, {"FIXED", 100}, {"K", 2}};

double eval(const std::string& text, double n, double bytes = 0, double p = 0) {
  return compile_cost_formula(text, kConstants).evaluate(CostInputs{n, bytes, p});
}

std::string compile_error(const std::string& text) {
  try {
    compile_cost_formula(text, kConstants);
  } catch (const CostFormulaError& e) {
    return e.what();
  }
  return "";
}

// The cycles of every instruction of a program, in order.
std::vector<double> cycles_of(const std::string& source) {
  const Spec& spec = active_spec();
  AssembleResult r = assemble(spec, source, "cost.nasm");
  REQUIRE_MESSAGE(r.diagnostics.empty(), (r.diagnostics.empty() ? "" : format_diagnostic(r.diagnostics[0])));
  std::vector<double> out;
  for (const Instruction& ins : r.program.instructions) out.push_back(instruction_cycles(spec, r.program, ins));
  return out;
}

const char* kDecls = R"(
.arch trn3
.hbm  x    f32 [128, 2048] input = 0
.sbuf a    f32 [128, 2048]
.sbuf b    f32 [128, 2048]
.sbuf c    f32 [128, 2048]
.sbuf pr   u8  [128, 2048]
.sbuf pr16 u16 [128, 10]
.sbuf col  f32 [128, 1]
.sbuf col2 f32 [128, 1]
.sbuf i32t i32 [128, 11]
.sbuf f10  f32 [128, 10]
.psum pa   f32 [128, 256]
.psum pp   u8  [128, 256]
.sbuf sa   f32 [128, 256]
.sbuf sp   u8  [128, 256]
)";

}  // namespace

TEST_CASE("cost formulas: numbers, constants, N, BYTES, P, max/min, precedence") {
  CHECK(eval("max(MIN_II, N)", 10) == 64);
  CHECK(eval("max(MIN_II, N)", 2048) == 2048);
  CHECK(eval("max(MIN_II, 2 * N)", 40) == 80);
  CHECK(eval("FIXED + BYTES / 64", 0, 1024) == 116);
  CHECK(eval("1 + 2 * 3 - 4 / 2", 0) == 5);
  CHECK(eval("(1 + 2) * 3", 0) == 9);
  CHECK(eval("-N + 10", 3) == 7);
  CHECK(eval("min(N, 5, K * 2)", 100) == 4);
  CHECK(eval("max(1, 2, 3)", 0) == 3);
  CHECK(eval("P * 0.5", 0, 0, 128) == 64);
  CHECK(eval("2.5e1", 0) == 25);
}

TEST_CASE("cost formulas: malformed text is refused with the offending token") {
  CHECK(compile_error("max(MIN_II, N") == "cost formula \"max(MIN_II, N\" at offset 13: expected ')' or ','");
  CHECK(compile_error("N + FOO") == "cost formula \"N + FOO\" at offset 4: unknown name \"FOO\" (N, BYTES, P, max, min or a cost constant)");
  CHECK(compile_error("") == "cost formula \"\" at offset 0: unexpected end");
  CHECK(compile_error("N N") == "cost formula \"N N\" at offset 2: unexpected 'N'");
  CHECK(compile_error("max N") == "cost formula \"max N\" at offset 4: expected '(' after max");
  CHECK(compile_error(std::string(200, '(') + "N" + std::string(200, ')')).find("nested too deeply") != std::string::npos);
  CHECK(compile_error(std::string(200, '-') + "N").find("nested too deeply") != std::string::npos);
}

TEST_CASE("the shipped spec's cost section: compiled formulas, size_of, timeline operands") {
  const Spec& s = active_spec();
  for (const InstructionSpec& is : s.instructions) {
    CAPTURE(is.name);
    CHECK(!is.cost.formula.code.empty());
    // S17.4: a sequencer instruction without a tensor operand has no size.
    const bool has_tensor = std::any_of(is.operands.begin(), is.operands.end(), [](const OperandSpec& o) { return o.kind == OperandKind::tensor; });
    CHECK((is.cost.size_of >= 0 || (is.sequencer != Sequencer::none && !has_tensor)));
    CHECK(is.cost.extra_formulas.size() == is.cost.extra_if_present.size());
    // every instruction with a dst writes it (set_rng_seed, rand_set_state write engine state only: S11.5)
    CHECK((is.cost.written.size() >= 1 || is.find_operand("dst") < 0));
  }
  // S6: no public cost for select_reduce, nonzero_with_count or activate2.
  for (const char* name : {"select_reduce", "nonzero_with_count", "activate2"})
    CHECK_MESSAGE(s.instructions[static_cast<std::size_t>(s.find_instruction(name))].cost.estimate, name);
  // S6 engine clocks (GHz), Vector / Scalar / GpSimd.
  auto clock = [&](const char* arch, Engine e) { return s.archs[static_cast<std::size_t>(s.find_arch(arch))].clock_ghz[static_cast<int>(e)]; };
  CHECK(clock("trn1", Engine::vector) == 1.12);
  CHECK(clock("inf2", Engine::scalar) == 1.4);
  CHECK(clock("trn1", Engine::gpsimd) == 1.4);
  CHECK(clock("trn2", Engine::vector) == 0.96);
  CHECK(clock("trn2", Engine::scalar) == 1.2);
  CHECK(clock("trn2", Engine::gpsimd) == 1.2);
  CHECK(clock("trn3", Engine::vector) == 1.2);
  CHECK(clock("trn3", Engine::scalar) == 1.2);
  CHECK(s.cross_engine_wait.evaluate(CostInputs{}) == 100);  // S6 fixed overhead of a dependent instruction
  const InstructionSpec& rs = s.instructions[static_cast<std::size_t>(s.find_instruction("range_select"))];
  CHECK(rs.cost.accumulator_command == rs.find_operand("reduce_cmd"));
  CHECK(rs.cost.accumulator_result == rs.find_operand("reduce_res"));
  CHECK(s.enums[static_cast<std::size_t>(rs.operands[static_cast<std::size_t>(rs.cost.accumulator_command)].enum_id)]
            .values[static_cast<std::size_t>(rs.cost.accumulator_idle)].name == "idle");
}

TEST_CASE("broken cost sections are refused with the JSON path") {
  auto error_of = [](const nlohmann::json& j) -> std::string {
    try {
      load_spec(j.dump());
    } catch (const SpecError& e) {
      return e.what();
    }
    return "";
  };
  auto shipped = [] { return nlohmann::json::parse(embedded_spec_text()); };
  {
    auto j = shipped();
    j["instructions"][1]["cost"]["cycles"] = "max(MIN_II, M)";
    CHECK(error_of(j) ==
          "isa-spec: /instructions/1/cost/cycles: cost formula \"max(MIN_II, M)\" at offset 12: unknown name \"M\" (N, BYTES, P, max, min or a cost constant)");
  }
  {
    auto j = shipped();
    j["instructions"][1]["cost"]["cycles"] = "MIN_II - N";
    CHECK(error_of(j) == "isa-spec: /instructions/1/cost/cycles: formula gives -4032.000000 cycles for N = 4096.000000");
  }
  {
    auto j = shipped();
    j["instructions"][1]["cost"]["cycles"] = "N / 0";
    CHECK(error_of(j).find("isa-spec: /instructions/1/cost/cycles: formula gives") == 0);
  }
  {
    auto j = shipped();
    j["instructions"][1]["cost"]["size_of"] = "value";
    CHECK(error_of(j) == "isa-spec: /instructions/1/cost/size_of: operand value is not a required tensor");
  }
  {
    auto j = shipped();
    j["instructions"][1]["cost"].erase("size_of");
    CHECK(error_of(j) == "isa-spec: /instructions/1/cost: missing key \"size_of\"");
  }
  {
    auto j = shipped();
    j["cost"]["timeline"]["cross_engine_wait"] = "FIXED +";
    CHECK(error_of(j) == "isa-spec: /cost/timeline/cross_engine_wait: cost formula \"FIXED +\" at offset 7: unexpected end");
  }
  {
    auto j = shipped();
    j["cost"]["timeline"]["accumulator"]["idle"] = "asleep";
    CHECK(error_of(j).find("has no value asleep") != std::string::npos);
  }
  {
    auto j = shipped();
    j["archs"][0]["clock_ghz"]["dma"] = 0;
    CHECK(error_of(j) == "isa-spec: /archs/0/clock_ghz/dma: clock must be positive");
  }
}

TEST_CASE("instruction cycles per form (S4, S6)") {
  const std::string src = std::string(kDecls) + R"(
range_select dst=a, on_true_tile=a, comp_op0=ge, comp_op1=lt, bound0=col, bound1=col2
range_select dst=f10, on_true_tile=f10, comp_op0=ge, comp_op1=lt, bound0=col, bound1=col2
tensor_copy_predicated dst=b, src=a, predicate=pr
tensor_copy_predicated dst=sa, src=sa, predicate=pp
tensor_copy_predicated dst=pa, src=pa, predicate=sp
tensor_copy_predicated dst=b, src=1.0, predicate=pr
tensor_copy_predicated dst=f10, src=f10, predicate=pr16
activation dst=a, op=exp, data=b
activation dst=a, op=exp, data=b, reduce_op=add, reduce_cmd=reset_reduce, reduce_res=col
activation dst=f10, op=exp, data=f10, reduce_op=add, reduce_cmd=reduce, reduce_res=col
activation dst=f10, op=exp, data=f10
activate2 dst=a, op=copy, data=b, imm0=1.0, imm1=0.0, op0=multiply, op1=add
activate2 dst=a, op=copy, data=b, imm0=1.0, imm1=0.0, op0=multiply, op1=add, reduce_op=add, reduce_cmd=reset_reduce, reduce_res=col
select_reduce dst=a, predicate=pr, on_true=b, on_false=0.0
select_reduce dst=f10, predicate=pr16[:, 0:10], on_true=f10, on_false=col
tensor_tensor dst=c, data1=a, data2=b, op=add
tensor_tensor dst=f10, data1=f10, data2=f10, op=add
tensor_scalar dst=c, data=a, op0=multiply, operand0=col
tensor_reduce dst=col, data=a, op=maximum
memset dst=a[:, 0:100], value=0
memset dst=col, value=0
iota dst=i32t, base=0, partition_step=1, free_step=1
nonzero_with_count dst=i32t, src=f10
dma_copy dst=a, src=x
dma_copy dst=x[0:1, 0:16], src=a[0:1, 0:16]
)";
  const std::vector<double> c = cycles_of(src);
  REQUIRE(c.size() == 25);
  CHECK(c[0] == 2048);  // S4.4 range_select max(MIN_II, N), N = 2048
  CHECK(c[1] == 64);    // N = 10 -> MIN_II
  CHECK(c[2] == 4096);  // S4.2: src and predicate both in SBUF -> max(MIN_II, 2N)
  CHECK(c[3] == 256);   // src in SBUF, predicate in PSUM -> max(MIN_II, N)
  CHECK(c[4] == 256);   // src in PSUM, predicate in SBUF -> max(MIN_II, N)
  CHECK(c[5] == 2048);  // scalar src: one tile input -> max(MIN_II, N)
  CHECK(c[6] == 64);    // 2N = 20 -> MIN_II
  CHECK(c[7] == 2048);  // S4.6 activation max(MIN_II, N)
  CHECK(c[8] == 2048 + 64);  // plus MIN_II when reduce_res is read
  CHECK(c[9] == 64 + 64);
  CHECK(c[10] == 64);
  CHECK(c[11] == 2048);      // activate2: as activation (estimate, S6)
  CHECK(c[12] == 2048 + 64);
  CHECK(c[13] == 4096);      // select_reduce: two tile inputs -> 2N (S6, estimate)
  CHECK(c[14] == 64);        // 2N = 20 -> MIN_II
  CHECK(c[15] == 4096);      // tensor_tensor: two tile inputs -> max(MIN_II, 2N) (S6)
  CHECK(c[16] == 64);
  CHECK(c[17] == 2048);      // tensor_scalar: max(MIN_II, N)
  CHECK(c[18] == 2048);      // tensor_reduce: N of data, not of dst
  CHECK(c[19] == 100);       // memset N = 100
  CHECK(c[20] == 64);
  CHECK(c[21] == 150 + 11);  // S6 GpSimd: start-up + N
  CHECK(c[22] == 150 + 10);  // nonzero_with_count: N of src (estimate)
  CHECK(c[23] == 100 + 128 * 2048 * 4 / 64);  // DMA: FIXED + BYTES / 64 = 16484
  CHECK(c[24] == 100 + 1);   // 64 bytes
}
