#include "machine.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>

namespace nisa {

ZeroedBytes::ZeroedBytes(std::size_t size) : size_(size) {
  if (size <= kHeapBytes) {
    auto* block = static_cast<uint8_t*>(::operator new(std::max<std::size_t>(size, 1), std::align_val_t{64}));
    std::fill_n(block, size, uint8_t{0});
    bytes_ = std::unique_ptr<uint8_t, Unmap>(block, Unmap{nullptr, 0, false});
    return;
  }
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  // From 1 MiB on, the body is whole 2 MiB-aligned huge pages: one fault
  // zeroes 2 MiB instead of 512 faults (~10 us each on a VM) for 4 KB pages.
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  const bool huge = size >= kHugePage / 2;
  const std::size_t unit = huge ? kHugePage : page;
  const std::size_t body = (std::max<std::size_t>(size, 1) + unit - 1) / unit * unit;
  // Room to align the body, and an inaccessible page or more on each side.
  const std::size_t mapped = body + (huge ? kHugePage : 0) + 2 * page;
  void* mapping = ::mmap(nullptr, mapped, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping == MAP_FAILED) throw std::bad_alloc();
  const auto after_guard = reinterpret_cast<std::uintptr_t>(mapping) + page;
  auto* first = reinterpret_cast<uint8_t*>((after_guard + unit - 1) / unit * unit);
  if (::mprotect(first, body, PROT_READ | PROT_WRITE) != 0) {
    ::munmap(mapping, mapped);
    throw std::bad_alloc();
  }
  if (huge) ::madvise(first, body, MADV_HUGEPAGE);  // advice only: refusal is fine
  // The bytes end at the upper guard page (64-byte aligned start), so an
  // access past the end faults at once.
  const std::size_t slack = (body - size) & ~std::size_t{63};
  bytes_ = std::unique_ptr<uint8_t, Unmap>(first + slack, Unmap{static_cast<uint8_t*>(mapping), mapped, false});
}

ZeroedBytes ZeroedBytes::borrow(const uint8_t* data, std::size_t size) {
  ZeroedBytes b;
  // const_cast: tensor_base hands out uint8_t*, but only the steps of
  // instructions that write a tensor write through it, and a borrowed tensor
  // is one no instruction writes (bind_inputs).
  b.bytes_ = std::unique_ptr<uint8_t, Unmap>(const_cast<uint8_t*>(data), Unmap{nullptr, 0, true});
  b.size_ = size;
  return b;
}

ZeroedBytes ZeroedBytes::share(ZeroedBytes& owner) {
  ZeroedBytes b;
  b.bytes_ = std::unique_ptr<uint8_t, Unmap>(owner.data(), Unmap{nullptr, 0, true});
  b.size_ = owner.size();
  return b;
}

void ZeroedBytes::Unmap::operator()(uint8_t* p) const {
  if (borrowed) return;
  if (mapping == nullptr) {
    ::operator delete(p, std::align_val_t{64});
    return;
  }
  ::munmap(mapping, mapped);
}

namespace {
// Bytes per partition the program's tensors of `memory` reach, rounded up to
// 64 (never 0, so every partition has its own address).
int64_t used_partition_bytes(const Program& program, Memory memory) {
  int64_t end = 64;
  for (const TensorDecl& d : program.tensors)
    if (d.memory == memory) end = std::max(end, d.offset + tensor_bytes_per_partition(d));
  return (end + 63) / 64 * 64;
}
}  // namespace

namespace {

// One core's own state as it starts (S1.1, S1.3, S11.5).
void start_core(Machine& m, const ArchSpec& arch, const Program& program) {
  m.arch_sbuf_partition_bytes = arch.sbuf_partition_bytes;
  m.arch_psum_partition_bytes = arch.psum_partition_bytes;
  m.sbuf_partition_bytes = std::min(arch.sbuf_partition_bytes, used_partition_bytes(program, Memory::sbuf));
  m.psum_partition_bytes = std::min(arch.psum_partition_bytes, used_partition_bytes(program, Memory::psum));
  m.sbuf = ZeroedBytes(static_cast<std::size_t>(kLanes * m.sbuf_partition_bytes));
  m.psum = ZeroedBytes(static_cast<std::size_t>(kLanes * m.psum_partition_bytes));
  m.vector_accumulator.fill(-std::numeric_limits<float>::infinity());
  m.scalar_accumulator.fill(0.0f);
  seed_vector_rng(m, 0);
  seed_gpsimd_rng(m, 0);
}

}  // namespace

Machine make_machine(const Spec& spec, const Program& program) {
  Machine m;
  start_core(m, spec.archs.at(static_cast<std::size_t>(program.arch)), program);
  m.hbm.resize(program.tensors.size());
  for (std::size_t t = 0; t < program.tensors.size(); ++t) {
    const TensorDecl& d = program.tensors[t];
    if (d.memory == Memory::hbm)
      m.hbm[t] = ZeroedBytes(static_cast<std::size_t>(element_count(d.shape)) * dtype_size(d.dtype));
  }
  return m;
}

void add_other_cores(Machine& m, const Spec& spec, const Program& program) {
  m.other_cores.clear();
  m.other_cores.resize(static_cast<std::size_t>(core_count(program) - 1));
  for (Machine& core : m.other_cores) {
    start_core(core, spec.archs.at(static_cast<std::size_t>(program.arch)), program);
    core.print_output = m.print_output;
    core.hbm.reserve(m.hbm.size());
    for (ZeroedBytes& bytes : m.hbm) core.hbm.push_back(ZeroedBytes::share(bytes));
  }
}

Machine& core_machine(Machine& m, int core) { return core == 0 ? m : m.other_cores.at(static_cast<std::size_t>(core - 1)); }

void seed_vector_rng(Machine& m, uint32_t seed) {
  for (int lane = 0; lane < kLanes; ++lane)
    for (int g = 0; g < kVectorGenerators; ++g)
      m.vector_rng[static_cast<std::size_t>(lane)][static_cast<std::size_t>(g)] = seeded_state(seed, lane, kVectorGenerators, g);
}

void seed_gpsimd_rng(Machine& m, uint32_t seed) {
  for (int lane = 0; lane < kLanes; ++lane)
    for (int g = 0; g < kGpsimdGenerators; ++g)
      m.gpsimd_rng[static_cast<std::size_t>(lane)][static_cast<std::size_t>(g)] = seeded_state(seed, lane, kGpsimdGenerators, g);
}

uint8_t* tensor_base(Machine& m, const Program& program, int32_t tensor) {
  const TensorDecl& d = program.tensors[static_cast<std::size_t>(tensor)];
  switch (d.memory) {
    case Memory::hbm: return m.hbm[static_cast<std::size_t>(tensor)].data();
    case Memory::sbuf: return m.sbuf.data() + d.offset;
    case Memory::psum: return m.psum.data() + d.offset;
  }
  return nullptr;
}

int64_t partition_stride(const Machine& m, Memory memory) {
  return memory == Memory::psum ? m.psum_partition_bytes : m.sbuf_partition_bytes;
}

}  // namespace nisa
