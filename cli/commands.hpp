// One function per `nisa` subcommand (LANGUAGE.md section 1). Each returns the
// exit status or throws a NisaError; main() maps errors to statuses.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "npy.hpp"

namespace nisa {

struct AsmOptions {
  std::string input;
  std::string output;  // empty: the input's name with .nbin
  int cores = 0;       // --cores N: the core count of a program without .cores (0: not given)
};

struct DisOptions {
  std::string input;
  std::string output;  // empty: stdout
};

struct RunOptions {
  std::string program;  // .nbin or .nasm
  std::vector<std::string> inputs;  // NAME=FILE.npy, as given
  std::string dump_dir;
  std::string dump_state_dir;
  MinifloatForm dump_dtypes = MinifloatForm::float32;  // how --dump writes bf16 and fp8 tensors
  bool strict = false;
  bool profile = false;
  std::string trace_file;
  bool phase_times = false;  // print where the run's time went (stderr), for scripts/bench-e2e
  std::string hbm_limit;     // bytes of HBM tensors in all ("64G"); "" for the default (hbm_limits.hpp)
  std::string print_to;      // device_print's file; "" for stdout
  int cores = 0;             // --cores N (as AsmOptions)
  uint64_t max_steps = 0;    // --max-steps N: loop iterations' instructions (S17.2); 0 for the default
};

struct DiffOptions {
  std::string expected;
  std::string actual;
  double rtol = 1e-5;
  double atol = 1e-6;
};

struct IsaOptions {
  bool markdown = false;
  bool json = false;
};

int command_asm(const AsmOptions& o);
int command_dis(const DisOptions& o);
int command_run(const RunOptions& o);
int command_diff(const DiffOptions& o);
int command_isa(const IsaOptions& o);

}  // namespace nisa
