// The compile-time tree fold (core/tree_fold.hpp) and the walkers written
// as visitors on it, on hand-built trees whose answers are counted by hand:
// depth, leaf counts and sizes, occurrences of a subtree, the shared and
// twin subexpressions, a trace pattern, and cursor trees (plain arithmetic,
// operation counts through a shift_cursor).
#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <sinter/sinter.hpp>

namespace tree_fold_test {

namespace sd = sinter::detail;
namespace ops = sinter::detail::ops;

using fa = sd::memory_leaf<const float, 1, true>;   // a whole float array
using fv = sd::memory_leaf<const float, 2, false>;  // a float view
using da = sd::memory_leaf<const double, 1, true>;  // a whole double array
using fs = sd::scalar_leaf<float>;
template <class F, class... A>
using node = sd::map_node<F, A...>;

// d = log(a / a2): one costly call; the tree below writes it three times.
using d = node<ops::log, node<ops::div, fa, fa>>;
// (d * d) + sqrt(d) + 2: d three times, a twin pair (d * d).
using big = node<ops::add, node<ops::add, node<ops::mul, d, d>, node<ops::sqrt, d>>, fs>;
// exp(view) * double array + scalar: a mixed tree.
using mixed = node<ops::add, node<ops::mul, node<ops::exp, fv>, da>, fs>;

template <class L>
struct is_scalar : std::false_type {};
template <class T>
struct is_scalar<sd::scalar_leaf<T>> : std::true_type {};
template <class C>
struct is_unit : std::false_type {};
template <class T>
struct is_unit<sd::unit_cursor<T>> : std::true_type {};
template <class L>
struct elem_size : std::integral_constant<std::size_t, sd::is_memory_leaf<L>::value ? sizeof(typename L::value_type) : 0> {};

TEST_CASE("tree_fold: depth, leaf counts and sizes of hand-built trees") {
  CHECK(sd::fold_tree_v<sd::depth_fold, fa> == 1);
  CHECK(sd::fold_tree_v<sd::depth_fold, d> == 3);
  CHECK(sd::fold_tree_v<sd::depth_fold, big> == 6);
  CHECK(sd::fold_tree_v<sd::depth_fold, mixed> == 4);

  CHECK(sd::fold_tree_v<sd::sum_leaves_fold<sd::is_memory_leaf>, big> == 6);
  CHECK(sd::fold_tree_v<sd::sum_leaves_fold<is_scalar>, big> == 1);
  CHECK(sd::fold_tree_v<sd::sum_leaves_fold<sd::is_memory_leaf>, mixed> == 2);
  CHECK(sd::fold_tree_v<sd::sum_leaves_fold<sd::is_memory_leaf>, fs> == 0);

  CHECK(sd::fold_tree_v<sd::max_leaf_fold<elem_size>, big> == sizeof(float));
  CHECK(sd::fold_tree_v<sd::max_leaf_fold<elem_size>, mixed> == sizeof(double));
  CHECK(sd::fold_tree_v<sd::max_leaf_fold<elem_size>, fs> == 0);

  CHECK(sd::fold_tree_v<sd::all_leaves_fold<sd::is_memory_leaf>, d>);
  CHECK(!sd::fold_tree_v<sd::all_leaves_fold<sd::is_memory_leaf>, big>);
  CHECK(sd::fold_tree_v<sd::any_leaf_fold<is_scalar>, mixed>);
  CHECK(!sd::fold_tree_v<sd::any_leaf_fold<is_scalar>, d>);
}

TEST_CASE("tree_fold: occurrences, shared and twin subexpressions") {
  CHECK(sd::occurrences_v<d, big> == 3);
  CHECK(sd::occurrences_v<fa, big> == 6);
  CHECK(sd::occurrences_v<fs, big> == 1);
  CHECK(sd::occurrences_v<big, big> == 1);
  CHECK(sd::occurrences_v<fv, big> == 0);
  CHECK(sd::occurrences_v<node<ops::mul, d, d>, big> == 1);

  // nodes: d has 4 (log, div, two leaves); big 1 + 1 + (1 + 4 + 4) + (1 + 4) + 1.
  CHECK(sd::tree_facts<d>::size == 4);
  CHECK(sd::tree_facts<d>::calls == 1);
  CHECK(sd::tree_facts<big>::size == 17);
  CHECK(sd::tree_facts<big>::calls == 4);  // three logs and a sqrt
  CHECK(sd::tree_facts<mixed>::calls == 1);

  CHECK(std::is_same_v<sd::shared_t<big>, d>);
  CHECK(sd::has_shared_v<big>);
  CHECK(!sd::has_shared_v<mixed>);
  CHECK(!sd::has_shared_v<d>);

  CHECK(sd::twin_traits<node<ops::mul, d, d>>::pair);
  CHECK(!sd::twin_traits<big>::pair);
  CHECK(sd::has_twins_v<big>);
  CHECK(!sd::has_twins_v<node<ops::mul, fa, fa>>);  // leaves do not pair
  CHECK(!sd::has_twins_v<node<ops::add, d, d>>);    // only products pair
  CHECK(!sd::has_twins_v<mixed>);
}

TEST_CASE("tree_fold: trace pattern and the host walkers") {
  CHECK(std::string(sd::pattern_of<big>::text.data()) ==
        "add(add(multiply(log(divide(\x01, \x01)), log(divide(\x01, \x01))), sqrt(log(divide(\x01, \x01)))), "
        "scalar<float32>)");
  CHECK(sd::pattern_of<big>::leaves == 6);
  CHECK(std::string(sd::pattern_of<mixed>::text.data()) == "add(multiply(exp(\x01), \x01), scalar<float32>)");

  CHECK(sd::step2_possible_v<node<ops::add, fv, fs>>);
  CHECK(!sd::step2_possible_v<mixed>);  // holds a whole array
  CHECK(sd::bufferable_v<mixed>);
  CHECK(sd::leaf_count_v<big> == 6);
  CHECK(sd::leaf_count_v<mixed> == 2);
  CHECK(sd::leaf_size_v<mixed> == sizeof(double));
  CHECK(sd::leaf_size_v<fs> == 0);
  CHECK(sd::lagged_sliceable_v<mixed>);
  CHECK(sd::lagged_has_view_v<mixed>);
  CHECK(!sd::lagged_has_view_v<big>);
}

TEST_CASE("tree_fold: cursor trees") {
  using uc = sd::unit_cursor<const float>;
  using plain = sd::map_cursor<ops::add, sd::map_cursor<ops::mul, uc, uc>, fs>;
  using costly = sd::map_cursor<ops::add, sd::map_cursor<ops::exp, uc>, fs>;
#if SINTER_DETAIL_VEC_LANES
  // reductions' plain lanes (GCC only)
  CHECK(sd::reduce_host::plain_cursor_v<plain>);
  CHECK(!sd::reduce_host::plain_cursor_v<costly>);
#endif
  CHECK(sd::fold_tree_v<sd::sum_leaves_fold<is_unit>, plain> == 2);
  CHECK(sd::fold_tree_v<sd::sum_leaves_fold<is_unit>, costly> == 1);
  CHECK(sd::cursor_ops_v<uc> == 0);
  CHECK(sd::cursor_ops_v<plain> == 2);
  // a shift_cursor counts the operations of the cursor it shifts
  using shifted = sd::map_cursor<ops::sub, sd::shift_cursor<plain>, sd::map_cursor<ops::neg, uc>>;
  CHECK(sd::cursor_ops_v<shifted> == 4);
  CHECK(sd::fold_tree_v<sd::depth_fold, plain> == 3);
}

TEST_CASE("tree_fold: the bound tree of a real expression") {
  sinter::array<float, 1> a({5}), b({5});
  [[maybe_unused]] const auto e = sinter::exp(a - b) * (a - b) + 1.0f;  // only its type is read
  using N = typename std::remove_cvref_t<decltype(e)>::node_type;
  CHECK(sd::fold_tree_v<sd::depth_fold, N> == 5);
  CHECK(sd::leaf_count_v<N> == 4);
  CHECK(sd::tree_facts<N>::calls == 1);
  CHECK(sd::pattern_of<N>::leaves == 4);
  CHECK(std::string(sd::pattern_of<N>::text.data()) ==
        "add(multiply(exp(subtract(\x01, \x01)), subtract(\x01, \x01)), scalar<float32>)");
}

}  // namespace tree_fold_test
