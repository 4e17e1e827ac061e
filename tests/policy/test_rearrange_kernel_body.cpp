// Rearranging, comparing and the lazy factories (rearrange.hpp, compare.hpp,
// factories.hpp, meshgrid.hpp) in the CUDA kernel body
// (policy/cuda/kernel_body.hpp), run on the CPU by a grid emulator as
// tests/policy/test_random_kernel_body.cpp does: every (block, thread) of a
// grid runs the SINTER_HD body, 32- and 64-bit indices, outputs aligned and
// one element past alignment. roll and pad are generator leaves that read
// memory; their values must be the host policy's bit for bit.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <sinter/sinter.hpp>
#include <vector>

namespace st = sinter;
namespace rcd = st::detail::cuda_detail;
using st::index_t;

namespace {

/// Runs `out = bound` over an emulated grid, as a launch does.
template <class I, class T, std::size_t R, class Node>
void rr_emulate(const st::detail::memory_leaf<T, R>& out, const Node& bound, unsigned grid, unsigned block) {
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
std::size_t rr_mismatches(const E& expression, const st::extents<R>& shape, std::size_t offset,
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
        if (wide) rr_emulate<index_t>(out, bound, grid, block);
        else rr_emulate<std::uint32_t>(out, bound, grid, block);
        bad += n == 0 ? 0 : static_cast<std::size_t>(std::memcmp(o, ref.data(), n * sizeof(T)) != 0);
      }
  return bad;
}

}  // namespace

TEST_CASE("roll, pad, flip, eye, meshgrid and isclose in the CUDA kernel body (grid emulator)") {
  for (index_t n : {index_t{0}, index_t{1}, index_t{5}, index_t{1031}, index_t{40000}}) {
    for (std::size_t off : {std::size_t{0}, std::size_t{1}}) {
      CAPTURE(n);
      CAPTURE(off);
      st::array<float, 1> a(st::extents<1>{{n}});
      for (index_t i = 0; i < n; ++i) a(i) = std::sin(static_cast<float>(i)) * 10.f;
      const st::extents<1> s{{n}};
      CHECK(rr_mismatches<float>(st::roll(a, 3, 0), s, off) == 0);
      CHECK(rr_mismatches<float>(st::roll(a, -7) * 2.f + a, s, off) == 0);
      CHECK(rr_mismatches<float>(st::flip(a, 0), s, off) == 0);
      CHECK(rr_mismatches<bool>(st::isclose(a, st::roll(a, 1, 0), 0.5, 1.0), s, off) == 0);
      if (n > 2) {
        const st::extents<1> p{{n + 3}};
        CHECK(rr_mismatches<float>(st::pad(a(st::slice(1, n - 1)), {st::pad_width{2, 3}}, "edge"), p, off) == 0);
        CHECK(rr_mismatches<float>(st::pad(a, {st::pad_width{1, 2}}, "constant", 4.f), p, off) == 0);
      }
    }
  }
  // rank 2: a roll along each axis, a transposed pad, eye, meshgrid.
  st::array<double, 2> m(st::extents<2>{{37, 61}});
  for (index_t i = 0; i < 37; ++i)
    for (index_t j = 0; j < 61; ++j) m(i, j) = static_cast<double>(i * 100 + j);
  const st::extents<2> s2{{37, 61}};
  CHECK(rr_mismatches<double>(st::roll(m, 5, 0), s2, 0) == 0);
  CHECK(rr_mismatches<double>(st::roll(m, {-9, 4}, {1, 0}), s2, 1) == 0);
  CHECK(rr_mismatches<double>(st::transpose(st::pad(m, {st::pad_width{1, 0}, st::pad_width{0, 2}}, "edge")),
                              st::extents<2>{{63, 38}}, 0) == 0);
  CHECK(rr_mismatches<double>(st::eye(37, 61, 3) + m, s2, 1) == 0);
  const st::array<double, 1> x = st::arange<double>(61), y = st::arange<double>(37) * 0.5;
  auto [gx, gy] = st::meshgrid(x, y);
  CHECK(rr_mismatches<double>(gx * gy, s2, 0) == 0);
}
