// _pgnarc.Query (query.h).
#include "query.h"

#include <pybind11/stl.h>

#include <string>

#include "errors.h"
#include "pgnarc/pgnarc.h"

namespace pgnarc::python {

void bind_query(py::module_& m) {
  py::class_<Query>(m, "Query")
      .def(py::init<>())
      .def_readwrite("white", &Query::white)
      .def_readwrite("black", &Query::black)
      .def_readwrite("player", &Query::player)
      .def_readwrite("event", &Query::event)
      .def_readwrite("site", &Query::site)
      .def_readwrite("red", &Query::red)
      .def_readwrite("exact_names", &Query::exact_names)
      .def_property(
          "names_encoding",
          [](const Query& q) {
            return std::string(q.names_encoding == NameEncoding::kGb18030 ? "gb18030"
                               : q.names_encoding == NameEncoding::kBig5  ? "big5"
                                                                          : "utf-8");
          },
          [](Query& q, const std::string& e) {
            if (e == "gb18030") q.names_encoding = NameEncoding::kGb18030;
            else if (e == "big5") q.names_encoding = NameEncoding::kBig5;
            else if (e == "utf-8") q.names_encoding = NameEncoding::kUtf8;
            else throw py::value_error("names_encoding must be 'utf-8', 'gb18030' or 'big5', not '" + e + "'");
          })
      .def_readwrite("result", &Query::result)
      .def_readwrite("eco", &Query::eco)
      .def_readwrite("date_from", &Query::date_from)
      .def_readwrite("date_to", &Query::date_to)
      .def_readwrite("tags", &Query::tags)
      .def_property(
          "variant", [](const Query& q) { return q.variant ? std::string(variant_name(*q.variant)) : std::string(); },
          [](Query& q, const std::string& name) { q.variant = variant_named(name); })
      .def_readwrite("min_elo", &Query::min_elo)
      .def_readwrite("max_elo", &Query::max_elo)
      .def_property(
          "elo_of", [](const Query& q) { return std::string(elo_of_name(q.elo_of)); },
          [](Query& q, const std::string& who) {
            if (!elo_of_from_name(who, q.elo_of))
              throw py::value_error("elo_of must be 'both', 'either', 'white' or 'black', not '" + who + "'");
          });
}

}  // namespace pgnarc::python
