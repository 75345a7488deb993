// Whole-file reads and all-or-nothing writes: a failed command never leaves a
// partial output behind (LANGUAGE.md section 1: write to a temporary name,
// then rename).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nisa {

// Throws InputError("FILE: error: cannot read: <reason>").
//
// Reads never trust a file's length alone (issue 15: `/dev/zero` as an input
// read until memory ran out):
//   - read_file_bytes reads `head_bytes` first, then asks `total_size` how long
//     the whole file may be given its head (the size its header announces, or
//     the head's own size when the head is already wrong), and reads at most one
//     byte past that, so the decoder still sees a trailing byte.
//   - read_file_text stops a non-regular file (pipe, device) at its first NUL
//     byte, which no text may hold (the reader then reports it at its line),
//     and at kMaxStreamedText bytes.
std::vector<uint8_t> read_file_bytes(const std::string& path, std::size_t head_bytes,
                                     const std::function<std::size_t(std::span<const uint8_t> head)>& total_size);
std::string read_file_text(const std::string& path);
// A whole file of no particular format (tests, tools): a pipe or device is
// read up to kMaxStreamedText bytes, past which it is an InputError.
std::vector<uint8_t> read_file_bytes(const std::string& path);
inline constexpr std::size_t kMaxStreamedText = std::size_t{1} << 30;

// An open file read from the start, for readers that check a header before
// they read on. Refuses a folder. read() loops until `count` bytes or the end
// of the file and returns how many it got.
class InputFile {
 public:
  explicit InputFile(const std::string& path);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  const std::string& path() const { return path_; }
  // The size of a regular file; nullopt for a pipe or device.
  std::optional<std::size_t> regular_size() const { return regular_size_; }
  int descriptor() const { return fd_; }
  std::size_t read(void* out, std::size_t count);
  // True when no byte is left (reads one byte to know, for a pipe).
  bool at_end();

 private:
  std::string path_;
  int fd_ = -1;
  std::optional<std::size_t> regular_size_;
};

// A whole file for reading, mapped into memory when it is a regular file of
// kMapAtLeast bytes or more: no copy and no zero-filled buffer, so a long
// source costs next to nothing to load (page faults are the dearest part of
// reading megabytes). Smaller files, pipes and devices are read into a string
// (for a few lines, mapping and unmapping cost more than the copy). One open
// either way. Same errors as read_file_text.
class FileText {
 public:
  static constexpr std::size_t kMapAtLeast = std::size_t{256} << 10;
  explicit FileText(const std::string& path);
  ~FileText();
  FileText(const FileText&) = delete;
  FileText& operator=(const FileText&) = delete;
  std::string_view text() const { return map_ ? std::string_view(static_cast<const char*>(map_), size_) : std::string_view(read_); }

 private:
  void* map_ = nullptr;
  std::size_t size_ = 0;
  std::string read_;
};

// Writes `path` through output_files.hpp (one output, nothing else read):
// a temporary file in the same folder renamed into place. Throws
// InputError("FILE: error: cannot write: <reason>") and removes the temporary
// file on failure.
void write_file_atomically(const std::string& path, std::string_view bytes);
// The concatenation of `parts`, written the same way.
void write_file_atomically(const std::string& path, const std::vector<std::string_view>& parts);
inline void write_file_atomically(const std::string& path, const std::vector<uint8_t>& bytes) {
  write_file_atomically(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace nisa
