#pragma once
// A small PNG writer for the examples: 8-bit indexed (palette) images,
// compressed with deflate's fixed Huffman codes and a greedy LZ77 search.
// Header only, no dependency; copy it along with an example.
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace png {

/// One palette entry.
struct rgb {
  std::uint8_t r, g, b;
};

/// A 256-entry colour map, dark blue -> cyan -> yellow -> dark red (a "jet" ramp).
inline std::array<rgb, 256> jet() {
  std::array<rgb, 256> p{};
  auto ramp = [](double t) {  // a triangle of height 1 centred on 0, clamped
    const double v = 1.5 - (t < 0 ? -t : t) * 4.0;
    return static_cast<std::uint8_t>(255.0 * (v < 0 ? 0 : v > 1 ? 1 : v));
  };
  for (int i = 0; i < 256; ++i) {
    const double t = i / 255.0;
    p[static_cast<std::size_t>(i)] = {ramp(t - 0.75), ramp(t - 0.5), ramp(t - 0.25)};
  }
  return p;
}

namespace detail {

inline std::uint32_t crc32(const std::uint8_t* p, std::size_t n, std::uint32_t c = 0) {
  c = ~c;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

/// Bits written least significant first, as deflate packs them.
struct bit_writer {
  std::vector<std::uint8_t> out;
  std::uint32_t acc = 0;
  int used = 0;
  void put(std::uint32_t bits, int n) {
    acc |= bits << used;
    used += n;
    while (used >= 8) out.push_back(static_cast<std::uint8_t>(acc)), acc >>= 8, used -= 8;
  }
  void put_huffman(std::uint32_t code, int n) {  // Huffman codes go most significant bit first
    std::uint32_t r = 0;
    for (int i = 0; i < n; ++i) r |= ((code >> i) & 1u) << (n - 1 - i);
    put(r, n);
  }
  void literal(int v) {  // the fixed code of literal/length symbol v (RFC 1951, 3.2.6)
    const auto u = static_cast<std::uint32_t>(v);
    if (v < 144) put_huffman(0x30 + u, 8);
    else if (v < 256) put_huffman(0x190 + u - 144, 9);
    else if (v < 280) put_huffman(u - 256, 7);
    else put_huffman(0xC0 + u - 280, 8);
  }
  void match(int len, int dist) {
    static constexpr int lbase[] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27,
                                    31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
    static constexpr int dbase[] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129,
                                    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
                                    6145, 8193, 12289, 16385, 24577};
    int l = 28;
    while (lbase[l] > len) --l;
    literal(257 + l);
    const int lextra = (l < 8 || l == 28) ? 0 : (l - 4) / 4;
    put(static_cast<std::uint32_t>(len - lbase[l]), lextra);
    int d = 29;
    while (dbase[d] > dist) --d;
    put_huffman(static_cast<std::uint32_t>(d), 5);
    put(static_cast<std::uint32_t>(dist - dbase[d]), d < 4 ? 0 : (d - 2) / 2);
  }
};

/// zlib stream of `in`: one fixed-Huffman block, greedy matches found through
/// a hash of the next three bytes and a chain of earlier positions.
inline std::vector<std::uint8_t> zlib(const std::vector<std::uint8_t>& in) {
  bit_writer w;
  w.out = {0x78, 0x01};
  w.put(1, 1);  // the final block
  w.put(1, 2);  // fixed Huffman codes
  const std::size_t n = in.size();
  std::vector<int> head(1 << 15, -1), prev(n, -1);
  auto hash = [&](std::size_t i) { return ((in[i] << 10) ^ (in[i + 1] << 5) ^ in[i + 2]) & 0x7FFF; };
  std::size_t i = 0;
  while (i < n) {
    int best = 0, best_dist = 0;
    if (i + 3 <= n) {
      const int h = hash(i);
      int tries = 32;
      for (int c = head[static_cast<std::size_t>(h)]; c >= 0 && tries-- > 0 && i - static_cast<std::size_t>(c) <= 32768;
           c = prev[static_cast<std::size_t>(c)]) {
        int len = 0;
        while (len < 258 && i + static_cast<std::size_t>(len) < n && in[static_cast<std::size_t>(c + len)] == in[i + static_cast<std::size_t>(len)]) ++len;
        if (len > best) best = len, best_dist = static_cast<int>(i) - c;
      }
    }
    const std::size_t step = best >= 3 ? static_cast<std::size_t>(best) : 1;
    if (best >= 3) w.match(best, best_dist);
    else w.literal(in[i]);
    for (std::size_t k = i; k < i + step && k + 3 <= n; ++k) {  // index every position passed
      const auto h = static_cast<std::size_t>(hash(k));
      prev[k] = head[h];
      head[h] = static_cast<int>(k);
    }
    i += step;
  }
  w.literal(256);  // end of block
  if (w.used > 0) w.put(0, 8 - w.used);
  std::uint32_t a = 1, b = 0;  // Adler-32 of the uncompressed data
  for (std::uint8_t v : in) a = (a + v) % 65521, b = (b + a) % 65521;
  const std::uint32_t adler = (b << 16) | a;
  for (int s = 24; s >= 0; s -= 8) w.out.push_back(static_cast<std::uint8_t>(adler >> s));
  return w.out;
}

inline void chunk(std::FILE* f, const char* type, const std::vector<std::uint8_t>& data) {
  std::vector<std::uint8_t> buf(type, type + 4);
  buf.insert(buf.end(), data.begin(), data.end());
  const auto be32 = [&](std::uint32_t v) {
    const std::uint8_t b[4] = {std::uint8_t(v >> 24), std::uint8_t(v >> 16), std::uint8_t(v >> 8), std::uint8_t(v)};
    std::fwrite(b, 1, 4, f);
  };
  be32(static_cast<std::uint32_t>(data.size()));
  std::fwrite(buf.data(), 1, buf.size(), f);
  be32(crc32(buf.data(), buf.size()));
}

}  // namespace detail

/// Write a width x height image of palette indices (row-major) to `path`.
/// Returns false (errno set by the C library) when the file cannot be written.
inline bool write_indexed(const std::string& path, std::uint32_t width, std::uint32_t height,
                          const std::vector<std::uint8_t>& pixels, const std::array<rgb, 256>& palette) {
  std::vector<std::uint8_t> raw;  // each row: filter type 0, then its indices
  raw.reserve(static_cast<std::size_t>(width + 1) * height);
  for (std::size_t y = 0; y < height; ++y) {
    raw.push_back(0);
    raw.insert(raw.end(), pixels.begin() + static_cast<std::ptrdiff_t>(y * width),
               pixels.begin() + static_cast<std::ptrdiff_t>((y + 1) * width));
  }
  std::vector<std::uint8_t> ihdr;
  for (std::uint32_t v : {width, height})
    for (int s = 24; s >= 0; s -= 8) ihdr.push_back(static_cast<std::uint8_t>(v >> s));
  ihdr.insert(ihdr.end(), {8, 3, 0, 0, 0});  // 8 bits, indexed colour, deflate, no filter, no interlace
  std::vector<std::uint8_t> plte;
  for (const rgb& c : palette) plte.insert(plte.end(), {c.r, c.g, c.b});
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const std::uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::fwrite(signature, 1, 8, f);
  detail::chunk(f, "IHDR", ihdr);
  detail::chunk(f, "PLTE", plte);
  detail::chunk(f, "IDAT", detail::zlib(raw));
  detail::chunk(f, "IEND", {});
  const bool ok = !std::ferror(f);
  return std::fclose(f) == 0 && ok;
}

}  // namespace png
