// The search page: a filter form whose values live in the URL's query string,
// and a sortable, paged table of the matching games.
import {api, el, query, renderHeader, loadInfo, showError} from "/assets/common.js"

const PAGE_SIZE = 50
const form = document.getElementById("search")
const table = document.getElementById("results")

// Table columns: heading, sort key (null: not sortable) and cell text of a game.
const COLUMNS = [
    {title: "#", sort: "number", cell: g => String(g.n), class: "num"},
    {title: "White", sort: "white", cell: g => g.white},
    {title: "WhiteElo", sort: "white_elo", cell: g => g.white_elo, class: "num"},
    {title: "Black", sort: "black", cell: g => g.black},
    {title: "BlackElo", sort: "black_elo", cell: g => g.black_elo, class: "num"},
    {title: "Result", sort: "result", cell: g => g.result, class: "result"},
    {title: "Date", sort: "date", cell: g => g.date},
    {title: "Event", sort: "event", cell: g => g.event},
]
const MOVE_COLUMN = {title: "Move", sort: null, cell: g => g.move || "", class: "move"}

// The search parameters of the current URL.
function urlParams() {
    return Object.fromEntries(new URLSearchParams(location.search))
}

// Writes `params` into the form fields.
function fillForm(params) {
    for (const field of form.elements) {
        if (field.name) field.value = params[field.name] ?? (field.tagName === "SELECT" && field.name === "archive" ? "0" : "")
    }
}

// The form's non-empty values (archive 0 is left out, being the default).
function formParams() {
    const params = {}
    for (const [key, value] of new FormData(form)) {
        const text = String(value).trim()
        if (text !== "" && !(key === "archive" && text === "0")) params[key] = text
    }
    return params
}

// Replaces the URL's query with `params` (a new history entry) and runs the search.
function navigate(params) {
    history.pushState(null, "", "/" + query(params))
    run()
}

// The number of the latest search: an answer to an earlier one is dropped.
let latest = 0

// Runs the search named by the URL and renders the table and the pager.
async function run() {
    const number = ++latest
    const params = urlParams()
    fillForm(params)
    const archive = parseInt(params.archive || "0", 10) || 0
    const offset = Math.max(0, parseInt(params.offset || "0", 10) || 0)
    const request = {...params, archive, offset, limit: PAGE_SIZE}
    showError("")
    table.classList.add("loading")
    try {
        const data = await api("/api/games", request)
        if (number === latest) render(data, params)
    } catch (error) {
        if (number === latest) showError(error.message)
    } finally {
        if (number === latest) table.classList.remove("loading")
    }
}

// Renders the result page `data` of the search `params`.
function render(data, params) {
    const positional = Boolean(params.fen || params.moves)
    const columns = positional ? [...COLUMNS, MOVE_COLUMN] : COLUMNS
    const sort = params.sort || "number"
    const order = params.order || "asc"

    const head = el("tr", {}, columns.map(column => {
        if (!column.sort) return el("th", {class: column.class}, column.title)
        const active = column.sort === sort
        const next = active && order === "asc" ? "desc" : "asc"
        const arrow = active ? (order === "asc" ? " ▲" : " ▼") : ""
        return el("th", {class: [column.class, "sortable", active ? "sorted" : ""].filter(Boolean).join(" "),
            title: "Sort by " + column.title, "data-sort": column.sort,
            onclick: () => navigate({...params, sort: column.sort, order: next, offset: ""})},
            column.title + arrow)
    }))
    table.tHead.replaceChildren(head)

    const suffix = data.archive ? `?archive=${data.archive}` : ""
    const rows = data.games.map(game => {
        const href = `/game/${game.n}${suffix}`
        return el("tr", {"data-n": String(game.n)}, columns.map((column, i) =>
            el("td", {class: column.class}, i === 0 || column.title === "White" || column.title === "Black"
                ? el("a", {href}, column.cell(game)) : column.cell(game))))
    })
    if (rows.length === 0) rows.push(el("tr", {class: "empty"}, el("td", {colspan: String(columns.length)}, "No games found.")))
    table.tBodies[0].replaceChildren(...rows)

    const first = data.offset + 1
    const last = data.offset + data.games.length
    const total = data.total.toLocaleString("en")
    document.getElementById("range").textContent = data.games.length
        ? `games ${first.toLocaleString("en")}–${last.toLocaleString("en")} of ${total}`
        : `no games from ${first.toLocaleString("en")} (of ${total})`
    const prev = document.getElementById("prev")
    const next = document.getElementById("next")
    prev.disabled = data.offset <= 0
    next.disabled = last >= data.total
    prev.onclick = () => navigate({...params, offset: Math.max(0, data.offset - PAGE_SIZE) || ""})
    next.onclick = () => navigate({...params, offset: data.offset + PAGE_SIZE})
}

// Fills the archive select when the server has more than one archive.
function setupArchives(info) {
    if (info.archives.length < 2) return
    const select = form.elements.archive
    select.replaceChildren(...info.archives.map(a =>
        el("option", {value: String(a.archive)}, `${a.name} (${a.games.toLocaleString("en")})`)))
    select.value = urlParams().archive || "0"
    document.getElementById("archive-field").hidden = false
    select.addEventListener("change", () => loadInfo(parseInt(select.value, 10) || 0).catch(() => {}))
}

form.addEventListener("submit", event => {
    event.preventDefault()
    const params = formParams()
    // A new search keeps the sort but starts at the first page; "move" only goes with a position.
    if (!params.fen && !params.moves) delete params.move
    navigate(params)
})
document.getElementById("reset").addEventListener("click", () => {
    const archive = form.elements.archive.value
    navigate(archive && archive !== "0" ? {archive} : {})
})
window.addEventListener("popstate", run)

renderHeader("search")
loadInfo(parseInt(urlParams().archive || "0", 10) || 0)
    .then(setupArchives)
    .catch(error => showError(error.message))
    .finally(run)
