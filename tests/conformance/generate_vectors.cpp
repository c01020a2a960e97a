// pgnarc-vectors: writes the conformance vectors of corpus/conformance/ (run by hand after a
// format change; tests/conformance/conformance_test.cpp checks the committed vectors against
// the library).
//
//   pgnarc-vectors DIR
//
// encode/NAME.pgn + NAME.pga: the exact archive a conforming writer produces from the PGN with
//   the conformance settings (sections stored, one thread, blocks of 4096 games or 256 KiB
//   unless the manifest says otherwise).
// valid/NAME.pga + NAME.pgn: an archive and the canonical PGN it decodes to.
// invalid/NAME.pga: an archive a reader must reject; the manifest gives the error class.
#include <cstdio>
#include <functional>
#include <fstream>
#include <set>
#include <sstream>

#include <zstd.h>

#include "codec/entropy/arith_coder.h"
#include "codec/entropy/symbol_coder.h"
#include "codec/record/clock_model.h"
#include "codec/position/position_code.h"
#include "codec/position/share_token.h"
#include "codec/position/xiangqi_position.h"
#include "common/bytes.h"
#include "common/endian.h"
#include "common/hash.h"
#include "common/zstd_frame.h"
#include "container/block_reader.h"
#include "container/format.h"
#include "container/position_filter.h"
#include "container/tags_section.h"
#include "container/text_columns.h"
#include "container/value_tables.h"
#include "pgn/xiangqi_pgn.h"
#include "pgnarc/pgnarc.h"
#include "support/archive_surgery.h"

