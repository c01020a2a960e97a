// Runs every conformance vector of corpus/conformance/MANIFEST.tsv through the library, and
// checks that the worked examples of the format specification are what the code produces.
#include <unistd.h>

#include <cctype>
#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "support/pgn_util.h"
#include "codec/codec.h"
#include "pgn/xiangqi_pgn.h"
#include "pgnarc/pgnarc.h"

namespace pgnarc {
namespace {

struct Vector {
  std::string kind, name, setting, ids, why;
};

std::vector<Vector> manifest() {
  std::vector<Vector> out;
  std::istringstream in(test::read_file(test::corpus_path("conformance/MANIFEST.tsv")));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    Vector v;
    std::istringstream f(line);
    std::getline(f, v.kind, '\t');
    std::getline(f, v.name, '\t');
    std::getline(f, v.setting, '\t');
    std::getline(f, v.ids, '\t');
    std::getline(f, v.why, '\t');
    out.push_back(v);
  }
  return out;
}

// The archive vectors (the tokens have tests of their own, below).
std::vector<Vector> archive_vectors() {
  std::vector<Vector> out;
  for (const Vector& v : manifest())
    if (v.kind != "tokens") out.push_back(v);
  return out;
}

std::string vector_path(const Vector& v, const char* ext) {
  return test::corpus_path("conformance/" + v.kind + "/" + v.name + ext);
}

void PrintTo(const Vector& v, std::ostream* os) { *os << v.kind << "/" << v.name; }

class Conformance : public ::testing::TestWithParam<Vector> {};

TEST_P(Conformance, Vector) {
  const Vector& v = GetParam();
  SCOPED_TRACE(v.kind + "/" + v.name + " [" + v.ids + "] " + v.why);
  if (v.kind == "encode") {
    WriterOptions o;
    o.compress = false;
    o.threads = 1;
    o.moves = MoveCoding::kMax;  // the conformance settings' coder, unless the settings name another
    o.model_clocks = false;      // clock tracks as bytes, unless the settings say clocks=model
    o.derive_tags = false;       // tags as text, unless the settings say tags=derive or tags=coded
    o.code_tags = false;         // typed columns' codes as varints, unless the settings say tags=coded
    o.table_tags = false;        // no value table, unless the settings say tags=tables
    o.xiangqi_model = false;     // Xiangqi moves uniform, unless the settings say xiangqi=model
    o.name_entries = false;      // Event and Site values as tags, unless the settings say tags=names
    o.xiangqi_book = false;      // Xiangqi moves without the book, unless the settings say xiangqi=book
    // Settings: "-", or a comma-separated list of block-games=N, moves=uniform or moves=fast,
    // clocks=model, tags=derive, tags=coded, tags=tables or tags=names, variant=NAME and
    // xiangqi=model or xiangqi=book.
    std::istringstream settings(v.setting);
    for (std::string item; std::getline(settings, item, ',');) {
      if (item.starts_with("block-games=")) o.block_games = std::stoul(item.substr(12));
      else if (item == "moves=uniform") o.moves = MoveCoding::kUniform;
      else if (item == "moves=fast") o.moves = MoveCoding::kFast;
      else if (item == "clocks=model") o.model_clocks = true;
      else if (item == "tags=derive") o.derive_tags = true;
      else if (item == "tags=coded") o.derive_tags = o.code_tags = true;
      else if (item == "tags=tables") o.derive_tags = o.code_tags = o.table_tags = true;
      else if (item == "tags=names") o.derive_tags = o.code_tags = o.table_tags = o.name_entries = true;
      else if (item.starts_with("variant=")) ASSERT_TRUE(variant_from_name(item.substr(8), o.variant)) << item;
      else if (item == "xiangqi=model") o.xiangqi_model = true;
      else if (item == "xiangqi=book") o.xiangqi_model = o.xiangqi_book = true;
      else ASSERT_EQ(item, "-") << "unknown setting";
    }
    const test::ScratchDir scratch("conform");
    const std::string out = scratch.file(v.name + ".pga");
    auto w = ArchiveWriter::create(out, o);
    ASSERT_TRUE(w.ok());
    PgnReader reader(memory_input(test::read_file(vector_path(v, ".pgn"))), "input.pgn");
    ASSERT_TRUE((*w)->add_pgn(reader).ok());
    ASSERT_TRUE((*w)->finish().ok());
    EXPECT_EQ(test::read_file(out), test::read_file(vector_path(v, ".pga"))) << "writer output differs from the vector";
  } else if (v.kind == "valid") {
    auto a = Archive::open(vector_path(v, ".pga"));
    ASSERT_TRUE(a.ok()) << a.error().to_string();
    EXPECT_TRUE((*a)->verify().ok());
    std::string pgn;
    for (std::uint64_t i = 0; i < (*a)->game_count(); ++i) {
      auto g = (*a)->read_pgn(i);
      ASSERT_TRUE(g.ok()) << g.error().to_string();
      pgn += *g;
    }
    EXPECT_EQ(pgn, test::read_file(vector_path(v, ".pgn")));
  } else {
    ASSERT_EQ(v.kind, "invalid");
    auto a = Archive::open(vector_path(v, ".pga"));
    Status st = a.ok() ? (*a)->verify() : Status(a.error());
    ASSERT_FALSE(st.ok()) << "accepted a vector that must be rejected";
    EXPECT_EQ(to_string(st.error().code()), v.setting == "Corruption" ? std::string("corruption") : std::string("unsupported"))
        << st.error().to_string();
    if (a.ok()) {  // the parallel export decodes whole blocks at once, a path of its own
      Status ex = (*a)->export_pgn([](std::string_view) { return true; }, 2);
      ASSERT_FALSE(ex.ok()) << "export accepted a vector that must be rejected";
      EXPECT_EQ(ex.error().code(), st.error().code()) << ex.error().to_string();
    }
    // A tags section that breaks a TAGS rule fails every read of its games by number too, each
    // the first read of a fresh reader (which decodes only the games it needs of the section);
    // but for TAGS-8 and TAGS-10, a game's own derived and named tags, checked where its tags are
    // written out.
    if (a.ok() && v.ids.rfind("TAGS-", 0) == 0 && v.ids != "TAGS-8" && v.ids != "TAGS-10")
      for (std::uint64_t g = 0; g < (*a)->game_count(); ++g) {
        auto fresh = Archive::open(vector_path(v, ".pga"));
        ASSERT_TRUE(fresh.ok());
        EXPECT_FALSE((*fresh)->read_game(g).ok()) << "game " << g + 1 << " read";
        auto again = Archive::open(vector_path(v, ".pga"));
        EXPECT_FALSE((*again)->read_tags(g).ok()) << "game " << g + 1 << "'s tags read";
      }
  }
}

std::string vector_name(const ::testing::TestParamInfo<Vector>& info) { return info.param.kind + "_" + info.param.name; }

INSTANTIATE_TEST_SUITE_P(Manifest, Conformance, ::testing::ValuesIn(archive_vectors()), vector_name);

TEST(ConformanceManifest, CoversWhatTheSpecAsksFor) {
  const auto m = manifest();
  std::set<std::string> names, classes;
  for (const auto& v : m) {
    names.insert(v.kind + "/" + v.name);
    if (v.kind == "invalid") classes.insert(v.setting);
    EXPECT_FALSE(v.ids.empty()) << v.name << " cites no requirement";
  }
  for (const char* n : {"encode/empty", "encode/zero_plies", "encode/promotions", "encode/en_passant", "encode/castling",
                        "encode/chess960_king_stays", "encode/setup_black_to_move", "encode/null_moves",
                        "encode/nested_variations", "encode/verbatim", "encode/latin1_tags", "encode/many_blocks",
                        "valid/zstd_sections"})
    EXPECT_TRUE(names.count(n)) << n;
  EXPECT_EQ(classes, (std::set<std::string>{"Corruption", "Unsupported"}));
  EXPECT_GE(m.size(), 45u);
}

// The requirement IDs of the specification ([ID-N] where a rule states it), each with whether its
// text asks a reader to reject or refuse something: the text from the ID to the next ID or the end
// of its paragraph.
std::map<std::string, bool> spec_requirements() {
  std::map<std::string, bool> out;
  for (const char* file : {"pgnarc-format.md", "move-model-tables.md", "position-table.md"}) {
    const std::string text = test::read_file(std::string(PGNARC_CORPUS_DIR) + "/../format-spec/" + file);
    for (std::size_t at = text.find("`["); at != std::string::npos; at = text.find("`[", at + 2)) {
      const std::size_t end = text.find("]`", at);
      if (end == std::string::npos) break;
      const std::string id = text.substr(at + 2, end - at - 2);
      const bool is_id = id.find('-') != std::string::npos &&
                         std::all_of(id.begin(), id.end(), [](char c) { return std::isupper(c) || std::isdigit(c) || c == '-'; });
      if (!is_id) continue;
      std::size_t stop = std::min(text.find("`[", end), text.find("\n\n", end));
      const std::string rule = text.substr(end, stop == std::string::npos ? std::string::npos : stop - end);
      out[id] = out[id] || rule.find("reject") != std::string::npos || rule.find("refuse") != std::string::npos;
    }
  }
  return out;
}

// Every requirement of the specification is cited by a vector, every rule that asks a reader to
// reject or refuse by a vector a reader must reject (an invalid archive, a bad token), and every
// ID a vector cites is one the specification states.
TEST(ConformanceManifest, EveryRequirementHasAVector) {
  const auto rules = spec_requirements();
  ASSERT_GE(rules.size(), 40u);
  std::map<std::string, std::set<std::string>> cited;  // ID -> kinds citing it
  for (const Vector& v : manifest()) {
    std::istringstream ids(v.ids);
    for (std::string id; ids >> id;) {
      EXPECT_TRUE(rules.count(id)) << v.kind << "/" << v.name << " cites " << id << ", which the spec does not state";
      cited[id].insert(v.kind == "tokens" && v.setting != "-" ? "invalid" : v.kind);
    }
  }
  for (const auto& [id, rejects] : rules) {
    EXPECT_TRUE(cited.count(id)) << id << " is cited by no vector";
    if (rejects) EXPECT_TRUE(cited[id].count("invalid")) << id << " asks a reader to reject, and no invalid vector cites it";
  }
}

// The token files the manifest names: its kind "tokens", good ones (setting "-") or bad.
std::vector<std::string> token_files(bool good) {
  std::vector<std::string> out;
  for (const Vector& v : manifest())
    if (v.kind == "tokens" && (v.setting == "-") == good) out.push_back("conformance/" + v.name + ".tsv");
  return out;
}

// Tokens a reader must reject (spec 14, TOKEN-1, XQ-POS-1): bad_tokens.tsv, bad_xiangqi_tokens.tsv.
TEST(ConformanceTokens, EveryBadTokenIsRejected) {
  int tokens = 0;
  for (const std::string& file : token_files(false)) {
    std::istringstream in(test::read_file(test::corpus_path(file)));
    for (std::string line; std::getline(in, line); ++tokens) {
      const std::string token = line.substr(0, line.find('\t'));
      auto game = open_share_token(token);
      EXPECT_FALSE(game.ok()) << file << ": " << token << " (" << line.substr(token.size()) << ") opened";
    }
  }
  EXPECT_GE(tokens, 12);
}

// Share tokens (spec 14): each token of tokens.tsv and xiangqi_tokens.tsv opens to its game, and
// the game (read as pack reads it: a Xiangqi game as Xiangqi) gives the token; the spec's example
// is one of them.
TEST(ConformanceTokens, EveryTokenOpensToItsGameAndBack) {
  int tokens = 0, xiangqi = 0;
  bool example = false;
  for (const std::string& file : token_files(true)) {
    std::istringstream in(test::read_file(test::corpus_path(file)));
    std::string line;
    while (std::getline(in, line)) {
      const auto tab = line.find('\t');
      ASSERT_NE(tab, std::string::npos) << line;
      const std::string token = line.substr(0, tab);
      std::string pgn;
      for (std::size_t i = tab + 1; i < line.size(); ++i) {
        if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == 'n') {
          pgn += '\n';
          ++i;
        } else {
          pgn += line[i];
        }
      }
      auto game = open_share_token(token);
      ASSERT_TRUE(game.ok()) << token << ": " << game.error().message();
      std::string text;
      ASSERT_TRUE(write_pgn(*game, text).ok());
      EXPECT_EQ(text, pgn) << token;
      GameBuilder b;
      pgn::parse_game_or_xiangqi(pgn, file, 1, {}, b);
      ASSERT_TRUE(b.ok()) << token;
      EXPECT_EQ(share_token(b.game()).value(), token);
      example |= token == "ARHNKBxA" && pgn.find("1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0") != std::string::npos;
      xiangqi += b.game().rules == GameRules::kXiangqi;
      ++tokens;
    }
  }
  EXPECT_GE(tokens, 27);
  EXPECT_GE(xiangqi, 7);
  EXPECT_TRUE(example) << "the example of spec 14 is not in tokens.tsv";
  const std::string spec = test::read_file(std::string(PGNARC_CORPUS_DIR) + "/../format-spec/pgnarc-format.md");
  EXPECT_NE(spec.find("the token `ARHNKBxA`"), std::string::npos) << "spec 14's example token changed";
}

