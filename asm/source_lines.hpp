// The lines of a source text, found once: line i (0-based) without its '\n'
// (or "\r\n"). A trailing newline does not start another line; an empty text
// is one empty line. Four bytes per line, so that a 100,000-line generated
// file costs a few hundred KB rather than megabytes of views.
#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace nisa {

class SourceLines {
 public:
  // Texts of 4 GiB and more are the caller's to refuse (offsets are 32-bit).
  explicit SourceLines(std::string_view source) : SourceLines(source, [](std::size_t, std::string_view) {}) {}

  // Calls on_line(i, line i) for each line as it is found, while its bytes
  // are in cache (the assembler's first pass); (*this)[j] is valid for j <= i.
  template <class OnLine>
  SourceLines(std::string_view source, OnLine&& on_line) : source_(source) {
    starts_.reserve(source.size() / 32 + 1);
    starts_.push_back(0);
    const char* const begin = source.data();
    const char* const end = begin + source.size();
    for (std::size_t i = 0;; ++i) {
      const char* const p = begin + starts_[i];
      const void* nl = p < end ? std::memchr(p, '\n', static_cast<std::size_t>(end - p)) : nullptr;
      const char* const next = nl ? static_cast<const char*>(nl) + 1 : end;
      if (next < end) starts_.push_back(static_cast<uint32_t>(next - begin));
      on_line(i, (*this)[i]);
      if (next >= end) break;
    }
  }

  std::size_t size() const { return starts_.size(); }

  std::string_view operator[](std::size_t i) const {
    const std::size_t start = starts_[i];
    std::size_t stop = i + 1 < starts_.size() ? starts_[i + 1] - 1 : source_.size();
    if (i + 1 == starts_.size() && stop > start && source_[stop - 1] == '\n') --stop;
    if (stop > start && source_[stop - 1] == '\r') --stop;
    return source_.substr(start, stop - start);
  }

 private:
  std::string_view source_;
  std::vector<uint32_t> starts_;
};

}  // namespace nisa
