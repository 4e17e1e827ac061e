// sinter::random in the CUDA kernel body (policy/cuda/kernel_body.hpp), run
// on the CPU by a grid emulator as tests/policy/test_cuda_kernel_body.cpp
// does: every (block, thread) of a grid runs the SINTER_HD body with its own
// global thread index, 32- and 64-bit indices, vector and strided paths,
// outputs aligned and one element past alignment. The values must be the
// host policy's bit for bit: element i of a generator depends on (key, i)
// only, not on which thread or vector step computes it. (On a GPU, normal
// and exponential go through CUDA's logf/cosf, within their ULP bounds of
// the host maths; uniform, integers and bernoulli are integer-exact.)
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <sinter/sinter.hpp>
#include <vector>

namespace st = sinter;
namespace sr = sinter::random;
namespace rcd = st::detail::cuda_detail;
using st::index_t;

namespace {

/// Runs `out = bound` over an emulated grid, as a launch does.
template <class I, class T, std::size_t R, class Node>
void rnd_emulate(const st::detail::memory_leaf<T, R>& out, const Node& bound, unsigned grid, unsigned block) {
  const index_t n = st::detail::shape_size(out.shape);
  const rcd::kernel_plan plan = rcd::choose_plan(out, bound);
  const auto sources = rcd::find_leaf_sources(bound);
  const bool dedup = rcd::use_dedup_kernel<Node>(plan, sources);
  const I nthreads = static_cast<I>(grid) * static_cast<I>(block);
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned t = 0; t < block; ++t) {
      const I tid = static_cast<I>(b) * block + t;
      if (dedup)
        rcd::fused_body<I, true>(out, bound, sources, static_cast<I>(n), rcd::kernel_path::vector,
                                 static_cast<I>(plan.head), tid, nthreads);
      else
        rcd::fused_body<I, false>(out, bound, sources, static_cast<I>(n), plan.path, static_cast<I>(plan.head), tid,
                                  nthreads);
    }
}

/// Emulates `e` into an output of `shape` starting `offset` elements past a
/// 64-byte boundary on several grids and both index widths; counts elements
/// whose bits differ from the host policy's.
template <class T, std::size_t R, class E>
std::size_t rnd_mismatches(const E& expression, const st::extents<R>& shape, std::size_t offset,
                           st::detail::cuda_detail::kernel_path* path_taken = nullptr) {
  const auto e = st::detail::as_expr(expression);
  const st::array<T, R> ref = e;
  const auto n = static_cast<std::size_t>(st::detail::shape_size(shape));
  std::size_t bad = 0;
  for (unsigned grid : {1u, 3u, 7u})
    for (unsigned block : {1u, 32u, 256u})
      for (int wide = 0; wide < 2; ++wide) {
        std::unique_ptr<T[]> buf(new T[n + 64 / sizeof(T) + offset + 1]);
        std::size_t first = 0;
        while (reinterpret_cast<std::uintptr_t>(buf.get() + first) % 64 != 0) ++first;
        T* o = buf.get() + first + offset;
        std::memset(static_cast<void*>(o), 0x5A, n * sizeof(T));
        const st::detail::memory_leaf<T, R> out{o, shape, st::detail::row_major_strides(shape)};
        const auto bound = e.node().bind(shape);
        if (path_taken) *path_taken = rcd::choose_plan(out, bound).path;
        if (wide) rnd_emulate<index_t>(out, bound, grid, block);
        else rnd_emulate<std::uint32_t>(out, bound, grid, block);
        bad += n == 0 ? 0 : static_cast<std::size_t>(std::memcmp(o, ref.data(), n * sizeof(T)) != 0);
      }
  return bad;
}

}  // namespace

TEST_CASE("random in the CUDA kernel body (grid emulator): the host's bits") {
  const sr::key k{2026};
  for (index_t n : {index_t{0}, index_t{1}, index_t{5}, index_t{1031}, index_t{40000}}) {
    for (std::size_t off : {std::size_t{0}, std::size_t{1}}) {
      CAPTURE(n);
      CAPTURE(off);
      st::array<float, 1> a = sr::uniform<float>(sr::fold_in(k, 9), {n + 1}, -1, 1);
      const auto av = a(st::slice(static_cast<index_t>(off), static_cast<index_t>(off) + n));
      const st::extents<1> s{n};
      rcd::kernel_path path{};
      CHECK(rnd_mismatches<float>(av + 0.1f * sr::normal<float>(k, s), s, off, &path) == 0);
      if (n >= 5) CHECK(path == rcd::kernel_path::vector);
      CHECK(rnd_mismatches<double>(sr::uniform<double>(k, s, -2, 3), s, off) == 0);
      CHECK(rnd_mismatches<double>(sr::exponential<double>(k, s, 2) * sr::normal<double>(k, s), s, off) == 0);
      CHECK(rnd_mismatches<std::int64_t>(sr::integers<std::int64_t>(k, s, -7, 1LL << 50), s, off) == 0);
      CHECK(rnd_mismatches<std::int8_t>(sr::integers<std::int8_t>(k, s, -128, 128), s, off) == 0);
      CHECK(rnd_mismatches<bool>(sr::bernoulli(k, s, 0.4), s, off) == 0);
      CHECK(rnd_mismatches<st::half>(sr::uniform<st::half>(k, s), s, off) == 0);
      // a reversed view of a generator takes the strided path
      CHECK(rnd_mismatches<float>(sr::uniform<float>(k, s)(st::slice(st::none, st::none, -1)), s, off) == 0);
    }
  }
  // rank 2, a transposed generator, broadcast against a column
  const st::extents<2> s2{37, 61};
  const st::array<float, 2> col = sr::uniform<float>(k, {37, 1});
  CHECK(rnd_mismatches<float>(st::transpose(sr::normal<float>(k, {61, 37})) + col, s2, 0) == 0);
}
