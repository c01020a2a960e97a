// pgnarc serve's pages in a real browser (Debian's chromium, headless, driven by puppeteer-core):
// the board of /game/N?ply=K shows `pgnarc get N --fen K` (its data-fen), keys step through the
// game, the explorer counts as `tree --json`, a share link opens its game, a search by player lists
// `find`'s games; a Xiangqi game's page shows the picture `get --svg` draws of each ply, flipped
// too, and the explorer counts Xiangqi positions as `tree --json`; no page logs an error. Saves screenshots of the game page and the explorer in OUTDIR (and
// in $PGNARC_SCREENSHOTS, where set, for the README), and of a Xiangqi game's page in OUTDIR.
//
//   NODE_PATH=.../node_modules node serve_browser.js PGNARC CHROMIUM OUTDIR GAMES.pgn XIANGQI.pgn
"use strict";
const { spawn, execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const readline = require("readline");
const puppeteer = require("puppeteer-core");

const [pgnarc, chromium, outdir, pgn, xiangqiPgn] = process.argv.slice(2);
const failures = [];
function check(ok, what) {
  if (!ok) {
    failures.push(what);
    console.error("FAIL: " + what);
  }
}
const cli = (...args) => execFileSync(pgnarc, args, { encoding: "utf8" });

async function startServer(archive) {
  const proc = spawn(pgnarc, ["serve", archive, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise((resolve, reject) => {
    readline.createInterface({ input: proc.stdout }).once("line", resolve);
    proc.once("exit", (code) => reject(new Error("serve exited with " + code)));
  });
  const m = /^pgnarc serve: (http:\/\/127\.0\.0\.1:\d+)\//.exec(line);
  if (!m) throw new Error("serve printed " + line);
  return { proc, base: m[1] };
}

// The length of game n's main line: the last ply get --fen accepts.
function countPlies(archive, n) {
  let lo = 0, hi = 1024;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    try {
      execFileSync(pgnarc, ["get", archive, String(n), "--fen", String(mid)], { stdio: "ignore" });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo;
}

// The board's attributes once it shows ply `ply` (or any ply, where null).
async function boardAt(page, ply) {
  await page.waitForFunction(
    (p) => {
      const b = document.querySelector("#board[data-fen]");
      return b && b.dataset.fen && (p === null || b.dataset.ply === String(p));
    },
    { timeout: 15000 },
    ply,
  );
  return page.$eval("#board", (b) => ({ fen: b.dataset.fen, ply: Number(b.dataset.ply) }));
}

async function main() {
  fs.mkdirSync(outdir, { recursive: true });
  const archive = path.join(outdir, "games.pga");
  cli("pack", pgn, "-o", archive, "--force");
  const xiangqiArchive = path.join(outdir, "xiangqi.pga");
  cli("pack", xiangqiPgn, "-o", xiangqiArchive, "--force");
  const count = Number(cli("find", archive, "--count"));
  const { proc, base } = await startServer(archive);
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    page.on("pageerror", (e) => check(false, "page error: " + e.message));
    page.on("console", (m) => m.type() === "error" && check(false, "console error: " + m.text()));
    // (A board picture replaced before it loaded, by a step or a flip, is cancelled: no failure.)
    page.on("requestfailed", (r) => r.url().includes("/api/board?") && r.failure()?.errorText === "net::ERR_ABORTED" ||
      check(false, "request failed: " + r.url()));
    page.on("response", (r) => r.status() >= 400 && check(false, `${r.status()} from ${r.url()}`));

    // /game/N?ply=K shows get N --fen K.
    for (const n of [1, 2, Math.ceil(count / 2), count]) {
      const plies = countPlies(archive, n);
      for (const k of [...new Set([0, 1, 9, plies])]) {
        await page.goto(`${base}/game/${n}?ply=${k}`);
        const b = await boardAt(page, k);
        check(b.fen === cli("get", archive, String(n), "--fen", String(k)).trim(), `/game/${n}?ply=${k}: data-fen ${b.fen}`);
      }
    }

    // Keys step through the game, and the URL follows.
    await page.goto(`${base}/game/2?ply=4`);
    await boardAt(page, 4);
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    let b = await boardAt(page, 7);
    check(b.fen === cli("get", archive, "2", "--fen", "7").trim(), "ArrowRight x3 reaches ply 7");
    await page.keyboard.press("ArrowLeft");
    b = await boardAt(page, 6);
    check(b.fen === cli("get", archive, "2", "--fen", "6").trim(), "ArrowLeft goes back to ply 6");
    await page.waitForFunction(() => location.search.includes("ply=6"), { timeout: 5000 }).catch(() => {});
    check(page.url().includes("ply=6"), "the URL names the ply shown: " + page.url());
    await page.keyboard.press("Home");
    b = await boardAt(page, 0);
    check(b.fen === cli("get", archive, "2", "--fen", "0").trim(), "Home goes to the start");
    await page.goto(`${base}/game/${count}?ply=20`);
    await boardAt(page, 20);
    await new Promise((r) => setTimeout(r, 500));
    const shots = [outdir, process.env.PGNARC_SCREENSHOTS].filter(Boolean);
    for (const dir of shots) await page.screenshot({ path: path.join(dir, "serve-game.png") });

    // A share link opens its game: its moves, to the last.
    const token = cli("share", archive, "3").trim();
    const last = countPlies(archive, 3);
    await page.goto(`${base}/s/${token}`);
    await boardAt(page, null);
    await page.keyboard.press("End");
    b = await boardAt(page, last);
    check(b.fen === cli("get", archive, "3", "--fen", String(last)).trim(), "/s/TOKEN shows game 3 to its end");

    // The share page that needs no server opens the same token (its decoder is WebAssembly).
    await page.goto(`${base}/share#${token}`);
    await boardAt(page, 0);
    await page.keyboard.press("End");
    b = await boardAt(page, last);
    check(b.fen === cli("get", archive, "3", "--fen", String(last)).trim(), "share#TOKEN shows game 3 to its end");
    const svg = await page.$eval("#board svg", (s) => s.dataset.fen);
    check(svg === b.fen, "the share page draws the position it names");

    // The explorer counts as tree --json, at a position and one move deeper.
    const tree = JSON.parse(cli("tree", archive, "--moves", "e4", "--json"));
    await page.goto(`${base}/explorer?fen=${encodeURIComponent(tree.position)}`);
    const explorerCounts = async (fen) => {
      await page.waitForFunction(
        (f) => {
          const b = document.querySelector("#board[data-fen]");
          const t = document.querySelector("#tree-total[data-games]");
          return b && b.dataset.fen === f && t && t.dataset.fen === f;
        },
        { timeout: 15000 },
        fen,
      );
      return page.evaluate(() => ({
        games: Number(document.querySelector("#tree-total").dataset.games),
        rows: [...document.querySelectorAll("#tree [data-uci]")].map((r) => [r.dataset.uci, Number(r.dataset.games)]),
      }));
    };
    let seen = await explorerCounts(tree.position);
    check(seen.games === tree.games, `explorer total ${seen.games} == tree --json ${tree.games}`);
    check(JSON.stringify(seen.rows) === JSON.stringify(tree.moves.map((m) => [m.uci, m.games])), "explorer rows == tree --json");
    for (const dir of shots) await page.screenshot({ path: path.join(dir, "serve-explorer.png") });
    const deeper = JSON.parse(cli("tree", archive, "--moves", "e4 " + tree.moves[0].san, "--json"));
    await page.click(`#tree [data-uci="${tree.moves[0].uci}"]`);
    seen = await explorerCounts(deeper.position);
    check(seen.games === deeper.games && seen.rows.length === deeper.moves.length, "a click goes one move deeper");

    // A search by player lists find's games.
    const player = cli("get", archive, "1", "--list").split("\t")[1].slice(0, 5);
    const want = cli("find", archive, "--player", player).split("\n").filter(Boolean).map(Number);
    await page.goto(`${base}/?player=${encodeURIComponent(player)}`);
    await page.waitForSelector("#results [data-n]", { timeout: 15000 });
    const got = await page.$$eval("#results [data-n]", (rows) => rows.map((r) => Number(r.dataset.n)));
    check(JSON.stringify(got) === JSON.stringify(want), `search player=${player}: ${got} == find ${want}`);

    // A Xiangqi game's page: the board is the picture get --svg draws, ply by ply, flipped by "f".
    const xq = await startServer(xiangqiArchive);
    try {
      const picture = async () => {
        await page.waitForFunction(() => {
          const img = document.querySelector("#board img")
          return img && img.complete && img.naturalWidth > 0
        }, { timeout: 15000 });
        return page.evaluate(async () => (await fetch(document.querySelector("#board img").src)).text());
      };
      await page.goto(`${xq.base}/game/1?ply=5`);
      b = await boardAt(page, 5);
      check(b.fen === cli("get", xiangqiArchive, "1", "--fen", "5").trim(), `Xiangqi /game/1?ply=5: data-fen ${b.fen}`);
      check((await picture()) === cli("get", xiangqiArchive, "1", "--svg", "5"), "Xiangqi ply 5 drawn as get --svg");
      await page.keyboard.press("ArrowRight");
      b = await boardAt(page, 6);
      check(b.fen === cli("get", xiangqiArchive, "1", "--fen", "6").trim(), "Xiangqi: ArrowRight reaches ply 6");
      await page.keyboard.press("f");
      await page.waitForFunction(() => document.querySelector("#board img").src.includes("flip=1"), { timeout: 5000 }).catch(() => {});
      check((await picture()) === cli("get", xiangqiArchive, "1", "--svg", "6", "--flip"), "Xiangqi: f flips the picture");
      const moves = await page.$$eval("#moves .move", (els) => els.slice(0, 2).map((e) => e.textContent));
      check(JSON.stringify(moves) === JSON.stringify(["1. 炮二平五", "马８进７"]), `Xiangqi moves as written: ${moves}`);
      const title = await page.$eval("#title", (t) => t.textContent);
      check(title.startsWith("ZHAO GuoRong – KE YongQing"), `Xiangqi title names Red: ${title}`);
      const explorerFen = await page.$eval("#explorer-link", (a) => new URL(a.href).searchParams.get("fen"));
      check(explorerFen === b.fen, `the explorer link names the Xiangqi position shown: ${explorerFen}`);
      await page.screenshot({ path: path.join(outdir, "serve-xiangqi.png") });

      // The explorer of the Xiangqi games (opened with no position: Xiangqi's start, the archive
      // holding no chess game) counts as tree --json, and a row goes one move deeper.
      const xqStart = cli("get", xiangqiArchive, "1", "--fen", "0").trim();
      const xqTree = JSON.parse(cli("tree", xiangqiArchive, "--position", xqStart, "--json"));
      await page.goto(`${xq.base}/explorer`);
      seen = await explorerCounts(xqStart);
      check(seen.games === xqTree.games && xqTree.games > 0, `Xiangqi explorer total ${seen.games} == tree --json ${xqTree.games}`);
      check(JSON.stringify(seen.rows) === JSON.stringify(xqTree.moves.map((m) => [m.uci, m.games])),
        "Xiangqi explorer rows == tree --json");
      const afterFirst = cli("get", xiangqiArchive, "1", "--fen", "1").trim();  // game 1 opens h2e2
      const xqDeeper = JSON.parse(cli("tree", xiangqiArchive, "--position", afterFirst, "--json"));
      await page.click('#tree [data-uci="h2e2"]');
      seen = await explorerCounts(afterFirst);
      check(seen.games === xqDeeper.games && seen.rows.length === xqDeeper.moves.length, "a Xiangqi row goes one move deeper");
      check((await picture()) === cli("get", xiangqiArchive, "1", "--svg", "1"), "the explorer draws the Xiangqi position");
    } finally {
      xq.proc.kill("SIGINT");
    }
  } finally {
    await browser.close();
    proc.kill("SIGINT");
  }
  if (failures.length) {
    console.error(failures.length + " checks failed");
    process.exit(1);
  }
  console.log("serve in a browser: every check passed");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
