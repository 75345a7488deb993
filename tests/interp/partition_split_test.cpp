// Partition-parallel execution (interp/schedule/partition_split.hpp): a cut step's two
// halves on two threads give the same bytes as the whole step on one, for the
// instructions the spec marks partitions_independent, accumulators included.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "assembler.hpp"
#include "interpreter.hpp"
#include "machine.hpp"
#include "partition_split.hpp"
#include "spec.hpp"

namespace nisa {
namespace {

const char* kProgram = R"(.arch trn3
.sbuf a   f32 [128, 300]
.sbuf b   f32 [128, 300]
.sbuf c   bf16 [128, 300]
.sbuf m   u8  [128, 300]
.sbuf lo  f32 [128, 1]
.sbuf hi  f32 [128, 1]
.sbuf r   f32 [128, 1]
.sbuf q   f32 [128, 1]
iota dst=a, base=-7, partition_step=1.5, free_step=0.25
iota dst=m, base=0, partition_step=1, free_step=1
iota dst=lo, base=3, partition_step=1, free_step=0
iota dst=hi, base=200, partition_step=-1, free_step=0
tensor_scalar dst=b, data=a, op0=multiply, operand0=lo, op1=add, operand1=0.5
tensor_tensor dst=c, data1=a, data2=b, op=subtract
range_select dst=b, on_true_tile=a, comp_op0=greater_equal, comp_op1=less, bound0=lo, bound1=hi, reduce_cmd=reset_reduce, reduce_res=r
select_reduce dst=a, predicate=m, on_true=b, on_false=-2.0, reduce_cmd=reduce, reduce_res=r
activation dst=c, op=exp, data=a[:, 0:300], scale=0.01, bias=hi, reduce_op=add, reduce_cmd=reset_reduce, reduce_res=q
tensor_copy_predicated dst=b, src=a, predicate=m
activate2 dst=a, op=tanh, data=b, imm0=0.5, op0=multiply, imm1=1.0, op1=add, reduce_op=add, reduce_cmd=reduce, reduce_res=q
memset dst=c[0:64, 0:300], value=1.25
)";

struct Run {
  Machine machine;
  std::size_t cut = 0;
};

Run run(const Program& p, bool two_threads) {
  Run out{make_machine(active_spec(), p)};
  DecodedProgram d = predecode(active_spec(), p, out.machine);
  UpperHalves upper;
  auto instruction_of = [&](const Step& s) -> const Instruction& {
    return p.instructions[static_cast<std::size_t>(s.instruction)];
  };
  if (two_threads) upper = split_partitions(active_spec(), d.steps, *d.tiles, instruction_of, 1);
  out.cut = upper.steps.size();
  execute_two_threads(d.steps, upper, out.machine);
  return out;
}

TEST_CASE("partition split: two threads give the bytes of one") {
  AssembleResult a = assemble(active_spec(), kProgram, "split.nasm");
  REQUIRE(a.diagnostics.empty());
  const Run one = run(a.program, false);
  const Run two = run(a.program, true);
  CHECK(one.cut == 0);
  CHECK(two.cut == 8);  // every instruction after the iotas (iota depends on the partition index)
  REQUIRE(one.machine.sbuf.size() == two.machine.sbuf.size());
  CHECK(std::memcmp(one.machine.sbuf.data(), two.machine.sbuf.data(), one.machine.sbuf.size()) == 0);
  CHECK(std::memcmp(one.machine.vector_accumulator.data(), two.machine.vector_accumulator.data(),
                    sizeof one.machine.vector_accumulator) == 0);
  CHECK(std::memcmp(one.machine.scalar_accumulator.data(), two.machine.scalar_accumulator.data(),
                    sizeof one.machine.scalar_accumulator) == 0);
}

TEST_CASE("partition split: small steps and few partitions stay whole") {
  AssembleResult a = assemble(active_spec(),
                              ".arch trn2\n.sbuf a f32 [8, 4096]\n.sbuf b f32 [128, 16]\n"
                              "memset dst=a, value=1.0\nmemset dst=b, value=2.0\n",
                              "small.nasm");
  REQUIRE(a.diagnostics.empty());
  Machine m = make_machine(active_spec(), a.program);
  DecodedProgram d = predecode(active_spec(), a.program, m);
  // a: 8 partitions (too few to cut); b: 2048 elements, below the threshold.
  auto instruction_of = [&](const Step& s) -> const Instruction& {
    return a.program.instructions[static_cast<std::size_t>(s.instruction)];
  };
  CHECK(split_partitions(active_spec(), d.steps, *d.tiles, instruction_of, kSplitMinElements).empty());
  CHECK(split_partitions(active_spec(), d.steps, *d.tiles, instruction_of, 1).steps.size() == 1);
}

}  // namespace
}  // namespace nisa
