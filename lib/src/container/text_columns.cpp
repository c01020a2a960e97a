#include "container/text_columns.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "common/bytes.h"

namespace pgnarc::container {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

// Numbers per column, from the numbers of each of `texts` texts: column k holds a number of every
// text with more than k.
void column_sizes(const std::uint32_t* count, std::size_t texts, std::vector<std::uint32_t>& size) {
  std::uint32_t most = 0;
  for (std::size_t i = 0; i < texts; ++i) most = std::max(most, count[i]);
  size.assign(most + 1, 0);
  for (std::size_t i = 0; i < texts; ++i) ++size[count[i]];  // [k]: texts with k numbers
  for (std::uint32_t k = most; k-- > 0;) size[k] += size[k + 1];  // with k or more
  size.erase(size.begin());  // [k]: with more than k
}

// The columns' order of the numbers listed text by text (text i's k-th number at first[i] + k):
// by position k, then by text. column_slot[c] is the number that the c-th value of the columns is.
std::vector<std::uint32_t> column_order(const std::vector<std::uint32_t>& count, std::size_t numbers) {
  std::vector<std::uint32_t> fill;
  column_sizes(count.data(), count.size(), fill);
  for (std::uint32_t k = 0, at = 0; k < fill.size(); ++k) at += std::exchange(fill[k], at);
  std::vector<std::uint32_t> column_slot(numbers);
  std::uint32_t first = 0;
  for (const std::uint32_t c : count) {
    for (std::uint32_t k = 0; k < c; ++k) column_slot[fill[k]++] = first + k;
    first += c;
  }
  return column_slot;
}

}  // namespace

bool texts_to_columns(std::string_view stream, std::string& out) {
  std::string skeletons;
  std::vector<std::string_view> numbers;  // entry by entry
  std::vector<std::uint32_t> count;       // numbers per entry
  common::ByteCursor in(stream);
  while (in.remaining()) {
    std::string_view text;
    if (!in.prefixed(text)) return false;
    const std::size_t before = numbers.size();
    for (std::size_t i = 0; i < text.size();) {
      const char c = text[i];
      if (c == kColumnTerminator || c == kNumberMarker) return false;
      if (!is_digit(c)) {
        skeletons += c;
        ++i;
        continue;
      }
      std::size_t end = i;
      while (end < text.size() && is_digit(text[end])) ++end;
      // A run of digits right after a letter is part of a word ("R50", "Nf3"): kept in the text.
      if (i > 0 && is_letter(text[i - 1])) {
        skeletons.append(text.substr(i, end - i));
      } else {
        skeletons += kNumberMarker;
        numbers.push_back(text.substr(i, end - i));
      }
      i = end;
    }
    skeletons += kColumnTerminator;
    count.push_back(static_cast<std::uint32_t>(numbers.size() - before));
  }
  common::put_varint(out, count.size());
  out += skeletons;
  for (const std::uint32_t n : column_order(count, numbers.size())) {
    out += numbers[n];
    out += kColumnTerminator;
  }
  return true;
}

namespace {

// Bit masks of the 16 bytes from q: where those before `limit` hold a terminator, a marker, a
// digit, an ASCII letter, or a byte that is neither a digit nor a terminator. The reader's passes
// step through the column form 16 bytes at a time and visit only the bytes these masks flag.
// Bytes from `buffer_end` on are not read (they count as spaces).
struct Chunk {
  std::uint32_t terminators = 0, markers = 0, digits = 0, letters = 0, not_number = 0;
};

inline void load_chunk(const char* q, const char* limit, const char* buffer_end, Chunk& c) {
  const auto n = static_cast<std::size_t>(limit - q);
  const std::uint32_t valid = n >= 16 ? 0xFFFFu : (1u << n) - 1;
  char padded[16];
  const char* from = q;
  if (buffer_end - q < 16) {
    std::memset(padded, ' ', 16);
    std::memcpy(padded, q, static_cast<std::size_t>(buffer_end - q));
    from = padded;
  }
  std::uint32_t terminators = 0, markers = 0, digits = 0, letters = 0;
#if defined(__SSE2__)
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from));
  const auto mask = [](__m128i m) { return static_cast<std::uint32_t>(_mm_movemask_epi8(m)); };
  // Unsigned x - lo <= span, as min(x - lo, span) == x - lo.
  const auto in_range = [&](__m128i x, char lo, char span) {
    const __m128i d = _mm_sub_epi8(x, _mm_set1_epi8(lo));
    return mask(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(span)), d));
  };
  terminators = mask(_mm_cmpeq_epi8(v, _mm_setzero_si128()));
  markers = mask(_mm_cmpeq_epi8(v, _mm_set1_epi8(kNumberMarker)));
  digits = in_range(v, '0', 9);
  letters = in_range(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 25);  // 0x20 folds A-Z onto a-z