namespace {

using namespace pgnarc;
using namespace pgnarc::container;
using namespace pgnarc::test;
using pgnarc::common::get_le;
using pgnarc::common::hash64;
using pgnarc::common::put_le;
using pgnarc::common::put_prefixed;
using pgnarc::common::put_varint;

std::string dir;
std::string manifest;

void write(const std::string& rel, const std::string& bytes) {
  std::ofstream(dir + "/" + rel, std::ios::binary) << bytes;
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string pack(const std::string& pgn, WriterOptions o) {
  const std::string tmp = dir + "/.tmp.pga";
  auto w = ArchiveWriter::create(tmp, o);
  PgnReader reader(memory_input(pgn), "input.pgn");
  if (!(*w)->add_pgn(reader).ok() || !(*w)->finish().ok()) std::abort();
  std::string bytes = read(tmp);
  std::remove(tmp.c_str());
  return bytes;
}

std::string unpack(const std::string& pga) {
  const std::string tmp = dir + "/.tmp.pga";
  write(".tmp.pga", pga);
  auto a = Archive::open(tmp);
  std::string out;
  if (!a) std::abort();
  for (std::uint64_t i = 0; i < (*a)->game_count(); ++i) out += *(*a)->read_pgn(i);
  std::remove(tmp.c_str());
  return out;
}

WriterOptions stored(std::size_t block_games = 4096) {
  WriterOptions o;
  o.compress = false;
  o.threads = 1;
  o.block_games = block_games;
  o.block_bytes = 256 * 1024;  // the conformance settings, whatever the library's default
  o.moves = MoveCoding::kMax;  // the conformance settings' coder; vectors of others say so
  o.model_clocks = false;      // clock tracks as bytes; vectors of the clock model say so
  o.derive_tags = false;       // tags as text; vectors of derived tags say so
  o.code_tags = false;         // typed columns' codes as varints; vectors of coded tags say so
  o.table_tags = false;        // no value table; vectors of table columns say so
  o.xiangqi_model = false;     // Xiangqi moves uniform; vectors of the Xiangqi model say so
  o.name_entries = false;      // Event and Site values as tags; vectors of name entries say so
  o.xiangqi_book = false;      // Xiangqi moves without the book; vectors of the book say so
  return o;
}

// The archive of encode/verbatim_bad_tag's PGN as this writer made it when it stored the
// tag pairs before a malformed one only (REC-RAW-1 leaves the choice to the writer): kept as it
// was written, a valid archive that every reader must go on reading.
constexpr const char* kTagsBeforeBadPair =
    "895047410d0a1a0a0101010000000000000000000000000000000000350ae2a5504741420605010101000000000000001e00"
    "00001e000000010000000000000000000000020000000800000008000000030000000000000000000000040000004e000000"
    "4e00000002054576656e740557686974650200010508060001b94bd013080602010001000001004e00204d5b4576656e7420"
    "2262726f6b656e225d0a5b57686974652022416e616e64225d0a5b426c61636b204361726c73656e5d0a5b526573756c7420"
    "22312d30225d0a0a312e20653420653520312d30cf4644046915ff8c5047414e000000000a0000000a0000000100416e616e"
    "640001009d8936a1e00d7c045047414e010000000b0000000b000000010062726f6b656e0001005d2b08f8d34deb75504741"
    "54000000000b0000000b0000000120c4010100ffc1d72f104362cadf3e1139465047414900200000000001a90223010001e4"
    "01220105416e616e6401860223010662726f6b656e00004c0100000000000029000000000000000100000000000000010000"
    "00000000004882622e1ec065dd91d9bf2350474146";

std::string from_hex(std::string_view hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
  return out;
}

void encode_vector(const std::string& name, const std::string& pgn, const std::string& ids, const std::string& why,
                   std::size_t block_games = 4096, MoveCoding moves = MoveCoding::kModel,
                   Variant variant = Variant::kStandard, bool model_clocks = false, bool derive_tags = false,
                   bool code_tags = false, bool table_tags = false, bool xiangqi_model = false) {
  // Every game must be coded, except in the vectors about verbatim games.
  PgnReader check(memory_input(pgn), name);
  for (std::string text; true;) {
    PgnReader::RawGame rg;
    if (!*check.next_raw(rg)) break;
    GameBuilder b;
    pgn::parse_game_or_xiangqi(rg.text, name, rg.number, rg.start, b, variant);
    codec::CodecStreams s;
    s.modelled_tracks = model_clocks;
    s.xiangqi_model = s.xiangqi_spellings = xiangqi_model;
    Status st = b.ok() ? codec::encode_game(b.game(), s) : Status(b.error());
    if (!st && !name.starts_with("verbatim")) {
      std::fprintf(stderr, "vector %s: %s\n", name.c_str(), st.error().message().c_str());
      std::exit(1);
    }
  }
  WriterOptions o = stored(block_games);
  o.moves = moves;
  o.variant = variant;
  o.model_clocks = model_clocks;
  o.derive_tags = derive_tags || code_tags || table_tags;
  o.code_tags = code_tags || table_tags;
  o.table_tags = table_tags;
  o.xiangqi_model = xiangqi_model;
  const std::string pga = pack(pgn, o);
  write("encode/" + name + ".pgn", pgn);
  write("encode/" + name + ".pga", pga);
  write("valid/" + name + ".pga", pga);
  write("valid/" + name + ".pgn", unpack(pga));
  std::string settings;
  if (block_games != 4096) settings = "block-games=" + std::to_string(block_games);
  if (moves != MoveCoding::kMax)
    settings += (settings.empty() ? "" : ",") + std::string(moves == MoveCoding::kUniform ? "moves=uniform" : "moves=fast");
  if (model_clocks) settings += std::string(settings.empty() ? "" : ",") + "clocks=model";
  if (derive_tags || code_tags || table_tags)
    settings += std::string(settings.empty() ? "" : ",") + (table_tags ? "tags=tables" : code_tags ? "tags=coded" : "tags=derive");
  if (variant != Variant::kStandard) {
    std::string v = variant_name(variant);
    for (char& c : v) c = c == ' ' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    settings += std::string(settings.empty() ? "" : ",") + "variant=" + v;
  }
  if (xiangqi_model) settings += std::string(settings.empty() ? "" : ",") + "xiangqi=model";
  manifest += "encode\t" + name + "\t" + (settings.empty() ? "-" : settings) + "\t" + ids + "\t" + why + "\n";
  manifest += "valid\t" + name + "\t-\t" + ids + "\tthe archive of encode/" + name + "\n";
}

void valid_vector(const std::string& name, const std::string& pga, const std::string& ids, const std::string& why) {
  write("valid/" + name + ".pga", pga);
  write("valid/" + name + ".pgn", unpack(pga));
  manifest += "valid\t" + name + "\t-\t" + ids + "\t" + why + "\n";
}

void invalid_vector(const std::string& name, const std::string& pga, const char* cls, const std::string& ids,
                    const std::string& why) {
  write("invalid/" + name + ".pga", pga);
  manifest += "invalid\t" + name + "\t" + cls + "\t" + ids + "\t" + why + "\n";
}

// An archive of one block whose texts and raw sections are group-framed (encoding 2), one game
// per directory group: the games of encode/nested_variations and encode/verbatim, and two games
// (one coded, one verbatim) whose long comments compress well enough to pay for the frames.
std::string framed_archive() {
  std::string remark;
  for (int i = 0; i < 12; ++i) remark += "the same engine line again, ";
  const std::string pgn = read(dir + "/encode/nested_variations.pgn") + "\n[Event \"remarks\"]\n\n1. e4 {" + remark +
                          "} e5 {" + remark + "} *\n\n" + read(dir + "/encode/verbatim.pgn") +
                          "\n[Event \"remarks\"]\n[Variant \"Seirawan\"]\n\n1. e4 {" + remark + "} e5 {" + remark +
                          "} *\n";
  WriterOptions o = stored();
  o.compress = true;
  o.frame_bytes = 1;
  o.text_columns = false;
  return pack(pgn, o);
}

// Games with engine reports after every move ("d=20, mt=00:01:07, ...") as line comments (brace
// comments would be records, 8.3.3), whose texts compress smaller in their column form (9.3.2).
std::string engine_pgn() {
  const char* moves[] = {"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6"};
  std::string pgn;
  for (int g = 0; g < 6; ++g) {
    pgn += "[Event \"engines\"]\n[Round \"" + std::to_string(g + 1) + "\"]\n\n";
    for (int i = 0; i < 14; ++i) {
      if (i % 2 == 0) pgn += std::to_string(i / 2 + 1) + ". ";
      pgn += std::string(moves[i]) + " ;d=" + std::to_string(18 + (i * 7 + g) % 9) + ", mt=00:0" +
             std::to_string((i + g) % 6) + ":" + std::to_string(10 + (i * 13 + g * 5) % 50) +
             ", tl=" + std::to_string(7200 - i * 61 - g) + ", n=" + std::to_string(1000000 + i * 98765 + g * 4321) +
             ", pv=" + moves[i] + ", tb=0\n";
    }
    pgn += "*\n\n";
  }
  return pgn;
}

// engine_pgn() in one block, texts in the column form: one frame (encoding 4) or one per group
// of one game (5).
std::string columns_archive(bool by_group) {
  WriterOptions o = stored();
  o.compress = true;
  o.frame_bytes = by_group ? 1 : 0;
  return pack(engine_pgn(), o);
}

// An archive of one block (from columns_archive(false)) whose texts section is one zstd frame of
// `form`, given as a column form: the block, block table, index and footer made to match.
std::string with_texts_form(const std::string& pga, const std::string& form) {
  ArchiveParts parts = parts_of(pga);
  std::string block = pga.substr(kHeaderSize, parts.blocks.at(0).size);
  const auto [at, size] = section_of(block, kTexts);
  const std::string frame = common::compress_frame(form, 9);
  block = block.substr(0, at) + frame + block.substr(at + size, block.size() - 8 - at - size);
  const std::size_t entry = kBlockHeaderSize + kTexts * kSectionEntrySize;
  for (int i = 0; i < 4; ++i) block[entry + 4 + i] = static_cast<char>(frame.size() >> (8 * i));
  put_le(block, hash64(block), 8);
  parts.blocks[0].size = block.size();
  for (auto& field : parts.index.name_chunks) field.clear();  // (search then scans)
  return rebuild(encode_file_header(0) + block, kHeaderSize + block.size(), "", parts.index, parts.blocks);
}

// 400 games whose tags repeat from block to block (events, players, openings, annotators) more
// than within one, for a tag dictionary, in blocks of 50 games, sections compressed, the
// dictionary at most 4 KiB.
std::string dictionary_pgn() {
  const char* events[] = {"Rated Blitz game", "Rated Bullet game", "Rated Rapid game", "Casual Blitz game"};
  const char* surnames[] = {"Aronian", "Carlsen", "Caruana", "Nepomniachtchi", "Vachier-Lagrave", "Firouzja",
                            "Mamedyarov", "Duda-Krzysztofowicz", "Radjabov", "Grischuk", "Karjakin"};
  const char* forenames[] = {"Levon", "Magnus", "Fabiano", "Alexander", "Maxime", "Alireza", "Shakhriyar"};
  const char* variations[] = {"Exchange Variation",      "Advance Variation, Nimzowitsch Gambit",
                              "Closed System",           "Main Line with 7...Qb6",
                              "Poisoned Pawn Variation", "English Attack, Perenyi Gambit",
                              "Fianchetto System",       "Rubinstein Attack",
                              "Modern Line, Anti-Marshall"};
  const char* annotators[] = {"Stockfish 15 at depth twenty", "Komodo Dragon 3 in analysis mode",
                              "Leela Chess Zero with network 791556", "Human annotator from the club bulletin"};
  const char* openings[] = {"Sicilian Defense: Najdorf Variation", "French Defense: Winawer Variation",
                            "Queen's Gambit Declined: Orthodox Defense", "Ruy Lopez: Berlin Defense",
                            "King's Indian Defense: Classical Variation"};
  std::string pgn;
  for (int i = 0; i < 400; ++i) {
    const auto n = [](int v) { return std::to_string(v); };
    pgn += std::string("[Event \"") + events[i % 4] + "\"]\n[Site \"https://example.org/" + n(i * 7919 % 100003) +
           "\"]\n[Date \"2021.10." + (i % 28 < 9 ? "0" : "") + n(i % 28 + 1) + "\"]\n[White \"" + std::string(surnames[i * 5 % 11]) + ", " + forenames[i * 3 % 7] +
           "\"]\n[Black \"" + std::string(surnames[(i * 3 + 1) % 11]) + ", " + forenames[(i + 2) % 7] + "\"]\n[Annotator \"" + annotators[i / 50 % 4] + "\"]\n[Result \"1-0\"]\n[WhiteElo \"" + n(1500 + i * 13 % 700) +
           "\"]\n[BlackElo \"" + n(1500 + i * 17 % 700) + "\"]\n[TimeControl \"180+2\"]\n[ECO \"B" + n(10 + i % 90) +
           "\"]\n[Opening \"" + openings[i % 5] + ", " + variations[i * 7 % 9] + "\"]\n[Termination \"Normal\"]\n\n1. e4 e5 1-0\n\n";
  }
  return pgn;
}
WriterOptions dictionary_options() {
  WriterOptions o = stored(50);
  o.compress = true;
  o.dictionary_bytes = 4096;
  o.dictionary_level = 9;  // the level of the committed vectors' dictionary elements
  return o;
}

// `s` with the byte at `at` xor-ed with `x`.
std::string flip(std::string s, std::size_t at, char x = 1) {
  s[at] = static_cast<char>(s[at] ^ x);
  return s;
}

// `pga`, of one block and no name chunks, with that block given the optional sections that a later
// minor version may add (9.3): for each (id, encoding, bytes), a section table entry after the
// five and the bytes after theirs.
struct OptionalSection {
  std::uint8_t id, encoding;
  std::string bytes;
};
std::string with_optional_sections(const std::string& pga, const std::vector<OptionalSection>& sections) {
  return resize_block(pga, [&](std::string& block) {
    std::string table;
    for (const OptionalSection& s : sections) {
      table += static_cast<char>(s.id);
      table += static_cast<char>(s.encoding);
      put_le(table, 0, 2);
      put_le(table, s.bytes.size(), 4);
      put_le(table, s.bytes.size(), 4);
      block += s.bytes;
    }
    block.insert(kBlockHeaderSize + kSections * kSectionEntrySize, table);
    block[5] = static_cast<char>(kSections + sections.size());
  });
}

// `pga` with the index extensions `extensions` (9.5).
std::string with_extensions(const std::string& pga, const std::vector<IndexExtension>& extensions) {
  Index index = parts_of(pga).index;
  index.extensions = extensions;
  return with_index(pga, index);
}

// `pga`, of one block and no name chunks, with section `s` of that block stored as `stored` in
// `encoding` (its raw size kept).
std::string with_section(const std::string& pga, int s, std::uint8_t encoding, const std::string& stored) {
  return resize_block(pga, [&](std::string& block) {
    const auto [at, size] = section_of(block, s);
    block.replace(at, size, stored);
    const std::size_t e = kBlockHeaderSize + s * kSectionEntrySize;
    block[e + 1] = static_cast<char>(encoding);
    std::string n;
    put_le(n, stored.size(), 4);
    block.replace(e + 4, 4, n);
  });
}

// One Zstandard frame of `bytes`, with or without its content size in the header.
std::string zstd_frame(const std::string& bytes, bool content_size) {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, content_size ? 1 : 0);
  std::string out(ZSTD_compressBound(bytes.size()), '\0');
  const std::size_t n = ZSTD_compress2(c, out.data(), out.size(), bytes.data(), bytes.size());
  ZSTD_freeCCtx(c);
  if (ZSTD_isError(n)) std::abort();
  out.resize(n);
  return out;
}

// The frames of 9.3.4: one frame, nothing after it, a dictionary only where one may be named.
void frame_rule_vectors() {
  const std::string two = read(dir + "/encode/two_plies.pga");
  const std::string texts = "\x01" "c";  // the texts section of two_plies: "c"
  valid_vector("zstd_without_size", with_section(two, kTexts, kZstd, zstd_frame(texts, false)), "ZSTD-1",
               "a texts section of encoding 1 whose frame header omits Frame_Content_Size");
  invalid_vector("zstd_two_frames", with_section(two, kTexts, kZstd, zstd_frame(texts, true) + zstd_frame("", true)),
                 "Corruption", "ZSTD-1", "a texts section of encoding 1 holding two frames");
  invalid_vector("zstd_skippable_after",
                 with_section(two, kTexts, kZstd, zstd_frame(texts, true) + std::string("\x50\x2a\x4d\x18\x00\x00\x00\x00", 8)),
                 "Corruption", "ZSTD-1", "a texts section of encoding 1: a frame, then an empty skippable frame");
  // The frame header descriptor's Dictionary_ID_Flag (bits 0-1) set to 1 and a one-byte ID 7
  // after the descriptor (and the window descriptor, absent in a single-segment frame).
  std::string named = zstd_frame(texts, true);
  const auto fhd = static_cast<std::uint8_t>(named[4]);
  named[4] = static_cast<char>(fhd | 1);
  named.insert((fhd & 0x20) ? 5 : 6, 1, '\x07');
  invalid_vector("zstd_names_dictionary", with_section(two, kTexts, kZstd, named), "Corruption", "ZSTD-1",
                 "a texts section of encoding 1 whose frame names dictionary 7");
  invalid_vector("dictionary_frame_names_none", with_section(two, kTags, kZstdDictionary, zstd_frame(std::string(2, '\0'), true)),
                 "Corruption", "BLOCK-5 ZSTD-1", "a tags section of encoding 3 whose frame names no dictionary");
  invalid_vector("block_games_0", edit_block(two, [](std::string& b) { b[8] = 0; }), "Corruption", "BLOCK-1",
                 "a block header's game count of 0");
  invalid_vector("section_reserved", edit_block(two, [](std::string& b) { b[kBlockHeaderSize + kSectionEntrySize + 2] = 1; }),
                 "Corruption", "BLOCK-1", "the moves section entry's reserved bytes not zero");
}

// Xiangqi games coded by the Xiangqi model (7.9, format 1.8): a master game, a mate that ends an
// unannotated line with the end alone, a variation that starts from the history of the ply it
// replaces, beside a chess game; under each coder, and beside a modelled clock track.
void xiangqi_model_vectors() {
  const std::string pgn =
      "[Event \"Jiafun Cup National Champion 1997\"]\n"
      "[Red \"LIU DianZhong\"]\n"
      "[Black \"LIU DaHua\"]\n"
      "\n"
      "1. h2e2 b9c7 2. h0g2 h7f7 3. g3g4 h9g7 4. b2c2 i9h9 5. b0a2 a9b9 6. a0b0 b7b3 7. c3c4 h9h5 8. i0h0 "
      "h5d5 9. c2c6 c9e7 10. e2f2 d5d6 11. c4c5 b3b2 12. h0h8 b2g2 13. b0b9 c7b9 14. h8b8 g2a2 15. c0a2 b9d8 "
      "16. c6c9 d9e8 17. c9a9 d6d7 18. b8b9 e8d9 19. b9b8 d9e8 20. f2d2 d7a7 21. b8b9 e8d9 22. b9d9 e9e8 "
      "23. c5d5 d8b7 24. a9f9 g6g5 25. d2g2 f7f8 26. g4g5 g7f9 27. d9f9 a7a9 28. f9a9 b7a9 29. g5g6 a9c8 "
      "30. g2e2 e8e9 31. e2e6 f8e8 32. e6e8 e9e8 33. i3i4 e7c9 34. g6h6 c8e7 35. d5e5 e7c6 36. e5e6 c6b4 "
      "37. a2c4 a6a5 38. h6i6 b4c2\n"
      "\n"
      "[Event \"mate\"]\n"
      "[Game \"Chinese Chess\"]\n"
      "[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\"]\n"
      "[Result \"1-0\"]\n"
      "\n"
      "1. e1d1 1-0\n"
      "\n"
      "[Event \"variation\"]\n"
      "[Game \"Chinese Chess\"]\n"
      "\n"
      "1. h2e2 h9g7 2. h0g2 {the usual} i9h9 (2... b9c7 3. i0h0 i9h9) 3. i0h0 *\n"
      "\n"
      "[Event \"chess\"]\n"
      "[White \"a\"]\n"
      "[Black \"b\"]\n"
      "\n"
      "1. e4 e5 2. Nf3 Nc6 1/2-1/2\n";
  const std::string ids = "XQ-MODEL-1 XQ-MODEL-2 XQ-REC-1";
  encode_vector("xiangqi_model", pgn, ids,
                "Xiangqi games coded by the Xiangqi model (codec 11, the model coder): a master game, a mate "
                "ending an unannotated line (the end alone, frequency 1), a variation beginning with the history "
                "of the ply it replaces, then a game of chess",
                4096, MoveCoding::kMax, Variant::kStandard, false, false, false, false, true);
  encode_vector("xiangqi_model_fast", pgn, ids,
                "the games of encode/xiangqi_model in a block of the fast coder (codec 11, coder 2): the same "
                "Xiangqi frequencies, the chess game's the fast model's",
                4096, MoveCoding::kFast, Variant::kStandard, false, false, false, false, true);
  encode_vector("xiangqi_model_uniform", pgn, "XQ-MODEL-1 XQ-REC-1",
                "the games of encode/xiangqi_model under the uniform coder: codec 9 (read version 1.7), every "
                "Xiangqi move 4096",
                4096, MoveCoding::kUniform, Variant::kStandard, false, false, false, false, true);
  encode_vector("xiangqi_model_tracks",
                "[Event \"clocks\"]\n"
                "[White \"a\"]\n"
                "[Black \"b\"]\n"
                "[TimeControl \"60+0\"]\n"
                "\n"
                "1. e4 { [%clk 0:01:00] } e5 { [%clk 0:01:00] } 2. Nf3 { [%clk 0:00:58] } 1-0\n"
                "\n"
                "[Event \"Xiangqi\"]\n"
                "[Game \"Chinese Chess\"]\n"
                "[Format \"WXF\"]\n"
                "\n"
                "1. C2.5 H8+7 2. H2+3 R9.8 *\n",
                ids,
                "a Xiangqi game beside a chess game's modelled clock track: codec 12",
                4096, MoveCoding::kMax, Variant::kStandard, true, false, false, false, true);
  WriterOptions o = stored(4096);
  o.xiangqi_model = true;
  invalid_vector("unknown_codec_13", edit_block(pack(pgn, o), [](std::string& b) { b[4] = 13; }), "Unsupported",
                 "BLOCK-1", "a block of move codec 13 (not defined in 1.8): refused as unsupported");
}

// Format 1.10: move texts in GB18030 and Big5, tandem pieces named by their file (5.7.1), in
// blocks of codec 14 and 15.
void xiangqi_spelling_vectors() {
  const std::string gb18030 =
      "[Event \"GB18030\"]\n"
      "[Game \"Chinese Chess\"]\n"
      "\n"
      "1. \xc5\xda\xb6\xfe\xc6\xbd\xce\xe5 \xc2\xed\xa3\xb8\xbd\xf8\xa3\xb7 2. \xc2\xed\xb6\xfe\xbd\xf8\xc8\xfd "
      "\xb3\xb5\xa3\xb9\xc6\xbd\xa3\xb8 3. \xb3\xb5\xd2\xbb\xc6\xbd\xb6\xfe \xd7\xe4\xa3\xb7\xbd\xf8\xa3\xb1 "
      "4. \xb3\xb5\xb6\xfe\xbd\xf8\xc1\xf9 *\n"
      "\n"
      "[Event \"WXF, full-width, GB18030\"]\n"
      "[Game \"Chinese Chess\"]\n"
      "\n"
      "1. \xa3\xc3\xa3\xb2\xa3\xbd\xa3\xb5 \xa3\xc8\xa3\xb8\xa3\xab\xa3\xb7 2. \xa3\xc8\xa3\xb2\xa3\xab\xa3\xb3 *\n"
      "\n"
      "[Event \"UTF-8\"]\n"
      "[Game \"Chinese Chess\"]\n"
      "\n"
      "1. 炮二平五 马８进７ *\n"
      "\n"
      "[Event \"chess\"]\n"
      "[White \"a\"]\n"
      "[Black \"b\"]\n"
      "\n"
      "1. e4 e5 1/2-1/2\n";
  encode_vector("xiangqi_gb18030", gb18030, "XQ-NOTATION-1 XQ-TEXT-3 XQ-TEXT-4 XQ-REC-1",
                "Xiangqi move texts in GB18030 (codec 14), Chinese and full-width WXF, beside a game in UTF-8 "
                "and a game of chess in the same block",
                4096, MoveCoding::kMax, Variant::kStandard, false, false, false, false, true);
  const std::string big5 =
      "[Event \"Big5\"]\n"
      "[Game \"Chinese Chess\"]\n"
      "[Result \"*\"]\n"
      "\n"
      "1. \xac\xb6\xa4G\xa5\xad\xa4\xad \xb0\xa8\xa2\xb7\xb6i\xa2\xb6 2. \xb0\xa8\xa4G\xb6i\xa4T "
      "\xa8\xae\xa2\xb8\xa5\xad\xa2\xb7 3. \xab\xd3\xa4\xad\xb6i\xa4@ *\n";
  encode_vector("xiangqi_big5", big5, "XQ-NOTATION-1 XQ-TEXT-4 XQ-REC-1",
                "a Xiangqi game in Big5 (codec 14, the fast coder): 馬 車 進 帥, each named by its notation bytes",
                4096, MoveCoding::kFast, Variant::kStandard, false, false, false, false, true);
  const std::string tandem =
      "[Event \"tandem pieces by file\"]\n"
      "[Game \"Chinese Chess\"]\n"
      "[FEN \"3k5/9/9/9/7C1/2N6/R8/2N4C1/9/R3K4 w - - 0 1\"]\n"
      "\n"
      "1. 车九进六 将4进1 2. 炮二进四 *\n"
      "\n"
      "[Event \"tandem pieces by file, WXF\"]\n"
      "[Game \"Chinese Chess\"]\n"
      "[Format \"WXF\"]\n"
      "[FEN \"3k5/9/9/9/7C1/2N6/R8/2N4C1/9/R3K4 w - - 0 1\"]\n"
      "\n"
      "1. R9+6 K4+1 2. C2+4 *\n"
      "\n"
      "[Event \"clocks\"]\n"
      "[White \"a\"]\n"
      "[Black \"b\"]\n"
      "[TimeControl \"60+0\"]\n"
      "\n"
      "1. e4 { [%clk 0:01:00] } e5 { [%clk 0:01:00] } 2. Nf3 { [%clk 0:00:58] } 1-0\n";
  encode_vector("xiangqi_tandem_by_file", tandem, "XQ-TEXT-2 XQ-NOTATION-1 XQ-REC-1",
                "two chariots and two cannons on a file named by their file where the other cannot make the "
                "move (tandem by file 1), beside a chess game's modelled clock track: codec 15",
                4096, MoveCoding::kMax, Variant::kStandard, true, false, false, false, true);
  WriterOptions o = stored(4096);
  o.xiangqi_model = true;
  const std::string first_gb = gb18030.substr(0, gb18030.find("\n\n[Event \"WXF")) + "\n";
  const std::string one_gb = pack(first_gb, o);
  const std::string one_big5 = pack(big5, o);
  // The notation bytes of the first game of `pgn`, and where they stand in a block.
  const auto notation_of = [](const std::string& pgn) {
    GameBuilder b;
    pgn::parse_game_or_xiangqi(pgn, "x", 1, {}, b);
    if (!b.ok() || b.game().notation.size() != 8) std::abort();
    return b.game().notation;
  };
  const auto notation_at = [](const std::string& b, std::string_view bytes) {
    const std::size_t at = b.find(bytes);
    if (at == std::string::npos || b.find(bytes, at + 1) != std::string::npos) std::abort();
    return at;
  };
  const std::string gb_bytes = notation_of(first_gb), big5_bytes = notation_of(big5);
  invalid_vector("xiangqi_encoding_in_codec_11", edit_block(one_gb, [](std::string& b) { b[4] = 11; }), "Corruption",
                 "XQ-NOTATION-1 XQ-REC-1",
                 "the block of encode/xiangqi_gb18030's first game with codec 11, where the encoding bits are reserved");
  invalid_vector("xiangqi_encoding_3", edit_block(one_gb, [&](std::string& b) { b[notation_at(b, gb_bytes) + 7] |= 0x0C; }),
                 "Corruption", "XQ-NOTATION-1", "a Xiangqi game whose notation bytes name encoding 3, reserved");
  invalid_vector("xiangqi_tandem_by_file_2",
                 edit_block(one_gb, [&](std::string& b) { b[notation_at(b, gb_bytes) + 7] |= 0x20; }), "Corruption",
                 "XQ-NOTATION-1", "a Xiangqi game whose notation bytes set tandem by file 2, reserved");
  invalid_vector("xiangqi_big5_simplified",
                 edit_block(one_big5, [&](std::string& b) { b[notation_at(b, big5_bytes)] = 0x06; }), "Corruption",
                 "XQ-NOTATION-1", "a Xiangqi game in Big5 whose advance is 1, 进, which Big5 lacks");
  invalid_vector("unknown_codec_16", edit_block(one_gb, [](std::string& b) { b[4] = 16; }), "Unsupported", "BLOCK-1",
                 "a block of move codec 16 (not defined in 1.10): refused as unsupported");
  invalid_vector("unknown_codec_13_in_1_10", edit_block(one_gb, [](std::string& b) { b[4] = 13; }), "Unsupported",
                 "BLOCK-1", "a block of move codec 13, which 1.10 leaves undefined: refused as unsupported");
  valid_vector("xiangqi_big5_defaults", edit_block(one_big5, [&](std::string& b) {
                 b.replace(notation_at(b, big5_bytes), 8, std::string("\x02\x00\x00\x00\x00\x00\x00\x08", 8));
               }),
               "XQ-NOTATION-1 XQ-TEXT-4",
               "encode/xiangqi_big5's game with its notation bytes Big5 and every other element 0: Big5's defaults "
               "write 帥 馬 車 進 (not 帅 马 车 进) and so the same texts");
  invalid_vector("xiangqi_big5_bao", edit_block(one_big5, [&](std::string& b) {
                   // Red's cannon character (bits 15-17 of P, bytes 2 to 7) set to 3, 包.
                   const std::size_t at = notation_at(b, big5_bytes) + 2;
                   std::uint64_t p = 0;
                   for (int k = 0; k < 6; ++k) p |= std::uint64_t{static_cast<unsigned char>(b[at + k])} << (8 * k);
                   p = (p & ~(std::uint64_t{7} << 15)) | std::uint64_t{3} << 15;
                   for (int k = 0; k < 6; ++k) b[at + k] = static_cast<char>(p >> (8 * k));
                 }),
                 "Corruption", "XQ-NOTATION-1",
                 "a Xiangqi game in Big5 whose Red cannon is written 包, whose Big5 bytes A5 5D end in ']'");
}

// Xiangqi games (5.7, format 1.7): in each notation, beside a chess game, and records damaged.
void xiangqi_vectors() {
  encode_vector("xiangqi_iccs",
                "[Event \"ICCS\"]\n"
                    "[Game \"Chinese Chess\"]\n"
                    "[Red \"Lu Qin\"]\n"
                    "[Black \"Xu Yinchuan\"]\n"
                    "[Result \"1-0\"]\n"
                    "\n"
                    "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. c3c4 c6c5 1-0\n"
                    "\n"
                    "[Event \"ICCS upper case\"]\n"
                    "[Format \"ICCS\"]\n"
                    "\n"
                    "1. H2-E2 H9-G7 2. H0-G2 *\n"
                    "\n"
                    "[Event \"chess\"]\n"
                    "[White \"a\"]\n"
                    "[Black \"b\"]\n"
                    "\n"
                    "1. e4 e5 2. Nf3 1/2-1/2\n",
                "XQ-ORDER-1 XQ-MOVE-1 XQ-TEXT-1 XQ-REC-1 REC-HDR-2",
                "Xiangqi games in ICCS (codec 9: every move 4096 whatever the block's coder), lower case and upper "
                "case with hyphens (a Format tag), then a game of chess in the same block");
  encode_vector("xiangqi_wxf",
                "[Event \"tandem pieces\"]\n"
                    "[Game \"Chinese Chess\"]\n"
                    "[FEN \"3k5/9/9/9/7C1/2N6/R8/2N4C1/9/R3K4 w - - 0 1\"]\n"
                    "\n"
                    "{chariots, horses and cannons two on a file} 1. R++1 $1 (1. R-+1 K4+1 2. C--1) 1... K4+1 2. H--8 {the rear horse} K4-1 3. C+.4 *\n"
                    "\n"
                    "[Event \"soldiers\"]\n"
                    "[Game \"Chinese Chess\"]\n"
                    "[FEN \"5k3/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1\"]\n"
                    "\n"
                    "1. 7+.6 K6+1 2. 3-.4 K6-1 *\n"
                    "\n"
                    "[Event \"full-width\"]\n"
                    "[Red \"A\"]\n"
                    "[Black \"B\"]\n"
                    "\n"
                    "1. Ｃ２＝５ Ｈ８＋７ 2. Ｈ２＋３ Ｒ９＝８ 0-1\n",
                "XQ-FEN-1 XQ-TEXT-2 XQ-TEXT-3 XQ-NOTATION-1",
                "Xiangqi games in WXF from set-up positions: two chariots, horses and cannons on a file (marks "
                "after the letter), a variation, comments and a NAG; three and two soldiers on two files (the "
                "file form); a game in full-width forms with sideways '='");
  encode_vector("xiangqi_chinese",
                "[Event \"Chinese\"]\n"
                    "[Red \"許銀川\"]\n"
                    "[Black \"呂欽\"]\n"
                    "[Result \"1/2-1/2\"]\n"
                    "[PlyCount \"6\"]\n"
                    "\n"
                    "1. 炮二平五 马８进７ 2. 马二进三 {the usual} 车９平８ (2... 卒７进１ 3. 车一平二) 3. 车一平二 马２进３ 1/2-1/2\n"
                    "\n"
                    "[Event \"traditional\"]\n"
                    "[Game \"Chinese Chess\"]\n"
                    "[FEN \"3k5/9/9/9/7C1/2N6/R8/2N4C1/9/R3K4 w - - 0 1\"]\n"
                    "\n"
                    "1. 前車進一 將4進1 2. 後炮退一 *\n"
                    "\n"
                    "[Event \"numbered soldiers\"]\n"
                    "[Game \"Chinese Chess\"]\n"
                    "[FEN \"2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1\"]\n"
                    "\n"
                    "1. 二兵平六 将6平5 2. 四兵平六 *\n",
                "XQ-TEXT-2 XQ-TEXT-4 XQ-NOTATION-1",
                "Xiangqi games in Chinese notation: Black's full-width digits, a variation, the result and ply "
                "count from the tags; traditional characters with front and rear marks; soldiers numbered");
  // "1. h2e2 {c} h9g7": header 88 (annotated, variant bit), variant 8, notation 14, 2 plies, no
  // null moves or track, one item (slot 1, a brace comment).
  GameBuilder b;
  pgn::parse_game_or_xiangqi("[Game \"Chinese Chess\"]\n\n1. h2e2 {c} h9g7\n", "x", 1, {}, b);
  codec::CodecStreams s;
  if (!b.ok() || !codec::encode_game(b.game(), s).ok() || s.structure != std::string("\x88\x08\x14\x02\x00\x01\x01\x00", 8))
    std::abort();
  const std::vector<Tag> tags = b.game().tags;
  const auto damaged = [&](std::size_t at, char value) {
    codec::CodecStreams bad = s;
    bad.structure[at] = value;
    return archive_of({bad}, {tags});
  };
  invalid_vector("xiangqi_notation_3", damaged(2, '\x03'), "Corruption", "XQ-NOTATION-1 XQ-REC-1",
                 "a Xiangqi game whose notation bytes name the reserved notation 3");
  invalid_vector("xiangqi_notation_reserved_bit", damaged(2, '\x54'), "Corruption", "XQ-NOTATION-1",
                 "a Xiangqi game's ICCS notation byte with its reserved bit 6 set");
  invalid_vector("xiangqi_notation_case_3", damaged(2, '\x1c'), "Corruption", "XQ-NOTATION-1",
                 "a Xiangqi game's ICCS letter case of 3, which names no case");
  invalid_vector("xiangqi_notation_cut_short", damaged(2, '\x02'), "Corruption", "XQ-NOTATION-1 XQ-REC-1",
                 "a Xiangqi game's notation byte says Chinese, whose eight bytes run past the end of the structure "
                 "stream");
  invalid_vector("xiangqi_clock_track", damaged(4, '\x01'), "Corruption", "XQ-REC-1",
                 "a Xiangqi game's line with its clock track bit set");
  invalid_vector("xiangqi_null_move", damaged(4, '\x02'), "Corruption", "XQ-REC-1",
                 "a Xiangqi game's line with a null move (at ply 1, the next byte read as its ply)");
  invalid_vector("xiangqi_clock_item", damaged(7, '\x05'), "Corruption", "XQ-REC-1",
                 "a Xiangqi game's comment item given type 5, a clock comment");
  invalid_vector("xiangqi_record_item", damaged(7, '\x06'), "Corruption", "XQ-REC-1",
                 "a Xiangqi game's comment item given type 6, a record");
  std::vector<Tag> bad_fen = tags;
  bad_fen.push_back(Tag{"FEN", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQkq - 0 1"});
  invalid_vector("xiangqi_bad_fen", archive_of({s}, {bad_fen}), "Corruption", "XQ-REC-1 XQ-FEN-1",
                 "a Xiangqi game whose FEN tag has a castling field, which a Xiangqi FEN does not");
  invalid_vector("xiangqi_in_codec_8", edit_block(archive_of({s}, {tags}), [](std::string& blk) { blk[4] = 8; }),
                 "Corruption", "REC-HDR-2 XQ-REC-1",
                 "a block of codec 9 relabelled codec 8: its Xiangqi game's variant byte 8 is reserved there");
}

// What a later minor version may add: optional parts a reader skips, and parts it must
// understand or refuse by name.
void later_version_vectors() {
  const std::string two = read(dir + "/encode/two_plies.pga");
  valid_vector("optional_sections", with_optional_sections(two, {{5, 0, "later"}, {200, 77, "even later"}}), "BLOCK-7",
               "a block with two optional sections of a later minor version (ids 5 and 200, one of an encoding "
               "1.0 does not define): skipped");
  invalid_vector("optional_section_id_4", with_optional_sections(two, {{4, 0, "x"}}), "Corruption", "BLOCK-7",
                 "a sixth section entry with id 4");
  invalid_vector("optional_sections_not_ascending", with_optional_sections(two, {{9, 0, "x"}, {9, 0, "y"}}),
                 "Corruption", "BLOCK-7", "two optional sections of id 9");
  invalid_vector("optional_section_reserved",
                 edit_block(with_optional_sections(two, {{5, 0, "x"}}),
                            [](std::string& b) { b[kBlockHeaderSize + kSections * kSectionEntrySize + 3] = 1; }),
                 "Corruption", "BLOCK-7", "an optional section's reserved bytes not zero");
  invalid_vector("section_count_4", edit_block(two, [](std::string& b) { b[5] = 4; }), "Corruption", "BLOCK-1",
                 "a section count of 4");
  invalid_vector("section_encoding_later",
                 edit_block(two, [](std::string& b) { b[kBlockHeaderSize + 2 * kSectionEntrySize + 1] = 6; }),
                 "Unsupported", "BLOCK-1", "the structure section in encoding 6, which 1.0 does not define");
  valid_vector("optional_index_extensions", with_extensions(two, {{2, "later"}, {1000, ""}}), "INDEX-2",
               "an index with two optional extensions of a later minor version (ids 2 and 1000): skipped");
  invalid_vector("required_index_extension", with_extensions(two, {{2, "x"}, {7, "later"}}), "Unsupported", "INDEX-2",
                 "an index extension of odd id 7, which a reader must understand");
  invalid_vector("index_extensions_not_ascending", with_extensions(two, {{4, "x"}, {2, "y"}}), "Corruption",
                 "INDEX-2", "index extension ids 4 then 2");
}

// Archives a writer must produce byte for byte (and read back).
// Two games whose White and Black name each other (spec 9.4.3's example).
const char* const kPlayersPgn = "[White \"a\"]\n[Black \"b\"]\n\n1. e4 *\n\n[White \"b\"]\n[Black \"a\"]\n\n1. d4 *\n";

void encode_vectors() {
  encode_vector("empty", "", "FILE-HDR-1 INDEX-1 FOOTER-1", "an archive with no games");
  encode_vector("two_plies", "1. e4 e5 {c}\n", "MOVE-ORDER-1 MOVE-AC-1 MOVE-SYM-1 REC-HDR-1",
                "the worked example of spec section 12.1 in a whole archive (spec section 12.3)", 4096,
                MoveCoding::kUniform);
  encode_vector("moves_only", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n", "MOVE-SYM-2 MOVE-MODEL-1 MOVE-MODEL-2",
                "a game of moves only with the model: no ply count, the end coded as a symbol");
  encode_vector("moves_only_uniform", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n1. d4 d5 0-1\n\n*\n", "MOVE-SYM-2",
                "games of moves only with the uniform coder, one of no moves: codewords one after the other",
                4096, MoveCoding::kUniform);
  // The fast model (format 1.2: blocks of move coder 2).
  encode_vector("fast_book_and_model",
                "[Event \"book then model\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 "
                "8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 "
                "17. dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6 23. Ne5 Rae8 "
                "24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5 hxg5 29. b3 Ke6 30. a3 Kd6 1/2-1/2\n\n"
                "[Event \"transposed\"]\n\n1. Nf3 Nf6 2. c4 e6 3. Nc3 d5 4. d4 Be7 5. Bg5 O-O 6. e3 h6 7. Bh4 b6 *\n",
                "MOVE-CODER-1 FAST-MODEL-1 FAST-MODEL-2 FAST-BOOK-1 FAST-BOOK-2 FAST-BOOK-3",
                "two games with the fast model: the opening book's positions (one reached by a transposition), then "
                "the model's features to the end", 4096, MoveCoding::kFast);
  encode_vector("fast_features",
                "[FEN \"r3k2r/pP4pp/8/2pP4/8/8/P5PP/R3K2R w KQkq c6 0 1\"]\n\n1. dxc6 O-O 2. O-O-O Rfb8 3. c7 Rxb7 "
                "4. c8=Q+ Kf7 5. Qxa8 Rb1+ 6. Kxb1 *\n\n"
                "[Event \"null move, check\"]\n\n1. e4 e5 2. Qh5 -- 3. Qxf7+ Kxf7 4. Bc4+ d5 5. Bxd5+ Kf6 *\n",
                "MOVE-CODER-1 FAST-MODEL-1 FAST-MODEL-2",
                "the fast model out of the book: en passant, castling on both wings, a promotion with check, "
                "captures and checks, a null move that forgets the history", 4096, MoveCoding::kFast);
  encode_vector("fast_chess960",
                "[Variant \"Chess960\"]\n[FEN \"nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1\"]\n\n"
                "1. g3 g6 2. O-O O-O 3. f4 f5 4. Nf2 Nf7 *\n",
                "MOVE-CODER-1 FAST-MODEL-1 FAST-MODEL-2 FAST-BOOK-2", "Chess960 under the fast model: castling with the rook's square", 4096,
                MoveCoding::kFast);
  encode_vector("fast_variants",
                "[Variant \"Three-check\"]\n\n1. e4 e5 2. Bc4 Nf6 3. Bxf7+ Kxf7 4. Qh5+ g6 5. Qxe5 Bb4 6. Qxc7 *\n\n"
                "[Variant \"King of the Hill\"]\n\n1. e4 e5 2. Ke2 Ke7 3. Ke3 Ke6 4. d4 d5 5. exd5+ Kxd5 *\n\n"
                "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. Nf3 P@e4 5. Nxe4 Qe5 6. P@d3 *\n",
                "MOVE-CODER-1 FAST-MODEL-1",
                "variants in a block of the fast model (codec 7): three-check and king of the hill under the fast model "
                "(no book), crazyhouse under the crazyhouse model", 4096, MoveCoding::kFast);
  encode_vector("zero_plies", "[Event \"tags only\"]\n[Result \"*\"]\n\n*\n", "MOVE-SYM-2 TAGS-1", "one game of zero plies");
  encode_vector("promotions", "[FEN \"7k/PPPP4/8/8/8/8/4pppp/K7 w - - 0 1\"]\n\n1. a8=N e1=Q+ 2. Ka2 f1=B 3. b8=B g1=R "
                "4. c8=R+ Kh7 5. d8=Q h1=N *\n", "MOVE-ORDER-1 START-1", "promotions to every piece, both colours");
  encode_vector("en_passant", "1. e4 a6 2. e5 d5 3. exd6 c5 4. Qf3 c4 5. b4 cxb3 *\n", "MOVE-ORDER-1", "en passant by both sides");
  encode_vector("castling", "[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n1. O-O O-O-O 2. Rf2 Rd7 *\n",
                "MOVE-ORDER-1", "castling on both wings, written king takes own rook");
  encode_vector("chess960_king_stays", "[Variant \"Chess960\"]\n[FEN \"1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1\"]\n\n1. O-O O-O *\n",
                "MOVE-ORDER-1 START-1", "Chess960 castling where the king does not move (g1, g8)");
  encode_vector("setup_black_to_move", "[SetUp \"1\"]\n[FEN \"8/8/8/4k3/8/8/4P3/4K3 b - - 5 40\"]\n\n40... Kd4 41. e3+ Kd3 1/2-1/2\n",
                "START-1", "a set-up position with Black to move");
  encode_vector("null_moves", "1. e4 -- 2. d4 -- 3. c4 *\n", "REC-LINE-1", "null moves in the main line");
  encode_vector("king_capture", "1. e4 e5 2. Qh5 Nc6 3. Qxf7+ -- 4. Qxe8 -- 5. Qxd8 *\n", "REC-LINE-1 MOVE-ORDER-1",
                "a null move in check, the king taken, and moves of a side without a king (5.3; SAN of section 10)");
  encode_vector("annotated", "[Event \"x\"]\n\n{c} 1. e4 $1 (1. d4) -- 1-0\n", "REC-HDR-1 REC-LINE-1",
                "the worked example of spec section 12.2");
  encode_vector("nested_variations",
                "{before the tags}\n[Event \"nested\"]\n\n{game comment} 1. e4 {after e4} e5 (1... c5 $14 {Sicilian} (1... e6 "
                "2. d4 ; French\n d5) 2. Nf3) 2. Nf3 $1 $32 (2. f4 exf4 (2... d5)) 2... Nc6 *\n%escape after\n",
                "REC-HDR-1 REC-CMT-1 REC-LINE-1", "nested variations with comments of all three kinds, NAGs, prelude, epilogue");
  encode_vector("escape_in_variation",
                "[Event \"escape\"]\n\n1. e4 (\n%escape opens the variation\n1. d4) (; a line comment opens this one\n1. c4) "
                "1... e5 *\n",
                "REC-CMT-1 REC-LINE-1", "variations opening with an escape line (its ( ends the line before) and a line comment");
  encode_vector("verbatim", "[Event \"seirawan\"]\n[Variant \"Seirawan\"]\n\n1. e4 e5 2. Nf3/E Nc6 3. Bc4/H *\n",
                "REC-HDR-1 REC-RAW-1", "a game kept verbatim (a variant this format does not define), its tags stored for the index");
  // Lichess's variants (format 1.1: blocks of codec 7), each game through what its rules change.
  encode_vector("variant_crazyhouse",
                "[Variant \"Crazyhouse\"]\n[FEN \"4k3/1P6/8/8/8/8/8/4K3[Nn] w - - 0 1\"]\n\n1. b8=Q+ Ke7 2. Qb4+ Ke6 "
                "3. N@g5+ Kf5 4. Nf3 N@c2+ 5. Kd2 Nxb4 6. Kc3 P@e4 *\n",
                "START-1 START-2 MOVE-ORDER-2 VAR-ZH-1 MOVE-CODER-1 MOVE-MODEL-3",
                "crazyhouse from a FEN with pockets: drops, a promoted queen taken back to the pocket as a pawn");
  const char* crazyhouse_game =
      "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. e5 f5 3. exf6 Nxf6 4. Nf3 e6 5. Bc4 Bc5 6. O-O O-O 7. d4 Bxd4 "
      "8. Nxd4 e5 9. Nf5 Bxf5 10. Bxd5+ Nxd5 11. Qxd5+ Qxd5 12. N@e7+ Kh8 13. Nxd5 N@h3+ 14. gxh3 Bxh3 "
      "15. N@g6+ hxg6 16. Q@h4+ Kg8 17. Qxh3 Q@h1+ 0-1\n";
  encode_vector("variant_crazyhouse_model", crazyhouse_game, "MOVE-CODER-1 MOVE-MODEL-3 VAR-ZH-1",
                "crazyhouse under the crazyhouse model: en passant, castling, captures and recaptures, drops that "
                "check");
  encode_vector("variant_crazyhouse_uniform", crazyhouse_game, "MOVE-CODER-1 VAR-ZH-1",
                "the same game in a block of the uniform coder: every legal move alike", 4096,
                MoveCoding::kUniform);
  encode_vector("variant_untagged", "[Event \"FICS\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Bxf7+ Kxf7 5. Ng5+ Ke8 "
                "6. P@f7+ Ke7 7. Qh5 *\n\n[Event \"FICS\"]\n[Variant \"Standard\"]\n\n1. e4 e5 *\n",
                "REC-HDR-2 VAR-ZH-1 MOVE-MODEL-3", "crazyhouse without a Variant tag (pack --variant crazyhouse): the variant "
                "byte; a game whose tag names standard chess follows its tag", 4096, MoveCoding::kModel,
                Variant::kCrazyhouse);
  encode_vector("variant_atomic", "[Variant \"Atomic\"]\n\n1. Nf3 f6 2. Nd4 Nh6 3. e3 Ng4 4. Nb5 a6 5. Nxc7 Nxf2 0-1\n",
                "MOVE-ORDER-2 VAR-ATOMIC-1 MOVE-CODER-1", "atomic: a capture explodes the pieces around it, then a king");
  // Atomic castling whose rook shields the king's square (issue 51, defect 8): legal with the
  // rook on its square (5.6.2), not if it were lifted as in 5.4.
  encode_vector("variant_atomic_castling",
                "[Variant \"Atomic\"]\n[FEN \"8/8/8/8/8/8/2k5/rR2K3 w B - 0 1\"]\n\n1. O-O-O Kb3+ 2. Kd2 Ra2+ *\n",
                "MOVE-ORDER-2 VAR-ATOMIC-1",
                "atomic: castling on the queen's side where the rook on b1 keeps Black's rook on a1 off e1, and the "
                "king lands next to Black's king");
  // The crazyhouse model's defended(L) of a castling (issue 51, defect 9): the castling rook
  // counts from its square before the move, where the king on b1 blocks it from c1.
  encode_vector("variant_crazyhouse_castling",
                "[Variant \"Crazyhouse\"]\n[FEN \"4k3/pppppppp/8/8/8/8/PPPPPPPP/RK6 w A - 0 1\"]\n\n"
                "1. O-O-O e5 2. d4 exd4 3. Rxd4 *\n",
                "MOVE-MODEL-3 VAR-ZH-1",
                "crazyhouse: castling on the queen's side from b1 with the rook on a1, which does not defend the "
                "king's landing square c1 before the move (it does after)");
  encode_vector("variant_antichess",
                "[Variant \"Antichess\"]\n\n1. e3 b5 2. Bxb5 c6 3. Bxc6 Nxc6 *\n\n[Variant \"Antichess\"]\n"
                "[FEN \"8/P7/8/8/8/8/7p/8 w - - 0 1\"]\n\n1. a8=K h1=K 2. Kb7 Kg2 *\n",
                "MOVE-ORDER-2 VAR-ANTI-1", "antichess: captures forced, promotion to king, kingless sides");
  encode_vector("variant_three_check",
                "[Variant \"Three-check\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Bxf7+ Kxf7 4. Qh5+ Ke7 5. Qxe5+ 1-0\n\n"
                "[Variant \"3check\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 +2+0\"]\n\n1. Ra8+ 1-0\n",
                "START-2 MOVE-ORDER-2 VAR-3CHECK-1 MOVE-CODER-1", "three-check: the third check ends the game (checks given in the FEN)");
  encode_vector("variant_king_of_the_hill",
                "[Variant \"King of the Hill\"]\n\n1. e4 e5 2. Ke2 d5 3. Kd3 dxe4+ 4. Kxe4 1-0\n",
                "MOVE-ORDER-2 VAR-KOTH-1 MOVE-CODER-1", "king of the hill: a king on e4 ends the game");
  encode_vector("variant_kingless_side",
                "[Variant \"King of the Hill\"]\n\n1. e4 f6 2. Qh5+ -- 3. Qxe8 a6 4. Qxf8 Ra7 5. Qxf6 gxf6 *\n\n"
                "[Variant \"Crazyhouse\"]\n\n1. e4 f6 2. Qh5+ -- 3. Qxe8 a6 4. Qxf8 Ra7 5. Qxf6 gxf6 6. B@h5 Q@e2+ *\n",
                "MOVE-CODER-1 MOVE-MODEL-3 VAR-KOTH-1 VAR-ZH-1",
                "a king taken after a null move in check: the kingless side moves on, coded uniformly under king "
                "of the hill and by the crazyhouse model under crazyhouse");
  encode_vector("variant_racing_kings",
                "[Variant \"Racing Kings\"]\n\n1. Kh3 Ka3 2. Kh4 Ka4 3. Kh5 Ka5 4. Kh6 Ka6 5. Kg7 Kb7 6. Kg8 Kb8 "
                "1/2-1/2\n",
                "START-1 MOVE-ORDER-2 VAR-RACE-1", "racing kings from its start: both kings reach the eighth rank");
  encode_vector("variant_horde", "[Variant \"Horde\"]\n\n1. d5 e6 2. dxe6 fxe6 3. c6 dxc6 4. bxc6 Nxc6 *\n",
                "START-1 MOVE-ORDER-2 VAR-HORDE-1", "horde from its start: white's pawns without a king");
  encode_vector("verbatim_bad_tag",
                "[Event \"broken\"]\n[White \"Anand\"]\n[Black Carlsen]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n",
                "REC-RAW-1", "a game kept verbatim for a malformed tag pair: the well-formed tag pairs before and after it are its tags");
  valid_vector("verbatim_bad_tag_before_only", from_hex(kTagsBeforeBadPair), "REC-RAW-1",
               "the game of encode/verbatim_bad_tag with only the tag pairs before the malformed one for its tags, as a "
               "writer that stops reading tags there stores it: a reader accepts any tags for a verbatim game");
  encode_vector("latin1_tags", "[Event \"Dortmund\"]\n[White \"M\xFCller, J\xFCrgen\"]\n[Black \"\xC9tienne\"]\n\n1. d4 *\n",
                "TAGS-1", "tag values in Latin-1, kept byte for byte");
  {
    std::string many;
    for (int i = 0; i < 9; ++i)
      many += "[Event \"E\"]\n[Round \"" + std::to_string(i + 1) + "\"]\n[White \"P" + std::to_string(i % 3) +
              "\"]\n[Date \"2020.01.0" + std::to_string(i + 1) + "\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
    encode_vector("many_blocks", many, "BLOCK-1 INDEX-1 TAGS-1", "nine games in five blocks of two", 2);
  }
  encode_vector("typed_tags",
                "[Site \"https://lichess.org/SXUUbfSF\"]\n[Date \"2016.05.31\"]\n[Round \"-\"]\n[White \"german11\"]\n"
                "[Black \"asusa52f\"]\n[Result \"1-0\"]\n[UTCTime \"23:59:58\"]\n[WhiteElo \"1331\"]\n"
                "[BlackElo \"2038\"]\n[WhiteRatingDiff \"+5\"]\n[PlyCount \"3\"]\n\n1. e4 e6 2. Bc4 1-0\n\n"
                "[Site \"https://lichess.org/QKETTbBo\"]\n[Date \"2016.06.01\"]\n[Round \"-\"]\n[White \"cmvicentuco\"]\n"
                "[Black \"german11\"]\n[Result \"0-1\"]\n[UTCTime \"00:00:03\"]\n[WhiteElo \"1954\"]\n"
                "[BlackElo \"1332\"]\n[WhiteRatingDiff \"-7\"]\n[PlyCount \"2\"]\n\n1. e4 b6 0-1\n\n"
                "[Site \"https://lichess.org/8cvDSKv5\"]\n[Date \"2016.06.??\"]\n[Round \"-\"]\n[White \"german11\"]\n"
                "[Black \"boloro\"]\n[Result \"1-0\"]\n[UTCTime \"00:01:00\"]\n[WhiteElo \"1340\"]\n"
                "[BlackElo \"?\"]\n[WhiteRatingDiff \"+0\"]\n[PlyCount \"02\"]\n\n1. d4 d5 1-0\n\n"
                "[Site \"https://lichess.org/tournament\"]\n[Date \"2016.06.02\"]\n[Round \"-\"]\n[White \"boloro\"]\n"
                "[Black \"german11\"]\n[Result \"0-1\"]\n[UTCTime \"00:02:00\"]\n[WhiteElo \"1201\"]\n"
                "[BlackElo \"1341\"]\n[WhiteRatingDiff \"-0\"]\n[PlyCount \"1\"]\n\n1. c4 0-1\n",
                "TAGS-1 TAGS-2 TAGS-3 TAGS-4",
                "typed tag columns: identifiers (a Site that is not one kept as text), dates with an unknown "
                "day, times, ratings predicted from each player's last rating in either colour (a `?` kept as "
                "text), signed integers (`-0` kept as text), integers (`02` kept as text)");
  {
    // 300 games: a text column of 300 distinct values (two-byte references), a signed integer
    // column that predicts from the previous value, chess.com's decimal game links (one of 19
    // digits kept as text), and ratings whose player is in some games only, or after the rating.
    std::string more;
    for (int i = 0; i < 300; ++i) {
      const auto n = [](long long v) { return std::to_string(v); };
      more += "[Event \"" + n(i) + " Open\"]\n";
      if (i % 3) more += "[White \"white player " + n(i % 7) + "\"]\n";
      more += "[WhiteElo \"" + n(1500 + 137 * (i % 7) + i / 50) + "\"]\n";
      more += "[Link \"https://www.chess.com/game/live/" + (i == 7 ? std::string("1234567890123456789") : n(98765400 + 3 * i)) +
              "\"]\n[Drift \"" + (3 * i >= 450 ? "+" : "") + n(3 * i - 450) + "\"]\n[BlackElo \"" + n(1600 + 151 * (i % 5) + i / 60) +
              "\"]\n[Black \"black player " + n(i % 5) + "\"]\n";
      more += "\n1. e4 *\n\n";
    }
    encode_vector("typed_tags_more", more, "TAGS-1 TAGS-2 TAGS-3 TAGS-4",
                  "typed tag columns at their edges: 300 distinct Events (two-byte references), signed integers "
                  "predicted from the previous value, decimal identifiers (one of 19 digits kept as text), "
                  "ratings whose player is missing from some games or follows the rating");
  }
  encode_vector("players", kPlayersPgn, "TAGS-5 NAME-1",
                "White and Black as entries of the players' table (spec section 9.4.3's example): a, b named "
                "in both colours");
  encode_vector("ply_count",
                "[PlyCount \"3\"]\n\n1. e4 e5 2. Nf3 1-0\n\n"
                "[PlyCount \"4\"]\n\n1. e4 {c} e5 2. Nf3 Nc6 (2... d6 3. d4) *\n\n"
                "[PlyCount \"5\"]\n\n1. d4 d5 *\n\n"
                "[PlyCount \"2\"]\n[Event \"x\"]\n\n1. e4 -- *\n\n"
                "[PlyCount \"03\"]\n\n1. c4 c5 2. Nc3 *\n",
                "REC-HDR-1 MOVE-SYM-2",
                "main lines counted by their PlyCount tag (header bit 6): moves only (no end coded), annotated (no "
                "ply count stored; the variation's is), with a null move; and two not counted: a PlyCount that "
                "differs from the plies, and one with a leading zero");
  encode_vector("clocks",
                "[Event \"clocks\"]\n[TimeControl \"60+1\"]\n\n1. e4 { [%clk 0:01:00] } 1... e5 { [%clk 0:01:00] } "
                "2. Nf3 { [%eval 0.2] [%clk 0:00:58] } 2... Nc6 {[%clk 0:01:01]} 3. Bb5 { [%clk 0:00:40.5] } "
                "3... a6 { [%clk 0:1:00] } 4. Ba4 { [%clk 10:00:00] [%clk 0:00:01] } (4. Bxc6 { [%clk 0:00:30] } dxc6 "
                "{ [%clk 0:00:59] }) 4... Nf6 { [%clk 0:00:00] } *\n",
                "REC-LINE-1 REC-CLK-1 REC-CLK-2",
                "clock comments: coded as numbers where the command is canonical, kept as text where it is not "
                "(tenths outside a clock track, a one-digit minute), in a variation, with text before and after");
  encode_vector("clock_track",
                "[Event \"clock track\"]\n[TimeControl \"180+2\"]\n\n1. e4 { [%clk 0:03:00] } 1... c5 { [%clk 0:03:00] } "
                "2. Nf3 {[%clk 0:03:01]} 2... d6 { [%eval 0.3] [%clk 0:02:58] } 3. d4 { [%clk 0:02:55] } $1 "
                "(3. c3 { [%clk 0:02:50] } 3... Nf6 { [%clk 0:02:57] }) 3... cxd4 { [%clk 0:02:59] } {thinks} 0-1\n",
                "REC-LINE-1 REC-CLK-2 REC-CLK-3",
                "clock tracks (every ply followed first by a clock): frames 0 to 3, other items after the "
                "track's clock at a slot, a variation with its own track");
  encode_vector("clock_track_tenths",
                "[Event \"tenths\"]\n[TimeControl \"180\"]\n\n1. e4 {[%clk 0:03:00]} 1... e5 {[%clk 0:02:59.9]} "
                "2. Nf3 {[%clk 0:02:58.2]} 2... Nc6 {[%clk 0:02:57.05]} 3. Bb5 {[%clk 0:02:40.0]} 3... a6 "
                "{[%clk 0:02:31.7]} 1-0\n",
                "REC-CLK-3 REC-CLK-7",
                "a clock track in tenths and hundredths of a second, as chess.com writes clocks: precisions "
                "0, 1, 2 and 1 in the frames, predictions in hundredths divided down; TimeControl \"180\" "
                "without increment");
  encode_vector("clock_track_forms",
                "[Event \"forms\"]\n[TimeControl \"5400+30\"]\n\n1. d4 {[%clk 01:30:00]} 1... d5 {[%clk 01:30:00]} "
                "2. c4 {[%emt 0:00:07]} 2... e6 {[%emt 0:00:05]} 3. Nc3 {[%emt 0:00:09]} 3... Nf6 "
                "{[%clk 01:29:31]} 4. Bg5 {[%clk 12:00:00]} 4... Be7 {[%emt 00:00:04.5]} 1/2-1/2\n\n"
                "1. e4 {[%emt 0:00:05]} 1... e5 {x} {[%emt 0:00:04]} *\n",
                "REC-CLK-2 REC-CLK-3 REC-CLK-7",
                "two-digit hours and elapsed move times: a track of forms 3, 6, 3, 0 and 9 (a clock after "
                "elapsed times predicted from the base; hours of 10 or more in the form without two-digit "
                "hours); elapsed times outside a track stay comments");
  encode_vector("evaluations",
                "[Event \"evaluations\"]\n\n1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%eval 0.2] [%clk 0:03:00] } "
                "2. Nf3 { [%eval -1.0] [%clk 0:02:58] } 2... Nc6 { [%eval 0.0] [%clk 0:02:59] } "
                "3. Bb5 { [%eval #3] [%clk 0:02:50] } 3... a6 { [%eval #-12] [%clk 0:02:41] } "
                "4. Ba4 { [%eval 0.20] [%clk 0:02:40] } 4... Nf6 { [%eval -0.05] [%clk 0:02:40] } *\n",
                "REC-CLK-3 REC-CLK-5",
                "evaluations before a track's clock: pawns with one and two decimals, 0.0, mates both ways "
                "(frame 3), and 0.20, not in lichess's form, kept as text (frame 0)");
  encode_vector("clock_model",
                "[Event \"clock model\"]\n[TimeControl \"180+2\"]\n\n1. e4 { [%clk 0:03:00] } 1... c5 { [%clk 0:03:00] } "
                "2. Nf3 {[%clk 0:03:01]} 2... d6 { [%eval 0.3] [%clk 0:02:58] } 3. d4 { [%clk 0:02:55] } $1 "
                "(3. c3 { [%clk 0:02:50] } 3... Nf6 { [%clk 0:02:57] }) 3... cxd4 { [%clk 0:03:09] } {thinks} "
                "4. Nxd4 { think [%clk 0:00:10] } 4... Nf6 { [%clk 1:30:00] } 0-1\n\n"
                "[Event \"tenths\"]\n[TimeControl \"180\"]\n\n1. e4 {[%clk 0:03:00]} 1... e5 {[%clk 0:02:59.9]} "
                "2. Nf3 {[%clk 0:02:58.2]} 2... Nc6 {[%clk 0:02:57.05]} 3. Bb5 {[%clk 0:02:40.0]} 3... a6 "
                "{[%clk 0:02:31.7]} 4. Ba4 {[%clk 0:02:40.3]} 1-0\n\n"
                "[Event \"forms\"]\n[TimeControl \"5400+30\"]\n\n1. d4 {[%clk 01:30:00]} 1... d5 {[%clk 01:30:00]} "
                "2. c4 {[%emt 0:00:07]} 2... e6 {[%emt 0:00:05.25]} 3. Nc3 {[%emt 0:00:09.5]} 3... Nf6 "
                "{[%clk 01:29:31]} 4. Bg5 {[%clk 12:00:00]} 4... Be7 {[%emt 00:00:04.5]} 1/2-1/2\n\n"
                "[Event \"evaluations\"]\n\n1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%eval 0.2] [%clk 0:03:00] } "
                "2. Nf3 { [%eval -1.0] [%clk 0:02:58] } 2... Nc6 { [%eval 0.0] [%clk 0:02:59] } "
                "3. Bb5 { [%eval #3] [%clk 0:02:50] } 3... a6 { [%eval #-12] [%clk 0:02:41] } "
                "4. Ba4 { [%eval 999999.99] [%clk 0:02:40] } 4... Nf6 { [%eval -999999.99] [%clk 999999:59:59] } "
                "5. O-O { [%eval #999] [%clk 0:00:00] } 5... Be7 { [%eval #-999] [%clk 0:00:01] } "
                "6. Re1 { [%eval 0.20] [%clk 0:02:40] } *\n\n"
                "[Event \"no clocks\"]\n\n1. e4 {no clock} e5 *\n",
                "REC-CLK-3 REC-CLK-8 MOVE-SYM-3",
                "modelled clock tracks (8.3.4, codec 8): times against the prediction of every kind (from the "
                "base, the increment, an elapsed time, none), clocks that gain (a negative time), a variation "
                "with its own track, kind 0 texts and an item after a clock, tenths and hundredths (the fraction's "
                "adaptive digits), two-digit hours and elapsed times with fractions, evaluations and mates at "
                "their limits either way, the largest clock; a game without a track in the same block",
                4096, MoveCoding::kModel, Variant::kStandard, true);
  encode_vector("clock_model_example",
                "[TimeControl \"60+0\"]\n\n1. e4 { [%eval 0.17] [%clk 0:01:00] } e5 { [%eval #-3] [%clk 0:00:58] } *\n",
                "REC-CLK-8 MOVE-SYM-3",
                "spec section 8.3.4's example: a time row of no average, a rise of class 8 and its rest, a mate's "
                "change under the mate row",
                4096, MoveCoding::kUniform, Variant::kStandard, true);
  encode_vector("records_example", "1. e4 {+0.40/9 0.5s} e5 {d=9, pv=e5 Nf3}\n",
                "REC-RCD-4 MOVE-SYM-3",
                "spec section 8.3.3's example: two records of new shapes, a run from the position before the "
                "ply whose first move is the game's",
                4096, MoveCoding::kUniform);
  encode_vector("records_engine",
                "[Event \"engine\"]\n[TimeControl \"7200+30\"]\n\n"
                "{ WhiteEngineOptions: Protocol=uci; Hash=16384; Threads=64 }\n"
                "1. d4 { d=27, pd=Nf6, mt=00:06:16, tl=01:54:13, s=22597 kN/s, n=8512418665, pv=d4 Nf6 c4 e6 Nc3, "
                "tb=0, R50=50, wv=0.02, } 1... Nf6 { d=30, pd=c4, mt=00:12:44, tl=01:47:45, s=6728 kN/s, "
                "n=3229899629, pv=Nf6 c4 e6 Nc3 Bb4, tb=0, R50=50, wv=0.11, } 2. c4 { d=28, pd=e6, mt=00:08:08, "
                "tl=01:46:35, s=24082 kN/s, n=11768853409, pv=c4 e6 Nc3 Bb4 e3 O-O, tb=0, R50=50, wv=0.05, } "
                "2... e6 { d=31, pd=Nc3, mt=00:11:31, tl=01:36:44, s=6903 kN/s, n=4514927797, pv=e6 Nc3 Bb4 Qc2 "
                "O-O, tb=0, R50=50, wv=-0.07, } 3. Nf3 { d=26, pd=d5, mt=00:00:57, tl=01:46:08, s=24116 kN/s, "
                "n=1391277870, pv=Nf3 d5 g3 dxc4, tb=0, R50=49, wv=0.05, } (3. Nc3 { d=20, pv=Nc3 Bb4 } Bb4 "
                "{book}) 3... d5 { d=30, pd=g3, mt=00:03:28, tl=01:33:46, s=6783 kN/s, n=1119331333, pv=d5 g3, "
                "tb=0, R50=50, wv=0.05, White wins by adjudication } 1-0\n\n"
                "[Event \"milliseconds\"]\n\n1. e4 {d=24, sd=24, mt=40510, tl=1762490, s=29612792, n=1199587227, "
                "pv=e4 e5, tb=null, h=0.0, ph=0.0, wv=0.18, R50=50, Rd=-1000, mb=+0+0+0+0+0,} e5 {d=24, sd=24, "
                "mt=36554, tl=1766446, s=28100000, n=1027167400, pv=e5 Nf3, tb=null, wv=-0.22, R50=50, Rd=-1000, "
                "mb=+0+0-1+0+0,} 2. Nf3 {0.22/24 400 (Nc6)} Nc6 {-0.13/21 138} *\n",
                "REC-RCD-4 MOVE-SYM-3",
                "engine reports as TCEC and Arena write them: runs after (pd) and before (pv) the ply, hints from "
                "the game's moves and earlier runs, time left predicted from move time (H:MM:SS and "
                "milliseconds), nodes from speed and move time, a record before the first move (text), in a "
                "variation, signs + and - in one shape, text after the values");
  encode_vector("records_forms",
                "[Event \"forms\"]\n\n{ 12 } 1. e4 {+0.40/9 0.023s} e5 {-0.45/9 0.14s} 2. Nf3 {+0.55/10 1.2s} -- "
                "{-0.00 007 0:60:00 10:00:00 1234567890123456789 123456789012345678 1.12345678 e4 Nf3 x} "
                "3. d4 {pv=d4 exd4 Nxd4 Nc6,pv=d4 exd4} exd4 {book \x02 1} 4. Nxd4 {Nxd4Nc6 a5 Ke2+} *\n",
                "REC-RCD-1 REC-RCD-4",
                "the split at its edges: a record at slot 0, numbers of 18 and 19 digits, 8 decimals, -0.00, "
                "leading zeros, a minute of 60, hours of two digits, a null move's record, runs that stop at a "
                "token followed by a letter and at an illegal move, a comment with a mark byte (text), "
                "fractions of 3, 2 and 1 digits predicted across");
  // Readings of 8.3.3 that the vectors above leave open (issue 51, defects 1 and 2): White's
  // records only; a reader that resets the step, or keeps the product, decodes other values.
  encode_vector("records_step",
                "1. e4 {mt=20, tl=5400} e5 2. Nf3 {mt=20, tl=5410} Nc6 3. Bb5 {d=12, tl=5380} a6 "
                "4. Ba4 {mt=10, tl=5400} *\n",
                "REC-RCD-4",
                "a time left without a move time between two predicted from one (rule 3 between rule 2): "
                "the step of the second (30) still predicts the fourth, 5380 - 10 + 30");
  encode_vector("records_product",
                "1. e4 {s=100, mt=10, n=1000} e5 2. Nf3 {s=150, n=1500} Nc6 3. Bb5 {s=200, mt=10, n=3000} *\n",
                "REC-RCD-4",
                "nodes without a move time between two with speed and move time: the second sets the "
                "product to 0, so the third is predicted from the last value (1500), not by rule 1 (3000)");
  // Discovered and direct checks by sliders on edge files, ranks and diagonals (issue 51,
  // defect 3: line masks without the edge squares miss them).
  const std::string edges =
      "[FEN \"k7/8/8/8/N7/8/8/R6K w - - 0 1\"]\n\n1. Nc3+ Kb7 2. Rb1+ Kc6 3. Rb6+ Kc5 4. Na4+ *\n\n"
      "[FEN \"7k/8/8/8/8/8/8/K2n3r b - - 0 1\"]\n\n1... Nc3+ 2. Kb2 Rh2+ 3. Kxc3 Kg7 *\n\n"
      "[FEN \"k7/8/8/3N4/8/8/8/K6B w - - 0 1\"]\n\n1. Ne3+ Kb8 2. Nc4 Kc7 3. Bb7 Kd7 *\n\n"
      "[FEN \"4k3/8/6N1/7Q/8/8/8/4K3 w - - 0 1\"]\n\n1. Nf4+ Kd8 2. Qh8+ Kc7 3. Qh7+ Kb6 *\n\n"
      "[FEN \"6k1/8/8/8/8/8/8/q2n2K1 b - - 0 1\"]\n\n1... Ne3+ 2. Kf2 Ng4+ 3. Kg3 Qg1+ *\n";
  encode_vector("discovered_check_edges", edges, "MOVE-MODEL-1",
                "discovered checks by sliders on corner and edge squares, both colours: rooks on a1 (the a-file) "
                "and h1 (rank 1), a queen on a1 (rank 1), a bishop on h1 (the long diagonal), a queen on h5 (a "
                "diagonal); and direct checks from edge squares (Rb1+, Qh8+, Qg1+)");
  encode_vector("discovered_check_edges_fast", edges, "FAST-MODEL-1",
                "the games of encode/discovered_check_edges under the fast model", 4096, MoveCoding::kFast);
  // An empty variation at a line's end (issue 51, defect 4): glued at length 78 (a line of 80),
  // on a new line at 79 and 80.
  encode_vector("empty_variation_at_line_end",
                "1. e4 {" + std::string(70, 'a') + "} () 1... e5 *\n\n"
                "1. e4 {" + std::string(71, 'b') + "} () 1... e5 *\n\n"
                "1. e4 {" + std::string(72, 'c') + "} () 1... e5 *\n",
                "PGN-1 REC-LINE-1",
                "a variation with no moves, (), where the line is 78, 79 and 80 bytes long: glued (a line of "
                "80), then starting a new line");

}

// Archives a reader must read: compressed sections, frames, column forms, a tag dictionary, name
// and block table chunks.
void valid_vectors() {
  {
    WriterOptions z = stored();
    z.compress = true;
    valid_vector("zstd_sections",
                 pack(read(dir + "/encode/nested_variations.pgn") + "\n" + read(dir + "/encode/many_blocks.pgn"), z),
                 "BLOCK-1", "sections stored as zstd frames (a reader must accept them; the bytes are not canonical)");
  }
  {
    // Texts and raw sections in one zstd frame per directory group (encoding 2), here one game
    // per group: games without comments have empty frames.
    valid_vector("group_frames", framed_archive(), "BLOCK-1 BLOCK-4",
                 "texts and raw sections of one zstd frame per directory group of one game, some frames empty "
                 "(a reader must accept them; the bytes are not canonical)");
  }

  {
    // Texts in the column form (9.3.2): one frame (encoding 4), one per group (encoding 5).
    for (const bool by_group : {false, true}) {
      const std::string pga = columns_archive(by_group);
      const std::string_view block = std::string_view(pga).substr(kHeaderSize);
      if (block[kBlockHeaderSize + kTexts * kSectionEntrySize + 1] != (by_group ? kZstdColumnsByGroup : kZstdColumns))
        std::abort();  // the writer kept the plain form: not what this vector is for
      valid_vector(by_group ? "text_columns_by_group" : "text_columns", pga, by_group ? "BLOCK-1 BLOCK-4 TEXT-COL-1" : "BLOCK-1 TEXT-COL-1",
                   by_group ? "engine reports as texts in the column form, one zstd frame per directory group of one game "
                              "(a reader must accept them; the bytes are not canonical)"
                            : "engine reports as texts in the column form, one zstd frame (a reader must accept it; the "
                              "bytes are not canonical)");
    }
  }
  {
    // Verbatim games (crazyhouse, kept as text) with a raw section in the column form.
    const std::string pgn = read(dir + "/../pgn/variant_crazyhouse.pgn");
    std::string six;
    for (std::size_t at = 0, n = 0; n < 6 && at != std::string::npos; ++n) {
      const std::size_t next = pgn.find("\n[Event ", at + 1);
      six += pgn.substr(at, next == std::string::npos ? std::string::npos : next + 1 - at);
      at = next == std::string::npos ? next : next + 1;
    }
    WriterOptions o = stored();
    o.compress = true;
    const std::string pga = pack(six, o);
    if (std::string_view(pga).substr(kHeaderSize)[kBlockHeaderSize + kRaw * kSectionEntrySize + 1] != kZstdColumns)
      std::abort();  // the writer kept the plain form: not what this vector is for
    valid_vector("raw_columns", pga, "BLOCK-1 TEXT-COL-1",
                 "six crazyhouse games kept verbatim, the raw section in the column form (a reader must accept it; "
                 "the bytes are not canonical)");
  }
  {
    // The tags of every block compressed with one trained dictionary (9.9, encoding 3).
    const std::string pga = pack(dictionary_pgn(), dictionary_options());
    if (parts_of(pga).index.dictionaries.size() != 1) {
      std::fprintf(stderr, "tag_dictionary: the writer made no dictionary\n");
      std::exit(1);
    }
    valid_vector("tag_dictionary", pga, "BLOCK-1 BLOCK-5 DICT-1 INDEX-1",
                 "400 games in 8 blocks whose tags sections are compressed with the archive's tag dictionary, an "
                 "element between the header and the first block (a reader must accept it; the bytes are not "
                 "canonical)");
  }

  // Name tables in many chunks (9.10): 64 bytes of entries each.
  WriterOptions chunked = stored(7);
  chunked.name_chunk_bytes = 64;
  const std::string names_pgn = read(dir + "/encode/many_blocks.pgn") + "\n" + dictionary_pgn();
  const std::string named = pack(names_pgn, chunked);
  if (parts_of(named).index.name_chunks[0].size() < 3) {
    std::fprintf(stderr, "name_chunks: the writer made too few White chunks\n");
    std::exit(1);
  }
  valid_vector("name_chunks", named, "INDEX-1 NAME-1",
               "blocks of 7 games and name tables in chunks of about 64 bytes of entries: three or more per field");

  // The block table in many chunks (9.11): blocks of two games, two blocks a chunk.
  WriterOptions tabled = stored(2);
  tabled.table_chunk_blocks = 2;
  const std::string table_pgn = read(dir + "/encode/many_blocks.pgn");
  const std::string tabled_pga = pack(table_pgn, tabled);
  if (parts_of(tabled_pga).index.table_chunks.size() != 3) {
    std::fprintf(stderr, "table_chunks: the writer made another number of chunks than 3\n");
    std::exit(1);
  }
  valid_vector("table_chunks", tabled_pga, "INDEX-1 TABLE-1",
               "nine games in five blocks, the block table in chunks of two blocks (the last of one)");
}

// Damage to the header, footer, index and block table entries.
void invalid_file_vectors() {
  const std::string good = read(dir + "/encode/many_blocks.pga");
  const std::string two = read(dir + "/encode/two_plies.pga");
  invalid_vector("short_file", two.substr(0, 79), "Corruption", "FOOTER-1", "shorter than a header and a footer");
  invalid_vector("bad_magic", fix_header_checksum(flip(two, 1)), "Corruption", "FILE-HDR-1", "wrong file magic");
  invalid_vector("header_checksum", flip(two, 28), "Corruption", "FILE-HDR-1", "header checksum mismatch");
  invalid_vector("reserved_flag", fix_header_checksum(flip(two, 12)), "Corruption", "FILE-HDR-1", "a reserved flag bit set");
  {
    std::string h = two;
    h[8] = h[10] = static_cast<char>(kFormatVersionMajor + 1);  // the next major version
    h[9] = h[11] = 0;
    invalid_vector("newer_major_version", fix_header_checksum(h), "Unsupported", "FILE-HDR-2",
                   "read version 2.0, a major version this reader does not read: refused as unsupported, not corrupt");
    h[8] = h[10] = 0;
    invalid_vector("major_version_0", fix_header_checksum(h), "Unsupported", "FILE-HDR-2",
                   "read version 0.0: refused as unsupported");
    h = two;
    h[9] = 7;   // written by a writer of 1.7
    h[11] = 3;  // that says a reader of 1.3 reads all of it
    valid_vector("later_minor_version", fix_header_checksum(h), "FILE-HDR-2",
                 "write version 1.7, read version 1.3, holding only what 1.0 defines: a reader of 1.0 reads it");
  }
  invalid_vector("truncated", good.substr(0, good.size() - 1), "Corruption", "FOOTER-1", "one byte short");
  invalid_vector("footer_magic", flip(good, good.size() - 1), "Corruption", "FOOTER-1", "wrong footer magic");
  invalid_vector("footer_checksum", flip(good, good.size() - 8), "Corruption", "FOOTER-1", "footer checksum mismatch");
  {
    Footer f;
    if (!decode_footer(std::string_view(good).substr(good.size() - kFooterSize), good.size(), f).ok()) std::abort();
    invalid_vector("index_checksum", flip(good, f.index_offset + 6), "Corruption", "FOOTER-1", "index checksum mismatch");
    invalid_vector("block_checksum", flip(good, 60), "Corruption", "BLOCK-1", "a byte of block 0 changed");
    ArchiveParts idx = parts_of(good);
    idx.blocks[1].offset += 1;
    invalid_vector("block_out_of_place", with_tables(good, idx), "Corruption", "TABLE-1 INDEX-1", "index entry not where the block is");
    idx = parts_of(good);
    idx.blocks[0].games = 3;
    idx.blocks[1].games = 1;
    invalid_vector("game_count_mismatch", with_tables(good, idx), "Corruption", "INDEX-1 BLOCK-1",
                   "the index gives block 0 three games, the block holds two");
    idx = parts_of(good);
    idx.blocks[2].size += 1000000;
    invalid_vector("length_past_end", with_tables(good, idx), "Corruption", "TABLE-1 INDEX-1", "a block size that runs past the index");
  }
  {
    // A byte between the header and the first block, every offset after it one greater: the
    // elements are where the index says, but do not start at offset 32.
    ArchiveParts p = parts_of(two);
    BlockEntry& entry = p.blocks.at(0);
    const std::string block = two.substr(kHeaderSize, entry.size);
    entry.offset += 1;
    const std::string shifted = two.substr(0, kHeaderSize) + std::string(1, '\0') + block;
    invalid_vector("blocks_not_at_32", rebuild(shifted, shifted.size(), "", p.index, p.blocks), "Corruption", "INDEX-1",
                   "one byte between the header and the first block, every offset after it shifted to match");
  }
}

// Tag dictionaries damaged: the element's bytes, the index's ID for it, its place; a block
// naming a dictionary the archive lacks; encoding 3 on a section other than tags.
void invalid_dictionary_vectors() {
  const std::string two = read(dir + "/encode/two_plies.pga");
  // Tag dictionaries damaged: the element's bytes, the index's ID for it, its place; a block
  // naming a dictionary the archive lacks; encoding 3 on a section other than tags.
  const std::string dict = read(dir + "/valid/tag_dictionary.pga");
  Index idx = parts_of(dict).index;
  const DictionaryEntry d = idx.dictionaries.at(0);
  invalid_vector("dictionary_checksum", flip(dict, d.offset + d.size / 2), "Corruption", "DICT-1",
                 "a byte of the dictionary element changed");
  // The element's header changed and its checksum made right: each fault alone.
  const auto edited = [&](std::size_t at, char byte) {
    std::string e = dict.substr(d.offset, d.size - 8);
    e[at] = byte;
    put_le(e, hash64(e), 8);
    return std::string(dict).replace(d.offset, d.size, e);
  };
  invalid_vector("dictionary_magic", edited(3, 'X'), "Corruption", "DICT-1", "a dictionary element whose magic is PGAX");
  invalid_vector("dictionary_reserved", edited(9, 1), "Corruption", "DICT-1", "a dictionary element's reserved bytes not 0");
  invalid_vector("dictionary_encoding_2", edited(8, 2), "Corruption", "DICT-1", "a dictionary element of encoding 2");
  invalid_vector("dictionary_raw_size", edited(19, 1), "Corruption", "DICT-1",
                 "a dictionary element whose raw size is above 2^20");
  idx.dictionaries[0].id ^= 1;
  invalid_vector("dictionary_id_mismatch", with_index(dict, idx), "Corruption", "DICT-1 INDEX-1",
                 "the index gives the dictionary another ID than its element");
  idx = parts_of(dict).index;
  idx.dictionaries[0].offset += 1;
  invalid_vector("dictionary_out_of_place", with_index(dict, idx), "Corruption", "DICT-1 INDEX-1",
                 "a dictionary entry not where the element is");
  GameBuilder b;
  PgnReader r(memory_input(dictionary_pgn()), "x");
  std::vector<codec::CodecStreams> streams;
  std::vector<std::vector<Tag>> tags;
  for (int i = 0; i < 50 && *r.next(b); ++i) {
    streams.emplace_back();
    if (!codec::encode_game(b.game(), streams.back()).ok()) std::abort();
    tags.push_back(b.game().tags);
  }
  // (The dictionary of valid/tag_dictionary, without its element.)
  std::uint32_t id;
  std::string content;
  if (!decode_dictionary_element(std::string_view(dict).substr(d.offset, d.size), "x", id, content).ok()) std::abort();
  const auto trained = WriterDictionary::make(content, 9);
  if (!trained) std::abort();
  invalid_vector("dictionary_unknown", archive_of(streams, tags, "", trained.get()), "Corruption",
                 "BLOCK-5", "a tags section compressed with a dictionary the archive does not hold");
  invalid_vector("dictionary_encoding_on_moves",
                 edit_block(two, [](std::string& blk) { blk[kBlockHeaderSize + kSectionEntrySize + 1] = kZstdDictionary; }),
                 "Corruption", "BLOCK-1", "encoding 3 (dictionary) on the moves section");
}

// Name chunks damaged (9.10).
void invalid_name_vectors() {
  const std::string named = read(dir + "/valid/name_chunks.pga");
  // Name chunks damaged (9.10): the element's bytes, its place, the directory's order and first
  // value, a posting past the blocks, a chunk's last value not below the next one's first.
  const ArchiveParts named_parts = parts_of(named);
  const Index& idx = named_parts.index;
  const NameChunkEntry c = idx.name_chunks[0][1];
  invalid_vector("name_chunk_checksum", flip(named, c.offset + c.size / 2), "Corruption", "NAME-1",
                 "a byte of a name chunk changed");
  Index moved = idx;
  moved.name_chunks[0][1].offset += 1;
  invalid_vector("name_chunk_out_of_place", with_index(named, moved), "Corruption", "INDEX-1",
                 "a name chunk entry not where the chunk is");
  // The tables other than the players' are in ascending order of value (the players' in the
  // order of its entries): the field of those with the most chunks.
  const int sorted = idx.name_chunks[kEventField].size() >= idx.name_chunks[kSiteField].size() ? kEventField : kSiteField;
  if (idx.name_chunks[sorted].size() < 2) {
    std::fprintf(stderr, "name_chunks: the writer made too few Event and Site chunks\n");
    std::exit(1);
  }
  Index unordered = idx;
  unordered.name_chunks[sorted][1].first = unordered.name_chunks[sorted][0].first;
  invalid_vector("name_chunks_not_ascending", with_index(named, unordered), "Corruption", "INDEX-1",
                 "two name chunks of a field with the same first value in the directory");
  Index renamed = idx;
  renamed.name_chunks[0][1].first += '\x01';
  invalid_vector("name_chunk_first_value", with_index(named, renamed), "Corruption", "NAME-1",
                 "the directory gives a name chunk another first value than the chunk holds");
  invalid_vector("name_posting_past_blocks", edit_names(named, [&](int field, std::size_t k, std::vector<NameEntry>& e) {
                   if (field == 1 && k == 0) e[0].blocks.back() = static_cast<std::uint32_t>(named_parts.blocks.size());
                 }),
                 "Corruption", "NAME-1", "a posting naming a block past the last");
  invalid_vector("name_chunks_overlap", edit_names(named, [&](int field, std::size_t k, std::vector<NameEntry>& e) {
                   if (field == sorted && k == 0) e.push_back(NameEntry{idx.name_chunks[sorted][1].first, {0}});
                 }),
                 "Corruption", "NAME-1", "a name chunk's last value equal to the next chunk's first");
}

// Block table chunks damaged (9.11).
void invalid_table_vectors() {
  const std::string tabled_pga = read(dir + "/valid/table_chunks.pga");
  // Block table chunks damaged (9.11): the element's bytes, its place, the directory's block
  // count and first game, an entry past the blocks.
  const ArchiveParts tabled_parts = parts_of(tabled_pga);
  const Index& idx = tabled_parts.index;
  const TableChunkEntry c = idx.table_chunks[1];
  invalid_vector("table_chunk_checksum", flip(tabled_pga, c.offset + c.size / 2), "Corruption", "TABLE-1",
                 "a byte of the second block table chunk changed");
  Index moved = idx;
  moved.table_chunks[1].offset += 1;
  invalid_vector("table_chunk_out_of_place", with_index(tabled_pga, moved), "Corruption", "INDEX-1",
                 "a block table chunk entry not where the chunk is");
  Index recounted = idx;
  recounted.table_chunks[0].blocks -= 1;
  recounted.table_chunks[1].blocks += 1;
  invalid_vector("table_chunk_block_count", with_index(tabled_pga, recounted), "Corruption", "TABLE-1",
                 "the directory gives the first chunk one block, it lists two");
  Index renumbered = idx;
  renumbered.table_chunks[1].first_game -= 1;
  invalid_vector("table_chunk_first_game", with_index(tabled_pga, renumbered), "Corruption", "TABLE-1",
                 "the directory puts the second chunk's first game one earlier than the first chunk's blocks hold");
  ArchiveParts gapped = tabled_parts;
  gapped.blocks[2].offset += 1;
  invalid_vector("table_block_out_of_place",
                 rebuild(tabled_pga, idx.table_chunks[0].offset, "", gapped.index, gapped.blocks, 2), "Corruption",
                 "TABLE-1 INDEX-1", "a block entry of the second chunk not where the block is");
}

// Game records with valid checksums but damaged contents; tags and game directories damaged.
void invalid_record_vectors() {
  // Game records with valid checksums but damaged contents.
  const Game g = [] {
    GameBuilder b;
    PgnReader r(memory_input("1. e4 e5 2. Nf3 1-0"), "x");
    (void)r.next(b);
    return b.game();
  }();
  codec::CodecStreams s;
  if (!codec::encode_game(g, s).ok()) std::abort();
  codec::CodecStreams bad = s;
  // A coded game whose tags give no start position: another variant, an invalid FEN.
  invalid_vector("record_variant_tag", archive_of({s}, {{Tag{"Variant", "crazyhouse"}}}), "Corruption", "START-1",
                 "a coded game (not verbatim) in a block of codec 6 whose Variant tag names crazyhouse");
  invalid_vector("record_variant_unknown", archive_of({s}, {{Tag{"Variant", "seirawan"}}}), "Corruption", "START-1",
                 "a coded game (not verbatim) whose Variant tag names a variant this format does not define");
  // Its directory counts the game's 3 plies, as for a game that decodes: a reader that folds the
  // value as Unicode reads the game as standard chess and finds nothing else wrong.
  invalid_vector("record_variant_long_s", edit_block(archive_of({s}, {{Tag{"Variant", "\xC5\xBFtandard"}}}),
                                                     [](std::string& b) {
                                                       const std::size_t structure = section_of(b, 2).first;
                                                       if (b[structure] != 1 || b[structure + 1] != 0) std::abort();
                                                       b[structure + 1] = 3;
                                                     }),
                 "Corruption", "START-1",
                 "a coded game (not verbatim) whose Variant tag is standard with a long s (UTF-8 C5 BF): values are "
                 "compared case-insensitively in ASCII only");
  {
    // A game under a variant (codec 7): its variant byte after the header, which may name no
    // variant (0, 8) and never one a Variant tag names too.
    GameBuilder vb;
    parse_game("1. e4 d5 2. exd5 Qxd5 3. P@e4 *", "x", 1, {}, vb, Variant::kCrazyhouse);
    codec::CodecStreams v;
    if (!vb.ok() || !codec::encode_game(vb.game(), v).ok() || !v.variants ||
        static_cast<std::uint8_t>(v.structure[1]) != 1)
      std::abort();
    for (const std::uint8_t value : {0, 8}) {
      codec::CodecStreams bad_variant = v;
      bad_variant.structure[1] = static_cast<char>(value);
      invalid_vector("record_variant_byte_" + std::to_string(value), archive_of({bad_variant}, {{}}), "Corruption",
                     "REC-HDR-2", "a game header's variant byte of " + std::to_string(value) + ", which names no variant");
    }
    invalid_vector("record_variant_byte_and_tag", archive_of({v}, {{Tag{"Variant", "Crazyhouse"}}}), "Corruption",
                   "REC-HDR-2", "a game header's variant byte where a Variant tag names the game's variant too");
    invalid_vector("record_variant_in_codec_6",
                   edit_block(archive_of({v}, {{}}), [](std::string& b) { b[4] = 6; }), "Corruption", "REC-HDR-1",
                   "a game header with its variant bit (7) in a block of codec 6, where the bit is reserved");
    // A crazyhouse position of 437 legal moves, reached by Black's drop, where White's move is
    // coded (no writer codes one: it keeps such a game verbatim); a block of the uniform coder.
    const std::vector<Tag> crowded = {{"Variant", "Crazyhouse"},
                                      {"FEN", "Q4QBk/3Q4/6Q1/1QQ5/5Q2/Q7/Q5Q1/K2QQ3[PNBRQp] b - - 0 1"}};
    Position pos = *start_position(crowded);
    const Move drop = *pos.parse_san("P@h2");
    codec::CodecStreams big;
    big.variants = true;
    big.coder = codec::MoveCoder::kUniform;
    big.structure.push_back('\0');  // no result, unannotated: the codeword codes the line's end
    {
      codec::ArithEncoder enc(codec::BitSink{big.moves, big.move_bits});
      const auto ply = [&](std::uint32_t n, std::uint32_t index) {
        const std::uint32_t moves = 4096 * n, end = moves >> 8;
        enc.encode(end + 4096 * index, 4096, moves + end);
      };
      ply(static_cast<std::uint32_t>(pos.legal_move_count()), static_cast<std::uint32_t>(pos.move_index(drop)));
      pos.play(drop);
      if (!pos.legal_moves().overflow) std::abort();
      ply(437, 0);
      enc.encode(0, 1, 2);  // (never read)
      enc.finish();
    }
    invalid_vector("record_variant_too_many_moves", archive_of({big}, {crowded}), "Corruption", "MOVE-SYM-4",
                   "a move coded in a crazyhouse position of 437 legal moves, more than 416");
  }
  invalid_vector("record_invalid_fen", archive_of({s}, {{Tag{"FEN", "8/8/8/8/8/8/8/8 w - - 0 1"}}}), "Corruption",
                 "START-1", "a coded game (not verbatim) whose FEN has no kings");
  // The game header's reserved bit, set in a whole archive (the block's directory keeps the
  // game's plies, which info reads without decoding): the structure section starts with the
  // directory of one group, seven one-byte varints (step 1, 3 plies, four columns, no filter).
  invalid_vector("record_reserved_bit", edit_block(archive_of({s}, {{}}), [](std::string& b) {
                   const std::size_t structure = section_of(b, 2).first;
                   if (b[structure] != 1 || b[structure + 1] != 3) std::abort();
                   b[structure + 7] = static_cast<char>(b[structure + 7] | 0x80);
                 }),
                 "Corruption", "REC-HDR-1", "reserved bit in a game header");
  invalid_vector("record_counted_without_ply_count", edit_block(archive_of({s}, {{}}), [](std::string& b) {
                   const std::size_t structure = section_of(b, 2).first;
                   if (b[structure] != 1 || b[structure + 1] != 3) std::abort();
                   b[structure + 7] = static_cast<char>(b[structure + 7] | 0x40);
                 }),
                 "Corruption", "REC-HDR-1", "a game header that counts the main line by a PlyCount tag the game lacks");
  invalid_vector("record_tagged_result_without_tag", edit_block(archive_of({s}, {{}}), [](std::string& b) {
                   const std::size_t structure = section_of(b, 2).first;
                   if (b[structure] != 1 || b[structure + 1] != 3 || (b[structure + 7] & 7) != 1) std::abort();
                   b[structure + 7] = static_cast<char>((b[structure + 7] & ~7) | 5);
                 }),
                 "Corruption", "REC-HDR-1", "a game header that takes its result from a Result tag the game lacks");
  {
    // The codeword with every bit set: its value lies above every symbol's interval (the first
    // ply's total does not divide 2^32, so the top of the range is no symbol's).
    bad = s;
    bad.moves.assign((bad.move_bits + 7) / 8, '\xff');
    codec::CodecCursor c{bad.moves, bad.structure, bad.texts, bad.raw, bad.coder};
    if (codec::decode_game(c, {}).ok()) std::abort();
    invalid_vector("codeword_outside_symbols", archive_of({bad}, {{}}), "Corruption", "MOVE-AC-2",
                   "a move codeword whose value lies in no symbol's interval");
    // A codeword whose closing bits are not a coder's: the first bit changed, counted from the
    // end, that the decoder refuses (a changed bit may also give other moves, which the block
    // checksum is there to catch).
    bool made = false;
    for (std::uint64_t back = 1; back <= s.move_bits && !made; ++back) {
      bad = s;
      const std::uint64_t at = s.move_bits - back;
      bad.moves[at / 8] = static_cast<char>(bad.moves[at / 8] ^ (0x80 >> (at % 8)));
      codec::CodecCursor d{bad.moves, bad.structure, bad.texts, bad.raw, bad.coder};
      auto got = codec::decode_game(d, {});
      if (!got.ok() && got.error().message().find("does not end as a coder ends it") != std::string::npos) made = true;
    }
    if (!made) std::abort();
    invalid_vector("codeword_closing_bits", archive_of({bad}, {{}}), "Corruption", "MOVE-AC-3",
                   "a move codeword whose closing bits are not the ones a coder writes");
  }
  invalid_vector("bytes_left_over", archive_of({s}, {{}}, s.moves), "Corruption", "BLOCK-2 BLOCK-3 MOVE-AC-4",
                 "a section longer than its games (bytes after the last game)");
  codec::CodecStreams item;
  Game annotated = g;
  annotated.events.insert(annotated.events.begin() + 1, GameEvent::make_nag(1));
  if (!codec::encode_game(annotated, item).ok()) std::abort();
  // Structure: header, 3 plies, no null moves, one item: slot delta 1, type 3 (a NAG), NAG 1.
  // The type byte made reserved: 7, the lowest, and 9.
  if (item.structure != std::string("\x09\x03\x00\x01\x01\x03\x01", 7)) std::abort();
  for (const char type : {'\x07', '\x09'}) {
    item.structure[5] = type;
    const std::string n = std::to_string(type);
    invalid_vector(type == 9 ? "reserved_item_type" : "reserved_item_type_" + n, archive_of({item}, {{}}), "Corruption",
                   "REC-LINE-1", "reserved item type " + n + " (the item's slot and value well formed)");
  }
  {
    // The same game's ply count, 3, as the varint 83 00: not minimal.
    codec::CodecStreams long_varint = item;
    long_varint.structure[5] = '\x03';
    long_varint.structure.replace(1, 1, std::string("\x83\x00", 2));
    invalid_vector("varint_not_minimal", archive_of({long_varint}, {{}}), "Corruption", "VARINT-1",
                   "a line's ply count 3 written as the varint 83 00");
    codec::CodecStreams nulls = item;  // 3 plies, 5 null moves (the varint 2 * nulls + track)
    nulls.structure[5] = '\x03';
    nulls.structure[2] = '\x0a';
    invalid_vector("null_count_above_plies", archive_of({nulls}, {{}}), "Corruption", "REC-LINE-1",
                   "a line of 3 plies that says it has 5 null moves");
    codec::CodecStreams items = item;  // 127 items in a stream of 3 bytes left
    items.structure[5] = '\x03';
    items.structure[3] = '\x7f';
    invalid_vector("item_count_past_stream", archive_of({items}, {{}}), "Corruption", "REC-LINE-1",
                   "an item count of 127 with 3 bytes left in the structure stream");
    codec::CodecStreams huge = long_varint;
    huge.structure.replace(1, 2, std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10));
    invalid_vector("varint_above_2_64", archive_of({huge}, {{}}), "Corruption", "VARINT-1",
                   "a line's ply count of 2^64 + 2^63 - 1: a varint of ten bytes above 2^64 - 1");
    codec::CodecStreams cut = item;  // the stream cut after the item count, given as 81
    cut.structure = std::string("\x09\x03\x00\x81", 4);
    invalid_vector("varint_cut_short", archive_of({cut}, {{}}), "Corruption", "VARINT-1",
                   "an item count whose varint says another byte follows, at the end of the structure stream");
  }
  {
    // A variation at slot 0 (before the line's first ply, which it would replace): `1. e4 (1. d4)
    // e5 2. Nf3 1-0`: header, 3 plies, no null moves, 1 item: slot delta 1, type 4, then the
    // variation's line; the slot delta made 0.
    Game varied = [] {
      GameBuilder b;
      PgnReader r(memory_input("1. e4 (1. d4) e5 2. Nf3 1-0"), "x");
      (void)r.next(b);
      return b.game();
    }();
    codec::CodecStreams v;
    if (!codec::encode_game(varied, v).ok() || v.structure.substr(1, 5) != std::string("\x03\x00\x01\x01\x04", 5)) std::abort();
    v.structure[4] = 0;
    invalid_vector("variation_at_slot_0", archive_of({v}, {{}}), "Corruption", "REC-LINE-1",
                   "a variation at slot 0, where no ply is played before it");
  }
  {
    // A prelude comment of kind 3: header (frame), prelude count 1, kind, epilogue count 0, ...
    Game framed = g;
    framed.prelude.push_back(Comment{CommentKind::kBrace, "c"});
    codec::CodecStreams f;
    if (!codec::encode_game(framed, f).ok() || f.structure[1] != 1 || f.structure[2] != 0) std::abort();
    f.structure[2] = 3;
    invalid_vector("comment_kind_3", archive_of({f}, {{}}), "Corruption", "REC-CMT-1", "a prelude comment of kind 3");
  }
  {
    // Records past the game's budget of 2^18 (REC-RCD-2): 300 plies, each with a record of a
    // shape of about 1,000 bytes, written by an encoder whose budget was raised.
    std::string pgn;
    const std::string words = [] {
      std::string w;
      for (int k = 0; k < 200; ++k) w += "note ";
      return w;
    }();
    const char* const cycle[4] = {"Nf3", "Nf6", "Ng1", "Ng8"};
    for (int ply = 0; ply < 300; ++ply) {
      if (ply % 2 == 0) pgn += std::to_string(ply / 2 + 1) + ". ";
      pgn += std::string(cycle[ply % 4]) + " {" + words + "d=" + std::to_string(ply % 7 + 1) + "} ";
    }
    pgn += "*\n";
    GameBuilder b;
    PgnReader r(memory_input(pgn), "records.pgn");
    if (!r.next(b).ok()) std::abort();
    codec::CodecStreams within, past;
    if (!codec::encode_game(b.game(), within).ok() || !codec::encode_game_with_record_work(b.game(), past, 1u << 20).ok()) std::abort();
    if (within.structure == past.structure) std::abort();  // the writer's own encoding stays within the budget
    invalid_vector("records_past_budget", archive_of({past}, {{}}), "Corruption", "REC-RCD-2",
                   "300 records of a shape of about 1,000 bytes: more than 2^18 shape bytes, values and run moves");
  }
  {
    // Records (8.3.3). `1. e4 {d=9} e5 {d=8} *`: structure: header, 2 plies, no null moves, 2 items
    // (slot delta 1, type 6, rank 0: a new shape; slot delta 1, type 6, rank 1: the same); texts:
    // the shape "d=" 04 02 as one text entry. `{e4} 1. e4 *`: a record at slot 0 whose run (02)
    // is from the position after it (03), the line's start.
    const auto coded = [](const char* pgn) {
      GameBuilder b;
      PgnReader r(memory_input(pgn), "x");
      (void)r.next(b);
      codec::CodecStreams c;
      if (!codec::encode_game(b.game(), c).ok()) std::abort();
      return c;
    };
    const codec::CodecStreams rec = coded("1. e4 {d=9} e5 {d=8} *");
    if (rec.structure != std::string("\x0c\x02\x00\x02\x01\x06\x00\x01\x06\x01", 10) ||
        rec.texts != std::string("\x04" "d=\x04\x02", 5))
      std::abort();
    const auto bad_record = [&](const std::string& name, const codec::CodecStreams& c, const std::string& ids,
                                const std::string& why) {
      codec::CodecCursor d{c.moves, c.structure, c.texts, c.raw, c.coder};
      if (codec::decode_game(d, {}).ok()) std::abort();
      invalid_vector(name, archive_of({c}, {{}}), "Corruption", ids, why);
    };
    codec::CodecStreams r = rec;
    r.structure[9] = 2;
    bad_record("record_shape_rank", r, "REC-RCD-3", "a record naming the second most recent shape of a game that has had one");
    r = rec;
    r.texts[4] = '\xf2';
    bad_record("record_shape_format", r, "REC-RCD-1", "a number's format byte above 241");
    r = rec;
    r.texts[4] = '\x12';
    bad_record("record_minus_on_positive", r, "REC-RCD-1", "a number of sign style 2 (always -) whose value is above 0");
    r = rec;
    r.texts = std::string("\x03" "d=\x04", 4);
    bad_record("record_shape_ends_after_mark", r, "REC-RCD-1", "a shape whose last byte is a mark");
    r = rec;
    r.texts = std::string("\x02" "d=", 3);
    bad_record("record_shape_without_values", r, "REC-RCD-1", "a shape of no values");
    r = coded("{e4} 1. e4 *");
    if (r.texts != std::string("\x02\x02\x03", 3)) std::abort();
    r.texts[2] = '\x02';
    bad_record("record_run_before_first_ply", r, "REC-RCD-1",
               "a record at slot 0 with a run from the position before its ply, which it does not have");
  }
  {
    // A clock comment (item type 5) with a clock that goes below zero.
    GameBuilder b;
    // (The comment before the last clock keeps the clocks out of a clock track, 8.3.2.)
    PgnReader r(memory_input("1. e4 { [%clk 0:00:05] } e5 { [%clk 0:00:05] } 2. Nf3 {x} { [%clk 0:00:01] } *"), "x");
    (void)r.next(b);
    codec::CodecStreams clocks;
    if (!codec::encode_game(b.game(), clocks).ok()) std::abort();
    // structure: header, 3 plies, null count (no clock track), item count 4, then (slot delta, type 5,
    // zigzag delta) per clock and the comment; the third clock's delta -4 (zigzag 7) becomes -6
    // (zigzag 11): 5 - 6 < 0.
    const std::size_t third = clocks.structure.rfind('\x07');
    if (third == std::string::npos) std::abort();
    clocks.structure[third] = 11;
    invalid_vector("clock_below_zero", archive_of({clocks}, {{}}), "Corruption", "REC-CLK-1",
                   "a clock delta that takes the clock below zero");
  }
  {
    // With [TimeControl "5+0"]: 3 plies, a clock track, one run (the last, its frame alone: 02),
    // then the symbols zigzag(5 - 5) = 0, 0 and zigzag(5 - 1) = 8: 0c 03 01 01 02 00 00 08 00.
    const std::vector<std::vector<Tag>> tc = {{Tag{"TimeControl", "5+0"}}};
    GameBuilder b;
    PgnReader r5(memory_input("[TimeControl \"5+0\"]\n\n1. e4 {[%clk 0:00:05]} e5 {[%clk 0:00:05]} 2. Nf3 {[%clk 0:00:01]} *"), "x");
    (void)r5.next(b);
    codec::CodecStreams v5;
    if (!codec::encode_game(b.game(), v5).ok() ||
        v5.structure != std::string("\x0c\x03\x01\x01\x02\x00\x00\x08\x00", 9))
      std::abort();
    codec::CodecStreams bad = v5;
    bad.structure = std::string("\x0c\x03\x01\x02\x42\x02\x00\x00\x08\x00", 10);  // runs of 2 ((2 - 1) * 64 + 2) and (the last) 1 plies, both frame 2
    invalid_vector("clock_runs_repeat", archive_of({bad}, tc), "Corruption", "REC-CLK-7",
                   "two consecutive frame runs of one frame (the writer merges them)");
    bad = v5;
    bad.structure[4] = 0x42;  // the last run with a length (2 plies), which it may not have
    invalid_vector("clock_runs_short", archive_of({bad}, tc), "Corruption", "REC-CLK-7",
                   "a last frame run written with a length (it runs to the line's end)");
    bad = v5;
    bad.structure = std::string("\x0c\x03\x01\x02\x82\x01\x01\x00\x00\x08\x00", 11);  // a first run of all 3 plies (varint 130)
    invalid_vector("clock_runs_long", archive_of({bad}, tc), "Corruption", "REC-CLK-7",
                   "a frame run that reaches the line's end before the last run");
    bad = v5;
    bad.structure[4] = 0x32;  // frame 2 + 4 * 12: there are 12 forms of time commands
    invalid_vector("clock_frame_reserved", archive_of({bad}, tc), "Corruption", "REC-CLK-7",
                   "a track frame of 50 (form 12; frames are 0 to 47)");
    bad = v5;
    bad.structure[7] = 0x0c;  // zigzag(6): 5 - 6 < 0
    invalid_vector("clock_symbol_below_zero", archive_of({bad}, tc), "Corruption", "REC-CLK-4",
                   "a clock symbol that takes the clock below zero");
    bad = v5;
    bad.moves.clear();  // a line of 0 plies: no symbols
    bad.move_bits = 0;
    bad.structure = std::string("\x0c\x00\x01\x01\x02\x00\x00", 7);  // (0 plies, a track, 1 run)
    invalid_vector("clock_track_without_plies", archive_of({bad}, tc), "Corruption", "REC-CLK-4",
                   "a clock track on a line of no plies");
    // One run (the last) of frame 3, the first evaluation mate in 0 (zigzag(0) * 2 + 1 = 01).
    bad = v5;
    bad.structure = std::string("\x0c\x03\x01\x01\x03\x00\x01\x00\x00\x08\x00\x00", 12);
    invalid_vector("evaluation_mate_zero", archive_of({bad}, tc), "Corruption", "REC-CLK-6",
                   "an evaluation of mate in 0");
  }
  {
    // Modelled tracks (8.3.4, codec 8), the uniform coder: "1. e4 { [%eval 0.17] [%clk 0:00:05] }"
    // under [TimeControl "10"]; its codeword made of 1. e4 (13 of 20 alike), then a time and an
    // evaluation given here.
    const std::vector<std::vector<Tag>> tc = {{Tag{"TimeControl", "10"}}};
    GameBuilder b;
    PgnReader r(memory_input("[TimeControl \"10\"]\n\n1. e4 { [%eval 0.17] [%clk 0:00:05] } *"), "x");
    (void)r.next(b);
    codec::CodecStreams good;
    good.coder = codec::MoveCoder::kUniform;
    good.modelled_tracks = true;
    if (!codec::encode_game(b.game(), good).ok() || good.codec() != codec::kModelledTracksCodec) std::abort();
    const auto crafted = [&](const std::function<void(codec::SymbolWriter&)>& track) {
      codec::CodecStreams s = good;
      std::vector<codec::PlySymbol> symbols = {{13 * 4096, 4096, 20 * 4096}};
      codec::SymbolWriter w{symbols};
      track(w);
      s.moves.clear();
      s.move_bits = 0;
      codec::put_codeword(symbols, s.moves, s.move_bits);
      return s;
    };
    // Slot 1: time row 33 (no average, 10 seconds predicted); t of class c and rest `rest` (of
    // `bits` bits); then the evaluation under evaluation row 1.
    const auto time = [](codec::SymbolWriter& w, int c, std::uint32_t rest, int bits) {
      w.cumulative(codec::kTimeTable[33], codec::kTimeSymbols, c);
      if (bits) w.raw(bits, rest);
    };
    const auto rise17 = [](codec::SymbolWriter& w) {
      int s = 15;
      std::uint32_t rest = 1;
      w.cumulative(codec::kEvalTable[1], codec::kEvalSymbols, s);
      w.raw(3, rest);
    };
    const std::string same = archive_of({crafted([&](codec::SymbolWriter& w) { time(w, 4, 1, 1);
      rise17(w);
    })}, tc);
    if (unpack(same).find("[%clk 0:00:05]") == std::string::npos) std::abort();  // t = 5: as written
    invalid_vector("clock_model_time_below_zero",
                   archive_of({crafted([&](codec::SymbolWriter& w) { time(w, 6, 3, 2);
                     rise17(w);
                   })}, tc), "Corruption",
                   "REC-CLK-8", "a modelled track's time of 11 seconds where 10 are predicted: a clock below 0");
    invalid_vector("clock_model_time_above_limit",
                   archive_of({crafted([&](codec::SymbolWriter& w) {
                     int c = codec::kNegativeTime;
                     std::uint32_t width = 40, bits = 0xFFFF, top = 0x7F;
                     w.cumulative(codec::kTimeTable[33], codec::kTimeSymbols, c);
                     w.uniform(codec::kNegativeWidths, width);
                     w.raw(16, bits);
                     w.raw(16, bits);
                     w.raw(7, top);
                     rise17(w);
                   })},
                              tc),
                   "Corruption", "REC-CLK-8",
                   "a modelled track's negative time of 2^40 seconds: a clock above 999999:59:59");
    invalid_vector("clock_model_evaluation_out_of_range",
                   archive_of({crafted([&](codec::SymbolWriter& w) {
                     time(w, 4, 1, 1);
                     int s = 2 * codec::kBigClass - 1;
                     std::uint32_t width = 27 - 13, high = 0x7DC8, low = 0;  // 2^26 + 0x7DC8 * 2^10: 100,081,664
                     w.cumulative(codec::kEvalTable[1], codec::kEvalSymbols, s);
                     w.uniform(codec::kEvalBigWidths, width);
                     w.raw(16, high);
                     w.raw(10, low);
                   })},
                              tc),
                   "Corruption", "REC-CLK-6",
                   "a modelled evaluation that rises to 100,081,664 centipawns (above 99,999,999)");
    invalid_vector("clock_model_mate_zero",
                   archive_of({crafted([&](codec::SymbolWriter& w) {
                     time(w, 4, 1, 1);
                     int mate = codec::kMateSymbol, none = 0;
                     w.cumulative(codec::kEvalTable[1], codec::kEvalSymbols, mate);
                     w.cumulative(codec::kMateTable, codec::kChangeSymbols, none);
                   })},
                              tc),
                   "Corruption", "REC-CLK-6", "a modelled mate whose N is the last mate's (0) unchanged: mate in 0");
    invalid_vector("clock_model_in_codec_7", edit_block(same, [](std::string& blk) { blk[4] = 7; }), "Corruption",
                   "REC-CLK-4",
                   "a block of codec 8 relabelled codec 7: its track's entries are read from the structure "
                   "stream, which holds only the frame runs");
  }
  codec::CodecStreams mate;
  Game fools;
  {
    GameBuilder b;
    PgnReader r(memory_input("1. f3 e5 2. g4 Qh4# {mate}"), "x");
    (void)r.next(b);
    fools = b.game();
  }
  if (!codec::encode_game(fools, mate).ok()) std::abort();
  // Structure: header (annotated), 4 plies, ...: a fifth ply after mate.
  if (mate.structure[1] != 4) std::abort();
  mate.structure[1] = 5;
  {
    // Tags: two games, Event "a." and "b." (text: no typed form reads them); the section ends
    // with the column's two one-byte references (0 0: both first uses).
    // Where the tags section (the block's first) ends, from the block's start.
    const auto tags_end_of = [](const std::string& archive) {
      return kBlockHeaderSize + kSections * kSectionEntrySize +
             get_le(archive.data() + kHeaderSize + kBlockHeaderSize + 4, 4);
    };
    const std::string tagged = archive_of({s, s},
                                          {{Tag{"Event", "a."}}, {Tag{"Event", "b."}}});
    const std::size_t tags_end = tags_end_of(tagged);
    invalid_vector("tag_reference_out_of_range", edit_block(tagged, [&](std::string& b) { b[tags_end - 1] = 3; }),
                   "Corruption", "TAGS-2", "a tag reference to a value of the value list not used before it");
    invalid_vector("tag_value_unused", edit_block(tagged, [&](std::string& b) { b[tags_end - 1] = 1; }),
                   "Corruption", "TAGS-2", "a value of the value list that no reference uses (the second game repeats the first's)");
    // Typed columns (9.4.1): two games of Date 9999.12.31 make a date column (coding 03, size
    // 05): the first code 1 + zigzag(10001 * 13 * 32 - 1), four bytes, then 01 (the same date).
    const std::string dated = archive_of({s, s}, {{Tag{"Date", "9999.12.31"}}, {Tag{"Date", "9999.12.31"}}});
    const std::size_t dated_end = tags_end_of(dated);
    invalid_vector("tag_date_out_of_range",
                   edit_block(dated, [&](std::string& b) { b[dated_end - 5] = static_cast<char>(b[dated_end - 5] + 2); }),
                   "Corruption", "TAGS-3", "a date column whose first value is one past 9999.12.31");
    invalid_vector("tag_coding_reserved", edit_block(dated, [&](std::string& b) { b[dated_end - 7] = 8; }),
                   "Corruption", "TAGS-1", "a column of coding 8 (reserved)");
    // Player columns (9.4.3): the White column of encode/players, 06 05 02 00 00 00 01 (entries
    // 0 and 1, references 0 and 1), its key `White` in the key table.
    const std::string players = read(dir + "/encode/players.pga");
    const std::size_t white = players.find(std::string("\x06\x05\x02\x00\x00\x00\x01", 7), kHeaderSize);
    const std::size_t white_key = players.find("\x05White", kHeaderSize);
    if (white == std::string::npos || white_key == std::string::npos) {
      std::fprintf(stderr, "players: the writer did not code White as entries\n");
      std::exit(1);
    }
    const std::size_t w = white - kHeaderSize;
    invalid_vector("tag_player_past_table", edit_block(players, [&](std::string& b) { b[w + 4] = 1; }), "Corruption",
                   "TAGS-5", "a White column naming entry 2 of a players' table of two entries");
    invalid_vector("tag_player_reference", edit_block(players, [&](std::string& b) { b[w + 6] = 2; }), "Corruption",
                   "TAGS-5", "a reference to the third entry of a White column that lists two");
    invalid_vector("tag_player_unused", edit_block(players, [&](std::string& b) { b[w + 6] = 0; }), "Corruption",
                   "TAGS-5", "an entry of a White column's list that no reference names");
    invalid_vector("tag_player_key", edit_block(players, [&](std::string& b) { b[white_key - kHeaderSize + 5] = 'f'; }),
                   "Corruption", "TAGS-5", "a column of coding 6 whose key is Whitf");
    // A base-62 identifier column of 10 digits (L = 0a: eight byte planes, the section's last 16
    // bytes) whose first number has its highest byte ff: above 62^10 and, read as a signed
    // number, below 0 (a fuzzer found a reader that wrote it out).
    const std::string ids = archive_of({s, s}, {{Tag{"Id", "zzzzzzzzzz"}}, {Tag{"Id", "0000000000"}}});
    const std::size_t ids_end = tags_end_of(ids);
    invalid_vector("tag_identifier_out_of_range", edit_block(ids, [&](std::string& b) { b[ids_end - 2] = '\xff'; }),
                   "Corruption", "TAGS-3", "a base-62 identifier above 62^L whose eight bytes read as a negative number");
    // A rating column (coding 02, size 02: player key 00, code 01) naming itself as its player.
    const std::string rated = archive_of({s}, {{Tag{"White", "a."}, Tag{"WhiteElo", "1500"}}});
    const std::size_t rated_end = tags_end_of(rated);
    invalid_vector("tag_rating_of_a_rating", edit_block(rated, [&](std::string& b) { b[rated_end - 2] = 1; }),
                   "Corruption", "TAGS-4", "a rating column whose player column is itself");
    invalid_vector("unknown_layout", edit_block(tagged, [](std::string& b) { b[6] = 2; }), "Unsupported", "BLOCK-1",
                   "block layout 2 (not defined): refused as unsupported");
    invalid_vector("unknown_codec", edit_block(tagged, [](std::string& b) { b[4] = 4; }), "Unsupported", "BLOCK-1",
                   "a block of move codec 4 (not defined in 1.0): refused as unsupported");
    invalid_vector("unknown_move_coder", edit_block(tagged, [](std::string& b) { b[7] = 3; }), "Unsupported", "BLOCK-1",
                   "a block of move coder 3 (not defined in 1.2): refused as unsupported");
  }
  {
    // The game directory (9.3.1) of 17 games: three entries of 8, 8 and 1 games. The structure
    // section is the third; its first byte is the step (8), then the block's plies (51), then
    // the moves column's three one-byte entries.
    const std::string seventeen =
        archive_of(std::vector<codec::CodecStreams>(17, s), std::vector<std::vector<Tag>>(17));
    const std::size_t directory = kBlockHeaderSize + kSections * kSectionEntrySize +
                                  get_le(seventeen.data() + kHeaderSize + kBlockHeaderSize + 4, 4) +
                                  get_le(seventeen.data() + kHeaderSize + kBlockHeaderSize + kSectionEntrySize + 4, 4);
    invalid_vector("directory_entry_misplaced", edit_block(seventeen, [&](std::string& b) {
                     ++b[directory + 2];
                     --b[directory + 3];
                   }),
                   "Corruption", "BLOCK-3", "a directory entry one byte too long in moves (the next one byte short)");
    invalid_vector("directory_sum", edit_block(seventeen, [&](std::string& b) { ++b[directory + 3]; }), "Corruption",
                   "BLOCK-3", "a directory whose moves column adds up to more than the moves section");
    invalid_vector("directory_step_zero", edit_block(seventeen, [&](std::string& b) { b[directory] = 0; }), "Corruption",
                   "BLOCK-3", "a directory of 0 games per entry");
    invalid_vector("directory_plies", edit_block(seventeen, [&](std::string& b) { --b[directory + 1]; }), "Corruption",
                   "BLOCK-3", "a directory whose ply count is one less than the block's games have");
    // The moves section's last bit: padding after the last group's one codeword.
    if (s.move_bits % 8 == 0) std::abort();
    invalid_vector("group_padding", edit_block(seventeen, [&](std::string& b) {
                     const std::size_t moves = kBlockHeaderSize + kSections * kSectionEntrySize +
                                               get_le(b.data() + kBlockHeaderSize + 4, 4);
                     const std::size_t size = get_le(b.data() + kBlockHeaderSize + kSectionEntrySize + 4, 4);
                     b[moves + size - 1] = static_cast<char>(b[moves + size - 1] ^ 1);
                   }),
                   "Corruption", "MOVE-AC-4", "a bit after a group's last codeword that is not 0");
  }
  invalid_vector("move_after_mate", archive_of({mate}, {{Tag{"Event", "mate"}}}), "Corruption", "REC-LINE-1 MOVE-SYM-1",
                 "an annotated line with a ply after mate, where no legal move is");
}

// Group-framed sections damaged (9.3, BLOCK-4).
void invalid_frame_vectors() {
  // Group-framed sections (9.3, BLOCK-4), from the valid vector group_frames: the texts
  // section's frames start at `texts`; each frame's header is its magic (4 bytes), its frame
  // header descriptor, then (single segment, content under 256 bytes) a one-byte content size.
  const std::string framed = framed_archive();
  const std::string_view block = std::string_view(framed).substr(kHeaderSize);
  std::size_t texts = kBlockHeaderSize + kSections * kSectionEntrySize;
  for (int s = 0; s < kTexts; ++s) texts += get_le(block.data() + kBlockHeaderSize + s * kSectionEntrySize + 4, 4);
  if (block[kBlockHeaderSize + kTexts * kSectionEntrySize + 1] != kZstdByGroup ||
      (static_cast<std::uint8_t>(block[texts + 4]) & 0xE0) != 0x20)
    std::abort();  // not the layout this vector edits
  invalid_vector("group_frame_size", edit_block(framed, [&](std::string& b) { ++b[texts + 5]; }), "Corruption",
                 "BLOCK-4", "the first group's frame declares one byte more than the directory gives the group");
  invalid_vector("group_frame_magic", edit_block(framed, [&](std::string& b) { b[texts] ^= 1; }), "Corruption",
                 "BLOCK-4", "the first group's frame does not begin with the Zstandard magic number");
  invalid_vector("group_frames_for_tags", edit_block(framed, [&](std::string& b) { b[kBlockHeaderSize + 1] = kZstdByGroup; }),
                 "Corruption", "BLOCK-1", "encoding 2 (one frame per group) on the tags section, which has no directory column");
}

// Texts in the column form damaged (9.3.2, TEXT-COL-1).
void invalid_column_vectors() {
  // Texts in the column form (9.3.2, TEXT-COL-1): forms the writer would not make, in a frame
  // that decompresses; the form on a tags section; a group frame declaring more than the form
  // of its group can take.
  const std::string pga = columns_archive(false);
  std::string streams;
  {
    DecodedBlock b;
    if (!decode_block(std::string_view(pga).substr(kHeaderSize, parts_of(pga).blocks.at(0).size), "x", b).ok())
      std::abort();
    streams = b.sections[kTexts];
  }
  std::string form;
  if (!texts_to_columns(streams, form)) std::abort();
  if (unpack(with_texts_form(pga, form)) != unpack(pga)) std::abort();  // the helper alone changes no game
  const std::size_t d = form.find("d=\x01");
  if (d == std::string::npos) std::abort();
  std::string after_letter = form;
  after_letter.erase(d + 1, 1);  // "d\x01": the number would follow a letter
  invalid_vector("text_columns_marker_after_letter", with_texts_form(pga, after_letter), "Corruption", "TEXT-COL-1",
                 "a texts section whose column form has a number marker right after a letter (\"d\" then the "
                 "marker: texts_to_columns would have kept such digits in the text)");
  std::string longer = form;
  const std::size_t numbers = form.rfind(std::string(1, '\0') + "7");  // a number of the tl= column
  if (numbers == std::string::npos) std::abort();
  longer.insert(numbers + 1, "1");
  invalid_vector("text_columns_size", with_texts_form(pga, longer), "Corruption", "TEXT-COL-1",
                 "a texts section whose column form rebuilds one byte more texts than the section's raw size");
  const std::string two = read(dir + "/encode/two_plies.pga");
  invalid_vector("text_columns_for_tags",
                 edit_block(two, [](std::string& b) { b[kBlockHeaderSize + 1] = kZstdColumns; }), "Corruption",
                 "BLOCK-1", "encoding 4 (the column form) on the tags section");
  const std::string grouped = columns_archive(true);
  const std::string_view block = std::string_view(grouped).substr(kHeaderSize);
  const std::size_t texts = section_of(block, kTexts).first;
  // The frame header descriptor (texts + 4): single segment (bit 5), then the content size in
  // 1 or 2 bytes (bits 7-6: 0 or 1); it is set to the most those bytes say.
  const auto fhd = static_cast<std::uint8_t>(block[texts + 4]);
  if (!(fhd & 0x20) || (fhd >> 6) > 1 || (fhd & 0x03)) std::abort();  // not the header this vector edits
  const std::size_t fcs_bytes = (fhd >> 6) + 1;
  const std::size_t declared = fcs_bytes == 1 ? 255 : 65535 + 256;
  invalid_vector("text_columns_group_frame_size", edit_block(grouped, [&](std::string& b) {
                   for (std::size_t i = 0; i < fcs_bytes; ++i) b[texts + 5 + i] = static_cast<char>(0xFF);
                 }),
                 "Corruption", "BLOCK-4",
                 "the first group's frame declares " + std::to_string(declared) +
                     " bytes, more than the column form of its group's texts can take");
}

// Start positions (9.4.4): a block of set-up games whose FENs take every form, and columns a
// reader must reject.
void position_vectors() {
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",   // derived, en passant style 1
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",    // style 0
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3 1",    // counters given
      "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",  // two plies
      "b1rb1kqr/pppppppp/n7/1n6/8/3N4/P1PPPPPP/BNRB1KQR w KQkq - 0 4",  // Chess960, six plies
      "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",       // one arrangement a side
      "r1bq1rk1/1p1nppbp/p1np2p1/8/2P1P3/2N1QN1P/PP2BPP1/R1B2RK1 w - - 7 11",  // placement
      "r3k3/8/8/8/8/8/8/R1R1K2R w KCq - 0 30",                          // an inner rook's right
      "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 20",                             // an en passant square
      "4k3/8/8/8/8/8/8/4K2R w K -",                                     // four fields
      "4k3/8/8/8/8/8/8/4K2R w H - 0 30",                                // kept as text (Shredder-FEN)
  };
  std::string pgn;
  for (const char* fen : fens) pgn += std::string("[FEN \"") + fen + "\"]\n\n*\n\n";
  pgn += "[FEN \"8/8/8/4k3/8/8/4P3/4K3 b - - 5 40\"]\n\n40... Kd4 41. e3+ *\n";
  encode_vector("positions", pgn, "TAGS-6 START-1",
                "set-up positions coded derived (standard, Chess960 and one arrangement a side; both en passant styles, "
                "every kind of counters), by their squares (castling candidates, en passant, four fields) and kept as text");

  // One game, one FEN: its tags section ends with the position column's codeword.
  Game g;
  g.tags = {Tag{"FEN", "8/8/8/4k3/8/8/4P3/4K3 b - - 5 40"}};
  codec::CodecStreams streams;
  if (!codec::encode_game(g, streams).ok()) std::abort();
  const std::string one = archive_of({streams}, {g.tags});
  const std::size_t tags_end = kBlockHeaderSize + kSections * kSectionEntrySize +
                               get_le(one.data() + kHeaderSize + kBlockHeaderSize + 4, 4);
  const std::size_t column = std::string_view(one).find(std::string("\x03" "FEN\x01\x00\x07", 7), kHeaderSize);
  if (column == std::string::npos) std::abort();
  const std::size_t code_at = column + 7 + 2 - kHeaderSize;  // after the body's size and n (one byte each)
  const std::size_t length = tags_end - code_at;
  if (static_cast<std::uint8_t>(one[kHeaderSize + code_at - 1]) != length) std::abort();
  // A codeword of `symbols`, then symbols of 1 bit until it fills `length` bytes.
  const auto crafted = [&](std::vector<codec::PlySymbol> symbols) {
    for (;;) {
      std::string bytes;
      std::uint64_t bits = 0;
      codec::put_codeword(symbols, bytes, bits);
      if (bytes.size() > length) std::abort();
      if (bytes.size() == length)
        return edit_block(one, [&](std::string& b) { b.replace(code_at, length, bytes); });
      symbols.push_back(codec::PlySymbol{0, 1, 2});
    }
  };
  invalid_vector("tag_position_plies", crafted({{1, 1, 3}, {0, 1, 3}, {11, 1, 65}, {0, 1, 1024}}), "Corruption",
                 "TAGS-6", "a derived position (form 1) from the standard arrangement of 1024 plies");
  std::vector<codec::PlySymbol> empty_board = {{2, 1, 3}};  // the placement form
  for (int k = 0; k < 64; ++k)
    empty_board.push_back({0, codec::kSquareFrequencies[make_square(k % 8, 7 - k / 8)][0], 4096});
  empty_board.push_back({0, 1, 2});  // White to move; no castling or en passant candidates
  empty_board.push_back({2, 1, 3});  // four fields
  invalid_vector("tag_position_not_a_fen", crafted(empty_board), "Corruption", "TAGS-6",
                 "a placement value of 64 empty squares: the FEN 8/8/8/8/8/8/8/8 w - - has no kings");
  std::uint64_t bits = 0;
  {
    std::vector<codec::PlySymbol> symbols;
    codec::PositionCoder coder;
    if (coder.encode(g.tags[0].value, symbols) != codec::PositionCoder::kPlacement) std::abort();
    std::string bytes;
    codec::put_codeword(symbols, bytes, bits);
  }
  if (bits % 8 == 0) std::abort();  // no padding to spoil: another FEN is needed
  invalid_vector("tag_position_padding", edit_block(one, [&](std::string& b) { b[tags_end - 1] ^= 1; }), "Corruption",
                 "TAGS-6", "a position codeword whose padding after its last bit is not 0");
  invalid_vector("tag_position_key",
                 edit_block(one, [&](std::string& b) { b[column - kHeaderSize + 3] = 'M'; }), "Corruption", "TAGS-6",
                 "a column of coding 7 whose key is FEM");
}

// Position filters (9.3.3): an archive whose blocks have them, and filters a reader must reject.
void filter_vectors() {
  WriterOptions o = stored();
  o.position_filter = true;
  const std::string pgn = read(dir + "/encode/moves_only.pgn") + "\n" + read(dir + "/encode/positions.pgn");
  const std::string pga = pack(pgn, o);
  valid_vector("position_filter", pga, "BLOCK-3 BLOCK-6",
               "a block with a position filter (the keys of its main lines' positions)");
  // The filter, where the directory read back has it.
  DecodedBlock b;
  const std::string_view block = std::string_view(pga).substr(kHeaderSize, parts_of(pga).blocks.at(0).size);
  if (!decode_block(block, "x", b).ok() || b.directory.filter.empty()) std::abort();
  const std::size_t filter = section_of(block, kStructure).first + (b.directory.filter.data() - b.sections[kStructure].data());
  common::ByteCursor head(b.directory.filter);
  std::uint64_t n = 0, range = 0;
  if (!head.varint(n) || !head.varint(range)) std::abort();
  const std::size_t k_at = filter + b.directory.filter.size() - head.remaining();  // after n and R
  if (block[k_at] != container::kFilterRiceBits) std::abort();
  invalid_vector("filter_rice_parameter", edit_block(pga, [&](std::string& x) { x[k_at] = 33; }), "Corruption",
                 "BLOCK-6", "a position filter of Rice parameter 33 (at most 32)");
  // A remainder bit of the last code flipped: a set the reader reads, that lacks a key of the
  // block's main lines.
  std::vector<std::uint64_t> keys;  // the block's: every game of `pgn`
  {
    PgnReader reader(memory_input(pgn), "filter.pgn");
    for (;;) {
      GameBuilder g;
      auto got = reader.next(g);
      if (!got.ok() || !*got) break;
      container::add_filter_keys(g.game(), keys);
    }
  }
  bool bad = true;
  if (!container::filter_holds(b.directory.filter, keys, bad)) std::abort();
  bool made = false;
  for (std::size_t back = 1; back <= 8 * head.remaining() && !made; ++back) {
    std::string f(b.directory.filter);
    const std::size_t at = 8 * f.size() - back;
    f[at / 8] = static_cast<char>(f[at / 8] ^ (0x80 >> (at % 8)));
    if (container::filter_holds(f, keys, bad) || bad) continue;
    made = true;
    invalid_vector("filter_missing_key", edit_block(pga, [&](std::string& x) { x.replace(filter, f.size(), f); }),
                   "Corruption", "BLOCK-6", "a position filter that lacks the key of a position of a main line of its block");
  }
  if (!made) std::abort();
}

// A line of a tokens file: `game`'s token, a tab, the canonical PGN of the game it opens to
// (newlines as \n).
std::string token_line(const Game& game) {
  auto token = share_token(game);
  if (!token) std::abort();
  auto opened = open_share_token(*token);
  std::string text;
  if (!opened || !write_pgn(*opened, text).ok()) std::abort();
  std::string escaped;
  for (char c : text) escaped += c == '\n' ? std::string("\\n") : std::string(1, c);
  return *token + "\t" + escaped + "\n";
}

// Share tokens (spec 14): tokens.tsv, each token and the canonical PGN of the game it holds.
void token_vectors() {
  std::string pgn = "1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0\n\n";
  for (const char* name : {"moves_only", "promotions", "en_passant", "castling", "chess960_king_stays",
                           "setup_black_to_move", "nested_variations", "positions"})
    pgn += read(dir + "/encode/" + name + ".pgn") + "\n\n";
  PgnReader reader(memory_input(pgn), "tokens.pgn");
  std::string out;
  for (;;) {
    GameBuilder b;
    auto got = reader.next(b);
    if (!got.ok()) std::abort();
    if (!*got) break;
    if (!share_token(b.game())) continue;  // (a start kept as text, say: the spec's FEN that no form codes)
    out += token_line(b.game());
  }
  write("tokens.tsv", out);
  manifest += "tokens\ttokens\t-\tTOKEN-1 MOVE-SYM-2 MOVE-MODEL-1 TAGS-6\tshare tokens (tokens.tsv): each opens to its "
              "game, and the game gives the token\n";

  // Tokens a reader must reject, each made from the spec's example by one change.
  std::string good;
  if (!codec::from_base64url("ARHNKBxA", good)) std::abort();
  std::string bad_tokens;
  const auto bad = [&](const std::string& token, const std::string& why) { bad_tokens += token + "\t" + why + "\n"; };
  const auto with = [&](std::size_t at, char byte) {
    std::string b = good;
    b[at] = byte;
    return codec::base64url(b);
  };
  bad("A", "a length of 4k + 1 characters");
  bad("ARHNKBx*", "a character outside base64url");
  bad("ARHNKBx=", "padding");
  {
    // The token of the bytes without the last, its last character's two bits below the last byte
    // set: "ARHNKBw" holds 5 bytes and two 0 bits; "ARHNKBx" holds the same bytes and bits 01.
    const std::string cut = codec::base64url(good.substr(0, 5));
    std::string b;
    if (!codec::from_base64url(cut, b)) std::abort();
    std::string last = cut;
    last.back() = static_cast<char>(last.back() + 1);
    bad(last, "bits below its last byte that are not 0");
  }
  bad(with(0, 2), "version 2");
  bad(with(1, static_cast<char>(good[1] | 0x80)), "reserved flag bit 7 set");
  bad(with(1, static_cast<char>((good[1] & 0x8F) | 0x50)), "result 5 (reserved)");
  bad(with(1, static_cast<char>((good[1] & ~3) | 2)), "move coder 2 (reserved)");
  bad(codec::base64url(good + std::string(1, '\0')), "a byte after the codeword's last");
  bad(codec::base64url(good.substr(0, 1)), "a version byte alone, without flags");
  write("bad_tokens.tsv", bad_tokens);
  manifest += "tokens\tbad_tokens\tCorruption\tTOKEN-1\tshare tokens a reader must reject (bad_tokens.tsv: the token, "
              "a tab, why)\n";
}

}  // namespace

