#include "tensor_allocator.hpp"

#include <algorithm>

namespace nisa {

namespace {

struct ByteRange {
  int64_t begin = 0, end = 0;
};

int64_t memory_bytes(const ArchSpec& arch, Memory m) { return m == Memory::psum ? arch.psum_partition_bytes : arch.sbuf_partition_bytes; }

}  // namespace

std::vector<AllocationFailure> allocate_tensors(const Spec& spec, Program& program, const std::vector<bool>& ignore) {
  std::vector<AllocationFailure> failures;
  const ArchSpec& arch = spec.archs[static_cast<std::size_t>(program.arch)];
  for (Memory m : {Memory::sbuf, Memory::psum}) {
    const int64_t capacity = memory_bytes(arch, m);
    auto ignored = [&](std::size_t i) { return i < ignore.size() && ignore[i]; };
    std::vector<ByteRange> used;
    for (std::size_t i = 0; i < program.tensors.size(); ++i) {
      const TensorDecl& t = program.tensors[i];
      if (t.memory == m && t.explicit_offset && !ignored(i)) used.push_back({t.offset, t.offset + tensor_bytes_per_partition(t)});
    }
    for (std::size_t i = 0; i < program.tensors.size(); ++i) {
      TensorDecl& t = program.tensors[i];
      if (t.memory != m || t.explicit_offset || ignored(i)) continue;
      const int64_t size = tensor_bytes_per_partition(t);
      t.offset = 0;
      if (size > capacity || size <= 0) continue;  // check_tensor names the size
      std::sort(used.begin(), used.end(), [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
      int64_t candidate = 0;
      for (const ByteRange& r : used) {
        if (candidate + size <= r.begin) break;
        if (r.end > candidate) candidate = (r.end + kAllocationAlignment - 1) / kAllocationAlignment * kAllocationAlignment;
      }
      if (candidate + size > capacity) {
        int64_t in_use = 0;
        for (const ByteRange& r : used) in_use += r.end - r.begin;
        failures.push_back({static_cast<int>(i), "no room for tensor '" + t.name + "' (" + std::to_string(size) + " bytes per partition): " +
                                                     std::string(memory_name(m)) + " has " + std::to_string(capacity) + " bytes per partition on " +
                                                     arch.name + ", " + std::to_string(in_use) + " already in use"});
        continue;
      }
      t.offset = candidate;
      used.push_back({candidate, candidate + size});
    }
  }
  return failures;
}

}  // namespace nisa
