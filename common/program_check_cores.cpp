// check_on_core (program_check.hpp): the checks of an instruction that depend
// on the core running it, in a program for several cores (LANGUAGE.md 2.7,
// SEMANTICS S16).
#include <algorithm>

#include "program_check.hpp"

namespace nisa {

namespace {

void check_view_core(const Program& p, const TensorView& v, int core, int operand, const std::string& key,
                     std::vector<CheckFailure>& out) {
  if (v.tensor < 0 || static_cast<std::size_t>(v.tensor) >= p.tensors.size()) return;  // check_instruction's
  const TensorDecl& t = p.tensors[static_cast<std::size_t>(v.tensor)];
  if (t.core != TensorDecl::kShared && t.core != core)
    out.push_back({operand, key + ": tensor '" + t.name + "' is core " + std::to_string(t.core) + "'s; this instruction runs on core " +
                                std::to_string(core) + " (a core reaches only its own SBUF, PSUM and private HBM, and shared HBM)"});
  for (const TensorView& index : v.index) check_view_core(p, index, core, operand, key, out);
}

std::string cores_text(int cores) { return std::to_string(cores) + (cores == 1 ? " core" : " cores"); }

}  // namespace

std::vector<CheckFailure> check_on_core(const Spec& spec, const Program& program, const Instruction& ins, int core) {
  std::vector<CheckFailure> out;
  const InstructionSpec& is = spec.instructions.at(static_cast<std::size_t>(ins.spec_index));
  for (std::size_t i = 0; i < ins.operands.size() && i < is.operands.size(); ++i) {
    const Operand& o = ins.operands[i];
    const std::string& key = is.operands[i].name;
    if (o.state == OperandState::tensor) check_view_core(program, o.view, core, static_cast<int>(i), key, out);
    for (const TensorView& v : o.views) check_view_core(program, v, core, static_cast<int>(i), key, out);
  }
  if (is.cross_core == CrossCore::none) return out;
  const int cores = core_count(program);
  if (cores < 2 && is.cross_core == CrossCore::pair) {
    out.push_back({-1, is.name + " meets other cores; this program has one (declare `.cores 2` on an arch with two)"});
    return out;
  }
  // A rank of another core of the program (NKI 0.6 sendrecv: "must be either 0 or 1" with LNC=2).
  auto other_core = [&](const char* name) {
    const int k = is.find_operand(name);
    const int64_t rank = ins.operands[static_cast<std::size_t>(k)].integer;
    if (rank >= cores) out.push_back({k, std::string(name) + " " + std::to_string(rank) + " is not a core of this program (it has " + cores_text(cores) + ")"});
    else if (rank == core) out.push_back({k, std::string(name) + " " + std::to_string(rank) + " is this instruction's own core"});
  };
  if (is.cross_core == CrossCore::pair) {
    other_core("send_to_rank");
    other_core("recv_from_rank");
    // NKI sendrecv_compute: src and dst "both in SBUF or both in private HBM".
    const int src = is.find_operand("src"), dst = is.find_operand("dst");
    const TensorDecl& s = program.tensors[static_cast<std::size_t>(ins.operands[static_cast<std::size_t>(src)].view.tensor)];
    const TensorDecl& d = program.tensors[static_cast<std::size_t>(ins.operands[static_cast<std::size_t>(dst)].view.tensor)];
    if (s.memory != d.memory) out.push_back({dst, "dst is in " + std::string(memory_name(d.memory)) + " and src in " + std::string(memory_name(s.memory)) + "; they are in one memory"});
    for (const TensorDecl* t : {&s, &d})
      if (t->memory == Memory::hbm && t->core == TensorDecl::kShared)
        out.push_back({t == &s ? src : dst, "tensor '" + t->name + "' is shared HBM; " + is.name + " takes SBUF or the core's private HBM"});
    // NKI 0.6 sendrecv: dma_engine=gpsimd_dma moves at most 1024 bytes per
    // partition of 4-byte dtypes, 512 of 2-byte and 256 of 1-byte: 256 elements.
    const int engine = is.find_operand("dma_engine");
    const auto engine_name = [&] {
      const EnumSpec& e = spec.enums[static_cast<std::size_t>(is.operands[static_cast<std::size_t>(engine)].enum_id)];
      return e.values[static_cast<std::size_t>(ins.operands[static_cast<std::size_t>(engine)].integer)].name;
    };
    if (engine >= 0 && engine_name() == "gpsimd_dma") {
      const int64_t elements = view_elements_per_partition(ins.operands[static_cast<std::size_t>(src)].view);
      if (elements > 256)
        out.push_back({engine, "dma_engine=gpsimd_dma moves at most 256 elements per partition (1024 bytes of a 4-byte dtype, 512 of 2-byte, "
                               "256 of 1-byte); src has " + std::to_string(elements)});
    }
    return out;
  }
  // NKI 0.6 core_barrier: data "must be data in shared HBM".
  const int data = is.find_operand("data");
  const TensorDecl& shared = program.tensors[static_cast<std::size_t>(ins.operands[static_cast<std::size_t>(data)].view.tensor)];
  if (shared.core != TensorDecl::kShared)
    out.push_back({data, "tensor '" + shared.name + "' is core " + std::to_string(shared.core) + "'s private HBM; core_barrier's data is shared HBM"});
  const int k = is.find_operand("cores");
  const std::vector<int32_t>& named = ins.operands[static_cast<std::size_t>(k)].list;
  // NKI 0.7 core_barrier: cores=(0, 1) "applies at LNC degree 1 and 2"; a
  // named core the program does not have is not waited for (barrier_cores).
  for (std::size_t a = 0; a < named.size(); ++a)
    if (std::find(named.begin(), named.begin() + static_cast<std::ptrdiff_t>(a), named[a]) != named.begin() + static_cast<std::ptrdiff_t>(a))
      out.push_back({k, "cores names core " + std::to_string(named[a]) + " twice"});
  return out;
}

}  // namespace nisa
