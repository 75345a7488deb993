// _nisa: the compiled half of the Python package (LANGUAGE.md 4). Programs are
// loaded, assembled or decoded and run in this process through the same run
// pipeline as `nisa run` (interp/pipeline/): inputs come in as NumPy arrays
// (C-contiguous, native byte order: python/nisa/__init__.py converts the
// others exactly; an `input` tensor no instruction writes reads the caller's
// array in place, others are copied once into the machine), outputs go back
// as NumPy arrays that own the machine's memory, and every nisa error
// becomes _nisa.NativeError carrying the CLI's message (nisa/__init__.py turns
// it into nisa.Error).
//
// Text crosses as bytes: sources and file names may hold any bytes, as on the
// command line; names and messages come back decoded as UTF-8 with
// surrogateescape, so os.fsencode() gives the bytes back.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "array_text.hpp"
#include "disassembler.hpp"
#include "error.hpp"
#include "hbm_limits.hpp"
#include "interruption.hpp"
#include "lanes.hpp"
#include "loaded_program.hpp"
#include "native_program.hpp"
#include "nbin.hpp"
#include "npy.hpp"
#include "profile_report.hpp"
#include "recorded_program.hpp"
#include "run_execution.hpp"
#include "run_inputs.hpp"
#include "run_outputs.hpp"
#include "spec.hpp"
#include "timeline.hpp"

namespace py = pybind11;

