#pragma once
/// \file sort/radix.hpp
/// The host sort engine: keys as unsigned bit patterns in NumPy's order
/// (NaN last, -0.0 equal to +0.0), an LSD radix sort of values and of
/// (key, index) pairs with 8-bit digits, an insertion sort below
/// `radix_min` elements, and a parallel radix sort over the thread pool:
/// per-chunk digit histograms combined in a fixed (digit, chunk) order.
/// Every path is a stable sort, whose result is unique: host and par at
/// any thread count give the same bits.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "../config.hpp"
#include "../core/half.hpp"
#include "../core/shape.hpp"
#include "../policy/host/thread_pool.hpp"
#include "../policy/host_memory.hpp"

namespace sinter::detail {

/// The unsigned key of element type T: `sort_key<T>::of(v)` orders as
/// NumPy's sort (integers by value, bool false first, floats by value
/// with -0.0 == +0.0 and every NaN above +inf, equal to each other).
template <class T>
struct sort_key {
  using U = std::make_unsigned_t<T>;
  static SINTER_HD U of(T v) noexcept {
    if constexpr (std::is_signed_v<T>) return static_cast<U>(static_cast<U>(v) ^ (U(1) << (8 * sizeof(T) - 1)));
    else return static_cast<U>(v);
  }
};
template <>
struct sort_key<bool> {
  using U = std::uint8_t;
  static SINTER_HD U of(bool v) noexcept { return v ? 1 : 0; }
};

/// Float keys from the bits b (Inf: the bits of +inf): negative values
/// inverted, positive ones with the sign bit set, ±0 one key, NaN the top.
template <class U, U Inf>
SINTER_HD constexpr U float_key(U b) noexcept {
  constexpr U sign = U(U(1) << (8 * sizeof(U) - 1));
  const U mag = U(b & U(~sign));
  const U neg = U(U(0) - U(b >> (8 * sizeof(U) - 1)));  // all ones when negative
  U k = U(b ^ U(neg | sign));
  k = mag == 0 ? sign : k;
  return mag > Inf ? U(~U(0)) : k;
}
template <>
struct sort_key<float> {
  using U = std::uint32_t;
  static SINTER_HD U of(float v) noexcept { return float_key<U, 0x7f800000u>(__builtin_bit_cast(U, v)); }
};
template <>
struct sort_key<double> {
  using U = std::uint64_t;
  static SINTER_HD U of(double v) noexcept {
    return float_key<U, 0x7ff0000000000000ull>(__builtin_bit_cast(U, v));
  }
};
template <>
struct sort_key<half> {
  using U = std::uint16_t;
  static SINTER_HD U of(half v) noexcept { return float_key<U, 0x7c00u>(v.bits); }
};
template <>
struct sort_key<bfloat16> {
  using U = std::uint16_t;
  static SINTER_HD U of(bfloat16 v) noexcept { return float_key<U, 0x7f80u>(v.bits); }
};

/// sort_key<T>::of as a functor (SINTER_HD: the cuda path maps it over arrays).
template <class T>
struct sort_key_fn {
  SINTER_HD typename sort_key<T>::U operator()(T v) const { return sort_key<T>::of(v); }
};

/// Below this many elements a row is sorted by insertion on the keys.
inline constexpr index_t radix_min = 64;
/// par sorts one row with the parallel radix sort from this many elements.
inline constexpr index_t radix_par_min = index_t{1} << 16;

namespace radix {

/// The byte of key k that pass d sorts by.
template <class U>
SINTER_FORCEINLINE std::size_t digit(U k, unsigned d) noexcept {
  return static_cast<std::size_t>((k >> (8 * d)) & 0xffu);
}

/// Counts of every byte of the keys of src[lo, hi): hist[d * 256 + byte].
template <class T, class K>
void count(const T* src, index_t lo, index_t hi, index_t* hist, K key) {
  using U = decltype(key(src[0]));
  constexpr unsigned D = sizeof(U);
  for (index_t i = lo; i < hi; ++i) {
    const U k = key(src[i]);
    for (unsigned d = 0; d < D; ++d) ++hist[d * 256 + digit(k, d)];
  }
}

/// Whether pass d moves anything: no, when every key has the same byte d.
inline bool pass_needed(const index_t* h, index_t n) {
  for (int b = 0; b < 256; ++b)
    if (h[b] != 0) return h[b] != n;
  return false;
}

/// Stable LSD radix sort of a[0, n) by key(a[i]); tmp holds n elements.
/// With `idx` (and `itmp`), idx is permuted alongside (idx == nullptr on
/// entry to the first moving pass means the identity: written, not read).
/// `chunks` > 1 runs the counts and scatters on the pool, chunk c over
/// [n c / chunks, n (c + 1) / chunks), offsets in (digit, chunk) order.
template <class T, class K>
void lsd(T* a, T* tmp, index_t n, std::int64_t* idx, std::int64_t* itmp, bool iota, K key, std::int64_t chunks) {
  using U = decltype(key(a[0]));
  constexpr unsigned D = sizeof(U);
  const auto lo = [&](std::int64_t c) { return n * c / chunks; };
  std::vector<index_t> all(static_cast<std::size_t>(chunks) * D * 256);
  auto for_chunks = [&](auto&& f) {
    if (chunks == 1) f(std::int64_t{0});
    else default_pool().parallel_for(chunks, f);
  };
  for_chunks([&](std::int64_t c) { count(a, lo(c), lo(c + 1), all.data() + c * D * 256, key); });
  std::vector<index_t> total(D * 256, 0);
  for (std::int64_t c = 0; c < chunks; ++c)
    for (std::size_t j = 0; j < D * 256; ++j) total[j] += all[static_cast<std::size_t>(c) * D * 256 + j];
  std::vector<index_t> off(static_cast<std::size_t>(chunks) * 256);
  T *src = a, *dst = tmp;
  std::int64_t *isrc = idx, *idst = itmp;
  bool moved = false;
  for (unsigned d = 0; d < D; ++d) {
    if (!pass_needed(total.data() + d * 256, n)) continue;
    // Per-chunk counts of this byte: the first count's while nothing has
    // moved, else counted again over the current order.
    if (moved)
      for_chunks([&](std::int64_t c) {
        index_t* h = all.data() + c * D * 256 + d * 256;
        std::fill(h, h + 256, index_t{0});
        for (index_t i = lo(c); i < lo(c + 1); ++i) ++h[digit(key(src[i]), d)];
      });
    index_t run = 0;
    for (std::size_t b = 0; b < 256; ++b)
      for (std::int64_t c = 0; c < chunks; ++c) {
        off[static_cast<std::size_t>(c) * 256 + b] = run;
        run += all[static_cast<std::size_t>(c) * D * 256 + d * 256 + b];
      }
    const bool first = iota;
    for_chunks([&](std::int64_t c) {
      index_t* o = off.data() + c * 256;
      const index_t e = lo(c + 1);
      if (!idx) {
        for (index_t i = lo(c); i < e; ++i) {
          const T v = src[i];
          dst[o[digit(key(v), d)]++] = v;
        }
      } else if (first) {
        for (index_t i = lo(c); i < e; ++i) {
          const T v = src[i];
          const index_t p = o[digit(key(v), d)]++;
          dst[p] = v;
          idst[p] = i;
        }
      } else {
        for (index_t i = lo(c); i < e; ++i) {
          const T v = src[i];
          const index_t p = o[digit(key(v), d)]++;
          dst[p] = v;
          idst[p] = isrc[i];
        }
      }
    });
    iota = false;
    moved = true;
    std::swap(src, dst);
    std::swap(isrc, idst);
  }
  if (idx && iota)
    for (index_t i = 0; i < n; ++i) idx[i] = i;  // no pass moved anything
  if (src != a) {
    std::memcpy(static_cast<void*>(a), src, static_cast<std::size_t>(n) * sizeof(T));
    if (idx) std::memcpy(idx, isrc, static_cast<std::size_t>(n) * sizeof(std::int64_t));
  }
}

/// How many chunks a parallel sort of n elements runs (1: serial).
inline std::int64_t chunks_for(index_t n, bool parallel) {
  if (!parallel || n < radix_par_min) return 1;
  const std::int64_t t = get_num_threads();
  return std::max<std::int64_t>(1, std::min<std::int64_t>(t, n / (radix_par_min / 4)));
}

}  // namespace radix

/// Stable insertion sort of p[0, n) by less (short rows: less code than
/// std::stable_sort, which each key type would instantiate).
template <class T, class Less>
void insertion_sort(T* p, index_t n, Less less) {
  for (index_t i = 1; i < n; ++i) {
    const T v = p[i];
    index_t j = i;
    for (; j > 0 && less(v, p[j - 1]); --j) p[j] = p[j - 1];
    p[j] = v;
  }
}

/// Reusable scratch of one sorting thread (grown, never shrunk), from the
/// host pool: a large sort reuses pages already faulted in.
struct sort_scratch {
  sort_scratch() = default;
  sort_scratch(const sort_scratch&) = delete;
  sort_scratch& operator=(const sort_scratch&) = delete;
  ~sort_scratch() {
    if (vals) host_deallocate(vals, vals_bytes);
    if (idx) host_deallocate(idx, idx_bytes);
  }
  /// 2 len elements of T, 64-byte aligned.
  template <class T>
  T* get(index_t len) {
    grow(vals, vals_bytes, 2 * static_cast<std::size_t>(len) * sizeof(T));
    return static_cast<T*>(vals);
  }
  /// len indices.
  std::int64_t* ids(index_t len) {
    grow(idx, idx_bytes, static_cast<std::size_t>(len) * sizeof(std::int64_t));
    return static_cast<std::int64_t*>(idx);
  }

