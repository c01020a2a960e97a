// The share page that needs no server (tools/pgnarc/web/share.html, built by tools/share_page/build)
// against the library: its decoder, as the page carries it, opens every share token of the corpus
// (every game of corpus/pgn and corpus/xiangqi that has one, and corpus/conformance/tokens.tsv and
// xiangqi_tokens.tsv) to the PGN that `pgnarc share --open` prints, to the FEN after every ply
// that `pgnarc get --fen` prints and to the board `pgnarc get --svg` draws (one game of each file),
// and refuses every token of bad_tokens.tsv and bad_xiangqi_tokens.tsv as the library does; and
// that its page is tools/share_page/share_page.html's as it stands.
//
//   node share_page.js PGNARC SHARE.html WORKDIR CORPUS
"use strict";
const { execFileSync, spawnSync } = require("child_process");
const fs = require("fs");
const path = require("path");

const [pgnarc, page, work, corpus] = process.argv.slice(2);
const failures = [];
function check(ok, what) {
  if (!ok) {
    failures.push(what);
    console.error("FAIL: " + what);
  }
}
const cli = (...args) => execFileSync(pgnarc, args, { encoding: "utf8", maxBuffer: 1 << 26 });

async function main() {
  fs.mkdirSync(work, { recursive: true });
  const html = fs.readFileSync(page, "utf8");
  const m = /<script id="pgnarc-decoder">\n([\s\S]*?)\n<\/script>/.exec(html);
  if (!m) throw new Error(page + " holds no decoder script");
  const template = fs.readFileSync(path.join(path.dirname(page), "../../share_page/share_page.html"), "utf8");
  check(html.replace(m[0], "<!-- DECODER -->") === template,
        "share.html is share_page.html with its decoder (rebuild it: tools/share_page/build)");
  const decoderFile = path.join(work, "decoder.js");
  fs.writeFileSync(decoderFile, m[1]);
  const wasm = await require(decoderFile)();
  const open = wasm.cwrap("pgnarc_open_token", "string", ["string"]);

  let tokens = 0;
  const opens = (token, want, what) => {
    const g = JSON.parse(open(token));
    check(!g.error && g.pgn === want, `${what}: the page's PGN ${g.error || ""} == share --open`);
    tokens++;
    return g;
  };
  for (const list of ["tokens.tsv", "xiangqi_tokens.tsv"])
    for (const line of fs.readFileSync(path.join(corpus, "conformance", list), "utf8").split("\n").filter(Boolean)) {
      const [token, pgn] = line.split("\t");
      opens(token, pgn.replace(/\\n/g, "\n"), list + " " + token.slice(0, 20));
    }
  const bad = ["bad_tokens.tsv", "bad_xiangqi_tokens.tsv"].flatMap((list) =>
    fs.readFileSync(path.join(corpus, "conformance", list), "utf8").split("\n").filter(Boolean));
  for (const line of bad) {
    const token = line.split("\t")[0];
    const r = spawnSync(pgnarc, ["share", "--open", token], { encoding: "utf8" });
    const g = JSON.parse(open(token));
    check(r.status !== 0 && g.error && r.stderr.includes(g.error), `bad token ${token}: ${g.error} as ${r.stderr.trim()}`);
  }
  const board = wasm.cwrap("pgnarc_board_svg", "string", ["number", "number", "number"]);
  const files = ["pgn", "xiangqi"].flatMap((sub) =>
    fs.readdirSync(path.join(corpus, sub)).filter((f) => f.endsWith(".pgn")).sort().map((f) => [sub, f]));
  for (const [sub, file] of files) {
    const archive = path.join(work, sub + "_" + file.replace(/\.pgn$/, ".pga"));
    cli("pack", path.join(corpus, sub, file), "-o", archive, "--force", "--quiet");
    const count = Number(cli("find", archive, "--count"));
    let firstChecked = false;
    for (let n = 1; n <= count; n++) {
      const share = spawnSync(pgnarc, ["share", archive, String(n)], { encoding: "utf8" });
      if (share.status !== 0) continue;  // a game of another variant, or kept verbatim: no token
      const token = share.stdout.trim();
      const g = opens(token, cli("share", "--open", token), `${file} game ${n}`);
      if (!firstChecked && g.plies && g.plies.length > 1) {
        firstChecked = true;
        const fens = g.plies.map((p, k) => cli("get", archive, String(n), "--fen", String(k)).trim());
        check(JSON.stringify(g.plies.map((p) => p.fen)) === JSON.stringify(fens), `${file} game ${n}: FEN of every ply == get --fen`);
        // The page's board is the picture get --svg draws (chess or Xiangqi), flipped too.
        const last = g.plies.length - 1;
        check(board(last, 1, 360) === cli("get", archive, String(n), "--svg", String(last), "--flip"),
              `${file} game ${n}: the page's board == get --svg --flip`);
      }
    }
  }
  check(tokens > 400, `${tokens} tokens opened`);
  if (failures.length) {
    console.error(failures.length + " checks failed");
    process.exit(1);
  }
  console.log(`share page: ${tokens} tokens opened as the library opens them`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
