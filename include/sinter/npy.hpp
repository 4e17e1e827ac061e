#pragma once
/// \file npy.hpp
/// NumPy's .npy files: `sinter::save_npy(path, x)` for any array, view or
/// expression, `sinter::load_npy<T, R, P>(path)`. Versions 1.0, 2.0 and 3.0
/// are read, either byte order (swapped on load), C or Fortran order (a
/// Fortran file is transposed into the row-major array); sinter writes what
/// NumPy 2's np.save writes, byte for byte (version 1.0, native order, C order).
/// Every sinter element type has a descr: bool '|b1', the integers, half
/// '<f2', float, double; bfloat16, which NumPy lacks, is '<V2' (what np.save
/// writes for ml_dtypes.bfloat16: np.load gives void16 bytes, and
/// `.view(ml_dtypes.bfloat16)` restores it); load_npy<bfloat16> reads 'V2'.
/// Data move in bounded blocks: an expression or a strided view is evaluated
/// block by block into a buffer of 1 MiB, a C-order file is read straight
/// into the array. Device arrays go through a host copy.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "array.hpp"
#include "core/error.hpp"
#include "core/tree_fold.hpp"
#include "evaluate.hpp"
#include "expression.hpp"
#include "io/npy_file.hpp"
#include "io/npy_format.hpp"
#include "policy/backend.hpp"
#include "policy/host/lagged.hpp"
#include "transfer.hpp"

