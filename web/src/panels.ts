// Panels beside the board: seats (score, supply, hand, clock, presence), tiles left, the game's own
// panels as the view gives them, the last turn's scoring, the log, and the final scoring.
import { h, names, fmtClock } from "./util";
import { hasWord, lang, t, word } from "./i18n";
import type { View, Panel, GameEvent, EventView } from "./types";
import { settings } from "./notify";
import { logCell } from "./seen";

// A small picture of what a player holds (the look's `hand` glyph of an item, e.g. a token), or
// null when the look has none: panels show it beside or instead of the item's word.
export type Pic = (item: string) => SVGSVGElement | null;
const noPic: Pic = () => null;

// The hand's items by their words in the page's language (a panel's words name them so).
function handWords(v: View): Map<string, string> {
  const m = new Map<string, string>();
  for (const p of v.players) for (const x of p.hand) m.set((x.word ?? x.name).toLowerCase(), x.name);
  return m;
}

// A seat's name: a link to its player's page when the seat is bound to an account (`accounts`:
// GET /api/games/ID's seats' `account`, null for a guest or a seat nobody opened).
export function seatName(name: string, account: string | null | undefined): HTMLElement | string {
  return account ? h("a", { href: `/player/${encodeURIComponent(account)}`, "data-player-link": account, text: name }) : name;
}

export function seatsPanel(v: View, colours: string[], me: number, toMove: number, clocks: number[], presence: any, clockBase: number, accounts: (string | null)[] = [], pic: Pic = noPic): HTMLElement {
  const rows = v.players.map((p) => {
    const pr = presence?.seats?.[p.seat];
    const clock = clocks[p.seat] ?? -1;
    const left = clock < 0 ? -1 : p.seat === toMove ? clock - (Date.now() - clockBase) : clock;
    const state = p.bot ? "bot" : !pr ? "" : pr.resigned ? "resigned" : pr.stand_in ? "stand-in bot" : pr.connected ? "online" : pr.grace_until ? `away (bot in ${fmtClock(pr.grace_until - Date.now())})` : "away";
    const stateText = p.bot ? t("presence.bot") : !pr ? "" : pr.resigned ? t("presence.resigned") : pr.stand_in ? t("presence.stand_in") : pr.connected ? t("presence.online") : pr.grace_until ? t("presence.away_bot", { time: fmtClock(pr.grace_until - Date.now()) }) : t("presence.away");
    const supply = p.supply.map((s) => lang === "en" ? `${s.count} ${s.name}${s.count === 1 ? "" : "s"}` : t("supply.item", { n: s.count, name: s.word ?? word("piece", s.name) })).join(", ");
    // what the seat holds: each item's picture with its count (its words for screen readers), else in words
    const held = p.hand.filter((x) => x.count > 0);
    const said = (x: (typeof held)[number]) => lang === "en" ? `${x.count} ${x.name}` : t("supply.item", { n: x.count, name: x.word ?? x.name });
    const pics = held.map((x) => pic(x.name));
    const hand = pics.every((q) => q) ? "" : held.map(said).join(", ");
    const handPics = hand || !held.length ? null : h("span", { class: "hand-pics", "data-hand-pics": "" }, ...held.map((x, i) => h("span", { class: "held", title: said(x) }, pics[i]!, h("b", { "aria-hidden": "true", text: String(x.count) }), h("span", { class: "sr-only", text: said(x) }))));
    return h("tr", { "data-seat": p.seat, class: (p.seat === toMove ? "to-move " : "") + (p.seat === me ? "me" : "") },
      h("td", {}, h("span", { class: "swatch", style: `background:${colours[p.seat]}` })),
      h("td", { class: "name" }, seatName(p.name, accounts[p.seat]), p.seat === me ? t("seats.you") : "", h("div", { class: "sub" }, supply + (hand ? ` · ${hand}` : "") + (p.track ? ` · ${v.board.track?.word ?? v.board.track?.name ?? t("seats.track")} ${p.track}` : ""), handPics)),
      h("td", { class: "score", "data-score": p.score, text: String(p.score) }),
      h("td", { class: "clock", "data-clock": left < 0 ? "" : Math.round(left), text: left < 0 ? "" : fmtClock(left) }),
      h("td", { class: "presence", "data-presence": state, title: stateText }, h("span", { class: `dot ${state.split(" ")[0]}` })));
  });
  return section("scores", t("panel.players"), h("table", { class: "seats" }, h("tbody", {}, ...rows)));
}

