// The `nisa` command line (LANGUAGE.md section 1). Parses arguments with CLI11,
// calls one command function, and is the one place where errors become exit
// statuses.
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "error.hpp"
#include "huge_page_heap.hpp"
#include "output_files.hpp"
#include "spec.hpp"
#include "temp_files.hpp"

namespace {

// An empty path is refused, never taken as "no output" (issue 15: `-o ""`
// exited 0 doing nothing).
const CLI::Validator kNonEmptyPath(
    [](std::string& value) { return value.empty() ? std::string("the path is empty") : std::string(); }, "PATH");

// --dump-dtypes: how bf16 and fp8 tensors leave as .npy (LANGUAGE.md 1, 3).
const std::map<std::string, nisa::MinifloatForm> kMinifloatForms{{"float32", nisa::MinifloatForm::float32},
                                                                 {"ml_dtypes", nisa::MinifloatForm::ml_dtypes}};

// The command's status, unless stdout or stderr failed to take what was
// written: then exit 2 with a message (issue 15: `nisa dis > /dev/full` exited 0).
int checked_exit(int status) {
  try {
    nisa::check_standard_streams();
  } catch (const nisa::NisaError& e) {
    std::fputs(e.what(), stderr);
    std::fputs("\n", stderr);
    return nisa::kExitBadInput;
  }
  return status;
}

// The subcommand a command line names (its first word after any --spec), or
// "" when it names none. Only that subcommand is then set up: CLI11 builds
// every option with its validators, and the four unused subcommands were
// ~0.05 ms of a 3 ms `nisa run` (issue 16). Otherwise (`nisa --help`, a
// typo, any other option first) all are, for the help and the error.
std::string_view named_subcommand(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--spec") {
      ++i;  // its value
      continue;
    }
    if (arg.starts_with("--spec=")) continue;
    for (std::string_view name : {"asm", "dis", "run", "diff", "isa"})
      if (arg == name) return name;
    return "";
  }
  return "";
}

