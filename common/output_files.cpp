#include "output_files.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.hpp"
#include "temp_files.hpp"

namespace nisa {
namespace {

[[noreturn]] void cannot_write(const std::string& user_path, int err) {
  throw InputError(file_error(user_path, std::string("cannot write: ") + std::strerror(err)));
}

// The file a path finally names: symlinks followed (relative ones from their
// own folder), up to the kernel's own limit of 40 links.
std::string final_target(std::string path) {
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    char buffer[PATH_MAX];
    const ssize_t n = ::readlink(path.c_str(), buffer, sizeof buffer - 1);
    if (n < 0) return path;
    const std::string link(buffer, static_cast<std::size_t>(n));
    const std::size_t slash = path.find_last_of('/');
    path = link[0] == '/' || slash == std::string::npos ? link : path.substr(0, slash + 1) + link;
  }
  return path;
}

// Identity of a path for the same-file checks: its resolved absolute form,
// and device and inode when it exists.
struct FileIdentity {
  std::string resolved;
  bool exists = false;
  bool device = false;  // character device or FIFO: written through, may repeat
  bool directory = false;
  dev_t dev = 0;
  ino_t ino = 0;
  nlink_t links = 0;
};

FileIdentity identity_of(const std::string& path) {
  FileIdentity id;
  std::error_code ec;
  id.resolved = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec).string();
  if (ec) id.resolved = path;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    id.exists = true;
    id.device = S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode);
    id.directory = S_ISDIR(st.st_mode);
    id.dev = st.st_dev;
    id.ino = st.st_ino;
    id.links = st.st_nlink;
  }
  return id;
}

// A file with one link has one name once symlinks are resolved: the paths
// decide. Inodes decide only for hard links: other runs may be replacing
// files in the same folder right now, and a freed inode number is soon
// reused by their next file (issue 15: ten runs dumping into one folder).
bool same_file(const FileIdentity& a, const FileIdentity& b) {
  if (a.exists && b.exists && (a.links > 1 || b.links > 1)) return a.dev == b.dev && a.ino == b.ino;
  return a.resolved == b.resolved;
}

bool write_all(int fd, const std::vector<std::string_view>& parts) {
  for (std::string_view part : parts) {
    const char* p = part.data();
    std::size_t left = part.size();
    while (left > 0) {
      const ssize_t n = ::write(fd, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        if (n == 0) errno = EIO;
        return false;
      }
      p += n;
      left -= static_cast<std::size_t>(n);
    }
  }
  return true;
}

bool is_written_through(const std::string& target) {
  struct stat st {};
  return ::stat(target.c_str(), &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode));
}

}  // namespace

void OutputSet::add_input(const std::string& path) { inputs_.push_back(path); }

void OutputSet::add_output(const std::string& path, std::vector<std::string_view> parts, const std::string& what) {
  outputs_.push_back({path, std::move(parts), what});
}

void OutputSet::check() const {
  if (outputs_.empty()) return;  // nothing to clash: no path resolved (a run without --dump)
  std::vector<FileIdentity> inputs;
  for (const std::string& in : inputs_) inputs.push_back(identity_of(in));
  std::vector<FileIdentity> seen;
  std::vector<const Output*> seen_output;
  for (const Output& out : outputs_) {
    if (out.path.empty()) throw InputError("nisa: error: " + out.what + ": the path is empty");
    const FileIdentity id = identity_of(out.path);
    // Found here, not at the rename: by then the other outputs were in place
    // (issue 24: `--trace DIR` left the dumps behind).
    if (id.directory) cannot_write(out.path, EISDIR);
    if (id.device) continue;  // /dev/null twice, or as an input too, harms nothing
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (same_file(id, inputs[i]))
        throw InputError(file_error(out.path, "refusing to overwrite an input of this command (" + inputs_[i] + ")"));
    for (std::size_t i = 0; i < seen.size(); ++i)
      if (same_file(id, seen[i]))
        throw InputError(file_error(out.path, "would be written twice by this command (" + seen_output[i]->what +
                                                  (seen_output[i]->what == out.what ? "" : " and " + out.what) + ")"));
    seen.push_back(id);
    seen_output.push_back(&out);
  }
}

