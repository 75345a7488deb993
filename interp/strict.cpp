// --strict (S1.1, S3, S5): the hazards the fast path ignores become runtime
// faults naming the instruction's source line. Kept out of the kernels: a
// separate pass before each step checks its reads, then the step runs
// unchanged, then its writes are recorded.
#include <array>
#include <cmath>
#include <cstring>
#include <string>

#include "activation_functions.hpp"
#include "alu.hpp"
#include "error.hpp"
#include "interpreter.hpp"

namespace nisa {
namespace {

struct Tracker {
  const Program& program;
  Machine& machine;
  ZeroedBytes sbuf_written, psum_written;  // one flag per byte (S1.1)
  std::array<bool, kLanes> vector_lane_defined{};   // S1.3: never reset = undefined
  std::array<bool, kLanes> scalar_lane_defined{};

  [[noreturn]] void fault(const Step& s, const std::string& message) const {
    throw RuntimeFault(program.file + ":" + std::to_string(s.line) + ": error: " + message);
  }

  // The written-flags of the memory a tile lives in, and the tile's offset in it.
  uint8_t* flags(const TileAccess& t, const uint8_t* address) {
    if (t.memory == Memory::sbuf) return sbuf_written.data() + (address - machine.sbuf.data());
    if (t.memory == Memory::psum) return psum_written.data() + (address - machine.psum.data());
    return nullptr;  // HBM is always initialised
  }

  template <class F>
  void each_element(const TileAccess& t, int64_t partition_every, F f) {
    const int64_t rows = t.row_length == 0 ? 0 : t.elements / t.row_length;
    for (int64_t p = 0; p < t.partitions; ++p) {
      if ((t.first_partition + p) % partition_every != 0) continue;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < t.row_length; ++j)
          f(p, r * t.row_length + j, t.partition(p) + t.row_offsets[static_cast<std::size_t>(r)] + j * t.element_stride);
    }
  }

  void check_read(const Step& s, const TileAccess& t, int64_t partition_every, const char* what) {
    if (t.memory == Memory::hbm || t.base == nullptr) return;
    each_element(t, partition_every, [&](int64_t p, int64_t i, const uint8_t* address) {
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
    each_element(t, partition_every, [&](int64_t, int64_t, const uint8_t* address) {
      uint8_t* f = flags(t, address);
      for (int64_t b = 0; b < t.element_size; ++b) f[b] = 1;
    });
  }

  // S5: the value an activation function receives, recomputed from the step's
  // first stage, must lie in the function's valid range.
  void check_activation_inputs(const Step& s) {
    if (s.prestage == Step::Prestage::none) return;
    const TileAccess& data = *s.in[0];
    each_element(data, 1, [&](int64_t p, int64_t i, const uint8_t* address) {
      float v;
      data.load(address, data.element_stride, 1, &v);
      const float a = s.scalar[0].at(p), b = s.scalar[1].at(p);
      if (s.prestage == Step::Prestage::scale_bias) {
        const float scaled = v * a;
        v = scaled + b;
      } else {
        alu_with_scalar(s.op0, &v, a, s.flag0, &v, 1);
        if (s.op1 != AluOp::bypass) alu_with_scalar(s.op1, &v, b, s.flag1, &v, 1);
      }
      if (!activation_input_valid(s.activation, v))
        fault(s, std::string(activation_name(s.activation)) + " input " + std::to_string(v) + " (partition " +
                     std::to_string(data.first_partition + p) + ", element " + std::to_string(i) +
                     ") is outside the hardware's valid range (S5)");
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

  // tensor_copy_predicated writes only the selected elements (S4.2): their
  // addresses, taken before the step runs (dst may overlap the predicate).
  std::vector<uint8_t*> selected_elements(const Step& s) {
    std::vector<uint8_t*> out;
    const TileAccess& pred = *s.in[0];
    const TileAccess& dst = s.staged ? *s.final_dst : *s.dst;
    each_element(dst, 1, [&](int64_t p, int64_t i, const uint8_t* address) {
      const uint8_t* pa = pred.partition(p) + pred.row_offsets[static_cast<std::size_t>(i / pred.row_length)] +
                          (i % pred.row_length) * pred.element_stride;
      uint32_t v = 0;
      std::memcpy(&v, pa, static_cast<std::size_t>(pred.element_size));  // little-endian: the low bytes
      if ((v != 0) != s.flag0) out.push_back(const_cast<uint8_t*>(address));
    });
    return out;
  }

  void run(const Step& s) {
    for (int k = 0; k < s.inputs; ++k) check_read(s, *s.in[k], s.partition_every, "an input");
    for (const PartitionScalar& ps : s.scalar)
      if (ps.present && ps.tile != nullptr) check_read(s, *ps.tile, 1, "a [P, 1] operand");
    check_activation_inputs(s);
    check_accumulator(s);
    if (s.predicated) {
      const std::vector<uint8_t*> written = selected_elements(s);
      execute_step(s, machine);
      const TileAccess& dst = s.staged ? *s.final_dst : *s.dst;
      for (uint8_t* address : written) std::memset(flags(dst, address), 1, static_cast<std::size_t>(dst.element_size));
      return;
    }
    execute_step(s, machine);
    mark_written(s.staged || s.result_in_final_dst ? *s.final_dst : *s.dst, s.partition_every);
    if (s.reduce_res != nullptr) mark_written(*s.reduce_res, 1);
  }
};

}  // namespace

void execute_strict(const Program& program, const std::vector<Step>& steps, Machine& machine) {
  Tracker t{program, machine, ZeroedBytes(machine.sbuf.size()), ZeroedBytes(machine.psum.size()), {}, {}};
  for (const Step& s : steps) t.run(s);
}

}  // namespace nisa
