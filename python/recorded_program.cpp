// _nisa.build_recorded (nisa/nki/__init__.py _assemble): a kernel call's
// recording (nisa/nki/_record.py) read straight from its Python objects
// into the assembler's structures (asm/program_builder.hpp), so a call
// neither writes nor reads .nasm text. A value reaches the builder as what
// its text (_record.render_value) reads as: booleans, integers, enum names,
// views (NkiTensor: a declared tensor, an offset and (stride, count) pairs)
// and lists as themselves, registers (nisa/nki/_registers.py) as their
// name, any other value (a float, a NumPy scalar) as render_value's text of it.
// Returns None when the builder refused something: the caller then
// assembles the text, whose diagnostics say what and where.
#include "recorded_program.hpp"

#include <structmember.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "native_program.hpp"
#include "program_builder.hpp"
#include "spec.hpp"

namespace py = pybind11;

namespace nisa {
namespace {

// A new reference, released at the end of its scope (nullptr: none).
using Ref = py::object;
Ref take(PyObject* p) { return py::reinterpret_steal<py::object>(p); }

// One attribute of the recording's objects, all of classes with __slots__:
// read at the slot's offset in objects of the type it was last found on (the
// member descriptor's, as Python's own attribute access does, without a
// look-up per read), else asked for by name.
class Slot {
 public:
  explicit Slot(const char* name) : name_(take(PyUnicode_InternFromString(name))) {}

  // A new reference, or nullptr (no such attribute; no Python error left set).
  Ref of(PyObject* object) {
    PyTypeObject* type = Py_TYPE(object);
    if (type != type_) learn(type);
    if (offset_ >= 0) {
      PyObject* value = *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(object) + offset_);
      return value ? py::reinterpret_borrow<py::object>(value) : Ref();
    }
    Ref value = take(PyObject_GetAttr(object, name_.ptr()));
    if (!value) PyErr_Clear();
    return value;
  }

 private:
  void learn(PyTypeObject* type) {
    type_ = type;
    offset_ = -1;
    const Ref descriptor = take(PyObject_GetAttr(reinterpret_cast<PyObject*>(type), name_.ptr()));
    if (!descriptor) {
      PyErr_Clear();
      return;
    }
    if (Py_TYPE(descriptor.ptr()) != &PyMemberDescr_Type) return;
    const PyMemberDef* member = reinterpret_cast<PyMemberDescrObject*>(descriptor.ptr())->d_member;
    if (member->type == T_OBJECT_EX) offset_ = member->offset;
  }

  Ref name_;
  PyTypeObject* type_ = nullptr;
  Py_ssize_t offset_ = -1;
};

// The attributes read (_record.Instruction, Form, Location, Storage; NkiTensor).
struct Slots {
  Slot form{"form"}, values{"values"}, location{"location"}, line{"line"}, mnemonic{"mnemonic"}, keys{"keys"};
  Slot storage{"storage"}, index{"index"}, offset{"offset"}, pattern{"pattern"}, dynamic{"dynamic"};
  Slot name{"name"};  // a register's (_registers.Register)
};

// An exact int within what the text can write (an integer literal, negated:
// INT64_MIN is not one).
bool read_integer(PyObject* v, int64_t& out) {
  if (Py_TYPE(v) != &PyLong_Type) return false;
  int overflow = 0;
  const long long i = PyLong_AsLongLongAndOverflow(v, &overflow);
  if (overflow != 0 || (i == -1 && PyErr_Occurred()) || i == std::numeric_limits<long long>::min()) {
    PyErr_Clear();
    return false;
  }
  out = i;
  return true;
}

bool read_text(PyObject* v, std::string& out) {
  if (!PyUnicode_Check(v)) return false;
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(v, &size);
  if (data == nullptr) {
    PyErr_Clear();
    return false;
  }
  out.assign(data, static_cast<std::size_t>(size));
  return true;
}

class RecordingReader {
 public:
  RecordingReader(ProgramBuilder& builder, PyObject* tensor_type, PyObject* render_value, PyObject* register_type)
      : builder_(builder), tensor_type_(tensor_type), render_value_(render_value),
        register_type_(PyType_Check(register_type) ? reinterpret_cast<PyTypeObject*>(register_type) : nullptr) {}

