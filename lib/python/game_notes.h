// A game's per-move data for Python (Game.annotations(), clocks(), evals(), mates(), root()):
// the library's game tree (pgnarc/game_tree.h) as columns and as node tuples, which the package
// (pgnarc/_notes.py) makes a DataFrame and Node objects of.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "errors.h"
#include "pgnarc/game.h"

namespace pgnarc::python {

// The main line's annotations, one entry a ply: a dict of "ply" (int32), "clock", "eval"
// (float64 seconds and pawns, NaN where none), "mate" (int32) with "has_mate" (bool), and lists
// "san", "uci", "nags" (tuples of int), "comment" (str or None).
py::dict annotation_columns(const Game& game, TextMode mode);

// One number a main-line ply: "clock" seconds and "eval" pawns (float64, NaN where none), or
// "mate" (int32: N of a mate in N, negative where Black mates, 0 where none).
py::array main_line_numbers(const Game& game, const std::string& which);

// The game's tree in preorder, node 0 the start: per node a tuple (parent, ply, uci, san, nags,
// comment, starting_comment, clock, eval, mate), None where a node has none (the root's move).
py::list tree_nodes(const Game& game, TextMode mode);

}  // namespace pgnarc::python
