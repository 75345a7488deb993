#include "file_io.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.hpp"

namespace nisa {

namespace {

// fopen succeeds on a folder on Linux (then reads fail and ftell lies):
// refuse a folder up front with a clear message.
std::FILE* open_for_reading(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw InputError(file_error(path, std::string("cannot read: ") + std::strerror(errno)));
  struct stat st {};
  if (::fstat(::fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    std::fclose(f);
    throw InputError(file_error(path, "cannot read: Is a directory"));
  }
  return f;
}

}  // namespace

std::vector<uint8_t> read_file_bytes(const std::string& path) {
  // Block reads, not istreambuf_iterator: a 5 MB program or input loads in
  // a millisecond instead of tens.
  std::FILE* f = open_for_reading(path);
  std::vector<uint8_t> bytes;
  std::size_t used = 0;
  if (std::fseek(f, 0, SEEK_END) == 0) {
    const long size = std::ftell(f);
    bytes.resize(size > 0 ? static_cast<std::size_t>(size) + 1 : std::size_t{1} << 16);  // +1: sees EOF without regrowth
    std::rewind(f);
  } else {
    bytes.resize(std::size_t{1} << 16);
  }
  for (;;) {
    used += std::fread(bytes.data() + used, 1, bytes.size() - used, f);
    if (used < bytes.size()) break;
    bytes.resize(bytes.size() * 2);
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw InputError(file_error(path, "cannot read: I/O error"));
  bytes.resize(used);
  return bytes;
}

std::string read_file_text(const std::string& path) {
  std::FILE* f = open_for_reading(path);
  std::string text;
  // Size first, so the text is read in place with no regrowth; a file that
  // grows meanwhile is read on to its end.
  if (std::fseek(f, 0, SEEK_END) == 0) {
    const long size = std::ftell(f);
    if (size > 0) text.resize(static_cast<std::size_t>(size));
    std::rewind(f);
  }
  std::size_t used = std::fread(text.data(), 1, text.size(), f);
  text.resize(used);
  char buf[1 << 14];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw InputError(file_error(path, "cannot read: I/O error"));
  return text;
}

std::optional<std::size_t> regular_file_size(const std::string& path) {
  std::FILE* f = open_for_reading(path);
  struct stat st {};
  const bool regular = ::fstat(::fileno(f), &st) == 0 && S_ISREG(st.st_mode);
  std::fclose(f);
  if (!regular) return std::nullopt;
  return static_cast<std::size_t>(st.st_size);
}

std::vector<uint8_t> read_file_part(const std::string& path, std::size_t offset, std::size_t count) {
  std::FILE* f = open_for_reading(path);
  std::vector<uint8_t> bytes(count);
  const bool ok = std::fseek(f, static_cast<long>(offset), SEEK_SET) == 0 && std::fread(bytes.data(), 1, count, f) == count;
  std::fclose(f);
  if (!ok) throw InputError(file_error(path, "cannot read: the file is shorter than it was"));
  return bytes;
}

FileText::FileText(const std::string& path) {
  std::FILE* f = open_for_reading(path);
  struct stat st {};
  if (::fstat(::fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    // MAP_POPULATE: the page-cache pages are mapped in one call instead of one
    // fault per 64 KB as the assembler walks the text.
    void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, ::fileno(f), 0);
    if (p != MAP_FAILED) {
      map_ = p;
      size_ = static_cast<std::size_t>(st.st_size);
      std::fclose(f);
      return;
    }
  }
  std::fclose(f);
  read_ = read_file_text(path);
}

FileText::~FileText() {
  if (map_) ::munmap(map_, size_);
}

void write_file_atomically(const std::string& path, std::string_view bytes) {
  write_file_atomically(path, std::vector<std::string_view>{bytes});
}

void write_file_atomically(const std::string& path, const std::vector<std::string_view>& parts) {
  std::string tmp = path + ".tmp" + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw InputError(file_error(path, std::string("cannot write: ") + std::strerror(errno)));
  bool ok = true;
  for (std::string_view bytes : parts) ok = ok && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    std::remove(tmp.c_str());
    throw InputError(file_error(path, std::string("cannot write: ") + std::strerror(err)));
  }
}

}  // namespace nisa
