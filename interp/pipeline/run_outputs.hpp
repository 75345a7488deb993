// What a run writes (LANGUAGE.md 1): --dump's output/inout tensors as .npy,
// --dump-state's SBUF, PSUM and accumulators, --trace's timeline JSON,
// --print-to's device_print text (kept in a PrintBuffer meanwhile). All
// go through one OutputSet (output_files.hpp): checked before the run (no
// output may be an input, another output, or a folder), written under
// temporary names and renamed into place together, so a failed run leaves
// nothing behind. Python's `trace=` is the same request with only a trace.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "machine.hpp"
#include "npy.hpp"
#include "program.hpp"

namespace nisa {

struct OutputRequest {
  std::string dump_dir;               // "" for none
  std::string dump_state_dir;         // "" for none
  std::string trace_file;             // "" for none
  std::string trace_option = "--trace";  // how errors name it (Python: "trace")
  std::vector<std::string> read_files;  // the run's own input files: never overwritten
  MinifloatForm dump_dtypes = MinifloatForm::float32;  // bf16/fp8 dumps: float32, or bits (--dump-dtypes)
  std::string print_file;             // "" for none: device_print's text goes elsewhere
  std::string print_option = "--print-to";  // how errors name it (Python: "print_to")
};

// device_print's text kept for a print file, written with the run's other
// outputs (all or nothing: a run that fails leaves no partial print file).
class PrintBuffer final : public PrintOutput {
 public:
  void write(std::string_view text) override { text_ += text; }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// Refuses a bad set of outputs before any costly work (InputError, exit 2).
void check_outputs_before_run(const Program& program, const OutputRequest& request);

// Writes every requested output, all or nothing. `trace` is the trace's
// JSON when one is requested (trace_json of profile_report.hpp), `printed`
// the print file's text when one is requested.
void write_run_outputs(const Program& program, const Machine& machine, const OutputRequest& request,
                       std::string_view trace = {}, std::string_view printed = {});


}  // namespace nisa
