// Whole-file reads and all-or-nothing writes: a failed command never leaves a
// partial output behind (LANGUAGE.md section 1: write to a temporary name,
// then rename).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nisa {

// Throws InputError("FILE: error: cannot read: <reason>").
std::vector<uint8_t> read_file_bytes(const std::string& path);
std::string read_file_text(const std::string& path);

// A whole file for reading, mapped into memory when it is a regular file:
// no copy and no zero-filled buffer, so a long source costs next to nothing
// to load (page faults are the dearest part of reading megabytes). Other
// files (pipes, devices) are read into a string. Same errors as read_file_text.
class FileText {
 public:
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

// Reading a file in parts, so that a reader can check a header against the
// file's size before it reads (and allocates for) the rest: the size of a
// regular file (nullopt for a pipe or device), and `count` bytes at `offset`
// (InputError "cannot read: ..." if the file is shorter).
std::optional<std::size_t> regular_file_size(const std::string& path);
std::vector<uint8_t> read_file_part(const std::string& path, std::size_t offset, std::size_t count);

// Writes `path` through a temporary file in the same folder and renames it
// into place. Throws InputError("FILE: error: cannot write: <reason>") and
// removes the temporary file on failure.
void write_file_atomically(const std::string& path, std::string_view bytes);
// The concatenation of `parts`, written the same way.
void write_file_atomically(const std::string& path, const std::vector<std::string_view>& parts);
inline void write_file_atomically(const std::string& path, const std::vector<uint8_t>& bytes) {
  write_file_atomically(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace nisa
