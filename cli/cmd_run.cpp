// nisa run (LANGUAGE.md section 1): load a .nbin (or assemble a .nasm in
// memory), fill input/inout HBM tensors from --input .npy files or their
// `= INIT`, execute (with --strict hazard tracking if asked), and dump
// output/inout tensors (and with --dump-state the SBUF, PSUM and accumulator
// state) as .npy files. Every output, --trace included, goes through one
// OutputSet (output_files.hpp): committed together only once all were
// written, so a failed run leaves no .npy behind.
// --profile and --trace (SEMANTICS S6) report the static timeline of the
// program, after a successful run only.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "assembler.hpp"
#include "commands.hpp"
#include "error.hpp"
#include "file_io.hpp"
#include "output_files.hpp"
#include "dead_stores.hpp"
#include "interpreter.hpp"
#include "partition_split.hpp"
#include "plain_paths.hpp"
#include "lanes.hpp"
#include "nbin.hpp"
#include "npy.hpp"
#include "numbers.hpp"
#include "profile_report.hpp"
#include "spec.hpp"
#include "tensor_init.hpp"
#include "timeline.hpp"

namespace nisa {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Keeps what the assembler accepts as distinct instructions.
class DistinctInstructionSink final : public InstructionSink {
 public:
  explicit DistinctInstructionSink(DistinctInstructions& to) : to_(to) {}
  void add(const Program&, const Instruction& ins) override { to_.add(ins); }

 private:
  DistinctInstructions& to_;
};

// The program to run. Its instructions (.nasm or .nbin) go to `distinct`
// (the program's own list stays empty) unless `whole_model`: the cost model
// of --profile and --trace reads the Program's instruction list.
Program load_program(const Spec& spec, const std::string& path, bool whole_model, DistinctInstructions& distinct) {
  if (ends_with(path, ".nasm")) {
    const FileText source(path);
    DistinctInstructionSink sink(distinct);
    AssembleResult result = assemble(spec, source.text(), path, whole_model ? nullptr : &sink);
    if (!result.diagnostics.empty()) {
      for (const Diagnostic& d : result.diagnostics) std::cerr << format_diagnostic(d);
      throw DiagnosticsReported(kExitBadInput);
    }
    return std::move(result.program);
  }
  if (whole_model) return decode_program(spec, read_nbin_file(path), path);
  return decode_program(spec, read_nbin_file(path), path,
                        [&](const Program&, const Instruction& ins) { distinct.add(ins); });
}

void fill_inputs(const Program& program, const RunOptions& o, Machine& machine) {
  std::map<std::string, std::string> given;  // tensor name -> .npy path
  for (const std::string& arg : o.inputs) {
    const std::size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size())
      throw InputError(file_error(o.program, "--input '" + arg + "' is not NAME=FILE.npy"));
    const std::string name = arg.substr(0, eq);
    int found = -1;
    for (std::size_t t = 0; t < program.tensors.size(); ++t)
      if (program.tensors[t].name == name) found = static_cast<int>(t);
    if (found < 0) throw InputError(file_error(o.program, "--input " + name + ": no tensor named '" + name + "'"));
    const TensorDecl& d = program.tensors[static_cast<std::size_t>(found)];
    if (d.memory != Memory::hbm || (d.role != Role::input && d.role != Role::inout))
      throw InputError(file_error(o.program, "--input " + name + ": tensor '" + name + "' (line " +
                                                 std::to_string(d.line) + ") is not declared input or inout"));
    if (!given.emplace(name, arg.substr(eq + 1)).second)
      throw InputError(file_error(o.program, "--input " + name + " is given twice"));
  }
  for (std::size_t t = 0; t < program.tensors.size(); ++t) {
    const TensorDecl& d = program.tensors[t];
    if (d.memory != Memory::hbm || (d.role != Role::input && d.role != Role::inout)) continue;
    const std::span<uint8_t> bytes = machine.hbm[t].bytes();
    const auto it = given.find(d.name);
    if (it != given.end()) {
      load_tensor_npy_into(it->second, d.dtype, d.shape, d.name, d.line, bytes);
    } else if (d.init != InitKind::none) {
      fill_from_init(d, bytes);
    } else {
      throw InputError(program.file + ":" + std::to_string(d.line) + ": error: input tensor '" + d.name +
                       "' has no --input " + d.name + "=FILE.npy and no '= INIT' in its declaration");
    }
  }
}

// A file to write: `bytes`, then each of `tail` (data written straight from
// the machine: a dumped tensor whose storage is its .npy data, the partitions
// of SBUF/PSUM), never copied first.
struct PendingFile {
  std::string path;
  std::vector<uint8_t> bytes;
  std::vector<std::span<const uint8_t>> tail = {};
};

