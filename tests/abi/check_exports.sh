#!/usr/bin/env bash
# Checks the dynamic symbol table of a shared libpgnarc against the public API:
#   - no exported symbol lies in an internal namespace (a lower-case namespace inside pgnarc:
#     common, rules, pgn, codec, container, api, ...) or in an anonymous namespace, and
#     none is a member of a public class's private part (its Impl);
#   - every exported name of namespace pgnarc is one the public headers declare (pgnarc::NAME,
#     NAME a word of INCLUDE_DIR.../pgnarc/*.h), so that no internal function of pgnarc itself
#     slips out either;
#   - every entry point below, one or more from each public header, is exported (with the
#     private members that the headers' inline functions call).
#   check_exports.sh NM LIBRARY INCLUDE_DIR...  (the directories of the public headers)
set -euo pipefail
nm="$1"
lib="$2"
shift 2
headers=()
for dir in "$@"; do headers+=("$dir"/pgnarc/*.h); done
# (Without the ABI tags of names whose types hold a std::string: "f[abi:cxx11](...)" is "f(...)".)
symbols="$("$nm" -DC --defined-only "$lib" | cut -d' ' -f3- | sed 's/\[abi:[a-z0-9]*\]//g')"
[ -n "$symbols" ] || { echo "check_exports: $lib exports nothing"; exit 1; }
status=0

leaked="$(grep -E 'pgnarc::[a-z_][a-z0-9_]*::|\(anonymous namespace\)|::Impl::' <<<"$symbols" || true)"
if [ -n "$leaked" ]; then
  echo "check_exports: $(wc -l <<<"$leaked") internal symbols exported by $lib, such as:"
  head -20 <<<"$leaked"
  status=1
fi

declared="$(cat "${headers[@]}" | grep -oE '[A-Za-z_][A-Za-z0-9_]*' | sort -u)"
undeclared="$(sed -nE 's/^(vtable for |typeinfo for |typeinfo name for |guard variable for )?pgnarc::([A-Za-z_][A-Za-z0-9_]*).*/\2/p' \
  <<<"$symbols" | sort -u | comm -23 - <(cat <<<"$declared"))"
if [ -n "$undeclared" ]; then
  echo "check_exports: $lib exports names of pgnarc that no public header declares:"
  head -20 <<<"$undeclared"
  status=1
fi

# Each a prefix of a demangled name.
required=(
  'pgnarc::to_string(pgnarc::ErrorCode)'                # status.h
  'pgnarc::printable('
  'pgnarc::Error::to_string() const'
  'pgnarc::square_name('                                # chess.h
  'pgnarc::variant_from_name('
  'pgnarc::Position::Position()'
  'pgnarc::Position::from_fen('
  'pgnarc::Position::fen() const'
  'pgnarc::Position::legal_moves() const'
  'pgnarc::Position::san('
  'pgnarc::Position::parse_san('
  'pgnarc::Position::play_special('                     # called by the inline Position::play
  'pgnarc::same_position('
  'pgnarc::Game::tag('                                  # game.h
  'pgnarc::start_position('
  'pgnarc::fen_after('
  'pgnarc::GameWalker::step('
  'pgnarc::position_after('
  'pgnarc::double_step_square('
  'pgnarc::board_svg('                                  # board_svg.h
  'pgnarc::board_svg_after('
  'pgnarc::xiangqi_board_svg('
  'pgnarc::read_comment('                               # game_tree.h
  'pgnarc::game_tree('
  'pgnarc::node_fens('
  'pgnarc::open_input('                                 # pgn.h
  'pgnarc::PgnReader::open('
  'pgnarc::PgnReader::next('
  'pgnarc::parse_game('
  'pgnarc::GameBuilder::tag('
  'vtable for pgnarc::GameBuilder'
  'typeinfo for pgnarc::GameBuilder'
  'pgnarc::write_pgn('
  'pgnarc::Archive::open('                              # archive.h
  'pgnarc::Archive::read_pgn('
  'pgnarc::Archive::find('
  'pgnarc::section_name('
  'pgnarc::position_tree('
  'pgnarc::xiangqi_fen_after('
  'pgnarc::archive_info_json('
  'pgnarc::ArchiveWriter::create('                      # archive_writer.h
  'pgnarc::ArchiveWriter::add_pgn('
  'pgnarc::ArchiveWriter::finish()'
  'pgnarc::query_error('
  'pgnarc::elo_of_from_name('                                # query.h
  'pgnarc::salvage_pgn('                                # salvage.h
  'pgnarc::share_token('                                # share.h
  'pgnarc::open_share_token('
  'pgnarc::library_version()'                           # version.h
)
for name in "${required[@]}"; do
  if ! awk -v p="$name" 'index($0, p) == 1 { found = 1; exit } END { exit !found }' <<<"$symbols"; then
    echo "check_exports: $lib does not export $name"
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "check_exports: $(wc -l <<<"$symbols") symbols, none internal; the ${#required[@]} entry points exported"
exit "$status"
