#include "pgnarc/status.h"
#include "pgnarc/version.h"

namespace pgnarc {

const char* to_string(ErrorCode code) {
  // No default: a new code without a name fails to compile (-Wswitch, -Werror=return-type).
  switch (code) {
    case ErrorCode::InvalidInput: return "invalid input";
    case ErrorCode::Corruption: return "corruption";
    case ErrorCode::Unsupported: return "unsupported";
    case ErrorCode::IO: return "I/O error";
  }
  return "unknown error";
}

std::string Error::to_string() const { return std::string(pgnarc::to_string(code_)) + ": " + message_; }

const char* library_version() { return PGNARC_VERSION_STRING; }

}  // namespace pgnarc