std::vector<PendingFile> output_files(const Program& program, const Machine& machine, const std::string& dir) {
  std::vector<PendingFile> files;
  for (std::size_t t = 0; t < program.tensors.size(); ++t) {
    const TensorDecl& d = program.tensors[t];
    if (d.memory != Memory::hbm || (d.role != Role::output && d.role != Role::inout)) continue;
    const std::span<const uint8_t> storage = machine.hbm[t].bytes();
    if (travels_as_f32(d.dtype)) {  // widened to float32 on the way out
      files.push_back({dir + "/" + d.name + ".npy", encode_tensor_npy(d.dtype, d.shape, storage)});
    } else {
      files.push_back({dir + "/" + d.name + ".npy", encode_npy_header(npy_type_of(d.dtype), d.shape), {storage}});
    }
  }
  return files;
}

// SBUF or PSUM as a u8 [128, arch bytes per partition] .npy (LANGUAGE.md 1),
// written from the machine's compact layout: each partition's used bytes,
// then zeros up to the arch's partition size (never written by a program).
PendingFile memory_state_file(const Machine& machine, Memory memory, const std::string& path) {
  const bool sbuf = memory == Memory::sbuf;
  const auto used = static_cast<std::size_t>(sbuf ? machine.sbuf_partition_bytes : machine.psum_partition_bytes);
  const int64_t arch_row = sbuf ? machine.arch_sbuf_partition_bytes : machine.arch_psum_partition_bytes;
  const uint8_t* data = sbuf ? machine.sbuf.data() : machine.psum.data();
  static const std::vector<uint8_t> zeros(64 << 10, 0);
  const std::size_t padding = static_cast<std::size_t>(arch_row) - used;
  PendingFile file{path, encode_npy_header(npy_type_of(Dtype::u8), {kLanes, arch_row})};
  for (std::size_t p = 0; p < kLanes; ++p) {
    file.tail.emplace_back(data + p * used, used);
    for (std::size_t done = 0; done < padding; done += zeros.size())
      file.tail.emplace_back(zeros.data(), std::min(zeros.size(), padding - done));
  }
  return file;
}

std::vector<PendingFile> state_files(const Machine& machine, const std::string& dir) {
  auto bytes_of = [](const auto& array) {
    return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(array.data()), array.size() * sizeof(array[0]));
  };
  std::vector<PendingFile> files;
  files.push_back(memory_state_file(machine, Memory::sbuf, dir + "/sbuf.npy"));
  files.push_back(memory_state_file(machine, Memory::psum, dir + "/psum.npy"));
  files.push_back({dir + "/vector_accumulator.npy", encode_tensor_npy(Dtype::f32, {kLanes}, bytes_of(machine.vector_accumulator))});
  files.push_back({dir + "/scalar_accumulator.npy", encode_tensor_npy(Dtype::f32, {kLanes}, bytes_of(machine.scalar_accumulator))});
  return files;
}

// The files a run reads: no output may be one of them (issue 15).
void add_inputs(const RunOptions& o, OutputSet& outputs) {
  outputs.add_input(o.program);
  for (const std::string& arg : o.inputs)
    if (const std::size_t eq = arg.find('='); eq != std::string::npos) outputs.add_input(arg.substr(eq + 1));
}

// Every output path of the run with empty contents, to refuse a bad set of
// outputs (an input overwritten, a name written twice) before the run.
void check_outputs_before_run(const Program& program, const RunOptions& o) {
  OutputSet planned;
  add_inputs(o, planned);
  for (const TensorDecl& d : program.tensors)
    if (!o.dump_dir.empty() && d.memory == Memory::hbm && (d.role == Role::output || d.role == Role::inout))
      planned.add_output(o.dump_dir + "/" + d.name + ".npy", std::string_view(), "--dump");
  if (!o.dump_state_dir.empty())
    for (const char* name : {"sbuf", "psum", "vector_accumulator", "scalar_accumulator"})
      planned.add_output(o.dump_state_dir + "/" + name + ".npy", std::string_view(), "--dump-state");
  if (!o.trace_file.empty()) planned.add_output(o.trace_file, std::string_view(), "--trace");
  planned.check();
}

// This process's peak resident memory (VmHWM): unlike getrusage's ru_maxrss,
// which keeps the high-water mark of the process that exec'd us (a benchmark
// script), it counts only nisa's own pages. 0 if /proc is not there.
long peak_resident_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  return 0;
}

// Wall time between marks, from the start of the process's run command
// (--phase-times: "phases ms: load 1.20 inputs 0.80 ..."). Reads no clock
// when off: the first read faults in the vDSO's data pages (~25 us of a
// 3 ms run, issue 16).
class PhaseClock {
 public:
  explicit PhaseClock(bool on) : on_(on) {
    if (on_) last_ = std::chrono::steady_clock::now();
  }
  void mark(const char* phase) {
    if (!on_) return;
    const auto now = std::chrono::steady_clock::now();
    phases_.emplace_back(phase, std::chrono::duration<double, std::milli>(now - last_).count());
    last_ = now;
  }
  std::string report() const {
    std::string out = "phases ms:";
    char buf[64];
    for (const auto& [name, ms] : phases_) {
      std::snprintf(buf, sizeof buf, " %s %.3f", name, ms);
      out += buf;
    }
    return out + "\n";
  }

