// Panels beside the board: seats (score, supply, hand, clock, presence), tiles left, the game's own
// panels as the view gives them, the last turn's scoring, the log, and the final scoring.
import { h, names, fmtClock } from "./util";
import type { View, Panel, GameEvent, EventView } from "./types";

export function seatsPanel(v: View, colours: string[], me: number, toMove: number, clocks: number[], presence: any, clockBase: number): HTMLElement {
  const rows = v.players.map((p) => {
    const pr = presence?.seats?.[p.seat];
    const clock = clocks[p.seat] ?? -1;
    const left = clock < 0 ? -1 : p.seat === toMove ? clock - (Date.now() - clockBase) : clock;
    const state = p.bot ? "bot" : !pr ? "" : pr.resigned ? "resigned" : pr.stand_in ? "stand-in bot" : pr.connected ? "online" : pr.grace_until ? `away (bot in ${fmtClock(pr.grace_until - Date.now())})` : "away";
    const supply = p.supply.map((s) => `${s.count} ${s.name}${s.count === 1 ? "" : "s"}`).join(", ");
    const hand = p.hand.filter((x) => x.count > 0).map((x) => `${x.count} ${x.name}`).join(", ");
    return h("tr", { "data-seat": p.seat, class: (p.seat === toMove ? "to-move " : "") + (p.seat === me ? "me" : "") },
      h("td", {}, h("span", { class: "swatch", style: `background:${colours[p.seat]}` })),
      h("td", { class: "name" }, p.name + (p.seat === me ? " (you)" : ""), h("div", { class: "sub" }, supply + (hand ? ` · ${hand}` : "") + (p.track ? ` · ${v.board.track?.name ?? "track"} ${p.track}` : ""))),
      h("td", { class: "score", "data-score": p.score, text: String(p.score) }),
      h("td", { class: "clock", "data-clock": left < 0 ? "" : Math.round(left), text: left < 0 ? "" : fmtClock(left) }),
      h("td", { class: "presence", "data-presence": state, title: state }, h("span", { class: `dot ${state.split(" ")[0]}` })));
  });
  return section("scores", "Players", h("table", { class: "seats" }, h("tbody", {}, ...rows)));
}

export function pilePanel(v: View, tileURL: (id: string) => string): HTMLElement {
  const items = v.pile.tiles.filter((t) => t.count > 0).map((t) =>
    h("span", { class: "pile-tile", "data-pile-tile": t.name, title: `${t.name}: ${t.count} left` }, imgEl(tileURL(t.name), t.name), h("b", { text: String(t.count) })));
  const head = `${v.pile.left} tile${v.pile.left === 1 ? "" : "s"} left` + (v.pile.bonus_left ? `, ${v.pile.bonus_left} in the bonus pile` : "");
  return section("pile", "Tiles left", h("div", { class: "sub", text: head }), h("div", { class: "pile" }, ...items));
}

function imgEl(src: string, alt: string): HTMLImageElement {
  const i = h("img", { src, alt, width: 34, height: 34 });
  return i;
}

export function gamePanel(p: Panel, v: View, colours: string[]): HTMLElement {
  const kids: Node[] = [];
  for (const c of p.counters) kids.push(h("div", { class: "counter" }, h("b", { text: names(c.name, v.players) + ": " }), names(c.value, v.players)));
  if (p.columns.length || p.rows.length) {
    const seatCol = p.columns[0] === "seat";
    const head = h("tr", {}, ...p.columns.map((c, i) => h("th", { text: seatCol && i === 0 ? "" : names(c, v.players) })));
    const body = p.rows.map((r) => h("tr", {}, ...r.map((c, i) => seatCol && i === 0
      ? h("td", {}, h("span", { class: "swatch", style: `background:${colours[Number(c)] ?? "#888"}` }), " " + (v.players[Number(c)]?.name ?? c))
      : h("td", { text: names(c, v.players) }))));
    kids.push(h("div", { class: "scroll-x" }, h("table", { class: "ptable" }, p.columns.length ? h("thead", {}, head) : null, h("tbody", {}, ...body))));
  }
  for (const l of p.lines) kids.push(h("div", { class: "line", text: names(l, v.players) }));
  return section(`game:${p.id}`, names(p.title, v.players), ...kids);
}

