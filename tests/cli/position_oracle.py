#!/usr/bin/python3
"""The position commands against pgn-extract, an independent move generator.

For each PGN file: pack it, unpack it (canonical PGN), and let pgn-extract write the FEN after
every ply of every main line (--fencomments, twice: with its default en passant field, which
follows every double step, and with --nofauxep, which gives it only where a capture is
possible). Then check that
- `pgnarc get A N --fen K` equals pgn-extract's FEN at the start, the middle and the end of
  every game (and --ep legal the --nofauxep one);
- `pgnarc find A --position FEN --count` and `--numbers` equal the games whose main line has
  that FEN (first four fields, from --nofauxep), for positions taken from the games at
  several plies, also on the archive packed with position filters (blocks of 8 games, read
  game by game);
- `pgnarc tree A --position FEN --json` gives each move's games and results as counted from
  the games' moves and Result tags, each game counted where its line first reaches the position;
- `pgnarc share A N` gives a token that `pgnarc share --open` turns into the game's moves and
  start position.

With --every N, the games checked one by one are every N-th (the first, then N later...) and
the positions looked for come from every 9N-th game (the sanitizer build, whose pgnarc is slow).

Usage: position_oracle.py [--every N] PGNARC PGN_EXTRACT WORKDIR FILE.pgn...
"""
import json
import os
import re
import subprocess
import sys

STANDARD_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def run(*args):
    r = subprocess.run(list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (r.returncode, " ".join(args), r.stderr.decode(errors="replace")))
    return r.stdout.decode("latin-1")  # byte for byte: game texts may be in any encoding


