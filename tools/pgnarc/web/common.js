// Helpers shared by the pages of `pgnarc serve`: JSON fetching, query parameters,
// small DOM builders, the page header and the chessboard.
import {Chessboard, COLOR, FEN} from "/assets/vendor/cm-chessboard/src/Chessboard.js"
import {Markers, MARKER_TYPE} from "/assets/vendor/cm-chessboard/src/extensions/markers/Markers.js"

export {COLOR, FEN, MARKER_TYPE}

export const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
export const XIANGQI_START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

// Whether `fen` is a Xiangqi FEN (ten ranks).
export function isXiangqiFen(fen) {
    return fen.split(" ")[0].split("/").length === 10
}

// Fetches `path` (with `params` as query) and returns the parsed JSON; throws an Error
// carrying the API's {"error": message} text when the answer is not 2xx.
export async function api(path, params = {}) {
    const url = path + query(params)
    const response = await fetch(url)
    let body = null
    try {
        body = await response.json()
    } catch {
        body = null
    }
    if (!response.ok) {
        const message = body && body.error ? body.error : `${response.status} ${response.statusText}`
        throw new Error(message)
    }
    if (body === null) throw new Error("invalid JSON from " + path)
    return body
}

// Builds "?a=1&b=2" from an object, leaving out empty and null values; "" when nothing is left.
export function query(params) {
    const search = new URLSearchParams()
    for (const [key, value] of Object.entries(params)) {
        if (value !== undefined && value !== null && value !== "") search.set(key, String(value))
    }
    const text = search.toString()
    return text ? "?" + text : ""
}

// The current page's query parameter `name`, or `fallback` when absent or empty.
export function param(name, fallback = "") {
    const value = new URLSearchParams(location.search).get(name)
    return value === null || value === "" ? fallback : value
}

// The archive index from ?archive= (0 when absent or invalid).
export function archiveParam() {
    const n = parseInt(param("archive", "0"), 10)
    return Number.isFinite(n) && n >= 0 ? n : 0
}

// Creates an element with attributes/properties and children (strings or nodes).
export function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag)
    for (const [key, value] of Object.entries(attrs)) {
        if (value === undefined || value === null || value === false) continue
        if (key === "class") node.className = value
        else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value)
        else if (key in node && typeof value !== "string") node[key] = value
        else node.setAttribute(key, value === true ? "" : value)
    }
    for (const child of children.flat()) {
        if (child === null || child === undefined || child === false) continue
        node.append(child instanceof Node ? child : document.createTextNode(String(child)))
    }
    return node
}

// Shows `message` in the page's #error element (hides it when message is empty).
export function showError(message) {
    let box = document.getElementById("error")
    if (!box) {
        box = el("div", {id: "error", class: "error", role: "alert"})
        document.querySelector("main")?.prepend(box)
    }
    box.textContent = message || ""
    box.hidden = !message
}

// Fills the <header> of the page: the title and the navigation links.
export function renderHeader(current) {
    let header = document.querySelector("header.top")
    if (!header) {
        header = el("header", {class: "top"})
        document.body.prepend(header)
    }
    header.replaceChildren(
        el("a", {class: "brand", href: "/"}, "pgnarc"),
        el("nav", {},
            el("a", {href: "/", class: current === "search" ? "active" : null}, "Search"),
            el("a", {href: "/explorer", class: current === "explorer" ? "active" : null}, "Explorer")),
        el("span", {id: "archive-info", class: "archive-info"}))
}

// Writes "name — N games" of archive `index` into the header, from /api/info; returns the info.
export async function loadInfo(index = 0) {
    const info = await api("/api/info")
    const archive = info.archives.find(a => a.archive === index) || info.archives[0]
    const target = document.getElementById("archive-info")
    if (archive && target) target.textContent = `${archive.name} — ${archive.games.toLocaleString("en")} games`
    return info
}

// Creates a cm-chessboard in `container` showing `fen`, with the markers extension;
// the container carries data-fen with the FEN shown (see setBoardFen).
export function createBoard(container, fen = START_FEN) {
    const board = new Chessboard(container, {
        position: fen,
        assetsUrl: "/assets/vendor/cm-chessboard/assets/",
        style: {pieces: {file: "pieces/standard.svg"}, animationDuration: 150},
        extensions: [{class: Markers, props: {autoMarkers: MARKER_TYPE.frame}}],
    })
    container.dataset.fen = fen
    return board
}

// Shows `fen` on `board` and records it in the container's data-fen attribute.
export function setBoardFen(board, container, fen, animated = true) {
    container.dataset.fen = fen
    board.setPosition(fen, animated).catch(() => {})
}

// Marks the from/to squares of a UCI move ("e2e4", "e7e8q"; "0000" or "" marks nothing).
export function markLastMove(board, uci) {
    board.removeMarkers(MARKER_TYPE.square)
    if (!uci || uci.length < 4 || uci === "0000") return
    board.addMarker(MARKER_TYPE.square, uci.slice(0, 2))
    board.addMarker(MARKER_TYPE.square, uci.slice(2, 4))
}

// Toggles the board's orientation.
export function flipBoard(board) {
    board.setOrientation(board.getOrientation() === COLOR.white ? COLOR.black : COLOR.white)
}

// A Xiangqi board, which cm-chessboard cannot draw: the picture /api/board draws of a position,
// its last move (ICCS) marked; the container's data-fen names the position shown.
export function xiangqiBoard(container) {
    const img = el("img", {alt: "Xiangqi board"})
    container.classList.add("xiangqi")
    container.replaceChildren(img)
    let flipped = false, fen = "", uci = ""
    const draw = () => {
        const params = {fen, flip: flipped ? "1" : "0"}
        if (uci) params.last = uci
        img.src = "/api/board" + query(params)
    }
    return {
        show(position, last = "") {
            fen = position
            uci = last
            container.dataset.fen = fen
            draw()
        },
        flip() {
            flipped = !flipped
            draw()
        },
    }
}

// Converts a UCI string to a chess.js move object.
export function uciToMove(uci) {
    const move = {from: uci.slice(0, 2), to: uci.slice(2, 4)}
    if (uci.length > 4) move.promotion = uci[4]
    return move
}

// Copies `text` to the clipboard; falls back to selecting it in a temporary text field.
export async function copyText(text) {
    try {
        await navigator.clipboard.writeText(text)
        return true
    } catch {
        const field = el("textarea", {class: "offscreen", readonly: true})
        field.value = text
        document.body.append(field)
        field.select()
        const done = document.execCommand("copy")
        field.remove()
        return done
    }
}

// Formats a percentage of `part` in `total` ("0" when total is 0).
export function percent(part, total) {
    return total ? Math.round((100 * part) / total) : 0
}
