// FileText (file_io.hpp): a source file's whole text whichever way it is
// loaded, read for a small file and mapped from kMapAtLeast bytes, with the
// same errors as read_file_text.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include "error.hpp"
#include "file_io.hpp"

namespace {

// A file in /tmp holding `text`, removed at the end.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& text) {
    char name[] = "/tmp/nisa-file-text-XXXXXX";
    const int fd = ::mkstemp(name);
    REQUIRE(fd >= 0);
    ::close(fd);
    path = name;
    std::ofstream(path, std::ios::binary) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

// Exactly `bytes` of comment lines, each line different.
std::string lines_of(std::size_t bytes) {
  std::string text;
  for (int i = 0; text.size() < bytes; ++i) text += "; line " + std::to_string(i) + "\n";
  text.resize(bytes);
  return text;
}

}  // namespace

TEST_CASE("FileText gives a small file's exact text") {
  const std::string text = ".arch trn2\n.hbm a f32 [1, 4] input\n";
  const TempFile file(text);
  CHECK(nisa::FileText(file.path).text() == text);
}

TEST_CASE("FileText gives a file of kMapAtLeast bytes and more its exact text") {
  for (std::size_t size : {nisa::FileText::kMapAtLeast - 1, nisa::FileText::kMapAtLeast, 3 * nisa::FileText::kMapAtLeast}) {
    const std::string text = lines_of(size);
    const TempFile file(text);
    REQUIRE(text.size() == size);
    CHECK(nisa::FileText(file.path).text() == text);
  }
}

TEST_CASE("FileText of an empty file is empty, and of a folder or a missing file an InputError") {
  const TempFile empty("");
  CHECK(nisa::FileText(empty.path).text().empty());
  CHECK_THROWS_AS(nisa::FileText("/tmp"), nisa::InputError);
  CHECK_THROWS_AS(nisa::FileText("/tmp/nisa-file-text-no-such-file"), nisa::InputError);
}
