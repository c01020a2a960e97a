// PGN in and out: a streaming reader with a visitor, and a canonical writer.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pgnarc/export.h"
#include "pgnarc/chess.h"
#include "pgnarc/game.h"
#include "pgnarc/status.h"

namespace pgnarc {

// A stream of bytes. read() returns how many bytes it stored (0 only at the end) or an Error.
class PGNARC_EXPORT ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual Result<std::size_t> read(char* buf, std::size_t n) = 0;
};

// Opens a file ("-" for standard input) of PGN, as pgn_input reads it.
PGNARC_EXPORT Result<std::unique_ptr<ByteSource>> open_input(const std::string& path);
// The bytes an input is judged by: its first 4 KiB (after decompression).
inline constexpr std::size_t kSniffBytes = 4096;
// PGN from `raw`: a zstd or gzip stream (several concatenated frames or members, and zstd's
// skippable frames, included) is recognised by its magic bytes, not its name, and decompressed
// on the fly; then an input whose first kSniffBytes are not PGN text is refused with
// InvalidInput (see not_pgn_text). `path` names the input ("-": standard input).
PGNARC_EXPORT Result<std::unique_ptr<ByteSource>> pgn_input(std::unique_ptr<ByteSource> raw,
                                                          const std::string& path);
// Why `head`, the first bytes of the input `path`, is not PGN text, with the command that would
// make it so where one would: other compressed formats (bzip2, xz, lzma, lz4, 7z, zip), a pgnarc
// archive, UTF-16 or UTF-32 text (by byte-order mark or by the places of NUL bytes), binary
// data (a NUL byte, or more than 1 in 32 bytes control characters other than tab, LF, VT, FF
// and CR). Nothing if it may be PGN (a UTF-8 byte-order mark is PGN).
PGNARC_EXPORT std::optional<std::string> not_pgn_text(std::string_view head, const std::string& path);
// Bytes held in memory (decompressed too, when they start with a zstd or gzip magic number),
// not checked to be text.
PGNARC_EXPORT std::unique_ptr<ByteSource> memory_input(std::string data);
// Wraps `raw`, decompressing zstd or gzip if its first bytes say so.
PGNARC_EXPORT Result<std::unique_ptr<ByteSource>> decompressing_input(std::unique_ptr<ByteSource> raw,
                                                                    std::string name);

// A place in the input: 1-based line and column (columns count bytes).
struct PGNARC_EXPORT SourcePos {
  std::uint64_t line = 1;
  std::uint32_t column = 1;
};

// Receives what the reader finds, in input order. A game's events end either with end_game()
// (the game was read completely) or with game_error() (it was not, and the events delivered for
// it so far must be discarded); raw_text is then the game's bytes exactly as they were in the
// input, so that a caller can keep it verbatim.
class PGNARC_EXPORT PgnVisitor {
 public:
  virtual ~PgnVisitor() = default;
  virtual void begin_game(std::uint64_t /*game_number*/, SourcePos) {}
  virtual void tag(std::string_view /*key*/, std::string_view /*value*/, SourcePos) {}
  // After the tags, before the first movetext event: the position the game starts from.
  virtual void begin_movetext(const Position& /*start*/, SourcePos) {}
  virtual void move(const Position& /*before*/, Move, SourcePos) {}
  virtual void null_move(const Position& /*before*/, SourcePos) {}
  // {...}, ;... and %... ; before begin_movetext they come before the tags (the prelude), after
  // result() after the termination marker (the epilogue).
  virtual void comment(std::string_view /*text*/, CommentKind, SourcePos) {}
  virtual void nag(int /*value*/, SourcePos) {}
  virtual void begin_variation(SourcePos) {}
  virtual void end_variation(SourcePos) {}
  virtual void result(GameResult, SourcePos) {}
  // A Xiangqi game (Game::rules; read where the reader is asked to, pack's reading): after its
  // tags begin_xiangqi_movetext instead of begin_movetext; each move as Move::xiangqi; and,
  // just before end_game, the game's notation (Game::notation).
  virtual void begin_xiangqi_movetext(SourcePos) {}
  virtual void xiangqi_move(Move, SourcePos) {}
  virtual void xiangqi_notation(std::string_view /*bytes*/) {}
  virtual void end_game(std::string_view /*raw_text*/) {}
  virtual void game_error(const Error&, std::string_view /*raw_text*/) {}
  // Right after tag(), for a tag pair whose value is its bytes as written though it holds a quote
  // or a backslash (Tag::unescaped): `as_written_only` where PGN's escapes cannot read it (a
  // quote left unescaped in it, a closing quote after a stray backslash: its value is its bytes
  // up to the first quote that the pair's `]` follows), else it holds backslashes that escape
  // nothing and no escape (`C:\games`, Big5's 許), which escapes read as the same value.
  virtual void unescaped_tag(SourcePos, bool /*as_written_only*/) {}
};

