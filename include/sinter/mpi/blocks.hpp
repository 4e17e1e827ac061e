#pragma once
/// \file blocks.hpp
/// The block distribution along axis 0: which global rows each rank owns.
/// The first n0 % size ranks own one row more (PETSc's PETSC_DECIDE split),
/// so blocks differ by at most one row and ranks beyond n0 own none.
#include <utility>

#include "../core/shape.hpp"

namespace sinter::mpi::detail {

/// Rows [first, last) of n0 that rank `rank` of `size` ranks owns.
constexpr std::pair<index_t, index_t> block_rows(index_t n0, int size, int rank) {
  const index_t s = size, r = rank;
  const index_t q = n0 / s, extra = n0 % s;
  const index_t first = r * q + (r < extra ? r : extra);
  return {first, first + q + (r < extra ? 1 : 0)};
}

/// The rank that owns global row `row` (0 <= row < n0) of n0 over `size` ranks.
constexpr int row_owner(index_t n0, int size, index_t row) {
  const index_t s = size;
  const index_t q = n0 / s, extra = n0 % s;
  const index_t big = extra * (q + 1);  // rows held by the ranks with one row more
  return static_cast<int>(row < big ? row / (q + 1) : extra + (row - big) / q);
}

}  // namespace sinter::mpi::detail
