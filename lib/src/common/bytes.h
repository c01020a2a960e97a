// Little helpers for byte streams: LEB128 varints and a bounds-checked reader.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pgnarc::common {

inline void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>(static_cast<std::uint8_t>(v) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

inline void put_u8(std::string& out, std::uint8_t v) { out += static_cast<char>(v); }

// Signed numbers as unsigned ones that stay small when the number is near 0: 0, -1, 1, -2, ...
// as 0, 1, 2, 3, ...
constexpr std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
constexpr std::int64_t unzigzag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

// A length-prefixed string: varint length, then the bytes (read back by prefixed()).
inline void put_prefixed(std::string& out, std::string_view v) {
  put_varint(out, v.size());
  out += v;
}

// Reads from a string_view, consuming it; every read is checked against what remains. Varints
// must be minimal (no redundant 0x80 0x00 tails) and fit in 64 bits.
class ByteReader {
 public:
  explicit ByteReader(std::string_view& in) : in_(in) {}
  [[gnu::always_inline]] bool varint(std::uint64_t& v) {
    if (!in_.empty() && static_cast<std::uint8_t>(in_.front()) < 0x80) {  // one byte: most varints
      v = static_cast<std::uint8_t>(in_.front());
      in_.remove_prefix(1);
      return true;
    }
    return long_varint(v);
  }
  bool u8(std::uint8_t& v) {
    if (in_.empty()) return false;
    v = static_cast<std::uint8_t>(in_.front());
    in_.remove_prefix(1);
    return true;
  }
  bool bytes(std::uint64_t n, std::string_view& out) {
    if (n > in_.size()) return false;
    out = in_.substr(0, n);
    in_.remove_prefix(n);
    return true;
  }
  // A varint length, then that many bytes (a length-prefixed string).
  bool prefixed(std::string_view& out) {
    std::uint64_t n;
    return varint(n) && bytes(n, out);
  }
  std::size_t remaining() const { return in_.size(); }

 private:
  [[gnu::noinline]] bool long_varint(std::uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (in_.empty()) return false;
      const auto b = static_cast<std::uint8_t>(in_.front());
      in_.remove_prefix(1);
      if (shift == 63 && b > 1) return false;
      v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return b != 0 || shift == 0;  // a final zero byte would not be minimal
    }
    return false;
  }

  std::string_view& in_;
};

// The same reads over a range it owns, for hot loops: a ByteReader writes its position back
// through its reference on every read, which keeps the position out of registers.
class ByteCursor {
 public:
  explicit ByteCursor(std::string_view in) : in_(in) {}
  [[gnu::always_inline]] bool varint(std::uint64_t& v) {
    if (!in_.empty() && static_cast<std::uint8_t>(in_.front()) < 0x80) {
      v = static_cast<std::uint8_t>(in_.front());
      in_.remove_prefix(1);
      return true;
    }
    return ByteReader(in_).varint(v);  // the longer forms, by the one set of rules
  }
  bool u8(std::uint8_t& v) { return ByteReader(in_).u8(v); }
  bool bytes(std::uint64_t n, std::string_view& out) { return ByteReader(in_).bytes(n, out); }
  bool prefixed(std::string_view& out) {
    std::uint64_t n;
    return varint(n) && bytes(n, out);
  }
  std::size_t remaining() const { return in_.size(); }
  std::string_view rest() const { return in_; }

 private:
  std::string_view in_;
};

}  // namespace pgnarc::common
