// check_tensor (program_check.hpp): a declaration is sane on its own and fits
// its memory on the program's arch (LANGUAGE.md 2.1, S1.1).
#include <algorithm>
#include <limits>

#include "hbm_limits.hpp"
#include "program_check.hpp"

namespace nisa {

namespace {

bool valid_identifier(const std::string& s) {
  if (s.empty()) return false;
  auto start = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!start(s[0])) return false;
  for (char c : s)
    if (!start(c) && !(c >= '0' && c <= '9')) return false;
  return true;
}

// Tensor `index` on its own, given whether an earlier tensor has its name
// (TensorChecker, check_tensor). The HBM tensors' total is the run's limit
// (hbm_limits.hpp), not the program's.
std::vector<CheckFailure> check_declaration(const Spec& spec, const Program& program, int index, bool name_taken) {
  std::vector<CheckFailure> out;
  auto fail = [&](std::string m) { out.push_back({-1, std::move(m)}); };
  if (index < 0 || static_cast<std::size_t>(index) >= program.tensors.size()) {
    fail("unknown tensor number " + std::to_string(index));
    return out;
  }
  if (program.arch < 0 || static_cast<std::size_t>(program.arch) >= spec.archs.size()) {
    fail("unknown arch number " + std::to_string(program.arch));
    return out;
  }
  const TensorDecl& t = program.tensors[static_cast<std::size_t>(index)];
  const std::string name = "tensor '" + t.name + "'";
  if (!valid_identifier(t.name)) fail("tensor name '" + t.name + "' is not an identifier");
  if (name_taken) fail(name + " is declared twice");
  if (static_cast<int>(t.dtype) >= kDtypeCount) {
    fail(name + " has an unknown dtype");
    return out;
  }
  const int64_t size = static_cast<int64_t>(dtype_size(t.dtype));

  // Dimensions: every one at least 1, product bounded (no overflow below).
  const bool on_chip = t.memory != Memory::hbm;
  if (t.shape.empty() || (on_chip && t.shape.size() < 2)) {
    fail(name + " needs " + (on_chip ? "a partition and at least one free dimension" : "at least one dimension") + ", got " +
         std::to_string(t.shape.size()));
    return out;
  }
  int64_t elements = 1;
  for (std::size_t k = 0; k < t.shape.size(); ++k) {
    if (t.shape[k] < 1) {
      fail(name + " dimension " + std::to_string(k) + " is " + std::to_string(t.shape[k]) + "; dimensions must be at least 1");
      return out;
    }
    if (t.shape[k] > kMaxHbmTensorBytes || elements > kMaxHbmTensorBytes / t.shape[k]) {
      fail(name + " is too large (more than " + std::to_string(kMaxHbmTensorBytes) + " elements)");
      return out;
    }
    elements *= t.shape[k];
  }

  // LANGUAGE.md 2.7: where a tensor lives in a program for several cores.
  const int cores = core_count(program);
  if (t.core != TensorDecl::kShared && (t.core < 0 || t.core >= cores)) {
    fail(name + " belongs to core " + std::to_string(t.core) + "; the program has " + std::to_string(cores) + (cores == 1 ? " core" : " cores"));
    return out;
  }
  if (cores > 1 && on_chip && t.core == TensorDecl::kShared)
    fail(name + " in " + std::string(memory_name(t.memory)) + " is declared outside the .core sections; each core has its own " +
         std::string(memory_name(t.memory)) + ": declare it in the section of the core that uses it");
  if (t.memory == Memory::hbm && t.core != TensorDecl::kShared && t.role != Role::scratch && t.role != Role::none)
    fail(name + " is " + std::string(role_name(t.role)) + " in a .core section; inputs and outputs are HBM every core shares: declare them before the first .core");

  if (t.memory == Memory::hbm) {
    if (elements * size > kMaxHbmTensorBytes)
      fail(name + " needs " + std::to_string(elements * size) + " bytes; the model allows at most " + std::to_string(kMaxHbmTensorBytes));
    if (t.role == Role::none) fail(name + " in hbm needs a role (input, output, inout or scratch)");
    if (t.init != InitKind::none && t.role != Role::input && t.role != Role::inout)
      fail(name + " is " + std::string(role_name(t.role)) + "; only input and inout tensors take '= INIT'");
    if (t.offset != 0) fail(name + " in hbm cannot have an offset");
  } else {
    const ArchSpec& arch = spec.archs[static_cast<std::size_t>(program.arch)];
    const std::string mem(memory_name(t.memory));
    if (t.role != Role::none) fail(name + " in " + mem + " cannot have a role");
    if (t.init != InitKind::none) fail(name + " in " + mem + " cannot have '= INIT'");
    if (t.shape[0] > spec.partitions)
      fail(name + " has " + std::to_string(t.shape[0]) + " partitions; " + mem + " has " + std::to_string(spec.partitions));
    const int64_t capacity = t.memory == Memory::psum ? arch.psum_partition_bytes : arch.sbuf_partition_bytes;
    const int64_t bytes = tensor_bytes_per_partition(t);
    if (t.offset < 0) {
      fail(name + " has negative offset " + std::to_string(t.offset));
    } else if (bytes > capacity || t.offset > capacity - bytes) {
      if (t.offset == 0)
        fail(name + " needs " + std::to_string(bytes) + " bytes per partition; " + mem + " has " + std::to_string(capacity) + " on " + arch.name);
      else
        // Unsigned: offset and size are each at most INT64_MAX, so their sum fits (no signed overflow).
        fail(name + " at offset " + std::to_string(t.offset) + " ends at byte " +
             std::to_string(static_cast<uint64_t>(t.offset) + static_cast<uint64_t>(bytes)) + ", past the " +
             std::to_string(capacity) + " bytes of a " + mem + " partition on " + arch.name);
    }
  }

  // INIT: a fill value of the right form (exact int32 for integer dtypes), or iota.
  if (t.init == InitKind::fill) {
    if (dtype_is_int(t.dtype)) {
      if (t.init_value.state != OperandState::integer)
        fail(name + " of dtype " + std::string(dtype_name(t.dtype)) + " needs an integer INIT");
      else if (t.init_value.integer < std::numeric_limits<int32_t>::min() || t.init_value.integer > std::numeric_limits<int32_t>::max())
        fail(name + " INIT " + std::to_string(t.init_value.integer) + " is out of the int32 range");
    } else if (t.init_value.state != OperandState::scalar) {
      fail(name + " of dtype " + std::string(dtype_name(t.dtype)) + " needs a scalar INIT");
    }
  } else if (t.init_value.state != OperandState::absent) {
    fail(name + " has an INIT value without '= INIT'");
  }
  return out;
}

}  // namespace

