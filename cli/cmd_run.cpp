// nisa run (LANGUAGE.md section 1): the run pipeline of interp/pipeline/ with
// its inputs from --input .npy files and its outputs as --dump, --dump-state
// and --trace files. Load a .nbin (or assemble a .nasm in memory), check the
// outputs, fill input/inout HBM tensors from --input files or their `= INIT`,
// execute (with --strict hazard tracking if asked), write every output
// together (nothing on failure). --profile and --trace (SEMANTICS S6) report
// the estimated timeline of the program (its loops as they ran, S17.4),
// after a successful run only. --max-steps bounds the loops (S17.2).
// device_print's text (SEMANTICS S15.1) goes to stdout as each print runs, or
// with --print-to FILE into that file with the other outputs.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "error.hpp"
#include "hbm_limits.hpp"
#include "loaded_program.hpp"
#include "npy.hpp"
#include "phase_clock.hpp"
#include "profile_report.hpp"
#include "run_execution.hpp"
#include "run_inputs.hpp"
#include "run_outputs.hpp"
#include "spec.hpp"
#include "timeline.hpp"

namespace nisa {
namespace {

// --input NAME=FILE.npy, each read from its file into the tensor's storage.
std::vector<GivenInput> given_inputs(const RunOptions& o) {
  std::vector<GivenInput> given;
  for (const std::string& arg : o.inputs) {
    const std::size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size())
      throw InputError(file_error(o.program, "--input '" + arg + "' is not NAME=FILE.npy"));
    std::string path = arg.substr(eq + 1);
    given.push_back({arg.substr(0, eq), [path](const TensorDecl& d, std::span<uint8_t> storage) {
                       load_tensor_npy_into(path, d.dtype, d.shape, d.name, d.line, storage);
                     }});
  }
  return given;
}

// The files a run reads: no output may be one of them (issue 15).
std::vector<std::string> read_files(const RunOptions& o) {
  std::vector<std::string> files{o.program};
  for (const std::string& arg : o.inputs)
    if (const std::size_t eq = arg.find('='); eq != std::string::npos) files.push_back(arg.substr(eq + 1));
  return files;
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

// device_print to stdout, each print as it runs (a later fault leaves the
// earlier prints shown, as a debugging print should); main() checks stdout's
// errors at the end.
class StandardOutputPrint final : public PrintOutput {
 public:
  void write(std::string_view text) override { std::cout << text << std::flush; }
};

// --hbm-limit as bytes (LANGUAGE.md 2.6), or the default.
int64_t hbm_limit(const RunOptions& o) {
  if (o.hbm_limit.empty()) return default_hbm_limit();
  const std::optional<int64_t> bytes = parse_byte_size(o.hbm_limit);
  if (!bytes)
    throw InputError("nisa: error: --hbm-limit '" + o.hbm_limit +
                     "' is not a size in bytes (a positive number, optionally with K, M, G or T: 64G)");
  return *bytes;
}

}  // namespace

int command_run(const RunOptions& o) {
  PhaseClock clock(o.phase_times);
  const Spec& spec = active_spec();
  const std::vector<GivenInput> given = given_inputs(o);
  const int64_t limit = hbm_limit(o);
  const std::unique_ptr<LoadedProgram> loaded = load_program_file(spec, o.program, "", o.cores);
  const Program& program = loaded->program;
  const OutputRequest request{o.dump_dir, o.dump_state_dir, o.trace_file, "--trace", read_files(o), o.dump_dtypes,
                               o.print_to};
  check_outputs_before_run(program, request);
  check_hbm_limit(program, limit, InputOrigin::command_line);
  clock.mark("load");
  Machine machine = make_machine(spec, program);
  StandardOutputPrint to_stdout;
  PrintBuffer to_file;
  machine.print_output = o.print_to.empty() ? static_cast<PrintOutput*>(&to_stdout) : &to_file;
  bind_inputs(program, o.program, given, machine, InputOrigin::command_line);
  clock.mark("inputs");
  const bool timed = o.profile || !o.trace_file.empty();
  LoopTrips trips;  // S17.4: what the loops ran, for the timeline
  const RunStats stats =
      run_loaded_program(spec, *loaded, machine, RunSettings{o.strict, nullptr, &clock, o.max_steps, timed ? &trips : nullptr});
  std::optional<Timeline> timeline;
  std::string trace;
  if (timed) timeline = build_timeline(spec, loaded->model(), &trips);
  if (!o.trace_file.empty()) trace = trace_json(spec, loaded->model(), *timeline);
  write_run_outputs(program, machine, request, trace, to_file.text());
  clock.mark("outputs");
  if (o.profile) std::cout << profile_table(spec, loaded->model(), *timeline);
  if (o.phase_times)
    std::cerr << clock.report() << "instructions " << stats.instructions << ", skipped as dead stores " << stats.dead
              << ", on two threads " << stats.cut << ", peak RSS KiB " << peak_resident_kib() << "\n";
  return kExitOk;
}

}  // namespace nisa
