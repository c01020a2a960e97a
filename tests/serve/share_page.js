// The share page that needs no server (tools/pgnarc/web/share.html, built by tools/share_page/build)
// against the library: its decoder, as the page carries it, opens every share token of the corpus
// (every game of corpus/pgn that has one, and corpus/conformance/tokens.tsv) to the PGN that
// `pgnarc share --open` prints and to the FEN after every ply that `pgnarc get --fen` prints (one
// game of each file), and refuses every token of bad_tokens.tsv as the library does; and that its page
// is tools/share_page/share_page.html's as it stands.
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
  for (const line of fs.readFileSync(path.join(corpus, "conformance/tokens.tsv"), "utf8").split("\n").filter(Boolean)) {
    const [token, pgn] = line.split("\t");
    opens(token, pgn.replace(/\\n/g, "\n"), "tokens.tsv " + token.slice(0, 20));
  }
  for (const line of fs.readFileSync(path.join(corpus, "conformance/bad_tokens.tsv"), "utf8").split("\n").filter(Boolean)) {
    const token = line.split("\t")[0];
    const r = spawnSync(pgnarc, ["share", "--open", token], { encoding: "utf8" });
    const g = JSON.parse(open(token));
    check(r.status !== 0 && g.error && r.stderr.includes(g.error), `bad token ${token}: ${g.error} as ${r.stderr.trim()}`);
  }
  const dir = path.join(corpus, "pgn");
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".pgn")).sort()) {
    const archive = path.join(work, file.replace(/\.pgn$/, ".pga"));
    cli("pack", path.join(dir, file), "-o", archive, "--force", "--quiet");
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
