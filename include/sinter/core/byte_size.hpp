#pragma once
/// Byte sizes written by users ("512M", "4G"): the memory limits of the host
/// and CUDA pools read them from the environment.

#include <cstddef>
#include <exception>
#include <limits>
#include <string>

#include "error.hpp"

namespace sinter::detail {

/// "1073741824", "7B", "64K", "512M", "4G" (binary units, also KiB/MiB/GiB)
/// → bytes; throws value_error naming `what` on anything else or on overflow.
inline std::size_t parse_byte_size(const std::string& s, const std::string& what) {
  const std::string bad = what + ": '" + s + "' is not a number of bytes; write e.g. 512M or 4G";
  if (s.empty() || s[0] < '0' || s[0] > '9') throw value_error(bad);
  std::size_t pos = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(s, &pos);
  } catch (const std::exception&) {
    throw value_error(bad);
  }
  const std::string unit = s.substr(pos);
  int shift = 0;
  if (unit == "K" || unit == "KiB") shift = 10;
  else if (unit == "M" || unit == "MiB") shift = 20;
  else if (unit == "G" || unit == "GiB") shift = 30;
  else if (!unit.empty() && unit != "B")
    throw value_error(what + ": unknown unit '" + unit + "' in '" + s + "'; use K, M or G");
  if (v > (std::numeric_limits<std::size_t>::max() >> shift)) throw value_error(bad);
  return static_cast<std::size_t>(v) << shift;
}

}  // namespace sinter::detail
