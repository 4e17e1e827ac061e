#pragma once
/// \file policy/host/stream.hpp
/// Streaming (non-temporal) stores for host passes whose output is larger
/// than the cache can keep. An ordinary store first reads the line it writes
/// (write-allocate), so a pass that reads two arrays and writes one moves four
/// arrays' worth of bytes; a streaming store skips that read. The fused
/// expression is computed into a small L1-resident block, then the block is
/// written to memory with the widest non-temporal store the target has
/// (AVX-512, AVX or SSE2; elsewhere ordinary stores).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__SSE2__) || defined(_M_X64)
#include <immintrin.h>
#define SINTER_HAS_STREAM_STORES 1
#else
#define SINTER_HAS_STREAM_STORES 0
#endif

#include "../../core/pass_flags.hpp"
#include "cache.hpp"
#include "loop.hpp"

namespace sinter {
namespace detail {

/// The streaming threshold in bytes, read by every host pass without a
/// call (a constant-initialised atomic: no call on a small pass's path;
/// store forwarding, docs/design.md#store-forwarding). `threshold_unset`
/// until first read.
/// It lives in hot_flags (core/pass_flags.hpp), beside trace_hint.
inline constexpr std::size_t threshold_unset = SIZE_MAX;
inline constexpr std::atomic<std::size_t>& streaming_threshold_bytes = hot_flags.streaming_threshold;

/// The default threshold: SINTER_STREAMING_THRESHOLD, else half the
/// last-level cache (last_level_cache_bytes, host_cache.hpp).
inline std::size_t default_streaming_threshold() noexcept {
  // getenv is only racy against setenv; this runs once per process, or a
  // few times if threads race to the first pass (same answer each time).
  if (const char* env = std::getenv("SINTER_STREAMING_THRESHOLD")) {  // NOLINT(concurrency-mt-unsafe)
    char* end = nullptr;
    const unsigned long long v = std::strtoull(env, &end, 10);
    if (end != env && *end == '\0')
      return static_cast<std::size_t>(v) < threshold_unset ? static_cast<std::size_t>(v) : threshold_unset - 1;
  }
  return last_level_cache_bytes() / 2;
}

/// First read: install the default unless set_streaming_threshold came first.
SINTER_NOINLINE std::size_t init_streaming_threshold() noexcept {
  std::size_t expected = threshold_unset;
  const std::size_t t = default_streaming_threshold();
  if (streaming_threshold_bytes.compare_exchange_strong(expected, t, std::memory_order_relaxed)) return t;
  return expected;
}

}  // namespace detail

/// Host passes that write at least this many bytes into contiguous memory use
/// streaming stores (bypassing the cache). Default: half the last-level
/// cache CPU 0 shares (host_cache.hpp), or the SINTER_STREAMING_THRESHOLD
/// environment variable (bytes).
/// `sinter::set_streaming_threshold(SIZE_MAX)` turns streaming off.
SINTER_FORCEINLINE std::size_t streaming_threshold() noexcept {
  const std::size_t t = detail::streaming_threshold_bytes.load(std::memory_order_relaxed);
  return t != detail::threshold_unset ? t : detail::init_streaming_threshold();
}
/// Set the byte count from which host passes use streaming stores.
inline void set_streaming_threshold(std::size_t bytes) noexcept {
  // SIZE_MAX - 1 streams nothing either: no pass writes that many bytes.
  detail::streaming_threshold_bytes.store(bytes < detail::threshold_unset ? bytes : detail::threshold_unset - 1,
                                          std::memory_order_relaxed);
}

namespace detail {

/// Whether a pass writing `bytes` to memory should stream.
SINTER_FORCEINLINE bool use_streaming(std::size_t bytes) noexcept {
  return SINTER_HAS_STREAM_STORES && bytes >= streaming_threshold();
}

/// Copy `bytes` (a multiple of 64) from `src` to 64-byte aligned `dst` with
/// non-temporal stores.
inline void stream_copy(void* dst, const void* src, std::size_t bytes) noexcept {
#if SINTER_HAS_STREAM_STORES
  auto* d = static_cast<char*>(dst);
  const auto* s = static_cast<const char*>(src);
  for (std::size_t i = 0; i < bytes; i += 64) {
#if defined(__AVX512F__)
    _mm512_stream_si512(reinterpret_cast<__m512i*>(d + i), _mm512_load_si512(s + i));
#elif defined(__AVX__)
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i), _mm256_load_si256(reinterpret_cast<const __m256i*>(s + i)));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + i + 32),
                        _mm256_load_si256(reinterpret_cast<const __m256i*>(s + i + 32)));
#else
    for (std::size_t k = 0; k < 64; k += 16)
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + k), _mm_load_si128(reinterpret_cast<const __m128i*>(s + i + k)));
#endif
  }
#else
  std::memcpy(dst, src, bytes);
#endif
}

/// Order this thread's streaming stores before whatever it does next.
inline void stream_fence() noexcept {
#if SINTER_HAS_STREAM_STORES
  _mm_sfence();
#endif
}

/// Keeps the block's ordinary stores, which GCC otherwise drops (it streams
/// straight from registers); kept, a streamed triad ran faster when this
/// was added, level since stream_range copies its cursor
/// (docs/journal/code-notes.md#keep-block).
inline void keep_block([[maybe_unused]] const void* buf) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  asm volatile("" : : "r"(buf) : "memory");
#endif
}

