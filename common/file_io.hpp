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
inline void write_file_atomically(const std::string& path, const std::vector<uint8_t>& bytes) {
  write_file_atomically(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace nisa