#else
  for (std::size_t i = 0; i < 16; ++i) {
    terminators |= std::uint32_t{from[i] == kColumnTerminator} << i;
    markers |= std::uint32_t{from[i] == kNumberMarker} << i;
    digits |= std::uint32_t{is_digit(from[i])} << i;
    letters |= std::uint32_t{is_letter(from[i])} << i;
  }
#endif
  c.terminators = terminators & valid;
  c.markers = markers & valid;
  c.digits = digits & valid;
  c.letters = letters & valid;
  c.not_number = ~(terminators | digits) & valid;
}

}  // namespace

const char* columns_to_texts(std::string_view columns, std::size_t size, std::string& out) {
  common::ByteCursor in(columns);
  std::uint64_t entries;
  // Every entry takes at least its length byte in the stream, and its terminator in the form.
  if (!in.varint(entries) || entries > size || entries > in.remaining()) return "bad entry count";
  const char* p = in.rest().data();
  const char* const end = p + in.rest().size();
  // The texts: where each starts (text[e], ended by a terminator just before text[e + 1]), and
  // how many numbers each holds; numbers per column.
  static thread_local std::vector<const char*> text;
  static thread_local std::vector<std::uint32_t> count, column_size;
  text.resize(entries + 1);
  count.resize(entries);
  column_size.clear();
  // Plain pointers: the byte stores below may alias anything, and would make the compiler reload
  // a vector's data pointer (a thread-local) after each one.
  const char** const text_at = text.data();
  std::uint32_t* const count_of = count.data();
  std::size_t numbers = 0;
  {
    std::uint64_t e = 0;
    std::uint32_t n = 0;  // numbers in text e so far
    // Whether the byte before the chunk is a letter, digit or marker, and a letter or digit.
    std::uint32_t word_before = 0, letter_or_digit_before = 0;
    text_at[0] = p;
    Chunk c;
    for (const char* q = p; e < entries; q += 16) {
      if (q >= end) return "a text runs past the end of the columns";
      load_chunk(q, end, end, c);
      // The texts that end in this chunk, and the markers in each; the bytes after the last text
      // (numbers) are left out of the checks below.
      std::uint32_t markers = c.markers, texts = 0xFFFF;
      for (std::uint32_t t = c.terminators; t; t &= t - 1) {
        const int b = __builtin_ctz(t);
        const std::uint32_t below = (1u << b) - 1;
        n += static_cast<std::uint32_t>(__builtin_popcount(markers & below));
        markers &= ~below;
        count_of[e] = n;
        numbers += n;
        n = 0;
        text_at[++e] = q + b + 1;
        if (e == entries) {
          texts = below;
          break;
        }
      }
      n += static_cast<std::uint32_t>(__builtin_popcount(markers));
      // What texts_to_columns makes: a marker stands for a whole run of digits that does not
      // follow a letter, so it follows no letter, digit or marker; a digit left in a text
      // follows a letter or a digit (a run after a letter), else it would have been a number.
      const std::uint32_t letter_or_digit = c.letters | c.digits, word = letter_or_digit | c.markers;
      if (((word << 1) | word_before) & c.markers & texts) return "a number marker follows a letter, a digit or a marker";
      if (c.digits & texts & ~((letter_or_digit << 1) | letter_or_digit_before))
        return "a text holds a digit after neither a letter nor a digit";
      word_before = word >> 15 & 1;
      letter_or_digit_before = letter_or_digit >> 15 & 1;
    }
    p = text_at[entries];
    column_sizes(count_of, entries, column_size);
  }
  // The columns: digits, each number ended by a terminator. Numbers are counted in column order;
  // number i ends at end_of[i] (and starts after number i - 1's terminator).
  static thread_local std::vector<std::uint32_t> end_of;
  end_of.resize(numbers);
  std::uint32_t* const end_at = end_of.data();
  const auto region = static_cast<std::size_t>(end - p);
  {
    std::size_t n = 0;
    Chunk c;
    for (const char* q = p; q < end; q += 16) {
      load_chunk(q, end, end, c);
      if (c.not_number) return "a number holds a byte that is not a digit";
      for (std::uint32_t t = c.terminators; t; t &= t - 1) {
        if (n == numbers) return "bytes after the last column";
        end_at[n++] = static_cast<std::uint32_t>(q - p + __builtin_ctz(t));
      }
    }
    if (n < numbers || (numbers ? end_at[numbers - 1] + 1 : 0) != region)
      return "a number runs past the end of the columns";
  }
  const auto number_from = [&](std::uint32_t i) -> std::uint32_t { return i ? end_at[i - 1] + 1 : 0; };
  // Column k's next number.
  static thread_local std::vector<std::uint32_t> next;
  next.resize(column_size.size());
  std::uint32_t* const next_at = next.data();
  for (std::size_t k = 0, at = 0; k < column_size.size(); at += column_size[k++]) next_at[k] = static_cast<std::uint32_t>(at);

  // The stream, written in place: it must fill exactly `size` bytes. Copies move 16 bytes at a
  // time, so the string has 16 bytes to spare until the end.
  const std::size_t start = out.size();
  out.resize(start + size + 16);
  char* w = out.data() + start;
  char* const w_end = w + size;
  for (std::uint64_t e = 0; e < entries; ++e) {
    std::size_t length = static_cast<std::size_t>(text_at[e + 1] - text_at[e]) - 1 - count_of[e];
    for (std::uint32_t k = 0; k < count_of[e]; ++k) {
      const std::uint32_t i = next_at[k];
      if (end_at[i] == number_from(i)) return "an empty number";
      length += end_at[i] - number_from(i);
    }
    std::size_t length_bytes = 1;
    for (std::size_t v = length; v >= 0x80; v >>= 7) ++length_bytes;
    if (length + length_bytes > static_cast<std::size_t>(w_end - w)) return "the texts are larger than the section says";
    for (std::uint64_t v = length;; v >>= 7) {
      if (v < 0x80) {
        *w++ = static_cast<char>(v);
        break;
      }
      *w++ = static_cast<char>((v & 0x7F) | 0x80);
    }
    // The text between markers and the markers' numbers, each moved 16 bytes at once where the
    // column form has 16 bytes from its start (the string has 16 to spare). The markers of a
    // chunk are all known at once, so its copies do not wait for each other.
    const auto copy = [&](const char* from, std::size_t n) {
      if (n <= 16 && static_cast<std::size_t>(end - from) >= 16) std::memcpy(w, from, 16);
      else std::memcpy(w, from, n);
      w += n;
    };
    Chunk c;
    std::uint32_t k = 0;
    for (const char *t = text_at[e], *const stop = text_at[e + 1] - 1; t < stop; t += 16) {
      load_chunk(t, stop, end, c);
      std::size_t from = 0;  // in the chunk
      for (std::uint32_t m = c.markers; m; m &= m - 1) {
        const auto b = static_cast<std::size_t>(__builtin_ctz(m));
        copy(t + from, b - from);
        const std::uint32_t i = next_at[k++]++;
        copy(p + number_from(i), end_at[i] - number_from(i));
        from = b + 1;
      }
      copy(t + from, std::min<std::size_t>(16, static_cast<std::size_t>(stop - t)) - from);
    }
  }
  out.resize(start + size);
  if (w != w_end) {
    out.resize(start);
    return "the texts are not the size the section says";
  }
  return nullptr;
}

}  // namespace pgnarc::container
