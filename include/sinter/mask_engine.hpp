#pragma once
/// \file mask_engine.hpp
/// The CPU engine of boolean-mask extraction (mask.hpp: compress,
/// flatnonzero, nonzero) behind host and par.
///
/// The flat positions are cut into blocks of `block` elements, a fixed size
/// whatever the thread count. Pass 1 evaluates the mask of each block once
/// (the explicit vector loop where contiguous) into one bit per element and
/// counts them (a contiguous bool array is only counted: its bytes are
/// read again in pass 2, as a hand loop reads them); an exclusive scan of the counts gives each block's offset in
/// the result, which is then allocated at its exact size; pass 2 copies each
/// block's selected values to its offset. x is read in pass 2 only: a
/// contiguous array or view at the selected positions, an expression
/// evaluated per block into an L1 buffer (or, in a block with few selected
/// elements, at those positions alone), never materialised whole. par runs
/// both passes' blocks on the pool; the output is the same for any thread
/// count (each block writes its own range).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include "array.hpp"
#include "policy/host/loop.hpp"
#include "policy/host/shared.hpp"
#include "policy/host/thread_pool.hpp"
#include "policy/par.hpp"
#include "reduce/host_engine.hpp"

namespace sinter::detail::mask_host {

/// Elements per block (64 words of mask bits).
inline constexpr index_t block = 4096;
/// Mask words per block.
inline constexpr index_t block_words = block / 64;
/// Blocks per parallel task in par.
inline constexpr index_t blocks_per_task = 8;

/// Positions [s, e) of a bound node into out[0, e - s); a contiguous node
/// through store_range (the explicit vector loop, for exp and the like).
template <class V, std::size_t R, class Node>
SINTER_FORCEINLINE void eval_tile(const Node& node, const extents<R>& shape, index_t s, index_t e, V* out) {
  if constexpr (R >= 1) {
    if (node.unit()) {
      using C = std::remove_const_t<decltype(node.linear())>;
      store_range(out, shift_cursor<C>{node.linear(), s}, 0, e - s);
      return;
    }
  }
  reduce_host::eval_range<V>(node, shape, s, e, out);
}

/// The value of a bound node at flat position p (row-major over shape).
template <class V, std::size_t R, class Node>
SINTER_FORCEINLINE V value_at(const Node& node, const extents<R>& shape, index_t p) {
  if constexpr (R == 0) {
    (void)shape, (void)p;
    return convert<V>(node.linear().load(0));
  } else {
    if (node.unit()) return convert<V>(node.linear().load(p));
    extents<R> idx{};
    index_t r = p / shape[R - 1];
    const index_t j = p - r * shape[R - 1];
    for (std::size_t d = R - 1; d-- > 0;) {
      idx[d] = r % shape[d];
      r /= shape[d];
    }
    return convert<V>(node.row(idx).load(j));
  }
}

/// 64 bytes of 0 or 1 as 64 bits, byte k to bit k (a multiply gathers
/// eight bytes' low bits into the top byte).
SINTER_FORCEINLINE std::uint64_t pack64(const bool* b) {
  std::uint64_t w = 0;
  for (int g = 0; g < 8; ++g) {
    std::uint64_t v;
    std::memcpy(&v, b + 8 * g, 8);
    w |= ((v * 0x0102040810204080ull) >> 56) << (8 * g);
  }
  return w;
}

/// Whether a mask node is a bool array read in place, contiguous: its
/// bytes then drive pass 2 directly (pass 1 only counts them).
template <class MNode>
SINTER_FORCEINLINE bool byte_mask(const MNode& m) {
  if constexpr (is_memory_leaf<MNode>::value && std::is_same_v<typename MNode::value_type, bool>) return m.unit();
  else return false;
}

/// The number of true bytes of a contiguous bool mask at p[0, n): eight
/// bytes (each 0 or 1) added per 64-bit word, 16 words to a byte lane's
/// sum at most, then the lanes summed by a multiply.
SINTER_FORCEINLINE index_t count_bytes(const bool* p, index_t n) {
  index_t c = 0, i = 0;
  for (; i + 128 <= n; i += 128) {
    std::uint64_t acc = 0;
    for (int w = 0; w < 16; ++w) {
      std::uint64_t v;
      std::memcpy(&v, p + i + 8 * w, 8);
      acc += v;
    }
    c += static_cast<index_t>((acc * 0x0101010101010101ull) >> 56);
  }
  for (; i < n; ++i) c += static_cast<index_t>(p[i]);
  return c;
}

/// Pass 1 for positions [s, e): the mask's bits into words[0, ceil((e - s) / 64)), and their count.
template <std::size_t R, class MNode>
index_t mask_block(const MNode& m, const extents<R>& shape, index_t s, index_t e, std::uint64_t* words) {
  using MV = typename MNode::value_type;
  const index_t n = e - s, nw = (n + 63) / 64;
  alignas(64) bool flags[block];
  const bool* f = flags;
  if constexpr (std::is_same_v<MV, bool>) {
    eval_tile<bool>(m, shape, s, e, flags);
  } else {  // nonzero of any type: truthiness, as count_nonzero
    alignas(64) MV vals[block];
    eval_tile<MV>(m, shape, s, e, vals);
    for (index_t i = 0; i < n; ++i) flags[i] = static_cast<compute_t<MV>>(vals[i]) != compute_t<MV>(0);
  }
  if (f == flags)
    for (index_t i = n; i < nw * 64; ++i) flags[i] = false;
  index_t count = 0;
  for (index_t w = 0; w < nw; ++w) {
    words[w] = pack64(f + 64 * w);
    count += std::popcount(words[w]);
  }
  return count;
}

/// out[k...] = the elements of src[0, 64 * nw) whose bit is set, in order.
/// Branch-free within a word, up to its last set bit only, so no write
/// passes the block's own range (par's blocks write side by side).
template <class V>
SINTER_FORCEINLINE void compact(const V* src, const std::uint64_t* words, index_t nw, V* out) {
  index_t k = 0;
  for (index_t w = 0; w < nw; ++w) {
    const std::uint64_t b = words[w];
    const V* p = src + 64 * w;
    if (b == ~std::uint64_t{0}) {
      for (int j = 0; j < 64; ++j) out[k + j] = p[j];
      k += 64;
    } else if (b != 0) {
      const int last = 64 - std::countl_zero(b);
      for (int j = 0; j < last; ++j) {
        out[k] = p[j];
        k += static_cast<index_t>((b >> j) & 1u);
      }
    }
  }
}

/// out[k...] = the elements of src[0, n) whose flag byte is set, in order;
/// branch-free up to the last set flag (no write past the block's range).
template <class V>
SINTER_FORCEINLINE void compact_bytes(const V* src, const bool* flags, index_t n, V* out) {
  while (n > 0 && !flags[n - 1]) --n;
  index_t k = 0;
  for (index_t i = 0; i < n; ++i) {
    out[k] = src[i];
    k += static_cast<index_t>(flags[i]);
  }
}

/// Pass 2 for positions [s, e) with a byte mask (byte_mask): as copy_block.
template <class V, std::size_t R, class XNode>
void copy_block_bytes(const XNode& x, const extents<R>& shape, index_t s, index_t e, const bool* flags,
                      index_t count, V* out) {
  if (count == 0) return;
  if constexpr (is_memory_leaf<XNode>::value) {
    if (x.unit()) {
      compact_bytes<V>(x.ptr + s, flags, e - s, out);
      return;
    }
  } else if (count * 8 < e - s) {
    index_t k = 0;
    for (index_t i = 0; i < e - s; ++i)
      if (flags[i]) out[k++] = value_at<V>(x, shape, s + i);
    return;
  }
  alignas(64) V buf[block];
  eval_tile<V>(x, shape, s, e, buf);
  compact_bytes<V>(buf, flags, e - s, out);
}

/// Pass 2 for positions [s, e): its `count` selected values of x to out.
template <class V, std::size_t R, class XNode>
void copy_block(const XNode& x, const extents<R>& shape, index_t s, index_t e, const std::uint64_t* words,
                index_t count, V* out) {
  if (count == 0) return;
  const index_t n = e - s, nw = (n + 63) / 64;
  if constexpr (is_memory_leaf<XNode>::value) {
    if (x.unit()) {
      compact<V>(x.ptr + s, words, nw, out);
      return;
    }
  } else if (count * 8 < n) {  // few selected: x at those positions alone
    index_t k = 0;
    for (index_t w = 0; w < nw; ++w)
      for (std::uint64_t b = words[w]; b != 0; b &= b - 1)
        out[k++] = value_at<V>(x, shape, s + 64 * w + std::countr_zero(b));
    return;
  }
  alignas(64) V buf[block];
  eval_tile<V>(x, shape, s, e, buf);
  compact<V>(buf, words, nw, out);
}

/// f(b) for every block b of [0, blocks): on the pool for a large par pass.
template <class P, class F>
void for_blocks(index_t blocks, index_t n, const F& f) {
  if (std::is_same_v<P, par> && n >= 2 * par_grain && blocks > blocks_per_task) {
    const index_t tasks = (blocks + blocks_per_task - 1) / blocks_per_task;
    default_pool().parallel_for(tasks, [&](std::int64_t t) {
      const index_t b1 = (t + 1) * blocks_per_task < blocks ? (t + 1) * blocks_per_task : blocks;
      for (index_t b = t * blocks_per_task; b < b1; ++b) f(b);
    });
  } else {
    for (index_t b = 0; b < blocks; ++b) f(b);
  }
}

/// The values of bound node x (shape `shape`) where bound mask m is true,
/// row-major, as a new 1-D array of policy P.
template <class V, class P, std::size_t R, class MNode, class XNode>
array<V, 1, P> select(const P& pol, const MNode& m, const XNode& x, const extents<R>& shape) {
  const index_t n = shape_size(shape);
  const index_t blocks = (n + block - 1) / block;
  const std::unique_ptr<std::uint64_t[]> words(
      new std::uint64_t[byte_mask(m) ? 1 : static_cast<std::size_t>(blocks * block_words)]);
  const std::unique_ptr<index_t[]> offsets(new index_t[static_cast<std::size_t>(blocks + 1)]);
  index_t* const offset = offsets.get();  // indexed by index_t (unique_ptr's [] takes size_t)
  const auto range = [n](index_t b, index_t& s, index_t& e) {
    s = b * block;
    e = s + block < n ? s + block : n;
  };
  const bool bytes = byte_mask(m);
  for_blocks<P>(blocks, n, [&](index_t b) {
    index_t s, e;
    range(b, s, e);
    if constexpr (is_memory_leaf<MNode>::value && std::is_same_v<typename MNode::value_type, bool>)
      if (bytes) {
        offset[b + 1] = count_bytes(m.ptr + s, e - s);
        return;
      }
    offset[b + 1] = mask_block(m, shape, s, e, words.get() + b * block_words);
  });
  offset[0] = 0;
  for (index_t b = 0; b < blocks; ++b) offset[b + 1] += offset[b];
  array<V, 1, P> out(extents<1>{offset[blocks]}, pol);
  V* o = out.data();
  for_blocks<P>(blocks, n, [&](index_t b) {
    index_t s, e;
    range(b, s, e);
    const index_t count = offset[b + 1] - offset[b];
    if constexpr (is_memory_leaf<MNode>::value && std::is_same_v<typename MNode::value_type, bool>)
      if (bytes) {
        copy_block_bytes<V>(x, shape, s, e, m.ptr + s, count, o + offset[b]);
        return;
      }
    copy_block<V>(x, shape, s, e, words.get() + b * block_words, count, o + offset[b]);
  });
  return out;
}

}  // namespace sinter::detail::mask_host