 private:
  static void grow(void*& p, std::size_t& have, std::size_t need) {
    if (have >= need) return;
    if (p) host_deallocate(p, have);
    p = nullptr;
    have = 0;
    p = host_allocate(need);
    have = need;
  }
  void* vals = nullptr;
  void* idx = nullptr;
  std::size_t vals_bytes = 0, idx_bytes = 0;
};

/// Sorts p[0, n) in NumPy's order, stably; `parallel` uses the pool for
/// long rows. tmp: n elements of scratch. (Also the entry point other
/// headers use: `sort_keys`.)
template <class T>
void sort_values(T* p, index_t n, T* tmp, bool parallel) {
  const auto key = [](T v) { return sort_key<T>::of(v); };
  if (n < radix_min) {
    insertion_sort(p, n, [&](T x, T y) { return key(x) < key(y); });
    return;
  }
  radix::lsd(p, tmp, n, nullptr, nullptr, false, key, radix::chunks_for(n, parallel));
}

/// Sorts p[0, n) in place in NumPy's order (NaN last), stably; par uses the
/// thread pool from radix_par_min elements. For other headers (unique).
template <class T>
void sort_keys(T* p, index_t n, bool parallel = false) {
  if (n < 2) return;
  std::unique_ptr<T[]> tmp(n < radix_min ? nullptr : new T[static_cast<std::size_t>(n)]);
  sort_values(p, n, tmp.get(), parallel);
}

/// The stable argsort of keys k[0, n) (already sort_key'd): idx gets the
/// permutation; kt: n keys of scratch; it: n indices of scratch.
template <class U>
void argsort_keys(U* k, index_t n, std::int64_t* idx, U* kt, std::int64_t* it, bool parallel) {
  if (n < radix_min) {
    for (index_t i = 0; i < n; ++i) idx[i] = i;
    insertion_sort(idx, n, [&](std::int64_t x, std::int64_t y) { return k[x] < k[y]; });
    return;
  }
  radix::lsd(k, kt, n, idx, it, true, [](U v) { return v; }, radix::chunks_for(n, parallel));
}

}  // namespace sinter::detail
