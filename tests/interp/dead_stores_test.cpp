// Dead-store elimination (docs/SEMANTICS.md S14.1): which instructions a run
// may skip. Expected flags are derived by hand from the rule: an instruction
// is dead when each byte and accumulator lane it writes is overwritten before
// anything reads it, and the program's end reads everything.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "assembler.hpp"
#include "dead_stores.hpp"
#include "interpreter.hpp"
#include "machine.hpp"
#include "spec.hpp"

namespace nisa {
namespace {

const char* kDecls = R"(.arch trn2
.hbm  out f32 [128, 64] output
.hbm  res f32 [128, 1] output
.sbuf a   f32 [128, 64] @ 0
.sbuf b   f32 [128, 64]
.sbuf lo  f32 [128, 1]
.sbuf hi  f32 [128, 1]
.sbuf r   f32 [128, 1]
.sbuf s   f32 [128, 1]
.sbuf m   u8  [128, 64]
.sbuf alias f32 [128, 16] @ 64
)";

Program assembled(const std::string& body) {
  AssembleResult r = assemble(active_spec(), std::string(kDecls) + body, "dse.nasm");
  REQUIRE_MESSAGE(r.diagnostics.empty(), (r.diagnostics.empty() ? "" : format_diagnostic(r.diagnostics[0])));
  return std::move(r.program);
}

// The dead flags of the instructions after the `setup` lines (which fill a,
// lo, hi, m and are all read later, so never dead themselves).
std::vector<bool> dead_after_setup(const std::string& body) {
  const std::string setup =
      "iota dst=a, base=0, partition_step=1, free_step=1\n"
      "iota dst=lo, base=2, partition_step=0, free_step=0\n"
      "iota dst=hi, base=40, partition_step=0, free_step=0\n"
      "iota dst=m, base=0, partition_step=0, free_step=1\n";
  const Program p = assembled(setup + body);
  std::vector<bool> dead = dead_instructions(active_spec(), p);
  for (int i = 0; i < 4; ++i) CHECK_FALSE(dead[static_cast<std::size_t>(i)]);
  std::vector<bool> after(dead.begin() + 4, dead.end());
  std::string shown;
  for (bool d : after) shown += d ? '1' : '0';
  INFO("dead flags after setup: ", shown);
  return after;
}

const std::string kRangeSelectReset =
    "range_select dst=b, on_true_tile=a, comp_op0=greater_equal, comp_op1=less, bound0=lo, bound1=hi, "
    "reduce_cmd=reset_reduce, reduce_res=r\n";
const std::string kRangeSelectReduce =
    "range_select dst=b, on_true_tile=a, comp_op0=greater_equal, comp_op1=less, bound0=lo, bound1=hi, "
    "reduce_cmd=reduce\n";
const std::string kOut = "dma_copy dst=out, src=b\ndma_copy dst=res, src=r\n";

TEST_CASE("S14.1: a chain that resets the accumulator keeps only its last instruction") {
  const auto dead = dead_after_setup(kRangeSelectReset + kRangeSelectReset + kRangeSelectReset + kOut);
  CHECK(dead == std::vector<bool>{true, true, false, false, false});
}

TEST_CASE("S14.1: reduce folds into the lanes an earlier instruction wrote, so nothing is dead") {
  const auto dead = dead_after_setup(kRangeSelectReset + kRangeSelectReduce + kRangeSelectReduce +
                                     "range_select dst=b, on_true_tile=a, comp_op0=greater_equal, comp_op1=less, "
                                     "bound0=lo, bound1=hi, reduce_cmd=idle, reduce_res=r\n" +
                                     kOut);
  CHECK(dead == std::vector<bool>{false, false, false, false, false, false});
}

TEST_CASE("S14.1: a read between two writes keeps the first") {
  const auto dead = dead_after_setup(
      "tensor_scalar dst=b, data=a, op0=add, operand0=1.0\n"
      "tensor_tensor dst=a, data1=b, data2=a, op=add\n"  // reads b
      "tensor_scalar dst=b, data=a, op0=add, operand0=2.0\n"
      "dma_copy dst=out, src=b\n");
  CHECK(dead == std::vector<bool>{false, false, false, false});
}

TEST_CASE("S14.1: a write nobody reads before the next full write is dead; the last one never is") {
  const auto dead = dead_after_setup(
      "tensor_scalar dst=b, data=a, op0=add, operand0=1.0\n"
      "tensor_scalar dst=b, data=a, op0=add, operand0=2.0\n"
      "dma_copy dst=out, src=b\n"
      "tensor_scalar dst=b, data=a, op0=add, operand0=3.0\n");  // end of program reads SBUF (--dump-state)
  CHECK(dead == std::vector<bool>{true, false, false, false});
}

TEST_CASE("S14.1: an instruction that reads what it writes is not killed by itself") {
  const auto dead = dead_after_setup(
      "tensor_scalar dst=b, data=a, op0=add, operand0=1.0\n"
      "tensor_scalar dst=b, data=b, op0=add, operand0=2.0\n"
      "dma_copy dst=out, src=b\n");
  CHECK(dead == std::vector<bool>{false, false, false});
}

TEST_CASE("S14.1: only a later write that fills the bytes kills them") {
  SUBCASE("a part, then the whole") {
    const auto dead = dead_after_setup(
        "tensor_scalar dst=b[0:64, 0:32], data=a[0:64, 0:32], op0=add, operand0=1.0\n"
        "tensor_scalar dst=b, data=a, op0=add, operand0=2.0\n"
        "dma_copy dst=out, src=b\n");
    CHECK(dead == std::vector<bool>{true, false, false});
  }
  SUBCASE("the whole, then a part") {
    const auto dead = dead_after_setup(
        "tensor_scalar dst=b, data=a, op0=add, operand0=1.0\n"
        "tensor_scalar dst=b[0:64, 0:32], data=a[0:64, 0:32], op0=add, operand0=2.0\n"
        "dma_copy dst=out, src=b\n");
    CHECK(dead == std::vector<bool>{false, false, false});
  }
  SUBCASE("a strided write leaves gaps") {
    const auto dead = dead_after_setup(
        "tensor_scalar dst=b[:, 0:32], data=a[:, 0:32], op0=add, operand0=1.0\n"
        "tensor_scalar dst=b[:, 0:64:2], data=a[:, 0:32], op0=add, operand0=2.0\n"
        "dma_copy dst=out, src=b\n");
    CHECK(dead == std::vector<bool>{false, false, false});
  }
  SUBCASE("a masked write (tensor_copy_predicated) is not a full write") {
    const auto dead = dead_after_setup(
        "tensor_scalar dst=b, data=a, op0=add, operand0=1.0\n"
        "tensor_copy_predicated dst=b, src=a, predicate=m\n"
        "dma_copy dst=out, src=b\n");
    CHECK(dead == std::vector<bool>{false, false, false});
  }
}

TEST_CASE("S14.1: a read through an aliasing tensor (@ OFFSET) keeps the store") {
  // a occupies bytes 0..255 of each partition; alias is bytes 64..127.
  const auto dead = dead_after_setup(
      "tensor_scalar dst=b, data=a, op0=add, operand0=1.0\n"
      "tensor_scalar dst=a, data=b, op0=add, operand0=1.0\n"
      "tensor_scalar dst=b[:, 0:16], data=alias, op0=add, operand0=1.0\n"  // reads a's bytes 64..127: a[:, 16:32]
      "tensor_scalar dst=a, data=b, op0=add, operand0=3.0\n"
      "dma_copy dst=out, src=a\n");
  // The 2nd write of a is read through alias, so it lives; b's first write is read by it.
  CHECK(dead == std::vector<bool>{false, false, false, false, false});
}

TEST_CASE("S14.1: an aliased write is dead when a later full write covers it") {
  const auto dead = dead_after_setup(
      "dma_copy dst=out, src=a\n"  // the setup's a is read
      "tensor_scalar dst=alias, data=b[:, 0:16], op0=add, operand0=1.0\n"
      "tensor_scalar dst=a, data=b, op0=add, operand0=1.0\n"  // covers alias's bytes
      "dma_copy dst=out, src=a\n");
  CHECK(dead == std::vector<bool>{false, true, false, false});
}

TEST_CASE("S14.1: idle reduce_res reads the older lanes; another engine's lanes are apart") {
  const std::string activation_reset = "activation dst=b, op=exp, data=a, reduce_op=add, reduce_cmd=reset_reduce\n";
  SUBCASE("Vector's idle read keeps the Vector reset") {
    const auto dead = dead_after_setup(kRangeSelectReset +
                                       "range_select dst=b, on_true_tile=a, comp_op0=greater_equal, comp_op1=less, "
                                       "bound0=lo, bound1=hi, reduce_cmd=idle, reduce_res=r\n"
                                       "tensor_scalar dst=s, data=r, op0=add, operand0=0.0\n" +
                                       kRangeSelectReset + kOut);
    CHECK(dead == std::vector<bool>{false, false, false, false, false, false});
  }
  SUBCASE("an idle instruction whose results are overwritten is dead, and so is what only it read") {
    const auto dead = dead_after_setup(kRangeSelectReset +
                                       "range_select dst=b, on_true_tile=a, comp_op0=greater_equal, comp_op1=less, "
                                       "bound0=lo, bound1=hi, reduce_cmd=idle, reduce_res=r\n" +
                                       kRangeSelectReset + kOut);
    CHECK(dead == std::vector<bool>{true, true, false, false, false});
  }
  SUBCASE("a Scalar reset between two Vector resets does not revive Vector's lanes") {
    const auto dead = dead_after_setup(kRangeSelectReset + activation_reset + kRangeSelectReset + kOut);
    CHECK(dead == std::vector<bool>{true, false, false, false, false});
  }
}

TEST_CASE("S14.1: an instruction the spec does not mark is never skipped and keeps what it touches") {
  const auto dead = dead_after_setup(
      "tensor_scalar dst=b, data=a, op0=add, operand0=1.0\n"
      "dma_copy dst=out, src=a\n"  // touches a only
      "tensor_scalar dst=b, data=a, op0=add, operand0=2.0\n"
      "dma_copy dst=out, src=b\n");
  CHECK(dead == std::vector<bool>{true, false, false, false});
}

// Skipped steps change nothing: run both ways and compare every byte.
TEST_CASE("S14.1: skipping dead steps leaves SBUF, HBM and the accumulators as they were") {
  const Program p = assembled(
      "iota dst=a, base=-3, partition_step=1, free_step=0.5\n"
      "iota dst=lo, base=2, partition_step=0, free_step=0\n"
      "iota dst=hi, base=40, partition_step=0, free_step=0\n" +
      kRangeSelectReset + kRangeSelectReset + "tensor_scalar dst=b, data=a, op0=multiply, operand0=3.0\n" +
      kRangeSelectReset + kOut);
  auto run = [&](bool skip) {
    Machine m = make_machine(active_spec(), p);
    DecodedProgram d = predecode(active_spec(), p, m);
    const std::size_t skipped = skip ? skip_dead_steps(active_spec(), p, d.steps) : 0;
    execute(d.steps, m);
    return std::make_pair(skipped, std::move(m));
  };
  auto [skipped, fast] = run(true);
  auto [none, plain] = run(false);
  CHECK(skipped == 3);
  CHECK(none == 0);
  CHECK(std::vector<uint8_t>(fast.sbuf.data(), fast.sbuf.data() + fast.sbuf.size()) ==
        std::vector<uint8_t>(plain.sbuf.data(), plain.sbuf.data() + plain.sbuf.size()));
  for (std::size_t t = 0; t < p.tensors.size(); ++t) {
    const auto x = fast.hbm[t].bytes(), y = plain.hbm[t].bytes();
    CHECK(std::vector<uint8_t>(x.begin(), x.end()) == std::vector<uint8_t>(y.begin(), y.end()));
  }
  CHECK(std::memcmp(fast.vector_accumulator.data(), plain.vector_accumulator.data(), sizeof fast.vector_accumulator) == 0);
}

}  // namespace
}  // namespace nisa

