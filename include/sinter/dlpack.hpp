#pragma once
/// \file dlpack.hpp
/// DLPack, the tensor exchange of NumPy, CuPy, PyTorch and JAX: to_dlpack
/// hands an array's memory to another framework without a copy, from_dlpack
/// views a framework's tensor. Optional: include <sinter/dlpack.hpp>. The
/// DLPack 1.1 header is vendored (third_party/dlpack, Apache-2.0): Debian's
/// libdlpack-dev is 0.6, without bool or the versioned struct that NumPy 2
/// and PyTorch 2 exchange. A dlpack.h of 1.0 or later included first is used.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "policy/cuda.hpp"
#include "policy/par.hpp"
#include "third_party/dlpack/dlpack.h"
#include "view.hpp"

#if !defined(DLPACK_MAJOR_VERSION) || DLPACK_MAJOR_VERSION < 1
#error "sinter/dlpack.hpp needs DLPack 1.0 or later; an older dlpack/dlpack.h was included before it (include sinter/dlpack.hpp first: it brings DLPack 1.1)"
#endif

namespace sinter {

namespace detail {

/// The DLPack data type of a sinter element type (half: float 16; bfloat16: bfloat 16; bool: bool 8).
template <class T>
constexpr DLDataType dl_dtype() {
  constexpr auto bits = static_cast<std::uint8_t>(8 * sizeof(T));
  if constexpr (std::is_same_v<T, bool>) return {static_cast<std::uint8_t>(kDLBool), 8, 1};
  else if constexpr (std::is_same_v<T, bfloat16>) return {static_cast<std::uint8_t>(kDLBfloat), 16, 1};
  else if constexpr (is_half_like_v<T> || std::is_floating_point_v<T>)
    return {static_cast<std::uint8_t>(kDLFloat), bits, 1};
  else if constexpr (std::is_signed_v<T>) return {static_cast<std::uint8_t>(kDLInt), bits, 1};
  else return {static_cast<std::uint8_t>(kDLUInt), bits, 1};
}

/// "float32", "bfloat16", "bool", "uint8", or the raw fields of a type sinter has not.
inline std::string dl_dtype_name(DLDataType t) {
  std::string kind;
  switch (t.code) {
    case kDLInt: kind = "int"; break;
    case kDLUInt: kind = "uint"; break;
    case kDLFloat: kind = "float"; break;
    case kDLBfloat: kind = "bfloat"; break;
    case kDLBool: kind = "bool"; break;
    case kDLComplex: kind = "complex"; break;
    default: kind = "code " + std::to_string(t.code) + " bits ";
  }
  std::string s = kind == "bool" && t.bits == 8 ? kind : kind + std::to_string(t.bits);
  if (t.lanes != 1) s += "x" + std::to_string(t.lanes);
  return s;
}

/// "cpu", "cuda:1", or the device type's number.
inline std::string dl_device_name(DLDevice d) {
  switch (d.device_type) {
    case kDLCPU: return "cpu";
    case kDLCUDA: return "cuda:" + std::to_string(d.device_id);
    case kDLCUDAHost: return "cuda_host";
    case kDLCUDAManaged: return "cuda_managed:" + std::to_string(d.device_id);
    default: return "device type " + std::to_string(static_cast<int>(d.device_type)) + ":" + std::to_string(d.device_id);
  }
}

/// The DLPack device of policy P's memory: the CPU for host and par, the policy's device for cuda.
template <class P>
DLDevice dl_device(const P& pol) {
  if constexpr (backend<P>::host_accessible) {
    (void)pol;
    return {kDLCPU, 0};
  } else {
    static_assert(std::is_same_v<P, cuda>, "sinter: DLPack exchange: only host, par and cuda memory");
    return {kDLCUDA, pol.device};
  }
}

/// A DLPack export: the managed struct, its shape and strides, and the owner of the memory.
template <class M, std::size_t R>
struct dl_export {
  M managed{};
  std::shared_ptr<const void> owner;
  std::int64_t shape[R ? R : 1]{};
  std::int64_t strides[R ? R : 1]{};
  static void destroy(M* self) { delete static_cast<dl_export*>(self->manager_ctx); }
};

template <class M>
inline constexpr bool dl_versioned_v = std::is_same_v<M, DLManagedTensorVersioned>;

/// A managed tensor describing (data, shape, strides) in P's memory, owning `owner`.
/// A cuda export waits for its stream first, so the data is ready on any stream.
template <class M, class T, std::size_t R, class P>
M* dl_make(T* data, const extents<R>& shape, const extents<R>& strides, const P& pol,
           std::shared_ptr<const void> owner) {
  if constexpr (std::is_same_v<P, cuda>) {
#if SINTER_HAS_CUDA()
    synchronize(pol);
#endif
  }
  auto* h = new dl_export<M, R>;
  h->owner = std::move(owner);
  for (std::size_t d = 0; d != R; ++d) {
    h->shape[d] = shape[d];
    h->strides[d] = strides[d];
  }
  DLTensor& t = h->managed.dl_tensor;
  t.data = const_cast<std::remove_const_t<T>*>(data);
  t.device = dl_device(pol);
  t.ndim = static_cast<std::int32_t>(R);
  t.dtype = dl_dtype<std::remove_const_t<T>>();
  t.shape = h->shape;
  t.strides = h->strides;
  t.byte_offset = 0;
  h->managed.manager_ctx = h;
  h->managed.deleter = &dl_export<M, R>::destroy;
  if constexpr (dl_versioned_v<M>) {
    h->managed.version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
    h->managed.flags = std::is_const_v<T> ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  }
  return &h->managed;
}

template <class T>
inline constexpr bool is_sinter_array_v = false;
template <class T, std::size_t R, class P>
inline constexpr bool is_sinter_array_v<array<T, R, P>> = true;

template <class M, class E>
M* dl_export_any(E&& e) {
  using D = std::remove_cvref_t<E>;
  if constexpr (is_sinter_array_v<D>) {
    static_assert(std::is_rvalue_reference_v<E&&> && !std::is_const_v<std::remove_reference_t<E>>,
                  "sinter::to_dlpack: an array is exported by handing its buffer over: "
                  "to_dlpack(std::move(a)); to keep `a`, export a copy, to_dlpack(sinter::eval(a)), "
                  "or share it: to_dlpack(std::make_shared<array>(...))");
    auto keep = std::make_shared<D>(std::move(e));
    const D& a = *keep;
    return dl_make<M>(a.data(), a.shape(), a.strides(), a.policy(), std::move(keep));
  } else {
    return dl_export_any<M>(eval(std::forward<E>(e)));
  }
}

}  // namespace detail

/// Export without a copy: `to_dlpack(std::move(a))` hands a's buffer over
/// (a is left empty); the memory lives until the consumer calls the
/// deleter. An expression or a view is evaluated into a new array first.
/// cuda: waits for the array's stream, so any consumer stream may read it.
template <expression E>
DLManagedTensor* to_dlpack(E&& e) {
  return detail::dl_export_any<DLManagedTensor>(std::forward<E>(e));
}
/// Export an array shared with the caller: the buffer lives until the last of
/// the shared_ptr's copies and the consumer's deleter is gone.
template <class T, std::size_t R, class P>
DLManagedTensor* to_dlpack(std::shared_ptr<array<T, R, P>> a) {
  auto& r = *a;
  return detail::dl_make<DLManagedTensor>(r.data(), r.shape(), r.strides(), r.policy(), std::move(a));
}
/// Export a view in place (strides, negative ones too), with `owner` keeping
/// its memory alive until the deleter runs (the view's array in a shared_ptr).
template <class T, std::size_t R, class P>
DLManagedTensor* to_dlpack(const view<T, R, P>& v, std::shared_ptr<const void> owner) {
  return detail::dl_make<DLManagedTensor>(v.data(), v.shape(), v.strides(), v.policy(), std::move(owner));
}

/// to_dlpack, as the versioned struct of DLPack 1.x (a view of const T is flagged read-only).
template <expression E>
DLManagedTensorVersioned* to_dlpack_versioned(E&& e) {
  return detail::dl_export_any<DLManagedTensorVersioned>(std::forward<E>(e));
}
/// to_dlpack of a shared array, as the versioned struct.
template <class T, std::size_t R, class P>
DLManagedTensorVersioned* to_dlpack_versioned(std::shared_ptr<array<T, R, P>> a) {
  auto& r = *a;
  return detail::dl_make<DLManagedTensorVersioned>(r.data(), r.shape(), r.strides(), r.policy(), std::move(a));
}
/// to_dlpack of a view with its owner, as the versioned struct.
template <class T, std::size_t R, class P>
DLManagedTensorVersioned* to_dlpack_versioned(const view<T, R, P>& v, std::shared_ptr<const void> owner) {
  return detail::dl_make<DLManagedTensorVersioned>(v.data(), v.shape(), v.strides(), v.policy(),
                                                   std::move(owner));
}

/// A view of an imported DLPack tensor that owns it: copies share it, and
/// the producer's deleter runs once, when the last copy (and every
/// expression a copy was moved into) is gone. Reads and writes as a view.
template <class T, std::size_t R, class P = host>
class dlpack_view {
 public:
  using value_type = std::remove_const_t<T>;
  using element_type = T;
  using policy_type = P;
  using shape_type = extents<R>;
  static constexpr std::size_t rank = R;

