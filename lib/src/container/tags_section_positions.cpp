// The position columns of a tags section: chess start positions (coding 7, 9.4.4) and Xiangqi
// positions (coding 12, 9.4.9), each a codeword of values and a text body of those kept as text.
#include "codec/entropy/symbol_coder.h"
#include "codec/position/position_code.h"
#include "codec/position/xiangqi_position.h"
#include "container/tag_readers.h"
#include "container/tag_values.h"

namespace pgnarc::container::tag_readers {

using common::ByteCursor;

// A position column (9.4.4): the codeword's values (those of tags not wanted decoded and
// dropped), then the text body of those kept as text.
Status read_positions(ByteCursor& r, Slots slots, std::uint32_t count, const std::string& where,
                      bool whole, BlockTags& out) {
  auto bad = [&](const std::string& what) { return corruption(where + ": tags section: " + what); };
  std::string_view codeword;
  if (!r.prefixed(codeword)) return bad("position codeword runs past the end");
  codec::ArithDecoder in;
  in.start(codeword, 0);
  codec::PositionCoder coder;
  std::vector<std::uint32_t> kept;
  for (std::uint32_t e = 0; e < count; ++e) {
    const std::size_t from = out.arena.size();
    bool coded = false;
    const char* why = nullptr;
    if (!coder.decode(in, coded, out.arena, why))
      return bad("position " + std::to_string(e + 1) + " of its column: " + why);
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
  if (!codeword_ends(in, codeword)) return bad("position codeword does not end where its length says, with bits 0 after it");
  return read_kept(r, kept, where, out);
}

// A Xiangqi position column (9.4.9): for each value, whether it is coded and its Xiangqi position
// value, in one codeword; then the text body of those kept as text.
Status read_xiangqi_positions(ByteCursor& r, Slots slots, std::uint32_t count, const std::string& where, bool whole,
                              BlockTags& out) {
  auto bad = [&](const std::string& what) { return corruption(where + ": tags section: " + what); };
  std::string_view codeword;
  if (!r.prefixed(codeword)) return bad("Xiangqi position codeword runs past the end");
  codec::ArithDecoder in;
  in.start(codeword, 0);
  codec::XiangqiPositionCoder coder;
  codec::AdaptiveFrequencies<2> form;
  codec::SymbolReader symbols{in};
  std::vector<std::uint32_t> kept;
  for (std::uint32_t e = 0; e < count; ++e) {
    int coded = 0;
    if (!symbols.adaptive(form, coded)) return bad("Xiangqi position " + std::to_string(e + 1) + " of its column: the codeword holds no value here");
    form.update(coded);
    if (!coded) {
      kept.push_back(slots[e]);
      continue;
    }
    const std::size_t from = out.arena.size();
    const char* why = nullptr;
    if (!coder.decode(in, out.arena, why))
      return bad("Xiangqi position " + std::to_string(e + 1) + " of its column: " + why);
    if (!written(out, slots[e], whole)) {
      out.arena.resize(from);
      continue;
    }
    out.pending.push_back(BlockTags::Pending{slots[e], from, out.arena.size() - from});
    if (out.arena.size() > kMaxTypedTagBytes) return bad("typed values larger than the limit");
  }
  if (!codeword_ends(in, codeword))
    return bad("Xiangqi position codeword does not end where its length says, with bits 0 after it");
  return read_kept(r, kept, where, out);
}

}  // namespace pgnarc::container::tag_readers