// The spec's hex must be the code's bytes, so the document cannot drift from the code.
std::string spec() { return test::read_file(std::string(PGNARC_CORPUS_DIR) + "/../format-spec/pgnarc-format.md"); }

std::string unhex(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    auto val = [](char c) { return c >= 'a' ? c - 'a' + 10 : c - '0'; };
    if (std::isxdigit(static_cast<unsigned char>(text[i])) && std::isxdigit(static_cast<unsigned char>(text[i + 1]))) {
      out += static_cast<char>(val(text[i]) * 16 + val(text[i + 1]));
      ++i;
    }
  }
  return out;
}

TEST(ConformanceSpec, WholeArchiveExampleIsTheVector) {
  const std::string s = spec();
  const auto begin = s.find("```hex\n", s.find("### 12.3"));
  ASSERT_NE(begin, std::string::npos);
  const auto end = s.find("```", begin + 7);
  std::string bytes;
  std::istringstream lines(s.substr(begin + 7, end - begin - 7));
  std::string line;
  while (std::getline(lines, line)) bytes += unhex(line.substr(line.find(':') + 1));
  EXPECT_EQ(bytes, test::read_file(test::corpus_path("conformance/encode/two_plies.pga")));
}

// Sections 12.1 and 12.2: the byte column of each table, stream by stream.
std::map<std::string, std::string> spec_table(const std::string& heading) {
  const std::string s = spec();
  std::size_t at = s.find(heading);
  std::map<std::string, std::string> streams;
  std::string current;
  std::istringstream lines(s.substr(at, s.find("###", at + 5) - at));
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.starts_with("| ") || line.starts_with("| stream") || line.starts_with("|---")) continue;
    const auto c1 = line.find('|', 1), c2 = line.find('|', c1 + 1);
    std::string name = line.substr(1, c1 - 1);  // the first cell, blank on continuation rows
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    if (!name.empty()) current = name;
    const std::string cell = line.substr(c1 + 1, c2 - c1 - 1);
    const auto b = cell.find('`'), e = cell.rfind('`');
    if (b != std::string::npos && e > b) streams[current] += unhex(cell.substr(b + 1, e - b - 1));
  }
  return streams;
}

TEST(ConformanceSpec, GameRecordExamplesAreTheCodecsBytes) {
  // Both with the uniform coder, whose frequencies do not depend on the model's weights.
  for (auto [heading, pgn] : {std::pair<const char*, const char*>{"### 12.1", "1. e4 e5 {c}"},
                              {"### 12.2", "[Event \"x\"]\n\n{c} 1. e4 $1 (1. d4) -- 1-0"}}) {
    auto games = test::read_all(pgn);
    ASSERT_EQ(games.size(), 1u);
    codec::CodecStreams s;
    s.coder = codec::MoveCoder::kUniform;
    ASSERT_TRUE(codec::encode_game(games[0].game, s).ok());
    auto table = spec_table(heading);
    EXPECT_EQ(table["moves"], s.moves) << heading;
    EXPECT_EQ(table["structure"], s.structure) << heading;
    EXPECT_EQ(table["texts"], s.texts) << heading;
  }
}

}  // namespace
}  // namespace pgnarc