  /// A view and the owner of its memory (from_dlpack builds these).
  dlpack_view(const sinter::view<T, R, P>& v, std::shared_ptr<void> keep) : v_(v), keep_(std::move(keep)) {}

  /// The plain view (valid while this object or a copy lives).
  const sinter::view<T, R, P>& view() const { return v_; }
  operator sinter::view<T, R, P>() const { return v_; }
  /// The owner of the tensor: the deleter runs when its last copy is gone.
  const std::shared_ptr<void>& owner() const { return keep_; }
  /// Extents.
  const extents<R>& shape() const { return v_.shape(); }
  /// Strides in elements (DLPack's own unit).
  const extents<R>& strides() const { return v_.strides(); }
  /// Number of elements.
  index_t size() const { return v_.size(); }
  /// The first element (data + byte_offset).
  T* data() const { return v_.data(); }
  /// The policy the view runs on.
  const P& policy() const { return v_.policy(); }

  /// Index as a view.
  template <detail::index_arg... A>
  decltype(auto) operator()(const A&... a) const {
    return v_(a...);
  }
  /// Evaluate into the tensor's elements (T not const).
  template <operand E>
  dlpack_view& operator=(E&& e) {
    v_ = std::forward<E>(e);
    return *this;
  }
  dlpack_view(const dlpack_view&) = default;
  dlpack_view(dlpack_view&&) noexcept = default;
  /// Rebinds (shares the other tensor); assign elements with `v.view() = x`.
  dlpack_view& operator=(const dlpack_view&) = default;
  dlpack_view& operator=(dlpack_view&&) noexcept = default;

