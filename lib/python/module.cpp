// pgnarc._pgnarc: the library for Python (pybind11). The package pgnarc (lib/python/pgnarc)
// re-exports it with its pure-Python parts; README.md, "Python", documents the API.
//
// Strings: PGN is bytes (tag values and comments may be UTF-8, Latin-1 or anything), and Python
// wants str. Every str made here decodes the bytes as UTF-8 with the "surrogateescape" error
// handler, so that nothing is lost: s.encode("utf-8", "surrogateescape") gives the bytes back.
// Long calls (opening, decoding, searching, packing) release the GIL.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "errors.h"
#include "game_notes.h"
#include "pack.h"
#include "query.h"
#include "python_object.h"
#include "pgnarc/pgnarc.h"

namespace py = pybind11;

namespace pgnarc::python {
namespace {

// An open archive shared by the Archive object and the games read from it. The library's
// Archive is used by one thread at a time: `mutex` guards it. `open` opens the archive again
// (for an iteration's own reads).
struct Handle {
  std::string path;
  std::function<Result<std::unique_ptr<Archive>>()> open;
  std::unique_ptr<Archive> archive;
  std::mutex mutex;
  bool closed = false;  // Archive.close() was called: iterations end (changed with the GIL held)
  TextMode mode = TextMode::kLossless;  // how text that is not UTF-8 becomes str
};

// A Python callable read(offset, size) -> bytes as the library's read function, called from any
// thread (it takes the GIL); its errors become IO errors that say where.
Archive::ReadFunction python_reader(const std::string& name, py::function read) {
  const std::shared_ptr<py::function> fn = shared_with_gil(std::move(read));
  return [fn, name](std::uint64_t offset, std::size_t size, std::string& out) -> Status {
    const std::string where = name + ": cannot read " + std::to_string(size) + " bytes at offset " + std::to_string(offset);
    // A worker thread must not take the GIL while the interpreter shuts down (Python would end
    // the thread there): the read fails instead.
    if (_Py_IsFinalizing()) return io_error(where + ": Python is exiting");
    py::gil_scoped_acquire acquire;
    try {
      const py::object got = (*fn)(offset, size);
      out.assign(buffer_bytes(got));
      return {};
    } catch (py::error_already_set& e) {
      return io_error(where + ": " + e.what());
    } catch (const std::exception& e) {
      return io_error(where + ": the read function did not give bytes (" + e.what() + ")");
    }
  };
}

// The main line's moves as 16-bit numbers: from | to << 6 | promotion << 12, squares a1 = 0 ..
// h8 = 63, promotion 0 none, 1 knight, 2 bishop, 3 rook, 4 queen, 5 king (antichess); castling as
// UCI writes it (the king's two-square move in standard chess, king takes own rook in Chess960);
// a drop (crazyhouse) as from = to, the piece dropped in place of the promotion (0 a pawn); 0 a
// null move.
std::uint16_t move_code(Move m, bool chess960) {
  if (m.is_null()) return 0;
  Square to = m.to();
  if (m.is_castling() && !chess960)
    to = static_cast<Square>(m.from() + (to > m.from() ? 2 : -2));
  const int promo = m.is_king_promotion()           ? 5
                    : m.kind() == Move::kPromotion ? m.promotion() - kKnight + 1
                                                   : 0;
  return static_cast<std::uint16_t>(m.from() | (to << 6) | (promo << 12));
}

// One game of an archive, decoded.
class PyGame {
 public:
  PyGame(std::shared_ptr<Handle> handle, std::uint64_t index, ArchiveGame game)
      : handle_(std::move(handle)), index_(index), game_(std::move(game)) {}

  std::uint64_t number() const { return index_ + 1; }
  bool verbatim() const { return game_.raw; }
  TextMode mode() const { return handle_->mode; }

  // Per-move data (game_notes.h); pgnarc.Error for a verbatim game, whose moves pgnarc did not read.
  py::dict annotation_columns() const { return python::annotation_columns(moves_read(), mode()); }
  py::array numbers(const std::string& which) const { return main_line_numbers(moves_read(), which); }
  py::list tree_nodes() const { return python::tree_nodes(moves_read(), mode()); }

  // The tags in file order (the first of two tags of one name), {} for a verbatim game's that
  // could not be read: one dict for the game, made at the first call.
  py::dict tags() const {
    if (!tags_) {
      py::dict d;
      for (const Tag& t : tag_list()) {
        py::str key = text(t.key, handle_->mode);
        if (!d.contains(key)) d[key] = text(t.value, handle_->mode);
      }
      tags_ = std::move(d);
    }
    return *tags_;
  }