export function pilePanel(v: View, tileURL: (id: string) => string): HTMLElement {
  const items = v.pile.tiles.filter((x) => x.count > 0).map((x) =>
    h("span", { class: "pile-tile", "data-pile-tile": x.name, title: t("pile.tile_left", { id: x.name, n: x.count }) }, imgEl(tileURL(x.name), x.name), h("b", { text: String(x.count) })));
  const head = t("pile.left", { n: v.pile.left }) + (v.pile.bonus_left ? t("pile.bonus", { n: v.pile.bonus_left }) : "");
  return section("pile", t("panel.pile"), h("div", { class: "sub", text: head }), h("div", { class: "pile" }, ...items));
}

function imgEl(src: string, alt: string): HTMLImageElement {
  const i = h("img", { src, alt, width: 34, height: 34, loading: "lazy", decoding: "async" });
  return i;
}

export function gamePanel(p: Panel, v: View, colours: string[], pic: Pic = noPic): HTMLElement {
  const kids: Node[] = [];
  const words = handWords(v);
  const picOf = (word: string) => { const n = words.get(word.toLowerCase()); return n ? pic(n) : null; };
  for (const c of p.counters) kids.push(h("div", { class: "counter" }, h("b", { text: names(c.name, v.players) + ": " }), ...withPics(cellsIn(names(c.value, v.players)), words, pic)));
  if (p.columns.length || p.rows.length) {
    const seatCol = p.columns[0] === "seat";
    // the seats' column has no heading: an empty corner cell, not an empty header; a column of a
    // held item is headed by its picture (its word for screen readers and as the tooltip)
    const head = h("tr", {}, ...p.columns.map((c, i) => {
      if (seatCol && i === 0) return h("td", {});
      const word = names(c, v.players), q = picOf(word);
      return q ? h("th", { class: "pic-head", title: word }, q, h("span", { class: "sr-only", text: word })) : h("th", { text: word });
    }));
    const body = p.rows.map((r) => h("tr", {}, ...r.map((c, i) => seatCol && i === 0
      ? h("td", {}, h("span", { class: "swatch", style: `background:${colours[Number(c)] ?? "#888"}` }), " " + (v.players[Number(c)]?.name ?? c))
      : h("td", { text: names(c, v.players) }))));
    // a wide table scrolls sideways: focusable, so that keys scroll it too
    kids.push(h("div", { class: "scroll-x", tabindex: 0, role: "group", "aria-label": names(p.title, v.players) }, h("table", { class: "ptable" }, p.columns.length ? h("thead", {}, head) : null, h("tbody", {}, ...body))));
  }
  for (const l of p.lines) kids.push(h("div", { class: "line" }, ...withPics(cellsIn(names(l, v.players)), words, pic)));
  return section(`game:${p.id}`, names(p.title, v.players), ...kids);
}

// A held item's word in a panel's text gets its picture before it ("giraffe" → 🖼 giraffe).
function withPics(parts: (string | HTMLElement)[], words: Map<string, string>, pic: Pic): (string | HTMLElement | SVGSVGElement)[] {
  if (!words.size) return parts;
  const re = new RegExp(`(^|[^\\p{L}])(${[...words.keys()].map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})(?![\\p{L}])`, "giu");
  const out: (string | HTMLElement | SVGSVGElement)[] = [];
  for (const part of parts) {
    if (typeof part !== "string") { out.push(part); continue; }
    let at = 0;
    for (const m of part.matchAll(re)) {
      const q = pic(words.get(m[2].toLowerCase())!);
      if (!q) continue;
      const start = m.index! + m[1].length;
      out.push(part.slice(at, start), h("span", { class: "pic-word" }, q, m[2]));
      at = start + m[2].length;
    }
    out.push(part.slice(at));
  }
  return out;
}

