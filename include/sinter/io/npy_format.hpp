#pragma once
/// \file npy_format.hpp
/// The .npy format's header (NumPy's numpy/lib/format.py, versions 1.0, 2.0
/// and 3.0): the magic string, the header dictionary written as NumPy writes
/// it (byte for byte), its parser, the descr of each element type, and the
/// byte swap of a big-endian (or little-endian, on a big-endian host) file.
/// Pure text and bytes: no file is touched here (npy.hpp does the I/O).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "../core/dtype.hpp"
#include "../core/shape.hpp"

namespace sinter::detail {

/// The magic string every .npy file starts with, before its version bytes.
inline constexpr char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};
/// Largest header a file may declare (NumPy's default max_header_size is
/// 10,000): a corrupt length cannot make the reader allocate gigabytes.
inline constexpr std::uint32_t npy_max_header = std::uint32_t{1} << 20;

/// The native byte-order character of a descr ('<' or '>').
inline constexpr char npy_native_order = std::endian::native == std::endian::little ? '<' : '>';

/// A descr's kind letter and item size for element type T: bfloat16 has no
/// NumPy dtype and is 'V' (void) of 2 bytes, what NumPy writes for
/// ml_dtypes.bfloat16 ('<V2').
template <class T>
struct npy_type {
  static constexpr char kind = std::is_same_v<T, bool> ? 'b'
                               : std::is_same_v<T, bfloat16> ? 'V'
                               : floating_element<T>         ? 'f'
                               : std::is_signed_v<T>         ? 'i'
                                                             : 'u';
  static constexpr int size = static_cast<int>(sizeof(T));
};

/// The descr sinter writes for T: "|b1", "|i1", "<i4", "<f2", "<V2"...
template <class T>
std::string npy_descr() {
  std::string d(1, sizeof(T) == 1 ? '|' : npy_native_order);
  d += npy_type<T>::kind;
  d += std::to_string(sizeof(T));
  return d;
}

/// A parsed header: the descr's parts, the order, the shape.
struct npy_header {
  std::string descr;           ///< as written ("<f4"; the raw text of a structured descr)
  char order = '|';            ///< '<', '>', '|' or '=' ('|' when absent)
  char kind = 0;               ///< 'b', 'i', 'u', 'f', 'V'... (0: not a simple descr)
  int size = 0;                ///< item size in bytes
  bool fortran_order = false;  ///< data in column-major order
  std::vector<index_t> shape;  ///< extents
};

/// Whether data in `h`'s byte order must be byte-swapped on this host.
inline bool npy_needs_swap(const npy_header& h) {
  return h.size > 1 && (h.order == '<' || h.order == '>') && h.order != npy_native_order;
}

/// NumPy's name of a simple descr ("float32" for '<f4'), else the descr itself.
inline std::string npy_dtype_name(const npy_header& h) {
  const std::string bits = std::to_string(h.size * 8);
  switch (h.kind) {
    case 'b': return h.size == 1 ? "bool" : h.descr;
    case 'i': return "int" + bits;
    case 'u': return "uint" + bits;
    case 'f': return "float" + bits;
    case 'c': return "complex" + bits;
    case 'V': return "void" + bits;
    default: return h.descr;
  }
}