  py::str result() const {
    if (game_.raw) {
      for (const Tag& t : tag_list())
        if (t.key == "Result") return text(t.value, handle_->mode);
      return py::str("");
    }
    return py::str(result_text(game_.game.result));
  }

  // Exactly what `pgnarc get ARCHIVE N` prints.
  std::string pgn_bytes() const {
    Result<std::string> r = [&] {
      py::gil_scoped_release release;  // (the GIL is never awaited while the archive's lock is held)
      std::lock_guard lock(handle_->mutex);
      return handle_->archive->read_pgn(index_);
    }();
    return value_or_raise(std::move(r));
  }

  std::vector<std::string> san() const { return notation(true); }
  std::vector<std::string> uci() const { return notation(false); }

  py::array_t<std::uint16_t> moves() const {
    const std::vector<Move> line = main_line();
    py::array_t<std::uint16_t> out(static_cast<py::ssize_t>(line.size()));
    auto w = out.mutable_unchecked<1>();
    const bool chess960 = start().chess960();
    for (std::size_t i = 0; i < line.size(); ++i) w(static_cast<py::ssize_t>(i)) = move_code(line[i], chess960);
    return out;
  }

  std::size_t plies() const { return game_.raw ? 0 : static_cast<std::size_t>(game_.game.mainline_plies()); }

  // The FEN after `ply` plies of the main line (None: all; negative: from the end, -1 the last
  // position), as `pgnarc get --fen` gives it.
  std::string fen(std::optional<std::int64_t> ply, const std::string& ep) const {
    FenEnPassant when = FenEnPassant::kAfterDoubleStep;
    if (ep == "legal") when = FenEnPassant::kWhenLegal;
    else if (ep != "double-step") throw py::value_error("ep must be 'double-step' or 'legal', not '" + ep + "'");
    return value_or_raise(fen_after(game_.game, position_index(ply), when));
  }

  // The SVG picture of the board after `ply` plies (as fen() counts them), as `pgnarc get --svg`
  // draws it: the last move marked, Black below with `flip`, `size` pixels wide.
  std::string svg(std::optional<std::int64_t> ply, bool flip, int size) const {
    if (size < 16 || size > 4096) throw py::value_error("size must be from 16 to 4096 pixels, not " + std::to_string(size));
    BoardSvgOptions o;
    o.flip = flip;
    o.size = size;
    return value_or_raise(board_svg_after(game_.game, position_index(ply), o));
  }

  // The rules the game is played under, as lichess names them ("Standard" for Chess960 too;
  // "Xiangqi" for a Xiangqi game); for a verbatim game, whose rules pgnarc did not read, its Variant tag's value, or None.
  py::object variant() const {
    if (game_.raw) {
      for (const Tag& t : tag_list())
        if (t.key == "Variant") return text(t.value, handle_->mode);
      return py::none();
    }
    if (game_.game.rules == GameRules::kXiangqi) return py::str("Xiangqi");
    return py::str(variant_name(start().variant()));
  }

 private:
  // The tags; a verbatim game's are read (once) from the tag pairs its text begins with.
  const std::vector<Tag>& tag_list() const {
    if (game_.raw && !raw_tags_) {
      Result<std::vector<Tag>> tags = [&] {
        py::gil_scoped_release release;
        std::lock_guard lock(handle_->mutex);
        return handle_->archive->read_tags(index_);
      }();
      if (!raw_tags_) raw_tags_ = value_or_raise(std::move(tags));  // (set with the GIL held)
    }
    return game_.raw ? *raw_tags_ : game_.game.tags;
  }

  // The number of plies `ply` names (None: all; negative: from the end, -1 the last position);
  // IndexError out of range, pgnarc.Error for a verbatim game.
  int position_index(std::optional<std::int64_t> ply) const {
    if (game_.raw) raise(invalid_input("game " + std::to_string(number()) + " is kept verbatim: it has no positions"));
    const auto n = static_cast<std::int64_t>(plies());
    std::int64_t k = ply.value_or(n);
    if (k < 0) k += n + 1;
    if (k < 0 || k > n)
      throw py::index_error("ply " + std::to_string(*ply) + " is out of range: game " + std::to_string(number()) +
                            "'s main line has " + std::to_string(n) + " plies (positions 0 to " + std::to_string(n) + ")");
    return static_cast<int>(k);
  }

