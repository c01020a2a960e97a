// What an error about an element of an archive names: the element ("a.pga: block 3 at offset
// 1234"), which prefixes the message, and, where known, the file offset of the element's first
// byte, so that a byte inside the element is named by its offset in the file, one a user can find.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pgnarc::container {

struct Where {
  static constexpr std::uint64_t kUnknown = ~std::uint64_t{0};
  Where() = default;
  Where(std::string text_, std::uint64_t offset_ = kUnknown) : text(std::move(text_)), offset(offset_) {}
  Where(const char* text_) : text(text_) {}

  // " at offset 5678 (block byte 4444)" where the element's offset is known, else " (block byte 4444)".
  std::string byte(std::uint64_t at, std::string_view element = "block") const {
    std::string out;
    if (offset != kUnknown) out = " at offset " + std::to_string(offset + at);
    return out + " (" + std::string(element) + " byte " + std::to_string(at) + ")";
  }
  // For the functions that name the element only.
  operator const std::string&() const { return text; }

  std::string text;
  std::uint64_t offset = kUnknown;
};

inline std::string operator+(const Where& where, std::string_view more) { return where.text + std::string(more); }

}  // namespace pgnarc::container
