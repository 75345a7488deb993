# Writes a C++ source defining `std::string_view ${SYMBOL}()` holding the bytes of
# ${INPUT}. Run with cmake -P at build time so edits to the input rebuild.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR byte_count "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," body "${hex}")
string(REGEX REPLACE "(('\\\\x[0-9a-f][0-9a-f]',){16})" "\\1\n" body "${body}")
file(WRITE "${OUTPUT}.tmp"
"// Generated from ${INPUT} by cmake/embed_file.cmake; do not edit.
#include <string_view>
namespace nisa {
static const char kBytes[] = {\n${body}'\\0'};
std::string_view ${SYMBOL}() { return std::string_view(kBytes, ${byte_count}); }
}  // namespace nisa
")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
