// Builds Programs in C++ (spec order, defaults filled in, as the assembler
// would) and runs them on a fresh Machine, with typed access to SBUF/PSUM/HBM
// elements for the interpreter's unit tests.
#pragma once
#include <cstring>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "interpreter.hpp"
#include "machine.hpp"
#include "program.hpp"
#include "spec.hpp"

namespace nisa::test {

// One `key=value` of an instruction; a const char* value is an enum value's name.
struct Arg {
  Arg(std::string n, Operand o) : name(std::move(n)), operand(std::move(o)) {}
  Arg(std::string n, const char* enum_value) : name(std::move(n)), enum_name(enum_value) {
    operand.state = OperandState::enumerated;
  }
  std::string name;
  Operand operand;
  std::string enum_name;
};

inline Operand view(int32_t tensor, std::vector<DimSlice> dims) {
  Operand o;
  o.state = OperandState::tensor;
  o.view.tensor = tensor;
  o.view.dims = std::move(dims);
  return o;
}
inline Operand number(float x) {
  Operand o;
  o.state = OperandState::scalar;
  o.scalar = x;
  return o;
}
inline Operand integer(int64_t i) {
  Operand o;
  o.state = OperandState::integer;
  o.integer = i;
  return o;
}
inline Operand boolean(bool b) {
  Operand o;
  o.state = OperandState::boolean;
  o.integer = b ? 1 : 0;
  return o;
}
class TestMachine {
 public:
  explicit TestMachine(const std::string& arch = "trn3") : spec_(active_spec()) {
    program_.arch = spec_.find_arch(arch);
    program_.file = "test.nasm";
  }

  int32_t tensor(const std::string& name, Memory memory, Dtype dtype, std::vector<int64_t> shape, int64_t offset = -1,
                 Role role = Role::none) {
    TensorDecl d;
    d.name = name;
    d.memory = memory;
    d.dtype = dtype;
    d.shape = std::move(shape);
    d.role = memory == Memory::hbm ? (role == Role::none ? Role::scratch : role) : Role::none;
    if (memory != Memory::hbm) {
      int64_t& next = memory == Memory::sbuf ? next_sbuf_ : next_psum_;
      d.offset = offset >= 0 ? offset : next;
      const int64_t end = d.offset + tensor_bytes_per_partition(d);
      if (end > next) next = (end + 63) / 64 * 64;
    }
    d.line = static_cast<uint32_t>(program_.tensors.size() + 1);
    program_.tensors.push_back(d);
    return static_cast<int32_t>(program_.tensors.size() - 1);
  }
  int32_t sbuf(const std::string& n, Dtype t, std::vector<int64_t> shape, int64_t offset = -1) {
    return tensor(n, Memory::sbuf, t, std::move(shape), offset);
  }
  int32_t psum(const std::string& n, Dtype t, std::vector<int64_t> shape, int64_t offset = -1) {
    return tensor(n, Memory::psum, t, std::move(shape), offset);
  }
  int32_t hbm(const std::string& n, Dtype t, std::vector<int64_t> shape) {
    return tensor(n, Memory::hbm, t, std::move(shape));
  }

  Operand whole(int32_t t) const {
    Operand o = view(t, {});
    o.view = whole_view(program_, t);
    return o;
  }
  // Partitions [p0, p0+count) of a tensor, free dimensions whole.
  Operand rows(int32_t t, int64_t p0, int64_t count) const {
    Operand o = whole(t);
    o.view.dims[0] = DimSlice{p0, count, 1};
    return o;
  }

  // Adds an instruction; operands not given take the spec's defaults.
  void add(const std::string& mnemonic, std::initializer_list<Arg> args) {
    const int si = spec_.find_instruction(mnemonic);
    if (si < 0) throw std::runtime_error("no instruction " + mnemonic);
    const InstructionSpec& is = spec_.instructions[static_cast<std::size_t>(si)];
    Instruction ins;
    ins.spec_index = si;
    ins.line = static_cast<uint32_t>(100 + program_.instructions.size());
    for (const OperandSpec& os : is.operands) {
      Operand o;
      bool given = false;
      for (const Arg& a : args)
        if (a.name == os.name) {
          o = a.operand;
          given = true;
          if (!a.enum_name.empty()) {
            o.integer = spec_.enums[static_cast<std::size_t>(os.enum_id)].find(a.enum_name);
            if (o.integer < 0) throw std::runtime_error("no enum value " + a.enum_name);
          }
        }
      if (!given && os.default_value) {
        const DefaultValue& d = *os.default_value;
        switch (os.kind) {
          case OperandKind::enumeration: o.state = OperandState::enumerated; o.integer = d.enum_index; break;
          case OperandKind::boolean: o.state = OperandState::boolean; o.integer = d.boolean; break;
          case OperandKind::integer: o.state = OperandState::integer; o.integer = static_cast<int64_t>(d.number); break;
          default: o.state = OperandState::scalar; o.scalar = static_cast<float>(d.number); break;
        }
      }
      ins.operands.push_back(o);
    }
    for (const Arg& a : args)
      if (is.find_operand(a.name) < 0) throw std::runtime_error(mnemonic + " has no operand " + a.name);
    program_.instructions.push_back(ins);
  }

  // Creates the machine (on first use) and runs the instructions added since.
  void run(bool strict = false) {
    if (!machine_) {
      machine_ = std::make_unique<Machine>(make_machine(spec_, program_));
    }
    Program slice = program_;
    slice.instructions.assign(program_.instructions.begin() + static_cast<std::ptrdiff_t>(ran_), program_.instructions.end());
    ran_ = program_.instructions.size();
    const DecodedProgram decoded = predecode(spec_, slice, *machine_);
    if (strict) execute_strict(slice, decoded.steps, *machine_);
    else execute(decoded.steps, *machine_);
  }

  Machine& machine() {
    if (!machine_) machine_ = std::make_unique<Machine>(make_machine(spec_, program_));
    return *machine_;
  }
  const Program& program() const { return program_; }

  // Address of element (p, flat free index i) of a declared SBUF/PSUM tensor or
  // row p of an HBM tensor.
  uint8_t* at(int32_t t, int64_t p, int64_t i) {
    const TensorDecl& d = program_.tensors[static_cast<std::size_t>(t)];
    const int64_t size = static_cast<int64_t>(dtype_size(d.dtype));
    if (d.memory == Memory::hbm) {
      const int64_t per_row = element_count(d.shape) / d.shape[0];
      return tensor_base(machine(), program_, t) + (p * per_row + i) * size;
    }
    return tensor_base(machine(), program_, t) + p * partition_stride(machine(), d.memory) + i * size;
  }
  template <class T>
  T get(int32_t t, int64_t p, int64_t i) {
    T v;
    std::memcpy(&v, at(t, p, i), sizeof v);
    return v;
  }
  template <class T>
  void set(int32_t t, int64_t p, int64_t i, T v) {
    std::memcpy(at(t, p, i), &v, sizeof v);
  }

 private:
  const Spec& spec_;
  Program program_;
  int64_t next_sbuf_ = 0, next_psum_ = 0;
  std::unique_ptr<Machine> machine_;
  std::size_t ran_ = 0;
};

}  // namespace nisa::test