/// The shape as NumPy prints a tuple: "()", "(5,)", "(3, 4)".
inline std::string npy_shape_string(const std::vector<index_t>& s) {
  std::string r = "(";
  for (std::size_t i = 0; i != s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

/// The full header block of a file (magic, version, length, dictionary,
/// padding to 64 bytes, '\n'), as NumPy 2's write_array_header writes it:
/// version 1.0 unless the dictionary needs more than 65,535 bytes (2.0).
inline std::string npy_header_bytes(const std::string& descr, bool fortran, const std::vector<index_t>& shape,
                                    int version = 0) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                     ", 'shape': " + npy_shape_string(shape) + ", }";
  if (!shape.empty())  // NumPy's room for the growth axis' digits (GROWTH_AXIS_MAX_DIGITS)
    dict.append(21 - std::to_string(shape[fortran ? shape.size() - 1 : 0]).size(), ' ');
  if (version == 0) version = dict.size() + 1 + 10 < 65536 ? 1 : 2;
  const std::size_t len_bytes = version == 1 ? 2 : 4;
  const std::size_t hlen = dict.size() + 1;
  const std::size_t pad = 64 - (8 + len_bytes + hlen) % 64;
  const std::size_t total = hlen + pad;
  std::string out(npy_magic, 6);
  out += static_cast<char>(version);
  out += '\0';
  for (std::size_t i = 0; i != len_bytes; ++i) out += static_cast<char>((total >> (8 * i)) & 0xff);
  out += dict;
  out.append(pad, ' ');
  out += '\n';
  return out;
}

/// Parses the dictionary of a header (a Python literal: NumPy evaluates it
/// with ast.literal_eval). On failure, `problem` says what and `at` where
/// (a byte offset into the text).
class npy_header_parser {
 public:
  npy_header_parser(const char* text, std::size_t n) : s_(text), n_(n) {}

  bool parse(npy_header& h) {
    bool seen[3] = {false, false, false};
    ws();
    if (!eat('{')) return fail("expected '{'");
    for (;;) {
      ws();
      if (eat('}')) break;
      std::string key;
      if (!string_lit(key)) return fail("expected a quoted key");
      ws();
      if (!eat(':')) return fail("expected ':'");
      ws();
      if (key == "descr") {
        if (seen[0]) return fail("key 'descr' repeated");
        seen[0] = true;
        if (!descr(h)) return false;
      } else if (key == "fortran_order") {
        if (seen[1]) return fail("key 'fortran_order' repeated");
        seen[1] = true;
        if (word("True")) h.fortran_order = true;
        else if (word("False")) h.fortran_order = false;
        else return fail("fortran_order is not True or False");
      } else if (key == "shape") {
        if (seen[2]) return fail("key 'shape' repeated");
        seen[2] = true;
        if (!shape(h.shape)) return false;
      } else {
        return fail("unexpected key '" + key + "'");
      }
      ws();
      if (eat(',')) continue;
      ws();
      if (eat('}')) break;
      return fail("expected ',' or '}'");
    }
    if (!seen[0] || !seen[1] || !seen[2]) return fail("the header lacks one of 'descr', 'fortran_order', 'shape'");
    ws();
    if (p_ != n_) return fail("unexpected text after the dictionary");
    return true;
  }

  std::string problem;  ///< what failed
  std::size_t at = 0;   ///< where, in bytes from the text's start

 private:
  bool fail(std::string what) {
    problem = std::move(what);
    at = p_;
    return false;
  }
  void ws() {
    while (p_ < n_ && (s_[p_] == ' ' || s_[p_] == '\n' || s_[p_] == '\t' || s_[p_] == '\r')) ++p_;
  }
  bool eat(char c) {
    if (p_ < n_ && s_[p_] == c) return ++p_, true;
    return false;
  }
  bool word(const char* w) {
    const std::size_t k = std::strlen(w);
    if (n_ - p_ >= k && std::memcmp(s_ + p_, w, k) == 0) return p_ += k, true;
    return false;
  }
  bool string_lit(std::string& out) {
    if (p_ >= n_ || (s_[p_] != '\'' && s_[p_] != '"')) return false;
    const char q = s_[p_++];
    const std::size_t b = p_;
    while (p_ < n_ && s_[p_] != q && s_[p_] != '\\' && s_[p_] != '\n') ++p_;
    if (p_ >= n_ || s_[p_] != q) return false;
    out.assign(s_ + b, p_ - b);
    ++p_;
    return true;
  }
  bool descr(npy_header& h) {
    if (p_ < n_ && (s_[p_] == '[' || s_[p_] == '(' || s_[p_] == '{')) {  // structured: kept raw, refused later
      const std::size_t b = p_;
      int depth = 0;
      std::string ignored;
      while (p_ < n_) {
        const char c = s_[p_];
        if (c == '\'' || c == '"') {
          if (!string_lit(ignored)) return fail("unterminated string in descr");
          continue;
        }
        ++p_;
        if (c == '[' || c == '(' || c == '{') ++depth;
        if ((c == ']' || c == ')' || c == '}') && --depth == 0) break;
      }
      if (depth != 0) return fail("unbalanced brackets in descr");
      h.descr.assign(s_ + b, p_ - b);
      return true;
    }
    if (!string_lit(h.descr)) return fail("descr is not a string");
    const std::string& d = h.descr;
    std::size_t i = 0;
    if (i < d.size() && (d[i] == '<' || d[i] == '>' || d[i] == '|' || d[i] == '=')) h.order = d[i++];
    if (i + 1 < d.size() && d[i] >= 'A' && d[i] <= 'z' && d[i + 1] >= '0' && d[i + 1] <= '9' && d.size() - i <= 4) {
      int size = 0;
      for (std::size_t k = i + 1; k != d.size(); ++k) {
        if (d[k] < '0' || d[k] > '9') return true;  // not simple: refused when matched
        size = size * 10 + (d[k] - '0');
      }
      h.kind = d[i];
      h.size = size;
    } else if (d == "bfloat16") {  // ml_dtypes' name, accepted for bfloat16
      h.kind = 'V';
      h.size = 2;
      h.order = npy_native_order;
    }
    return true;
  }
  bool shape(std::vector<index_t>& out) {
    if (!eat('(')) return fail("shape is not a tuple");
    for (;;) {
      ws();
      if (eat(')')) return true;
      if (p_ >= n_ || s_[p_] < '0' || s_[p_] > '9') return fail("shape holds something other than an integer");
      index_t v = 0;
      while (p_ < n_ && s_[p_] >= '0' && s_[p_] <= '9') {
        if (v > (index_t{1} << 58)) return fail("an extent of the shape is too large");
        v = v * 10 + (s_[p_++] - '0');
      }
      eat('L');  // Python 2's long literal, which NumPy's reader filters too
      out.push_back(v);
      ws();
      if (eat(',')) continue;
      ws();
      if (eat(')')) {
        if (out.size() == 1) return fail("a one-element shape needs its trailing comma");
        return true;
      }
      return fail("expected ',' or ')' in shape");
    }
  }

  const char* s_;
  std::size_t n_;
  std::size_t p_ = 0;
};

/// Reverses the bytes of each of `n` items of `size` bytes at p.
inline void npy_byte_swap(void* p, std::size_t n, int size) {
  auto* b = static_cast<unsigned char*>(p);
  const auto z = static_cast<std::size_t>(size);
  for (std::size_t i = 0; i != n; ++i, b += z)
    for (std::size_t k = 0; k != z / 2; ++k) {
      const unsigned char t = b[k];
      b[k] = b[z - 1 - k];
      b[z - 1 - k] = t;
    }
}

}  // namespace sinter::detail
