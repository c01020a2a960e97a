"""Checks of moves.py against the built pgnarc used as a black box (no source read).

Run: /usr/bin/python3 format-spec/reference/blackbox_moves.py PATH/TO/pgnarc [games-per-random-file]
Three checks:
1. tokens: every game of corpus/pgn/*.pgn and of random games (standard, Chess960 and random
   FEN starts, written in SAN by moves.py) is packed, shared as a token, opened by moves.py and
   compared byte for byte with `pgnarc share --open`; the random games' movetext must come back
   from `pgnarc unpack` as moves.py wrote it (SAN of section 10).
2. position columns (9.4.4): the FEN column of a stored (--store) archive's first block is
   found in its tags section and decoded by decode_position_column.
3. null moves (model with king captures, 5.3 / 7.6.5 / 7.8.3): single-game stored archives whose
   main line has null moves (some in check, then a king capture) are decoded move by move, packed
   with the model coder and with the fast coder (format 1.2: the opening book at the first plies,
   then the fast model, 7.8); so are real games (the first of corpus/pgn/twic_events.pgn,
   lichess_2016-05_no_event.pgn and chess960_misc.pgn), with both coders.
4. variants (format 1.1, 5.6): random games of each variant (from its start and from FENs that
   moves.py writes, some with null moves), written in SAN by moves.py, tagged and untagged
   (pack --variant), packed with the model coder (--moves model, whose blocks code crazyhouse
   with the crazyhouse model of 7.7, three-check and king of the hill with the move model and
   the other variants with uniform frequencies: MOVE-CODER-1), with and without a position
   filter, with the fast coder (pack's default: three-check and king of the hill
   with the fast model of 7.8, the others as under the model coder) and with the uniform coder
   (--moves uniform); the first block's move coder
   must be the one asked for, pgnarc unpack must give back moves.py's movetext, and decode.py
   must give byte for byte what pgnarc unpack gives; and the legal moves of positions of those
   games, in order, must be those of `pgnarc perft FEN 1 --divide --variant NAME`.
"""

import glob
import os
import random
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import moves as M  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, os.pardir, os.pardir))
PGNARC = "pgnarc"  # the binary under test: main() sets it from the command line
TMP = "/tmp/blackbox_moves_%d" % os.getpid()


def run(*args):
    return subprocess.run([PGNARC, *args], capture_output=True)


def pack(pgn, out, *options):
    r = run("pack", pgn, "-o", out, "--force", *options)
    return int(re.search(rb"(\d+) games", r.stdout + r.stderr).group(1))


def write_game(start, moves, tags):
    """PGN of a game moves.py plays from `start` (None in moves: a null move)."""
    sans, position = [], start
    for m in moves:
        sans.append("--" if m is None else position.san(m))
        position = position.play_null() if m is None else position.play(m)
    tokens = M.numbered_moves(start, moves, sans)
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags)
    return head + ("\n" if head else "") + " ".join(tokens + ["*"]) + "\n\n"


def random_start(rnd, kind):
    if kind == "std":
        return M.Position.standard(), []
    if kind == "960":
        a = rnd.randrange(960)
        b = a if rnd.random() < 0.7 else rnd.randrange(960)
        p = M.Position.chess960_start(a, b)
        return p, [("Variant", "Chess960"), ("SetUp", "1"), ("FEN", p.fen().decode())]
    while True:                       # a random position reached by random play, as a FEN
        p = M.Position.standard() if rnd.random() < 0.5 else M.Position.chess960_start(
            rnd.randrange(960), rnd.randrange(960))
        for _ in range(rnd.randrange(1, 120)):
            legal = p.legal_moves()
            if not legal:
                break
            p = p.play(rnd.choice(legal))
        if p.legal_moves():
            fen = p.fen() if rnd.random() < 0.7 else b" ".join(p.fen().split()[:4])
            tags = [("SetUp", "1"), ("FEN", fen.decode())]
            if rnd.random() < 0.5:
                tags.append(("Variant", "Chess960"))
            return M.Position.from_fen(fen), tags


