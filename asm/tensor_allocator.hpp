// Places SBUF/PSUM tensors declared without `@ OFFSET` (LANGUAGE.md 2.1):
// first fit, 64-byte aligned, clear of every other tensor of the same memory,
// explicit ones included (those may alias each other on purpose).
#pragma once
#include <string>
#include <vector>

#include "program.hpp"
#include "spec.hpp"

namespace nisa {

inline constexpr int64_t kAllocationAlignment = 64;

struct AllocationFailure {
  int tensor = -1;
  std::string message;
};

// Sets `offset` of every SBUF/PSUM tensor with explicit_offset == false, in
// declaration order. Tensors that do not fit even in an empty memory are left
// at offset 0 for check_tensor to report; tensors that only lack room are failures.
// `ignore[i]` (if given) leaves tensor i out entirely (its declaration failed).
std::vector<AllocationFailure> allocate_tensors(const Spec& spec, Program& program, const std::vector<bool>& ignore = {});

}  // namespace nisa
