// What the search commands share: a position given on the command line, a search with its
// progress line and its note of the games it could not search, and names looked for in an
// archive's encoding.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pgnarc/archive.h"

namespace pgnarc::cli {

// The position of `fen` (none: the start; an empty one is a bad FEN) under `variant` after the
// SAN moves of `moves` (separated by spaces; move numbers like "1." and "1..." are skipped). A bad
// FEN or move is InvalidInput naming the option (`fen_name`, `moves_name`) and the reason.
Result<Position> parse_position_arg(const std::optional<std::string>& fen, const std::string& moves,
                                    Variant variant = Variant::kStandard, const char* fen_name = "--position",
                                    const char* moves_name = "--moves");

// archive.find_position with a progress line; unless --quiet, says on stderr how many games
// kept verbatim were not searched, how many blocks the position filters skipped, and, where the
// archive has none and the search took over a second, that pack --position-filter would help.
Result<PositionHits> search_position(Archive& archive, const Position& target, unsigned threads);

// Whether `fen` is written as a Xiangqi FEN: ten ranks in its placement (a chess FEN has eight).
bool is_xiangqi_fen(const std::string& fen);
// `q`'s names and tag values (UTF-8, as typed) in the encoding iconv names `encoding` ("GB18030"
// or "BIG5"), its names_encoding set to match: a search of an archive whose tags are written in
// it (find --names-in, serve --encoding). Returns "" or, where the encoding cannot write a text,
// why, naming its field as `prefix` + the field's name ("--white", "white").
std::string query_in_encoding(Query& q, const std::string& encoding, const std::string& prefix);

// archive.find_xiangqi_position with a progress line; unless --quiet, says on stderr how many
// games kept verbatim were not searched.
Result<PositionHits> search_xiangqi_position(Archive& archive, const std::string& fen, unsigned threads);

// The hits of the games among `matches` (ascending, as Archive::find gives them), in order; every
// hit where `matches` is null.
std::vector<PositionHit> hits_among(const PositionHits& hits, const std::vector<std::uint64_t>* matches);

}  // namespace pgnarc::cli