def random_games(rnd, kind, count, nulls=False):
    games = []
    for _ in range(count):
        start, tags = random_start(rnd, kind)
        position, moves, bias = start, [], rnd.random()
        for _ in range(rnd.randrange(0, 250)):
            legal = position.legal_moves()
            if not legal:
                break
            if nulls and (rnd.random() < 0.1 or (position.in_check() and rnd.random() < 0.5)):
                m = None
            else:
                kings = [m for m in legal if M.ptype_of(position.board[m.to_sq] or 1) == M.KING
                         and position.board[m.to_sq]]
                sharp = [m for m in legal if position.is_capture(m) or m.promotion]
                m = rnd.choice(kings or (sharp if sharp and rnd.random() < bias else legal))
            moves.append(m)
            position = position.play_null() if m is None else position.play(m)
        games.append((start, moves, tags))
    return games


def check_tokens(pgn, every=1):
    """Each game's token (`pgnarc share`) opened here and by `pgnarc share --open`: the same
    game. `every`: only games 1, 1 + every, ... (two runs of pgnarc a game)."""
    n = pack(pgn, TMP + ".pga")
    good = total = 0
    for i in range(1, n + 1, every):
        r = run("share", TMP + ".pga", str(i))
        if r.returncode != 0:
            continue                                  # a variant, or null moves
        token = r.stdout.decode().strip()
        expected = run("share", "--open", token).stdout
        total += 1
        try:
            got = M.open_share_token(token).pgn()
        except M.FormatError as e:
            got = repr(e).encode()
        if got == expected:
            good += 1
        elif total - good <= 3:
            print(f"  TOKEN MISMATCH {pgn} game {i}: {token}")
    return good, total


def check_movetext(pgn):
    """Each game's movetext as moves.py wrote it equals pgnarc's canonical one."""
    pack(pgn, TMP + ".pga")
    def movetexts(text):
        return [" ".join(part.split()) for part in text.split("\n\n")
                if part.strip() and not part.startswith("[")]
    out = movetexts(run("unpack", TMP + ".pga").stdout.decode("latin-1"))
    mine = movetexts(open(pgn, encoding="latin-1").read())
    return sum(a == b for a, b in zip(mine, out)) if len(mine) == len(out) else 0, len(mine)


def first_block_codec_and_coder(path):
    """The move codec (byte 4) and move coder (byte 7) of the first block's header (9.3)."""
    data = open(path, "rb").read(0x20 + 8)
    if data[0x20:0x24] != b"PGAB":
        return None, None
    return data[0x20 + 4], data[0x20 + 7]


def first_block_sections(path):
    data = open(path, "rb").read()
    block = 0x20                                      # after the 32-byte file header (9.2)
    assert data[block:block + 4] == b"PGAB"
    games = struct.unpack_from("<I", data, block + 8)[0]
    count = data[block + 5]
    sizes = [struct.unpack_from("<III", data, block + 12 + 12 * i)[1] for i in range(count)]
    offset, sections = block + 12 + 12 * count, []
    for size in sizes:
        sections.append(data[offset:offset + size])
        offset += size
    return games, sections


def check_position_column(pgn):
    pack(pgn, TMP + ".pga", "--store", "--dict-kib", "0")
    games, sections = first_block_sections(TMP + ".pga")
    text = run("unpack", TMP + ".pga").stdout.decode("latin-1").split("\n\n")[0::2][:games]
    fens = [m.group(1).encode("latin-1") for g in text
            for m in [re.search(r'^\[FEN "(.*)"\]$', g, re.M)] if m]
    tags = sections[0]
    for j in range(len(tags)):                        # find the column body by trying
        try:
            values, _ = M.decode_position_column(tags[j:], len(fens))
        except (M.FormatError, IndexError):
            continue
        coded = [(v, f) for v, f in zip(values, fens) if v is not None]
        if coded and all(v == f for v, f in coded):
            return len(coded), len(fens)
    return 0, len(fens)


