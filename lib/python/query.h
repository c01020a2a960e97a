// Queries from Python: the Query that pgnarc.Archive.find fills, field by field.
#pragma once

#include <pybind11/pybind11.h>

namespace pgnarc::python {

namespace py = pybind11;

// Binds pgnarc::Query as _pgnarc.Query: its names, result, ECO, dates and tags as they are; its
// variant, elo_of and names_encoding by name ("crazyhouse", "either", "gb18030").
void bind_query(py::module_& m);

}  // namespace pgnarc::python
