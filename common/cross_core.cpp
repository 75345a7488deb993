#include "cross_core.hpp"

#include <algorithm>

namespace nisa {

namespace {

std::string shape_text(const Program& p, const TensorView& v) {
  std::string s(dtype_name(p.tensors[static_cast<std::size_t>(v.tensor)].dtype));
  s += '[';
  const std::vector<int64_t> counts = view_counts(v);
  for (std::size_t i = 0; i < counts.size(); ++i) s += (i ? ", " : "") + std::to_string(counts[i]);
  return s + ']';
}

class Matcher {
 public:
  Matcher(const Spec& spec, const Program& program, const std::vector<CrossCoreOp>& ops, const std::vector<uint32_t>& last_line)
      : spec_(spec), program_(program), ops_(ops), last_line_(last_line), queue_(static_cast<std::size_t>(core_count(program))),
        next_(queue_.size(), 0) {
    for (std::size_t i = 0; i < ops.size(); ++i) queue_.at(static_cast<std::size_t>(ops[i].core)).push_back(i);
  }

  CoreMeetings run() {
    CoreMeetings out;
    for (;;) {
      bool progress = false;
      for (int c = 0; c < cores() && !out.failure; ++c) {
        const CrossCoreOp* op = current(c);
        if (op == nullptr) continue;
        std::optional<Meeting> m = spec_of(*op).cross_core == CrossCore::pair ? pair_at(c, out) : barrier_at(c, out);
        if (!m) continue;
        for (std::size_t k : m->ops) ++next_[static_cast<std::size_t>(ops_[k].core)];
        out.meetings.push_back(std::move(*m));
        progress = true;
      }
      if (out.failure) return out;
      if (!progress) break;
    }
    for (int c = 0; c < cores(); ++c)
      if (const CrossCoreOp* op = current(c)) {
        out.failure = stuck(c, *op);
        break;
      }
    return out;
  }

 private:
  const Spec& spec_;
  const Program& program_;
  const std::vector<CrossCoreOp>& ops_;
  const std::vector<uint32_t>& last_line_;
  std::vector<std::vector<std::size_t>> queue_;  // per core: its ops in order
  std::vector<std::size_t> next_;                // per core: its next op in queue_

  int cores() const { return static_cast<int>(queue_.size()); }
  const InstructionSpec& spec_of(const CrossCoreOp& op) const {
    return spec_.instructions[static_cast<std::size_t>(op.instruction.spec_index)];
  }
  const Operand& operand(const CrossCoreOp& op, const char* name) const {
    return op.instruction.operands[static_cast<std::size_t>(spec_of(op).find_operand(name))];
  }
  std::size_t current_index(int c) const { return queue_[static_cast<std::size_t>(c)][next_[static_cast<std::size_t>(c)]]; }
  const CrossCoreOp* current(int c) const {
    const auto k = static_cast<std::size_t>(c);
    return next_[k] < queue_[k].size() ? &ops_[queue_[k][next_[k]]] : nullptr;
  }
  std::string where(const CrossCoreOp& op) const {
    return spec_of(op).name + " of core " + std::to_string(op.core) + " (line " + std::to_string(op.instruction.line) + ")";
  }
  // What core d is doing instead of meeting: waiting elsewhere, or finished.
  std::string instead(int d) const {
    if (const CrossCoreOp* other = current(d)) return "core " + std::to_string(d) + " waits at " + spec_of(*other).name + " (line " + std::to_string(other->instruction.line) + ")";
    const uint32_t last = last_line_.at(static_cast<std::size_t>(d));
    return "core " + std::to_string(d) + (last == 0 ? " has no instructions" : "'s instructions end at line " + std::to_string(last)) + " without it";
  }

