// The opening explorer: a board at ?fen= and the table of the moves played from that position
// in the archive (/api/tree); playing a move, on the board or in the table, goes one position deeper.
// A Xiangqi FEN (ten ranks) explores the Xiangqi games: the board is /api/board's picture, a move
// is played from the table, and the server says the position it leads to.
import {Chess} from "/assets/vendor/chess.js/chess.js"
import {INPUT_EVENT_TYPE} from "/assets/vendor/cm-chessboard/src/Chessboard.js"
import {api, el, query, param, archiveParam, renderHeader, loadInfo, showError, START_FEN, XIANGQI_START_FEN,
    isXiangqiFen, createBoard, setBoardFen, markLastMove, flipBoard, xiangqiBoard, uciToMove, percent}
    from "/assets/common.js"

const archive = archiveParam()
const boardEl = document.getElementById("board")
const history_ = []   // earlier positions: {fen, uci}
const fenGiven = param("fen") !== ""
let fen = param("fen", START_FEN)
const xiangqi = isXiangqiFen(fen)
const start = xiangqi ? XIANGQI_START_FEN : START_FEN
let lastUci = ""
let board = null
let request = 0       // number of the latest tree request (older answers are dropped)

// The URL of the search page listing the games of `position` (continuing with `uci` if given).
function gamesUrl(position, uci = "") {
    return "/" + query({archive: archive || "", fen: position, move: uci})
}

// Shows `position` and loads its tree; `uci` is the move that led there (for the marker).
function go(position, uci = "", animated = true) {
    fen = position
    lastUci = uci
    if (xiangqi) {
        board.show(fen, uci)
    } else {
        setBoardFen(board, boardEl, fen, animated)
        markLastMove(board, uci)
    }
    document.getElementById("fen").value = fen
    document.getElementById("back").disabled = history_.length === 0
    document.getElementById("games-link").href = gamesUrl(fen)
    history.replaceState(null, "", "/explorer" + query({fen, archive: archive || ""}))
    loadTree()
}

// Plays `uci` from the current position, if legal; returns whether it was played (a Xiangqi
// move: once the server has said where it leads).
async function play(uci) {
    let next
    if (xiangqi) {
        const from = fen
        try {
            next = (await api("/api/tree", {archive, fen: from, moves: uci, limit: 1})).position
        } catch (error) {
            if (fen === from) showError(error.message)
            return false
        }
        if (fen !== from) return false  // another position was shown meanwhile
        history_.push({fen, uci: lastUci})
        go(next, uci)
        return true
    }
    try {
        const chess = new Chess(fen)
        chess.move(uciToMove(uci))
        next = chess.fen()
    } catch {
        return false
    }
    history_.push({fen, uci: lastUci})
    go(next, uci)
    return true
}

function back() {
    const previous = history_.pop()
    if (previous) go(previous.fen, previous.uci)
}

function toStart() {
    if (fen === start) return
    history_.push({fen, uci: lastUci})
    go(start)
}

function flip() {
    if (xiangqi) board.flip()
    else flipBoard(board)
}

// A bar of white wins / draws / black wins, and the games with no result ("*" or none) in grey.
function resultBar(white, draws, black, games) {
    const w = percent(white, games), d = percent(draws, games)
    const b = white + draws + black === games ? Math.max(0, 100 - w - d) : percent(black, games)
    const u = games ? Math.max(0, 100 - w - d - b) : 0
    const part = (cls, value) => el("span", {class: cls, style: `width:${value}%`, title: `${value}%`},
        value >= 12 ? `${value}%` : "")
    const first = xiangqi ? "red" : "white"
    return el("div", {class: "bar", title: `${first} ${w}% · draws ${d}% · black ${games ? b : 0}%` +
            (u ? ` · no result ${u}%` : "")},
        games ? [part("w", w), part("d", d), part("b", b), u ? part("u", u) : null].filter(Boolean) : [])
}

