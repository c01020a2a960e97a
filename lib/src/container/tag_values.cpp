#include "container/tag_values.h"

#include <charconv>

namespace pgnarc::container {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The value of 0-9, A-Z, a-z as a base-62 digit, or -1.
int base62_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  if (c >= 'a' && c <= 'z') return c - 'a' + 36;
  return -1;
}

constexpr char kBase62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// The digits of `v` as a number, if `v` is nothing but digits (at most 18 of them).
bool parse_digits(std::string_view v, std::int64_t& out) {
  if (v.size() > 18) return false;
  std::int64_t n = 0;
  for (char c : v) {
    if (!is_digit(c)) return false;
    n = n * 10 + (c - '0');
  }
  out = n;
  return true;
}

// A decimal number without leading zeros ("0" alone may be 0), at most 18 digits.
bool parse_natural(std::string_view v, std::int64_t& out) {
  return !v.empty() && !(v[0] == '0' && v.size() > 1) && parse_digits(v, out);
}

// `v` as exactly `digits` decimal digits.
bool parse_fixed(std::string_view v, int digits, std::int64_t& out) {
  return v.size() == static_cast<std::size_t>(digits) && parse_digits(v, out);
}

// `n` (at least 0) in decimal.
void put_decimal(std::int64_t n, std::string& out) {
  char buf[20];
  const auto end = std::to_chars(buf, buf + sizeof buf, n).ptr;
  out.append(buf, end);
}

void put_fixed(std::int64_t n, int digits, std::string& out) {
  char buf[8];
  for (int i = digits; i-- > 0; n /= 10) buf[i] = static_cast<char>('0' + n % 10);
  out.append(buf, digits);
}

}  // namespace

bool parse_tag_integer(std::string_view v, bool signed_form, std::int64_t& out) {
  if (v.empty()) return false;
  const char sign = v[0];
  const bool negative = sign == '-';
  if (negative || (signed_form && sign == '+')) {
    v.remove_prefix(1);
  } else if (signed_form) {
    return false;
  }
  std::int64_t n;
  if (!parse_natural(v, n) || (negative && n == 0)) return false;
  out = negative ? -n : n;
  return true;
}

void format_tag_integer(std::int64_t v, bool signed_form, std::string& out) {
  if (v < 0) {
    out += '-';
  } else if (signed_form) {
    out += '+';
  }
  put_decimal(v < 0 ? -v : v, out);
}

bool parse_tag_date(std::string_view v, std::int64_t& out) {
  if (v.size() != 10 || v[4] != '.' || v[7] != '.') return false;
  std::int64_t y = 0, m = 0, d = 0;
  const std::string_view ys = v.substr(0, 4), ms = v.substr(5, 2), ds = v.substr(8, 2);
  if (ys != "????") {
    if (!parse_fixed(ys, 4, y)) return false;
    ++y;
  }
  if (ms != "??" && (!parse_fixed(ms, 2, m) || m < 1 || m > 12)) return false;
  if (ds != "??" && (!parse_fixed(ds, 2, d) || d < 1 || d > 31)) return false;
  out = (y * 13 + m) * 32 + d;
  return true;
}

void format_tag_date(std::int64_t v, std::string& out) {
  const std::int64_t d = v % 32, m = v / 32 % 13, y = v / 32 / 13;
  if (y == 0) {
    out += "????";
  } else {
    put_fixed(y - 1, 4, out);
  }
  out += '.';
  if (m == 0) {
    out += "??";
  } else {
    put_fixed(m, 2, out);
  }
  out += '.';
  if (d == 0) {
    out += "??";
  } else {
    put_fixed(d, 2, out);
  }
}

bool parse_tag_time(std::string_view v, std::int64_t& out) {
  std::int64_t h, m, s;
  if (v.size() != 8 || v[2] != ':' || v[5] != ':' || !parse_fixed(v.substr(0, 2), 2, h) ||
      !parse_fixed(v.substr(3, 2), 2, m) || !parse_fixed(v.substr(6, 2), 2, s) || m > 59 || s > 59)
    return false;
  out = (h * 60 + m) * 60 + s;
  return true;
}

void format_tag_time(std::int64_t v, std::string& out) {
  put_fixed(v / 3600, 2, out);
  out += ':';
  put_fixed(v / 60 % 60, 2, out);
  out += ':';
  put_fixed(v % 60, 2, out);
}

std::int64_t identifier_limit(int length) {
  if (length == 0) return kTagNumberLimit;
  std::int64_t n = 1;
  for (int i = 0; i < length; ++i) n *= 62;
  return n;
}

bool parse_tag_identifier(std::string_view v, const IdentifierForm& form, std::int64_t& out) {
  if (!v.starts_with(form.prefix)) return false;
  v.remove_prefix(form.prefix.size());
  if (form.length == 0) return parse_natural(v, out);
  if (v.size() != static_cast<std::size_t>(form.length)) return false;
  std::int64_t n = 0;
  for (char c : v) {
    const int digit = base62_digit(c);
    if (digit < 0) return false;
    n = n * 62 + digit;
  }
  out = n;
  return true;
}

void format_tag_identifier(std::int64_t v, const IdentifierForm& form, std::string& out) {
  out += form.prefix;
  if (form.length == 0) {
    put_decimal(v, out);
    return;
  }
  char buf[kTagIdentifierDigits];
  for (int i = form.length; i-- > 0; v /= 62) buf[i] = kBase62[v % 62];
  out.append(buf, form.length);
}

bool identifier_form_of(std::string_view v, bool decimal, IdentifierForm& out) {
  std::size_t start = v.size();
  while (start > 0 && (decimal ? is_digit(v[start - 1]) : base62_digit(v[start - 1]) >= 0)) --start;
  const std::size_t tail = v.size() - start;
  if (tail == 0 || (!decimal && tail > static_cast<std::size_t>(kTagIdentifierDigits)) || start > kTagPrefixLimit)
    return false;
  out.prefix = v.substr(0, start);
  out.length = decimal ? 0 : static_cast<int>(tail);
  return true;
}

}  // namespace pgnarc::container