/// o[k] = cur.load(k) for k in [i, i + n), n a multiple of 64 bytes of T,
/// computed into `buf` (64-byte aligned, in L1) and copied out with
/// streaming stores.
template <class T, class Cursor>
SINTER_FORCEINLINE void stream_block(T* o, const Cursor& cur, index_t i, index_t n, T* buf) {
  SINTER_IVDEP
  for (index_t j = 0; j < n; ++j) buf[j] = convert<T>(cur.load(i + j));
  stream_copy(o + i, buf, static_cast<std::size_t>(n) * sizeof(T));
  keep_block(buf);
}

/// stream_block for whole chunks of N elements from i while they fit
/// before hi (buf holds N); returns where they stopped.
template <index_t N, class T, class Cursor>
SINTER_FORCEINLINE index_t stream_chunks(T* o, const Cursor& cur, index_t i, index_t hi, T* buf) {
  for (; hi - i >= N; i += N) stream_block(o, cur, i, N, buf);
  return i;
}

/// stream_block, once, for the whole 64-byte lines from i that fit before
/// hi (fewer than stream_chunks' N: what it left); returns where they
/// stopped. One block of a run-time count: a chunk loop of one line (16
/// floats) was fully unrolled by GCC 12 into 4-byte stores that the line's
/// 64-byte load waited on (store forwarding: docs/design.md#store-forwarding).
template <class T, class Cursor>
SINTER_FORCEINLINE index_t stream_lines(T* o, const Cursor& cur, index_t i, index_t hi, T* buf) {
  constexpr index_t line = 64 / static_cast<index_t>(sizeof(T));
  const index_t n = (hi - i) - (hi - i) % line;
  if (n > 0) stream_block(o, cur, i, n, buf);
  return i + n;
}

/// o[i] = c.load(i) for i in [lo, hi) with streaming stores for the 64-byte
/// aligned blocks, then for the whole 64-byte lines after the last block;
/// the head before the first aligned line and the tail after the last
/// whole line take ordinary stores, through store_range_call (the cursor
/// type's one out-of-line loop, which other paths share). The caller
/// fences (stream_fence) once after its last range.
template <class T, class Cursor>
void stream_range(T* o, const Cursor& c, index_t lo, index_t hi) {
  static_assert(64 % sizeof(T) == 0, "streaming stores need an element size dividing 64 bytes");
  // 256 bytes (4 lines) per block: computing and streaming in small steps
  // keeps the loads and the write-combining buffers busy at the same time;
  // with 4 KiB blocks the two phases alternated
  // (docs/journal/code-notes.md#stream-blocks).
  constexpr index_t block = 256 / static_cast<index_t>(sizeof(T));
  // After the blocks, whole lines stream one at a time: a row broadcast
  // streams each row of 1000 floats (4000 bytes) on its own, and storing
  // the lines after its last block through the cache cost more than the
  // doubles' small gain from it (docs/journal/code-notes.md#stream-blocks).
  constexpr index_t line = 64 / static_cast<index_t>(sizeof(T));
  index_t i = lo;
  // Ordinary stores until o + i is 64-byte aligned (everything, if o itself
  // is not aligned to its element size).
  const auto misalign = reinterpret_cast<std::uintptr_t>(o + i) % 64;
  if (misalign % sizeof(T) != 0) {
    store_range_call(o, c, i, hi, false);
    return;
  }
  index_t head = misalign ? static_cast<index_t>((64 - misalign) / sizeof(T)) : 0;
  if (head > hi - i) head = hi - i;
  if (head > 0) store_range_call(o, c, i, i + head, false);
  i += head;
  // The cursor is copied first: read through the reference, its pointers
  // and scalars were loaded again after every block's streaming stores (o
  // might alias them), and those loads cost a third of the bandwidth
  // (docs/journal/code-notes.md#keep-block).
  const Cursor cur = c;
  if constexpr (dispatch::applies_v<T, Cursor>) {
    // Dispatched maths (policy/host/dispatch.hpp) cost more than the stores.
    if (dispatch::active<Cursor>()) return store_range_call(o, c, i, hi, false);
  }
  if constexpr (simd::applies_v<T, Cursor>) {
    // A cursor with an explicit vector loop (exp, tanh: host_simd.hpp)
    // streams its vectors straight from the registers: through the block
    // buffer below each vector was stored twice and loaded once more
    // (docs/journal/code-notes.md#stream-vectors).
    const index_t whole = (hi - i) - (hi - i) % line;
    simd::stream_vectors(o + i, cur, i, whole);
    i += whole;
  } else {
    // One line more than a block holds: stream_lines writes fewer than a
    // block, but GCC 12 cannot see it and warned (-Wstringop-overflow) of a
    // vector store past a buffer of one block, in an int8 pass.
    alignas(64) T buf[block + line];
    i = stream_chunks<block>(o, cur, i, hi, buf);
    i = stream_lines(o, cur, i, hi, buf);
  }
  if (i < hi) store_range_call(o, c, i, hi, false);
}

/// run_linear with streaming stores.
template <class T, class Node>
void run_linear_streaming(T* out, const Node& node, index_t begin, index_t end) {
  stream_range(out, node.linear(), begin, end);
  stream_fence();
}

/// run_rows with streaming stores, for unit-stride output rows (K as in
/// run_rows: every leaf's rows at stride K, or 0 for run-time strides).
template <index_t K, class T, std::size_t R, class Node>
void run_rows_streaming(const memory_leaf<T, R>& out, const Node& node, index_t s, index_t e) {
  for_row_pieces<K>(out, node, s, e,
                    [](T* o, const auto& c, index_t j0, index_t j1) { stream_range(o, c, j0, j1); });
  stream_fence();
}

}  // namespace detail
}  // namespace sinter