  // NKI 0.6 sendrecv: c sends to send_to_rank and receives from recv_from_rank;
  // with two cores both are the other core, whose matching sendrecv sends back.
  std::optional<Meeting> pair_at(int c, CoreMeetings& out) {
    const CrossCoreOp& a = *current(c);
    const int to = static_cast<int>(operand(a, "send_to_rank").integer);
    const int from = static_cast<int>(operand(a, "recv_from_rank").integer);
    if (to != from) {
      out.failure = MeetingFailure{a.instruction.line, a.text_line, where(a) + " sends to core " + std::to_string(to) + " but receives from core " +
                                                           std::to_string(from) + "; nisa pairs each exchange between two cores"};
      return std::nullopt;
    }
    if (to < c) return std::nullopt;  // the pair is taken from its lower core
    const CrossCoreOp* b = current(to);
    if (b == nullptr || spec_of(*b).cross_core != CrossCore::pair || operand(*b, "send_to_rank").integer != c) return std::nullopt;
    const auto fail = [&](const std::string& why) { out.failure = MeetingFailure{a.instruction.line, a.text_line, why}; };
    if (a.instruction.spec_index != b->instruction.spec_index) {
      fail(where(a) + " meets " + where(*b) + "; both sides of an exchange are the same instruction");
      return std::nullopt;
    }
    if (spec_of(a).find_operand("pipe_id") >= 0) {
      const int64_t pipe_a = operand(a, "pipe_id").integer, pipe_b = operand(*b, "pipe_id").integer;
      if (pipe_a != pipe_b)
        fail(where(a) + " has pipe_id " + std::to_string(pipe_a) + " but " + where(*b) + ", its peer, has pipe_id " + std::to_string(pipe_b));
    }
    // sendrecv: a's src lands in b's dst; sendrecv_compute: b reduces a's src with its own (S16.2, S16.6).
    const bool reduces = spec_of(a).find_operand("reduce_op") >= 0;
    const std::string sent = shape_text(program_, operand(a, "src").view);
    const std::string received = shape_text(program_, operand(*b, reduces ? "src" : "dst").view);
    if (!out.failure && sent != received)
      fail(where(a) + " sends " + sent + " but " + where(*b) + (reduces ? " reduces it with " : " receives ") + received);
    if (out.failure) return std::nullopt;
    return Meeting{CrossCore::pair, {current_index(c), current_index(to)}};
  }

  // NKI 0.6 core_barrier: every core named meets at its next barrier, which names the same cores.
  // A core waiting at a barrier for other cores (one naming only itself, taken
  // alone) is not a mismatch yet: its own barrier may come first; if nothing
  // can move, stuck() names what each waits for.
  std::optional<Meeting> barrier_at(int c, CoreMeetings&) {
    const CrossCoreOp& a = *current(c);
    const std::vector<int32_t> named = barrier_cores(program_, operand(a, "cores").list, c);
    if (named.front() != c) return std::nullopt;  // taken from its lowest core
    Meeting m{CrossCore::barrier, {}};
    for (const int32_t d : named) {
      const CrossCoreOp* b = current(d);
      if (b == nullptr || spec_of(*b).cross_core != CrossCore::barrier) return std::nullopt;
      if (barrier_cores(program_, operand(*b, "cores").list, d) != named) return std::nullopt;
      m.ops.push_back(current_index(d));
    }
    return m;
  }

  // Core c waits at `op` and nothing can move: name whom it waits for.
  MeetingFailure stuck(int c, const CrossCoreOp& op) const {
    std::vector<int32_t> waits_for;
    if (spec_of(op).cross_core == CrossCore::pair) {
      waits_for.push_back(static_cast<int32_t>(operand(op, "send_to_rank").integer));
    } else {
      for (const int32_t d : barrier_cores(program_, operand(op, "cores").list, c))
        if (d != c) waits_for.push_back(d);
    }
    for (const int32_t d : waits_for) {
      const CrossCoreOp* other = current(d);
      const bool meets = other != nullptr && spec_of(*other).cross_core == spec_of(op).cross_core;
      if (!meets) return MeetingFailure{op.instruction.line, op.text_line, where(op) + " is never met: " + instead(d)};
    }
    // Both wait at the same kind of instruction, meant for other cores (more than two).
    return MeetingFailure{op.instruction.line, op.text_line, where(op) + " is never met: " + instead(waits_for.front())};
  }
};

}  // namespace

std::vector<int32_t> barrier_cores(const Program& program, const std::vector<int32_t>& named, int core) {
  std::vector<int32_t> out{core};
  if (std::find(named.begin(), named.end(), core) == named.end()) return out;  // not a party to it
  for (const int32_t d : named)
    if (d < core_count(program) && d != core) out.push_back(d);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

CoreMeetings match_meetings(const Spec& spec, const Program& program, const std::vector<CrossCoreOp>& ops,
                            const std::vector<uint32_t>& last_line) {
  return Matcher(spec, program, ops, last_line).run();
}

void CrossCoreCollector::add(const Spec& spec, int core, std::size_t position, const Instruction& ins, uint32_t text_line) {
  const auto k = static_cast<std::size_t>(core);
  if (last_line_.size() <= k) last_line_.resize(k + 1, 0);
  last_line_[k] = ins.line;
  if (spec.instructions[static_cast<std::size_t>(ins.spec_index)].cross_core != CrossCore::none)
    ops_.push_back(CrossCoreOp{core, position, ins, text_line});
}

CoreMeetings CrossCoreCollector::match(const Spec& spec, const Program& program) const {
  std::vector<uint32_t> last = last_line_;
  last.resize(static_cast<std::size_t>(core_count(program)), 0);
  return match_meetings(spec, program, ops_, last);
}

}  // namespace nisa