def check_null_games(games, coder=M.MODEL):
    """Each game packed alone (sections stored) with move coder `coder` (M.MODEL or M.FAST) and
    its main line decoded from the codeword by moves.py's frequencies, move by move."""
    good = 0
    option = {M.MODEL: "model", M.FAST: "fast"}[coder]
    for start, moves, tags in games:
        with open(TMP + ".pgn", "w") as f:
            f.write(write_game(start, moves, tags))
        pack(TMP + ".pgn", TMP + ".pga", "--store", "--dict-kib", "0", "--moves", option)
        if first_block_codec_and_coder(TMP + ".pga")[1] != coder:
            continue
        codeword = first_block_sections(TMP + ".pga")[1][1]
        decoder = M.ArithmeticDecoder(codeword, 0)
        annotated = None in moves                     # else a line ended by the end symbol
        position, history, ok = start, M.NO_HISTORY, True
        try:
            for p, m in enumerate(moves + ([] if annotated else ["end"])):
                if m is None:
                    position, history = position.play_null(), M.NO_HISTORY
                    continue
                legal = position.legal_moves()
                freqs = M.move_frequencies(coder, position, history, legal)
                if annotated:
                    got = legal[decoder.read(freqs)] if len(legal) > 1 else legal[0]
                else:
                    k = decoder.read([M.end_frequency(coder, sum(freqs), p, position)] + freqs)
                    got = "end" if k == 0 else legal[k - 1]
                if got != m:
                    ok = False
                    break
                if m != "end":
                    history = M.history_after(history, position, m)
                    position = position.play(m)
            ok = ok and (decoder.finish() + 7) // 8 == len(codeword)
        except M.FormatError:
            ok = False
        good += ok
    return good, len(games)


def real_games(per_file):
    """The main lines of the first `per_file` games of three corpus files that have a standard
    or Chess960 start (FEN tags read as 5.2 reads them), as (start, moves, tags)."""
    games = []
    for name in ("twic_events.pgn", "lichess_2016-05_no_event.pgn", "chess960_misc.pgn"):
        with open(os.path.join(ROOT, "corpus", "pgn", name), encoding="latin-1") as f:
            text = f.read()
        taken = 0
        for block in re.split(r"\n(?=\[Event )", text):
            if taken >= per_file:
                break
            tags = re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M)
            fen = dict(tags).get("FEN")
            start = M.Position.standard() if fen is None else M.Position.from_fen(fen.encode())
            if start is None or dict(tags).get("Variant", "chess960").lower() not in (
                    "chess960", "standard", "fischerandom"):
                continue
            body = re.sub(r"\[[^\]]*\]|\{[^}]*\}|;[^\n]*|\$\d+", " ", block)
            while "(" in body:
                body = re.sub(r"\([^()]*\)", " ", body)
            position, moves = start, []
            for token in body.split():
                token = re.sub(r"^\d+\.+", "", token).rstrip("!?")
                if not token or token in ("1-0", "0-1", "1/2-1/2", "*"):
                    continue
                legal = position.legal_moves()
                found = [m for m in legal if position.san(m) == token]
                if len(found) != 1:
                    break
                moves.append(found[0])
                position = position.play(found[0])
            keep = [(k, v) for k, v in tags if k in ("FEN", "SetUp", "Variant")]
            games.append((start, moves, keep))
            taken += 1
    return games


VARIANT_OPTIONS = {M.CRAZYHOUSE: "crazyhouse", M.ATOMIC: "atomic", M.ANTICHESS: "antichess",
                   M.THREE_CHECK: "three-check", M.KING_OF_THE_HILL: "king-of-the-hill",
                   M.RACING_KINGS: "racing-kings", M.HORDE: "horde"}
VARIANT_TAGS = {M.CRAZYHOUSE: ["Crazyhouse", "crazyhouse", "ZH"],
                M.ATOMIC: ["Atomic", "Atomic chess"],
                M.ANTICHESS: ["Antichess", "Giveaway"], M.THREE_CHECK: ["Three-check", "3check"],
                M.KING_OF_THE_HILL: ["King of the Hill", "KOTH"],
                M.RACING_KINGS: ["Racing Kings", "racing_kings"], M.HORDE: ["Horde"]}


