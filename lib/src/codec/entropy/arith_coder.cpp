// The arithmetic coder of move symbols (arith_coder.h).
#include "codec/entropy/arith_coder.h"

#include <bit>

namespace pgnarc::codec {

void ArithEncoder::emit(unsigned bit) {
  out_.put(bit);
  for (; pending_ > 0; --pending_) out_.put(bit ^ 1u);
}

void ArithEncoder::encode(std::uint32_t c, std::uint32_t f, std::uint32_t total) {
  any_ = true;
  interval_.narrow((interval_.high - interval_.low + 1) / total, c, f);
  std::uint64_t offset;
  for (int kind; (kind = interval_.double_once(offset)) >= 0;)
    if (kind == 2) ++pending_;
    else emit(static_cast<unsigned>(kind));
}

void ArithEncoder::finish() {
  if (!any_) return;
  ++pending_;
  emit(interval_.low < kCodeQuarter ? 0 : 1);
}

void ArithDecoder::start(std::string_view bytes, std::uint64_t start) {
  bytes_ = bytes;
  start_ = start;
  interval_ = CodeInterval{};
  pending_ = 0;
  shifts_ = 0;
  any_ = false;
  value_ = bits_at(bytes, start, 32);
}

std::int64_t ArithDecoder::finish() const {
  if (!any_) return 0;
  // The coder's closing bits: b, then the pending doublings' bits and one more, all not b; the
  // pending ones stand at the last `pending_` doublings' places.
  const unsigned b = interval_.low < kCodeQuarter ? 0 : 1;
  const std::uint64_t from = start_ + shifts_ - pending_;
  if (bit_at(bytes_, from) != b) return -1;
  for (std::uint64_t i = 1; i <= pending_ + 1; ++i)
    if (bit_at(bytes_, from + i) != (b ^ 1u)) return -1;
  return static_cast<std::int64_t>(shifts_ + 2);
}

}  // namespace pgnarc::codec
