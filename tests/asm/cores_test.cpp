// Programs for several cores (LANGUAGE.md 2.7, SEMANTICS S16): how their
// cross-core instructions are matched into meetings (common/cross_core.cpp),
// the checks that depend on the core an instruction runs on
// (check_on_core), each core's SBUF and PSUM placed on their own, and the
// scoping of tensor names (TensorChecker).
#include <algorithm>

#include "asm_test_support.hpp"
#include "cross_core.hpp"
#include "program_check.hpp"

namespace {

using nisa::CrossCore;
using nisa::CrossCoreOp;
using nisa::Program;

// core 0: lines 6-10, core 1: lines 13-17 (a sendrecv, a barrier, a sendrecv each).
const char* const kTwoCores =
    ".arch trn2\n"                                                                     // 1
    ".cores 2\n"                                                                       // 2
    ".hbm h f32 [128, 8] output\n"                                                     // 3
    ".core 0\n"                                                                        // 4
    ".sbuf a f32 [128, 8]\n"                                                           // 5
    "memset dst=a, value=1.0\n"                                                        // 6
    "sendrecv src=a, dst=a, send_to_rank=1, recv_from_rank=1, pipe_id=3\n"             // 7
    "core_barrier data=h, cores=[0, 1]\n"                                              // 8
    "sendrecv src=a[0:64, :], dst=a[64:128, :], send_to_rank=1, recv_from_rank=1, pipe_id=0\n"  // 9
    "dma_copy dst=h, src=a\n"                                                          // 10
    ".core 1\n"                                                                        // 11
    ".sbuf a f32 [128, 8]\n"                                                           // 12
    "memset dst=a, value=2.0\n"                                                        // 13
    "sendrecv src=a, dst=a, send_to_rank=0, recv_from_rank=0, pipe_id=3\n"             // 14
    "core_barrier data=h, cores=[1, 0]\n"                                              // 15
    "sendrecv src=a[64:128, :], dst=a[0:64, :], send_to_rank=0, recv_from_rank=0, pipe_id=0\n"  // 16
    "tensor_scalar dst=a, data=a, op0=add, operand0=1.0\n";                            // 17

// The cross-core ops of a program, as the assembler and the .nbin decoder collect them.
std::vector<CrossCoreOp> ops_of(const Program& p) {
  std::vector<CrossCoreOp> ops;
  for (int core = 0; core < nisa::core_count(p); ++core) {
    const nisa::PositionRange r = nisa::core_positions(p, core, p.instructions.size());
    for (std::size_t i = r.begin; i < r.end; ++i)
      if (asm_test::spec().instructions[static_cast<std::size_t>(p.instructions[i].spec_index)].cross_core != CrossCore::none)
        ops.push_back(CrossCoreOp{core, i, p.instructions[i], p.instructions[i].line});
  }
  return ops;
}

// What `match_meetings` says of `ops`, the cores' last lines taken from the program.
nisa::CoreMeetings meet(const Program& p, const std::vector<CrossCoreOp>& ops) {
  std::vector<uint32_t> last;
  for (int core = 0; core < nisa::core_count(p); ++core) {
    const nisa::PositionRange r = nisa::core_positions(p, core, p.instructions.size());
    last.push_back(r.end > r.begin ? p.instructions[r.end - 1].line : 0);
  }
  return nisa::match_meetings(asm_test::spec(), p, ops, last);
}

std::string failure(const Program& p, const std::vector<CrossCoreOp>& ops) {
  const nisa::CoreMeetings m = meet(p, ops);
  return m.failure ? m.failure->message : "";
}

nisa::Operand& operand(CrossCoreOp& op, const char* name) {
  const auto& is = asm_test::spec().instructions[static_cast<std::size_t>(op.instruction.spec_index)];
  return op.instruction.operands[static_cast<std::size_t>(is.find_operand(name))];
}

std::vector<std::string> check_messages(const Program& p, const nisa::Instruction& ins, int core) {
  std::vector<std::string> out;
  for (const auto& f : nisa::check_on_core(asm_test::spec(), p, ins, core)) out.push_back(f.message);
  return out;
}

}  // namespace

