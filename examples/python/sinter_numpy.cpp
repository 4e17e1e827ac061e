// sinter_numpy: a pybind11 module that runs a fused sinter expression on
// NumPy arrays without copying in either direction.
//   import sinter_numpy as sn
//   r = sn.hypot_scaled(a, b, 0.5)     # a, b: float64 NumPy arrays, any strides
//   r = np.from_dlpack(sn.hypot_dlpack(a, b, 0.5))   # the same through DLPack
// Inputs are read in place through the buffer protocol (strides, negative
// ones too, become a sinter::view) or through __dlpack__ (from_dlpack);
// the result is a sinter::array whose buffer NumPy then owns: a capsule
// holds the array, and NumPy's base object keeps the capsule.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <sinter/dlpack.hpp>
#include <sinter/sinter.hpp>
#include <string>

namespace py = pybind11;

namespace {

using vec = sinter::view<const double, 1>;

/// A 1-D float64 NumPy array as a sinter view of its memory (no copy).
vec view_of(const py::array_t<double>& a) {
  if (a.ndim() != 1) throw py::value_error("sinter_numpy: 1-D arrays expected, got ndim " + std::to_string(a.ndim()));
  const auto stride = a.strides(0);
  if (stride % static_cast<py::ssize_t>(sizeof(double)) != 0)
    throw py::value_error("sinter_numpy: stride not a multiple of 8 bytes; pass a copy");
  return vec(a.data(), {a.shape(0)}, {stride / static_cast<py::ssize_t>(sizeof(double))});
}

/// The fused expression: one pass, no temporaries.
template <class A, class B>
sinter::array<double, 1> hypot_scaled_of(const A& a, const B& b, double s) {
  return sinter::array<double, 1>(sinter::sqrt(a * a + b * b) * s);
}

/// A NumPy array owning a sinter array's buffer (a capsule holds the array).
py::array to_numpy(sinter::array<double, 1>&& r) {
  auto* keep = new sinter::array<double, 1>(std::move(r));
  py::capsule owner(keep, [](void* p) { delete static_cast<sinter::array<double, 1>*>(p); });
  return py::array_t<double>({keep->shape(0)}, {static_cast<py::ssize_t>(sizeof(double))}, keep->data(), owner);
}

/// The capsule of a DLPack export: its destructor calls the deleter unless
/// a consumer took the tensor and renamed the capsule "used_...", as the protocol says.
template <class M>
py::capsule dlpack_capsule(M* t, const char* name) {
  return py::capsule(t, name, [](PyObject* cap) {
    const char* n = PyCapsule_GetName(cap);
    if (n && (std::string(n) == "dltensor" || std::string(n) == "dltensor_versioned")) {
      auto* m = static_cast<M*>(PyCapsule_GetPointer(cap, n));
      if (m && m->deleter) m->deleter(m);
    }
  });
}

/// A sinter result handed out through DLPack: np.from_dlpack(obj) calls these.
/// A consumer that asks for DLPack 1.x (max_version, NumPy 2) gets the
/// versioned struct, an older one (NumPy 1.x) the legacy one.
struct dlpack_result {
  std::shared_ptr<sinter::array<double, 1>> a;
  std::string exported;  ///< "versioned" or "legacy": what the last consumer asked for
  py::capsule dlpack(const py::kwargs& kw) {
    bool versioned = false;
    if (kw.contains("max_version") && !kw["max_version"].is_none())
      versioned = kw["max_version"].cast<py::tuple>()[0].cast<int>() >= 1;
    exported = versioned ? "versioned" : "legacy";
    if (versioned) return dlpack_capsule(sinter::to_dlpack_versioned(a), "dltensor_versioned");
    return dlpack_capsule(sinter::to_dlpack(a), "dltensor");
  }
  py::tuple device() const { return py::make_tuple(static_cast<int>(kDLCPU), 0); }
};

/// A view of whatever exposes __dlpack__ (NumPy, PyTorch, CuPy on the CPU...):
/// the versioned struct where the producer knows DLPack 1.x, else the legacy one.
sinter::dlpack_view<const double, 1> import_dlpack(const py::object& x) {
  py::object cap;
  try {
    cap = x.attr("__dlpack__")(py::arg("max_version") = py::make_tuple(DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION));
  } catch (const py::error_already_set& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    cap = x.attr("__dlpack__")();  // a producer before DLPack 1.0: no max_version
  }
  if (PyCapsule_IsValid(cap.ptr(), "dltensor_versioned")) {
    auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(cap.ptr(), "dltensor_versioned"));
    PyCapsule_SetName(cap.ptr(), "used_dltensor_versioned");  // ours now: from_dlpack calls the deleter once
    return sinter::from_dlpack<const double, 1>(m);
  }
  auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap.ptr(), "dltensor"));
  if (!m) throw py::error_already_set();
  PyCapsule_SetName(cap.ptr(), "used_dltensor");
  return sinter::from_dlpack<const double, 1>(m);
}

}  // namespace

PYBIND11_MODULE(sinter_numpy, m) {
  m.doc() = "sinter from NumPy without copies: a fused sqrt(a*a + b*b) * s";
  py::register_exception<sinter::value_error>(m, "ValueError", PyExc_ValueError);
  py::register_exception<sinter::device_error>(m, "DeviceError", PyExc_RuntimeError);

  // py::array_t<double> without forcecast: a float64 array is taken as is
  // (never copied); another dtype is a TypeError, not a silent conversion.
  m.def(
      "hypot_scaled",
      [](py::array_t<double, 0> a, py::array_t<double, 0> b, double s) {
        return to_numpy(hypot_scaled_of(view_of(a), view_of(b), s));
      },
      py::arg("a").noconvert(), py::arg("b").noconvert(), py::arg("s"));
  m.def(
      "scale_inplace",
      [](py::array_t<double, 0> a, double s) {
        if (!a.writeable()) throw py::value_error("sinter_numpy: read-only array");
        auto v = view_of(a);
        sinter::view<double, 1>(const_cast<double*>(v.data()), v.shape(), v.strides()) *= s;
      },
      py::arg("a").noconvert(), py::arg("s"));

  py::class_<dlpack_result>(m, "Result")
      .def("__dlpack__", &dlpack_result::dlpack)
      .def("__dlpack_device__", &dlpack_result::device)
      .def_property_readonly("data_pointer", [](const dlpack_result& r) {
        return reinterpret_cast<std::uintptr_t>(r.a->data());
      })
      .def_readonly("exported", &dlpack_result::exported);
  m.def("hypot_dlpack", [](const py::object& a, const py::object& b, double s) {
    auto va = import_dlpack(a), vb = import_dlpack(b);
    return dlpack_result{std::make_shared<sinter::array<double, 1>>(hypot_scaled_of(va, vb, s)), ""};
  });

  // sinter's host memory accounting, for the lifetime checks.
  m.def("host_bytes_in_use", [] { return sinter::host_memory_stats().in_use; });
  m.def("allocations", [] { return sinter::detail::allocations_made.load(); });
}
