// _nisa: the compiled half of the Python package (LANGUAGE.md 4). Programs are
// assembled, decoded and run in this process: inputs come in through the
// buffer protocol (C-contiguous arrays are read in place), outputs go back as
// new NumPy arrays, and every nisa error becomes _nisa.NativeError carrying
// the CLI's message (python/nisa/__init__.py turns it into nisa.Error).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "assembler.hpp"
#include "disassembler.hpp"
#include "error.hpp"
#include "dead_stores.hpp"
#include "interpreter.hpp"
#include "partition_split.hpp"
#include "plain_paths.hpp"
#include "lanes.hpp"
#include "nbin.hpp"
#include "npy.hpp"
#include "profile_report.hpp"
#include "spec.hpp"
#include "tensor_init.hpp"
#include "timeline.hpp"

namespace py = pybind11;

namespace nisa {
namespace {

// An assembled or decoded program, checked (so it runs without bounds checks).
struct NativeProgram {
  Program program;
};

NativeProgram assemble_text(const std::string& text, const std::string& file) {
  AssembleResult result = assemble(active_spec(), text, file);
  if (!result.diagnostics.empty()) {
    std::string message;
    for (const Diagnostic& d : result.diagnostics) message += format_diagnostic(d);
    throw InputError(message);
  }
  return NativeProgram{std::move(result.program)};
}

NativeProgram decode_binary(const py::bytes& data, const std::string& file) {
  const std::string bytes = data;
  return NativeProgram{decode_program(active_spec(), std::vector<uint8_t>(bytes.begin(), bytes.end()), file)};
}

// NumPy's kind and size of a buffer's element type ('b' for bool).
NpyType buffer_type(const py::buffer_info& info) {
  const char f = info.format.empty() ? '?' : info.format.back();
  const auto size = static_cast<uint8_t>(info.itemsize);
  if (f == '?') return NpyType{'b', 1};
  if (f == 'e' || f == 'f' || f == 'd') return NpyType{'f', size};
  if (f == 'b' || f == 'h' || f == 'i' || f == 'l' || f == 'q') return NpyType{'i', size};
  if (f == 'B' || f == 'H' || f == 'I' || f == 'L' || f == 'Q') return NpyType{'u', size};
  return NpyType{'c', size};  // anything else: refused by the dtype check
}

// "[4, 8]": a declared shape as the .nasm source writes it.
std::string declared_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// The tensor's bytes in nisa storage from a C-contiguous array of its shape.
std::vector<uint8_t> storage_from_array(const TensorDecl& d, const py::buffer& array) {
  const py::buffer_info info = array.request();
  const std::string where = "input " + d.name + ": ";
  const std::string declared = " tensor " + d.name + " declared ";
  const NpyType got = buffer_type(info), want = npy_type_of(d.dtype);
  // LANGUAGE.md 3: a bool array fills a u8 (bool) tensor.
  const bool bool_into_u8 = got == NpyType{'b', 1} && d.dtype == Dtype::u8;
  if (got != want && !bool_into_u8) {
    std::string message = where + "dtype " + (got.kind == 'c' ? "'" + info.format + "'" : got.name()) + " does not match" +
                          declared + std::string(dtype_name(d.dtype)) + " (line " + std::to_string(d.line) + ")";
    if (travels_as_f32(d.dtype)) message += "; " + std::string(dtype_name(d.dtype)) + " inputs are float32 arrays";
    throw InputError(message);
  }
  const std::vector<int64_t> shape(info.shape.begin(), info.shape.end());
  if (shape != d.shape)
    throw InputError(where + "shape " + npy_shape_text(shape) + " does not match" + declared + declared_text(d.shape) + " (line " +
                     std::to_string(d.line) + ")");
  int64_t expected_stride = info.itemsize;
  for (std::size_t k = shape.size(); k-- > 0;) {
    if (shape[k] > 1 && info.strides[k] != expected_stride)
      throw InputError(where + "the array is not C-contiguous (use numpy.ascontiguousarray)");
    expected_stride *= shape[k];
  }
  const auto* src = static_cast<const uint8_t*>(info.ptr);
  const std::size_t bytes = static_cast<std::size_t>(element_count(d.shape)) * want.size;
  std::vector<uint8_t> raw = storage_from_npy_data(d.dtype, std::span(src, bytes));  // S2.2 rounding where needed
  if (bool_into_u8)
    for (uint8_t& b : raw) b = b != 0;
  return raw;
}

py::dtype numpy_dtype(Dtype dtype) {
  const NpyType t = npy_type_of(dtype);
  return py::dtype(t.descr());
}

// A new array holding a tensor's value (float32 for the travelling dtypes).
py::array array_from_storage(const TensorDecl& d, std::span<const uint8_t> raw) {
  std::vector<py::ssize_t> shape(d.shape.begin(), d.shape.end());
  py::array out(numpy_dtype(d.dtype), shape);
  npy_data_from_storage(d.dtype, raw, static_cast<uint8_t*>(out.mutable_data()));
  return out;
}

bool is_input(const TensorDecl& d) { return d.memory == Memory::hbm && (d.role == Role::input || d.role == Role::inout); }
bool is_output(const TensorDecl& d) { return d.memory == Memory::hbm && (d.role == Role::output || d.role == Role::inout); }

void fill_inputs(const Program& program, const py::dict& inputs, Machine& machine) {
  std::map<std::string, py::buffer> given;
  for (const auto& [key, value] : inputs) {
    const std::string name = py::cast<std::string>(key);
    int found = -1;
    for (std::size_t t = 0; t < program.tensors.size(); ++t)
      if (program.tensors[t].name == name) found = static_cast<int>(t);
    if (found < 0) throw InputError(file_error(program.file, "input " + name + ": no tensor named '" + name + "'"));
    const TensorDecl& d = program.tensors[static_cast<std::size_t>(found)];
    if (!is_input(d))
      throw InputError(file_error(program.file, "input " + name + ": tensor '" + name + "' (line " + std::to_string(d.line) +
                                                    ") is not declared input or inout"));
    given.emplace(name, py::reinterpret_borrow<py::buffer>(value));
  }
  for (std::size_t t = 0; t < program.tensors.size(); ++t) {
    const TensorDecl& d = program.tensors[t];
    if (!is_input(d)) continue;
    const auto it = given.find(d.name);
    if (it != given.end()) {
      const std::vector<uint8_t> raw = storage_from_array(d, it->second);
      if (!raw.empty()) std::memcpy(machine.hbm[t].data(), raw.data(), raw.size());
    } else if (d.init != InitKind::none) {
      fill_from_init(d, machine.hbm[t].bytes());
    } else {
      throw InputError(program.file + ":" + std::to_string(d.line) + ": error: input tensor '" + d.name +
                       "' has no array in inputs and no '= INIT' in its declaration");
    }
  }
}

// The --profile table as data: one row per engine (SEMANTICS S6 estimates).
py::dict profile_rows(const Program& program, const Timeline& timeline) {
  double busy_ns[kEngineCount] = {}, cycles[kEngineCount] = {};
  int count[kEngineCount] = {};
  for (std::size_t i = 0; i < program.instructions.size(); ++i) {
    const TimedInstruction& ti = timeline.instructions[i];
    const auto e = static_cast<std::size_t>(ti.engine);
    busy_ns[e] += ti.end_ns - ti.start_ns;
    cycles[e] += ti.cycles;
    ++count[e];
  }
  py::dict rows;
  for (int e = 0; e < kEngineCount; ++e) {
    py::dict row;
    row["instructions"] = count[e];
    row["busy_cycles"] = cycles[e];
    row["clock_ghz"] = timeline.clock_ghz[e];
    row["busy_us"] = busy_ns[e] / 1000.0;
    row["utilisation"] = timeline.span_ns > 0 ? busy_ns[e] / timeline.span_ns : 0.0;
    rows[py::str(engine_name(static_cast<Engine>(e)))] = row;
  }
  py::dict result;
  result["engines"] = rows;
  result["span_us"] = timeline.span_ns / 1000.0;
  result["table"] = profile_table(active_spec(), program, timeline);
  return result;
}

py::tuple run(const NativeProgram& native, const py::dict& inputs, bool strict, bool profile) {
  const Spec& spec = active_spec();
  const Program& program = native.program;
  Machine machine = make_machine(spec, program);
  fill_inputs(program, inputs, machine);
  {
    py::gil_scoped_release release;  // the run touches no Python object
    DecodedProgram decoded = predecode(spec, program, machine);
    if (!strict && !plain_paths()) skip_dead_steps(spec, program, decoded.steps);
    UpperHalves upper;
    if (!strict && second_thread_allowed())
      upper = split_partitions(
          spec, decoded.steps, *decoded.tiles,
          [&](const Step& s) -> const Instruction& { return program.instructions[static_cast<std::size_t>(s.instruction)]; },
          split_min_elements());
    if (strict) execute_strict(program, decoded.steps, machine);
    else execute_two_threads(decoded.steps, upper, machine);
  }
  py::dict outputs;
  for (std::size_t t = 0; t < program.tensors.size(); ++t)
    if (is_output(program.tensors[t])) outputs[py::str(program.tensors[t].name)] = array_from_storage(program.tensors[t], machine.hbm[t].bytes());
  py::object report = py::none();
  if (profile) report = profile_rows(program, build_timeline(spec, program));
  return py::make_tuple(outputs, report);
}

std::string trace_text(const NativeProgram& native) {
  const Spec& spec = active_spec();
  return trace_json(spec, native.program, build_timeline(spec, native.program));
}

py::list tensor_list(const NativeProgram& native) {
  py::list out;
  for (const TensorDecl& d : native.program.tensors) {
    py::dict t;
    t["name"] = d.name;
    t["memory"] = std::string(memory_name(d.memory));
    t["dtype"] = std::string(dtype_name(d.dtype));
    t["shape"] = d.shape;
    t["role"] = std::string(role_name(d.role));
    t["line"] = d.line;
    out.append(t);
  }
  return out;
}

}  // namespace
}  // namespace nisa

