#include "file_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.hpp"
#include "output_files.hpp"

namespace nisa {

namespace {

[[noreturn]] void cannot_read(const std::string& path, int err) {
  throw InputError(file_error(path, std::string("cannot read: ") + std::strerror(err)));
}

}  // namespace

// open(2) succeeds on a folder on Linux (then reads fail): refuse it up front
// with a clear message.
InputFile::InputFile(const std::string& path) : path_(path) {
  if (path.empty()) throw InputError("nisa: error: an input path is empty");
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) cannot_read(path, errno);
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int err = errno;
    ::close(fd_);
    cannot_read(path, err);
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd_);
    cannot_read(path, EISDIR);
  }
  if (S_ISREG(st.st_mode)) regular_size_ = static_cast<std::size_t>(st.st_size);
}

InputFile::~InputFile() { ::close(fd_); }

std::size_t InputFile::read(void* out, std::size_t count) {
  auto* p = static_cast<char*>(out);
  std::size_t got = 0;
  while (got < count) {
    const ssize_t n = ::read(fd_, p + got, std::min<std::size_t>(count - got, std::size_t{1} << 30));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) cannot_read(path_, errno);
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  return got;
}

bool InputFile::at_end() {
  char byte;
  return read(&byte, 1) == 0;
}

std::vector<uint8_t> read_file_bytes(const std::string& path, std::size_t head_bytes,
                                     const std::function<std::size_t(std::span<const uint8_t> head)>& total_size) {
  InputFile file(path);
  std::vector<uint8_t> bytes(head_bytes);
  bytes.resize(file.read(bytes.data(), head_bytes));
  std::size_t limit = std::max(total_size(bytes), bytes.size());
  if (limit < SIZE_MAX) ++limit;  // one byte more: the decoder reports trailing bytes
  if (file.regular_size()) limit = std::min(limit, *file.regular_size());
  // Grows in steps, so a header that announces more than a pipe delivers
  // costs only what was delivered.
  while (bytes.size() < limit) {
    const std::size_t used = bytes.size();
    const std::size_t step = std::min(limit - used, std::max<std::size_t>(used, std::size_t{1} << 20));
    bytes.resize(used + step);
    const std::size_t got = file.read(bytes.data() + used, step);
    bytes.resize(used + got);
    if (got < step) break;
  }
  return bytes;
}

std::vector<uint8_t> read_file_bytes(const std::string& path) {
  std::vector<uint8_t> bytes = read_file_bytes(path, 0, [](std::span<const uint8_t>) { return kMaxStreamedText; });
  if (bytes.size() > kMaxStreamedText)
    throw InputError(file_error(path, "cannot read: more than " + std::to_string(kMaxStreamedText) + " bytes"));
  return bytes;
}

namespace {

// The whole text of an open file (read_file_text's rules).
std::string read_text(InputFile& file) {
  const std::string& path = file.path();
  std::string text;
  if (file.regular_size()) {
    // Size first, so the text is read in place with no regrowth.
    text.resize(*file.regular_size());
    text.resize(file.read(text.data(), text.size()));
    return text;
  }
  char buffer[1 << 14];
  for (;;) {
    const std::size_t n = file.read(buffer, sizeof buffer);
    const char* nul = static_cast<const char*>(std::memchr(buffer, '\0', n));
    text.append(buffer, nul ? static_cast<std::size_t>(nul - buffer) + 1 : n);
    if (nul || n < sizeof buffer) break;
    if (text.size() > kMaxStreamedText)
      throw InputError(file_error(path, "cannot read: more than " + std::to_string(kMaxStreamedText) +
                                            " bytes of text from a file that is not a regular file"));
  }
  return text;
}

}  // namespace

std::string read_file_text(const std::string& path) {
  InputFile file(path);
  return read_text(file);
}

FileText::FileText(const std::string& path) {
  InputFile file(path);
  const std::optional<std::size_t> size = file.regular_size();
  if (size && *size >= kMapAtLeast) {
    // MAP_POPULATE: the page-cache pages are mapped in one call instead of one
    // fault per 64 KB as the assembler walks the text.
    void* p = ::mmap(nullptr, *size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, file.descriptor(), 0);
    if (p != MAP_FAILED) {
      map_ = p;
      size_ = *size;
      return;
    }
  }
  read_ = read_text(file);
}

FileText::~FileText() {
  if (map_) ::munmap(map_, size_);
}

void write_file_atomically(const std::string& path, std::string_view bytes) {
  write_file_atomically(path, std::vector<std::string_view>{bytes});
}

void write_file_atomically(const std::string& path, const std::vector<std::string_view>& parts) {
  OutputSet outputs;
  outputs.add_output(path, parts, "the output");
  outputs.commit();
}

}  // namespace nisa
