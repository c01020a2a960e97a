// Game.annotations(), clocks(), evals(), mates() and root(): the library's game tree, as columns
// and node tuples.
#include "game_notes.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "pgnarc/game_tree.h"

namespace pgnarc::python {

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

// The tree, or pgnarc.Error; computed with the GIL released.
std::vector<GameNode> tree_of(const Game& game, bool notation) {
  Result<std::vector<GameNode>> r = [&] {
    py::gil_scoped_release release;
    return game_tree(game, notation);
  }();
  return value_or_raise(std::move(r));
}

// The main line's nodes: the first variation of each node from the start.
std::vector<const GameNode*> main_line(const std::vector<GameNode>& tree) {
  std::vector<const GameNode*> out;
  for (const GameNode* n = &tree[0]; !n->variations.empty();) {
    n = &tree[static_cast<std::size_t>(n->variations[0])];
    out.push_back(n);
  }
  return out;
}

py::object optional_text(const std::optional<std::string>& s, TextMode mode) {
  return s ? py::object(text(*s, mode)) : py::object(py::none());
}

py::tuple nags_of(const GameNode& n) {
  py::tuple t(n.nags.size());
  for (std::size_t i = 0; i < n.nags.size(); ++i) t[i] = py::int_(n.nags[i]);
  return t;
}

template <class T>
py::array_t<T> column(std::size_t n) {
  return py::array_t<T>(static_cast<py::ssize_t>(n));
}

}  // namespace

py::dict annotation_columns(const Game& game, TextMode mode) {
  const std::vector<GameNode> tree = tree_of(game, true);
  const std::vector<const GameNode*> line = main_line(tree);
  const std::size_t n = line.size();
  auto ply = column<std::int32_t>(n);
  auto clock = column<double>(n), eval = column<double>(n);
  auto mate = column<std::int32_t>(n);
  auto has_mate = column<bool>(n);
  py::list san(n), uci(n), nags(n), comment(n);
  auto w_ply = ply.mutable_unchecked<1>();
  auto w_clock = clock.mutable_unchecked<1>(), w_eval = eval.mutable_unchecked<1>();
  auto w_mate = mate.mutable_unchecked<1>();
  auto w_has_mate = has_mate.mutable_unchecked<1>();
  for (std::size_t i = 0; i < n; ++i) {
    const GameNode& node = *line[i];
    const auto k = static_cast<py::ssize_t>(i);
    w_ply(k) = node.ply;
    w_clock(k) = node.notes.clock.value_or(kNone);
    w_eval(k) = node.notes.eval.value_or(kNone);
    w_mate(k) = node.notes.mate.value_or(0);
    w_has_mate(k) = node.notes.mate.has_value();
    san[i] = text(node.san, mode);
    uci[i] = py::str(node.uci);
    nags[i] = nags_of(node);
    comment[i] = optional_text(node.notes.comment, mode);
  }
  py::dict d;
  d["ply"] = ply;
  d["san"] = san;
  d["uci"] = uci;
  d["clock"] = clock;
  d["eval"] = eval;
  d["mate"] = mate;
  d["has_mate"] = has_mate;
  d["nags"] = nags;
  d["comment"] = comment;
  return d;
}

py::array main_line_numbers(const Game& game, const std::string& which) {
  const std::vector<GameNode> tree = tree_of(game, false);
  const std::vector<const GameNode*> line = main_line(tree);
  const auto fill = [&](auto out, auto value) {
    auto w = out.template mutable_unchecked<1>();
    for (std::size_t i = 0; i < line.size(); ++i) w(static_cast<py::ssize_t>(i)) = value(line[i]->notes);
    return py::array(out);
  };
  if (which == "clock") return fill(column<double>(line.size()), [](const MoveNotes& m) { return m.clock.value_or(kNone); });
  if (which == "eval") return fill(column<double>(line.size()), [](const MoveNotes& m) { return m.eval.value_or(kNone); });
  return fill(column<std::int32_t>(line.size()), [](const MoveNotes& m) { return m.mate.value_or(0); });
}

py::list tree_nodes(const Game& game, TextMode mode) {
  const std::vector<GameNode> tree = tree_of(game, true);
  py::list out(tree.size());
  for (std::size_t i = 0; i < tree.size(); ++i) {
    const GameNode& n = tree[i];
    std::optional<std::string> starting;
    for (const Comment& c : n.starting_comments) starting = starting ? *starting + ' ' + c.text : c.text;
    const auto number = [](const std::optional<double>& v) { return v ? py::object(py::float_(*v)) : py::object(py::none()); };
    out[i] = py::make_tuple(n.parent, n.ply, i == 0 ? py::object(py::none()) : py::object(py::str(n.uci)),
                            i == 0 ? py::object(py::none()) : py::object(text(n.san, mode)), nags_of(n),
                            optional_text(n.notes.comment, mode), optional_text(starting, mode), number(n.notes.clock),
                            number(n.notes.eval), n.notes.mate ? py::object(py::int_(*n.notes.mate)) : py::object(py::none()));
  }
  return out;
}

}  // namespace pgnarc::python
