// Python objects in the library's hands: kept by threads that may drop them without the GIL, and
// read as bytes.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string_view>
#include <utility>

namespace pgnarc::python {

namespace py = pybind11;

// `object` shared by C++ code that may drop the last copy on any thread: released with the GIL
// held.
template <class T>
std::shared_ptr<T> shared_with_gil(T object) {
  return std::shared_ptr<T>(new T(std::move(object)), [](T* o) {
    py::gil_scoped_acquire acquire;
    delete o;
  });
}

// The bytes of `got` (bytes, bytearray, memoryview: any buffer), valid while it lives; a
// std::exception if it is not a buffer. Called with the GIL held.
inline std::string_view buffer_bytes(const py::object& got) {
  const py::buffer_info b = py::buffer(got).request();
  return {static_cast<const char*>(b.ptr), static_cast<std::size_t>(b.size * b.itemsize)};
}

}  // namespace pgnarc::python
