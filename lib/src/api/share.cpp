#include "pgnarc/share.h"

#include "codec/position/share_token.h"

namespace pgnarc {

Result<std::string> share_token(const Game& game) {
  auto bytes = codec::encode_token(game);
  if (!bytes) return bytes.error();
  return codec::base64url(*bytes);
}

Result<Game> open_share_token(std::string_view token) {
  std::string bytes;
  if (!codec::from_base64url(token, bytes)) {
    std::string shown(1, '\'');
    shown.append(token.substr(0, 80)).push_back('\'');
    const std::size_t bad = token.find_first_not_of(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");
    if (bad != std::string_view::npos)
      return invalid_input("not a share token: " + shown + " holds '" + std::string(1, token[bad]) + "' at character " +
                           std::to_string(bad + 1) + ", which is not base64url (A-Z a-z 0-9 - _, no padding)");
    if (token.size() % 4 == 1)
      return invalid_input("not a share token: " + shown + " is " + std::to_string(token.size()) +
                           " characters, a length no base64url text has (4k + 1)");
    return invalid_input("not a share token: " + shown + " ends in a character whose unused bits are not 0");
  }
  return codec::decode_token(bytes);
}

}  // namespace pgnarc
