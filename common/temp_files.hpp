// The temporary files a command has created and not yet renamed into place,
// so that SIGINT, SIGTERM, SIGHUP and SIGPIPE remove them (issue 15: a killed
// dump left 100+ MB `*.partial` files). The table is fixed-size and the
// handler only calls unlink(2), signal(2) and raise(3), all async-signal-safe;
// it then re-raises the signal with its default action, so the exit status
// still says which signal ended nisa. Only a process that owns its signals
// (the `nisa` command) installs the handler: inside Python, Ctrl-C must stay
// Python's KeyboardInterrupt (issue 24), and a failed write removes its own
// temporary files. Slots are claimed atomically: Python threads write traces
// at the same time.
#pragma once
#include <string>

namespace nisa {

// From now on a signal removes the registered temporary files (see above).
// Called once by the command line's main(); the handlers go in when the
// first temporary file is created.
void remove_temp_files_on_signals();

// Creates a new empty file next to `target` (same folder, so a rename is
// atomic) with a name unique to this process ("DIR/.NAME.nisa-XXXXXX",
// mkstemp(3)), registers it for removal on a signal, and returns its name and
// an open descriptor. Throws InputError naming `user_path` (never the
// temporary name) when the folder cannot hold it.
struct TempFile {
  std::string path;
  int fd = -1;
};
TempFile create_temp_file_next_to(const std::string& target, const std::string& user_path);

// The temporary file was renamed into place or removed: a signal must no
// longer touch its name.
void forget_temp_file(const std::string& path);

// Removes the temporary file and forgets it.
void remove_temp_file(const std::string& path);

}  // namespace nisa