// The limits of one game (its bytes from the first to the last, tags, movetext and comments).
// A game longer than kMaxGameBytes stops the reader with InvalidInput before more of it is
// buffered, so that memory stays bounded on any input; a game with more than kMaxGameTags tag
// pairs is a game in error (game_error; pack keeps it verbatim).
inline constexpr std::size_t kMaxGameBytes = std::size_t{16} << 20;
inline constexpr std::size_t kMaxGameTags = 1024;

// Reads games one at a time from a ByteSource, in memory proportional to the largest game.
class PGNARC_EXPORT PgnReader {
 public:
  // `name` is used in error messages (a path, or "<stdin>").
  PgnReader(std::unique_ptr<ByteSource> source, std::string name);
  ~PgnReader();
  PgnReader(const PgnReader&) = delete;
  PgnReader& operator=(const PgnReader&) = delete;

  // Opens `path` ("-" for stdin) with open_input().
  static Result<std::unique_ptr<PgnReader>> open(const std::string& path);

  // Reads the next game and reports it to `visitor`. Returns true if a game was read (well
  // formed or not: bad PGN is reported through game_error and the reader resynchronises at the
  // next game), false at the end of the input, or an Error if the source fails.
  Result<bool> next(PgnVisitor& visitor);

  // The next game's bytes without parsing them (for parsing on other threads with parse_game).
  // Returns false at the end of the input.
  struct RawGame {
    std::string text;
    std::uint64_t number = 0;  // 1-based position in the input
    SourcePos start;
  };
  Result<bool> next_raw(RawGame& out);

  const std::string& name() const;
  std::uint64_t games_read() const;
  std::uint64_t bytes_read() const;
  // The DOS end-of-file bytes (^Z, 0x1A) after the last game, which are not a game: the reader
  // skips them with the white space around them, and the caller says that they were dropped.
  std::uint64_t trailing_eof_markers() const;
  // The input's bytes before the first byte the reader has not consumed (of the decompressed
  // input, for a compressed one): after next() or next_raw() gave a game, where its text ends, so
  // that a reader started there reads the games that follow as this one would.
  std::uint64_t offset() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Parses one game's bytes (as found by PgnReader::next_raw) and reports it to `visitor`, exactly
// as PgnReader::next would; `source` names the input in error messages. A game whose tags name
// no variant is played under `untagged` (pgnarc pack --variant).
PGNARC_EXPORT void parse_game(std::string_view text, const std::string& source, std::uint64_t number,
                              SourcePos start, PgnVisitor& visitor, Variant untagged = Variant::kStandard);

// A visitor that assembles Game values; after next() returns true, either ok() and game() hold
// the game, or error() and raw_text() say what went wrong and what the bytes were (raw_text()
// is kept only for games in error).
class PGNARC_EXPORT GameBuilder : public PgnVisitor {
 public:
  void begin_game(std::uint64_t, SourcePos) override;
  void tag(std::string_view key, std::string_view value, SourcePos) override;
  void begin_movetext(const Position& start, SourcePos) override;
  void move(const Position&, Move m, SourcePos) override;
  void null_move(const Position&, SourcePos) override;
  void comment(std::string_view text, CommentKind kind, SourcePos) override;
  void nag(int value, SourcePos) override;
  void begin_variation(SourcePos) override;
  void end_variation(SourcePos) override;
  void result(GameResult r, SourcePos) override;
  void begin_xiangqi_movetext(SourcePos) override;
  void xiangqi_move(Move m, SourcePos) override;
  void xiangqi_notation(std::string_view bytes) override;
  void end_game(std::string_view raw_text) override;
  void game_error(const Error& e, std::string_view raw_text) override;
  void unescaped_tag(SourcePos at, bool as_written_only) override;

  bool ok() const { return ok_; }
  Game& game() { return game_; }
  const Error& error() const { return error_; }
  const std::string& raw_text() const { return raw_; }
  // Where the game's first tag pair that only its bytes as written read (unescaped_tag's
  // `as_written_only`) starts, if it has one; and the places of all such tags in game().tags.
  const std::optional<SourcePos>& first_as_written_tag() const { return as_written_at_; }
  const std::vector<std::size_t>& as_written_tags() const { return as_written_; }

 private:
  Game game_;
  std::optional<SourcePos> as_written_at_;
  std::vector<std::size_t> as_written_;
  bool in_movetext_ = false;
  bool after_result_ = false;
  bool ok_ = false;
  Error error_{ErrorCode::InvalidInput, {}};
  std::string raw_;
};

// Canonical PGN export of one game, followed by a blank line: prelude, tags in their order,
// a blank line, movetext wrapped at 80 columns with canonical SAN, move numbers ("N..." for a
// black move that opens a line or follows a comment, NAG or variation), NAGs as $n, comments and
// variations in place, the result. Deterministic byte for byte. Fails (InvalidInput) if a move
// of the game is not legal where it stands, and then leaves `out` as it was. A Xiangqi game
// (Game::rules) is written in the same layout, each move as its notation (Game::notation) wrote
// it.
PGNARC_EXPORT Status write_pgn(const Game& game, std::string& out);
// The verbatim form of a game that could not be read: its bytes, then a blank line.
PGNARC_EXPORT void write_raw_game(std::string_view raw_text, std::string& out);

}  // namespace pgnarc