 private:
  bool on_;
  std::chrono::steady_clock::time_point last_;
  std::vector<std::pair<const char*, double>> phases_;
};

// The steps' upper halves for a second thread (S14.2), when the run may use
// one (`fast`: outside --strict and NISA_PLAIN_PATHS); instruction_of finds
// a step's instruction.
UpperHalves second_thread_halves(bool fast, const Spec& spec, std::vector<Step>& steps, TileTable& tiles,
                                 const std::function<const Instruction&(const Step&)>& instruction_of) {
  if (!fast || !second_thread_allowed()) return {};
  return split_partitions(spec, steps, tiles, instruction_of, split_min_elements());
}

}  // namespace

int command_run(const RunOptions& o) {
  PhaseClock clock(o.phase_times);
  const Spec& spec = active_spec();
  DistinctInstructions distinct;
  const Program program = load_program(spec, o.program, o.profile || !o.trace_file.empty(), distinct);
  check_outputs_before_run(program, o);
  clock.mark("load");
  Machine machine = make_machine(spec, program);
  fill_inputs(program, o, machine);
  clock.mark("inputs");
  // Outside --strict: dead stores skipped (S14.1), large partition-independent
  // steps cut for a second thread (S14.2).
  const bool fast = !o.strict && !plain_paths();
  std::size_t dead = 0;
  std::size_t cut = 0;
  if (distinct.size() > 0 && !o.strict) {
    // --strict reports each step's own line: it gets a step per position.
    SharedSteps shared = predecode_shared(spec, program, distinct, machine);
    if (fast) dead = drop_dead_positions(spec, program, distinct, shared.order);
    const UpperHalves upper = second_thread_halves(
        fast, spec, shared.steps, *shared.tiles,
        [&](const Step& s) -> const Instruction& { return distinct.at(static_cast<std::size_t>(s.instruction)); });
    cut = upper.steps.size();
    clock.mark("predecode");
    execute_two_threads(shared.steps, shared.order, upper, machine);
  } else {
    DecodedProgram decoded =
        distinct.size() > 0 ? predecode(spec, program, distinct, machine) : predecode(spec, program, machine);
    // Here a run without --strict has the whole model (--profile, --trace).
    if (fast) dead = skip_dead_steps(spec, program, decoded.steps);
    const UpperHalves upper =
        second_thread_halves(fast, spec, decoded.steps, *decoded.tiles, [&](const Step& s) -> const Instruction& {
          return program.instructions[static_cast<std::size_t>(s.instruction)];
        });
    cut = upper.steps.size();
    clock.mark("predecode");
    if (o.strict) execute_strict(program, decoded.steps, machine);
    else execute_two_threads(decoded.steps, upper, machine);
  }
  clock.mark("execute");

  // Every output (dumps, state, trace) is committed together, all or nothing.
  OutputSet outputs;
  add_inputs(o, outputs);
  std::vector<PendingFile> files;
  if (!o.dump_dir.empty()) files = output_files(program, machine, o.dump_dir);
  const std::size_t dump_count = files.size();
  if (!o.dump_state_dir.empty())
    for (PendingFile& f : state_files(machine, o.dump_state_dir)) files.push_back(std::move(f));
  auto text_of = [](std::span<const uint8_t> bytes) {
    return std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  };
  for (std::size_t i = 0; i < files.size(); ++i) {
    std::vector<std::string_view> parts{text_of(files[i].bytes)};
    for (std::span<const uint8_t> part : files[i].tail) parts.push_back(text_of(part));
    outputs.add_output(files[i].path, std::move(parts), i < dump_count ? "--dump" : "--dump-state");
  }
  std::optional<Timeline> timeline;
  std::string trace;
  if (o.profile || !o.trace_file.empty()) timeline = build_timeline(spec, program);
  if (!o.trace_file.empty()) {
    trace = trace_json(spec, program, *timeline);
    outputs.add_output(o.trace_file, trace, "--trace");
  }
  outputs.check();
  if (!o.dump_dir.empty()) create_folder(o.dump_dir);
  if (!o.dump_state_dir.empty()) create_folder(o.dump_state_dir);
  outputs.commit();
  clock.mark("outputs");
  if (o.profile) std::cout << profile_table(spec, program, *timeline);
  if (o.phase_times)
    std::cerr << clock.report() << "instructions " << (distinct.size() > 0 ? distinct.size() : program.instructions.size())
              << ", skipped as dead stores " << dead << ", on two threads " << cut << ", peak RSS KiB "
              << peak_resident_kib() << "\n";
  return kExitOk;
}

}  // namespace nisa