namespace nisa {
namespace {

// A Python str of bytes that may not be UTF-8 (a file name, a message that
// quotes one): undecodable bytes become lone surrogates, as os.fsdecode does.
py::str text(const std::string& bytes) {
  PyObject* s = PyUnicode_DecodeUTF8(bytes.data(), static_cast<Py_ssize_t>(bytes.size()), "surrogateescape");
  if (s == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

// `cores`: nisa.assemble's cores= (--cores N; 0: not given), LANGUAGE.md 2.7.
NativeProgram assemble_text(const py::bytes& source, const py::bytes& file, int cores) {
  const std::string text = source;
  return {assemble_program(active_spec(), text, file, cores)};
}

NativeProgram decode_binary(const py::bytes& data, const py::bytes& file) {
  const std::string bytes = data;
  return {decode_program_bytes(active_spec(), std::vector<uint8_t>(bytes.begin(), bytes.end()), file)};
}

NativeProgram load_file(const py::bytes& path, const py::bytes& file, int cores) {
  return {load_program_file(active_spec(), path, file, cores)};
}

// "[4, 8]": a declared shape as the .nasm source writes it.
std::string declared_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// The NumPy type of an array's elements, or nothing for a kind nisa has no
// tensor of (complex, object, string, datetime, structured...). An ml_dtypes
// float is known by its name (its kind is 'V', or 'f' for float8_e5m2); a
// plain void array ("void8", "void16": np.load of an ml_dtypes array's file
// without ml_dtypes) by its own.
std::optional<NpyType> element_type(const py::dtype& dtype) {
  const auto size = static_cast<uint8_t>(dtype.itemsize());
  const char kind = dtype.kind();
  if (kind == 'V' || (kind == 'f' && size == 1)) {  // the name only where it can matter
    const std::string name = py::str(dtype.attr("name"));
    if (const std::optional<NpyType> named = npy_minifloat_named(name); named && named->size == size) return named;
    if (kind == 'V' && (name == "void8" || name == "void16") && dtype.attr("names").is_none() &&
        dtype.attr("subdtype").is_none())
      return NpyType{'V', size};
  }
  switch (kind) {
    case 'b': return NpyType{'b', 1};
    case 'f': return NpyType{'f', size};
    case 'i': return NpyType{'i', size};
    case 'u': return NpyType{'u', size};
    default: return std::nullopt;
  }
}

// Checks an array against a tensor declaration (LANGUAGE.md 4): the same
// rules as a .npy file given to `nisa run --input`. Returns how the array
// fills the tensor.
NpyFill check_array(const std::string& program_file, const TensorDecl& d, const py::array& array) {
  const std::string where = program_file + ": error: input " + d.name + ": ";
  const std::string declared = " tensor " + d.name + " declared ";
  const py::dtype dtype = array.dtype();
  const std::string dtype_text = py::str(static_cast<const py::handle&>(dtype));
  const std::optional<NpyType> got = element_type(dtype);
  const std::optional<NpyFill> fill = got ? npy_fill(*got, d.dtype) : std::nullopt;
  const NpyType want = npy_type_of(d.dtype);
  if (!fill)
    throw InputError(where + "dtype " + dtype_text + " does not match" + declared + std::string(dtype_name(d.dtype)) +
                     " (line " + std::to_string(d.line) + ", a " + want.name() + " array)" +
                     npy_fill_hint(d.dtype, "inputs"));
  // nisa/__init__.py hands over native byte order and C order; a caller of
  // _nisa itself gets an error rather than misread bytes.
  if (dtype.attr("byteorder").cast<std::string>() == ">")
    throw InputError(where + "dtype " + dtype_text + " is big-endian; convert it with .astype('" + want.descr() + "')");
  const std::vector<int64_t> shape(array.shape(), array.shape() + array.ndim());
  if (shape != d.shape)
    throw InputError(where + "shape " + npy_shape_text(shape) + " does not match" + declared + declared_text(d.shape) +
                     " (line " + std::to_string(d.line) + ")");
  if ((array.flags() & py::array::c_style) == 0)
    throw InputError(where + "the array is not C-contiguous (use numpy.ascontiguousarray)");
  return *fill;
}

std::span<const uint8_t> array_bytes(const py::array& array) {
  return {static_cast<const uint8_t*>(array.data()), static_cast<std::size_t>(array.nbytes())};
}

// Fills a tensor's storage from a checked array: one copy (or the S2.2
// rounding of a float32 array into a bf16, tf32 or fp8 tensor) straight into
// the machine's memory.
void fill_from_array(const std::string& program_file, const TensorDecl& d, const py::array& array,
                     std::span<uint8_t> storage) {
  const NpyFill fill = check_array(program_file, d, array);
  storage_from_npy_data(d.dtype, fill, array_bytes(array), storage.data());
}

// The array's own bytes when the tensor can read them in place: its bits are
// the tensor's (no bool for u8, no float32 for bf16) and each element sits at
// an address of its size's alignment, as the machine's memory is.
std::span<const uint8_t> array_in_place(const std::string& program_file, const TensorDecl& d, const py::array& array) {
  const NpyFill fill = check_array(program_file, d, array);
  const std::span<const uint8_t> bytes = array_bytes(array);
  if (fill != NpyFill::bits || reinterpret_cast<std::uintptr_t>(bytes.data()) % dtype_size(d.dtype) != 0) return {};
  return bytes;
}

// The NumPy dtype of a returned array: npy_type_of's in `form`, with bf16
// and the fp8 types in the ml_dtypes form as their bits (uint16, uint8),
// which nisa/__init__.py views as ml_dtypes' types.
py::dtype returned_dtype(Dtype dtype, MinifloatForm form) {
  const NpyType type = npy_type_of(dtype, form);
  return py::dtype(type.kind == 'm' ? NpyType{'u', type.size}.descr() : type.descr());
}

// A tensor's value as a NumPy array. A dtype stored as-is (not tf32, nor
// bf16 or fp8 in the float32 form: they widen to float32) hands its machine
// memory over: the array owns it (a capsule base frees it), nothing is copied.
py::array array_from_storage(const TensorDecl& d, ZeroedBytes&& storage, MinifloatForm form) {
  std::vector<py::ssize_t> shape(d.shape.begin(), d.shape.end());
  const py::dtype dtype = returned_dtype(d.dtype, form);
  if (travels_as_f32(d.dtype, form) || storage.borrowed()) {
    py::array out(dtype, shape);
    npy_data_from_storage(d.dtype, storage.bytes(), static_cast<uint8_t*>(out.mutable_data()), form);
    return out;
  }
  auto owned = std::make_unique<ZeroedBytes>(std::move(storage));
  uint8_t* data = owned->data();
  py::capsule base(owned.get(), [](void* p) { delete static_cast<ZeroedBytes*>(p); });
  owned.release();  // the capsule owns it now
  return py::array(dtype, shape, data, base);
}

// One row of the --profile table as data; `engines_span_ns`: the span times
// the engines counted (several cores' engines together).
py::dict engine_row(const EngineUse& use, double clock_ghz, double engines_span_ns) {
  py::dict row;
  row["instructions"] = use.instructions;
  row["busy_cycles"] = use.cycles;
  row["clock_ghz"] = clock_ghz;
  row["busy_us"] = use.busy_ns / 1000.0;
  row["utilisation"] = engines_span_ns > 0 ? use.busy_ns / engines_span_ns : 0.0;
  return row;
}

// The --profile table as data (SEMANTICS S6 estimates): one row per engine,
// summed over the cores, and per core (S16.4) its own rows, end and waiting.
py::dict profile_rows(const Program& program, const Timeline& timeline) {
  const std::vector<CoreUse> cores = core_use(timeline);
  py::list per_core;
  EngineUse total[kEngineCount];
  for (const CoreUse& core : cores) {
    py::dict rows;
    for (int e = 0; e < kEngineCount; ++e) {
      rows[py::str(engine_name(static_cast<Engine>(e)))] = engine_row(core.engines[e], timeline.clock_ghz[e], timeline.span_ns);
      total[e].instructions += core.engines[e].instructions;
      total[e].cycles += core.engines[e].cycles;
      total[e].busy_ns += core.engines[e].busy_ns;
    }
    py::dict entry;
    entry["engines"] = rows;
    entry["instructions"] = core.instructions;
    entry["end_us"] = core.end_ns / 1000.0;
    entry["waiting_us"] = core.waiting_ns / 1000.0;
    per_core.append(entry);
  }
  py::dict rows;
  for (int e = 0; e < kEngineCount; ++e)
    rows[py::str(engine_name(static_cast<Engine>(e)))] =
        engine_row(total[e], timeline.clock_ghz[e], timeline.span_ns * static_cast<double>(cores.size()));
  py::dict result;
  result["engines"] = rows;
  result["cores"] = per_core;
  result["span_us"] = timeline.span_ns / 1000.0;
  result["table"] = profile_table(active_spec(), program, timeline);
  return result;
}

// `inputs` ({bytes: ndarray}, as nisa/__init__.py hands them over) as the
// run pipeline takes them; with `in_place`, an input no instruction writes may
// read the array itself. Each entry keeps a reference to its array.
std::vector<GivenInput> given_arrays(const Program& program, const py::dict& inputs, bool in_place) {
  std::vector<GivenInput> given;
  for (const auto& [key, value] : inputs) {
    if (!py::isinstance<py::bytes>(key) || !py::isinstance<py::array>(value))
      throw InputError("inputs: error: expected {bytes: numpy.ndarray} (nisa.run converts its inputs)");
    const py::array array = py::reinterpret_borrow<py::array>(value);
    GivenInput g{key.cast<std::string>(),
                 [&program, array](const TensorDecl& d, std::span<uint8_t> storage) {
                   fill_from_array(program.file, d, array, storage);
                 },
                 nullptr};
    if (in_place) g.in_place = [&program, array](const TensorDecl& d) { return array_in_place(program.file, d, array); };
    given.push_back(std::move(g));
  }
  return given;
}

// Python's pending signals, asked from the run (GIL released) every
// Interruption::kPollInterval: a handler that raises (Ctrl-C's
// KeyboardInterrupt) stops the run between two steps.
bool python_signal_pending() {
  py::gil_scoped_acquire gil;
  return PyErr_CheckSignals() != 0;
}

// device_print's text handed to a Python callable (nisa.run's print_to: by
// default sys.stdout.write) as each print runs, with the GIL taken for it.
// An exception the callable raises stops the run between two steps and is
// raised by nisa.run, as Ctrl-C's is (the error stays pending meanwhile).
class PythonPrint final : public PrintOutput {
 public:
  explicit PythonPrint(py::object write) : write_(std::move(write)) {}
  void write(std::string_view printed) override {
    py::gil_scoped_acquire gil;
    try {
      write_(text(std::string(printed)));
    } catch (py::error_already_set& e) {
      e.restore();
      throw RunInterrupted{};
    }
  }

 private:
  py::object write_;
};

// `inputs`: {bytes: ndarray} (nisa/__init__.py encoded the names and made
// the arrays C-contiguous and native-endian).
// `trace`: b"" for none, else the path of the timeline JSON to write.
// `hbm_limit`: bytes of HBM tensors in all (LANGUAGE.md 2.6), 0 for the default.
// `max_steps`: the loops' step limit (S17.2), 0 for the default.
// `ml_dtypes_bits`: bf16 and fp8 outputs as their bits (for nisa/__init__.py
// to view as ml_dtypes' types), else as float32 (exactly; LANGUAGE.md 4).
// `print_file`: b"" for none, else the path device_print's text is written
// to with the other outputs; without one, `print_write` (a callable taking a
// str, or None for no output) gets each print as it runs.
py::tuple run(const NativeProgram& native, const py::dict& inputs, bool strict, bool profile, const py::bytes& trace,
              int64_t hbm_limit, bool ml_dtypes_bits, const py::bytes& print_file, const py::object& print_write,
              uint64_t max_steps) {
  const MinifloatForm form = ml_dtypes_bits ? MinifloatForm::ml_dtypes : MinifloatForm::float32;
  const Spec& spec = active_spec();
  LoadedProgram& loaded = *native.loaded;
  const Program& program = loaded.program;
  OutputRequest request;
  request.trace_file = trace;
  request.trace_option = "trace";
  request.print_file = print_file;
  request.print_option = "print_to";
  if (!loaded.source_path.empty()) request.read_files.push_back(loaded.source_path);
  if (!request.trace_file.empty() || !request.print_file.empty()) check_outputs_before_run(program, request);

  std::vector<GivenInput> given = given_arrays(program, inputs, true);
  check_hbm_limit(program, hbm_limit > 0 ? hbm_limit : default_hbm_limit(), InputOrigin::python);
  Machine machine = make_machine(spec, program);
  PrintBuffer to_file;
  std::optional<PythonPrint> to_python;
  if (!request.print_file.empty()) {
    machine.print_output = &to_file;
  } else if (!print_write.is_none()) {
    machine.print_output = &to_python.emplace(print_write);
  }
  {
    std::unique_lock hold(loaded.lock);
    const std::vector<bool>& written = loaded.written_tensors(spec);
    hold.unlock();  // computed once; never changed afterwards
    // `given` keeps a reference to every array until the run is over: an
    // input no instruction writes is read in place from the caller's array.
    bind_inputs(program, program.file, given, machine, InputOrigin::python, &written);
  }

  const bool timed = profile || !request.trace_file.empty();
  LoopTrips trips;  // S17.4: what the loops ran, for the timeline
  bool interrupted = false;
  {
    py::gil_scoped_release release;  // the run touches no Python object but through python_signal_pending
    Interruption interruption(python_signal_pending);
    try {
      run_loaded_program(spec, loaded, machine,
                         RunSettings{strict, &interruption, nullptr, max_steps, timed ? &trips : nullptr});
    } catch (const RunInterrupted&) {
      interrupted = true;
    }
  }
  if (interrupted) throw py::error_already_set();  // the handler's exception (KeyboardInterrupt)

  py::object report = py::none();
  std::string json;
  if (timed) {
    std::unique_lock hold(loaded.lock);
    const Program& model = loaded.model();
    const Timeline timeline = build_timeline(spec, model, &trips);
    if (profile) report = profile_rows(model, timeline);
    if (!request.trace_file.empty()) json = trace_json(spec, model, timeline);
  }
  if (!request.trace_file.empty() || !request.print_file.empty()) {
    py::gil_scoped_release release;
    write_run_outputs(program, machine, request, json, to_file.text());
  }
  // Last: the outputs leave the machine (their memory moves into the arrays).
  py::dict outputs;
  for (std::size_t t = 0; t < program.tensors.size(); ++t)
    if (is_output_tensor(program.tensors[t]))
      outputs[text(program.tensors[t].name)] = array_from_storage(program.tensors[t], std::move(machine.hbm[t]), form);
  given.clear();  // the arrays' references, dropped with the GIL held
  return py::make_tuple(outputs, report);
}

// A read-only NumPy view of `count` elements at `data` whose base keeps the
// machine alive (`owner`): valid during the lockstep callbacks and after.
py::array machine_view(const py::dtype& dtype, std::vector<py::ssize_t> shape, const void* data, const py::capsule& owner) {
  py::array view(dtype, std::move(shape), data, owner);
  view.attr("setflags")(py::arg("write") = false);
  return view;
}

// The machine's whole state as zero-copy read-only views (lockstep): SBUF
// and PSUM bytes [128, used bytes per partition] (the internal layout:
// partition p at p * partition stride, each tensor at its declared offset
// in every partition), each HBM tensor's storage bytes (bf16, tf32, fp8 as
// stored, not widened), the two accumulators [128] float32 and the random
// generators' states (uint32: Vector [128, 24], GpSimd [128, 6]), the
// registers (int32 [64]) and which of them are set (uint64 [1], bit r).
py::dict machine_state(const Program& program, const std::shared_ptr<Machine>& machine) {
  auto* keep = new std::shared_ptr<Machine>(machine);
  const py::capsule owner(keep, [](void* p) { delete static_cast<std::shared_ptr<Machine>*>(p); });
  Machine& m = *machine;
  const py::dtype u8("u1"), f32("f4"), u32("u4");
  py::dict state;
  state["sbuf"] = machine_view(u8, {kLanes, m.sbuf_partition_bytes}, m.sbuf.data(), owner);
  state["psum"] = machine_view(u8, {kLanes, m.psum_partition_bytes}, m.psum.data(), owner);
  py::dict hbm, offsets;
  for (std::size_t t = 0; t < program.tensors.size(); ++t) {
    const TensorDecl& d = program.tensors[t];
    if (d.memory == Memory::hbm)
      hbm[text(d.name)] = machine_view(u8, {static_cast<py::ssize_t>(m.hbm[t].size())}, m.hbm[t].data(), owner);
    else
      offsets[text(d.name)] = d.offset;
  }
  state["hbm"] = hbm;
  state["offsets"] = offsets;  // SBUF/PSUM tensors: byte offset within each partition
  state["vector_accumulator"] = machine_view(f32, {kLanes}, m.vector_accumulator.data(), owner);
  state["scalar_accumulator"] = machine_view(f32, {kLanes}, m.scalar_accumulator.data(), owner);
  state["vector_rng"] = machine_view(u32, {kLanes, kVectorGenerators * kRngWords}, m.vector_rng.data(), owner);
  state["gpsimd_rng"] = machine_view(u32, {kLanes, kGpsimdGenerators * kRngWords}, m.gpsimd_rng.data(), owner);
  // S17.1: the sequencer registers by index (declaration order), and which are set (bit r).
  state["registers"] = machine_view(py::dtype("i4"), {kMaxRegisters}, m.registers.data(), owner);
  state["registers_set"] = machine_view(py::dtype("u8"), {1}, &m.registers_set, owner);
  return state;
}

// Lockstep (tests/reference/lockstep.py): runs `native` one instruction at a
// time (run_lockstep: a step per position, no dead-store skipping, no
// second thread) and calls callback(position, line, state) once before
// the first instruction (position -1, line 0: the inputs bound) and after
// each, `state` as machine_state gives it, showing the state after that
// instruction, and state["printed"] the text that instruction printed
// (device_print; "" for every other). An exception from the callback stops
// the run and propagates. Returns the final state (its views keep the
// machine alive).
py::dict lockstep(const NativeProgram& native, const py::dict& inputs, const py::function& callback) {
  const Spec& spec = active_spec();
  LoadedProgram& loaded = *native.loaded;
  const Program& program = loaded.program;
  std::vector<GivenInput> given = given_arrays(program, inputs, false);
  check_hbm_limit(program, default_hbm_limit(), InputOrigin::python);
  auto machine = std::make_shared<Machine>(make_machine(spec, program));
  bind_inputs(program, program.file, given, *machine, InputOrigin::python);  // copied: the views outlive the arrays
  given.clear();
  const py::dict state = machine_state(program, machine);
  // Each step's print, handed over after it; the machine (which the state's
  // views keep alive) stops pointing at the buffer when the run ends.
  struct StepPrint final : PrintOutput {
    std::string text;
    void write(std::string_view t) override { text += t; }
  } printed;
  struct Detach {
    Machine& m;
    ~Detach() { m.print_output = nullptr; }
  } detach{*machine};
  machine->print_output = &printed;
  // The GIL is held throughout: the callback is Python (and sees Ctrl-C).
  run_lockstep(spec, loaded, *machine, [&](std::ptrdiff_t position, uint32_t line) {
    state["printed"] = text(printed.text);
    printed.text.clear();
    callback(position, line, state);
  });
  return state;
}

// NumPy's str() of `array` as device_print writes it (array_text.hpp), for
// tests that hold it to NumPy's own text: a C-contiguous native-endian array
// of float32, float16 or an integer type of 1, 2 or 4 bytes.
std::string array_text(const py::array& array) {
  const std::optional<NpyType> type = element_type(array.dtype());
  if (!type || (array.flags() & py::array::c_style) == 0 || array.dtype().attr("byteorder").cast<std::string>() == ">")
    throw InputError("array_text: error: expected a C-contiguous native-endian float32, float16 or integer array");
  const std::vector<int64_t> shape(array.shape(), array.shape() + array.ndim());
  const auto* data = static_cast<const uint8_t*>(array.data());
  return numpy_array_text(*type, shape, [&](int64_t flat, uint8_t* out) {
    std::memcpy(out, data + flat * type->size, type->size);
  });
}

py::list tensor_list(const NativeProgram& native) {
  py::list out;
  for (const TensorDecl& d : native.loaded->program.tensors) {
    py::dict t;
    t["name"] = text(d.name);
    t["memory"] = std::string(memory_name(d.memory));
    t["dtype"] = std::string(dtype_name(d.dtype));
    t["shape"] = d.shape;
    t["role"] = std::string(role_name(d.role));
    t["line"] = d.line;
    t["core"] = d.core == TensorDecl::kShared ? py::object(py::none()) : py::object(py::int_(d.core));
    out.append(t);
  }
  return out;
}

// Calls `make` on the whole program model (built once, under the program's lock).
template <class Make>
auto with_model(const NativeProgram& native, Make&& make) {
  std::lock_guard hold(native.loaded->lock);
  return make(native.loaded->model());
}

}  // namespace
}  // namespace nisa

PYBIND11_MODULE(_nisa, m) {
  using namespace nisa;
  m.doc() = "nisa's compiled core: assemble, decode and run programs in process";
#if PYBIND11_VERSION_MAJOR == 2 && PYBIND11_VERSION_MINOR < 12
  // pybind11 before 2.12 reads dtypes in NumPy 1's layout: under NumPy 2 it
  // misreads every array's element size, so refuse to load rather than
  // misread inputs (pip's ml_dtypes 0.6 and later pull in NumPy 2).
  const std::string numpy_version = py::module_::import("numpy").attr("__version__").cast<std::string>();
  if (numpy_version.empty() || numpy_version[0] != '1')
    throw py::import_error("nisa's _nisa was built with pybind11 " + std::to_string(PYBIND11_VERSION_MAJOR) + "." +
                           std::to_string(PYBIND11_VERSION_MINOR) + ", which cannot read NumPy " + numpy_version +
                           "'s arrays: use NumPy 1.x (Debian's python3-numpy; ml_dtypes<0.6 keeps it)");
#endif
  static py::exception<NisaError> native_error(m, "NativeError");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const NisaError& e) {
      const auto type = py::reinterpret_borrow<py::object>(native_error.ptr());
      const py::object error = type(text(e.what()), py::int_(e.exit_status()));
      PyErr_SetObject(native_error.ptr(), error.ptr());
    } catch (const SpecError& e) {
      const auto type = py::reinterpret_borrow<py::object>(native_error.ptr());
      const py::object error = type(text(e.what()), py::int_(kExitBadInput));
      PyErr_SetObject(native_error.ptr(), error.ptr());
    }
  });
  py::class_<NativeProgram>(m, "NativeProgram")
      .def_property_readonly("tensors", &tensor_list)
      .def_property_readonly("file", [](const NativeProgram& p) { return py::bytes(p.loaded->program.file); })
      .def_property_readonly("instruction_count", [](const NativeProgram& p) { return p.loaded->instruction_count(); })
      .def_property_readonly("cores", [](const NativeProgram& p) { return core_count(p.loaded->program); })
      .def("to_nbin",
           [](const NativeProgram& p) {
             const std::vector<uint8_t> bytes =
                 with_model(p, [](const Program& model) { return encode_program(active_spec(), model); });
             return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
           })
      .def("disassemble", [](const NativeProgram& p) {
        return text(with_model(p, [](const Program& model) { return disassemble(active_spec(), model); }));
      });
  define_build_recorded(m);  // nisa.nki's recording made a program without text (recorded_program.cpp)
  m.def("assemble", &assemble_text, py::arg("text"), py::arg("file"), py::arg("cores") = 0);
  m.def("decode", &decode_binary, py::arg("data"), py::arg("file"));
  m.def("load", &load_file, py::arg("path"), py::arg("file"), py::arg("cores") = 0);
  m.def("run", &run, py::arg("program"), py::arg("inputs"), py::arg("strict") = false, py::arg("profile") = false,
        py::arg("trace") = py::bytes(), py::arg("hbm_limit") = 0, py::arg("ml_dtypes_bits") = false,
        py::arg("print_file") = py::bytes(), py::arg("print_write") = py::none(), py::arg("max_steps") = 0);
  m.def("lockstep", &lockstep, py::arg("program"), py::arg("inputs"), py::arg("callback"));
  // "64G" as bytes (hbm_limits.hpp), None when it is not a size.
  m.def("byte_size", [](const std::string& text) { return parse_byte_size(text); });
  m.def("default_hbm_limit", &default_hbm_limit);
  // {nisa dtype: ml_dtypes type name} of the dtypes whose outputs
  // run(ml_dtypes_bits=True) returns as their bits (bf16: uint16, the fp8
  // types: uint8), for nisa/__init__.py to view as ml_dtypes' types
  // (LANGUAGE.md 4).
  m.def("ml_dtypes_names", [] {
    py::dict names;
    for (int i = 0; i < kDtypeCount; ++i) {
      const auto dtype = static_cast<Dtype>(i);
      if (const NpyType type = npy_type_of(dtype, MinifloatForm::ml_dtypes); type.kind == 'm')
        names[py::str(std::string(dtype_name(dtype)))] = type.name();
    }
    return names;
  });
  m.def("array_text", &array_text, py::arg("array"));
  // The ISA spec nisa was built from (`nisa isa --json`): nisa.nki.isa takes
  // every instruction's parameters, order and defaults from it.
  m.def("spec_json", [] { return active_spec().json; });
}