  // The game's moves and comments; pgnarc.Error for a verbatim game.
  const Game& moves_read() const {
    if (game_.raw)
      raise(invalid_input("game " + std::to_string(number()) + " is kept verbatim: pgnarc did not read its moves (pgn() has them)"));
    return game_.game;
  }

  Position start() const {
    if (game_.raw) return Position();
    return value_or_raise(start_position(game_.game));
  }

  // The main line's moves (Move::null() for a null move); none for a verbatim game.
  std::vector<Move> main_line() const {
    std::vector<Move> line;
    if (game_.raw) return line;
    int depth = 0;
    for (const GameEvent& e : game_.game.events) {
      if (e.type == GameEvent::kBeginVariation) ++depth;
      else if (e.type == GameEvent::kEndVariation) --depth;
      else if (depth == 0 && e.type == GameEvent::kMove) line.push_back(e.move);
      else if (depth == 0 && e.type == GameEvent::kNullMove) line.push_back(Move::null());
    }
    return line;
  }

  std::vector<std::string> notation(bool san) const {
    std::vector<std::string> out;
    Position p = start();
    for (Move m : main_line()) {
      if (m.is_null()) {
        out.emplace_back(san ? "--" : "0000");
        p.play_null();
        continue;
      }
      out.push_back(san ? p.san(m) : p.uci(m));
      p.play(m);
    }
    return out;
  }

  std::shared_ptr<Handle> handle_;
  std::uint64_t index_;
  ArchiveGame game_;
  mutable std::optional<std::vector<Tag>> raw_tags_;
  mutable std::optional<py::dict> tags_;
};

// Iteration over every game: a thread decodes blocks ahead (on all cores, with every check of a
// full decode) into a short queue, which __next__ empties; the GIL is released while it waits.
// The thread reads through an Archive of its own, so that the games' own reads (pgn(), a[i])
// during the loop do not wait for it.
class PyIterator {
 public:
  explicit PyIterator(std::shared_ptr<Handle> handle, unsigned threads) : handle_(std::move(handle)) {
    Result<std::unique_ptr<Archive>> own = [&] {
      py::gil_scoped_release release;
      return handle_->open();
    }();
    reader_ = value_or_raise(std::move(own));
    producer_ = std::thread([this, threads] {
      Status st;
      try {
        st = reader_->for_each_block(
          [this](std::uint64_t first, std::vector<ArchiveGame>& games) {
            std::unique_lock lock(mutex_);
            space_.wait(lock, [this] { return queue_.size() < kAhead || stop_; });
            if (stop_) return false;
            queue_.push_back(Batch{first, std::move(games)});
            ready_.notify_one();
            return true;
          },
          threads);
      } catch (const std::exception& e) {  // (no exception is meant to reach here: the read function catches its own)
        st = io_error(handle_->path + ": reading ahead failed: " + e.what());
      }
      std::lock_guard lock(mutex_);
      status_ = st;
      done_ = true;
      ready_.notify_one();
    });
  }
  ~PyIterator() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
      space_.notify_one();
    }
    py::gil_scoped_release release;
    producer_.join();
  }
  PyIterator(const PyIterator&) = delete;
  PyIterator& operator=(const PyIterator&) = delete;

  PyGame next() {
    // One thread at a time, as a Python generator allows: next() lets the GIL go while it waits.
    if (busy_) throw py::value_error("this game iterator is already being read by another thread");
    if (handle_->closed) throw py::value_error("the archive is closed");
    busy_ = true;
    struct Done {
      bool& busy;
      ~Done() { busy = false; }
    } done{busy_};
    if (current_.games.size() == next_in_batch_) {
      py::gil_scoped_release release;
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [this] { return !queue_.empty() || done_; });
      if (queue_.empty()) {
        if (!status_) {
          const Error e = status_.error();
          status_ = {};
          py::gil_scoped_acquire acquire;
          raise(e);
        }
        py::gil_scoped_acquire acquire;
        throw py::stop_iteration();
      }
      current_ = std::move(queue_.front());
      queue_.pop_front();
      next_in_batch_ = 0;
      space_.notify_one();
    }
    const std::size_t j = next_in_batch_++;
    return PyGame(handle_, current_.first + j, std::move(current_.games[j]));
  }

 private:
  static constexpr std::size_t kAhead = 4;  // blocks decoded ahead of the one being read
  struct Batch {
    std::uint64_t first = 0;
    std::vector<ArchiveGame> games;
  };
  std::shared_ptr<Handle> handle_;
  std::unique_ptr<Archive> reader_;
  std::thread producer_;
  std::mutex mutex_;
  std::condition_variable ready_, space_;
  std::deque<Batch> queue_;
  Batch current_;
  std::size_t next_in_batch_ = 0;
  bool stop_ = false, done_ = false;
  bool busy_ = false;  // a thread is in next() (changed with the GIL held)
  Status status_;
};