// Derived tags (9.4.5, format 1.4): CurrentPosition columns of coding 8 in blocks of layout 3.
void derived_tag_vectors() {
  const std::string e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq";
  encode_vector("derived_tags",
                "[Event \"rule 0\"]\n[CurrentPosition \"" + e4 + " - 0 1\"]\n\n1. e4 *\n\n"
                "[Event \"not the position\"]\n[CurrentPosition \"unknown\"]\n\n1. d4 *\n\n"
                "[Event \"both rules\"]\n[CurrentPosition \"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3\"]"
                "\n\n1. e4 d5 2. e5 f5 *\n\n"
                "[Event \"set up\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 10 30\"]\n"
                "[CurrentPosition \"4k3/8/8/8/4P3/8/8/4K3 b - - 0 30\"]\n\n30. e4 *\n\n"
                "[Event \"rule 1 only\"]\n[CurrentPosition \"" + e4 + " e3 0 1\"]\n\n1. e4 *\n\n"
                "[Event \"a null move\"]\n[CurrentPosition \"" + e4 + " - 0 1\"]\n\n1. e4 e5 2. -- *\n\n"
                "[Event \"no moves\"]\n[CurrentPosition \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n*\n",
                "TAGS-7 TAGS-8",
                "a CurrentPosition column of rule 0 (en passant style 0, the rule that gives most): a value "
                "after a double step without a legal en passant capture, one with, a set-up game's counters, the "
                "start position of a game without moves; kept as text: a value no rule gives, one only rule 1 "
                "gives, and that of a game with a null move in its main line",
                4096, MoveCoding::kModel, Variant::kStandard, false, true);
  encode_vector("derived_tags_style_1",
                "[CurrentPosition \"" + e4 + " e3 0 1\"]\n\n1. e4 *\n\n"
                "[CurrentPosition \"rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 2\"]\n\n1. d4 d5 *\n",
                "TAGS-7", "a CurrentPosition column of rule 1: the en passant square after every double step", 4096,
                MoveCoding::kModel, Variant::kStandard, false, true);

  // The spec's example column: 08 0d 00 01 00, then the text body of `unknown`.
  WriterOptions o = stored();
  o.derive_tags = true;
  const std::string example = pack("[CurrentPosition \"" + e4 + " - 0 1\"]\n\n1. e4 *\n\n"
                                   "[CurrentPosition \"unknown\"]\n\n1. d4 *\n", o);
  const std::string column("\x08\x0d\x00\x01\x00\x01\x08\x07unknown", 15);
  const std::size_t at = example.find(column, kHeaderSize);
  const std::size_t key = example.find("\x0f" "CurrentPosition", kHeaderSize);
  if (at == std::string::npos || key == std::string::npos || example[kHeaderSize + 6] != 3) {
    std::fprintf(stderr, "derived tags: the writer did not code the spec's example column\n");
    std::exit(1);
  }
  const std::size_t c = at - kHeaderSize;
  invalid_vector("derived_in_layout_1", edit_block(example, [](std::string& b) { b[6] = 1; }), "Corruption", "TAGS-1 TAGS-7",
                 "a derived column in a block of layout 1");
  invalid_vector("derived_rule_reserved", edit_block(example, [&](std::string& b) { b[c + 2] = 2; }), "Corruption",
                 "TAGS-7", "a derived column of rule 2 (not defined)");
  invalid_vector("derived_flag_2", edit_block(example, [&](std::string& b) { b[c + 3] = 2; }), "Corruption", "TAGS-7",
                 "a derived column's flag of 2");
  invalid_vector("derived_key_other",
                 edit_block(example, [&](std::string& b) { b[key - kHeaderSize + 15] = 'N'; }), "Corruption",
                 "TAGS-7", "a derived column whose key is CurrentPositioN");
  // The second game's value is its rule-1 value, kept as text under rule 0: made rule 1, the
  // column keeps as text a value its rule gives.
  const std::string styled = pack("[CurrentPosition \"" + e4 + " - 0 1\"]\n\n1. e4 *\n\n"
                                  "[CurrentPosition \"" + e4 + " e3 0 1\"]\n\n1. e4 *\n", o);
  // (Its column: 08, size 41, rule 00, flags 01 00, a text body of one value of 59 bytes.)
  const std::size_t s_at = styled.find(std::string("\x08\x41\x00\x01\x00\x01\x3c\x3b", 8) + e4 + " e3 0 1", kHeaderSize);
  if (s_at == std::string::npos) {
    std::fprintf(stderr, "derived tags: no rule-0 column of flags 01 00\n");
    std::exit(1);
  }
  invalid_vector("derived_text_equal",
                 edit_block(styled, [&](std::string& b) { b[s_at - kHeaderSize + 2] = 1; }), "Corruption",
                 "TAGS-8", "a derived column of rule 1 that keeps as text its second game's value by rule 1");
  // A flag 1 where the game has no value: the first game's text (`x`: 01 02 01 78) dropped and
  // its flag set, the column and the section 4 bytes shorter.
  const auto flagged = [&](const std::string& first_game) {
    const std::string pga = pack("[CurrentPosition \"x\"]\n\n" + first_game + "\n\n"
                                 "[CurrentPosition \"" + e4 + " - 0 1\"]\n\n1. e4 *\n", o);
    return resize_block(pga, [&](std::string& b) {
      const std::size_t col = b.find(std::string("\x08\x07\x00\x00\x01\x01\x02\x01x", 9));
      if (col == std::string::npos) {
        std::fprintf(stderr, "derived tags: no column of a first value kept as text\n");
        std::exit(1);
      }
      b.replace(col, 9, std::string("\x08\x03\x00\x01\x01", 5));
      for (int field : {4, 8}) {  // the tags section's stored and raw sizes
        const std::uint64_t size = get_le(b.data() + kBlockHeaderSize + field, 4) - 4;
        for (int i = 0; i < 4; ++i) b[kBlockHeaderSize + field + i] = static_cast<char>(size >> (8 * i));
      }
    });
  };
  invalid_vector("derived_verbatim_game", flagged("1. e4 e5 2. Ke3 *"), "Corruption", "TAGS-8",
                 "a derived tag of a game kept verbatim (an illegal move)");
  invalid_vector("derived_null_move", flagged("1. e4 -- *"), "Corruption", "TAGS-8",
                 "a derived tag of a game with a null move in its main line");

  // Named columns (9.4.6): chess.com's Termination, the winner's name and a rest.
  encode_vector("named_tags",
                "[White \"A\"]\n[Black \"B\"]\n[Termination \"B won on time\"]\n\n1. e4 *\n\n"
                "[White \"Ann\"]\n[Black \"An\"]\n[Termination \"Ann won by checkmate\"]\n\n1. d4 *\n\n"
                "[White \"Ann\"]\n[Black \"An\"]\n[Termination \"An won by resignation\"]\n\n1. c4 *\n\n"
                "[Black \"C\"]\n[Termination \"C won on time\"]\n[White \"D\"]\n\n1. Nf3 *\n\n"
                "[White \"E\"]\n[Black \"\"]\n[Termination \"Game drawn by repetition\"]\n\n1. e4 *\n\n"
                "[White \"F\"]\n[Termination \"G won on time\"]\n\n1. e4 *\n\n"
                "[Termination \"Game drawn by repetition\"]\n\n1. e4 *\n",
                "TAGS-9 TAGS-10",
                "a Termination column of names and rests: Black's (the spec's example), White's where the value "
                "begins with both names (Ann, An), Black's where only Black's does, a name after the tag; kept "
                "whole: no name, an empty name, a game without players",
                4096, MoveCoding::kModel, Variant::kStandard, false, true);
  // Two games won on time by Black (B, then C): the Termination column 09 11 02 02, then the text
  // body of ` won on time`.
  const std::string named = pack("[White \"A\"]\n[Black \"B\"]\n[Termination \"B won on time\"]\n\n1. e4 *\n\n"
                                 "[White \"A\"]\n[Black \"C\"]\n[Termination \"C won on time\"]\n\n1. d4 *\n", o);
  const std::size_t n_at = named.find(std::string("\x09\x11\x02\x02\x01\x0d\x0c won on time", 18), kHeaderSize);
  if (n_at == std::string::npos) {
    std::fprintf(stderr, "named tags: the writer did not code the Termination column as names\n");
    std::exit(1);
  }
  const std::size_t n = n_at - kHeaderSize;
  invalid_vector("named_in_layout_1", edit_block(named, [](std::string& b) { b[6] = 1; }), "Corruption", "TAGS-1 TAGS-9",
                 "a named column in a block of layout 1");
  invalid_vector("tag_coding_10_reserved", edit_block(named, [&](std::string& b) { b[n] = 10; }), "Corruption", "TAGS-1",
                 "a column of coding 10 (reserved) in a block of layout 3");
  invalid_vector("named_flag_3", edit_block(named, [&](std::string& b) { b[n + 2] = 3; }), "Corruption", "TAGS-9",
                 "a named column's flag of 3");
  // A Termination column whose rests are one value `text` (a text body of 01, list bytes,
  // length, text): where its last flag is in the block.
  const auto flag_of = [&](const std::string& pga, const std::string& text) {
    const std::string body = std::string("\x01", 1) + static_cast<char>(text.size() + 1) + static_cast<char>(text.size()) + text;
    const std::size_t at = pga.find(body, kHeaderSize);
    if (at == std::string::npos || pga[at - 1] > 2) {
      std::fprintf(stderr, "named tags: no named column of one value %s\n", text.c_str());
      std::exit(1);
    }
    return at - 1 - kHeaderSize;
  };
  const std::string whole = pack("[White \"A\"]\n[Black \"B\"]\n[Termination \"Q won on time\"]\n\n1. e4 *\n\n"
                                 "[White \"A\"]\n[Black \"B\"]\n[Termination \"B won on time\"]\n\n1. e4 *\n\n"
                                 "[White \"A\"]\n[Black \"C\"]\n[Termination \"C won on time\"]\n\n1. e4 *\n", o);
  if (whole.find(std::string("\x09\x23\x00\x02\x02", 5), kHeaderSize) == std::string::npos) {
    std::fprintf(stderr, "named tags: the writer did not code Q won on time's column as names\n");
    std::exit(1);
  }
  const std::size_t q = whole.find("Q won on time", kHeaderSize) - kHeaderSize;
  invalid_vector("named_whole_with_a_name", edit_block(whole, [&](std::string& b) { b[q] = 'B'; }), "Corruption", "TAGS-10",
                 "a value kept whole that begins with its game's Black value (B won on time, flag 0)");
  const std::string both = pack("[White \"A\"]\n[Black \"A\"]\n[Termination \"A won on time\"]\n\n1. e4 *\n\n"
                                "[White \"C\"]\n[Black \"C\"]\n[Termination \"C won on time\"]\n\n1. e4 *\n", o);
  const std::size_t f = flag_of(both, " won on time");
  invalid_vector("named_black_before_white", edit_block(both, [&](std::string& b) { b[f] = 2; }), "Corruption",
                 "TAGS-10", "a value of flag 2 (Black's C) that begins with its game's White value, C (the writer takes White's)");
  const std::string black_only = pack("[Black \"B\"]\n[Termination \"B won on time\"]\n\n1. e4 *\n\n"
                                      "[Black \"C\"]\n[Termination \"C won on time\"]\n\n1. e4 *\n", o);
  const std::size_t g = flag_of(black_only, " won on time");
  invalid_vector("named_no_player", edit_block(black_only, [&](std::string& b) { b[g] = 1; }), "Corruption", "TAGS-10",
                 "a value of flag 1 in a game without a White tag");
}