  /// The expression leaf reading the tensor (references it, as an lvalue array).
  auto as_expr() const& { return v_.as_expr(); }
  /// Moved into an expression, the tensor lives as long as the expression.
  auto as_owning_expr() && {
    return expr<detail::memory_leaf<const value_type, R>, P, 1>(
        {v_.data(), v_.shape(), v_.strides()}, {std::shared_ptr<const void>(std::move(keep_))});
  }

 private:
  sinter::view<T, R, P> v_;
  std::shared_ptr<void> keep_;
};

namespace detail {

/// The checks of an import that do not depend on the element type
/// (out of line: one copy for every T, R and P). Throws; returns the first element.
SINTER_NOINLINE char* dl_check(const DLTensor& t, DLDataType want, std::size_t rank, DLDevice want_dev,
                                      const std::string& policy_label, std::size_t align) {
  const std::string who = "sinter::from_dlpack";
  if (t.dtype.code != want.code || t.dtype.bits != want.bits || t.dtype.lanes != want.lanes)
    throw value_error(who + ": dtype " + dl_dtype_name(t.dtype) + " found, " + dl_dtype_name(want) +
                      " expected; import with the tensor's element type, then sinter::cast");
  if (t.ndim != static_cast<std::int32_t>(rank))
    throw value_error(who + ": rank " + std::to_string(t.ndim) + " found, " + std::to_string(rank) +
                      " expected; import with the tensor's rank, then reshape");
  const bool host_ok = want_dev.device_type == kDLCPU &&
                       (t.device.device_type == kDLCPU || t.device.device_type == kDLCUDAHost);
  const bool dev_ok = want_dev.device_type == kDLCUDA && t.device.device_type == kDLCUDA &&
                      t.device.device_id == want_dev.device_id;
  if (!host_ok && !dev_ok)
    throw device_error(who + ": memory on " + dl_device_name(t.device) + " found, " + dl_device_name(want_dev) +
                       " expected (" + policy_label + "); import with the policy of the tensor's device, then sinter::to<P>");
  for (std::size_t d = 0; d != rank; ++d)
    if (t.shape[d] < 0)
      throw value_error(who + ": axis " + std::to_string(d) + " has negative extent " + std::to_string(t.shape[d]) +
                        "; the producer's tensor is malformed");
  char* base = static_cast<char*>(t.data) + t.byte_offset;
  if (reinterpret_cast<std::uintptr_t>(base) % align != 0)
    throw value_error(who + ": data + byte_offset " + std::to_string(t.byte_offset) + " is not aligned to " +
                      std::to_string(align) + " bytes; copy the tensor first");
  return base;
}

/// The versioned struct's own checks: its major version, and its read-only flag against a non-const T.
SINTER_NOINLINE void dl_check_version(const DLManagedTensorVersioned& m, bool writable, DLDataType want) {
  const std::string who = "sinter::from_dlpack";
  if (m.version.major != DLPACK_MAJOR_VERSION)
    throw value_error(who + ": DLPack version " + std::to_string(m.version.major) + "." +
                      std::to_string(m.version.minor) + " found, " + std::to_string(DLPACK_MAJOR_VERSION) +
                      ".x expected; ask the producer for DLPack " + std::to_string(DLPACK_MAJOR_VERSION));
  if ((m.flags & DLPACK_FLAG_BITMASK_READ_ONLY) && writable)
    throw value_error(who + ": the tensor is read-only; import it as const (from_dlpack<const " +
                      dl_dtype_name(want) + ", ...>)");
}

template <class T, std::size_t R, class P, class M>
dlpack_view<T, R, P> dl_import(M* m, const P& pol) {
  using V = std::remove_const_t<T>;
  if (!m) throw value_error("sinter::from_dlpack: null tensor; pass the pointer the producer returned");
  // Owned from here: any throw below runs the deleter, once.
  std::shared_ptr<void> keep(static_cast<void*>(m), [](void* p) {
    auto* t = static_cast<M*>(p);
    if (t->deleter) t->deleter(t);
  });
  if constexpr (dl_versioned_v<M>) dl_check_version(*m, !std::is_const_v<T>, dl_dtype<V>());
  const DLTensor& t = m->dl_tensor;
  char* base = dl_check(t, dl_dtype<V>(), R, dl_device(pol), backend<P>::label(pol), alignof(V));
  extents<R> shape{}, strides{};
  for (std::size_t d = 0; d != R; ++d) shape[d] = t.shape[d];
  // No strides: compact row-major (DLPack's rule).
  strides = row_major_strides(shape);
  for (std::size_t d = 0; d != R && t.strides; ++d) strides[d] = t.strides[d];
  return dlpack_view<T, R, P>(sinter::view<T, R, P>(reinterpret_cast<T*>(base), shape, strides, pol),
                              std::move(keep));
}

}  // namespace detail

/// Import a DLPack tensor as a view owning it (no copy): element type T
/// (const T for a read-only tensor), rank R, policy P (host or par for CPU
/// memory, cuda on the tensor's device). Takes ownership of `t` whatever
/// happens: a mismatch in dtype or rank throws value_error, in device
/// device_error, after the deleter ran. cuda: the producer must have made
/// the data ready on `pol.stream` (DLPack's stream exchange).
template <class T, std::size_t R, class P = host>
dlpack_view<T, R, P> from_dlpack(DLManagedTensor* t, P pol = {}) {
  return detail::dl_import<T, R, P>(t, pol);
}
/// from_dlpack of the versioned struct (DLPack 1.x): a major version other than
/// this header's, or a read-only tensor imported as non-const T, throws value_error.
template <class T, std::size_t R, class P = host>
dlpack_view<T, R, P> from_dlpack(DLManagedTensorVersioned* t, P pol = {}) {
  return detail::dl_import<T, R, P>(t, pol);
}

}  // namespace sinter