class PyArchive {
 public:
  PyArchive(const std::string& path, const std::string& encoding) : handle_(std::make_shared<Handle>()) {
    handle_->path = path;
    handle_->mode = text_mode(encoding);
    handle_->open = [path] { return Archive::open(path); };
    open();
  }
  // An archive of `size` bytes read through read(offset, size) -> bytes (fsspec, object storage).
  PyArchive(const std::string& name, std::uint64_t size, py::function read, const std::string& encoding)
      : handle_(std::make_shared<Handle>()) {
    handle_->path = name;
    handle_->mode = text_mode(encoding);
    handle_->open = [name, size, reader = python_reader(name, std::move(read))] { return Archive::open(name, size, reader); };
    open();
  }

  std::vector<std::uint64_t> block_starts() const {
    Result<std::vector<std::uint64_t>> r = [&] {
      py::gil_scoped_release release;
      std::lock_guard lock(handle_->mutex);
      return handle_->archive->block_starts();
    }();
    return value_or_raise(std::move(r));
  }

  std::uint64_t size() const { return handle_->archive->game_count(); }
  const std::string& path() const { return handle_->path; }

  PyGame at(std::int64_t i) const {
    const auto n = static_cast<std::int64_t>(size());
    if (i < 0) i += n;
    if (i < 0 || i >= n) throw py::index_error("game index out of range (the archive holds " + std::to_string(n) + " games)");
    Result<ArchiveGame> g = [&] {
      py::gil_scoped_release release;
      std::lock_guard lock(handle_->mutex);
      return handle_->archive->read_game(static_cast<std::uint64_t>(i));
    }();
    return PyGame(handle_, static_cast<std::uint64_t>(i), value_or_raise(std::move(g)));
  }

  std::vector<PyGame> slice(const py::slice& s) const {
    std::size_t start = 0, stop = 0, step = 0, length = 0;
    if (!s.compute(size(), &start, &stop, &step, &length)) throw py::error_already_set();
    std::vector<PyGame> out;
    out.reserve(length);
    for (std::size_t k = 0; k < length; ++k) out.push_back(at(static_cast<std::int64_t>(start + k * step)));
    return out;
  }

  std::unique_ptr<PyIterator> iter(unsigned threads) const { return std::make_unique<PyIterator>(handle_, threads); }
  void close() { handle_->closed = true; }

  std::vector<std::uint64_t> find(const Query& q) const {
    if (const std::string why = query_error(q); !why.empty()) throw py::value_error(why);
    Result<std::vector<std::uint64_t>> r = [&] {
      py::gil_scoped_release release;
      std::lock_guard lock(handle_->mutex);
      return handle_->archive->find(q);
    }();
    return value_or_raise(std::move(r));
  }

