// A block's position filter (spec 9.3.1): the set of its main lines' positions, by a key of
// their pawns and material, as a Golomb-Rice coded set of hash values, so that a position
// search skips the blocks that cannot hold its position without decoding their games.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pgnarc/game.h"

namespace pgnarc::container {

// The filter key of a position: XXH64 (seed 0) of its White pawns' and Black pawns' squares
// (two bitboards, 8 bytes each, little-endian) and its numbers of White knights, bishops,
// rooks and queens, then Black's (a byte each). Positions that differ only in their pieces'
// squares share a key; a main line's keys change only with pawn moves, captures and promotions.
std::uint64_t filter_key(const Position& p);

// How far a position is from the start: the fewest pawn moves that can have led to its pawns
// (for each pawn on the k-th rank from its side's first, 0 for k = 2, 1 for k = 3 or 4, k - 3
// above) plus the pieces missing from 32.
int progress(const Position& p);
// Positions of less progress (openings, found in most blocks) have no keys in a filter, which
// would never let a search skip a block for them: a search for one reads every block.
inline constexpr int kFilterMinProgress = 10;

// Appends the keys of the positions of `game`'s main line (its start and after each ply) of at
// least kFilterMinProgress. Nothing for a game whose tags give no start position or
// whose moves are not legal.
void add_filter_keys(const Game& game, std::vector<std::uint64_t>& keys);

// The filter of `keys` (any order, repeats allowed): varint count, varint range, byte k, then
// the Rice codes; with no keys, the empty string (no filter).
std::string make_filter(std::vector<std::uint64_t> keys);

// Whether a filter holds every key of `keys` (any order), read as a stream of codes (a filter of
// 2^31 values takes no memory); false, with `bad` set, if the filter is not one (BLOCK-6: a
// count past its end, a range below the count, k above 32, values outside the range, bytes or
// bits after the last code that are not 0).
bool filter_holds(std::string_view filter, std::vector<std::uint64_t> keys, bool& bad);

// The Rice parameter this writer uses: about 1 block in 2^5 that lacks a key lets it through.
inline constexpr int kFilterRiceBits = 5;

}  // namespace pgnarc::container
