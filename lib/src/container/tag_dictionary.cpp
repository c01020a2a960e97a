#include "container/tag_dictionary.h"

#define ZDICT_STATIC_LINKING_ONLY  // ZDICT_trainFromBuffer_fastCover
#include <zdict.h>

#include <algorithm>
#include <unordered_map>

#include "common/endian.h"
#include "common/zstd_frame.h"
#include "container/element.h"

namespace pgnarc::container {

using common::get_le;
using common::put_le;

std::shared_ptr<const WriterDictionary> WriterDictionary::make(std::string content, int level) {
  const unsigned id = ZDICT_getDictID(content.data(), content.size());
  if (id == 0 || content.size() > kMaxDictionaryBytes) return nullptr;
  std::shared_ptr<WriterDictionary> d(new WriterDictionary());
  d->id_ = id;
  d->content_ = std::move(content);
  d->cdict_ = ZSTD_createCDict(d->content_.data(), d->content_.size(), level);
  if (!d->cdict_) return nullptr;
  return d;
}

WriterDictionary::~WriterDictionary() { ZSTD_freeCDict(cdict_); }

std::string WriterDictionary::compress(std::string_view plain) const { return common::compress_frame(plain, cdict_); }

namespace {

// `sections` cut into samples of 4 KiB (a section's last one shorter), for zstd's trainer.
struct Samples {
  std::string bytes;
  std::vector<std::size_t> sizes;
  explicit Samples(const std::vector<std::string>& sections) {
    constexpr std::size_t kSample = 4096;
    for (const std::string& sec : sections)
      for (std::size_t at = 0; at < sec.size(); at += kSample) {
        sizes.push_back(std::min(kSample, sec.size() - at));
        bytes.append(sec, at, sizes.back());
      }
  }
  unsigned count() const { return static_cast<unsigned>(sizes.size()); }
};

}  // namespace

std::string train_tag_dictionary(const std::vector<std::string>& sections, std::size_t capacity,
                                 DictionaryTraining training) {
  const Samples samples(sections);
  std::string dict(capacity, '\0');
  std::size_t n;
  if (training == DictionaryTraining::kSearch) {
    n = ZDICT_trainFromBuffer(dict.data(), dict.size(), samples.bytes.data(), samples.sizes.data(), samples.count());
  } else {
    // The search's parameters (segments of d = 8 bytes, f = 20, accel 1, level 3), with its
    // most frequent choice of segment size k.
    ZDICT_fastCover_params_t once{};
    once.k = 537;
    once.d = 8;
    once.f = 20;
    once.accel = 1;
    once.zParams.compressionLevel = 3;
    n = ZDICT_trainFromBuffer_fastCover(dict.data(), dict.size(), samples.bytes.data(), samples.sizes.data(),
                                        samples.count(), once);
  }
  if (ZDICT_isError(n)) return {};
  dict.resize(n);
  return dict;
}

std::string whole_dictionary(const std::vector<std::string>& sections, std::size_t capacity, int level) {
  const Samples samples(sections);
  if (capacity < ZDICT_DICTSIZE_MIN || samples.bytes.size() < ZDICT_CONTENTSIZE_MIN) return {};
  // The content's last bytes that fit with the header (entropy tables of at most a few hundred
  // bytes; ZDICT_finalizeDictionary cuts the content's beginning if they take more).
  const std::size_t room = capacity > 2048 ? capacity - 1024 : capacity / 2;
  const std::string_view content = std::string_view(samples.bytes).substr(samples.bytes.size() - std::min(room, samples.bytes.size()));
  std::string dict(capacity, '\0');
  ZDICT_params_t params{};
  params.compressionLevel = level;
  const std::size_t n = ZDICT_finalizeDictionary(dict.data(), dict.size(), content.data(), content.size(),
                                                 samples.bytes.data(), samples.sizes.data(), samples.count(), params);
  if (ZDICT_isError(n)) return {};
  dict.resize(n);
  return dict;
}

std::string repeated_codewords(const std::vector<std::string_view>& moves,
                               const std::vector<std::vector<std::uint32_t>>& group_bytes) {
  constexpr std::size_t kMinRepeated = 16;
  std::unordered_map<std::string_view, bool> seen;  // whether it is in the output already
  std::string out;
  for (std::size_t b = 0; b < group_bytes.size(); ++b) {
    std::size_t at = 0;
    for (std::uint32_t n : group_bytes[b]) {
      const std::string_view codeword = moves[b].substr(at, n);
      at += n;
      if (n < kMinRepeated) continue;
      auto [it, first] = seen.emplace(codeword, false);
      if (!first && !it->second) {
        it->second = true;
        out += codeword;
      }
    }
  }
  return out;
}

std::string encode_dictionary_element(const WriterDictionary& dict, const StoreOptions& options) {
  std::string head(kDictionaryMagic, 4);  // magic, ID; then encoding, 3 reserved bytes
  put_le(head, dict.id(), 4);
  StoreOptions element = options;
  element.zstd_level = options.dictionary_level;
  return encode_element(kDictionaryShape, std::move(head), dict.content(), element);
}

std::size_t dictionary_element_size(std::string_view b) { return element_size(b, kDictionaryShape); }

ReaderDictionaries::~ReaderDictionaries() {
  for (auto& [id, d] : entries_) ZSTD_freeDDict(d);
}

Status decode_dictionary_element(std::string_view element, const Where& where, std::uint32_t& id,
                               std::string& content) {
  if (auto st = decode_element(element, where, kDictionaryShape, nullptr, content); !st) return st;
  id = static_cast<std::uint32_t>(get_le(element.data() + 4, 4));
  // A Zstandard dictionary (RFC 8878, 5): magic EC30A437, then the ID the element gives.
  if (content.size() < 8 || get_le(content.data(), 4) != 0xEC30A437u || get_le(content.data() + 4, 4) != id || id == 0)
    return corruption(where + ": not a Zstandard dictionary of the element's ID (dictionary byte " +
                      std::to_string(kDictionaryHeaderSize) + ")");
  return {};
}

Status ReaderDictionaries::add(std::string_view element, const Where& where, std::uint32_t expected_id,
                               std::string* content_out) {
  std::string own;
  std::string& content = content_out ? *content_out : own;
  std::uint32_t id;
  if (auto st = decode_dictionary_element(element, where, id, content); !st) return st;
  if (expected_id && id != expected_id)
    return corruption(where + ": holds dictionary " + std::to_string(id) + ", the index says " + std::to_string(expected_id));
  if (find(id)) return corruption(where + ": a second dictionary with ID " + std::to_string(id));
  ZSTD_DDict* d = ZSTD_createDDict(content.data(), content.size());
  if (!d) return corruption(where + ": the dictionary cannot be loaded");
  entries_.emplace_back(id, d);
  return {};
}

const ZSTD_DDict* ReaderDictionaries::find(std::uint32_t id) const {
  for (const auto& [i, d] : entries_)
    if (i == id) return d;
  return nullptr;
}

}  // namespace pgnarc::container