const PIN = '<svg viewBox="0 0 12 16" width="10" height="14" aria-hidden="true"><path d="M6 15.5C6 15.5 1 9.6 1 6a5 5 0 0 1 10 0c0 3.6-5 9.5-5 9.5z" fill="#c0392b" stroke="#5a1610"/><circle cx="6" cy="6" r="2" fill="#fff"/></svg>';

// A game's words name places by the notation's coordinates ("at -2,0 and 2,0", "giraffe at 1,-1
// NE"): each is marked, and hovering or focusing it frames that cell on the board (docs/web.md).
function cellsIn(text: string): (string | HTMLElement)[] {
  const out: (string | HTMLElement)[] = [];
  let at = 0;
  // (no lookbehind: Apple's browser before 16.4 refuses it, and the whole bundle with it)
  for (const m of text.matchAll(/(^|[^\d,.])(-?\d+),(-?\d+)(?![\d,]|\.\d)/g)) {  // "2,0." ends a sentence
    const start = m.index! + m[1].length, cell = `${m[2]},${m[3]}`;
    out.push(text.slice(at, start));
    // a pin to hover or focus (the board shows no coordinates unless asked); the coordinates are
    // its name, and shown too with the board's coordinates on
    const ref = h("span", { class: "cell-ref", tabindex: 0, role: "img", "data-panel-cell": cell, title: t("panel.cell_ref", { cell }), "aria-label": t("panel.cell_ref", { cell }) });
    ref.innerHTML = PIN;
    if (settings().coords) ref.append(h("span", { class: "xy", "aria-hidden": "true", text: cell }));
    out.push(ref);
    at = start + cell.length;
  }
  out.push(text.slice(at));
  return out;
}

// A game's table wider than its panel (a token table cut at the edge) sets its headings
// upright, so that every column shows; one still too wide scrolls sideways as before.
export function fitTables(root: HTMLElement): void {
  for (const box of root.querySelectorAll<HTMLElement>(".scroll-x")) {
    const table = box.querySelector<HTMLElement>("table.ptable");
    if (!table || !table.querySelector("th")) continue;
    table.classList.remove("tight");
    if (box.scrollWidth > box.clientWidth + 1) table.classList.add("tight");
  }
}

export function lastTurnPanel(v: View, colours: string[] = []): HTMLElement {
  // each line names who scored; a line with a feature outlines that feature on the board on hover
  const items = v.last_turn.length ? v.last_turn.map((e) => h("li", { "data-summary-player": e.player, "data-summary-feature": e.feature, "data-points": e.points, tabindex: e.feature ? 0 : undefined },
    e.player >= 0 ? h("span", { class: "swatch", style: `background:${colours[e.player] ?? "#888"}` }) : null, " " + e.text)) : [h("li", { class: "sub", text: t("panel.no_points") })];
  return section("last-turn", t("panel.last_turn"), h("ul", {}, ...items));
}

// A line of the game log: its words, and for a turn its notation (shown as a tooltip) and the
// cell its tile went to.
export interface LogEntry { text: string; notation?: string; cell?: string | null }

export function logLine(e: GameEvent, seatName: (n: number) => string, me = -1): LogEntry | null {
  const line = logText(e, seatName, me);
  if (line === null) return null;
  if (e.type !== "turn") return { text: line };
  const notation = (e.data.moves as string[]).join(", ");
  return { text: line, notation, cell: logCell(`${seatName(e.seat)}: ${notation}`) };
}

