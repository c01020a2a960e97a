// Tag dictionaries (9.9): a Zstandard dictionary trained on an archive's tags sections, kept
// once in the file as an element, with which tags sections and name chunks are compressed.
#pragma once

#include <zstd.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "container/format.h"
#include "container/where.h"
#include "pgnarc/status.h"

namespace pgnarc::container {

// A tag dictionary as the writer uses it: its ID, its bytes and the digested form for
// compression (shared by all threads).
class WriterDictionary {
 public:
  // Null if `content` is not a usable dictionary.
  static std::shared_ptr<const WriterDictionary> make(std::string content, int level);
  ~WriterDictionary();
  WriterDictionary(const WriterDictionary&) = delete;
  WriterDictionary& operator=(const WriterDictionary&) = delete;
  std::uint32_t id() const { return id_; }
  const std::string& content() const { return content_; }
  // `plain` as one zstd frame made with the dictionary (its header names the dictionary and the
  // content size), or nothing if that fails.
  std::string compress(std::string_view plain) const;

 private:
  WriterDictionary() = default;
  std::uint32_t id_ = 0;
  std::string content_;
  ZSTD_CDict* cdict_ = nullptr;
};

// How a tag dictionary is trained: zstd's search over four segment sizes (each trained and
// tried; four times the work), or one training at the segment size that search picks on most
// collections (TWIC, PGN Mentor, lichess; the archives within 0.4% of the search's, either way).
enum class DictionaryTraining { kSearch, kOnce };

// Trains a dictionary of at most `capacity` bytes on `sections` (cut into 4 KiB samples);
// empty if training fails (too little or too uniform input).
std::string train_tag_dictionary(const std::vector<std::string>& sections, std::size_t capacity,
                                 DictionaryTraining training);

// A dictionary of at most `capacity` bytes whose content is the end of `sections` as they are
// (all of them where they fit), with zstd's entropy tables for compression at `level`; empty if
// zstd refuses them (too little input). Of tags sections (a tag dictionary) or of texts and raw
// streams (a text dictionary).
std::string whole_dictionary(const std::vector<std::string>& sections, std::size_t capacity, int level);

// The codewords (a directory group's bytes of a moves section: a game's, where a group holds
// one) that two or more groups of `moves` have, of at least 16 bytes (shorter ones are left to
// the sections a dictionary holds), once each, in the order in which each is first repeated:
// the repeated codewords of a moves dictionary (9.9). `moves`: each block's moves
// section; `group_bytes`: each block's groups' sizes.
std::string repeated_codewords(const std::vector<std::string_view>& moves,
                               const std::vector<std::vector<std::uint32_t>>& group_bytes);

// The dictionary element that carries `dict` (its content zstd-compressed where that is
// smaller and options.compress).
std::string encode_dictionary_element(const WriterDictionary& dict, const StoreOptions& options);
// The size of the dictionary element at the start of `bytes`, read from its header (0 if it
// does not start with one or its sizes run past `bytes`); nothing is checked but the magic.
std::size_t dictionary_element_size(std::string_view bytes);

// The ID and content of a checked dictionary element (DICT-1), for copying it between archives.
Status decode_dictionary_element(std::string_view element, const Where& where, std::uint32_t& id,
                               std::string& content);

// The tag dictionaries of an archive, by ID, ready for decompression.
class ReaderDictionaries {
 public:
  ReaderDictionaries() = default;
  ~ReaderDictionaries();
  ReaderDictionaries(const ReaderDictionaries&) = delete;
  ReaderDictionaries& operator=(const ReaderDictionaries&) = delete;
  // Checks a dictionary element (DICT-1) and adds its dictionary; `where` prefixes errors.
  // `expected_id`, if not 0, is the ID the index gives it; `content`, if given, receives the
  // dictionary's bytes (for copying it into another archive).
  Status add(std::string_view element, const Where& where, std::uint32_t expected_id = 0,
             std::string* content = nullptr);
  // The digested dictionary of `id`, or null.
  const ZSTD_DDict* find(std::uint32_t id) const;
  bool empty() const { return entries_.empty(); }

 private:
  std::vector<std::pair<std::uint32_t, ZSTD_DDict*>> entries_;
};

}  // namespace pgnarc::container
