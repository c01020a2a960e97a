// Archives for tests: packing PGN into a scratch directory and reading every game back, through
// the public API only.
#pragma once

#include <string>
#include <vector>

#include "pgnarc/pgnarc.h"
#include "support/pgn_util.h"
#include "scan_oracle.h"

namespace pgnarc::test {

// Files of this test program live in one scratch directory, removed when the program ends.
inline std::string temp_path(const std::string& name) {
  static const ScratchDir dir("archive");
  return dir.file(name);
}

// All sample files, as one PGN text.
inline const std::string& sample_pgn() {
  static const std::string text = [] {
    std::string t;
    for (const std::string& f : pgn_corpus_files()) t += read_file(f) + "\n\n";
    return t;
  }();
  return text;
}

// `pgn` packed into the scratch file `name` with options `o`; the archive's path.
inline std::string pack(const std::string& pgn, const std::string& name, WriterOptions o = {}) {
  const std::string path = temp_path(name);
  auto w = ArchiveWriter::create(path, o);
  EXPECT_TRUE(w.ok());
  PgnReader reader(memory_input(pgn), "sample.pgn");
  EXPECT_TRUE((*w)->add_pgn(reader).ok());
  auto stats = (*w)->finish();
  EXPECT_TRUE(stats.ok()) << (stats.ok() ? "" : stats.error().to_string());
  return path;
}

inline std::vector<ReadGame> unpack_games(const std::string& path) {
  auto a = Archive::open(path);
  EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().to_string());
  std::vector<ReadGame> out;
  if (!a.ok()) return out;
  auto st = (*a)->for_each([&](std::uint64_t, ArchiveGame& g) {
    ReadGame r;
    r.ok = !g.raw;
    if (g.raw) r.raw = g.raw_text;
    else r.game = std::move(g.game);
    out.push_back(std::move(r));
    return true;
  });
  EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().to_string());
  return out;
}

// Games as the archive must give them back: parsed games, or raw bytes for unreadable ones.
inline std::vector<ReadGame> expected_games(const std::string& pgn) {
  auto games = read_all(pgn);
  for (auto& g : games) g.error.clear();
  return games;
}

inline std::string file_bytes(const std::string& path) { return read_file(path); }

inline ArchiveInfo info_of(const std::string& path) {
  auto a = Archive::open(path);
  EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().to_string());
  if (!a.ok()) return {};
  auto i = (*a)->info();
  EXPECT_TRUE(i.ok());
  return i.ok() ? *i : ArchiveInfo{};
}

inline WriterOptions small_blocks() {
  WriterOptions o;
  o.block_games = 7;
  o.threads = 2;
  return o;
}

// Archive::find(q) against the scan: EXPECTs them equal (naming `label`) and returns the games
// found (none if either failed).
inline std::vector<std::uint64_t> expect_find_equals_scan(Archive& a, const Query& q, const std::string& label) {
  auto fast = a.find(q);
  auto slow = find_by_scan(a, q);
  EXPECT_TRUE(fast.ok() && slow.ok()) << label;
  if (!fast.ok() || !slow.ok()) return {};
  EXPECT_EQ(*fast, *slow) << label;
  return *fast;
}

}  // namespace pgnarc::test