  // (name, line) per register (`.reg NAME`), in declaration order.
  bool declare_register(PyObject* declaration) {
    std::string name;
    int64_t line = 0;
    if (!PyTuple_Check(declaration) || PyTuple_GET_SIZE(declaration) != 2 || !read_text(PyTuple_GET_ITEM(declaration, 0), name) ||
        !read_integer(PyTuple_GET_ITEM(declaration, 1), line) || line < 1 || line > 0xFFFFFFFF)
      return false;
    return builder_.declare_register(std::move(name), static_cast<uint64_t>(line));
  }

  // (name, memory, dtype, shape, role, offset, line) per declaration.
  bool declare(PyObject* declaration) {
    if (!PyTuple_Check(declaration) || PyTuple_GET_SIZE(declaration) != 7) return false;
    auto item = [&](Py_ssize_t i) { return PyTuple_GET_ITEM(declaration, i); };
    TensorDecl d;
    std::string memory, dtype, role;
    int64_t offset = 0, line = 0;
    if (!read_text(item(0), d.name) || !read_text(item(1), memory) || !read_text(item(2), dtype) || !read_text(item(4), role) ||
        !read_integer(item(5), offset) || !read_integer(item(6), line) || !PyTuple_Check(item(3)) || line < 1 || line > 0xFFFFFFFF)
      return false;
    const Spec& spec = active_spec();
    const std::optional<Dtype> found = spec.find_dtype(dtype);
    if (!found) return false;
    d.dtype = *found;
    if (memory == "hbm") {
      d.memory = Memory::hbm;
      d.role = role == "input" ? Role::input : role == "output" ? Role::output : role == "inout" ? Role::inout
               : role == "scratch" ? Role::scratch : Role::none;
      if (d.role == Role::none) return false;
    } else if (memory == "sbuf" || memory == "psum") {
      d.memory = memory == "sbuf" ? Memory::sbuf : Memory::psum;
      d.offset = offset;
    } else {
      return false;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(item(3)); ++i) {
      int64_t n = 0;
      if (!read_integer(PyTuple_GET_ITEM(item(3), i), n)) return false;
      d.shape.push_back(n);
    }
    d.line = static_cast<uint32_t>(line);
    return builder_.declare(std::move(d));
  }

  bool add(PyObject* instruction) {
    const Ref form_object = slots_.form.of(instruction);
    const Ref values = slots_.values.of(instruction);
    const Ref location = slots_.location.of(instruction);
    if (!form_object || !values || !location) return false;
    const ProgramBuilder::Form* form = form_of(form_object.ptr());
    const Ref line_object = slots_.line.of(location.ptr());
    int64_t line = 0;
    if (form == nullptr || !PyTuple_CheckExact(values.ptr()) || !line_object || !read_integer(line_object.ptr(), line)) return false;
    const Py_ssize_t count = PyTuple_GET_SIZE(values.ptr());
    if (static_cast<std::size_t>(count) != form->operand_of_key.size()) return false;
    if (values_.size() < static_cast<std::size_t>(count)) values_.resize(static_cast<std::size_t>(count));
    for (Py_ssize_t k = 0; k < count; ++k)
      if (!read_value(PyTuple_GET_ITEM(values.ptr(), k), values_[static_cast<std::size_t>(k)])) return false;
    return builder_.add(*form, std::span(values_.data(), static_cast<std::size_t>(count)), static_cast<uint64_t>(line));
  }

 private:
  // A Form (_record.Form: mnemonic and keys) resolved once per call; the
  // recording keeps every Form it uses alive, so its address names it.
  const ProgramBuilder::Form* form_of(PyObject* form_object) {
    const auto found = forms_.find(form_object);
    if (found != forms_.end()) return found->second ? &*found->second : nullptr;
    std::optional<ProgramBuilder::Form>& form = forms_[form_object];
    const Ref mnemonic = slots_.mnemonic.of(form_object);
    const Ref keys = slots_.keys.of(form_object);
    std::string name;
    if (!mnemonic || !keys || !read_text(mnemonic.ptr(), name) || !PyTuple_Check(keys.ptr())) return nullptr;
    std::vector<std::string> key_texts(static_cast<std::size_t>(PyTuple_GET_SIZE(keys.ptr())));
    for (std::size_t k = 0; k < key_texts.size(); ++k)
      if (!read_text(PyTuple_GET_ITEM(keys.ptr(), static_cast<Py_ssize_t>(k)), key_texts[k])) return nullptr;
    const std::vector<std::string_view> key_views(key_texts.begin(), key_texts.end());
    form = builder_.form(name, key_views);
    return form ? &*form : nullptr;
  }

