// Helpers for PGN tests: read every game of a text, feeding the reader in chunks of any size.
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "pgnarc/pgn.h"
#include "support/test_util.h"

namespace pgnarc::test {

// Delivers at most `chunk` bytes per read, as a slow pipe would.
class ChunkedSource : public ByteSource {
 public:
  ChunkedSource(std::string data, std::size_t chunk) : data_(std::move(data)), chunk_(chunk) {}
  Result<std::size_t> read(char* buf, std::size_t n) override {
    const std::size_t k = std::min({n, chunk_, data_.size() - pos_});
    std::memcpy(buf, data_.data() + pos_, k);
    pos_ += k;
    return k;
  }

 private:
  std::string data_;
  std::size_t chunk_;
  std::size_t pos_ = 0;
};

// One game as read: the Game if it parsed, else the error message and the raw bytes.
struct ReadGame {
  bool ok = false;
  Game game;
  std::string error;
  std::string raw;
  bool operator==(const ReadGame&) const = default;
};

inline std::vector<ReadGame> read_all(std::unique_ptr<ByteSource> src, const std::string& name = "test.pgn") {
  PgnReader reader(std::move(src), name);
  GameBuilder b;
  std::vector<ReadGame> out;
  for (;;) {
    auto got = reader.next(b);
    EXPECT_TRUE(got.ok()) << (got.ok() ? "" : got.error().to_string());
    if (!got.ok() || !*got) break;
    ReadGame g;
    g.ok = b.ok();
    if (g.ok) g.game = std::move(b.game());
    else {
      g.error = b.error().message();
      g.raw = b.raw_text();
    }
    out.push_back(std::move(g));
  }
  return out;
}

inline std::vector<ReadGame> read_all(const std::string& text, std::size_t chunk = 1 << 20,
                                      const std::string& name = "test.pgn") {
  return read_all(std::make_unique<ChunkedSource>(text, chunk), name);
}

// Writes games back as PGN: canonical for good games, verbatim bytes for the others.
inline std::string write_all(const std::vector<ReadGame>& games) {
  std::string out;
  for (const ReadGame& g : games) {
    if (g.ok) {
      auto st = write_pgn(g.game, out);
      EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().to_string());
    } else {
      write_raw_game(g.raw, out);
    }
  }
  return out;
}

inline std::vector<std::string> pgn_corpus_files() {
  std::vector<std::string> files;
  for (const char* f : {"lichess_2021-10_clk_eval.pgn", "lichess_2016-05_no_event.pgn", "lichess_misc_exports.pgn",
                        "twic_events.pgn", "twic_clock_comments_wrapped.pgn", "pgnmentor_crlf.pgn",
                        "annotated_human.pgn", "dortmund_latin1_crlf.pgn", "chess960_misc.pgn", "setup_fen.pgn",
                        "variant_crazyhouse.pgn", "variant_seirawan.pgn", "tcec_engine_comments.pgn",
                        "book_8moves_crlf.pgn", "frc_fen_only.pgn"})
    files.push_back(corpus_path(std::string("pgn/") + f));
  return files;
}

}  // namespace pgnarc::test
