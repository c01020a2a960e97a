// The package's errors and strings: the library's Error as a Python exception, bytes as str, and
// a variant's name as the rules it names.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc::python {

namespace py = pybind11;

// pgnarc.Error (a ValueError): a file that is not an archive, a damaged or unsupported archive,
// input pgnarc cannot read. Its message says where, as the command line's do.
struct ArchiveError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// OSError: the operating system (or a read function) refused: open, read, write, rename.
struct IoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void raise(const Error& e) {
  if (e.code() == ErrorCode::IO) throw IoError(e.message());
  throw ArchiveError(std::string(to_string(e.code())) + ": " + e.message());
}

template <class T>
T value_or_raise(Result<T> r) {
  if (!r) raise(r.error());
  return std::move(*r);
}

inline void ok_or_raise(const Status& st) {
  if (!st) raise(st.error());
}

// The rules `name` names, as a Variant tag does ("Crazyhouse", "crazyhouse", "Three-check"...;
// "" standard chess); ValueError if none.
inline Variant variant_named(const std::string& name) {
  Variant v = Variant::kStandard;
  if (!name.empty() && !variant_of_tag(name, v)) throw py::value_error("unknown variant '" + name + "'");
  return v;
}

// How text that is not UTF-8 becomes str (pgnarc.open's `encoding`).
enum class TextMode : std::uint8_t {
  kLossless,  // "surrogateescape": s.encode("utf-8", "surrogateescape") gives the bytes back
  kLatin1,    // "latin-1": text that is not UTF-8 is read as Latin-1
  kReplace,   // "replace": U+FFFD for each byte that is not UTF-8
  kGb18030,   // "gb18030": text that is not UTF-8 is read as GB18030 (GBK, GB2312)
  kBig5,      // "big5": text that is not UTF-8 is read as Big5 (Python's cp950, Microsoft's Big5)
};

// The mode `encoding` names; ValueError for any other name.
inline TextMode text_mode(const std::string& encoding) {
  if (encoding == "surrogateescape") return TextMode::kLossless;
  if (encoding == "latin-1") return TextMode::kLatin1;
  if (encoding == "replace") return TextMode::kReplace;
  if (encoding == "gb18030") return TextMode::kGb18030;
  if (encoding == "big5") return TextMode::kBig5;
  throw py::value_error("encoding must be 'surrogateescape', 'latin-1', 'replace', 'gb18030' or 'big5', not '" + encoding +
                        "'");
}

// `bytes` as str: UTF-8, and what is not UTF-8 as `mode` says.
inline py::str text(std::string_view bytes, TextMode mode = TextMode::kLossless) {
  const auto size = static_cast<Py_ssize_t>(bytes.size());
  const bool other = mode == TextMode::kLatin1 || mode == TextMode::kGb18030 || mode == TextMode::kBig5;
  PyObject* s = PyUnicode_DecodeUTF8(bytes.data(), size, mode == TextMode::kReplace ? "replace" : other ? "strict" : "surrogateescape");
  if (!s && mode == TextMode::kLatin1) {
    PyErr_Clear();
    s = PyUnicode_DecodeLatin1(bytes.data(), size, "strict");
  } else if (!s && other) {  // what the encoding does not read stays as surrogate escapes
    PyErr_Clear();
    s = PyUnicode_Decode(bytes.data(), size, mode == TextMode::kGb18030 ? "gb18030" : "cp950", "surrogateescape");
  }
  if (!s) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

}  // namespace pgnarc::python