export function lastTurnPanel(v: View): HTMLElement {
  const items = v.last_turn.length ? v.last_turn.map((e) => h("li", { text: e.text })) : [h("li", { class: "sub", text: "no points scored" })];
  return section("last-turn", "Last turn", h("ul", {}, ...items));
}

export function logLine(e: GameEvent, seatName: (n: number) => string): string | null {
  switch (e.type) {
    case "created": return `Game created (${e.data.game})`;
    case "turn": return `${seatName(e.seat)}: ${(e.data.moves as string[]).join(", ")}`;
    case "resign": return `${seatName(e.data.seat)} resigned`;
    case "timeout": return `${seatName(e.data.seat)} ran out of time`;
    case "seat_bot": return `${seatName(e.data.seat)} is away: a bot plays for them`;
    case "seat_back": return `${seatName(e.data.seat)} is back`;
    case "abort": return `The game was aborted`;
    case "end": return `Game over (${e.data.reason}): ${(e.data.scores as number[]).map((sc, i) => `${seatName(i)} ${sc}`).join(", ")}`;
    default: return null;
  }
}

export function logPanel(lines: string[]): HTMLElement {
  return section("log", "Game log", h("ol", { class: "log", reversed: true }, ...lines.slice(-150).reverse().map((l) => h("li", { text: l }))));
}

// Final scoring: the end's events one by one, then the whole game's points by feature type.
export function finalPanel(v: View, colours: string[], record: any | null, shown: number): HTMLElement {
  const finals = v.last_turn;
  const list = h("ol", { class: "final-steps" }, ...finals.slice(0, shown).map((e: EventView, i) => h("li", { "data-final-step": i, text: `${e.text}` })));
  const winners = new Set(v.winners ?? []);
  const scores = v.final_scores ?? v.players.map((p) => p.score);
  const table = h("table", { class: "ptable final-scores" }, h("tbody", {}, ...v.players.map((p) => h("tr", { "data-final-seat": p.seat },
    h("td", {}, h("span", { class: "swatch", style: `background:${colours[p.seat]}` }), " " + p.name, winners.has(p.seat) ? h("b", { class: "winner", "data-winner": "", text: " ★ winner" }) : null),
    h("td", { class: "score", "data-final-score": scores[p.seat], text: String(scores[p.seat]) })))));
  const kids: Node[] = [table];
  if (finals.length) kids.push(h("h4", { text: "Final scoring" }), list);
  if (record && Array.isArray(record.events)) {
    const by = new Map<string, number[]>();
    for (const e of record.events) {
      if (!e.points) continue;
      // a feature type's points by its name; a game's own points by their effect or reason
      const key = e.reason === "special" ? (e.effect ?? e.feature ?? "special") : (e.feature ?? e.reason);
      const row = by.get(key) ?? v.players.map(() => 0);
      row[e.player] += e.points;
      by.set(key, row);
    }
    const head = h("tr", {}, h("th", { text: "" }), ...v.players.map((p) => h("th", { style: `color:${colours[p.seat]}`, text: p.name })));
    const rows = [...by.entries()].map(([k, row]) => h("tr", { "data-breakdown": k }, h("td", { text: k.replace(/_/g, " ") }), ...row.map((n) => h("td", { class: "score", text: String(n) }))));
    kids.push(h("h4", { text: "Points by feature" }), h("table", { class: "ptable breakdown" }, h("thead", {}, head), h("tbody", {}, ...rows)));
  }
  return section("final", "Final scores", ...kids);
}

export function section(id: string, title: string, ...kids: (Node | null)[]): HTMLElement {
  return h("section", { class: "panel", "data-panel": id }, h("h3", { text: title }), ...kids);
}