  // An NkiTensor (_tensor.py): storage.index (its declaration), offset,
  // pattern ((stride, count), ...) and dynamic (None, or (kind, index view,
  // dim, index_stride or None)).
  bool read_view(PyObject* view, TensorView& out, bool may_be_indirect = true) {
    const Ref storage = slots_.storage.of(view);
    const Ref pattern = slots_.pattern.of(view);
    const Ref indirect = slots_.dynamic.of(view);
    const Ref offset = slots_.offset.of(view);
    if (!storage || !pattern || !indirect || !offset) return false;
    const Ref index = slots_.index.of(storage.ptr());
    int64_t tensor = 0;
    if (!index || !read_integer(index.ptr(), tensor) || tensor < 0 || tensor > std::numeric_limits<int32_t>::max() ||
        !read_integer(offset.ptr(), out.offset) || !PyTuple_Check(pattern.ptr()))
      return false;
    out.tensor = static_cast<int32_t>(tensor);
    out.is_pattern = true;
    out.dims.clear();
    out.pattern.resize(static_cast<std::size_t>(PyTuple_GET_SIZE(pattern.ptr())));
    for (std::size_t k = 0; k < out.pattern.size(); ++k) {
      PyObject* pair = PyTuple_GET_ITEM(pattern.ptr(), static_cast<Py_ssize_t>(k));
      if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 || !read_integer(PyTuple_GET_ITEM(pair, 0), out.pattern[k].step) ||
          !read_integer(PyTuple_GET_ITEM(pair, 1), out.pattern[k].num))
        return false;
    }
    out.index.clear();
    out.index_register = -1;
    out.indirect = IndirectKind::none;
    out.indirect_dim = 0;
    out.index_stride = 0;
    if (indirect.ptr() == Py_None) return true;
    // (kind, index view, dim, index_stride or None):
    // `.ap(..., vector_offset=INDEX, indirect_dim=DIM[, index_stride=S])`, or
    // ("tensor", index, 1, None): `.ap(..., indirect=INDEX)` (LANGUAGE.md 2.3).
    // A register instead of the index view: `.ap(..., scalar_offset=REG, ...)`.
    std::string kind;
    int64_t dim = 0;
    PyObject* index_object = may_be_indirect && PyTuple_Check(indirect.ptr()) && PyTuple_GET_SIZE(indirect.ptr()) == 4
                                 ? PyTuple_GET_ITEM(indirect.ptr(), 1) : nullptr;
    const bool by_register = index_object != nullptr && is_register(index_object);
    if (index_object == nullptr || !read_text(PyTuple_GET_ITEM(indirect.ptr(), 0), kind) ||
        (kind != "vector" && kind != "scalar" && kind != "tensor") || (by_register && kind != "scalar") ||
        (!by_register && Py_TYPE(index_object) != reinterpret_cast<PyTypeObject*>(tensor_type_)) ||
        !read_integer(PyTuple_GET_ITEM(indirect.ptr(), 2), dim) || dim < std::numeric_limits<int32_t>::min() ||
        dim > std::numeric_limits<int32_t>::max())
      return false;
    PyObject* stride = PyTuple_GET_ITEM(indirect.ptr(), 3);
    if (stride != Py_None && (!read_integer(stride, out.index_stride) || out.index_stride <= 0))
      return false;  // the text's checks word the refusal
    out.indirect = kind == "vector" ? IndirectKind::vector : kind == "scalar" ? IndirectKind::scalar : IndirectKind::tensor;
    out.indirect_dim = static_cast<int32_t>(dim);
    if (by_register) {
      const Ref register_index = slots_.index.of(index_object);
      int64_t number = 0;
      if (!register_index || !read_integer(register_index.ptr(), number) || number < 0 || number > std::numeric_limits<int32_t>::max()) return false;
      out.index_register = static_cast<int32_t>(number);
      return true;
    }
    out.index.resize(1);
    return read_view(PyTuple_GET_ITEM(indirect.ptr(), 1), out.index[0], false);
  }