int run(int argc, char** argv) {
  using namespace nisa;
  const std::string_view only = named_subcommand(argc, argv);
  auto wanted = [&](std::string_view name) { return only.empty() || only == name; };
  CLI::App app{"nisa: assembler and interpreter for the NeuronCore engine ISA (nki.isa)"};
  app.require_subcommand(1);
  std::string spec_file;
  app.add_option("--spec", spec_file, "use this ISA spec JSON instead of the built-in one")->envname("NISA_SPEC")->check(kNonEmptyPath);

  AsmOptions asm_opts;
  CLI::App* asm_cmd = nullptr;
  if (wanted("asm")) {
    asm_cmd = app.add_subcommand("asm", "assemble a .nasm program into a .nbin binary");
    asm_cmd->add_option("program", asm_opts.input, "PROG.nasm")->required()->check(kNonEmptyPath);
    asm_cmd->add_option("-o,--output", asm_opts.output, "output .nbin (default: the input's name with .nbin; - for stdout)")->check(kNonEmptyPath);
    asm_cmd->add_option("--cores", asm_opts.cores, "N: cores of a program without .cores (LANGUAGE.md 2.7)")->check(CLI::Range(1, 8));
  }

  DisOptions dis_opts;
  CLI::App* dis_cmd = nullptr;
  if (wanted("dis")) {
    dis_cmd = app.add_subcommand("dis", "disassemble a .nbin binary to canonical .nasm text");
    dis_cmd->add_option("binary", dis_opts.input, "PROG.nbin")->required()->check(kNonEmptyPath);
    dis_cmd->add_option("-o,--output", dis_opts.output, "output .nasm (default, or -: stdout)")->check(kNonEmptyPath);
  }

  RunOptions run_opts;
  std::string dump_dtypes = "float32";  // a key of kMinifloatForms
  CLI::App* run_cmd = nullptr;
  if (wanted("run")) {
    run_cmd = app.add_subcommand("run", "execute a program (.nbin, or .nasm assembled in memory)");
    run_cmd->add_option("program", run_opts.program, "PROG.nbin or PROG.nasm")->required()->check(kNonEmptyPath);
    run_cmd->add_option("--input", run_opts.inputs, "NAME=FILE.npy: fill an input/inout HBM tensor")->allow_extra_args(false);
    auto* dump = run_cmd->add_option("--dump", run_opts.dump_dir, "write output/inout HBM tensors as DIR/NAME.npy")->check(kNonEmptyPath);
    run_cmd->add_option("--dump-dtypes", dump_dtypes, "how --dump writes bf16 and fp8 tensors: float32 (exactly; the default) or ml_dtypes (their bits, as ml_dtypes' bfloat16, float8_e4m3, ...)")
        ->check(CLI::IsMember(kMinifloatForms))
        ->option_text("float32|ml_dtypes")
        ->needs(dump);
    run_cmd->add_option("--dump-state", run_opts.dump_state_dir, "also write SBUF, PSUM and the engine accumulators")->check(kNonEmptyPath);
    run_cmd->add_flag("--strict", run_opts.strict, "turn the hazards of SEMANTICS.md into runtime faults");
    run_cmd->add_flag("--profile", run_opts.profile, "after the run, print the estimated per-engine cost table (SEMANTICS S6)");
    run_cmd->add_flag("--phase-times", run_opts.phase_times, "after the run, print the wall time of each phase to stderr (load, inputs, predecode, execute, outputs)");
    run_cmd->add_option("--trace", run_opts.trace_file, "after the run, write the estimated timeline as Chrome trace JSON (Perfetto)")->check(kNonEmptyPath);
    run_cmd->add_option("--hbm-limit", run_opts.hbm_limit, "bytes the HBM tensors may take in all, e.g. 64G (default: this machine's memory)");
    run_cmd->add_option("--cores", run_opts.cores, "N: cores of a .nasm program without .cores; a program that says its count must say N (LANGUAGE.md 2.7)")->check(CLI::Range(1, 8));
    run_cmd->add_option("--max-steps", run_opts.max_steps, "N: stop the run with an error once its loops have run more than N instructions (default 1000000000; SEMANTICS S17.2)")->check(CLI::PositiveNumber);
    run_cmd->add_option("--print-to", run_opts.print_to, "write device_print's text to FILE (with the other outputs, after a successful run) instead of stdout")->check(kNonEmptyPath);
  }

  DiffOptions diff_opts;
  CLI::App* diff_cmd = nullptr;
  if (wanted("diff")) {
    diff_cmd = app.add_subcommand("diff", "compare two .npy files, or two folders of them by file name");
    diff_cmd->add_option("expected", diff_opts.expected, "EXPECTED .npy or folder")->required()->check(kNonEmptyPath);
    diff_cmd->add_option("actual", diff_opts.actual, "ACTUAL .npy or folder")->required()->check(kNonEmptyPath);
    diff_cmd->add_option("--rtol", diff_opts.rtol, "relative tolerance for float data (default 1e-5)");
    diff_cmd->add_option("--atol", diff_opts.atol, "absolute tolerance for float data (default 1e-6)");
  }

  IsaOptions isa_opts;
  CLI::App* isa_cmd = nullptr;
  if (wanted("isa")) {
    isa_cmd = app.add_subcommand("isa", "print the instruction reference generated from the ISA spec");
    auto* md = isa_cmd->add_flag("--markdown", isa_opts.markdown, "as Markdown (default)");
    isa_cmd->add_flag("--json", isa_opts.json, "as the spec's JSON")->excludes(md);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "nisa: error: " << e.what() << " (see nisa --help)\n";
    return kExitBadInput;
  }


  try {
    if (!spec_file.empty()) set_active_spec_file(spec_file);
    if (asm_cmd && *asm_cmd) return command_asm(asm_opts);
    if (dis_cmd && *dis_cmd) return command_dis(dis_opts);
    if (run_cmd && *run_cmd) {
      run_opts.dump_dtypes = kMinifloatForms.at(dump_dtypes);
      return command_run(run_opts);
    }
    if (diff_cmd && *diff_cmd) return command_diff(diff_opts);
    if (isa_cmd && *isa_cmd) return command_isa(isa_opts);
  } catch (const DiagnosticsReported& e) {
    return e.exit_status();
  } catch (const NisaError& e) {
    std::cerr << e.what() << "\n";
    return e.exit_status();
  } catch (const SpecError& e) {
    std::cerr << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    std::cerr << "nisa: error: out of memory\n";
    return kExitBadInput;
  } catch (const std::exception& e) {  // a bug of nisa: still one clean line, never an abort
    std::cerr << "nisa: internal error: " << e.what() << "\n";
    return kExitBadInput;
  }
  return kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  nisa::use_huge_page_heap();
  nisa::remove_temp_files_on_signals();
  try {
    return checked_exit(run(argc, argv));
  } catch (const std::bad_alloc&) {
    std::fputs("nisa: error: out of memory\n", stderr);
    return nisa::kExitBadInput;
  }
}