// A column of the first block's tags section (stored) of a conformance archive: where its
// coding byte and its body are in the block (from the block's start), by its key.
struct ColumnAt {
  std::size_t coding = 0, body = 0, size = 0;
};
ColumnAt column_of(const std::string& pga, const std::string& key) {
  const std::string_view block = std::string_view(pga).substr(kHeaderSize);
  const std::size_t data = kBlockHeaderSize + kSections * kSectionEntrySize;
  const std::size_t stored = get_le(block.data() + kBlockHeaderSize + 4, 4);
  const std::string_view section = block.substr(data, stored);
  common::ByteCursor r(section);
  std::uint64_t keys = 0, n = 0, k = 0, size = 0;
  std::size_t index = SIZE_MAX;
  r.varint(keys);
  for (std::uint64_t i = 0; i < keys; ++i) {
    std::string_view name;
    r.prefixed(name);
    if (name == key) index = i;
  }
  // The games' key lists: the section is read up to the columns by their count (one block).
  const std::uint32_t games = static_cast<std::uint32_t>(get_le(block.data() + 8, 4));
  for (std::uint32_t g = 0; g < games; ++g) {
    r.varint(n);
    for (std::uint64_t i = 0; i < n; ++i) r.varint(k);
  }
  for (std::uint64_t i = 0; i < keys; ++i) {
    std::uint8_t coding = 0;
    const std::size_t at = data + (section.size() - r.remaining());
    r.u8(coding);
    r.varint(size);
    const std::size_t body = data + (section.size() - r.remaining());
    std::string_view skip;
    r.bytes(size, skip);
    if (i == index) return ColumnAt{at, body, static_cast<std::size_t>(size)};
  }
  std::fprintf(stderr, "no column %s\n", key.c_str());
  std::exit(1);
}

