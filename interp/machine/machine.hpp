// The modeled machine's state (S1.1, S1.3): one byte array per HBM tensor,
// SBUF and PSUM as 128 partitions of the arch's sizes (one partition-major
// buffer each, zero-filled), and the two accumulating engines' FP32 lanes.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "program.hpp"
#include "random_state.hpp"
#include "spec.hpp"

namespace nisa {

inline constexpr int kLanes = 128;

// A zero-filled byte buffer mapped straight from the OS: its pages cost
// nothing until touched (fast start-up), buffers of 1 MiB and more are whole
// 2 MiB-aligned pages that ask for transparent huge pages (one fault per 2 MiB
// instead of 512; where the kernel refuses they stay ordinary pages), and an
// inaccessible guard page on each side turns a stray access just outside it
// into a crash. Not calloc:
// under AddressSanitizer a heap block of SBUF's size costs milliseconds of
// shadow poisoning per allocation, which dominated every fuzz execution.
// Buffers up to kHeapBytes come from the heap instead (zeroed, 64-byte
// aligned): three syscalls per buffer would dominate a run of a tiny program
// (nisa.run in process), and the allocator's own red zones guard them.
class ZeroedBytes {
 public:
  ZeroedBytes() = default;
  explicit ZeroedBytes(std::size_t size);
  // `size` bytes that belong to someone else (a caller's input array read in
  // place, LANGUAGE.md 4): never freed here, and only ever read (the caller
  // makes sure nothing writes them and that they outlive this object).
  static ZeroedBytes borrow(const uint8_t* data, std::size_t size);
  // The bytes of `owner`, read and written through this object too, never
  // freed here (another core's view of shared HBM; `owner` outlives it).
  static ZeroedBytes share(ZeroedBytes& owner);
  bool borrowed() const { return bytes_.get_deleter().borrowed; }
  uint8_t* data() { return bytes_.get(); }
  const uint8_t* data() const { return bytes_.get(); }
  std::size_t size() const { return size_; }
  std::span<uint8_t> bytes() { return {data(), size_}; }
  std::span<const uint8_t> bytes() const { return {data(), size_}; }

 private:
  static constexpr std::size_t kHeapBytes = 64 << 10;
  struct Unmap {
    uint8_t* mapping;  // the whole mapping, guard pages included, or nullptr: a heap block (no initialisers:
    std::size_t mapped;  // a nested class's are not usable inside its enclosing one)
    bool borrowed;       // someone else's bytes: nothing to free
    void operator()(uint8_t* p) const;
  };
  std::unique_ptr<uint8_t, Unmap> bytes_;
  std::size_t size_ = 0;
};

// Where device_print's text goes (SEMANTICS S15.1): the run pipeline's
// stdout, a file's buffer, or Python's callback. Called between steps, on the
// thread that runs the program; may throw to stop the run.
class PrintOutput {
 public:
  virtual void write(std::string_view text) = 0;

 protected:
  ~PrintOutput() = default;
};

struct Machine {
  // Internal partition strides: the bytes per partition the program's
  // SBUF/PSUM tensors use (S1.1 sizes bound them; check_tensor), so a [128, 1]
  // tile touches a few pages rather than one per partition. --dump-state
  // writes the arch's layout (arch_*_partition_bytes) all the same.
  int64_t sbuf_partition_bytes = 0;
  int64_t psum_partition_bytes = 0;
  int64_t arch_sbuf_partition_bytes = 0;
  int64_t arch_psum_partition_bytes = 0;
  ZeroedBytes sbuf;                        // partition p at p * sbuf_partition_bytes
  ZeroedBytes psum;                        // partition p at p * psum_partition_bytes
  // Indexed by tensor; empty for SBUF/PSUM tensors. Zero pages until written:
  // an input read from its file or an output never stored costs no zeroing.
  // An input the program never writes may be a caller's array read in place
  // (ZeroedBytes::borrow; nisa.run); an output may leave the machine as the
  // memory of a NumPy array (moved out after the run).
  std::vector<ZeroedBytes> hbm;
  std::array<float, kLanes> vector_accumulator{};  // S1.3: starts at -inf
  std::array<float, kLanes> scalar_accumulator{};  // S1.3: starts at 0
  // S11.5: the Vector and GpSimd engines' XORWOW generators per lane, as
  // set_rng_seed(0) leaves them when the machine starts.
  std::array<std::array<XorwowState, kVectorGenerators>, kLanes> vector_rng{};
  std::array<std::array<XorwowState, kGpsimdGenerators>, kLanes> gpsimd_rng{};
  // S17.1: the sequencer registers (`.reg`), by index into Program::registers;
  // bit r of registers_set says register r holds a value (reading one that
  // does not is a runtime fault: registers.hpp).
  std::array<int32_t, kMaxRegisters> registers{};
  uint64_t registers_set = 0;
  // S17.2: the instructions runtime loops may run before the run stops with a
  // fault (an endless while_loop), counted over loop iterations; not state.
  uint64_t loop_step_limit = kDefaultLoopStepLimit;
  uint64_t loop_steps = 0;
  // Not state: when the run is profiled (S6), each loop entry's iteration
  // count in the order the loops were entered (loop_walk.hpp); else nullptr.
  std::vector<uint64_t>* loop_trips = nullptr;
  static constexpr uint64_t kDefaultLoopStepLimit = 1'000'000'000;
  // Not state: where device_print writes; nullptr prints nothing (unit tests).
  PrintOutput* print_output = nullptr;
  // A program for several cores (LANGUAGE.md 2.7): this machine is core 0;
  // cores 1, 2, ... have their own SBUF, PSUM, accumulators and generators
  // here, and their `hbm` borrows this machine's (HBM is shared). Made by
  // the run (add_other_cores), after the inputs are bound.
  std::vector<Machine> other_cores;
};

// S11.5: every generator of both engines as seed `seed` sets them.
void seed_vector_rng(Machine& m, uint32_t seed);
void seed_gpsimd_rng(Machine& m, uint32_t seed);

// Zero-filled memories sized by Spec::archs[program.arch]; HBM tensors zeroed
// (inputs are filled by the caller).
Machine make_machine(const Spec& spec, const Program& program);

// Machines for cores 1 .. core_count(program) - 1 in m.other_cores (none for
// one core), each as make_machine starts one, HBM borrowed from `m`.
void add_other_cores(Machine& m, const Spec& spec, const Program& program);
// Core k's machine: `m` for 0, else m.other_cores[k - 1].
Machine& core_machine(Machine& m, int core);

// Base address of a declared tensor: HBM: its array; SBUF/PSUM: partition 0
// at the tensor's byte offset.
uint8_t* tensor_base(Machine& m, const Program& program, int32_t tensor);
int64_t partition_stride(const Machine& m, Memory memory);  // SBUF/PSUM bytes per partition

}  // namespace nisa