void OutputSet::commit() {
  check();
  struct Staged {
    const Output* output;
    std::string target;  // the regular file to replace (symlinks followed)
    std::string temp;    // empty: written through
  };
  std::vector<Staged> staged;
  auto discard = [&] {
    for (const Staged& s : staged)
      if (!s.temp.empty()) remove_temp_file(s.temp);
  };
  try {
    for (const Output& out : outputs_) {
      Staged s{&out, final_target(out.path), ""};
      if (is_written_through(s.target)) {
        staged.push_back(s);
        continue;
      }
      const TempFile temp = create_temp_file_next_to(s.target, out.path);
      s.temp = temp.path;
      staged.push_back(s);
      // No fsync: the rename makes each output all-or-nothing for every
      // reader and against any failure of this process (issue 15); surviving
      // a power cut is not promised (as with cp or numpy.save), and an fsync
      // costs 10+ ms per file, more than a small run (issue 16: < 3 ms).
      // Write errors (ENOSPC, EIO) are still caught by write and close.
      const bool ok = write_all(temp.fd, out.parts);
      const int err = errno;
      if (::close(temp.fd) != 0 && ok) cannot_write(out.path, errno);
      if (!ok) cannot_write(out.path, err);
    }
    // Devices and FIFOs last among the writes: a failure there still leaves
    // every regular target untouched.
    for (const Staged& s : staged) {
      if (!s.temp.empty()) continue;
      const int fd = ::open(s.target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
      if (fd < 0) cannot_write(s.output->path, errno);
      const bool ok = write_all(fd, s.output->parts);
      const int err = errno;
      if (::close(fd) != 0 && ok) cannot_write(s.output->path, errno);
      if (!ok) cannot_write(s.output->path, err);
    }
  } catch (...) {
    discard();
    throw;
  }
  for (std::size_t i = 0; i < staged.size(); ++i) {
    Staged& s = staged[i];
    if (s.temp.empty()) continue;
    if (std::rename(s.temp.c_str(), s.target.c_str()) != 0) {
      const int err = errno;
      // Only this command's temporaries: a target already renamed is a
      // finished file (perhaps another run's) and stays.
      for (std::size_t j = i; j < staged.size(); ++j)
        if (!staged[j].temp.empty()) remove_temp_file(staged[j].temp);
      cannot_write(s.output->path, err);
    }
    forget_temp_file(s.temp);
    s.temp.clear();
  }
}

void refuse_binary_on_terminal(const std::string& what) {
  if (::isatty(STDOUT_FILENO))
    throw InputError("nisa: error: " + what + ": refusing to write binary data to a terminal; redirect standard output (> FILE or | COMMAND)");
}

void write_standard_output(const std::vector<std::string_view>& parts) {
  for (std::string_view part : parts) std::cout.write(part.data(), static_cast<std::streamsize>(part.size()));
}

void create_folder(const std::string& dir) {
  if (dir.empty()) throw InputError("nisa: error: the folder path is empty");
  std::string prefix;
  std::size_t start = 0;
  while (start <= dir.size()) {
    std::size_t slash = dir.find('/', start);
    if (slash == std::string::npos) slash = dir.size();
    prefix = dir.substr(0, slash);
    start = slash + 1;
    if (prefix.empty() || prefix == "." || prefix == "..") continue;  // "/..." or "./..."
    if (::mkdir(prefix.c_str(), 0777) == 0) continue;
    const int err = errno;
    struct stat st {};
    if (err == EEXIST && ::stat(prefix.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) continue;
    throw InputError(file_error(dir, "cannot create folder: " +
                                         std::string(err == EEXIST ? std::strerror(ENOTDIR) : std::strerror(err))));
  }
}

void check_standard_streams() {
  std::cout.flush();
  const bool out_failed = !std::cout.good() || std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  if (out_failed) {
    const int err = errno;
    throw InputError(std::string("nisa: error: cannot write to standard output: ") + std::strerror(err ? err : EIO));
  }
  std::cerr.flush();
  if (!std::cerr.good() || std::fflush(stderr) != 0 || std::ferror(stderr) != 0)
    throw InputError("nisa: error: cannot write to standard error");
}

}  // namespace nisa
