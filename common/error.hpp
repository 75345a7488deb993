// Errors carry their exit status (LANGUAGE.md section 1) and are turned into
// that status in exactly one place: main().
#pragma once
#include <stdexcept>
#include <string>

namespace nisa {

inline constexpr int kExitOk = 0;
inline constexpr int kExitDiffer = 1;     // nisa diff: files differ
inline constexpr int kExitBadInput = 2;   // bad source, binary, .npy or argument
inline constexpr int kExitRuntime = 3;    // runtime fault of the modeled program

class NisaError : public std::runtime_error {
 public:
  NisaError(int exit_status, const std::string& message) : std::runtime_error(message), status_(exit_status) {}
  int exit_status() const { return status_; }

 private:
  int status_;
};

// "FILE: error: MESSAGE" for problems with a whole file or argument.
inline std::string file_error(const std::string& file, const std::string& message) {
  return file + ": error: " + message;
}

// Bad input of any kind (exit 2). The message is one complete line.
class InputError : public NisaError {
 public:
  explicit InputError(const std::string& message) : NisaError(kExitBadInput, message) {}
};

// A fault of the modeled program at run time (exit 3), naming the source line.
class RuntimeFault : public NisaError {
 public:
  explicit RuntimeFault(const std::string& message) : NisaError(kExitRuntime, message) {}
};

// Diagnostics were already printed (e.g. every assembler error); only the exit
// status remains to be returned.
class DiagnosticsReported : public NisaError {
 public:
  explicit DiagnosticsReported(int exit_status = kExitBadInput) : NisaError(exit_status, "") {}
};

}  // namespace nisa