  // The tags of games [first, end) (end None: the last game), column by column, read without
  // decoding the games' moves: the names in order of first appearance (or `columns`), each a
  // list of str (None where a game has no such tag). The package makes a DataFrame of it.
  py::tuple tag_columns(const std::optional<std::vector<std::string>>& wanted, std::uint64_t first,
                        std::optional<std::uint64_t> end) const {
    std::vector<std::string> names;
    std::vector<std::vector<std::optional<std::string>>> values;
    std::unordered_map<std::string, std::size_t> column;
    if (wanted) {
      for (const std::string& n : *wanted)
        if (column.emplace(n, names.size()).second) names.push_back(n);
      values.resize(names.size());
    }
    const std::uint64_t last = std::min(end.value_or(size()), size());
    if (first > last) throw py::index_error("games [" + std::to_string(first) + ", " + std::to_string(last) + ") are none");
    const std::uint64_t n = last - first;
    std::optional<Error> failed;
    {
      py::gil_scoped_release release;
      std::lock_guard lock(handle_->mutex);
      for (std::uint64_t i = 0; i < n; ++i) {
        auto tags = wanted ? handle_->archive->read_tags(first + i, names) : handle_->archive->read_tags(first + i);
        if (!tags) {
          failed = tags.error();
          break;
        }
        for (const Tag& t : *tags) {
          auto it = column.find(t.key);
          if (it == column.end()) {
            if (wanted) continue;
            it = column.emplace(t.key, names.size()).first;
            names.push_back(t.key);
            values.emplace_back();
          }
          auto& v = values[it->second];
          if (v.size() <= i) {
            v.resize(i);
            v.emplace_back(t.value);
          }
        }
      }
      for (auto& v : values) v.resize(n);
    }
    if (failed) raise(*failed);
    py::list cols, data;
    for (std::size_t c = 0; c < names.size(); ++c) {
      cols.append(text(names[c], handle_->mode));
      py::list column_values(values[c].size());
      for (std::size_t i = 0; i < values[c].size(); ++i)
        column_values[i] = values[c][i] ? py::object(text(*values[c][i], handle_->mode)) : py::object(py::none());
      data.append(column_values);
    }
    return py::make_tuple(cols, data);
  }

  // The games whose main line reaches the position `fen` (None: the variant's start) after
  // `moves` (SAN), under the rules `variant` names ("" standard), ascending.
  std::vector<std::uint64_t> find_position(const std::optional<std::string>& fen, const std::string& moves,
                                           const std::string& variant, unsigned threads) const {
    return games_of(search(target(fen, moves, variant), threads));
  }
  // The tree of that position as `pgnarc tree --json` prints it (the package parses it), from
  // the games of `games` (ascending; None: all); at most `limit` moves (0: all).
  std::string tree_json(const std::optional<std::string>& fen, const std::string& moves, const std::string& variant,
                        std::size_t limit, const std::optional<std::vector<std::uint64_t>>& games, unsigned threads) const {
    const Position at = target(fen, moves, variant);
    PositionHits hits = search(at, threads);
    keep_games(hits, games);
    return position_tree_json(at, position_tree(at, hits), limit);
  }
  // The Xiangqi games whose main line reaches the Xiangqi position `fen` (5.7), ascending.
  std::vector<std::uint64_t> find_xiangqi_position(const std::string& fen, unsigned threads) const {
    return games_of(search_xiangqi(fen, threads));
  }
  // The tree of that Xiangqi position as `pgnarc tree --json` prints it, as tree_json.
  std::string xiangqi_tree_json(const std::string& fen, std::size_t limit,
                                const std::optional<std::vector<std::uint64_t>>& games, unsigned threads) const {
    PositionHits hits = search_xiangqi(fen, threads);
    keep_games(hits, games);
    return position_tree_json(fen, value_or_raise(xiangqi_position_tree(fen, hits)), limit);
  }
  // The figures of `pgnarc info --json`, as it prints them (the package parses them).
  std::string info_json() const {
    Result<ArchiveInfo> r = [&] {
      py::gil_scoped_release release;
      std::lock_guard lock(handle_->mutex);
      return handle_->archive->info();
    }();
    return archive_info_json(value_or_raise(std::move(r)));
  }

  void verify(unsigned threads) const {
    Status st;
    {
      py::gil_scoped_release release;
      std::lock_guard lock(handle_->mutex);
      st = handle_->archive->verify({}, threads);
    }
    ok_or_raise(st);
  }

 private:
  static std::vector<std::uint64_t> games_of(const PositionHits& hits) {
    std::vector<std::uint64_t> out;
    out.reserve(hits.hits.size());
    for (const PositionHit& h : hits.hits) out.push_back(h.game);
    return out;
  }
  // Only the hits of `games` (ascending; None: all).
  static void keep_games(PositionHits& hits, const std::optional<std::vector<std::uint64_t>>& games) {
    if (games)
      std::erase_if(hits.hits, [&](const PositionHit& h) { return !std::binary_search(games->begin(), games->end(), h.game); });
  }
  static Position target(const std::optional<std::string>& fen, const std::string& moves, const std::string& variant) {
    const Variant v = variant_named(variant);
    Position pos = Position::start(v);
    if (fen) pos = value_or_raise(Position::from_fen(*fen, false, v));
    return value_or_raise(play_san_line(pos, moves));
  }
  // find(archive)'s hits, the GIL released and the archive held while it searches.
  template <class Find>
  PositionHits search_with(Find&& find) const {
    Result<PositionHits> r = [&] {
      py::gil_scoped_release release;
      std::lock_guard lock(handle_->mutex);
      return find(*handle_->archive);
    }();
    return value_or_raise(std::move(r));
  }
  PositionHits search(const Position& at, unsigned threads) const {
    return search_with([&](Archive& a) { return a.find_position(at, threads); });
  }
  PositionHits search_xiangqi(const std::string& fen, unsigned threads) const {
    return search_with([&](Archive& a) { return a.find_xiangqi_position(fen, threads); });
  }
  void open() {
    Result<std::unique_ptr<Archive>> a = [&] {
      py::gil_scoped_release release;
      return handle_->open();
    }();
    handle_->archive = value_or_raise(std::move(a));
  }

