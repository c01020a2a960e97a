#include "container/element.h"

#include <cstring>

#include "common/endian.h"
#include "common/hash.h"
#include "common/zstd_frame.h"
#include "container/tag_dictionary.h"

namespace pgnarc::container {

using common::get_le;
using common::hash64;
using common::put_le;

std::string encode_element(const ElementShape& shape, std::string head, std::string_view content,
                         const StoreOptions& options, const WriterDictionary* dict) {
  std::string packed;
  std::uint8_t encoding = kStored;
  if (options.compress) {
    packed = common::compress_frame(content, options.zstd_level);
    if (!packed.empty() && packed.size() < content.size()) encoding = kZstd;
    if (dict) {
      std::string with = dict->compress(content);
      if (!with.empty() && with.size() < (encoding == kZstd ? packed.size() : content.size())) {
        packed.swap(with);
        encoding = kZstdDictionary;
      }
    }
  }
  const std::string_view stored = encoding == kStored ? content : std::string_view(packed);
  head += static_cast<char>(encoding);
  put_le(head, 0, static_cast<int>(shape.reserved_bytes));
  put_le(head, stored.size(), 4);
  put_le(head, content.size(), 4);
  head += stored;
  put_le(head, hash64(head), 8);
  return head;
}

std::uint64_t element_declared_size(std::string_view head, const ElementShape& shape) {
  if (head.size() < shape.header_size || std::memcmp(head.data(), shape.magic, 4) != 0) return 0;
  return shape.header_size + get_le(head.data() + shape.stored_size_at, 4) + 8;
}

std::size_t element_size(std::string_view b, const ElementShape& shape) {
  const std::uint64_t total = element_declared_size(b, shape);
  return total && total <= b.size() ? static_cast<std::size_t>(total) : 0;
}

Status decode_element(std::string_view b, const Where& where, const ElementShape& shape,
                    const ReaderDictionaries* dictionaries, std::string& content) {
  const std::string name = shape.name;
  auto bad = [&](const std::string& what, std::size_t at) { return corruption(where + ": " + what + where.byte(at, name)); };
  if (b.size() < shape.header_size + 8) return bad("shorter than a " + name + " element", 0);
  if (get_le(b.data() + b.size() - 8, 8) != hash64(b.substr(0, b.size() - 8))) return bad("checksum mismatch", b.size() - 8);
  if (std::memcmp(b.data(), shape.magic, 4) != 0) return bad("bad " + name + " magic", 0);
  const auto encoding = static_cast<std::uint8_t>(b[shape.encoding_at]);
  if (encoding > kZstd && !(shape.dictionary_encoding && encoding == kZstdDictionary))
    return bad("unknown " + name + " encoding", shape.encoding_at);
  if (get_le(b.data() + shape.reserved_at, static_cast<int>(shape.reserved_bytes)) != 0)
    return bad("reserved bytes not zero", shape.reserved_at);
  const std::uint64_t stored = get_le(b.data() + shape.stored_size_at, 4), raw = get_le(b.data() + shape.stored_size_at + 4, 4);
  if (shape.header_size + stored + 8 != b.size()) return bad("stored size does not match the element's size", shape.stored_size_at);
  if (raw > shape.max_raw || (encoding == kStored && raw != stored)) return bad("bad " + name + " size", shape.stored_size_at + 4);
  const std::string_view body = b.substr(shape.header_size, stored);
  const ZSTD_DDict* ddict = nullptr;
  if (encoding == kZstdDictionary) {  // the frame names a dictionary of the archive
    const std::uint32_t id = common::frame_dictionary_id(body);
    ddict = id && dictionaries ? dictionaries->find(id) : nullptr;
    if (!ddict) return bad("names tag dictionary " + std::to_string(id) + ", which the archive does not hold", shape.header_size);
  }
  if (encoding == kStored) content.assign(body);
  else if (!common::decompress_exact(body, static_cast<std::uint32_t>(raw), content, ddict))
    return bad("does not decompress to its size", shape.header_size);
  return {};
}

}  // namespace pgnarc::container
