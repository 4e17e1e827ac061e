// Reductions of half, bfloat16 and bool arrays, host and
// par (par on the dtypes given a shape large enough for its threads):
// every reduction in full and along every axis choice of ranks 1-3 against a
// double reference (tolerances justified in support/reduce_check.hpp).
#include <doctest/doctest.h>

#include "support/reduce_check.hpp"
#include "support/scale.hpp"

#include <sinter/sinter.hpp>

namespace st = sinter;
using sinter_test::check_dtype;

// > 2 * par_grain elements, so par's parallel axis path runs (Release only).
// par is checked on the dtypes given this shape; on small shapes alone it
// runs host's code (support/reduce_check.hpp, check_dtype).
#define SINTER_TEST_BIG3 {sinter_test::scale == 1 ? 41 : 5, 43, 47}

TEST_CASE_TEMPLATE("reduce: half, every reduction and axis choice", P, st::host, st::par) {
  check_dtype<st::half, P>(SINTER_TEST_BIG3);
}
TEST_CASE_TEMPLATE("reduce: bfloat16, every reduction and axis choice", P, st::host) {
  check_dtype<st::bfloat16, P>();
}
TEST_CASE_TEMPLATE("reduce: bool, every reduction and axis choice", P, st::host, st::par) {
  check_dtype<bool, P>(SINTER_TEST_BIG3);
}
