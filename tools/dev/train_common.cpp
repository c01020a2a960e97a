// The pieces of pgnarc-train that both trainers use (train_common.h): the int8 rounding, the
// move model's held-out measure, SHA-256 for the appendix's book checksum, and the writers of a
// model's C++ table and of its appendix.
#include <algorithm>
#include <cstring>
#include <fstream>

#include "codec/entropy/arith_coder.h"
#include "codec/entropy/move_coder.h"
#include "train_common.h"

namespace pgnarc::train {

std::vector<std::int8_t> quantize(const std::vector<double>& w) {
  std::vector<std::int8_t> q(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    const double v = std::round(w[i] / std::log(2.0) * 16.0);
    q[i] = static_cast<std::int8_t>(std::clamp(v, -127.0, 127.0));
  }
  return q;
}

Measure measure(const std::vector<GameRec>& games, std::size_t from, const std::int8_t* weights,
                const std::uint32_t* hazard) {
  Measure m;
  std::uint32_t freq[kMaxLegalMoves];
  std::string sink;
  std::uint64_t sink_bits = 0;
  codec::PlyFrequencies pf;
  for (std::size_t i = from; i < games.size(); ++i) {
    const GameRec& g = games[i];
    m.plies += g.moves.size();
    replay(g, [&](const Position& pos, const rules::PieceTargets& t, const codec::model::History& h, int played) {
      const std::uint32_t total = codec::model::frequencies(pos, t, h, freq, weights);
      m.bits += std::log2(static_cast<double>(total) / freq[played]);
      m.uniform += std::log2(static_cast<double>(t.total));
      std::uint32_t top = 0;
      for (int k = 0; k < t.total; ++k) top = std::max(top, freq[k]);
      m.first += freq[played] == top;
      ++m.coded;
    });
    bool nulls = false;
    for (Move mv : g.moves) nulls |= mv.is_null();
    if (nulls) continue;
    sink.clear();
    sink_bits = 0;
    codec::ArithEncoder coder(codec::BitSink{sink, sink_bits});
    // The line's symbols as the codec codes an unannotated main line: each move, then the end.
    codec::model::LineState at{g.start, {}};
    rules::PieceTargets t;
    for (std::uint64_t ply = 0;; ++ply) {
      rules::generate_targets(at.pos, t);
      codec::ply_frequencies(codec::MoveCoder::kModel, true, ply, at.pos, t, at.history, pf, weights, hazard);
      const bool end = ply == g.moves.size();
      const codec::PlySymbol y = codec::symbol_of(pf, end ? -1 : rules::index_in(at.pos, t, g.moves[ply]));
      coder.encode(y.c, y.f, y.total);
      if (end) break;
      at.play(g.moves[ply]);
    }
    coder.finish();
    m.codeword += static_cast<double>(sink_bits);
  }
  return m;
}

namespace {

// A model's feature groups in order, as (offset, size, appendix label).
struct Group {
  int offset, size;
  std::string label;
};
std::vector<Group> groups_of(std::span<const codec::model::FeatureGroup> table) {
  std::vector<Group> groups;
  int at = 0;
  for (const auto& g : table) {
    groups.push_back(Group{at, g.size, codec::model::appendix_label(g)});
    at += g.size;
  }
  return groups;
}

// SHA-256 (FIPS 180-4) of `bytes`, as 64 lowercase hex digits: the book's checksum in the appendix.
std::string sha256_hex(const std::vector<std::uint8_t>& bytes) {
  static constexpr std::uint32_t kK[64] = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
      0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
      0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
      0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
      0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
      0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
      0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
      0xc67178f2};
  std::uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::vector<std::uint8_t> m = bytes;
  m.push_back(0x80);
  while (m.size() % 64 != 56) m.push_back(0);
  const std::uint64_t bits = static_cast<std::uint64_t>(bytes.size()) * 8;
  for (int i = 7; i >= 0; --i) m.push_back(static_cast<std::uint8_t>(bits >> (i * 8)));
  auto rotr = [](std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
  for (std::size_t block = 0; block < m.size(); block += 64) {
    std::uint32_t w[64];
    for (int i = 0; i < 16; ++i)
      w[i] = static_cast<std::uint32_t>(m[block + 4 * i]) << 24 | static_cast<std::uint32_t>(m[block + 4 * i + 1]) << 16 |
             static_cast<std::uint32_t>(m[block + 4 * i + 2]) << 8 | m[block + 4 * i + 3];
    for (int i = 16; i < 64; ++i) {
      const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; ++i) {
      const std::uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kK[i] + w[i];
      const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
  }
  std::string out;
  char buf[9];
  for (std::uint32_t v : h) {
    std::snprintf(buf, sizeof buf, "%08x", v);
    out += buf;
  }
  return out;
}

// Writes v[from, to), `per_line` a line: each line `lead`, the values joined by `join`, then `tail`.
template <class T>
void put_rows(std::ostream& out, const std::vector<T>& v, std::size_t from, std::size_t to, std::size_t per_line,
              const char* lead, const char* join, const char* tail) {
  for (std::size_t k = from; k < to; k += per_line) {
    out << lead;
    for (std::size_t c = k; c < std::min(to, k + per_line); ++c)
      out << (c == k ? "" : join) << +v[c];
    out << tail << "\n";
  }
}

}  // namespace

bool write_weights(const std::string& path, const ModelDoc& doc, const std::vector<std::int8_t>& q,
                   const std::vector<std::uint32_t>* hazard) {
  std::ofstream out(path, std::ios::binary);
  out << doc.source_head << "const std::array<std::int8_t, kFeatures> kWeights = {\n";
  for (const auto& [offset, size, label] : groups_of(doc.groups)) {
    out << "    // " << label << "\n";
    put_rows(out, q, offset, offset + size, doc.per_line, "    ", ", ", ",");
  }
  out << "};\n\n";
  if (hazard) {
    out << "const std::array<std::uint32_t, 256> kEndHazard = {\n";
    put_rows(out, *hazard, 0, hazard->size(), 12, "    ", ", ", ",");
    out << "};\n\n";
  }
  out << "}  // namespace " << doc.ns << "\n";
  return static_cast<bool>(out);
}

int write_model(const std::string& out_path, const std::string& tables_path, const ModelDoc& doc,
                const std::vector<std::int8_t>& q, const std::vector<std::uint32_t>* hazard,
                const std::vector<std::uint8_t>* book) {
  const std::string* failed = !tables_path.empty() && !write_tables(tables_path, doc, q, hazard, book) ? &tables_path
                              : !out_path.empty() && !write_weights(out_path, doc, q, hazard)       ? &out_path
                                                                                                    : nullptr;
  if (!failed) return 0;
  std::fprintf(stderr, "cannot write %s\n", failed->c_str());
  return 4;
}

// The appendix of the format specification: the groups, W (and H) as the spec's tables.
bool write_tables(const std::string& path, const ModelDoc& doc, const std::vector<std::int8_t>& q,
                  const std::vector<std::uint32_t>* hazard, const std::vector<std::uint8_t>* book) {
  std::ofstream out(path, std::ios::binary);
  out << doc.title << "K = " << codec::model::features_of(doc.groups)
      << " features.\n\n## Groups\n\n| offset | size | group [index] |\n|---:|---:|---|\n";
  const auto groups = groups_of(doc.groups);
  for (const auto& [offset, size, label] : groups) out << "| " << offset << " | " << size << " | " << label << " |\n";
  out << "\n## W\n\nThe weights in sixteenths of a bit, W[offset] first, 16 a line.\n";
  for (const auto& [offset, size, label] : groups) {
    out << "\n### " << label << ", from " << offset << "\n\n```text\n";
    put_rows(out, q, offset, offset + size, 16, "", " ", "");
    out << "```\n";
  }
  if (hazard) {
    out << "\n## H\n\nThe end hazard, H[0] first, 16 a line.\n\n```text\n";
    put_rows(out, *hazard, 0, hazard->size(), 16, "", " ", "");
    out << "```\n";
  }
  if (book) {
    static const char kHex[] = "0123456789abcdef";
    out << "\n## Book\n\nThe opening book's bytes (section " << doc.book_section << "), " << book->size() << " bytes, SHA-256\n"
        << sha256_hex(*book) << ", as lowercase hex, 32 bytes a line.\n\n```text\n";
    for (std::size_t k = 0; k < book->size(); k += 32) {
      for (std::size_t c = k; c < std::min(book->size(), k + 32); ++c) out << kHex[(*book)[c] >> 4] << kHex[(*book)[c] & 15];
      out << "\n";
    }
    out << "```\n";
  }
  return static_cast<bool>(out);
}

bool write_book(const std::string& path, const std::vector<std::uint8_t>& book, const BookSource& source) {
  static const char kHex[] = "0123456789abcdef";
  std::ofstream out(path, std::ios::binary);
  out << "// " << source.what << ", " << book.size()
      << " bytes as\n"
         "// lowercase hex, "
      << source.line
      << " a line. Generated by\n"
         "// " << source.generator << "; do not edit.\n"
         "#include \"" << source.include << "\"\n\n"
         "namespace " << source.ns << " {\n"
         "namespace {\n\n"
         "constexpr std::size_t kBookSize = "
      << book.size() << ";\nconstexpr std::size_t kLine = " << source.line << ";  // bytes a line\n\nconstexpr const char* kBookHex[] = {\n";
  if (book.empty()) out << "    \"\",\n";
  for (std::size_t k = 0; k < book.size(); k += source.line) {
    out << "    \"";
    for (std::size_t c = k; c < std::min(book.size(), k + source.line); ++c) out << kHex[book[c] >> 4] << kHex[book[c] & 15];
    out << "\",\n";
  }
  out << "};\n"
         "static_assert(std::size(kBookHex) == (kBookSize + kLine - 1) / kLine + (kBookSize == 0));\n\n"
         "constexpr std::uint8_t nibble(char c) { return static_cast<std::uint8_t>(c <= '9' ? c - '0' : c - 'a' + 10); }\n\n"
         "constexpr std::array<std::uint8_t, kBookSize> decode_book() {\n"
         "  std::array<std::uint8_t, kBookSize> bytes{};\n"
         "  for (std::size_t i = 0; i < kBookSize; ++i) {\n"
         "    const char* line = kBookHex[i / kLine] + 2 * (i % kLine);\n"
         "    bytes[i] = static_cast<std::uint8_t>(nibble(line[0]) << 4 | nibble(line[1]));\n"
         "  }\n"
         "  return bytes;\n"
         "}\n\n"
         "constexpr std::array<std::uint8_t, kBookSize> kBook = decode_book();\n\n"
         "}  // namespace\n\n"
         "const std::span<const std::uint8_t> kBookBytes(kBook.data(), kBook.size());\n\n"
         "}  // namespace " << source.ns << "\n";
  return static_cast<bool>(out);
}

}  // namespace pgnarc::train