// Coded columns (9.4.7): ratings, other integers, dates and times of day whose codes are the
// integers of a codeword.
void coded_tag_vectors() {
  // 48 games of ratings that wander (a linear congruential sequence), one player's three times
  // (his previous rating predicts the next), a rating kept as text, a signed rating change, one
  // date and times of day that rise.
  std::string pgn;
  std::uint32_t x = 12345;
  const auto next = [&](int spread) {
    x = x * 1103515245u + 12345u;
    return static_cast<int>((x >> 16) % static_cast<std::uint32_t>(2 * spread + 1)) - spread;
  };
  for (int g = 0; g < 48; ++g) {
    const int white = 1500 + next(400), black = white + next(150);
    char line[512];
    std::snprintf(line, sizeof line,
                  "[Date \"2021.10.01\"]\n[White \"%s\"]\n[Black \"b%d\"]\n[UTCTime \"%02d:%02d:%02d\"]\n"
                  "[WhiteElo \"%s\"]\n[BlackElo \"%d\"]\n[WhiteRatingDiff \"%+d\"]\n\n1. e4 *\n\n",
                  g % 16 == 5 ? "w5" : ("w" + std::to_string(g)).c_str(), g, g / 6, g * 7 % 60, g * 13 % 60,
                  g == 7 ? "?" : std::to_string(white).c_str(), black, next(9));
    pgn += line;
  }
  encode_vector("coded_tags", pgn, "TAGS-3 TAGS-4 TAGS-11",
                "coded columns (coding 10) of base 2 (WhiteElo and BlackElo, a rating kept as text, a player "
                "rated three times), 1 (WhiteRatingDiff, signed), 3 (Date) and 4 (UTCTime), layout 4",
                4096, MoveCoding::kModel, Variant::kStandard, false, false, true);
  const std::string coded = read(dir + "/encode/coded_tags.pga");
  const ColumnAt date = column_of(coded, "Date"), elo = column_of(coded, "WhiteElo");
  for (const ColumnAt& c : {date, elo})
    if (coded[kHeaderSize + c.coding] != 10) {
      std::fprintf(stderr, "coded tags: the writer did not code the Date and WhiteElo columns\n");
      std::exit(1);
    }
  invalid_vector("coded_in_layout_3", edit_block(coded, [](std::string& b) { b[6] = 3; }), "Corruption",
                 "TAGS-1 TAGS-11", "a coded column (coding 10) in a block of layout 3");
  invalid_vector("coded_base_5", edit_block(coded, [&](std::string& b) { b[date.body] = 5; }), "Corruption",
                 "TAGS-11", "a coded column of base 5 (identifiers)");
  // The Date column: base 03, n, its codeword and nothing after it (every date is typed).
  invalid_vector("coded_codeword_past_body", edit_block(coded, [&](std::string& b) { ++b[date.body + 1]; }),
                 "Corruption", "TAGS-11", "a coded Date column whose codeword length runs one byte past its body");
  // The first bit after the WhiteElo column's codeword (base 02, player key, n, codeword).
  const std::size_t n = static_cast<std::uint8_t>(coded[kHeaderSize + elo.body + 2]);
  if (n >= 128) {
    std::fprintf(stderr, "coded tags: the WhiteElo codeword's length is not one byte\n");
    std::exit(1);
  }
  codec::ArithDecoder in;
  in.start(std::string_view(coded).substr(kHeaderSize + elo.body + 3, n), 0);
  codec::SymbolReader side{in};
  codec::AdaptiveFrequencies<65> widths;
  for (int g = 0; g < 48; ++g) {
    std::uint64_t code;
    codec::code_width_number(side, widths, code);
  }
  const std::int64_t bits = in.finish();
  if (bits < 0 || bits % 8 == 0 || static_cast<std::uint64_t>(bits + 7) / 8 != n) {
    std::fprintf(stderr, "coded tags: the WhiteElo codeword does not end within its last byte\n");
    std::exit(1);
  }
  invalid_vector("coded_padding_bit",
                 edit_block(coded, [&](std::string& b) { b[elo.body + 3 + n - 1] |= static_cast<char>(0x80 >> (bits % 8)); }),
                 "Corruption", "TAGS-11", "a bit 1 after the end of the WhiteElo column's codeword, in its last byte");
}