TEST_CASE("match_meetings pairs each core's k-th sendrecv with the other's, barriers in between, in program order") {
  const Program p = asm_test::assemble_ok(kTwoCores);
  const std::vector<CrossCoreOp> ops = ops_of(p);
  REQUIRE(ops.size() == 6);
  const nisa::CoreMeetings m = meet(p, ops);
  REQUIRE_FALSE(m.failure);
  REQUIRE(m.meetings.size() == 3);
  const CrossCore kinds[] = {CrossCore::pair, CrossCore::barrier, CrossCore::pair};
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(m.meetings[k].kind == kinds[k]);
    REQUIRE(m.meetings[k].ops.size() == 2);
    // In core order: core 0's op of the meeting, then core 1's; lines 7/14, 8/15, 9/16.
    CHECK(ops[m.meetings[k].ops[0]].core == 0);
    CHECK(ops[m.meetings[k].ops[1]].core == 1);
    CHECK(ops[m.meetings[k].ops[0]].instruction.line == 7 + k);
    CHECK(ops[m.meetings[k].ops[1]].instruction.line == 14 + k);
  }
}

TEST_CASE("a side whose peer never comes, and sides that disagree, fail with both lines named") {
  const Program p = asm_test::assemble_ok(kTwoCores);
  const std::vector<CrossCoreOp> all = ops_of(p);

  // Core 1 without its last sendrecv: core 0's (line 9) waits while core 1 ends at line 17.
  std::vector<CrossCoreOp> ops(all.begin(), all.end() - 1);
  CHECK(failure(p, ops) == "sendrecv of core 0 (line 9) is never met: core 1's instructions end at line 17 without it");
  // Core 1 without its barrier: core 0's barrier (line 8) meets core 1's sendrecv (line 16).
  ops = all;
  ops.erase(ops.begin() + 4);
  CHECK(failure(p, ops) == "core_barrier of core 0 (line 8) is never met: core 1 waits at sendrecv (line 16)");
  // The failure carries the line and text line of the side reported.
  const nisa::CoreMeetings m = meet(p, ops);
  REQUIRE(m.failure);
  CHECK(m.failure->line == 8);
  CHECK(m.failure->text_line == 8);

  ops = all;
  operand(ops[3], "pipe_id").integer = 4;
  CHECK(failure(p, ops) == "sendrecv of core 0 (line 7) has pipe_id 3 but sendrecv of core 1 (line 14), its peer, has pipe_id 4");
  // Core 0's second sendrecv now sends all of `a` ([128, 8]) where core 1 receives [64, 8].
  ops = all;
  operand(ops[2], "src").view = operand(ops[0], "src").view;
  CHECK(failure(p, ops) == "sendrecv of core 0 (line 9) sends f32[128, 8] but sendrecv of core 1 (line 16) receives f32[64, 8]");
  // A sendrecv sending to one core and receiving from another (only possible beyond two cores).
  ops = all;
  operand(ops[0], "recv_from_rank").integer = 0;
  CHECK(failure(p, ops) ==
        "sendrecv of core 0 (line 7) sends to core 1 but receives from core 0; nisa pairs each exchange between two cores");
}

