#pragma once
/// \file describe.hpp
/// What the trace says of a pass's expression: its text,
/// "exp(add(float32[4], float32[4]))", and the bytes its memory inputs hold.
/// The text's fixed part (names, parentheses, scalars) is a constant per
/// expression type, built at compile time; the leaves' labels are filled in
/// at run time by one function for the whole program. Traced passes are
/// rare, so each expression compiles only a few stores and a call for its
/// record. Before, a recursive description function per node type, a
/// tally of the inputs per tree and the record's strings per expression
/// cost compile time (docs/journal/code-notes.md#describe-compile-time).
#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/leaf.hpp"
#include "core/map_node.hpp"
#include "core/tree_fold.hpp"

namespace sinter::detail {

/// Where a leaf's label goes in an expression's pattern.
inline constexpr char leaf_mark = '\x01';

/// What the trace needs of one leaf of a pass: dtype and shape, for its
/// label; for a memory leaf its address and element size, for the bytes
/// read (`ptr` is null for a generator).
struct leaf_note {
  const char* dtype;
  const index_t* shape;
  std::size_t rank;
  const void* ptr;
  std::size_t elem;
};

/// Appends the characters of `text` to out[n...] (counts them only when
/// out is null).
constexpr void put_text(char* out, std::size_t& n, const char* text) {
  for (; *text; ++text, ++n)
    if (out) out[n] = *text;
}

/// A leaf's part of a pattern: a leaf_mark for a memory leaf,
/// "name<\1>" for a generator, "scalar<dtype>" for a scalar.
template <class L>
struct pattern_leaf {
  /// Writes it to out[n...] (counts it only when out is null).
  static constexpr void write(char* out, std::size_t& n) {
    if constexpr (is_memory_leaf<L>::value) {
      put_text(out, n, "\x01");
    } else if constexpr (requires(const L& x) { x.gen; }) {
      put_text(out, n, decltype(std::declval<const L&>().gen)::name);
      put_text(out, n, "<\x01>");
    } else {
      put_text(out, n, "scalar<");
      put_text(out, n, dtype_name<std::remove_const_t<typename L::value_type>>());
      put_text(out, n, ">");
    }
  }
};

/// A map node's part of a pattern: "name(" (or "map("), its children's
/// parts R... separated by ", ", then ")".
template <class F, class... R>
struct pattern_node {
  /// Writes it to out[n...] (counts it only when out is null).
  static constexpr void write(char* out, std::size_t& n) {
    if constexpr (requires { F::name; }) put_text(out, n, F::name);
    else put_text(out, n, "map");
    put_text(out, n, "(");
    [[maybe_unused]] std::size_t i = 0;
    ((put_text(out, n, i++ ? ", " : ""), R::write(out, n)), ...);
    put_text(out, n, ")");
  }
};

/// Visitor (core/tree_fold.hpp): a tree's pattern, "exp(add(\1, \1))" with
/// a leaf_mark per memory or generator leaf.
struct pattern_fold {
  template <class L>
  using leaf = pattern_leaf<L>;
  template <class N, class F, class... R>
  using node = pattern_node<F, R...>;
};

/// Writes Node's pattern to out[n...] (counts it only when out is null).
template <class Node>
constexpr void write_pattern(char* out, std::size_t& n) {
  fold_tree_t<pattern_fold, Node>::write(out, n);
}

/// Node's pattern as a constant: `text.data()`, NUL-terminated, and the
/// number of leaves it marks.
template <class Node>
struct pattern_of {
  static constexpr std::size_t size = [] {
    std::size_t n = 0;
    write_pattern<Node>(nullptr, n);
    return n;
  }();
  static constexpr std::array<char, size + 1> text = [] {
    std::array<char, size + 1> a{};
    std::size_t n = 0;
    write_pattern<Node>(a.data(), n);
    return a;
  }();
  static constexpr std::size_t leaves = static_cast<std::size_t>(std::count(text.begin(), text.end(), leaf_mark));
};

/// Writes node's leaves, in the pattern's order, to out[0...) and returns
/// the end (a few stores per leaf).
template <class Node>
SINTER_FORCEINLINE leaf_note* note_leaves(const Node& node, leaf_note* out) {
  for_each_leaf(node, [&](const auto& l) {
    using L = std::remove_cvref_t<decltype(l)>;
    using V = std::remove_const_t<typename L::value_type>;
    if constexpr (is_memory_leaf<L>::value)
      *out++ = {dtype_name<V>(), l.shape.data(), l.shape.size(), l.ptr, sizeof(V)};
    else if constexpr (requires { l.gen; })
      *out++ = {dtype_name<V>(), l.shape.data(), l.shape.size(), nullptr, 0};
  });
  return out;
}

/// Appends `pattern` to `s`, each leaf_mark replaced by the next note's
/// label, "float32[3,4]" (out of line: one copy per program).
SINTER_NOINLINE void append_pattern(std::string& s, const char* pattern, const leaf_note* notes) {
  for (; *pattern; ++pattern) {
    if (*pattern != leaf_mark) {
      s += *pattern;
      continue;
    }
    append_leaf_label(s, notes->dtype, notes->shape, notes->rank);
    ++notes;
  }
}

/// Bytes of the distinct memory leaves among notes[0, n): each buffer and
/// extent counted once (out of line: one copy per program).
SINTER_NOINLINE std::size_t noted_bytes(const leaf_note* notes, std::size_t n) {
  std::vector<std::pair<const void*, index_t>> seen;
  std::size_t total = 0;
  for (std::size_t k = 0; k != n; ++k) {
    if (!notes[k].ptr) continue;
    index_t count = 1;
    for (std::size_t d = 0; d != notes[k].rank; ++d) count *= notes[k].shape[d];
    const std::pair<const void*, index_t> key{notes[k].ptr, count};
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    total += static_cast<std::size_t>(count) * notes[k].elem;
  }
  return total;
}

/// Appends n's description, "exp(add(float32[4], float32[4]))", to `s`.
template <class Node>
SINTER_COLD void describe_into(std::string& s, const Node& n) {
  leaf_note notes[pattern_of<Node>::leaves + 1]{};
  note_leaves(n, notes);
  append_pattern(s, pattern_of<Node>::text.data(), notes);
}

/// Bytes of the distinct memory inputs of one or more trees (each buffer
/// and extent counted once over all of them).
template <class... Node>
SINTER_COLD std::size_t input_bytes(const Node&... n) {
  leaf_note notes[(0 + ... + pattern_of<Node>::leaves) + 1]{};
  leaf_note* end = notes;
  ((end = note_leaves(n, end)), ...);
  return noted_bytes(notes, static_cast<std::size_t>(end - notes));
}

}  // namespace sinter::detail
