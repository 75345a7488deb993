// The output layer every command writes through (LANGUAGE.md section 1:
// nothing is written on failure). A command adds all its outputs (-o, every
// --dump and --dump-state .npy, --trace) and commits them once, at the end:
//
//   - Each output is checked first: not empty, not an existing directory, not
//     the same file as an input (same device and inode, or the same path once
//     resolved) nor as another output of the command. Exit 2 before anything
//     is written.
//   - Regular files are written under a temporary name unique to this process
//     in the target's folder (temp_files.hpp), all of them, and only then
//     renamed over their targets, so concurrent runs into one folder never
//     see or delete each other's files. A failure removes only this command's
//     temporaries; SIGINT/SIGTERM remove them too.
//   - A symlink is written through to the file it names (the link stays).
//   - A character device or FIFO (/dev/null, /dev/stdout, a pipe) is written
//     through, never replaced; this happens after every temporary was written.
//   - Every write, fsync and close is checked; errors name the user's path.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace nisa {

class OutputSet {
 public:
  // Files the command reads: no output may be one of them.
  void add_input(const std::string& path);
  // An output file and its bytes (the view must stay valid until commit).
  // `what` names the option for an empty path ("-o", "--trace").
  void add_output(const std::string& path, std::vector<std::string_view> parts, const std::string& what);
  void add_output(const std::string& path, std::string_view bytes, const std::string& what) {
    add_output(path, std::vector<std::string_view>{bytes}, what);
  }
  // Refuses empty paths, directories and outputs that are inputs or repeat
  // another output (InputError, exit 2). commit() calls it first; a command may call it
  // earlier, before any costly work.
  void check() const;
  // Writes every output, all or nothing (see above).
  void commit();

 private:
  struct Output {
    std::string path;  // as the user gave it (errors name it)
    std::vector<std::string_view> parts;
    std::string what;
  };
  std::vector<std::string> inputs_;
  std::vector<Output> outputs_;
};

// `-o -` names standard output (LANGUAGE.md 1), for `nisa asm` and `nisa dis`.
inline bool is_standard_output(const std::string& path) { return path == "-"; }
// Before any work: refuses (InputError, exit 2) to send binary data to a
// terminal, where it would only garble the screen. `what` names the option.
void refuse_binary_on_terminal(const std::string& what);
// Writes `parts` to standard output, whose errors main() checks at the end
// (check_standard_streams).
void write_standard_output(const std::vector<std::string_view>& parts);

// Creates `dir` and its missing parents (mkdir -p); another process creating
// it at the same moment is fine. InputError "DIR: error: cannot create
// folder: ..." otherwise.
void create_folder(const std::string& dir);

// Flushes and checks stdout and stderr; a failed write (a full disk,
// /dev/full, a closed pipe) is an InputError naming the stream.
void check_standard_streams();

}  // namespace nisa
