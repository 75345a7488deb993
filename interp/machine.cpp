#include "machine.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <new>

namespace nisa {

ZeroedBytes::ZeroedBytes(std::size_t size) : size_(size) {
  const std::size_t mapped = size == 0 ? 1 : size;
  void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  if (mapped >= kHugePage) madvise(p, mapped, MADV_HUGEPAGE);  // advice only: refusal is fine
  bytes_ = std::unique_ptr<uint8_t, Unmap>(static_cast<uint8_t*>(p), Unmap{mapped});
}

void ZeroedBytes::Unmap::operator()(uint8_t* p) const { munmap(p, size); }

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

Machine make_machine(const Spec& spec, const Program& program) {
  Machine m;
  const ArchSpec& arch = spec.archs.at(static_cast<std::size_t>(program.arch));
  m.arch_sbuf_partition_bytes = arch.sbuf_partition_bytes;
  m.arch_psum_partition_bytes = arch.psum_partition_bytes;
  m.sbuf_partition_bytes = std::min(arch.sbuf_partition_bytes, used_partition_bytes(program, Memory::sbuf));
  m.psum_partition_bytes = std::min(arch.psum_partition_bytes, used_partition_bytes(program, Memory::psum));
  m.sbuf = ZeroedBytes(static_cast<std::size_t>(kLanes * m.sbuf_partition_bytes));
  m.psum = ZeroedBytes(static_cast<std::size_t>(kLanes * m.psum_partition_bytes));
  m.hbm.resize(program.tensors.size());
  for (std::size_t t = 0; t < program.tensors.size(); ++t) {
    const TensorDecl& d = program.tensors[t];
    if (d.memory == Memory::hbm)
      m.hbm[t] = ZeroedBytes(static_cast<std::size_t>(element_count(d.shape)) * dtype_size(d.dtype));
  }
  m.vector_accumulator.fill(-std::numeric_limits<float>::infinity());
  m.scalar_accumulator.fill(0.0f);
  return m;
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
