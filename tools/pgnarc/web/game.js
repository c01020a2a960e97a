// The game page: a game from /api/game (path /game/N) or /api/token (path /s/TOKEN) shown on a
// board that steps through the moves, with the move list, an eval/clock graph, tags, PGN and share link.
// A Xiangqi game's board is the server's picture of each position (/api/board).
import {api, el, param, archiveParam, renderHeader, loadInfo, showError,
    createBoard, setBoardFen, markLastMove, flipBoard, xiangqiBoard, copyText} from "/assets/common.js"

const NAG_SYMBOLS = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}
const SVG_NS = "http://www.w3.org/2000/svg"
const EVAL_LIMIT = 10

const state = {
    game: null,      // the JSON of the game
    nodes: [],       // game.nodes
    current: 0,      // id of the node shown
    board: null,     // a cm-chessboard, or a Xiangqi game's xiangqiBoard
    xiangqi: false,
    boardEl: document.getElementById("board"),
    moveEls: new Map(), // node id -> its element in the move list
    mainIndex: new Map(), // node id -> its index in game.mainline
    graphs: [],      // {svg, marker, x(k)} of each drawn graph
}

// The text of NAG number n.
export function nagText(n) {
    return NAG_SYMBOLS[n] || "$" + n
}

// Formats a clock in seconds as H:MM:SS (an hour or more) or M:SS.
export function formatClock(seconds) {
    const total = Math.max(0, Math.floor(seconds))
    const h = Math.floor(total / 3600)
    const m = Math.floor((total % 3600) / 60)
    const s = String(total % 60).padStart(2, "0")
    return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`
}

// The side to move ("w"/"b") and the full move number of a FEN.
function fenTurn(fen) {
    const fields = fen.split(" ")
    return {side: fields[1] || "w", number: parseInt(fields[5] || "1", 10) || 1}
}

// Where the page's game comes from: {n} for /game/N, {token} for /s/TOKEN.
function source() {
    const path = location.pathname
    let match = path.match(/^\/game\/(\d+)\/?$/)
    if (match) return {n: parseInt(match[1], 10)}
    match = path.match(/^\/s\/([^/]+)\/?$/)
    if (match) return {token: decodeURIComponent(match[1])}
    return {}
}

// The value of tag `key` of the game ("" when absent).
function tag(key) {
    const found = state.game.tags.find(([k]) => k === key)
    return found ? found[1] : ""
}

// ----- showing a node -----

function flip() {
    if (state.xiangqi) state.board.flip()
    else flipBoard(state.board)
}

// Shows node `id`: board, attributes, markers, highlighted move, graph marker and URL.
function show(id, animated = true) {
    const node = state.nodes[id]
    if (!node) return
    state.current = id
    if (state.xiangqi) {
        state.board.show(node.fen, node.uci)
    } else {
        setBoardFen(state.board, state.boardEl, node.fen, animated)
        markLastMove(state.board, node.uci)
    }
    state.boardEl.dataset.ply = String(node.ply)
    state.boardEl.dataset.node = String(id)

    for (const element of document.querySelectorAll("#moves .current")) element.classList.remove("current")
    const moveEl = state.moveEls.get(id)
    if (moveEl) {
        moveEl.classList.add("current")
        scrollIntoList(moveEl)
    }

    const index = state.mainIndex.get(id)
    for (const graph of state.graphs) {
        graph.marker.style.display = index === undefined ? "none" : ""
        if (index !== undefined) {
            graph.marker.setAttribute("x1", graph.x(index))
            graph.marker.setAttribute("x2", graph.x(index))
        }
    }
    if (index !== undefined) {
        const search = new URLSearchParams(location.search)
        search.set("ply", String(index))
        history.replaceState(null, "", location.pathname + "?" + search.toString())
    }

    const explorer = document.getElementById("explorer-link")
    const archive = state.game.archive
    explorer.href = "/explorer?" + new URLSearchParams(
        archive ? {fen: node.fen, archive: String(archive)} : {fen: node.fen}).toString()
}

// Scrolls the move list (not the page) so that `element` is visible.
function scrollIntoList(element) {
    const list = document.getElementById("moves")
    const top = element.offsetTop - list.offsetTop
    if (top < list.scrollTop) list.scrollTop = top - 8
    else if (top + element.offsetHeight > list.scrollTop + list.clientHeight)
        list.scrollTop = top + element.offsetHeight - list.clientHeight + 8
}

function next() {
    const children = state.nodes[state.current].children
    if (children.length) show(children[0])
}

function previous() {
    const parent = state.nodes[state.current].parent
    if (parent >= 0) show(parent)
}

function start() {
    show(0)
}

function end() {
    let id = state.current
    while (state.nodes[id].children.length) id = state.nodes[id].children[0]
    show(id)
}

// ----- move list -----

// Renders the move tree into #moves: the main line, with variations in parentheses.
function renderMoves() {
    const container = document.getElementById("moves")
    const root = state.nodes[0]
    const line = el("div", {class: "mainline"})
    if (root.comment) line.append(el("span", {class: "comment"}, root.comment), " ")
    if (root.children.length) renderLine(root.children[0], line)
    const result = state.game.result || tag("Result")
    if (result) line.append(el("span", {class: "game-result"}, result))
    container.replaceChildren(line)
}

// Appends the moves from node `id` along main continuations to `out`, each followed by the
// variations that are alternatives to it.
function renderLine(id, out) {
    let needNumber = true
    for (let current = id; current !== undefined; current = state.nodes[current].children[0]) {
        const node = state.nodes[current]
        needNumber = appendMove(current, out, needNumber)
        const siblings = state.nodes[node.parent].children
        if (siblings[0] === current && siblings.length > 1) {
            for (const variation of siblings.slice(1)) {
                const group = el("span", {class: "variation"}, "(")
                renderLine(variation, group)
                if (group.lastChild.nodeType === Node.TEXT_NODE && group.lastChild.data === " ") group.lastChild.remove()
                group.append(")")
                out.append(" ", group, " ")
            }
            needNumber = true
        }
    }
}

// Appends node `id`'s move (with its comments, NAGs and clock) to `out`; returns whether the
// next move needs its number written.
function appendMove(id, out, needNumber) {
    const node = state.nodes[id]
    const turn = fenTurn(state.nodes[node.parent].fen)
    if (node.before) {
        out.append(el("span", {class: "comment"}, node.before), " ")
        needNumber = true
    }
    let number = ""
    if (turn.side === "w") number = `${turn.number}. `
    else if (needNumber) number = `${turn.number}… `
    const move = el("span", {class: "move", "data-node": String(id), tabindex: "-1"},
        number ? el("span", {class: "number"}, number) : null,
        node.san || node.uci,
        (node.nags || []).map(n => el("span", {class: "nag"}, nagText(n))))
    move.addEventListener("click", () => show(id))
    state.moveEls.set(id, move)
    out.append(move)
    if (node.clock !== null && node.clock !== undefined)
        out.append(el("span", {class: "clock"}, formatClock(node.clock)))
    out.append(" ")
    if (node.comment) {
        out.append(el("span", {class: "comment"}, node.comment), " ")
        return true
    }
    return false
}

// ----- graph -----

// The evaluation of a node in pawns clamped to ±EVAL_LIMIT (mates at the limit), or null.
function evalOf(node) {
    if (node.mate !== null && node.mate !== undefined) {
        if (node.mate > 0) return EVAL_LIMIT
        if (node.mate < 0) return -EVAL_LIMIT
        return fenTurn(node.fen).side === "w" ? -EVAL_LIMIT : EVAL_LIMIT
    }
    if (node.eval === null || node.eval === undefined) return null
    return Math.max(-EVAL_LIMIT, Math.min(EVAL_LIMIT, node.eval))
}

function svg(tag, attrs = {}) {
    const node = document.createElementNS(SVG_NS, tag)
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value))
    return node
}

// Draws one graph panel of the main line: `series` are {points: [[k, value]], class}, values
// within [min, max]; `zero` draws a line at 0. Returns the panel's SVG.
function drawPanel(title, series, min, max, zero, labels) {
    const count = state.game.mainline.length
    const width = 480, height = 110, left = 34, right = 6, top = 6, bottom = 6
    const x = k => left + (count > 1 ? (k * (width - left - right)) / (count - 1) : 0)
    const y = v => top + ((max - v) * (height - top - bottom)) / (max - min || 1)
    const panel = svg("svg", {viewBox: `0 0 ${width} ${height}`, class: "graph-panel", role: "img", "aria-label": title})
    panel.append(svg("rect", {x: left, y: top, width: width - left - right, height: height - top - bottom, class: "frame"}))
    if (zero) panel.append(svg("line", {x1: left, x2: width - right, y1: y(0), y2: y(0), class: "zero"}))
    for (const [value, text] of labels) {
        const label = svg("text", {x: left - 4, y: y(value) + 4, class: "label"})
        label.textContent = text
        panel.append(label)
    }
    for (const {points, cls} of series) {
        if (points.length < 1) continue
        if (zero && cls === "eval") {
            const area = `M${x(points[0][0])},${y(0)} ` + points.map(([k, v]) => `L${x(k)},${y(v)}`).join(" ") +
                ` L${x(points[points.length - 1][0])},${y(0)} Z`
            panel.append(svg("path", {d: area, class: "eval-area"}))
        }
        panel.append(svg("polyline", {points: points.map(([k, v]) => `${x(k)},${y(v)}`).join(" "), class: cls}))
    }
    const marker = svg("line", {x1: x(0), x2: x(0), y1: top, y2: height - bottom, class: "marker"})
    panel.append(marker)
    panel.addEventListener("click", event => {
        const box = panel.getBoundingClientRect()
        const px = ((event.clientX - box.left) * width) / box.width
        const k = Math.round(((px - left) * (count - 1)) / (width - left - right))
        show(state.game.mainline[Math.max(0, Math.min(count - 1, k))])
    })
    state.graphs.push({svg: panel, marker, x})
    return panel
}

// Draws the evaluation and clock graphs of the main line into #graph when the game has them.
function renderGraph() {
    const container = document.getElementById("graph")
    const evals = [], white = [], black = []
    state.game.mainline.forEach((id, k) => {
        const node = state.nodes[id]
        const value = evalOf(node)
        if (value !== null) evals.push([k, value])
        if (k > 0 && node.clock !== null && node.clock !== undefined) {
            const mover = fenTurn(state.nodes[node.parent].fen).side
            ;(mover === "w" ? white : black).push([k, node.clock])
        }
    })
    const panels = []
    if (evals.length) {
        panels.push(el("div", {class: "graph-title"}, "Evaluation"))
        panels.push(drawPanel("Evaluation", [{points: evals, cls: "eval"}], -EVAL_LIMIT, EVAL_LIMIT, true,
            [[EVAL_LIMIT, "+10"], [0, "0"], [-EVAL_LIMIT, "−10"]]))
    }
    if (white.length || black.length) {
        const most = Math.max(1, ...white.map(p => p[1]), ...black.map(p => p[1]))
        panels.push(el("div", {class: "graph-title"}, "Clock ",
            el("span", {class: "key white-key"}, "white"), " ", el("span", {class: "key black-key"}, "black")))
        panels.push(drawPanel("Clock", [{points: white, cls: "clock-white"}, {points: black, cls: "clock-black"}],
            0, most, false, [[most, formatClock(most)], [0, "0"]]))
    }
    if (panels.length) {
        container.replaceChildren(...panels)
        container.hidden = false
    }
}

// ----- tags, PGN, share -----

function renderTags() {
    const body = document.querySelector("#tags tbody")
    body.replaceChildren(...state.game.tags.map(([key, value]) =>
        el("tr", {}, el("th", {}, key), el("td", {}, value))))
    const white = tag("White") || tag("Red") || "?", black = tag("Black") || "?"
    const welo = tag("WhiteElo"), belo = tag("BlackElo")
    const title = `${white}${welo ? ` (${welo})` : ""} – ${black}${belo ? ` (${belo})` : ""}`
    const result = state.game.result || tag("Result")
    document.getElementById("title").textContent = title + (result ? `  ${result}` : "")
    const place = [tag("Event"), tag("Site"), tag("Date")].filter(t => t && t !== "?" && !/^\?+\.\?+\.\?+$/.test(t))
    if (place.length) document.getElementById("title").append(el("small", {}, place.join(" · ")))
    document.title = `${white} – ${black} — pgnarc`
}

function renderPgn() {
    const area = document.getElementById("pgn")
    area.value = state.game.pgn
    const copy = document.getElementById("copy-pgn")
    copy.addEventListener("click", async () => {
        copy.textContent = (await copyText(area.value)) ? "Copied" : "Copy failed"
        setTimeout(() => { copy.textContent = "Copy" }, 1500)
    })
    const download = document.getElementById("download-pgn")
    try {
        const blob = new Blob([state.game.pgn], {type: "application/x-chess-pgn"})
        download.href = URL.createObjectURL(blob)
        download.download = state.game.n !== undefined ? `game-${state.game.n}.pgn` : "game.pgn"
    } catch {
        download.remove()
    }
}

function renderShare() {
    const box = document.getElementById("share")
    const token = state.game.token
    if (!token) {
        box.replaceChildren(el("span", {class: "muted"}, "no share link for this game"))
        return
    }
    const url = location.origin + "/s/" + token
    const button = el("button", {type: "button", id: "copy-share"}, "Copy")
    button.addEventListener("click", async () => {
        button.textContent = (await copyText(url)) ? "Copied" : "Copy failed"
        setTimeout(() => { button.textContent = "Copy" }, 1500)
    })
    // The page that opens the token with no server (its one file may go on any static host).
    const page = el("a", {href: "/share#" + token, id: "share-page-link"}, "share page")
    const save = el("a", {href: "/share", download: "share.html",
        title: "one file for any static host: open it with #TOKEN after its address"}, "save it")
    box.replaceChildren(el("a", {href: url, id: "share-link"}, url), button,
        el("span", {class: "muted"}, " · with no server: the "), page, el("span", {class: "muted"}, " ("), save,
        el("span", {class: "muted"}, ")"))
}

// ----- setup -----

function onKey(event) {
    if (event.target.closest("input, textarea, select") || event.altKey || event.ctrlKey || event.metaKey) return
    const actions = {ArrowRight: next, ArrowLeft: previous, Home: start, End: end,
        f: flip, F: flip}
    const action = actions[event.key]
    if (!action || !state.board) return
    event.preventDefault()
    action()
}

async function main() {
    renderHeader("game")
    const from = source()
    const archive = archiveParam()
    loadInfo(archive).catch(() => {})
    if (from.n === undefined && from.token === undefined) {
        showError("no game in this address")
        return
    }
    try {
        state.game = from.token !== undefined
            ? await api("/api/token", {t: from.token})
            : await api("/api/game", {archive, n: from.n})
    } catch (error) {
        showError(error.message)
        return
    }
    renderTags()
    renderPgn()
    renderShare()
    if (state.game.verbatim || !state.game.nodes) {
        document.querySelector(".game-layout").hidden = true
        document.getElementById("title").after(
            el("p", {class: "notice"}, "This game is stored verbatim: its moves are shown as PGN only."))
        return
    }
    state.nodes = state.game.nodes
    state.game.mainline.forEach((id, k) => state.mainIndex.set(id, k))
    state.xiangqi = state.game.rules === "xiangqi"
    state.board = state.xiangqi ? xiangqiBoard(state.boardEl) : createBoard(state.boardEl, state.nodes[0].fen)
    renderMoves()
    renderGraph()

    const last = state.game.mainline.length - 1
    const ply = parseInt(param("ply", "0"), 10)
    const index = Number.isFinite(ply) ? Math.max(0, Math.min(last, ply)) : 0
    show(state.game.mainline[index], false)

    document.addEventListener("keydown", onKey)
    document.getElementById("first").addEventListener("click", start)
    document.getElementById("back").addEventListener("click", previous)
    document.getElementById("forward").addEventListener("click", next)
    document.getElementById("last").addEventListener("click", end)
    document.getElementById("flip").addEventListener("click", flip)
}

main()