// The bytes of an index extension of value tables (9.4.8) holding the tables `tables` (their
// decoded bytes), stored or, with `level`, compressed.
std::string tables_extension(const std::string& tables, int level = 0) {
  const std::string packed = level > 0 ? common::compress_frame(tables, level) : tables;
  std::string out(container::kValueTablesMagic, 4);
  out += static_cast<char>(level > 0 ? 1 : 0);
  put_le(out, packed.size(), 4);
  put_le(out, tables.size(), 4);
  out += packed;
  put_le(out, hash64(out), 8);
  return out;
}

// The decoded tables of one table of `keys` and the entries `entries` (a value per key each,
// "-" for none).
std::string tables_of(const std::vector<std::string>& keys, const std::vector<std::vector<std::string>>& entries) {
  std::string t;
  put_varint(t, 1);
  put_varint(t, keys.size());
  for (const std::string& k : keys) put_prefixed(t, k);
  put_varint(t, entries.size());
  for (const auto& e : entries)
    for (const std::string& v : e) {
      put_varint(t, v == "-" ? 0 : v.size() + 1);
      if (v != "-") t += v;
    }
  return t;
}

// Value tables (9.4.8): an opening's ECO and Opening named as one entry of the archive's table.
void table_tag_vectors() {
  // 96 games of four openings, one game of an ECO and no Opening, one of an
  // Opening and no ECO, and one of neither.
  const char* const eco[] = {"B01", "C20", "B12", "A45"};
  const char* const opening[] = {"Scandinavian Defense", "King's Pawn Game", "Caro-Kann Defense: Advance Variation",
                                 "Indian Defense"};
  std::string pgn;
  for (int g = 0; g < 96; ++g) {
    const int o = (g * 5 + g / 7) % 4;
    pgn += "[White \"w" + std::to_string(g) + "\"]\n";
    if (g != 30 && g != 41) pgn += "[ECO \"" + std::string(eco[o]) + "\"]\n";
    if (g != 17 && g != 30) pgn += "[Opening \"" + std::string(opening[o]) + "\"]\n";
    pgn += "\n1. e4 *\n\n";
  }
  encode_vector("table_tags", pgn, "TAGS-12 INDEX-3",
                "table columns (coding 11) of ECO and Opening naming the entries of the archive's value table "
                "(extension 6): an entry without an Opening, one without an ECO, a game of neither; layout 5",
                4096, MoveCoding::kModel, Variant::kStandard, false, false, false, true);
  const std::string tabled = read(dir + "/encode/table_tags.pga");
  const ColumnAt eco_column = column_of(tabled, "ECO"), opening_column = column_of(tabled, "Opening");
  if (tabled[kHeaderSize + eco_column.coding] != 11 || tabled[kHeaderSize + opening_column.coding] != 11 ||
      tabled[kHeaderSize + 6] != 5) {
    std::fprintf(stderr, "table tags: the writer did not code ECO and Opening as table columns\n");
    std::exit(1);
  }
  // The writer's table, in its order of first use: the first game's opening first.
  std::vector<std::vector<std::string>> entries;
  for (int g = 0; g < 96; ++g) {
    const int o = (g * 5 + g / 7) % 4;
    std::vector<std::string> e = {g == 30 || g == 41 ? "-" : eco[o], g == 17 || g == 30 ? "-" : opening[o]};
    if (g == 30) continue;
    if (std::find(entries.begin(), entries.end(), e) == entries.end()) entries.push_back(e);
  }
  if (parts_of(tabled).index.extensions.size() != 1 ||
      parts_of(tabled).index.extensions[0].bytes != tables_extension(tables_of({"ECO", "Opening"}, entries))) {
    std::fprintf(stderr, "table tags: the writer's table is not the one expected\n");
    std::exit(1);
  }
  const auto tables = [&](const std::string& t) { return with_extensions(tabled, {{6, tables_extension(t)}}); };
  valid_vector("table_tags_zstd", with_extensions(tabled, {{6, tables_extension(tables_of({"ECO", "Opening"}, entries), 19)}}),
               "INDEX-3", "the value table of encode/table_tags compressed (encoding 1)");
  invalid_vector("table_in_layout_4", edit_block(tabled, [](std::string& b) { b[6] = 4; }), "Corruption",
                 "TAGS-1 TAGS-12", "a table column (coding 11) in a block of layout 4");
  invalid_vector("table_without_tables", with_extensions(tabled, {}), "Corruption", "TAGS-12",
                 "a table column in an archive without value tables");
  invalid_vector("table_number", edit_block(tabled, [&](std::string& b) { b[eco_column.body] = 1; }), "Corruption",
                 "TAGS-12", "a table column naming table 1 of an archive of one table");
  invalid_vector("table_codeword_past_body", edit_block(tabled, [&](std::string& b) { ++b[opening_column.body + 1]; }),
                 "Corruption", "TAGS-12", "a table column whose codeword length runs one byte past its body");
  invalid_vector("table_key_not_in_table", tables(tables_of({"ECO", "Openings"}, entries)), "Corruption", "TAGS-12",
                 "a table column of Opening, a key its table does not have (Openings)");
  std::vector<std::vector<std::string>> fewer(entries.begin(), entries.end() - 1);
  invalid_vector("table_entry_out_of_range", tables(tables_of({"ECO", "Opening"}, fewer)), "Corruption", "TAGS-12",
                 "a table column naming an entry past the table's last (the table without its last entry)");
  std::vector<std::vector<std::string>> unnamed = entries;
  unnamed[0][1] = "-";
  invalid_vector("table_entry_without_value", tables(tables_of({"ECO", "Opening"}, unnamed)), "Corruption", "TAGS-12",
                 "an Opening tag naming an entry without an Opening value");
  std::string flipped = tables_extension(tables_of({"ECO", "Opening"}, entries));
  flipped[kValueTablesHeaderSize + 2] ^= 1;
  invalid_vector("table_checksum", with_extensions(tabled, {{6, flipped}}), "Corruption", "INDEX-3",
                 "a value table extension whose checksum does not hold (a key's byte changed)");
  invalid_vector("table_key_twice", tables(tables_of({"ECO", "ECO"}, entries)), "Corruption", "INDEX-3",
                 "a value table of the key ECO twice");
  invalid_vector("table_count_0", tables(std::string(1, '\0')), "Corruption", "INDEX-3", "value tables of 0 tables");
  invalid_vector("table_bytes_left_over", tables(tables_of({"ECO", "Opening"}, entries) + "x"), "Corruption", "INDEX-3",
                 "value tables followed by a byte after the last table");
}