PYBIND11_MODULE(_nisa, m) {
  using namespace nisa;
  m.doc() = "nisa's compiled core: assemble, decode and run programs in process";
  static py::exception<NisaError> native_error(m, "NativeError");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const NisaError& e) {
      const auto type = py::reinterpret_borrow<py::object>(native_error.ptr());
      const py::object error = type(py::str(e.what()), py::int_(e.exit_status()));
      PyErr_SetObject(native_error.ptr(), error.ptr());
    }
  });
  py::class_<NativeProgram>(m, "NativeProgram")
      .def_property_readonly("tensors", &tensor_list)
      .def_property_readonly("file", [](const NativeProgram& p) { return p.program.file; })
      .def_property_readonly("instruction_count", [](const NativeProgram& p) { return p.program.instructions.size(); })
      .def("to_nbin", [](const NativeProgram& p) {
        const std::vector<uint8_t> bytes = encode_program(active_spec(), p.program);
        return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
      })
      .def("disassemble", [](const NativeProgram& p) { return disassemble(active_spec(), p.program); })
      .def("trace_json", &trace_text);
  m.def("assemble", &assemble_text, py::arg("text"), py::arg("file"));
  m.def("decode", &decode_binary, py::arg("data"), py::arg("file"));
  m.def("run", &run, py::arg("program"), py::arg("inputs"), py::arg("strict") = false, py::arg("profile") = false);
  // The ISA spec nisa was built from (`nisa isa --json`): nisa.nki.isa takes
  // every instruction's parameters, order and defaults from it.
  m.def("spec_json", [] { return active_spec().json; });
}