namespace {

// Names are scoped (LANGUAGE.md 2.7): a shared tensor's name is taken on every
// core, a core's tensor's only on that core.
std::string scoped_name(const TensorDecl& t) { return std::to_string(t.core) + ":" + t.name; }

bool same_scope(const TensorDecl& a, const TensorDecl& b) {
  return a.core == b.core || a.core == TensorDecl::kShared || b.core == TensorDecl::kShared;
}

}  // namespace

std::vector<CheckFailure> TensorChecker::check(const Spec& spec, const Program& program, int index) {
  const bool valid_index = index >= 0 && static_cast<std::size_t>(index) < program.tensors.size();
  if (!valid_index) return check_declaration(spec, program, index, false);
  const TensorDecl& t = program.tensors[static_cast<std::size_t>(index)];
  TensorDecl shared = t;
  shared.core = TensorDecl::kShared;
  const bool name_taken = (t.core != TensorDecl::kShared && names_.contains(scoped_name(shared))) || !names_.insert(scoped_name(t)).second;
  std::vector<CheckFailure> out = check_declaration(spec, program, index, name_taken);
  // Shared tensors first, then core 0's, core 1's, ...: the order of the
  // .core sections, which the .nbin keeps.
  if (t.core < last_core_)
    out.push_back({-1, "tensor '" + t.name + "' of " + (t.core == TensorDecl::kShared ? std::string("every core") : "core " + std::to_string(t.core)) +
                           " is declared after tensors of core " + std::to_string(last_core_)});
  last_core_ = std::max(last_core_, t.core);
  return out;
}

std::vector<CheckFailure> check_tensor(const Spec& spec, const Program& program, int index) {
  bool name_taken = false;
  if (index >= 0 && static_cast<std::size_t>(index) < program.tensors.size())
    for (int i = 0; i < index; ++i)
      name_taken = name_taken || (program.tensors[static_cast<std::size_t>(i)].name == program.tensors[static_cast<std::size_t>(index)].name &&
                                  same_scope(program.tensors[static_cast<std::size_t>(i)], program.tensors[static_cast<std::size_t>(index)]));
  return check_declaration(spec, program, index, name_taken);
}

}  // namespace nisa
