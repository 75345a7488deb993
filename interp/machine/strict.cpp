// --strict (S1.1, S3, S5): the hazards the fast path ignores become runtime
// faults naming the instruction's source line. Kept out of the kernels: a
// separate pass before each step checks its reads, then the step runs
// unchanged, then its writes are recorded. Nothing here names an
// instruction: what one instruction does differently is its StrictHooks
// (strict.hpp, in instructions/<name>.cpp).
#include "strict.hpp"

#include <array>
#include <cstring>
#include <string>

#include "error.hpp"
#include "interpreter.hpp"
#include "loop_walk.hpp"

namespace nisa {

void StrictFault::operator()(const Step& s, const std::string& message) const {
  throw RuntimeFault(program.file + ":" + std::to_string(s.line) + ": error: " + message);
}

namespace {

constexpr StrictHooks kNoHooks{};

}  // namespace

const TileAccess* step_result_tile(const Step& s) {
  if (s.strict != nullptr && s.strict->result_tile != nullptr) return s.strict->result_tile(s);
  return s.staged ? s.final_dst : s.dst;
}

void step_tile_uses(const Step& s, std::vector<TileUse>& out) {
  const StrictHooks& hooks = s.strict != nullptr ? *s.strict : kNoHooks;
  if (hooks.tile_uses != nullptr && hooks.tile_uses(s, out)) return;
  for (int k = 0; k < s.inputs; ++k) out.push_back(TileUse{s.in[k], false, hooks.partition_every, false, {}});
  for (const PartitionScalar& ps : s.scalar)
    if (ps.present && ps.tile != nullptr) out.push_back(TileUse{ps.tile, false, 1, false, {}});
  const TileAccess* result = step_result_tile(s);
  if (result != nullptr) out.push_back(TileUse{result, true, hooks.partition_every, hooks.written_elements != nullptr, {}});
  if (s.reduce_res != nullptr) out.push_back(TileUse{s.reduce_res, true, 1, false, {}});
}

struct StrictRun::Tracker {
  const Program& program;
  Machine& machine;
  ZeroedBytes sbuf_written, psum_written;  // one flag per byte (S1.1)
  std::array<bool, kLanes> vector_lane_defined{};   // S1.3: never reset = undefined
  std::array<bool, kLanes> scalar_lane_defined{};

  StrictFault fault{program};

  // The written-flags of the memory a tile lives in, and the tile's offset in it.
  uint8_t* flags(const TileAccess& t, const uint8_t* address) {
    if (t.memory == Memory::sbuf) return sbuf_written.data() + (address - machine.sbuf.data());
    if (t.memory == Memory::psum) return psum_written.data() + (address - machine.psum.data());
    return nullptr;  // HBM is always initialised
  }

  void check_read(const Step& s, const TileAccess& t, int64_t partition_every, const char* what) {
    if (t.memory == Memory::hbm || t.base == nullptr) return;
    for_each_element(t, partition_every, [&](int64_t p, int64_t i, const uint8_t* address) {
      const uint8_t* f = flags(t, address);
      for (int64_t b = 0; b < t.element_size; ++b)
        if (f[b] == 0)
          fault(s, std::string("reads ") + what + " element " + std::to_string(i) + " of partition " +
                       std::to_string(t.first_partition + p) + ", " + std::string(memory_name(t.memory)) +
                       " bytes never written (S1.1)");
    });
  }

  void mark_written(const TileAccess& t, int64_t partition_every) {
    if (t.memory == Memory::hbm || t.base == nullptr) return;
    for_each_element(t, partition_every, [&](int64_t, int64_t, const uint8_t* address) {
      uint8_t* f = flags(t, address);
      for (int64_t b = 0; b < t.element_size; ++b) f[b] = 1;
    });
  }

  // S1.3/S3: `reduce`, or a reduce_res read, of a lane that holds no defined
  // value: never reset (either engine), or, on the Vector engine, last
  // touched by an idle select_reduce/range_select (S3: NKI's select_reduce docstring warns hardware
  // may disturb the registers on idle).
  void check_accumulator(const Step& s) {
    if (s.accumulator == AccumulatorEngine::none) return;
    const bool vector = s.accumulator == AccumulatorEngine::vector;
    std::array<bool, kLanes>& lanes = vector ? vector_lane_defined : scalar_lane_defined;
    const std::string engine = vector ? "Vector" : "Scalar";
    const std::string why = vector ? "never reset or last touched by an idle select_reduce/range_select" : "never reset";
    for (int64_t p = 0; p < s.partitions; ++p) {
      bool& defined = lanes[static_cast<std::size_t>(s.first_lane + p)];
      const std::string lane = engine + " accumulator lane " + std::to_string(s.first_lane + p);
      switch (s.reduce_cmd) {
        case ReduceCmd::reduce:
          if (!defined) fault(s, "reduce onto " + lane + ", which was " + why + " (S3)");
          break;
        case ReduceCmd::reset:
        case ReduceCmd::reset_reduce: defined = true; break;
        case ReduceCmd::idle:
          if (vector) defined = false;
          break;
      }
      if (s.reduce_res != nullptr && !defined)
        fault(s, "reduce_res reads " + lane + ", which was " + why + " (S3)");
    }
  }

  void run(const Step& s) {
    const StrictHooks& hooks = s.strict != nullptr ? *s.strict : kNoHooks;
    for (int k = 0; k < s.inputs; ++k) check_read(s, *s.in[k], hooks.partition_every, "an input");
    for (const PartitionScalar& ps : s.scalar)
      if (ps.present && ps.tile != nullptr) check_read(s, *ps.tile, 1, "a [P, 1] operand");
    if (hooks.check != nullptr) hooks.check(s, fault);
    check_accumulator(s);
    const TileAccess* result = step_result_tile(s);
    if (result == nullptr) {  // writes no tile (core_barrier)
      execute_step(s, machine);
      return;
    }
    const TileAccess& dst = *result;
    if (hooks.written_elements != nullptr) {
      std::vector<uint8_t*> written;
      hooks.written_elements(s, written);
      execute_step(s, machine);
      for (uint8_t* address : written) std::memset(flags(dst, address), 1, static_cast<std::size_t>(dst.element_size));
    } else {
      execute_step(s, machine);
      mark_written(dst, hooks.partition_every);
    }
    if (s.reduce_res != nullptr) mark_written(*s.reduce_res, 1);
  }
};

StrictRun::StrictRun(const Program& program, Machine& machine)
    : tracker_(new Tracker{program, machine, ZeroedBytes(machine.sbuf.size()), ZeroedBytes(machine.psum.size()), {}, {}}) {}
StrictRun::StrictRun(StrictRun&&) noexcept = default;
StrictRun::~StrictRun() = default;
void StrictRun::run(const Step& s) { tracker_->run(s); }

void execute_strict(const Program& program, const std::vector<Step>& steps, Machine& machine,
                    Interruption* interruption) {
  StrictRun strict(program, machine);
  walk_positions(0, steps.size(), machine, [&](std::size_t i) -> const Step& { return steps[i]; }, [&](std::size_t i) {
    strict.run(steps[i]);
    between_steps(interruption);
  });
}

}  // namespace nisa
