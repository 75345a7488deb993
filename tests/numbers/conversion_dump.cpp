// Test tool for tests/numbers/make_reference.py: runs every Element<T>
// conversion over the inputs the script wrote and writes the raw results, which
// the script compares with its own, independently computed ones.
//
//   nisa_conversion_dump DIR
//     reads  DIR/f32.bin  (uint32 float32 bit patterns)
//            DIR/i64.bin  (int64 values)
//     writes DIR/from_f32.<dtype>.bin  Element::from_f32 of each f32 input (storage)
//            DIR/from_i64.<dtype>.bin  Element::from_i64 of each i64 input (storage)
//            DIR/to_f32.<dtype>.bin    Element::to_f32 (float32) of: every code for
//                                      1- and 2-byte dtypes; the f32 inputs' bits
//                                      for f32/tf32; the i64 inputs wrapped to
//                                      32 bits for i32/u32
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "file_io.hpp"
#include "numbers.hpp"

namespace {

template <class T>
std::vector<T> read_array(const std::string& path) {
  const auto bytes = nisa::read_file_bytes(path);
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

template <class T>
void write_array(const std::string& path, const std::vector<T>& values) {
  nisa::write_file_atomically(path, std::string_view(reinterpret_cast<const char*>(values.data()),
                                                     values.size() * sizeof(T)));
}

template <class E>
void dump(const std::string& dir, const std::vector<uint32_t>& f32_bits, const std::vector<int64_t>& i64s) {
  using S = typename E::storage;
  const std::string name(nisa::dtype_name(E::dtype));

  std::vector<S> narrowed(f32_bits.size());
  for (std::size_t i = 0; i < f32_bits.size(); ++i) {
    float x;
    std::memcpy(&x, &f32_bits[i], 4);
    narrowed[i] = E::from_f32(x);
  }
  write_array(dir + "/from_f32." + name + ".bin", narrowed);

  std::vector<S> from_ints(i64s.size());
  for (std::size_t i = 0; i < i64s.size(); ++i) from_ints[i] = E::from_i64(i64s[i]);
  write_array(dir + "/from_i64." + name + ".bin", from_ints);

  std::vector<S> codes;
  if constexpr (sizeof(S) <= 2) {
    for (uint32_t c = 0; c < (1u << (8 * sizeof(S))); ++c) codes.push_back(static_cast<S>(c));
  } else if constexpr (E::is_float) {
    for (uint32_t b : f32_bits) {
      S s;
      std::memcpy(&s, &b, 4);
      codes.push_back(s);
    }
  } else {
    for (int64_t v : i64s) codes.push_back(static_cast<S>(v));
  }
  std::vector<float> widened(codes.size());
  for (std::size_t i = 0; i < codes.size(); ++i) widened[i] = E::to_f32(codes[i]);
  write_array(dir + "/to_f32." + name + ".bin", widened);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: nisa_conversion_dump DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  try {
    const auto f32_bits = read_array<uint32_t>(dir + "/f32.bin");
    const auto i64s = read_array<int64_t>(dir + "/i64.bin");
    for (int t = 0; t < nisa::kDtypeCount; ++t)
      nisa::dispatch_dtype(static_cast<nisa::Dtype>(t),
                           [&](auto e) { dump<decltype(e)>(dir, f32_bits, i64s); });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return 0;
}