  std::shared_ptr<Handle> handle_;
};

}  // namespace
}  // namespace pgnarc::python

PYBIND11_MODULE(_pgnarc, m) {
  using namespace pgnarc;
  using namespace pgnarc::python;
  m.doc() = "pgnarc's library: archives of chess games (see the package pgnarc)";
  // numpy is set up here, once, with the import lock held: set up on first use, by two threads
  // at once, it would deadlock (the first lets the GIL go while it imports numpy).
  py::module_::import("numpy");
  (void)py::dtype::of<std::uint16_t>();
  m.attr("__version__") = library_version();
  m.attr("format_version") = PGNARC_FORMAT_VERSION_STRING;
  py::register_exception<ArchiveError>(m, "Error", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const IoError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    }
  });

  py::class_<PyGame>(m, "Game", "One game of an archive.")
      .def_property_readonly("number", &PyGame::number, "The game's number, from 1, as pgnarc get numbers games.")
      .def_property_readonly("tags", &PyGame::tags,
                             "The tags as a dict, in file order (the first of two of one name): the game's own copy, "
                             "the same dict at each call; changing it does not change the archive.")
      .def_property_readonly("result", &PyGame::result, "The termination marker: '1-0', '0-1', '1/2-1/2', '*' or ''.")
      .def_property_readonly("verbatim", &PyGame::verbatim,
                             "True for a game kept as its text (a variant pgnarc does not know, illegal moves): no moves.")
      .def_property_readonly("variant", &PyGame::variant,
                             "The rules it is played under: 'Standard' (with Chess960), 'Crazyhouse', 'Atomic', "
                             "'Antichess', 'Three-check', 'King of the Hill', 'Racing Kings' or 'Horde'; for a "
                             "verbatim game, the value of its Variant tag, or None.")
      .def_property_readonly("plies", &PyGame::plies, "Moves and null moves of the main line.")
      .def_property_readonly("moves", &PyGame::moves,
                             "The main line as a numpy uint16 array: from | to << 6 | promotion << 12 (a1 = 0, h8 = 63; "
                             "promotion 1 knight .. 4 queen, 5 king; castling as UCI writes it; a drop as from = to "
                             "with the piece dropped in place of the promotion, 0 a pawn; 0 a null move).")
      .def("pgn", [](const PyGame& g) { return text(g.pgn_bytes(), g.mode()); },
           "The game as canonical PGN, exactly what `pgnarc get ARCHIVE N` prints.")
      .def("pgn_bytes", [](const PyGame& g) { return py::bytes(g.pgn_bytes()); }, "pgn() as the file's bytes.")
      .def("san", &PyGame::san, "The main line in SAN ('--' for a null move).")
      .def("uci", &PyGame::uci, "The main line in UCI ('0000' for a null move).")
      .def("fen", &PyGame::fen, py::arg("ply") = py::none(), py::arg("ep") = "double-step",
           "The FEN after `ply` plies of the main line (None: the last position; negative: from the end), as "
           "`pgnarc get --fen` gives it; ep='legal' gives the en passant square only where the capture is legal.")
      .def("svg", &PyGame::svg, py::arg("ply") = py::none(), py::arg("flip") = false, py::arg("size") = 360,
           "The board after `ply` plies (as fen() counts them; None: the last position) as an SVG picture, "
           "as `pgnarc get --svg` draws it (a Xiangqi game's too): the last move marked; flip=True puts Black below.")
      .def("_repr_svg_", [](const PyGame& g) { return g.svg(std::nullopt, false, 360); },
           "The final position as a picture, for Jupyter.")
      .def("annotations", [](const PyGame& g) { return py::module_::import("pgnarc._notes").attr("frame")(g.annotation_columns()); },
           "A pandas.DataFrame with a row per main-line ply: ply (from 1), san, uci, clock (seconds, NaN where "
           "none), eval (pawns from White's side, NaN where none), mate (Int64: N of [%eval #N], negative where "
           "Black mates), nags (a tuple of ints), comment (the text besides [%clk] and [%eval], or None); a "
           "Xiangqi game's san is each move as its notation writes it, uci its ICCS (h2e2). "
           "pgnarc.Error for a verbatim game.")
      .def("clocks", [](const PyGame& g) { return g.numbers("clock"); },
           "The clock after each main-line ply, in seconds (numpy float64, NaN where none).")
      .def("evals", [](const PyGame& g) { return g.numbers("eval"); },
           "The evaluation after each main-line ply, in pawns from White's side (numpy float64, NaN where none "
           "or a mate).")
      .def("mates", [](const PyGame& g) { return g.numbers("mate"); },
           "The mate after each main-line ply (numpy int32: N of [%eval #N], negative where Black mates, 0 where none).")
      .def("root", [](const PyGame& g) { return py::module_::import("pgnarc._notes").attr("tree")(g.tree_nodes()); },
           "The game as a tree of pgnarc.Node: the start position, whose variations[0] is the first move of the "
           "main line; pgnarc.Error for a verbatim game.")
      .def("__repr__", [](const PyGame& g) { return "<pgnarc.Game " + std::to_string(g.number()) + ">"; });

  py::class_<PyIterator>(m, "GameIterator")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &PyIterator::next);

  bind_query(m);

  py::class_<PyArchive>(m, "Archive", "An open archive (pgnarc.open).")
      .def(py::init<const std::string&, const std::string&>(), py::arg("path"), py::arg("encoding") = "surrogateescape")
      .def(py::init<const std::string&, std::uint64_t, py::function, const std::string&>(), py::arg("name"), py::arg("size"),
           py::arg("read"), py::arg("encoding") = "surrogateescape",
           "An archive of `size` bytes read through read(offset, size) -> bytes.")
      .def("block_starts", &PyArchive::block_starts,
           "Each block's first game (from 0), then the number of games: block b holds [s[b], s[b + 1]).")
      .def_property_readonly("path", &PyArchive::path)
      .def("_close", &PyArchive::close, "Ends the iterations over the archive (its games stay usable).")
      .def("__len__", &PyArchive::size)
      .def("__getitem__", &PyArchive::at, py::arg("index"))
      .def("__getitem__", &PyArchive::slice, py::arg("slice"))
      .def("__iter__", [](const PyArchive& a) { return a.iter(0); })
      .def("games", &PyArchive::iter, py::arg("threads") = 0,
           "Every game in order, decoded ahead on `threads` threads (0: all cores).")
      .def("_find", &PyArchive::find)
      .def("_find_position", &PyArchive::find_position)
      .def("_tree_json", &PyArchive::tree_json)
      .def("_find_xiangqi_position", &PyArchive::find_xiangqi_position)
      .def("_xiangqi_tree_json", &PyArchive::xiangqi_tree_json)
      .def("_tag_columns", &PyArchive::tag_columns, py::arg("columns") = py::none(), py::arg("first") = 0,
           py::arg("end") = py::none())
      .def("_info_json", &PyArchive::info_json)
      .def("verify", &PyArchive::verify, py::arg("threads") = 0,
           "Checks every checksum and decodes every game; raises pgnarc.Error at the first damage.");

  m.def("_pack", &pack, py::arg("inputs"), py::arg("output"), py::arg("threads"), py::arg("force"),
        py::arg("moves"), py::arg("position_filter"), py::arg("variant") = "", py::arg("clocks") = "model",
        py::arg("tags") = "derive", py::arg("xiangqi") = "book");
  m.def("_pack_bytes", &pack_bytes, py::arg("data"), py::arg("name"), py::arg("output"), py::arg("threads"),
        py::arg("force"), py::arg("moves"), py::arg("position_filter"), py::arg("variant") = "",
        py::arg("clocks") = "model", py::arg("tags") = "derive", py::arg("xiangqi") = "book");
  m.def("_merge", &merge, py::arg("inputs"), py::arg("output"), py::arg("force"));
  m.def("_game_cuts", &game_cuts, py::arg("path"), py::arg("shard_bytes"));
}