  // A list value: tensors (dma_compute's srcs), or integers and lists of integers.
  bool read_list(PyObject* list, GivenValue& g) {
    PyObject* const* items = PySequence_Fast_ITEMS(list);
    const Py_ssize_t count = PySequence_Fast_GET_SIZE(list);
    g.items.clear();
    g.entries.clear();
    g.views.clear();
    if (count > 0 && Py_TYPE(items[0]) == reinterpret_cast<PyTypeObject*>(tensor_type_)) {
      g.kind = GivenValue::Kind::views;
      g.views.resize(static_cast<std::size_t>(count));
      for (Py_ssize_t i = 0; i < count; ++i)
        if (Py_TYPE(items[i]) != reinterpret_cast<PyTypeObject*>(tensor_type_) || !read_view(items[i], g.views[static_cast<std::size_t>(i)]))
          return false;
      return true;
    }
    g.kind = GivenValue::Kind::list;
    for (Py_ssize_t i = 0; i < count; ++i) {
      int64_t v = 0;
      if (read_integer(items[i], v)) {
        g.items.push_back(v);
        g.entries.push_back(-1);
        continue;
      }
      if (!PyList_CheckExact(items[i]) && !PyTuple_CheckExact(items[i])) return false;
      PyObject* const* inner = PySequence_Fast_ITEMS(items[i]);
      const Py_ssize_t size = PySequence_Fast_GET_SIZE(items[i]);
      for (Py_ssize_t k = 0; k < size; ++k) {
        if (!read_integer(inner[k], v)) return false;
        g.items.push_back(v);
      }
      g.entries.push_back(static_cast<int32_t>(size));
    }
    return true;
  }

  bool read_value(PyObject* v, GivenValue& g) {
    using Kind = GivenValue::Kind;
    if (v == Py_True || v == Py_False) {
      g.kind = Kind::boolean;
      g.integer = v == Py_True;
      return true;
    }
    PyTypeObject* type = Py_TYPE(v);
    if (type == reinterpret_cast<PyTypeObject*>(tensor_type_)) {
      g.kind = Kind::view;
      return read_view(v, g.view);
    }
    if (type == &PyLong_Type) {
      g.kind = Kind::integer;
      return read_integer(v, g.integer);
    }
    if (type == &PyUnicode_Type) {
      g.kind = Kind::name;
      return read_text(v, g.text);
    }
    if (is_register(v)) {  // a register operand: its name, as the text writes it
      const Ref name = slots_.name.of(v);
      g.kind = Kind::name;
      return name && read_text(name.ptr(), g.text);
    }
    if (type == &PyList_Type || type == &PyTuple_Type) return read_list(v, g);
    // A float or any other value: the text render_value writes for it.
    g.kind = Kind::written;
    const Ref text = take(PyObject_CallOneArg(render_value_, v));
    if (!text) {
      PyErr_Clear();
      return false;
    }
    return read_text(text.ptr(), g.text);
  }

  bool is_register(PyObject* v) const { return register_type_ != nullptr && PyObject_TypeCheck(v, register_type_); }

  ProgramBuilder& builder_;
  PyObject* tensor_type_;
  PyObject* render_value_;
  PyTypeObject* register_type_;  // _registers.Register, or nullptr
  Slots slots_;
  std::unordered_map<PyObject*, std::optional<ProgramBuilder::Form>> forms_;
  std::vector<GivenValue> values_;  // one instruction's, reused
};

