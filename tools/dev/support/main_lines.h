// The main lines of a PGN file's games (for the move model's trainer and its reference test):
// each well-formed game's start position and main-line moves, variations left out; only the games
// under one variant (standard chess by default; games whose tags name none are read as under
// `untagged`).
#pragma once

#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "pgnarc/pgn.h"

namespace pgnarc::test {

struct MainLine {
  std::string label;  // "PATH game N"
  Position start;
  std::vector<Move> moves;  // Move::null() for a null move
};

// Appends the main lines of the first `limit` well-formed games of `path` to `out`; false (with
// the reason on stderr, after `who`) if the file cannot be read.
inline bool read_main_lines(const std::string& who, const std::string& path, std::vector<MainLine>& out,
                            std::size_t limit = std::numeric_limits<std::size_t>::max(),
                            Variant variant = Variant::kStandard, Variant untagged = Variant::kStandard) {
  class Collector : public PgnVisitor {
   public:
    Collector(const std::string& path, std::size_t limit, Variant variant, std::vector<MainLine>& out)
        : path_(path), limit_(limit), variant_(variant), out_(out) {}
    void begin_game(std::uint64_t number, SourcePos) override {
      line_ = MainLine{path_ + " game " + std::to_string(number), Position(), {}};
      depth_ = 0;
    }
    void begin_movetext(const Position& start, SourcePos) override { line_.start = start; }
    void move(const Position&, Move m, SourcePos) override {
      if (depth_ == 0) line_.moves.push_back(m);
    }
    void null_move(const Position&, SourcePos) override {
      if (depth_ == 0) line_.moves.push_back(Move::null());
    }
    void begin_variation(SourcePos) override { ++depth_; }
    void end_variation(SourcePos) override { --depth_; }
    void end_game(std::string_view) override {
      if (line_.start.variant() != variant_) return;
      if (taken_ < limit_) out_.push_back(std::move(line_)), ++taken_;
    }
    bool full() const { return taken_ >= limit_; }

   private:
    const std::string& path_;
    std::size_t limit_, taken_ = 0;
    Variant variant_;
    std::vector<MainLine>& out_;
    MainLine line_;
    int depth_ = 0;
  };
  auto reader = PgnReader::open(path);
  if (!reader) {
    std::fprintf(stderr, "%s: %s\n", who.c_str(), reader.error().to_string().c_str());
    return false;
  }
  Collector lines(path, limit, variant, out);
  PgnReader::RawGame raw;
  while (!lines.full()) {
    auto more = (*reader)->next_raw(raw);
    if (!more) {
      std::fprintf(stderr, "%s: %s\n", who.c_str(), more.error().to_string().c_str());
      return false;
    }
    if (!*more) break;
    parse_game(raw.text, path, raw.number, raw.start, lines, untagged);
  }
  return true;
}

}  // namespace pgnarc::test
