#include "tensor_allocator.hpp"

#include <algorithm>
#include <iterator>
#include <map>

namespace nisa {

namespace {

int64_t memory_bytes(const ArchSpec& arch, Memory m) { return m == Memory::psum ? arch.psum_partition_bytes : arch.sbuf_partition_bytes; }

int64_t align_up(int64_t bytes) { return (bytes + kAllocationAlignment - 1) / kAllocationAlignment * kAllocationAlignment; }

// The bytes taken in one memory, as disjoint ranges sorted by their start,
// each end rounded up to the alignment (no automatic tensor can start before
// it) and touching ranges merged. A placement walks the ranges in order
// rather than sorting every tensor again for each one (issue 24); tensors
// placed one after another merge into one range.
class UsedBytes {
 public:
  void add(int64_t begin, int64_t end) {
    in_use_ += end - begin;
    end = align_up(end);
    auto next = ranges_.upper_bound(begin);
    if (next != ranges_.begin() && std::prev(next)->second >= begin) {
      --next;
      begin = next->first;
      end = std::max(end, next->second);
      next = ranges_.erase(next);
    }
    while (next != ranges_.end() && next->first <= end) {
      end = std::max(end, next->second);
      next = ranges_.erase(next);
    }
    ranges_.emplace(begin, end);
  }
  // The first aligned offset where `size` bytes are free.
  int64_t first_fit(int64_t size) const {
    int64_t candidate = 0;
    for (const auto& [begin, end] : ranges_) {
      if (candidate + size <= begin) break;
      candidate = std::max(candidate, end);
    }
    return candidate;
  }
  // The bytes of the tensors added (those that alias counted each time).
  int64_t in_use() const { return in_use_; }

 private:
  std::map<int64_t, int64_t> ranges_;  // start -> aligned end
  int64_t in_use_ = 0;
};

}  // namespace

std::vector<AllocationFailure> allocate_tensors(const Spec& spec, Program& program, const std::vector<bool>& ignore) {
  std::vector<AllocationFailure> failures;
  const ArchSpec& arch = spec.archs[static_cast<std::size_t>(program.arch)];
  // Each core has its own SBUF and PSUM (LANGUAGE.md 2.7): its tensors are placed apart from the other cores'.
  for (int32_t core = core_count(program) > 1 ? 0 : TensorDecl::kShared; core < core_count(program); ++core) {
    for (Memory m : {Memory::sbuf, Memory::psum}) {
      const int64_t capacity = memory_bytes(arch, m);
      auto ignored = [&](std::size_t i) { return (i < ignore.size() && ignore[i]) || program.tensors[i].core != core; };
      UsedBytes used;
      for (std::size_t i = 0; i < program.tensors.size(); ++i) {
        const TensorDecl& t = program.tensors[i];
        if (t.memory == m && t.explicit_offset && !ignored(i)) used.add(t.offset, t.offset + tensor_bytes_per_partition(t));
      }
      for (std::size_t i = 0; i < program.tensors.size(); ++i) {
        TensorDecl& t = program.tensors[i];
        if (t.memory != m || t.explicit_offset || ignored(i)) continue;
        const int64_t size = tensor_bytes_per_partition(t);
        t.offset = 0;
        if (size > capacity || size <= 0) continue;  // check_tensor names the size
        const int64_t candidate = used.first_fit(size);
        if (candidate + size > capacity) {
          failures.push_back({static_cast<int>(i), "no room for tensor '" + t.name + "' (" + std::to_string(size) + " bytes per partition): " +
                                                       std::string(memory_name(m)) + " has " + std::to_string(capacity) + " bytes per partition on " +
                                                       arch.name + ", " + std::to_string(used.in_use()) + " already in use"});
          continue;
        }
        t.offset = candidate;
        used.add(candidate, candidate + size);
      }
    }
  }
  return failures;
}

}  // namespace nisa
