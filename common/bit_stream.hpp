// Byte- and bit-level readers and writers for the .nbin format (docs/NBIN.md).
// Writers never fail; readers throw InputError("FILE: error: <why> at byte N")
// the moment a read would pass the end of their range, so a truncated or
// corrupt binary can never make the decoder read out of bounds.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "error.hpp"

namespace nisa {

// --- byte level: little-endian integers and LEB128 varints ---

struct ByteWriter {
  std::vector<uint8_t> bytes;

  void u8(uint64_t v) { bytes.push_back(static_cast<uint8_t>(v)); }
  void fixed(uint64_t v, int byte_count) {
    for (int i = 0; i < byte_count; ++i) bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void varint(uint64_t v) {
    while (v >= 0x80) {
      bytes.push_back(static_cast<uint8_t>(v | 0x80));
      v >>= 7;
    }
    bytes.push_back(static_cast<uint8_t>(v));
  }
  void text(const std::string& s) {
    varint(s.size());
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
};

// Reads bytes [pos, end) of a file held elsewhere; offsets in errors are file offsets.
struct ByteReader {
  const uint8_t* data = nullptr;
  std::size_t pos = 0;
  std::size_t end = 0;
  const std::string* file = nullptr;

  [[noreturn]] void fail(const std::string& why, std::size_t at) const {
    throw InputError(file_error(*file, why + " at byte " + std::to_string(at)));
  }
  [[noreturn]] void fail(const std::string& why) const { fail(why, pos); }

  std::size_t remaining() const { return end - pos; }
  void need(std::size_t n, const char* what) const {
    if (remaining() < n) fail(std::string("truncated ") + what);
  }
  uint64_t u8(const char* what) {
    need(1, what);
    return data[pos++];
  }
  uint64_t fixed(int byte_count, const char* what) {
    need(static_cast<std::size_t>(byte_count), what);
    uint64_t v = 0;
    for (int i = 0; i < byte_count; ++i) v |= uint64_t{data[pos++]} << (8 * i);
    return v;
  }
  uint64_t varint(const char* what) {
    std::size_t start = pos;
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      need(1, what);
      uint8_t b = data[pos++];
      if (shift == 63 && (b & 0x7e) != 0) fail(std::string(what) + " does not fit 64 bits", start);
      v |= uint64_t{b & 0x7fu} << shift;
      if ((b & 0x80) == 0) {
        // One encoding per value: a trailing zero group would be a second one.
        if (b == 0 && shift > 0) fail(std::string(what) + " is not in canonical form", start);
        return v;
      }
      if (shift == 63) fail(std::string(what) + " does not fit 64 bits", start);
    }
  }
  // A count of items that each take at least `min_bytes`: capped by what is left,
  // so a corrupt count cannot make the decoder reserve unbounded memory.
  std::size_t count(const char* what, std::size_t min_bytes) {
    std::size_t at = pos;
    uint64_t n = varint(what);
    if (min_bytes > 0 && n > remaining() / min_bytes) fail(std::string(what) + " " + std::to_string(n) + " exceeds the data left", at);
    return static_cast<std::size_t>(n);
  }
  std::string text(const char* what) {
    std::size_t n = count(what, 1);
    std::string s(reinterpret_cast<const char*>(data + pos), n);
    pos += n;
    return s;
  }
};

// --- bit level: fields packed LSB first, bit i of the stream is bit i%8 of byte i/8 ---

// Bits gather in a 64-bit word that is stored whole once full: `bytes` holds
// the complete words so far; finish() appends the last bits (zero padded).
struct BitWriter {
  std::vector<uint8_t> bytes;
  uint64_t bit_count = 0;

  // The low `width` bits of v (0..64).
  void bits(uint64_t v, int width) {
    if (width <= 0) return;
    if (width < 64) v &= (uint64_t{1} << width) - 1;
    bit_count += static_cast<uint64_t>(width);
    word_ |= v << pending_;
    const int total = pending_ + width;
    if (total < 64) {
      pending_ = total;
      return;
    }
    store(word_, 8);
    const int used = 64 - pending_;  // bits of v now stored
    word_ = used < 64 ? v >> used : 0;
    pending_ = total - 64;
  }

  // Appends the pending bits as whole bytes; no bits may follow.
  void finish() {
    store(word_, (pending_ + 7) / 8);
    word_ = 0;
    pending_ = 0;
  }

 private:
  void store(uint64_t w, int count) {
    for (int i = 0; i < count; ++i) bytes.push_back(static_cast<uint8_t>(w >> (8 * i)));
  }

  uint64_t word_ = 0;  // bits not yet in `bytes`, LSB first
  int pending_ = 0;    // how many (0..63)
};

struct BitReader {
  const uint8_t* data = nullptr;  // the stream's first byte
  uint64_t bit_count = 0;         // bits in the stream
  uint64_t pos = 0;               // next bit
  std::size_t file_offset = 0;    // file offset of data[0], for messages
  const std::string* file = nullptr;

  std::size_t byte_offset() const { return file_offset + static_cast<std::size_t>(pos / 8); }
  [[noreturn]] void fail(const std::string& why, std::size_t at) const {
    throw InputError(file_error(*file, why + " at byte " + std::to_string(at)));
  }
  uint64_t remaining() const { return bit_count - pos; }

  uint64_t bits(int width, const std::string& what) {
    return bits(width, [&] { return what; });
  }
  // `what()` names the field, built only if the read fails.
  template <class Describe>
    requires std::is_invocable_v<const Describe&>
  uint64_t bits(int width, const Describe& what) {
    if (remaining() < static_cast<uint64_t>(width)) fail("truncated instruction stream in " + what(), byte_offset());
    uint64_t v = 0;
    for (int i = 0; i < width; ++i, ++pos)
      if ((data[pos / 8] >> (pos % 8)) & 1u) v |= uint64_t{1} << i;
    return v;
  }
};

}  // namespace nisa
