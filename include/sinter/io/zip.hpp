#pragma once
/// \file zip.hpp
/// The pieces of a ZIP archive an uncompressed .npz needs (PKWARE's
/// APPNOTE): CRC-32, the little-endian fields of its records, and the
/// record signatures. Pure bytes: npz.hpp reads and writes the files.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace sinter::detail {

/// The CRC-32 table (polynomial 0xEDB88320, zlib's), built at compile time.
inline constexpr std::array<std::uint32_t, 256> crc32_table = [] {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t i = 0; i != 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k != 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[i] = c;
  }
  return t;
}();

/// Continues a CRC-32 over n more bytes: start from crc32_update(0, ...)
/// (zlib's crc32(crc, p, n): the pre- and post-inversion are inside).
inline std::uint32_t crc32_update(std::uint32_t crc, const void* p, std::size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  std::uint32_t c = ~crc;
  for (std::size_t i = 0; i != n; ++i) c = crc32_table[(c ^ b[i]) & 0xffu] ^ (c >> 8);
  return ~c;
}

/// Appends v as `bytes` little-endian bytes.
inline void zip_put(std::string& s, std::uint64_t v, int bytes) {
  for (int i = 0; i != bytes; ++i) s += static_cast<char>((v >> (8 * i)) & 0xffu);
}

/// The little-endian integer of `bytes` bytes at p.
inline std::uint64_t zip_get(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes; i-- > 0;) v = (v << 8) | p[i];
  return v;
}

/// Record signatures.
inline constexpr std::uint32_t zip_local_sig = 0x04034b50u, zip_central_sig = 0x02014b50u,
                               zip_end_sig = 0x06054b50u, zip64_end_sig = 0x06064b50u,
                               zip64_locator_sig = 0x07064b50u;
/// The largest size or offset a record holds without ZIP64.
inline constexpr std::uint64_t zip32_max = 0xffffffffu;

/// A local file header of a stored (method 0) entry; the date is 1980-01-01.
inline std::string zip_local_header(const std::string& name, std::uint32_t crc, std::uint64_t size) {
  std::string s;
  zip_put(s, zip_local_sig, 4);
  zip_put(s, 20, 2);      // version needed: 2.0
  zip_put(s, 0, 2);       // flags
  zip_put(s, 0, 2);       // method: stored
  zip_put(s, 0, 2);       // time
  zip_put(s, 0x21, 2);    // date: 1980-01-01
  zip_put(s, crc, 4);
  zip_put(s, size, 4);    // compressed size
  zip_put(s, size, 4);    // uncompressed size
  zip_put(s, name.size(), 2);
  zip_put(s, 0, 2);       // extra length
  return s + name;
}

/// The central directory record of that entry, its local header at `offset`.
inline std::string zip_central_header(const std::string& name, std::uint32_t crc, std::uint64_t size,
                                      std::uint64_t offset) {
  std::string s;
  zip_put(s, zip_central_sig, 4);
  zip_put(s, 20, 2);  // made by
  std::string local = zip_local_header(name, crc, size);
  s.append(local, 4, 26);  // version needed .. extra length, as in the local header
  zip_put(s, 0, 2);        // comment length
  zip_put(s, 0, 2);        // disk
  zip_put(s, 0, 2);        // internal attributes
  zip_put(s, 0, 4);        // external attributes
  zip_put(s, offset, 4);
  return s + name;
}

/// The end of central directory record.
inline std::string zip_end_record(std::uint64_t entries, std::uint64_t cd_size, std::uint64_t cd_offset) {
  std::string s;
  zip_put(s, zip_end_sig, 4);
  zip_put(s, 0, 2);
  zip_put(s, 0, 2);
  zip_put(s, entries, 2);
  zip_put(s, entries, 2);
  zip_put(s, cd_size, 4);
  zip_put(s, cd_offset, 4);
  zip_put(s, 0, 2);  // comment length
  return s;
}

}  // namespace sinter::detail