// The Xiangqi tokens (spec 14, version 3) of xiangqi_tokens.tsv, and tokens of version 3 that a
// reader must reject (bad_xiangqi_tokens.tsv).
void xiangqi_token_vectors() {
  const std::string pgn =
      "[Game \"Chinese Chess\"]\n[Red \"LIU DianZhong\"]\n[Black \"LIU DaHua\"]\n[Format \"ICCS\"]\n\n"
      "1. h2e2 b9c7 2. h0g2 h7f7 3. g3g4 h9g7 4. b2c2 i9h9 5. b0a2 a9b9 6. a0b0 b7b3 7. c3c4 h9h5 *\n\n"
      "[Game \"Chinese Chess\"]\n[Format \"WXF\"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 {a comment} (2... C2.5) 1-0\n\n"
      "[Game \"Chinese Chess\"]\n[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\"]\n\n1. e1d1 1-0\n\n"
      "[Game \"Chinese Chess\"]\n[FEN \"r3kabr1/4a4/2n1b1n2/p3p3p/1c5c1/2R6/P3P3P/2N1C1N2/1C1R5/2BAKAB2 b - - 4 13\"]\n\n*\n\n"
      "[Game \"Chinese Chess\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1\"]\n\n1... h7e7 1/2-1/2\n\n"
      // Full material on squares the table finds unlikely: the sets form is the shorter.
      "[Game \"Chinese Chess\"]\n[FEN \"PPPakaPP1/RNC3CNR/b3b4/9/9/9/9/B3B4/rnc3cnr/pppAKApp1 b - - 0 1\"]\n\n*\n\n"
      "[Game \"Chinese Chess\"]\n[FEN \"4k4/4P4/9/9/9/9/9/9/9/3K5 b - - 65535 65535\"]\n\n1... e9f9 0-1\n\n";
  PgnReader reader(memory_input(pgn), "xiangqi_tokens.pgn");
  std::string out;
  for (PgnReader::RawGame raw; *reader.next_raw(raw);) {
    GameBuilder b;
    pgn::parse_game_or_xiangqi(raw.text, "xiangqi_tokens.pgn", raw.number, raw.start, b);
    if (!b.ok()) std::abort();
    out += token_line(b.game());
  }
  write("xiangqi_tokens.tsv", out);
  manifest += "tokens\txiangqi_tokens\t-\tTOKEN-1 XQ-POS-1 XQ-MODEL-1 XQ-ORDER-1\tXiangqi share tokens (version 3, "
              "xiangqi_tokens.tsv): set-up positions of both forms with counters 0 1 and others, from the start "
              "with a comment and a variation left out; each opens to its game, and the game gives the token\n";

  // Tokens of version 3 a reader must reject: a header change, and positions coded by hand.
  std::string good;
  if (!codec::from_base64url(out.substr(0, out.find('\t')), good)) std::abort();
  std::string bad_tokens;
  const auto bad = [&](const std::string& bytes, const std::string& why) {
    bad_tokens += codec::base64url(bytes) + "\t" + why + "\n";
  };
  bad(good.substr(0, 1) + static_cast<char>(good[1] | 8) + good.substr(2), "bit 3 set (reserved in version 3)");
  bad(good.substr(0, 1) + static_cast<char>(good[1] | 0x80) + good.substr(2), "bit 7 set (reserved)");
  // A set-up token (model coder, result *) whose position is the squares `board` (symbols as
  // 5.7.3's, a0 to i9) with Red to move and fields `- - 0 1`.
  const auto position_token = [](const std::array<int, 90>& board) {
    std::vector<codec::PlySymbol> symbols{{0, 1, 2}};  // the squares form
    int count[15] = {};
    static constexpr int kMost[8] = {0, 1, 2, 2, 2, 2, 2, 5};
    for (int q = 0; q < 90; ++q) {
      std::uint32_t f[15], total = 0, c = 0;
      for (int s = 0; s < 15; ++s) {
        const int kind = s > 7 ? s - 7 : s;
        f[s] = s > 0 && count[s] == kMost[kind] ? 0 : codec::kXiangqiSquareFrequencies[q][s];
        total += f[s];
      }
      for (int s = 0; s < board[q]; ++s) c += f[s];
      symbols.push_back({c, f[board[q]], total});
      ++count[board[q]];
    }
    symbols.push_back({0, 1, 2});  // Red to move
    symbols.push_back({0, 1, 4});  // - - 0 1 (a reader rejects the value here, before any move)
    std::string bytes = std::string(1, '\3') + static_cast<char>(0x04 | 0x01 | 0x40);
    std::uint64_t bits = 0;
    codec::put_codeword(symbols, bytes, bits);
    return bytes;
  };
  std::array<int, 90> board{};
  board[4] = 1;  // Red's general on e0, Black none
  bad(position_token(board), "a position without Black's general (XQ-POS-1)");
  board = {};
  board[4] = 1;
  board[85] = 8;  // Black's general on e9, facing Red's on the open e-file
  bad(position_token(board), "a position whose generals face each other (XQ-POS-1: Black, not to move, in check)");
  write("bad_xiangqi_tokens.tsv", bad_tokens);
  manifest += "tokens\tbad_xiangqi_tokens\tCorruption\tTOKEN-1 XQ-POS-1\tXiangqi share tokens a reader must reject "
              "(bad_xiangqi_tokens.tsv: the token, a tab, why)\n";
}

// Xiangqi position columns (9.4.9, format 1.9): a FEN column of coding 12 in a block of layout 6.
void xiangqi_position_vectors() {
  const char* const fens[] = {
      "r3kabr1/4a4/2n1b1n2/p3p3p/1c5c1/2R6/P3P3P/2N1C1N2/1C1R5/2BAKAB2 b - - 4 13",
      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
      "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
      "PPPakaPP1/RNC3CNR/b3b4/9/9/9/9/B3B4/rnc3cnr/pppAKApp1 b - - 0 1",  // the sets form
      "4k4/4P4/9/9/9/9/9/9/9/3K5 b",
      "2bak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK1B2 w - -",
      "r1bakab1r/9/1cn4cn/p1p1p1p1p/9/9/P1P1P1P1P/1CN4CN/9/R1BAKAB1R r - - 0 3",  // kept as text: "r"
  };
  std::string pgn;
  int g = 0;
  for (const char* fen : fens)
    pgn += "[Game \"Chinese Chess\"]\n[Event \"" + std::to_string(++g) + "\"]\n[FEN \"" + fen + "\"]\n\n*\n\n";
  pgn += "[Event \"chess\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O *\n\n";
  pgn += "[Game \"Chinese Chess\"]\n[Event \"moves\"]\n[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\"]\n\n1. e1d1 1-0\n\n";
  encode_vector("xiangqi_positions", pgn, "TAGS-13 XQ-POS-1",
                "a FEN column of coding 12 (Xiangqi positions, format 1.9) in a block of layout 6: positions of "
                "both forms, fields 0 1, given, four and two fields, a repeated position (the counts C grown), a "
                "Xiangqi FEN with side r and a chess FEN kept as text",
                4096, MoveCoding::kModel, Variant::kStandard, false, false, false, true);
  const std::string coded = read(dir + "/encode/xiangqi_positions.pga");
  const ColumnAt fen = column_of(coded, "FEN");
  if (coded[kHeaderSize + fen.coding] != 12 || coded[kHeaderSize + 6] != 6) {
    std::fprintf(stderr, "xiangqi positions: the writer did not code FEN as Xiangqi positions in layout 6\n");
    std::exit(1);
  }
  invalid_vector("xiangqi_positions_in_layout_5", edit_block(coded, [](std::string& b) { b[6] = 5; }), "Corruption",
                 "TAGS-1 TAGS-13", "a Xiangqi position column (coding 12) in a block of layout 5");
  invalid_vector("xiangqi_positions_codeword_length", edit_block(coded, [&](std::string& b) { ++b[fen.body]; }),
                 "Corruption", "TAGS-13",
                 "a Xiangqi position column whose codeword length is a byte more than its bits fill (the byte after "
                 "it, its text body's first, taken in)");
  invalid_vector("xiangqi_positions_key", edit_block(coded, [&](std::string& b) {
                   const std::size_t at = b.find(std::string("\x03" "FEN", 4));
                   if (at == std::string::npos) std::abort();
                   b[at + 3] = 'X';
                 }),
                 "Corruption", "TAGS-13", "a column of coding 12 whose key is FEX, not FEN");
  // A codeword whose first 12 bytes are all 1 bits: its value lies past every symbol of a list
  // where the first position's squares need one.
  invalid_vector("xiangqi_positions_no_value", edit_block(coded, [&](std::string& b) {
                   for (std::size_t i = fen.body + 1; i < fen.body + 1 + 12; ++i) b[i] = static_cast<char>(0xFF);
                 }),
                 "Corruption", "TAGS-13 XQ-POS-1", "a Xiangqi position column whose first codeword bytes are all 1 bits");
}