namespace sinter {
namespace detail {

/// Bytes of the buffer an expression or a strided view is written through,
/// and of the blocks a file is read in.
inline constexpr std::size_t npy_block_bytes = std::size_t{1} << 20;

/// Leaves row_block (policy/host/lagged.hpp) cuts into blocks: memory,
/// generators, scalars.
template <class L> struct npy_cuttable_leaf : std::false_type {};
template <class T, std::size_t R, bool D> struct npy_cuttable_leaf<memory_leaf<T, R, D>> : std::true_type {};
template <class G, std::size_t R> struct npy_cuttable_leaf<gen_leaf<G, R>> : std::true_type {};
template <class T> struct npy_cuttable_leaf<scalar_leaf<T>> : std::true_type {};

/// Whether an expression node is one memory leaf (an array's or a view's).
template <class N> struct is_memory_node : std::false_type {};
template <class T, std::size_t R, bool D> struct is_memory_node<memory_leaf<T, R, D>> : std::true_type {};

/// The block of `bound` at indices idx[j] of the axes j < k and rows [r0,
/// r0 + count) of axis k (built, not assigned: a user's lambda has no operator=).
/// J is a template argument, so no axis index can pass R - 1.
template <std::size_t J, class B, std::size_t R>
B npy_cut(const B& b, std::size_t k, const extents<R>& idx, index_t r0, index_t count) {
  if constexpr (J + 1 < R) {
    if (J != k) return npy_cut<J + 1>(row_block(b, J, idx[J], 1), k, idx, r0, count);
  }
  return row_block(b, J, r0, count);
}

/// Writes the row-major elements of the bound tree `bound` (shape `shape`)
/// block by block: each block is whole rows of one axis, evaluated by one
/// pass of `pol` into a buffer of npy_block_bytes.
template <class T, std::size_t R, class PR, class B>
void npy_stream(byte_sink& out, const PR& pol, const B& bound, const extents<R>& shape) {
  const index_t cap = std::max<index_t>(1, static_cast<index_t>(npy_block_bytes / sizeof(T)));
  // The axis cut into blocks of rows: the first whose rows (the later axes) fit the buffer.
  std::size_t k = R - 1;
  index_t row = 1;
  while (k > 0 && row * shape[k] <= cap) row *= shape[k--];
  const index_t per = std::max<index_t>(1, cap / row);
  const auto buf = std::make_unique_for_overwrite<T[]>(static_cast<std::size_t>(std::min(per, shape[k]) * row));
  extents<R> idx{};  // indices of the axes before k
  for (;;) {
    for (index_t r0 = 0; r0 < shape[k]; r0 += per) {
      const B blk = npy_cut<0>(bound, k, idx, r0, std::min(per, shape[k] - r0));
      run_pass(pol, memory_leaf<T, R>{buf.get(), blk.shape, row_major_strides(blk.shape)}, blk);
      out.write(buf.get(), static_cast<std::size_t>(shape_size(blk.shape)) * sizeof(T));
    }
    std::size_t j = k;
    for (; j-- > 0;) {
      if (++idx[j] < shape[j]) break;
      idx[j] = 0;
    }
    if (j == static_cast<std::size_t>(-1)) return;
  }
}

/// Writes the elements of strided memory in row-major order through a
/// buffer, by a plain loop: no engine pass is compiled for a view.
template <class T, std::size_t R>
void npy_write_strided(byte_sink& out, const T* p, const extents<R>& shape, const extents<R>& strides) {
  const index_t cap = std::max<index_t>(shape[R - 1], static_cast<index_t>(npy_block_bytes / sizeof(T)));
  const auto buf = std::make_unique_for_overwrite<T[]>(static_cast<std::size_t>(cap));
  const index_t row = shape[R - 1], step = strides[R - 1];
  extents<R> idx{};
  index_t off = 0, m = 0;  // off: the row's first element; m: elements in the buffer
  for (;;) {
    if (m + row > cap) out.write(buf.get(), static_cast<std::size_t>(m) * sizeof(T)), m = 0;
    for (index_t j = 0; j != row; ++j) buf[static_cast<std::size_t>(m++)] = p[off + j * step];
    std::size_t d = R - 1;
    for (; d-- > 0;) {
      off += strides[d];
      if (++idx[d] < shape[d]) break;
      off -= idx[d] * strides[d];
      idx[d] = 0;
    }
    if (d == static_cast<std::size_t>(-1)) break;
  }
  out.write(buf.get(), static_cast<std::size_t>(m) * sizeof(T));
}

/// Writes the elements of x (array, view or expression) in row-major order:
/// contiguous memory as it is, anything else in blocks; device memory is
/// copied to the host first.
template <class X>
void npy_write_data(byte_sink& out, const X& x) {
  auto e = as_expr(x);
  using E = decltype(e);
  using T = typename E::value_type;
  using P = typename E::policy_type;
  using PR = std::conditional_t<std::is_same_v<P, any_policy>, host, P>;
  static_assert(sizeof(bool) == 1, "sinter::save_npy: bool must be one byte ('|b1')");
  if constexpr (!backend<PR>::host_accessible) {
    npy_write_data(out, to<host>(e));
  } else {
    constexpr std::size_t R = E::rank;
    const extents<R> shape = e.shape();
    const index_t n = shape_size(shape);
    if (n == 0) return;
    if constexpr (is_memory_node<typename E::node_type>::value) {
      if constexpr (R > 0) {
        if (!is_row_major(shape, e.node().strides)) return npy_write_strided<T, R>(out, e.node().ptr, shape, e.node().strides);
      }
      out.write(e.node().ptr, static_cast<std::size_t>(n) * sizeof(T));
    } else if constexpr (R == 0) {
      T v[1];
      run_pass(PR{}, memory_leaf<T, 0>{v, {}, {}}, e.node());
      out.write(v, sizeof(T));
    } else if constexpr (fold_tree_v<all_leaves_fold<npy_cuttable_leaf>, typename E::node_type>) {
      npy_stream<T, R>(out, PR{}, e.node().bind(shape), shape);
    } else {  // a node no block cut reaches: one temporary
      const array<T, R, PR> tmp(e);
      out.write(tmp.data(), static_cast<std::size_t>(n) * sizeof(T));
    }
  }
}

/// The header block of x's file and the bytes of its data.
template <class X>
std::string npy_header_of(const X& x, std::uint64_t& data_bytes) {
  using E = expr_of_t<const X&>;
  using T = typename E::value_type;
  const auto shape = as_expr(x).shape();
  std::vector<index_t> s(shape.begin(), shape.end());
  data_bytes = static_cast<std::uint64_t>(shape_size(shape)) * sizeof(T);
  return npy_header_bytes(npy_descr<T>(), false, s);
}

/// Reads and checks the magic, version and header of a .npy stream.
inline npy_header npy_read_header(byte_source& in) {
  const std::uint64_t start = in.pos;
  unsigned char pre[8];
  in.read(pre, 8);
  if (std::memcmp(pre, npy_magic, 6) != 0) in.corrupt("no .npy magic string", start);
  const int major = pre[6], minor = pre[7];
  if (major < 1 || major > 3 || minor != 0)
    in.corrupt("unknown format version " + std::to_string(major) + "." + std::to_string(minor), start + 6);
  unsigned char len[4] = {0, 0, 0, 0};
  in.read(len, major == 1 ? 2 : 4);
  const auto hlen = static_cast<std::uint32_t>(zip_get(len, 4));
  if (hlen > npy_max_header) in.corrupt("header length " + std::to_string(hlen) + " is implausible", start + 8);
  const std::uint64_t hstart = in.pos;
  std::string text(hlen, '\0');
  in.read(text.data(), hlen);
  npy_header h;
  npy_header_parser parser(text.data(), text.size());
  if (!parser.parse(h)) in.corrupt("header: " + parser.problem, hstart + parser.at);
  return h;
}

/// value_error unless the file holds T of rank R.
template <class T, std::size_t R>
void npy_check_type(const npy_header& h, const std::string& path, const char* what) {
  if (h.kind == npy_type<T>::kind && h.size == npy_type<T>::size && h.shape.size() == R) return;
  throw value_error(std::string(what) + ": " + path + " holds " + npy_dtype_name(h) + " ('" + h.descr +
                    "') of shape " + npy_shape_string(h.shape) + ", not " + dtype_name<T>() + " of rank " +
                    std::to_string(R) + "; load it with its own element type and rank, then convert with "
                    "sinter::cast or reshape");
}

/// Turns bytes read for T into valid Ts: swapped if the file's order is not
/// the host's; a bool byte other than 0 becomes 1.
template <class T>
void npy_fix_bytes(void* p, std::size_t n, bool swap) {
  if (swap) npy_byte_swap(p, n, static_cast<int>(sizeof(T)));
  if constexpr (std::is_same_v<T, bool>) {
    auto* b = static_cast<unsigned char*>(p);
    for (std::size_t i = 0; i != n; ++i) b[i] = b[i] != 0;
  }
}

/// Reads the data of header h (the source at its first byte) into a new
/// array of P (host or par: host memory); the data must end exactly at the
/// source's end.
template <class T, std::size_t R, class P>
array<T, R, P> npy_read_data(byte_source& in, const npy_header& h, const P& pol) {
  extents<R> shape{};
  std::uint64_t n = 1;
  for (std::size_t d = 0; d != R; ++d) {
    shape[d] = h.shape[d];
    const auto e = static_cast<std::uint64_t>(h.shape[d]);
    if (e != 0 && n > (std::uint64_t{1} << 62) / sizeof(T) / e) in.corrupt("shape too large", in.pos);
    n *= e;
  }
  const std::uint64_t bytes = n * sizeof(T);
  if (in.end - in.pos != bytes)
    throw_io(in.what, in.path,
             in.end - in.pos < bytes ? in.truncated(bytes)
                                     : std::to_string(in.end - in.pos - bytes) + " bytes after the data's end at byte " +
                                           std::to_string(in.pos + bytes),
             "the file is incomplete or damaged; write it again");
  array<T, R, P> a(shape, pol);
  const bool swap = npy_needs_swap(h);
  const std::size_t block = npy_block_bytes / sizeof(T);
  if (!h.fortran_order || R < 2) {  // straight into the array, block by block
    auto* dst = reinterpret_cast<unsigned char*>(a.data());
    for (std::uint64_t i = 0; i < n; i += block) {
      const auto m = static_cast<std::size_t>(std::min<std::uint64_t>(block, n - i));
      in.read(dst + i * sizeof(T), m * sizeof(T));
      npy_fix_bytes<T>(dst + i * sizeof(T), m, swap);
    }
    return a;
  }
  // Fortran order: axis 0 varies fastest in the file; scattered to C order.
  const auto buf = std::make_unique_for_overwrite<unsigned char[]>(block * sizeof(T));
  const extents<R> cs = row_major_strides(shape);
  extents<R> idx{};
  index_t off = 0;
  auto* dst = reinterpret_cast<unsigned char*>(a.data());
  for (std::uint64_t i = 0; i < n; i += block) {
    const auto m = static_cast<std::size_t>(std::min<std::uint64_t>(block, n - i));
    in.read(buf.get(), m * sizeof(T));
    npy_fix_bytes<T>(buf.get(), m, swap);
    for (std::size_t j = 0; j != m; ++j) {
      std::memcpy(dst + static_cast<std::size_t>(off) * sizeof(T), buf.get() + j * sizeof(T), sizeof(T));
      for (std::size_t d = 0; d != R; ++d) {
        off += cs[d];
        if (++idx[d] < shape[d]) break;
        off -= idx[d] * cs[d];
        idx[d] = 0;
      }
    }
  }
  return a;
}

/// A whole .npy stream (header and data) from the source, into an array of
/// P (a device policy's through a host array).
template <class T, std::size_t R, class P>
array<T, R, P> npy_read(byte_source& in, const P& pol) {
  const npy_header h = npy_read_header(in);
  npy_check_type<T, R>(h, in.path, in.what);
  if constexpr (backend<P>::host_accessible) return npy_read_data<T, R>(in, h, pol);
  else return to<P>(npy_read_data<T, R>(in, h, host{}), pol);
}

}  // namespace detail

/// Writes x (an array, view or expression of any policy) to a .npy file as
/// np.save does: `sinter::save_npy("out.npy", a * 2.f);`. The file appears
/// complete or not at all (a temporary renamed); io_error if it cannot be written.
template <expression X>
void save_npy(const std::string& path, const X& x) {
  constexpr const char* what = "sinter::save_npy";
  std::uint64_t data_bytes = 0;
  const std::string header = detail::npy_header_of(x, data_bytes);
  detail::atomic_output file(path, what);
  detail::byte_sink out{file.file(), path, what};
  out.write(header.data(), header.size());
  detail::npy_write_data(out, x);
  file.commit();
}

/// Reads a .npy file holding T of rank R into a new array of policy P:
/// `auto a = sinter::load_npy<float, 2>("data.npy");`. value_error if the
/// file holds another dtype or rank (naming both); io_error if it is
/// missing, truncated or corrupt (naming the byte offset).
template <class T, std::size_t R, policy P = host>
array<T, R, P> load_npy(const std::string& path, P pol = {}) {
  constexpr const char* what = "sinter::load_npy";
  detail::c_file file;
  detail::open_for_reading(file, path, what);
  std::uint64_t size = 0;
  if (!detail::file_size(file.f, size)) detail::throw_io(what, path, "cannot find its size", "check the path");
  detail::byte_source in{file.f, path, what, 0, size};
  return detail::npy_read<T, R>(in, pol);
}

}  // namespace sinter