TEST_CASE("barrier participants: the named cores the program has, when they name the core running it") {
  const Program one = asm_test::assemble_ok(".arch trn2\n.hbm h f32 [4, 4] output\ncore_barrier data=h, cores=[0, 1]\n");
  const Program two = asm_test::assemble_ok(kTwoCores);
  CHECK(nisa::barrier_cores(one, {0, 1}, 0) == std::vector<int32_t>{0});
  CHECK(nisa::barrier_cores(two, {0, 1}, 0) == std::vector<int32_t>{0, 1});
  CHECK(nisa::barrier_cores(two, {1, 0, 5}, 1) == std::vector<int32_t>{0, 1});
  CHECK(nisa::barrier_cores(two, {0}, 1) == std::vector<int32_t>{1});  // not naming core 1: it waits for no one
  CHECK(nisa::barrier_cores(two, {0}, 0) == std::vector<int32_t>{0});  // cores=(0,) on core 0 waits for no one
  CHECK(nisa::barrier_cores(two, {1}, 1) == std::vector<int32_t>{1});

  // At one core, cores=(0, 1) (as NKI kernels pass it at LNC=1) waits for no one: a meeting of core 0 alone.
  const nisa::CoreMeetings m = meet(one, ops_of(one));
  REQUIRE_FALSE(m.failure);
  REQUIRE(m.meetings.size() == 1);
  CHECK(m.meetings[0].kind == CrossCore::barrier);
  CHECK(m.meetings[0].ops.size() == 1);
}

TEST_CASE("a barrier naming only its own core meets alone, before the other core's barrier for both") {
  const Program p = asm_test::assemble_ok(
      ".arch trn2\n.cores 2\n.hbm h f32 [4, 4] output\n.core 0\ncore_barrier data=h, cores=[0, 1]\n"
      ".core 1\ncore_barrier data=h, cores=[1]\ncore_barrier data=h, cores=[0, 1]\n");
  const std::vector<CrossCoreOp> ops = ops_of(p);
  const nisa::CoreMeetings m = meet(p, ops);
  REQUIRE_FALSE(m.failure);
  REQUIRE(m.meetings.size() == 2);
  REQUIRE(m.meetings[0].ops.size() == 1);
  CHECK(ops[m.meetings[0].ops[0]].instruction.line == 7);
  REQUIRE(m.meetings[1].ops.size() == 2);
  CHECK(ops[m.meetings[1].ops[0]].instruction.line == 5);
  CHECK(ops[m.meetings[1].ops[1]].instruction.line == 8);
}

TEST_CASE("check_on_core: a core reaches shared HBM and its own tensors; ranks name the other core") {
  const Program p = asm_test::assemble_ok(kTwoCores);
  REQUIRE(p.tensors.size() == 3);  // h (shared), core 0's a, core 1's a
  CHECK(p.tensors[0].core == nisa::TensorDecl::kShared);
  CHECK(p.tensors[1].core == 0);
  CHECK(p.tensors[2].core == 1);
  for (std::size_t i = 0; i < p.instructions.size(); ++i) {
    const int core = i < p.core_starts[1] ? 0 : 1;
    CHECK(check_messages(p, p.instructions[i], core).empty());
  }
  // Core 0's `dma_copy dst=h, src=a` (shared h, core 0's a) run by core 1.
  const nisa::Instruction& copy = p.instructions[4];
  REQUIRE(copy.line == 10);
  CHECK(check_messages(p, copy, 1) == std::vector<std::string>{
      "src: tensor 'a' is core 0's; this instruction runs on core 1 (a core reaches only its own SBUF, PSUM and private HBM, and shared HBM)"});

  // Core 0's first sendrecv run by core 1: its tensors and its ranks are wrong there.
  const auto on_1 = check_messages(p, p.instructions[1], 1);
  REQUIRE(on_1.size() == 4);
  CHECK(on_1[0].find("tensor 'a' is core 0's") != std::string::npos);
  CHECK(on_1[2] == "send_to_rank 1 is this instruction's own core");
  CHECK(on_1[3] == "recv_from_rank 1 is this instruction's own core");

  nisa::Instruction far = p.instructions[1];
  far.operands[static_cast<std::size_t>(asm_test::spec().instructions[static_cast<std::size_t>(far.spec_index)].find_operand("send_to_rank"))].integer = 2;
  CHECK(check_messages(p, far, 0) == std::vector<std::string>{"send_to_rank 2 is not a core of this program (it has 2 cores)"});

  // A sendrecv in a program for one core; a barrier naming a core twice.
  Program one = p;
  one.core_starts.clear();
  for (auto& t : one.tensors) t.core = nisa::TensorDecl::kShared;
  CHECK(check_messages(one, p.instructions[1], 0) ==
        std::vector<std::string>{"sendrecv meets other cores; this program has one (declare `.cores 2` on an arch with two)"});
  nisa::Instruction twice = p.instructions[2];
  twice.operands[static_cast<std::size_t>(asm_test::spec().instructions[static_cast<std::size_t>(twice.spec_index)].find_operand("cores"))].list = {0, 1, 1};
  CHECK(check_messages(p, twice, 0) == std::vector<std::string>{"cores names core 1 twice"});
}

