#include "pgnarc/share.h"

#include "codec/position/share_token.h"

namespace pgnarc {

Result<std::string> share_token(const Game& game) {
  auto bytes = detail::encode_token(game);
  if (!bytes) return bytes.error();
  return detail::base64url(*bytes);
}

Result<Game> open_share_token(std::string_view token) {
  std::string bytes;
  if (!detail::from_base64url(token, bytes))
    return invalid_input("not a share token: '" + std::string(token.substr(0, 80)) +
                         "' is not base64url (A-Z a-z 0-9 - _, no padding)");
  return detail::decode_token(bytes);
}

}  // namespace pgnarc