namespace nisa {
namespace {

TEST_CASE("S14.1: positions of distinct instructions give the flags of the whole list") {
  const Program p = assembled(".rept k, 6\n" + kRangeSelectReset + "tensor_scalar dst=a, data=a, op0=add, operand0=1.0\n" +
                              ".endr\n" + kRangeSelectReset + kRangeSelectReset + kOut);
  std::vector<uint32_t> which;
  std::vector<std::size_t> first;  // per distinct instruction: its first position
  for (std::size_t i = 0; i < p.instructions.size(); ++i) {
    uint32_t k = 0;
    while (k < first.size() && !(p.instructions[first[k]].operands == p.instructions[i].operands &&
                                 p.instructions[first[k]].spec_index == p.instructions[i].spec_index))
      ++k;
    if (k == first.size()) first.push_back(i);
    which.push_back(k);
  }
  CHECK(first.size() == 4);  // range_select, tensor_scalar, the two dma_copy
  const auto by_position = dead_positions(
      active_spec(), p, p.instructions.size(), [&](std::size_t i) { return which[i]; },
      [&](std::size_t i) -> const Instruction& { return p.instructions[first[which[i]]]; });
  const auto whole = dead_instructions(active_spec(), p);
  CHECK(by_position == whole);
  // The range_selects inside the loop each read a (rewritten by the tensor_scalar), but all
  // they write is overwritten by the next one: every one but the last of the program is dead.
  std::size_t dead = 0;
  for (bool d : whole) dead += d;
  CHECK(dead == 7);
}

}  // namespace
}  // namespace nisa