TEST_CASE("each core's SBUF and PSUM are placed on their own: both cores may fill them") {
  // 229376 bytes: all of a trn2 SBUF partition; 16384: all of PSUM.
  const Program p = asm_test::assemble_ok(
      ".arch trn2\n.cores 2\n.core 0\n.sbuf a f32 [128, 28672]\n.sbuf b f32 [128, 28672]\n.psum s f32 [128, 4096]\n"
      ".core 1\n.sbuf c f32 [128, 16]\n.sbuf d f32 [128, 57328]\n.psum s f32 [128, 16]\n.psum u f32 [128, 4080]\n");
  REQUIRE(p.tensors.size() == 7);
  const int64_t offsets[] = {0, 114688, 0, 0, 64, 0, 64};
  for (std::size_t i = 0; i < 7; ++i) CHECK(p.tensors[i].offset == offsets[i]);
  // One core over its SBUF is refused, naming what that core alone uses.
  CHECK(asm_test::first_error(".arch trn2\n.cores 2\n.core 0\n.sbuf a f32 [128, 28672]\n.core 1\n.sbuf c f32 [128, 28672]\n"
                              ".sbuf d f32 [128, 28672]\n.sbuf e f32 [128, 16]\n") ==
        "no room for tensor 'e' (64 bytes per partition): sbuf has 229376 bytes per partition on trn2, 229376 already in use");
}

TEST_CASE("TensorChecker: names are scoped by core; shared tensors first, then the sections in order") {
  const Program p = asm_test::assemble_ok(kTwoCores);
  auto messages = [](const Program& prog) {
    nisa::TensorChecker checker;
    std::vector<std::string> out;
    for (int i = 0; i < static_cast<int>(prog.tensors.size()); ++i)
      for (const auto& f : checker.check(asm_test::spec(), prog, i)) out.push_back(f.message);
    return out;
  };
  CHECK(messages(p).empty());  // `a` in both sections
  for (int i = 0; i < 3; ++i) CHECK(nisa::check_tensor(asm_test::spec(), p, i).empty());

  Program clash = p;  // core 1's tensor named like the shared one
  clash.tensors[2].name = std::string("h");  // (not = "h": g++ 12 -Wrestrict false positive)
  CHECK(messages(clash) == std::vector<std::string>{"tensor 'h' is declared twice"});
  CHECK(nisa::check_tensor(asm_test::spec(), clash, 2)[0].message == "tensor 'h' is declared twice");

  Program same_core = p;  // two tensors of core 0 with one name
  same_core.tensors[2].core = 0;
  CHECK(messages(same_core) == std::vector<std::string>{"tensor 'a' is declared twice"});

  Program late = p;  // a shared tensor after the sections' tensors
  std::rotate(late.tensors.begin(), late.tensors.begin() + 1, late.tensors.end());
  CHECK(messages(late) == std::vector<std::string>{"tensor 'h' of every core is declared after tensors of core 1"});

  Program outside = p;  // SBUF that no section declares
  outside.tensors[1].core = nisa::TensorDecl::kShared;
  outside.tensors[1].name = std::string("b");
  CHECK(messages(outside).at(0) ==
        "tensor 'b' in sbuf is declared outside the .core sections; each core has its own sbuf: declare it in the section of the core that uses it");
}
