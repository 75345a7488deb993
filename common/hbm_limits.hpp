// HBM size limits (LANGUAGE.md 2.6), all in one place:
// - one tensor: at most kMaxHbmTensorBytes, checked where it is declared
//   (check_tensor): a bound of the model (every byte offset far inside
//   int64, every element within the .nbin access-pattern offsets' 2^34 for
//   4-byte dtypes), not of the host;
// - all tensors of a run: at most the run's HBM limit (`nisa run
//   --hbm-limit`, `nisa.run(hbm_limit=)`), by default this machine's
//   physical memory, checked before the run allocates anything
//   (check_hbm_limit in interp/pipeline/run_inputs.hpp). The machine's pages
//   cost nothing until written, so the default only refuses programs whose
//   declared HBM could not fit in memory even in principle.
#pragma once
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

namespace nisa {

inline constexpr int64_t kMaxHbmTensorBytes = int64_t{64} << 30;  // 64 GiB

// The default HBM limit of a run: the physical memory of this machine (at
// least 1 GiB where it cannot be read).
inline int64_t default_hbm_limit() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return int64_t{1} << 30;
  return static_cast<int64_t>(pages) * static_cast<int64_t>(page);
}

// "4294967296", "64G", "512M", "1.5GiB", "2T", "100k": bytes, with an
// optional binary suffix K, M, G or T (1024-based; "iB"/"B" after it and
// any letter case allowed). Nothing else (no sign, no spaces), at least 1
// and at most 2^62, else nullopt.
inline std::optional<int64_t> parse_byte_size(std::string_view text) {
  std::size_t i = 0;
  double whole = 0, scale = 1;
  bool digits = false, point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      digits = true;
      if (point) scale /= 10;
      whole = whole * 10 + (c - '0');
      if (whole > 1e30) return std::nullopt;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (!digits) return std::nullopt;
  std::string_view suffix = text.substr(i);
  double unit = 1;
  if (!suffix.empty()) {
    switch (std::toupper(static_cast<unsigned char>(suffix[0]))) {
      case 'K': unit = 0x1p10; break;
      case 'M': unit = 0x1p20; break;
      case 'G': unit = 0x1p30; break;
      case 'T': unit = 0x1p40; break;
      case 'B': unit = 1; break;
      default: return std::nullopt;
    }
    suffix.remove_prefix(1);
    if (unit > 1 && !suffix.empty() && (suffix[0] == 'i' || suffix[0] == 'I')) suffix.remove_prefix(1);
    if (unit > 1 && !suffix.empty() && (suffix[0] == 'b' || suffix[0] == 'B')) suffix.remove_prefix(1);
    if (!suffix.empty()) return std::nullopt;
  }
  const double bytes = whole * scale * unit;
  if (!(bytes >= 1) || bytes > 0x1p62) return std::nullopt;
  return static_cast<int64_t>(bytes);
}

}  // namespace nisa
