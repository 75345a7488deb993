#include "machine.hpp"

#include <cstdlib>
#include <limits>
#include <new>

namespace nisa {

ZeroedBytes::ZeroedBytes(std::size_t size) : bytes_(static_cast<uint8_t*>(std::calloc(size == 0 ? 1 : size, 1))), size_(size) {
  if (!bytes_) throw std::bad_alloc();
}

void ZeroedBytes::Free::operator()(uint8_t* p) const { std::free(p); }

Machine make_machine(const Spec& spec, const Program& program) {
  Machine m;
  const ArchSpec& arch = spec.archs.at(static_cast<std::size_t>(program.arch));
  m.sbuf_partition_bytes = arch.sbuf_partition_bytes;
  m.psum_partition_bytes = arch.psum_partition_bytes;
  m.sbuf = ZeroedBytes(static_cast<std::size_t>(kLanes * m.sbuf_partition_bytes));
  m.psum = ZeroedBytes(static_cast<std::size_t>(kLanes * m.psum_partition_bytes));
  m.hbm.resize(program.tensors.size());
  for (std::size_t t = 0; t < program.tensors.size(); ++t) {
    const TensorDecl& d = program.tensors[t];
    if (d.memory == Memory::hbm)
      m.hbm[t].assign(static_cast<std::size_t>(element_count(d.shape)) * dtype_size(d.dtype), 0);
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