async function loadTree() {
    const number = ++request
    const body = document.querySelector("#tree tbody")
    const total = document.getElementById("tree-total")
    // data-fen and data-games name the position the figures shown are of, once they have come.
    delete total.dataset.fen
    delete total.dataset.games
    showError("")
    let tree
    try {
        tree = await api("/api/tree", {archive, fen})
    } catch (error) {
        if (number !== request) return
        showError(error.message)
        body.replaceChildren()
        total.dataset.games = "0"
        total.textContent = ""
        return
    }
    if (number !== request) return
    total.dataset.fen = fen
    total.dataset.games = String(tree.games)
    total.replaceChildren(`${tree.games.toLocaleString("en")} games: ${tree.white.toLocaleString("en")} / `
        + `${tree.draws.toLocaleString("en")} / ${tree.black.toLocaleString("en")}`,
        resultBar(tree.white, tree.draws, tree.black, tree.games))
    if (tree.verbatim_games)
        total.append(el("span", {class: "notice"},
            ` (${tree.verbatim_games.toLocaleString("en")} games kept verbatim were not searched)`))
    const rows = tree.moves.map(move => {
        const row = el("tr", {"data-uci": move.uci, "data-games": String(move.games), class: "clickable",
                title: `Play ${move.san}`},
            el("td", {class: "san"}, move.san),
            el("td", {class: "num"}, move.games.toLocaleString("en")),
            el("td", {}, resultBar(move.white, move.draws, move.black, move.games)),
            el("td", {class: "num"}, move.avg_elo === null || move.avg_elo === undefined ? "" : String(Math.round(move.avg_elo))),
            el("td", {}, el("a", {href: gamesUrl(fen, move.uci), class: "games-link"}, "games")))
        row.addEventListener("click", event => {
            if (!event.target.closest("a")) play(move.uci)
        })
        return row
    })
    if (rows.length === 0) rows.push(el("tr", {class: "empty"}, el("td", {colspan: "5"}, "No games reach this position.")))
    body.replaceChildren(...rows)
}

// Board move input: only legal moves of chess.js are accepted (promotions to a queen).
function onMoveInput(event) {
    if (event.type === INPUT_EVENT_TYPE.moveInputStarted) {
        try {
            return new Chess(fen).moves({square: event.squareFrom, verbose: true}).length > 0
        } catch {
            return false
        }
    }
    if (event.type === INPUT_EVENT_TYPE.validateMoveInput) {
        let moves
        try {
            moves = new Chess(fen).moves({verbose: true})
        } catch {
            return false
        }
        const move = moves.find(m => m.from === event.squareFrom && m.to === event.squareTo)
        if (!move) return false
        const uci = move.from + move.to + (move.promotion ? "q" : "")
        // Plays the move after cm-chessboard has finished its own input handling.
        setTimeout(() => play(uci))
        return true
    }
    return true
}

function onKey(event) {
    if (event.target.closest("input, textarea, select") || event.altKey || event.ctrlKey || event.metaKey) return
    if (event.key === "ArrowLeft") back()
    else if (event.key === "Home") toStart()
    else if (event.key === "f" || event.key === "F") flip()
    else return
    event.preventDefault()
}

renderHeader("explorer")
loadInfo(archive).catch(error => showError(error.message))
if (xiangqi) {
    // (The server checks a Xiangqi FEN: a bad one is the tree's error.)
    board = xiangqiBoard(boardEl)
    document.querySelector("#tree thead th:nth-child(3)").textContent = "Red / Draw / Black"
} else {
    try {
        new Chess(fen)
    } catch (error) {
        showError("invalid FEN, the start position instead: " + error.message)
        fen = START_FEN
    }
    board = createBoard(boardEl, fen)
    board.enableMoveInput(onMoveInput)
}
document.getElementById("back").addEventListener("click", back)
document.getElementById("start").addEventListener("click", toStart)
document.getElementById("flip").addEventListener("click", flip)
document.addEventListener("keydown", onKey)
go(fen, "", false)
// Opened with no position on an archive of Xiangqi games alone (no game reaches chess's start, some
// reach Xiangqi's): Xiangqi's start instead.
if (!fenGiven) {
    Promise.all([api("/api/tree", {archive, limit: 1}), api("/api/tree", {archive, fen: XIANGQI_START_FEN, limit: 1})])
        .then(([chess, xq]) => {
            if (chess.games === 0 && xq.games > 0)
                location.replace("/explorer" + query({fen: XIANGQI_START_FEN, archive: archive || ""}))
        })
        .catch(() => {})
}