def random_variant_games(rnd, variant, count, tagged=True):
    """Random games of a variant: from its start or (a third) from a FEN of a position random
    play reaches; moves biased to captures, promotions, drops and castling; some null moves."""
    games = []
    for _ in range(count):
        start = M.VariantPosition.start(variant)
        tags = [("Variant", rnd.choice(VARIANT_TAGS[variant]))] if tagged else []
        if rnd.random() < 0.33:
            p = start
            for _ in range(rnd.randrange(1, 60)):
                if not p.legal_moves():
                    break
                p = p.play(rnd.choice(p.legal_moves()))
            fen = p.fen()
            if p.legal_moves() and M.VariantPosition.from_fen(fen, variant) is not None:
                start = M.VariantPosition.from_fen(fen, variant)
                tags += [("SetUp", "1"), ("FEN", fen.decode())]
        position, moves, bias = start, [], rnd.random()
        nulls = rnd.random() < 0.2
        for _ in range(rnd.randrange(0, 160)):
            legal = position.legal_moves()
            if not legal:
                break
            if nulls and rnd.random() < 0.08:
                m = None
            else:
                sharp = [m for m in legal if position.is_capture(m) or m.promotion or m.drop
                         or position.is_castling(m)]
                m = rnd.choice(sharp if sharp and rnd.random() < bias else legal)
            moves.append(m)
            position = position.play_null() if m is None else position.play(m)
        games.append((start, moves, tags))
    return games


