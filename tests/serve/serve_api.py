#!/usr/bin/python3
"""pgnarc serve's JSON API against the command line: every endpoint's answers as info --json,
find, get, get --fen, get --svg, tree --json and share give them (Xiangqi games' too); every bad
parameter a 400 (or 404) with its message; no path outside the pages reachable; 200 requests at
once answered as one by one; Ctrl-C stopping the server with exit code 0.

    serve_api.py PGNARC WORKDIR GAMES.pgn ANNOTATED.pgn LATIN1.pgn XIANGQI_DIR
"""
import concurrent.futures
import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

PGNARC, WORK, GAMES_PGN, ANNOTATED_PGN, LATIN1_PGN, XIANGQI_DIR = sys.argv[1:7]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def cli(*args):
    return subprocess.run([PGNARC, *args], check=True, capture_output=True).stdout.decode()


def start(*args):
    """Starts pgnarc serve ARGS --port 0; returns the process and its base URL."""
    proc = subprocess.Popen([PGNARC, "serve", *args, "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    m = re.match(r"pgnarc serve: (http://127\.0\.0\.1:\d+/) \(\d+ games in \d+ archives?\); Ctrl-C stops$", line)
    if not m:
        proc.kill()
        sys.exit(f"serve did not start: {line!r} {proc.stderr.read()!r}")
    return proc, m.group(1).rstrip("/")


def get(base, path, with_type=False):
    """(status, parsed JSON or text) of GET base + path; with_type: (status, bytes, content type)."""
    try:
        with urllib.request.urlopen(base + path, timeout=60) as r:
            body, status, ctype = r.read(), r.status, r.headers["Content-Type"]
    except urllib.error.HTTPError as e:
        body, status, ctype = e.read(), e.code, e.headers["Content-Type"]
    if with_type:
        return status, body, ctype
    return status, json.loads(body) if ctype.startswith("application/json") else body.decode("utf-8", "replace")


def raw_request(base, target):
    """The status line and body of a GET of `target` sent byte for byte (no client normalising it)."""
    host, port = urllib.parse.urlsplit(base).netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0].decode(), body


def q(**params):
    return urllib.parse.urlencode(params)


os.makedirs(WORK, exist_ok=True)
games_pga, annotated_pga = os.path.join(WORK, "games.pga"), os.path.join(WORK, "annotated.pga")
cli("pack", GAMES_PGN, "-o", games_pga, "--force")
cli("pack", ANNOTATED_PGN, "-o", annotated_pga, "--force")
count = int(cli("find", games_pga, "--count"))
proc, base = start(games_pga, annotated_pga)

# ---- info: info --json's keys and values, with the archive's number and name
status, info = get(base, "/api/info")
check(status == 200 and len(info["archives"]) == 2, f"/api/info: {status} {info}")
for i, path in enumerate([games_pga, annotated_pga]):
    a = dict(info["archives"][i])
    check(a.pop("archive") == i and a.pop("name") == os.path.basename(path), f"/api/info names archive {i}")
    check(a == json.loads(cli("info", path, "--json")), f"/api/info archive {i} == info --json")

# ---- games: find's numbers, paged and sorted
status, page = get(base, "/api/games?" + q(limit=500))
check(status == 200 and page["total"] == count and [g["n"] for g in page["games"]] == list(range(1, count + 1)),
      "/api/games lists every game in order")
status, page = get(base, "/api/games?" + q(offset=5, limit=7, order="desc"))
check([g["n"] for g in page["games"]] == list(range(count - 5, count - 12, -1)), "/api/games pages backwards")
first = get(base, "/api/games?" + q(limit=1))[1]["games"][0]
for key, option in [("player", "--player"), ("white", "--white"), ("event", "--event")]:
    value = first[key if key != "player" else "black"][:4]
    want = [int(n) for n in cli("find", games_pga, option, value).split()]
    got = get(base, "/api/games?" + q(**{key: value}, limit=500))[1]
    check([g["n"] for g in got["games"]] == want and got["total"] == len(want), f"/api/games {key}={value} == find")
want = [int(n) for n in cli("find", games_pga, "--min-elo", "2000", "--elo-of", "either").split()]
got = get(base, "/api/games?" + q(min_elo=2000, elo_of="either", limit=500))[1]
check([g["n"] for g in got["games"]] == want, "/api/games min_elo == find --min-elo")
rows = get(base, "/api/games?" + q(sort="white_elo", order="desc", limit=500))[1]["games"]
elos = [int(g["white_elo"] or 0) for g in rows]
check(len(rows) == count and elos == sorted(elos, reverse=True), "/api/games sorts by white_elo")
keyed = sorted(((g["white_elo"] or "", g["n"]) for g in rows), key=lambda r: (-int(r[0] or 0), r[1]))
check([g["n"] for g in rows] == [n for _, n in keyed], "/api/games breaks ties by number")
rows = get(base, "/api/games?" + q(sort="black", limit=500))[1]["games"]
check([(g["black"], g["n"]) for g in rows] == sorted((g["black"], g["n"]) for g in rows), "/api/games sorts by black")
tree = json.loads(cli("tree", games_pga, "--moves", "e4 c5", "--json"))
want = [int(n) for n in cli("find", games_pga, "--position", tree["position"]).split()]
got = get(base, "/api/games?" + q(moves="e4 c5", limit=500))[1]
check([g["n"] for g in got["games"]] == want and want, "/api/games moves=e4 c5 == find --position")
both = [int(n) for n in cli("find", games_pga, "--position", tree["position"], "--result", "1-0").split()]
got = get(base, "/api/games?" + q(moves="e4 c5", result="1-0", limit=500))[1]
check([g["n"] for g in got["games"]] == both and len(both) < len(want), "/api/games a tag filter and a position == find")
for m in tree["moves"]:
    got = get(base, "/api/games?" + q(moves="e4 c5", move=m["uci"], limit=500))[1]
    check(got["total"] == m["games"] and all(g["move"] == m["uci"] for g in got["games"]),
          f"/api/games move={m['uci']} counts the tree's {m['games']}")

# ---- tree: tree --json's line
for moves in ["", "e4", "d4 Nf6 c4"]:
    status, body = get(base, "/api/tree?" + q(moves=moves))
    check(status == 200 and body.pop("verbatim_games") == 0 and
          body == json.loads(cli("tree", games_pga, "--moves", moves, "--json")), f"/api/tree moves={moves!r} == tree --json")
fen = tree["position"]
body = get(base, "/api/tree?" + q(fen=fen, archive=1))[1]
check(body.pop("verbatim_games") == 0 and body == json.loads(cli("tree", annotated_pga, "--position", fen, "--json")),
      "/api/tree fen= archive=1 == tree --position")

# ---- game: PGN as get, FEN of every main-line ply as get --fen, the tree of moves, the token as share
for archive, path in [(0, games_pga), (1, annotated_pga)]:
    n_games = int(cli("find", path, "--count"))
    for n in sorted({1, 2, n_games // 2, n_games}):
        status, g = get(base, "/api/game?" + q(archive=archive, n=n))
        check(status == 200 and g["n"] == n and g["archive"] == archive, f"/api/game {archive}/{n}: {status}")
        check(g["pgn"] == cli("get", path, str(n)), f"/api/game {archive}/{n} pgn == get")
        nodes, line = g["nodes"], g["mainline"]
        plies = len(line) - 1
        for k in range(plies + 1):
            if k % 7 == 0 or k == plies:
                check(nodes[line[k]]["fen"] == cli("get", path, str(n), "--fen", str(k)).strip(),
                      f"/api/game {archive}/{n} ply {k} fen == get --fen")
        check(all(nodes[c]["parent"] == i for i, node in enumerate(nodes) for c in node["children"]),
              f"/api/game {archive}/{n}: every child names its parent")
        check(all(nodes[line[k]]["ply"] == k for k in range(plies + 1)), f"/api/game {archive}/{n}: plies count")
        check(g["token"] == cli("share", path, str(n)).strip(), f"/api/game {archive}/{n} token == share")
        s = get(base, "/api/share?" + q(archive=archive, n=n))[1]
        check(s == {"token": g["token"], "url": "/s/" + g["token"]}, f"/api/share {archive}/{n}")
        status, t = get(base, "/api/token?" + q(t=g["token"]))
        check(status == 200 and [t["nodes"][i]["uci"] for i in t["mainline"]] == [nodes[i]["uci"] for i in line],
              f"/api/token of game {archive}/{n} has its moves")
annotated = [get(base, "/api/game?" + q(archive=1, n=n))[1] for n in range(1, 6)]
check(any(len(node["children"]) > 1 for g in annotated for node in g["nodes"]), "variations reach /api/game")
check(any(node["comment"] for g in annotated for node in g["nodes"]), "comments reach /api/game")
clocked = get(base, "/api/game?" + q(n=1))[1]
check(any(node["clock"] is not None for node in clocked["nodes"]), "clocks reach /api/game")

# ---- a board as a picture: /api/board of a position and its last move == get --svg
for n, k in [(1, 0), (1, 9), (2, 20), (count, 7)]:
    fen = cli("get", games_pga, str(n), "--fen", str(k)).strip()
    g = get(base, "/api/game?" + q(n=n))[1]
    uci = g["nodes"][g["mainline"][k]]["uci"] if k else ""
    for flip in ("0", "1"):
        status, svg, ctype = get(base, "/api/board?" + q(fen=fen, last=uci, flip=flip), with_type=True)
        want = cli("get", games_pga, str(n), "--svg", str(k), *(["--flip"] if flip == "1" else []))
        check(status == 200 and ctype == "image/svg+xml" and svg.decode() == want,
              f"/api/board of game {n} ply {k} flip {flip} == get --svg")

# ---- Xiangqi games: their nodes in their notation and ICCS, Xiangqi FENs, boards, tokens
xq_pgas = {}
for name in ("wukong_chinese", "wukong_iccs"):
    xq_pgas[name] = os.path.join(WORK, name + ".pga")
    cli("pack", os.path.join(XIANGQI_DIR, name + ".pgn"), "-o", xq_pgas[name], "--force")
xq, xq_base = start(xq_pgas["wukong_chinese"], xq_pgas["wukong_iccs"])
for n in (1, 3, 15):  # (game 2 plays another move in ICCS at ply 71: corpus/xiangqi/SOURCES.md)
    status, g = get(xq_base, "/api/game?" + q(archive=0, n=n))
    iccs = get(xq_base, "/api/game?" + q(archive=1, n=n))[1]
    path = xq_pgas["wukong_chinese"]
    check(status == 200 and g["rules"] == "xiangqi" and iccs["rules"] == "xiangqi", f"Xiangqi game {n}: {status}")
    check(g["pgn"] == cli("get", path, str(n)), f"Xiangqi game {n}: pgn == get")
    nodes, line = g["nodes"], g["mainline"]
    words = [w for w in cli("get", path, str(n)).split("\n\n", 1)[1].split() if not w[0].isdigit() and w != "*"]
    check([nodes[i]["san"] for i in line[1:]] == words[:len(line) - 1], f"Xiangqi game {n}: san as the game writes it")
    iccs_words = [w for w in cli("get", xq_pgas["wukong_iccs"], str(n)).split("\n\n", 1)[1].split()
                  if not w[0].isdigit() and w != "*"]
    check([nodes[i]["uci"] for i in line[1:]] == iccs_words[:len(line) - 1] ==
          [iccs["nodes"][i]["san"] for i in iccs["mainline"][1:]], f"Xiangqi game {n}: uci is ICCS")
    for k in range(0, len(line), 11):
        fen = cli("get", path, str(n), "--fen", str(k)).strip()
        check(nodes[line[k]]["fen"] == fen, f"Xiangqi game {n} ply {k}: fen == get --fen")
        status, svg, ctype = get(xq_base, "/api/board?" + q(fen=fen, last=nodes[line[k]]["uci"], flip=1), with_type=True)
        check(status == 200 and ctype == "image/svg+xml" and
              svg.decode() == cli("get", path, str(n), "--svg", str(k), "--flip"),
              f"Xiangqi game {n} ply {k}: /api/board == get --svg --flip")
    check(g["token"] == cli("share", path, str(n)).strip(), f"Xiangqi game {n}: token == share")
    t = get(xq_base, "/api/token?" + q(t=g["token"]))[1]
    check(t["rules"] == "xiangqi" and [t["nodes"][i]["fen"] for i in t["mainline"]] == [nodes[i]["fen"] for i in line],
          f"Xiangqi game {n}: its token opens to its positions")
for path, what in [("/api/board", "no fen"), ("/api/board?fen=rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNR+w", "generals face to face"),
                   ("/api/board?" + q(fen="4k4/9/9/9/9/9/9/9/9/K8 w - - 0 1"), "a general outside its palace"),
                   ("/api/board?" + q(fen=nodes[0]["fen"], last="z9z9"), "a bad ICCS move"),
                   ("/api/board?" + q(fen="8/8/8/8/8/8/8/8 w - -"), "a chess FEN without kings"),
                   ("/api/board?" + q(fen=cli("get", games_pga, "1", "--fen", "0").strip(), last="e9e4"), "a bad UCI move"),
                   ("/api/board?" + q(fen=nodes[0]["fen"], size=5000), "too large")]:
    status, body = get(xq_base, path)
    check(status == 400 and isinstance(body, dict) and body.get("error"), f"/api/board with {what}: {status} {body!r:.200}")
# The tree and the games of a Xiangqi position, from its FEN and ICCS moves, as tree --json and find --position.
xq_start = cli("get", xq_pgas["wukong_chinese"], "1", "--fen", "0").strip()
after = cli("get", xq_pgas["wukong_chinese"], "1", "--fen", "2").strip()  # game 1: h2e2 h9g7
status, body = get(xq_base, "/api/tree?" + q(fen=xq_start, moves="1. h2e2 h9g7"))
check(status == 200 and body.pop("verbatim_games") == 0 and body["position"] == after and
      body == json.loads(cli("tree", xq_pgas["wukong_chinese"], "--position", after, "--json")),
      f"/api/tree of a Xiangqi FEN and moves == tree --position: {status} {body!r:.200}")
want = [int(n) for n in cli("find", xq_pgas["wukong_chinese"], "--position", after).split()]
got = get(xq_base, "/api/games?" + q(fen=xq_start, moves="h2e2 h9g7", limit=500))[1]
check([r["n"] for r in got["games"]] == want and len(want) > 1, "/api/games of a Xiangqi position == find --position")
first = body["moves"][0]
got = get(xq_base, "/api/games?" + q(fen=after, move=first["uci"], limit=500))[1]
check(got["total"] == first["games"] and all(r["move"] == first["uci"] for r in got["games"]),
      "/api/games move= counts the Xiangqi tree's move")
got = get(xq_base, "/api/games?" + q(fen=after, move=first["uci"].upper(), limit=500))[1]
check(got["total"] == first["games"], "/api/games move= in upper case")
for path, says in [("/api/tree?" + q(fen=xq_start, moves="1.h2e2 h2e3"), "moves: move 2 'h2e3'"),
                   ("/api/tree?" + q(fen=xq_start, moves="Che3"), "moves: move 1 'Che3'"),
                   ("/api/tree?" + q(fen=xq_start, variant="atomic"), "variant: a Xiangqi position takes none"),
                   ("/api/tree?" + q(fen="rnbakabnr/9/9/9/9/9/9/9/9/RNBAKXBNR w"), "fen: ")]:
    status, body = get(xq_base, path)
    check(status == 400 and body.get("error", "").startswith(says), f"{path}: {status} {body!r:.200}")
check(get(xq_base, "/api/games?" + q(limit=3))[1]["games"][0]["white"] == "ZHAO GuoRong",
      "/api/games lists a Xiangqi game's Red in the white column")
xq.send_signal(signal.SIGTERM)
xq.wait(timeout=20)

# ---- archives in GB18030 and Big5 (serve --encoding): their text in UTF-8, names looked for in them
for name, encoding in (("xqbase_gb18030", "gb18030"), ("ccpd_big5", "big5")):
    pga = os.path.join(WORK, name + ".pga")
    cli("pack", os.path.join(XIANGQI_DIR, name + ".pgn"), "-o", pga, "--force")
    proc_e, base_e = start(pga, "--encoding", encoding)
    raw = subprocess.run([PGNARC, "get", pga, "1"], check=True, capture_output=True).stdout
    status, g = get(base_e, "/api/game?" + q(n=1))
    check(status == 200 and g["pgn"] == raw.decode(encoding), f"{name}: game 1's PGN in UTF-8")
    red = dict(g["tags"])["Red"]
    check(red == re.search(r'\[Red "([^"]*)"\]', raw.decode(encoding)).group(1) and not red.isascii(), f"{name}: Red {red!r}")
    want = [int(n) for n in cli("find", pga, "--red", red, "--names-in", encoding).split()]
    got = get(base_e, "/api/games?" + q(red=red, limit=500))[1]
    check([r["n"] for r in got["games"]] == want and 1 in want and got["games"][0]["white"] == red,
          f"{name}: /api/games red={red} == find --names-in")
    if encoding == "big5":  # (GB18030 writes every character)
        check(get(base_e, "/api/games?" + q(red="\u00e9\u0101"))[0] == 400, "a name Big5 cannot write is refused")
    proc_e.send_signal(signal.SIGTERM)
    proc_e.wait(timeout=20)

# ---- text that is not UTF-8 comes as Latin-1 (JSON is UTF-8)
latin1_pga = os.path.join(WORK, "latin1.pga")
cli("pack", LATIN1_PGN, "-o", latin1_pga, "--force")
evals_pgn, evals_pga = os.path.join(WORK, "evals.pgn"), os.path.join(WORK, "evals.pga")
with open(evals_pgn, "w") as f:
    f.write('[Event "e"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n'
            '1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 $2 { [%eval 0.6] [%clk 0:02:58] } '
            '( 1... c5 { [%eval 0.3] } ) 2. Qh5 { good [%eval #3] } 1-0\n')
cli("pack", evals_pgn, "-o", evals_pga, "--force")
latin1, latin1_base = start(latin1_pga, evals_pga)
status, g = get(latin1_base, "/api/game?" + q(archive=1, n=1))
line = [g["nodes"][i] for i in g["mainline"]]
check(status == 200 and [(n["san"], n["eval"], n["mate"], n["clock"]) for n in line] ==
      [("", None, None, None), ("e4", 0.17, None, 180), ("e5", 0.6, None, 178), ("Qh5", None, 3, None)],
      f"evaluations, mates and clocks by ply: {line}")
check(line[2]["nags"] == [2] and line[3]["comment"] == "good", "NAGs and the comment's text")
after_e4 = [g["nodes"][i] for i in line[1]["children"]]
check([(n["san"], n["eval"]) for n in after_e4] == [("e5", 0.6), ("c5", 0.3)], "the variation 1... c5 with its evaluation")
raw = subprocess.run([PGNARC, "get", latin1_pga, "1-"], check=True, capture_output=True).stdout
check(any(b >= 0x80 for b in raw), "the Latin-1 sample has bytes that are not ASCII")
for n in range(1, 6):
    status, g = get(latin1_base, "/api/game?" + q(n=n))
    check(status == 200 and g["pgn"].encode("latin-1") == subprocess.run(
        [PGNARC, "get", latin1_pga, str(n)], check=True, capture_output=True).stdout, f"Latin-1 game {n} as text")
check(get(latin1_base, "/api/games?limit=500")[0] == 200, "Latin-1 tags in /api/games")
latin1.send_signal(signal.SIGTERM)
latin1.wait(timeout=20)

# ---- bad parameters: 400 (404 for what does not exist), each with a message
bad = [
    ("/api/games?nonsense=1", 400), ("/api/games?limit=1&limit=2", 400), ("/api/games?limit=0", 400),
    ("/api/games?limit=501", 400), ("/api/games?offset=-1", 400), ("/api/games?offset=99999999999999999999", 400),
    ("/api/games?archive=2", 400), ("/api/games?archive=x", 400), ("/api/games?result=2-0", 400),
    ("/api/games?date_from=2021.13", 400), ("/api/games?min_elo=abc", 400), ("/api/games?min_elo=3000&max_elo=2000", 400),
    ("/api/games?elo_of=nobody", 400), ("/api/games?elo_of=white", 400), ("/api/games?sort=colour", 400), ("/api/games?order=sideways", 400),
    ("/api/games?move=e2e4", 400), ("/api/games?fen=not+a+fen", 400), ("/api/games?moves=e4+e4", 400),
    ("/api/games?variant=checkers", 400), ("/api/games?player=" + "x" * 1001, 400),
    ("/api/game", 400), ("/api/game?n=0", 400), ("/api/game?n=1.5", 400), ("/api/game?n=%2B1", 400),
    (f"/api/game?n={count + 1}", 404), ("/api/game?n=18446744073709551616", 400), ("/api/game?archive=1&n=100000", 404),
    ("/api/tree?fen=8/8/8/8/8/8/8/8+w+-+-", 400), ("/api/tree?moves=Ke2+Ke7+Kd3+Qh4", 400), ("/api/tree?limit=9999", 400),
    ("/api/share", 400), ("/api/share?n=0", 400), ("/api/token", 400), ("/api/token?t=%21%21", 400),
    ("/api/token?t=AAAA", 400), ("/api/nothing", 404), ("/api/info?x=1", 400),
]
for path, want in bad:
    status, body = get(base, path)
    check(status == want and isinstance(body, dict) and body.get("error"), f"{path}: {status} {body!r:.200}")

# ---- pages, assets, and nothing outside them
for path in ["/", "/game/1", "/game/1?ply=3", "/explorer", "/s/" + clocked["token"], "/assets/game.js",
             "/assets/vendor/chess.js/chess.js", "/assets/vendor/cm-chessboard/assets/pieces/standard.svg"]:
    status, body = get(base, path)
    check(status == 200 and body, f"{path}: {status}")
for target in ["/assets/../../../../etc/passwd", "/assets/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
               "/assets/..%2f..%2f..%2fetc%2fpasswd", "/../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
               "/assets/vendor/chess.js/LICENSE", "/assets/vendor/../../serve.cpp", "/assets/%00",
               "/assets//etc/passwd", "/game/../../etc/passwd", "/api/../../etc/passwd"]:
    line, body = raw_request(base, target)
    check(line.split()[1] in ("400", "404") and b"root:" not in body, f"GET {target}: {line}")

# ---- 200 requests at once, answered as one by one
paths = [f"/api/game?n={1 + i % count}" if i % 3 else f"/api/games?{q(offset=i % count, limit=5)}" for i in range(200)]
paths += ["/api/tree?" + q(moves="e4"), "/api/info"]
alone = {p: get(base, p) for p in set(paths)}
with concurrent.futures.ThreadPoolExecutor(max_workers=200) as pool:
    together = list(pool.map(lambda p: get(base, p), paths))
check(all(together[i] == alone[p] for i, p in enumerate(paths)), "200 concurrent requests answered as one by one")

# ---- Ctrl-C stops it cleanly
proc.send_signal(signal.SIGINT)
check(proc.wait(timeout=20) == 0, "serve exits 0 on Ctrl-C")

# ---- binding beyond this machine warns; a port in use is an error that says so
wide = subprocess.Popen([PGNARC, "serve", games_pga, "--bind", "0.0.0.0", "--port", "0"], stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True)
line = wide.stdout.readline()
wide.send_signal(signal.SIGTERM)
_, err = wide.communicate(timeout=20)
check(line.startswith("pgnarc serve: http://0.0.0.0:") and "warning" in err and "anyone" in err,
      f"--bind 0.0.0.0 warns: {line!r} {err!r}")
with socket.socket() as taken:
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    r = subprocess.run([PGNARC, "serve", games_pga, "--port", str(taken.getsockname()[1])], capture_output=True,
                       text=True, timeout=20)
    check(r.returncode != 0 and "cannot listen" in r.stderr, f"a port in use: {r.returncode} {r.stderr!r}")
r = subprocess.run([PGNARC, "serve", os.path.join(WORK, "missing.pga")], capture_output=True, text=True, timeout=20)
check(r.returncode != 0 and "missing.pga" in r.stderr, f"a missing archive: {r.returncode} {r.stderr!r}")

if failures:
    sys.exit(f"{len(failures)} checks failed")
print("serve API: every check passed")