// `declarations`: [(name, memory, dtype, shape, role, offset, line)] in
// declaration order; `instructions`: [_record.Instruction]; `tensor_type`:
// NkiTensor; `render_value`: _record.render_value. `cores_object`: None for a
// program of one core; else, per core, (its declarations, its instructions[,
// its registers]) (nisa/nki/_cores.py), `declarations` being the shared ones
// (LANGUAGE.md 2.7). `registers`: [(name, line)] of a program of one core
// (SEMANTICS S17); `register_type`: _registers.Register (None: no register
// operand is read as one).
py::object build_recorded(const std::string& arch, const std::string& file, const py::list& declarations,
                          const py::list& instructions, const py::type& tensor_type, const py::function& render_value,
                          const py::object& cores_object, const std::string& nki, const py::list& registers,
                          const py::object& register_type) {
  // None or a list of sections; anything else is refused as a program the builder cannot take.
  const bool several = !cores_object.is_none();
  if (several && !py::isinstance<py::list>(cores_object)) return py::none();
  const py::list cores = several ? py::reinterpret_borrow<py::list>(cores_object) : py::list();
  std::size_t size_hint = instructions.size();
  if (several)
    for (const py::handle section : cores)
      if (py::isinstance<py::tuple>(section) && py::len(section) >= 2 && py::isinstance<py::list>(section[py::int_(1)]))
        size_hint += py::len(section[py::int_(1)]);
  std::unique_ptr<LoadedProgram> loaded = build_program(active_spec(), [&](ProgramBuilder& builder) {
    RecordingReader reader(builder, tensor_type.ptr(), render_value.ptr(), register_type.ptr());
    if (!builder.set_arch(arch)) return false;
    if (!nki.empty() && !builder.set_nki(nki)) return false;  // empty: the spec's default
    builder.set_file(file);
    if (several && !builder.set_cores(static_cast<int>(std::min<std::size_t>(py::len(cores), 1024)))) return false;
    auto add_all = [&](const py::handle declared, const py::handle issued, const py::handle regs) {
      if (!py::isinstance<py::list>(declared) || !py::isinstance<py::list>(issued) || !py::isinstance<py::list>(regs)) return false;
      for (const py::handle d : declared)
        if (!reader.declare(d.ptr())) return false;
      for (const py::handle r : regs)
        if (!reader.declare_register(r.ptr())) return false;
      for (const py::handle i : issued)
        if (!reader.add(i.ptr())) return false;
      return true;
    };
    if (!add_all(declarations, instructions, several ? py::list() : registers)) return false;
    if (!several) return true;
    int core = 0;
    for (const py::handle section : cores) {
      const std::size_t size = py::isinstance<py::tuple>(section) ? py::len(section) : 0;
      if ((size != 2 && size != 3) || !builder.begin_core(core++) ||
          !add_all(section[py::int_(0)], section[py::int_(1)], size == 3 ? section[py::int_(2)] : py::list()))
        return false;
    }
    return true;
  }, size_hint);
  if (!loaded) return py::none();
  return py::cast(NativeProgram{std::move(loaded)});
}

}  // namespace

void define_build_recorded(py::module_& m) {
  m.def("build_recorded", &build_recorded, py::arg("arch"), py::arg("file"), py::arg("declarations"), py::arg("instructions"),
        py::arg("tensor_type"), py::arg("render_value"), py::arg("cores") = py::none(),
        py::arg("nki") = std::string(), py::arg("registers") = py::list(), py::arg("register_type") = py::none());
  // The slices nisa.nki writes a view as (program_builder.hpp), or None for
  // an access pattern: `shape` and `pattern` ((stride, count), ...) tuples
  // of ints. A number beyond int64 gives None (the text is refused either way).
  m.def("view_slices", [](const py::tuple& shape, bool on_chip, const py::int_& offset, const py::tuple& pattern) -> py::object {
    std::vector<int64_t> sizes(shape.size());
    std::vector<PatternDim> dims(pattern.size());
    int64_t start = 0;
    for (std::size_t d = 0; d < sizes.size(); ++d)
      if (!read_integer(shape[d].ptr(), sizes[d])) return py::none();
    for (std::size_t d = 0; d < dims.size(); ++d) {
      PyObject* pair = pattern[d].ptr();
      if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 || !read_integer(PyTuple_GET_ITEM(pair, 0), dims[d].step) ||
          !read_integer(PyTuple_GET_ITEM(pair, 1), dims[d].num))
        return py::none();
    }
    if (!read_integer(offset.ptr(), start)) return py::none();
    std::vector<DimSlice> slices;
    if (!slices_of_pattern(sizes, on_chip, start, dims, slices)) return py::none();
    py::tuple out(slices.size());
    for (std::size_t d = 0; d < slices.size(); ++d) out[d] = py::make_tuple(slices[d].start, slices[d].count, slices[d].step);
    return out;
  });
}

}  // namespace nisa