// Values written without escapes (9.4.10, format 1.11): columns of coding 13 in a block of layout
// 7. The Event column holds a value with quotes left unescaped (unescaped), one escaped (read and
// written with escapes) and a plain one; Site a path with a stray backslash and one escaped;
// White a Big5 name whose last byte is 5C (read as written: `\"` cannot close it), which would
// otherwise be a player column; Round a number after a stray backslash, which would otherwise be
// typed.
void unescaped_tag_vectors() {
  const std::string pgn =
      "[Event \"Cup \"A\" 1990\"]\n[Site \"C:\\games\"]\n[White \"x\"]\n[Black \"y\"]\n[Round \"1\\2\"]\n\n1. e4 e5 *\n\n"
      "[Event \"Cup \\\"B\\\"\"]\n[Site \"C:\\\\games\"]\n[White \"\xB3\x5C\"]\n[Black \"z\"]\n[Round \"2\"]\n\n1. d4 *\n\n"
      "[Event \"plain\"]\n[Site \"home\" ]\n[White \"x\"]\n[Black \"y\"]\n\n1. c4 *\n";
  encode_vector("unescaped_tags", pgn, "TAGS-14 PGN-1",
                "tag columns of coding 13 (values written without escapes, format 1.11) in a block of layout 7: a "
                "quote left unescaped, a backslash that escapes nothing, a Big5 name ending in 5C before its "
                "closing quote, in text, player and typed columns, beside values escaped as PGN escapes them",
                4096, MoveCoding::kModel, Variant::kStandard, false, false, false, true);
  const std::string coded = read(dir + "/encode/unescaped_tags.pga");
  const ColumnAt event = column_of(coded, "Event");
  if (coded[kHeaderSize + event.coding] != 13 || coded[kHeaderSize + 6] != 7 || coded[11] != 11) {
    std::fprintf(stderr, "unescaped tags: the writer did not code Event as unescaped text in layout 7 of 1.11\n");
    std::exit(1);
  }
  // The Event column's text body: D = 3 values, the list, 3 references of one byte; then u = 1
  // and the rank 0.
  std::size_t u = event.body;
  {
    common::ByteCursor r(std::string_view(coded).substr(kHeaderSize + u));
    std::uint64_t distinct = 0;
    std::string_view list, refs;
    r.varint(distinct);
    r.prefixed(list);
    r.bytes(3 * container::tag_ref_width(distinct), refs);
    u = event.body + (coded.size() - kHeaderSize - u - r.remaining());
  }
  if (coded[kHeaderSize + u] != 1 || coded[kHeaderSize + u + 1] != 0) {
    std::fprintf(stderr, "unescaped tags: the Event column does not end with u = 1 and rank 0\n");
    std::exit(1);
  }
  invalid_vector("unescaped_tags_in_layout_6", edit_block(coded, [](std::string& b) { b[6] = 6; }), "Corruption",
                 "TAGS-1 TAGS-14", "an unescaped text column (coding 13) in a block of layout 6");
  invalid_vector("unescaped_tags_none", edit_block(coded, [&](std::string& b) { b[u] = 0; }), "Corruption", "TAGS-14",
                 "an unescaped text column whose count of unescaped tags is 0");
  invalid_vector("unescaped_tags_rank", edit_block(coded, [&](std::string& b) { b[u + 1] = 3; }), "Corruption",
                 "TAGS-14", "an unescaped text column of 3 tags naming the rank 3");
  // A text column (coding 0) with a byte after its references: an archive without name chunks
  // (an Annotator tag alone), its column's size and its tags section's sizes a byte larger.
  WriterOptions o = stored();
  const std::string annotated = pack("[Annotator \"a\"]\n\n1. e4 *\n", o);
  const ColumnAt annotator = column_of(annotated, "Annotator");
  invalid_vector("tag_text_bytes_after", resize_block(annotated, [&](std::string& b) {
                   b.insert(annotator.body + annotator.size, 1, '\0');
                   ++b[annotator.coding + 1];  // the column's size, one byte
                   for (std::size_t at : {kBlockHeaderSize + 4, kBlockHeaderSize + 8}) {
                     std::string size;
                     put_le(size, get_le(b.data() + at, 4) + 1, 4);
                     b.replace(at, 4, size);
                   }
                 }),
                 "Corruption", "TAGS-1", "a text column whose body holds a byte after its references");
  invalid_vector("unescaped_tags_count", edit_block(coded, [&](std::string& b) { b[u] = 4; }), "Corruption", "TAGS-14",
                 "an unescaped text column of 3 tags naming 4 unescaped ones");
  invalid_vector("unescaped_tags_line_feed", edit_block(coded, [&](std::string& b) {
                   const std::size_t at = b.find("Cup \"A\" 1990");
                   if (at == std::string::npos) std::abort();
                   b[at + 3] = '\n';
                 }),
                 "Corruption", "TAGS-14", "an unescaped tag whose value holds a line feed (`Cup\\n\"A\" 1990`)");
  invalid_vector("unescaped_tags_plain_value", edit_block(coded, [&](std::string& b) { b[u + 1] = 2; }), "Corruption",
                 "TAGS-14", "an unescaped tag whose value (`plain`) holds neither a quote nor a backslash");
}

// Texts and raw sections compressed with a text dictionary (9.9, format 1.12: encodings 7 and 8):
// a valid archive whose blocks' comments and verbatim games are in frames made with it, one frame
// and by group; a texts frame that names none, or a dictionary the archive lacks; encoding 7 on
// the structure section; encoding 9, which no reader knows yet.
void text_dictionary_vectors() {
  static const char* kWords[] = {"the",   "knight", "takes", "a",      "pawn", "and",  "white", "keeps",
                                 "black", "better", "with",  "bishop", "on",   "file", "after", "rook"};
  std::string pgn;
  for (int g = 0; g < 48; ++g) {
    pgn += "[Event \"annotated " + std::to_string(g % 6) + "\"]\n\n1. e4 {";
    for (int w = 0; w < 25 + g / 8 * 10; ++w) pgn += std::string(w ? " " : "") + kWords[(g * 7 + w * w) % 16];
    pgn += "} e5 2. Nf3 {" + std::to_string(g) + " " + kWords[g % 16] + "} Nc6 " + (g % 12 == 5 ? "3. Ke4 " : "") + "*\n\n";
  }
  WriterOptions o = dictionary_options();
  o.block_games = 8;
  o.frame_bytes = 1024;  // blocks whose comments pass 2 KiB go one frame per group
  const std::string pga = pack(pgn, o);
  std::set<int> encodings;
  for (const BlockEntry& b : parts_of(pga).blocks)
    encodings.insert(static_cast<std::uint8_t>(pga[b.offset + kBlockHeaderSize + kTexts * kSectionEntrySize + 1]));
  if (!encodings.count(with_text_dictionary(kZstd)) || !encodings.count(with_text_dictionary(kZstdByGroup))) {
    std::fprintf(stderr, "text_dictionary: the writer made no texts of encodings 7 and 8\n");
    std::exit(1);
  }
  valid_vector("text_dictionary", pga, "BLOCK-1 BLOCK-4 BLOCK-5 DICT-1",
               "48 commented games (4 kept verbatim) in 6 blocks whose texts and raw sections are compressed with "
               "the archive's text dictionary, in one frame (encoding 7) and one frame per group (8) (a reader "
               "must accept it; the bytes are not canonical)");
  const std::string two = read(dir + "/encode/two_plies.pga");
  const std::string texts = "\x01" "c";  // the texts section of two_plies: "c"
  invalid_vector("text_dictionary_frame_names_none", with_section(two, kTexts, with_text_dictionary(kZstd), zstd_frame(texts, true)),
                 "Corruption", "BLOCK-5 ZSTD-1", "a texts section of encoding 7 whose frame names no dictionary");
  const auto other = WriterDictionary::make(whole_dictionary({pgn}, 8192, 9), 9);
  if (!other) std::abort();
  invalid_vector("text_dictionary_unknown", with_section(two, kTexts, with_text_dictionary(kZstd), other->compress(texts)),
                 "Corruption", "BLOCK-5", "a texts section of encoding 7 compressed with a dictionary the archive does not hold");
  invalid_vector("text_dictionary_on_structure",
                 edit_block(two, [](std::string& blk) { blk[kBlockHeaderSize + kStructure * kSectionEntrySize + 1] = 7; }),
                 "Corruption", "BLOCK-1", "encoding 7 (a text dictionary's frame) on the structure section");
  invalid_vector("section_encoding_9",
                 edit_block(two, [](std::string& blk) { blk[kBlockHeaderSize + kTexts * kSectionEntrySize + 1] = 9; }),
                 "Unsupported", "BLOCK-1", "the texts section in encoding 9, which 1.12 does not define");
}

// Format 1.13: moves and structure sections compressed with a moves dictionary (9.3 encoding 10,
// 9.9): games repeated under other tags in several blocks, the games of corpus/xiangqi's ICCS
// file and twelve of corpus/pgn's TWIC file, each six times.
void moves_dictionary_vectors() {
  std::string games;
  const std::string twic = read(dir + "/../pgn/twic_events.pgn");
  std::size_t at = 0;
  for (int g = 0; g < 12; ++g) at = twic.find("[Event ", at + 1);  // where its 13th game starts
  games = read(dir + "/../xiangqi/wukong_iccs.pgn") + "\n" + twic.substr(0, at);
  // Each game of `games` six times, its first tag followed by one naming the copy.
  std::string pgn;
  for (int copy = 0; copy < 6; ++copy) {
    for (std::size_t start = games.find('['); start != std::string::npos;) {
      std::size_t next = games.find("\n\n[", start);
      const std::size_t end = next == std::string::npos ? games.size() : next + 2;
      std::string game = games.substr(start, end - start);
      game.insert(game.find('\n') + 1, "[Copy \"" + std::to_string(copy) + "\"]\n");
      pgn += game;
      if (pgn.back() != '\n') pgn += '\n';
      if (!pgn.ends_with("\n\n")) pgn += '\n';
      start = next == std::string::npos ? next : next + 2;
    }
  }
  WriterOptions o = dictionary_options();
  o.moves = MoveCoding::kUniform;  // codewords of about 60 bytes a game: past the writer's 8 KiB
  o.block_games = 40;
  const std::string pga = pack(pgn, o);
  for (const BlockEntry& b : parts_of(pga).blocks)
    if (static_cast<std::uint8_t>(pga[b.offset + kBlockHeaderSize + kMoves * kSectionEntrySize + 1]) != kZstdMovesDictionary) {
      std::fprintf(stderr, "moves_dictionary: the writer made a moves section of another encoding than 10\n");
      std::exit(1);
    }
  valid_vector("moves_dictionary", pga, "BLOCK-1 BLOCK-5 DICT-1",
               "162 games (15 Xiangqi master games and 12 chess games, each six times under another Copy tag) in 5 "
               "blocks whose moves and structure sections are compressed with the archive's moves dictionary "
               "(encoding 10) (a reader must accept it; the bytes are not canonical)");
  const std::string two = read(dir + "/encode/two_plies.pga");
  // two_plies's moves section (stored: its codeword).
  const BlockEntry first = parts_of(two).blocks.at(0);
  const std::string block = two.substr(first.offset, first.size);
  const auto [moves_at, moves_size] = section_of(block, kMoves);
  const std::string moves = block.substr(moves_at, moves_size);
  invalid_vector("moves_dictionary_frame_names_none", with_section(two, kMoves, kZstdMovesDictionary, zstd_frame(moves, true)),
                 "Corruption", "BLOCK-5 ZSTD-1", "a moves section of encoding 10 whose frame names no dictionary");
  const auto other = WriterDictionary::make(whole_dictionary({pgn}, 8192, 9), 9);
  if (!other) std::abort();
  invalid_vector("moves_dictionary_unknown", with_section(two, kMoves, kZstdMovesDictionary, other->compress(moves)),
                 "Corruption", "BLOCK-5", "a moves section of encoding 10 compressed with a dictionary the archive does not hold");
  invalid_vector("moves_dictionary_on_texts",
                 edit_block(two, [](std::string& blk) { blk[kBlockHeaderSize + kTexts * kSectionEntrySize + 1] = kZstdMovesDictionary; }),
                 "Corruption", "BLOCK-1", "encoding 10 (a moves dictionary's frame) on the texts section");
  invalid_vector("section_encoding_11",
                 edit_block(two, [](std::string& blk) { blk[kBlockHeaderSize + kMoves * kSectionEntrySize + 1] = 11; }),
                 "Unsupported", "BLOCK-1", "the moves section in encoding 11, which 1.13 does not define");
}

// An encode vector of settings that encode_vector takes no parameter for: its PGN and `pga`, the
// archive packed so, the valid vector of that archive, and their MANIFEST lines.
void settings_vector(const std::string& name, const std::string& pgn, const std::string& pga,
                     const std::string& settings, const std::string& ids, const std::string& why) {
  write("encode/" + name + ".pgn", pgn);
  write("encode/" + name + ".pga", pga);
  valid_vector(name, pga, ids, "the archive of encode/" + name);
  manifest.insert(manifest.rfind("valid\t" + name + "\t"),
                  "encode\t" + name + "\t" + settings + "\t" + ids + "\t" + why + "\n");
}

// Format 1.14: Event and Site columns naming entries of their name tables (9.4.3, coding 6 in a
// block of layout 8): the spec's example, with a third game whose Event, written without escapes
// (Big5's 許, B3 5C, before a space), is ranked; then damaged columns, and layout 9.
void name_entry_vectors() {
  const std::string pgn =
      "[Event \"Cup\"]\n[Site \"Rome\"]\n[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 *\n\n"
      "[Event \"Cup\"]\n[Site \"Oslo\"]\n[White \"b\"]\n[Black \"a\"]\n\n1. d4 *\n\n"
      "[Event \"\xB3\x5C Cup\"]\n[Site \"Oslo\"]\n[White \"a\"]\n[Black \"b\"]\n\n1. c4 *\n";
  WriterOptions o = stored();
  o.derive_tags = o.code_tags = o.table_tags = o.name_entries = true;
  const std::string pga = pack(pgn, o);
  settings_vector("name_entries", pgn, pga, "tags=names", "TAGS-5 TAGS-15 TAGS-14 PGN-1",
                  "Event and Site columns of coding 6 (entries of the Event and Site tables, format 1.14) in a block "
                  "of layout 8, the Event column with the rank of a value written without escapes (Big5's B3 5C "
                  "before a space)");
  // Event: P 02, entries 00 00, references 00 00 01, u 01, rank 02; Site: P 02, entries 00 00,
  // references 01 00 00, u 00.
  const ColumnAt event = column_of(pga, "Event"), site = column_of(pga, "Site");
  const std::string_view block = std::string_view(pga).substr(kHeaderSize);
  if (block[6] != kNameEntriesLayout || block[event.coding] != 6 || block[site.coding] != 6 ||
      block.substr(event.body, 8) != std::string_view("\x02\x00\x00\x00\x00\x01\x01\x02", 8) ||
      block.substr(site.body, 7) != std::string_view("\x02\x00\x00\x01\x00\x00\x00", 7) || pga[11] != 14) {
    std::fprintf(stderr, "name entries: the writer did not code Event and Site as entries in layout 8 of 1.14\n");
    std::exit(1);
  }
  const std::size_t u = event.body + 6;
  invalid_vector("name_entries_in_layout_7", edit_block(pga, [](std::string& b) { b[6] = 7; }), "Corruption", "TAGS-5",
                 "an Event column of coding 6 in a block of layout 7");
  invalid_vector("name_entries_past_table", edit_block(pga, [&](std::string& b) { b[event.body + 2] = 1; }),
                 "Corruption", "TAGS-5", "an Event column naming entries 0 and 2 of an Event table of two entries");
  invalid_vector("name_entries_count", edit_block(pga, [&](std::string& b) { b[u] = 4; }), "Corruption", "TAGS-15",
                 "an Event column of entries of 3 tags naming 4 unescaped ones");
  invalid_vector("name_entries_rank", edit_block(pga, [&](std::string& b) { b[u + 1] = 3; }), "Corruption", "TAGS-15",
                 "an Event column of entries of 3 tags naming the rank 3 unescaped");
  invalid_vector("name_entries_plain_value", edit_block(pga, [&](std::string& b) { b[u + 1] = 0; }), "Corruption",
                 "TAGS-15", "an unescaped tag of an Event column of entries whose value (`Cup`) holds neither a quote "
                 "nor a backslash");
  invalid_vector("layout_9", edit_block(pga, [](std::string& b) { b[6] = 9; }), "Unsupported", "BLOCK-1",
                 "a block of layout 9, which 1.14 does not define");
}

// Format 1.15: Xiangqi games whose positions in the Xiangqi model's book take the book's
// frequencies (7.9.1), in blocks of codec 17 and 18: a master game from the start position, a
// variation in the book, a FEN of a book position at fullmove 20 (held) and the same at fullmove
// 21 (not held), a line that ends in a book position (its end symbol the book's, MOVE-SYM-2) and
// a book position with no move (its end alone), a game of chess beside them; then the same Xiangqi game beside a chess game's
// modelled clock track (codec 18), and codec 19.
void xiangqi_book_vectors() {
  const std::string after_h2e2 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 ";
  const std::string pgn =
      "[Event \"Jiafun Cup National Champion 1997\"]\n"
      "[Red \"LIU DianZhong\"]\n"
      "[Black \"LIU DaHua\"]\n"
      "\n"
      "1. h2e2 b9c7 2. h0g2 h7f7 3. g3g4 h9g7 4. b2c2 i9h9 5. b0a2 a9b9 6. a0b0 b7b3 7. c3c4 h9h5 8. i0h0 "
      "h5d5 9. c2c6 c9e7 10. e2f2 d5d6 11. c4c5 b3b2 12. h0h8 b2g2 13. b0b9 c7b9 14. h8b8 g2a2 15. c0a2 b9d8 "
      "16. c6c9 d9e8 17. c9a9 d6d7 18. b8b9 e8d9 19. b9b8 d9e8 20. f2d2 d7a7 21. b8b9 e8d9 22. b9d9 e9e8\n"
      "\n"
      "[Event \"variation\"]\n"
      "[Game \"Chinese Chess\"]\n"
      "\n"
      "1. h2e2 h9g7 2. h0g2 {the usual} i9h9 (2... b9c7 3. i0h0 i9h9) 3. i0h0 *\n"
      "\n"
      "[Event \"fullmove 20\"]\n"
      "[Game \"Chinese Chess\"]\n"
      "[FEN \"" + after_h2e2 + "20\"]\n"
      "\n"
      "20... h9g7 21. h0g2 *\n"
      "\n"
      "[Event \"fullmove 21\"]\n"
      "[Game \"Chinese Chess\"]\n"
      "[FEN \"" + after_h2e2 + "21\"]\n"
      "\n"
      "21... h9g7 22. h0g2 *\n"
      "\n"
      "[Event \"ends in the book\"]\n"
      "[Game \"Chinese Chess\"]\n"
      "\n"
      "1. h2e2 h9g7 *\n"
      "\n"
      "[Event \"a book position alone\"]\n"
      "[Game \"Chinese Chess\"]\n"
      "[FEN \"" + after_h2e2 + "1\"]\n"
      "\n"
      "*\n"
      "\n"
      "[Event \"chess\"]\n"
      "[White \"a\"]\n"
      "[Black \"b\"]\n"
      "\n"
      "1. e4 e5 2. Nf3 Nc6 1/2-1/2\n";
  const std::string ids = "XQ-BOOK-1 XQ-BOOK-2 XQ-BOOK-3 XQ-MODEL-1 XQ-REC-1";
  WriterOptions o = stored();
  o.xiangqi_model = o.xiangqi_book = true;
  const std::string pga = pack(pgn, o);
  // The book codes the first games' opening moves in fewer bits than the model alone.
  WriterOptions model = o;
  model.xiangqi_book = false;
  const std::string_view block = std::string_view(pga).substr(kHeaderSize);
  if (block[4] != codec::kXiangqiBookCodec || pga[11] != 15 || pga.size() >= pack(pgn, model).size()) {
    std::fprintf(stderr, "xiangqi book: the writer did not code the games in codec 17 of 1.15, smaller than codec 11\n");
    std::exit(1);
  }
  settings_vector("xiangqi_book", pgn, pga, "xiangqi=book", ids,
                  "Xiangqi games coded with the Xiangqi model's book (codec 17, format 1.15): a master game whose "
                  "first moves the book holds, a variation in the book, a book position given by a FEN at fullmove "
                  "20 (held) and at fullmove 21 (not held: the model's frequencies), a line ended in a book position "
                  "and a book position with no move (their end symbols beside the book's total), then a game of chess");
  const std::string tracks =
      "[Event \"clocks\"]\n[White \"a\"]\n[Black \"b\"]\n[TimeControl \"60+0\"]\n\n"
      "1. e4 { [%clk 0:01:00] } e5 { [%clk 0:01:00] } 2. Nf3 { [%clk 0:00:58] } 1-0\n\n"
      "[Event \"Xiangqi\"]\n[Game \"Chinese Chess\"]\n[Format \"WXF\"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 *\n";
  WriterOptions t = o;
  t.model_clocks = true;
  const std::string tracks_pga = pack(tracks, t);
  if (static_cast<std::uint8_t>(tracks_pga[kHeaderSize + 4]) != codec::kXiangqiBookTracksCodec) {
    std::fprintf(stderr, "xiangqi book: the writer did not give a modelled track's block codec 18\n");
    std::exit(1);
  }
  settings_vector("xiangqi_book_tracks", tracks, tracks_pga, "clocks=model,xiangqi=book", ids,
                  "a Xiangqi game in the book beside a chess game's modelled clock track: codec 18");
  invalid_vector("unknown_codec_19", edit_block(pga, [](std::string& b) { b[4] = 19; }), "Unsupported", "BLOCK-1",
                 "a block of move codec 19, which 1.15 does not define");
}

// Move numbers past 65535 (section 10): a chess game from a FEN of fullmove 65535 whose moves
// and variation go on to 65537 while the board's counter turns to 0, and a Xiangqi game whose
// counter stays at 65535.
void move_number_vectors() {
  const std::string pgn =
      "[Event \"numbers\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 65535\"]\n\n"
      "65535... Kd7 65536. Ke2 (65536. Kd2 Kc7 65537. Kc2) 65536... Ke7 65537. Ke3 *\n\n"
      "[Game \"Chinese Chess\"]\n[FEN \"5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 65535\"]\n\n"
      "65535. d0d1 f9f8 65536. d1d0 {back} 65536... f8f9 *\n";
  encode_vector("move_numbers_past_65535", pgn, "PGN-1",
                "move numbers go on past 65535 where a position's fullmove counter turns to 0 (chess, a variation "
                "too) or stays at 65535 (Xiangqi)");
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: pgnarc-vectors DIR\n");
    return 1;
  }
  dir = argv[1];
  std::system(("mkdir -p '" + dir + "/encode' '" + dir + "/valid' '" + dir + "/invalid'").c_str());
  manifest = "# kind\tname\tsettings or error class\trequirements\twhy\n";

  encode_vectors();
  valid_vectors();
  invalid_file_vectors();
  later_version_vectors();
  frame_rule_vectors();
  invalid_dictionary_vectors();
  invalid_name_vectors();
  invalid_table_vectors();
  invalid_record_vectors();
  invalid_frame_vectors();
  invalid_column_vectors();
  position_vectors();
  filter_vectors();
  token_vectors();
  derived_tag_vectors();
  coded_tag_vectors();
  table_tag_vectors();
  xiangqi_vectors();
  xiangqi_model_vectors();
  xiangqi_token_vectors();
  xiangqi_position_vectors();
  xiangqi_spelling_vectors();
  unescaped_tag_vectors();
  text_dictionary_vectors();
  moves_dictionary_vectors();
  name_entry_vectors();
  xiangqi_book_vectors();
  move_number_vectors();
  write("MANIFEST.tsv", manifest);
  return 0;
}
