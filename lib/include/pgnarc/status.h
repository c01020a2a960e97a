// Errors: one vocabulary for the whole library.
//
// Every fallible function returns a Result<T> (or Status, which is Result<void>). The error carries
// a category and a message that already says where (file, game, line:column, block, offset): the
// layer that knows the place writes it in.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "pgnarc/export.h"

namespace pgnarc {

enum class ErrorCode : std::uint8_t {
  InvalidInput,  // the user's data is wrong: bad FEN, illegal SAN, malformed PGN
  Corruption,    // an archive's bytes fail a check: checksum, length, reserved value
  Unsupported,   // well-formed but beyond this implementation: newer version, unknown codec
  IO,            // the operating system refused: open, read, write, rename
};

// A short fixed name for the category ("invalid input", "corruption", ...).
PGNARC_EXPORT const char* to_string(ErrorCode code);

// `text` safe to show on a terminal or write to a log: the bytes a terminal could act on are
// written as escapes (\0, \t, \n, \r, and \xNN for the other C0 controls, DEL, the C1 controls
// of UTF-8 and every byte that is not part of well-formed UTF-8); the rest is unchanged, and so
// is printable text (applying it twice gives what applying it once gives). Every Error message
// passes through it, so that the input a message quotes can never reach a terminal raw.
PGNARC_EXPORT std::string printable(std::string_view text);

class PGNARC_EXPORT Error {
 public:
  Error(ErrorCode code, std::string message) : code_(code), message_(printable(message)) {}
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "<category>: <message>"
  std::string to_string() const;

 private:
  ErrorCode code_;
  std::string message_;
};

// Either a value or an Error. Accessing the wrong alternative is a programming error (asserts via
// std::get's bad_variant_access).
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : err_(std::move(error)), has_error_(true) {}  // NOLINT
  bool ok() const { return !has_error_; }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return err_; }

 private:
  Error err_{ErrorCode::InvalidInput, {}};
  bool has_error_ = false;
};

using Status = Result<void>;

inline Error invalid_input(std::string msg) { return {ErrorCode::InvalidInput, std::move(msg)}; }
inline Error corruption(std::string msg) { return {ErrorCode::Corruption, std::move(msg)}; }
inline Error unsupported(std::string msg) { return {ErrorCode::Unsupported, std::move(msg)}; }
inline Error io_error(std::string msg) { return {ErrorCode::IO, std::move(msg)}; }

}  // namespace pgnarc