function logText(e: GameEvent, seatName: (n: number) => string, me: number): string | null {
  switch (e.type) {
    case "created": return t("log.created");
    case "turn": {
      // the server's words for each move (the notation where it sent none: the tooltip has it too)
      const moves = (e.words?.length ? e.words.filter((w) => w) : e.data.moves as string[]).join("; ");
      return e.seat === me && me >= 0 ? t("log.turn_you", { moves }) : t("log.turn", { name: seatName(e.seat), moves });
    }
    case "resign": return t("log.resign", { name: seatName(e.data.seat) });
    case "timeout": return t("log.timeout", { name: seatName(e.data.seat) });
    case "seat_bot": return t("log.seat_bot", { name: seatName(e.data.seat) });
    case "seat_back": return t("log.seat_back", { name: seatName(e.data.seat) });
    case "abort": return t("log.abort");
    case "rematch": return t("log.rematch", { name: seatName(e.data.seat) });
    case "name": return t("log.name", { old: seatName(e.data.seat), name: e.data.name });
    case "end": if (e.data.reason === "finished") return t("log.end_finished", { scores: (e.data.scores as number[]).map((sc, i) => `${seatName(i)} ${sc}`).join(", ") });
      return t("log.end", { reason: t(`end.${e.data.reason}`).startsWith("[") ? e.data.reason : t(`end.${e.data.reason}`), scores: (e.data.scores as number[]).map((sc, i) => `${seatName(i)} ${sc}`).join(", ") });
    default: return null;
  }
}

// The newest line first, each with its number written out (a list marker loses digits) and, for a
// turn, the cell its tile went to (data-log-cell: hovering shows it on the board).
export function logPanel(lines: LogEntry[]): HTMLElement {
  const first = Math.max(0, lines.length - 150);
  const items = lines.slice(first).map((l, i) => {
    const cell = l.cell;
    return h("li", { "data-log-n": first + i + 1, "data-log-cell": cell ?? undefined, tabindex: cell ? 0 : undefined },
      h("span", { class: "log-n", text: String(first + i + 1) }), h("span", { text: l.text, title: l.notation, "data-log-notation": l.notation }));
  });
  return section("log", t("panel.log"), h("ol", { class: "log" }, ...items.reverse()));
}

// Final scoring: the end's events one by one, then the whole game's points by feature type.
export function finalPanel(v: View, colours: string[], record: any | null, shown: number, accounts: (string | null)[] = []): HTMLElement {
  const finals = v.last_turn;
  const list = h("ol", { class: "final-steps" }, ...finals.slice(0, shown).map((e: EventView, i) => h("li", { "data-final-step": i, text: `${e.text}` })));
  const winners = new Set(v.winners ?? []);
  const scores = v.final_scores ?? v.players.map((p) => p.score);
  const table = h("table", { class: "ptable final-scores" }, h("tbody", {}, ...v.players.map((p) => h("tr", { "data-final-seat": p.seat },
    h("td", {}, h("span", { class: "swatch", style: `background:${colours[p.seat]}` }), " ", seatName(p.name, accounts[p.seat]), winners.has(p.seat) ? h("b", { class: "winner", "data-winner": "", text: t("final.winner") }) : null),
    h("td", { class: "score", "data-final-score": scores[p.seat], text: String(scores[p.seat]) })))));
  const kids: Node[] = [table];
  if (finals.length) kids.push(h("h3", { text: t("final.scoring") }), list);
  if (record && Array.isArray(record.events)) {
    const by = new Map<string, number[]>();
    for (const e of record.events) {
      if (!e.points) continue;
      // a feature type's points by its name; a game's own points by their effect or reason
      const key = e.reason === "special" ? (e.effect ?? e.feature ?? "special") : hasWord("source", e.reason) ? e.reason : (e.feature ?? e.reason);
      const row = by.get(key) ?? v.players.map(() => 0);
      row[e.player] += e.points;
      by.set(key, row);
    }
    const head = h("tr", {}, h("td", {}), ...v.players.map((p) => h("th", { style: `color:${colours[p.seat]}`, text: p.name })));
    const rows = [...by.entries()].map(([k, row]) => h("tr", { "data-breakdown": k }, h("td", { text: hasWord("feature", k) ? word("feature", k) : hasWord("source", k) ? word("source", k) : k.replace(/_/g, " ") }), ...row.map((n) => h("td", { class: "score", text: String(n) }))));
    if (rows.length) kids.push(h("h3", { text: t("final.by_feature") }), h("table", { class: "ptable breakdown" }, h("thead", {}, head), h("tbody", {}, ...rows)));
  }
  return section("final", t("final.scores"), ...kids);
}

export function section(id: string, title: string, ...kids: (Node | null)[]): HTMLElement {
  return h("section", { class: "panel", "data-panel": id }, h("h2", { text: title }), ...kids);
}
