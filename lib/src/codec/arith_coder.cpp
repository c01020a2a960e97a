// The arithmetic coder of move symbols (arith_coder.h).
#include "codec/arith_coder.h"

namespace pgnarc::detail {

void ArithEncoder::emit(unsigned bit) {
  out_.put(bit);
  for (; pending_ > 0; --pending_) out_.put(bit ^ 1u);
}

void ArithEncoder::encode(std::uint32_t c, std::uint32_t f, std::uint32_t total) {
  any_ = true;
  const std::uint64_t r = (high_ - low_ + 1) / total;
  high_ = low_ + r * (c + f) - 1;
  low_ += r * c;
  for (;;) {
    if (high_ < kCodeHalf) {
      emit(0);
    } else if (low_ >= kCodeHalf) {
      emit(1);
      low_ -= kCodeHalf;
      high_ -= kCodeHalf;
    } else if (low_ >= kCodeQuarter && high_ < kCodeHalf + kCodeQuarter) {
      ++pending_;
      low_ -= kCodeQuarter;
      high_ -= kCodeQuarter;
    } else {
      break;
    }
    low_ <<= 1;
    high_ = high_ << 1 | 1;
  }
}

void ArithEncoder::finish() {
  if (!any_) return;
  ++pending_;
  emit(low_ < kCodeQuarter ? 0 : 1);
}

void ArithDecoder::start(std::string_view bytes, std::uint64_t start) {
  bytes_ = bytes;
  start_ = start;
  low_ = 0;
  high_ = kCodeTop;
  pending_ = 0;
  shifts_ = 0;
  any_ = false;
  value_ = 0;
  for (int i = 0; i < 32; ++i) value_ = value_ << 1 | bit_at(bytes, start + static_cast<std::uint64_t>(i));
}

bool ArithDecoder::target(std::uint32_t total, std::uint32_t& v) {
  r_ = (high_ - low_ + 1) / total;
  const std::uint64_t q = (value_ - low_) / r_;
  if (q >= total) return false;
  v = static_cast<std::uint32_t>(q);
  return true;
}

void ArithDecoder::consume(std::uint32_t c, std::uint32_t f) {
  any_ = true;
  high_ = low_ + r_ * (c + f) - 1;
  low_ += r_ * c;
  for (;;) {
    if (high_ < kCodeHalf) {
      pending_ = 0;
    } else if (low_ >= kCodeHalf) {
      pending_ = 0;
      low_ -= kCodeHalf;
      high_ -= kCodeHalf;
      value_ -= kCodeHalf;
    } else if (low_ >= kCodeQuarter && high_ < kCodeHalf + kCodeQuarter) {
      ++pending_;
      low_ -= kCodeQuarter;
      high_ -= kCodeQuarter;
      value_ -= kCodeQuarter;
    } else {
      break;
    }
    low_ <<= 1;
    high_ = high_ << 1 | 1;
    value_ = value_ << 1 | bit_at(bytes_, start_ + 32 + shifts_);
    ++shifts_;
  }
}

std::int64_t ArithDecoder::finish() const {
  if (!any_) return 0;
  // The coder's closing bits: b, then the pending doublings' bits and one more, all not b; the
  // pending ones stand at the last `pending_` doublings' places.
  const unsigned b = low_ < kCodeQuarter ? 0 : 1;
  const std::uint64_t from = start_ + shifts_ - pending_;
  if (bit_at(bytes_, from) != b) return -1;
  for (std::uint64_t i = 1; i <= pending_ + 1; ++i)
    if (bit_at(bytes_, from + i) != (b ^ 1u)) return -1;
  return static_cast<std::int64_t>(shifts_ + 2);
}

}  // namespace pgnarc::detail
