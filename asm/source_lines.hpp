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
  explicit SourceLines(std::string_view source) : source_(source) {
    starts_.reserve(source.size() / 32 + 1);
    starts_.push_back(0);
    const char* const begin = source.data();
    const char* const end = begin + source.size();
    for (const char* p = begin; p < end;) {
      const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
      if (nl == nullptr) break;
      p = static_cast<const char*>(nl) + 1;
      if (p < end) starts_.push_back(static_cast<uint32_t>(p - begin));
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