def check_variant_moves(games, variant, limit):
    """Legal moves in MOVE-ORDER-2 order against `pgnarc perft --divide` (UCI, castling as king
    takes rook with --chess960) at up to `limit` positions of the games."""
    positions = []
    for start, moves, _ in games:
        position = start
        for m in moves:
            positions.append(position)
            position = position.play_null() if m is None else position.play(m)
        positions.append(position)
    good = total = 0
    for position in positions[::max(1, len(positions) // limit)]:
        mine = [position.uci(m) for m in position.legal_moves()]
        r = run("perft", position.fen().decode(), "1", "--divide", "--chess960", "--variant",
                VARIANT_OPTIONS[variant])
        theirs = [line.split(":")[0] for line in r.stdout.decode().splitlines() if ":" in line]
        if r.returncode != 0 and M.VariantPosition.from_fen(position.fen(), variant) is None:
            continue                # a position no FEN gives (a king taken, 5.6.1 refuses it)
        total += 1
        good += mine == theirs
        if mine != theirs and total - good <= 3:
            print(f"  MOVES DIFFER {VARIANT_OPTIONS[variant]} {position.fen().decode()}: "
                  f"{mine} / {theirs} {r.stderr.decode().strip()}")
    return good, total


def check_variant_archives(pgn, *options):
    """pgnarc unpack gives back moves.py's movetext, and decode.py what pgnarc unpack gives; the
    archive's first block is of codec 7 and of the move coder asked for (7.5: 2, the fast coder,
    by default; 1 with --moves model; 0 with --moves uniform)."""
    pack(pgn, TMP + ".pga", *options)
    codec, coder = first_block_codec_and_coder(TMP + ".pga")
    wanted = 0 if "uniform" in options else 1 if "model" in options else 2
    if (codec, coder) != (7, wanted):
        print(f"  WRONG BLOCK {pgn} {' '.join(options)}: codec {codec}, move coder {coder}")
    unpacked = run("unpack", TMP + ".pga")
    expected = unpacked.stdout
    if unpacked.returncode != 0:
        print(f"  PGNARC UNPACK FAILS {pgn} {' '.join(options)}: "
              f"{unpacked.stderr.decode().strip()}")
    def movetexts(text):
        return [" ".join(part.split()) for part in text.split("\n\n")
                if part.strip() and not part.startswith("[")]
    mine = movetexts(open(pgn, encoding="latin-1").read())
    out = movetexts(expected.decode("latin-1"))
    same = sum(a == b for a, b in zip(mine, out)) if len(mine) == len(out) else 0
    decoded = subprocess.run([sys.executable, os.path.join(HERE, "decode.py"), TMP + ".pga"],
                             capture_output=True)
    if decoded.stdout != expected:
        print(f"  DECODE DIFFERS {pgn} {' '.join(options)}: {decoded.stderr.decode().strip()}")
    ok = (unpacked.returncode == 0 and decoded.returncode == 0 and decoded.stdout == expected
          and (codec, coder) == (7, wanted))
    return same, len(mine), ok


def check_variants(rnd, count):
    failures = 0
    for variant, option in VARIANT_OPTIONS.items():
        games = random_variant_games(rnd, variant, count)
        untagged = random_variant_games(rnd, variant, max(1, count // 4), tagged=False)
        path = f"{TMP}_{option}.pgn"
        with open(path, "w") as f:
            f.write("".join(write_game(*g) for g in games))
        with open(f"{TMP}_{option}_untagged.pgn", "w") as f:
            f.write("".join(write_game(*g) for g in untagged))
        results = [check_variant_archives(path, "--moves", "model"),
                   check_variant_archives(path, "--moves", "model", "--position-filter",
                                          "--block-games", "7"),
                   check_variant_archives(f"{TMP}_{option}_untagged.pgn", "--variant", option,
                                          "--moves", "model"),
                   check_variant_archives(path),
                   check_variant_archives(path, "--position-filter", "--block-games", "7"),
                   check_variant_archives(path, "--moves", "uniform")]
        good = sum(r[0] for r in results)
        total = sum(r[1] for r in results)
        decoded = sum(r[2] for r in results)
        moves_good, moves_total = check_variant_moves(games + untagged, variant, 40)
        print(f"random {option} games: movetext {good}/{total} as pgnarc writes it, "
              f"decode.py {decoded}/{len(results)} archives (3 of the model coder, 2 fast, 1 "
              f"uniform) "
              f"as pgnarc unpack, legal moves {moves_good}/{moves_total} positions as pgnarc "
              f"perft")
        failures += total - good + len(results) - decoded + moves_total - moves_good
    return failures


def main():
    global PGNARC
    if len(sys.argv) < 2:
        print("usage: blackbox_moves.py PATH/TO/pgnarc [games-per-random-file [--quick]]", file=sys.stderr)
        return False
    PGNARC = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    # (--quick: the games packed alone only with pack's default, the fast coder, and the tokens
    # of every sixteenth game of the corpus.)
    quick = "--quick" in sys.argv[3:]
    coders = (M.FAST,) if quick else (M.MODEL, M.FAST)
    rnd = random.Random(2026)
    failures = 0
    for kind in ("std", "960", "fen"):
        path = f"{TMP}_{kind}.pgn"
        with open(path, "w") as f:
            f.write("".join(write_game(*g) for g in random_games(rnd, kind, count)))
        good, total = check_movetext(path)
        print(f"random {kind} games: movetext {good}/{total} as pgnarc writes it")
        failures += total - good
        good, total = check_tokens(path)
        print(f"random {kind} games: tokens {good}/{total}")
        failures += total - good
    for pgn in sorted(glob.glob(os.path.join(ROOT, "corpus", "pgn", "*.pgn"))):
        good, total = check_tokens(pgn, 16 if quick else 1)
        print(f"{os.path.basename(pgn)}: tokens {good}/{total}")
        failures += total - good
    for pgn in ["setup_fen.pgn", "frc_fen_only.pgn", "chess960_misc.pgn"]:
        good, total = check_position_column(os.path.join(ROOT, "corpus", "pgn", pgn))
        print(f"{pgn}: position column, {good} of {total} values coded and right")
        failures += good == 0
    good, total = check_position_column(f"{TMP}_fen.pgn")
    print(f"random FEN games: position column, {good} of {total} values coded and right")
    failures += good == 0
    null_games = (random_games(rnd, "std", count, nulls=True)
                  + random_games(rnd, "960", count // 2, nulls=True))
    for coder in coders:
        good, total = check_null_games(null_games, coder)
        print(f"games with null moves and king captures: {good}/{total} decoded from archives "
              f"of move coder {coder}")
        failures += total - good
    real = real_games(count // 4)
    for coder in coders:
        good, total = check_null_games(real, coder)
        print(f"real games (twic, lichess, chess960): {good}/{total} decoded from archives of "
              f"move coder {coder}")
        failures += total - good
    failures += check_variants(rnd, count)
    for path in glob.glob(TMP + "*"):
        os.remove(path)
    print("OK" if failures == 0 else f"FAILED ({failures})")
    return failures == 0


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
