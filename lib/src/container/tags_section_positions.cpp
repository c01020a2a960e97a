// The position columns of a tags section: chess start positions (coding 7, 9.4.4) and Xiangqi
// positions (coding 12, 9.4.9), each a codeword of values and a text body of those kept as text.
#include "codec/entropy/symbol_coder.h"
#include "codec/position/position_code.h"
#include "codec/position/xiangqi_position.h"
#include "container/tag_readers.h"
#include "container/tag_values.h"

namespace pgnarc::container::tag_readers {

using common::ByteCursor;

namespace {

// A column of one codeword of `count` values, each read by decode(in, text, coded, why): those
// coded and written out into the arena, those kept as text from the text body after it. `what`
// names a value in errors ("position", "Xiangqi position").
template <class Decode>
Status read_codeword_column(ByteCursor& r, Slots slots, std::uint32_t count, const std::string& where, bool whole,
                            BlockTags& out, const std::string& what, Decode&& decode) {
  auto bad = [&](const std::string& why) { return corruption(where + ": tags section: " + why); };
  std::string_view codeword;
  if (!r.prefixed(codeword)) return bad(what + " codeword runs past the end");
  codec::ArithDecoder in;
  in.start(codeword, 0);
  std::vector<std::uint32_t> kept;
  for (std::uint32_t e = 0; e < count; ++e) {
    const std::size_t from = out.arena.size();
    bool coded = false;
    const char* why = nullptr;
    if (!decode(in, out.arena, coded, why)) return bad(what + " " + std::to_string(e + 1) + " of its column: " + why);
    if (!coded) {
      kept.push_back(slots[e]);
      continue;
    }
    if (!written(out, slots[e], whole)) {
      out.arena.resize(from);
      continue;
    }
    out.pending.push_back(BlockTags::Pending{slots[e], from, out.arena.size() - from});
    if (out.arena.size() > kMaxTypedTagBytes) return bad("typed values larger than the limit");
  }
  if (!codeword_ends(in, codeword)) return bad(what + " codeword does not end where its length says, with bits 0 after it");
  return read_kept(r, kept, where, out);
}

}  // namespace

// A position column (9.4.4): each value's form in the start-position code's own symbols.
Status read_positions(ByteCursor& r, Slots slots, std::uint32_t count, const std::string& where,
                      bool whole, BlockTags& out) {
  codec::PositionCoder coder;
  return read_codeword_column(r, slots, count, where, whole, out, "position",
                              [&](codec::ArithDecoder& in, std::string& text, bool& coded, const char*& why) {
                                return coder.decode(in, coded, text, why);
                              });
}

// A Xiangqi position column (9.4.9): each value's form a symbol of 2 (adaptive: 0 kept as text,
// 1 coded), then a coded one's Xiangqi position value.
Status read_xiangqi_positions(ByteCursor& r, Slots slots, std::uint32_t count, const std::string& where, bool whole,
                              BlockTags& out) {
  codec::XiangqiPositionCoder coder;
  codec::AdaptiveFrequencies<2> form;
  return read_codeword_column(r, slots, count, where, whole, out, "Xiangqi position",
                              [&](codec::ArithDecoder& in, std::string& text, bool& coded, const char*& why) {
                                codec::SymbolReader symbols{in};
                                int c = 0;
                                if (!symbols.adaptive(form, c)) return why = "the codeword holds no value here", false;
                                form.update(c);
                                coded = c;
                                return !coded || coder.decode(in, text, why);
                              });
}

}  // namespace pgnarc::container::tag_readers