def games_of(text):
    """pgn-extract's output as games: (tags, moves, fens), fens[k] the FEN after k plies."""
    games = []
    for block in re.split(r"\n\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', block, re.M))
        movetext = "\n".join(line for line in block.split("\n") if not line.startswith("["))
        fens = [tags.get("FEN", STANDARD_START)]
        moves = []
        for token in re.findall(r"\{[^}]*\}|\S+", movetext):
            if token.startswith("{"):
                fens.append(token[1:-1].strip())
            elif not re.match(r"^(\d+\.+|1-0|0-1|1/2-1/2|\*)$", token):
                moves.append(token)
        if len(fens) != len(moves) + 1:
            sys.exit("pgn-extract output: %d moves, %d FENs in\n%s" % (len(moves), len(fens) - 1, block[:300]))
        games.append((tags, moves, fens))
    return games


def key(fen):
    return " ".join(fen.split()[:4])


def check_file(pgnarc, extract, work, pgn, every):
    name = os.path.splitext(os.path.basename(pgn))[0]
    archive = os.path.join(work, name + ".pga")
    filtered = os.path.join(work, name + ".filtered.pga")
    canonical = os.path.join(work, name + ".pgn")
    run(pgnarc, "pack", "-q", "--force", pgn, "-o", archive)
    run(pgnarc, "pack", "-q", "--force", "--position-filter", "--block-games", "8", pgn, "-o", filtered)
    with open(canonical, "w", encoding="latin-1") as f:
        f.write(run(pgnarc, "unpack", archive))
    common = [extract, "--fencomments", "--novars", "-C", "-N", "-V", "-w", "1000000", "-s", canonical]
    faux = games_of(run(*common))
    legal = games_of(run(*common[:-1], "--nofauxep", canonical))
    count = json.loads(run(pgnarc, "info", "--json", archive))["games"]
    if len(faux) != count or len(legal) != count:
        sys.exit("%s: pgn-extract read %d games, the archive holds %d" % (name, len(faux), count))

    checked = shared = 0
    for n, ((tags, moves, fens), (_, _, legal_fens)) in enumerate(zip(faux, legal), 1):
        if (n - 1) % every:
            continue
        for k in sorted({0, len(moves) // 2, len(moves)}):
            got = run(pgnarc, "get", archive, str(n), "--fen", str(k)).strip()
            if got != fens[k]:
                sys.exit("%s game %d ply %d: pgnarc --fen %r, pgn-extract %r" % (name, n, k, got, fens[k]))
            got = run(pgnarc, "get", archive, str(n), "--fen", str(k), "--ep", "legal").strip()
            if got != legal_fens[k]:
                sys.exit("%s game %d ply %d: pgnarc --ep legal %r, pgn-extract --nofauxep %r"
                         % (name, n, k, got, legal_fens[k]))
            checked += 1
        token = run(pgnarc, "share", archive, str(n)).strip()
        opened = run(pgnarc, "share", "--open", token)
        moves_back = [t for t in re.findall(r"\S+", opened.split("\n\n", 1)[1])
                      if not re.match(r"^(\d+\.+|1-0|0-1|1/2-1/2|\*)$", t)]
        if moves_back != moves:
            sys.exit("%s game %d: share token %s opens to %s, not %s" % (name, n, token, moves_back[:8], moves[:8]))
        start = re.search(r'^\[FEN "(.*)"\]$', opened, re.M)
        if ("FEN" in tags) != bool(start) or (start and start.group(1).split()[:3] != fens[0].split()[:3]):
            sys.exit("%s game %d: share token %s opens to another start" % (name, n, token))
        shared += 1

    # Positions to look for: from every ninth game (9N-th), its start, plies 2, 7 and 20, its end.
    targets = []
    for tags, moves, fens in legal[::9 * every]:
        for k in (0, 2, 7, 20, len(moves)):
            if k <= len(moves) and fens[k] not in targets:
                targets.append(fens[k])
    for target in targets:
        want = [n for n, (_, _, fens) in enumerate(legal, 1) if key(target) in map(key, fens)]
        got = run(pgnarc, "find", archive, "--position", target, "--numbers").split()
        if list(map(int, got)) != want:
            sys.exit("%s: --position %r: pgnarc %s, pgn-extract %s" % (name, target, got[:20], want[:20]))
        if int(run(pgnarc, "find", archive, "--position", target, "--count")) != len(want):
            sys.exit("%s: --position %r: --count differs from --numbers" % (name, target))
        got = run(pgnarc, "find", filtered, "--position", target, "--numbers").split()
        if list(map(int, got)) != want:
            sys.exit("%s: --position %r with position filters: pgnarc %s, pgn-extract %s" % (name, target, got[:20], want[:20]))

        moves_want = {}
        for n in want:
            tags, moves, fens = legal[n - 1]
            k = list(map(key, fens)).index(key(target))
            if k == len(moves):
                continue
            san = moves[k].rstrip("+#!?")
            entry = moves_want.setdefault(san, [0, 0, 0, 0])
            entry[0] += 1
            result = tags.get("Result")
            entry[1] += result == "1-0"
            entry[2] += result == "1/2-1/2"
            entry[3] += result == "0-1"
        tree = json.loads(run(pgnarc, "tree", archive, "--position", target, "--json"))
        if json.loads(run(pgnarc, "tree", filtered, "--position", target, "--json")) != tree:
            sys.exit("%s: tree %r differs with position filters" % (name, target))
        if tree["games"] != len(want):
            sys.exit("%s: tree %r: %d games, pgn-extract %d" % (name, target, tree["games"], len(want)))
        moves_got = {m["san"].rstrip("+#"): [m["games"], m["white"], m["draws"], m["black"]] for m in tree["moves"]}
        if moves_got != moves_want:
            sys.exit("%s: tree %r: pgnarc %s, pgn-extract %s" % (name, target, moves_got, moves_want))
        counts = [m["games"] for m in tree["moves"]]
        if counts != sorted(counts, reverse=True):
            sys.exit("%s: tree %r: moves not ordered by games: %s" % (name, target, counts))
    print("%s: %d games, %d FENs, %d positions and %d share tokens agree with pgn-extract"
          % (name, count, 2 * checked, len(targets), shared))
    return len(targets)


def main():
    args = sys.argv[1:]
    every = 1
    if args[:1] == ["--every"]:
        every = int(args[1])
        args = args[2:]
        if every < 1:
            sys.exit("--every %d: N must be 1 or more" % every)
    pgnarc, extract, work = args[:3]
    os.makedirs(work, exist_ok=True)
    total = sum(check_file(pgnarc, extract, work, pgn, every) for pgn in args[3:])
    if total == 0:
        sys.exit("no positions were checked")


if __name__ == "__main__":
    main()
