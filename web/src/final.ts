// Every ending shown to every seat (docs/web.md, "The end"): finished, a resignation, a clock run
// out, an abort. The server's `state` says how a game ended (`end`) and names its rematch; the
// final panel says it in words, with the winners, the scores by feature kind, the replay and a
// rematch (POST /api/games/ID/rematch with the seat's token, or with the seat alone for a seat the
// session's player opened without one; the other seats are asked to accept by the old game's
// `rematch` event, and open the new game with their own token, or their seat alone).
import { h, getJSON } from "./util";
import { t, withLang } from "./i18n";
import { finalPanel } from "./panels";
import type { View } from "./types";

export interface End { reason: string; scores: number[]; winners: number[]; resigned: number[] }

// The view as the end makes it: over, with the end's scores and winners (a resignation leaves the
// engine's game unfinished, so its view alone would go on).
export function endView(v: View, end: End | null): View {
  if (!end || (v.over && v.winners)) return v;
  return { ...v, over: true, final_scores: v.final_scores ?? end.scores, winners: end.winners };
}

function names(v: View, seats: number[]): string {
  return seats.map((s) => v.players[s]?.name ?? t("game.seat", { n: s + 1 })).join(", ");
}

// How the game ended, in one line.
export function endLine(v: View, end: End | null): string {
  const reason = end?.reason ?? "finished";
  const out = end?.resigned ?? [];
  const winners = names(v, v.winners ?? end?.winners ?? []);
  if (reason === "aborted") return t("end.line_aborted");
  const how = reason === "resign" ? t("end.line_resign", { names: names(v, out) }) : reason === "timeout" ? t("end.line_timeout", { names: names(v, out) }) : t("end.line_finished");
  return winners ? `${how} ${t("end.line_winners", { names: winners })}` : how;
}

export interface Rematch { game: string; seat: number }
export interface EndActions { replay(): void; rematch(): void; accept(r: Rematch): void; decline(): void }

// The final panel: how it ended, the scores and winners, the end's scoring step by step, the points
// by feature kind (from the record), the replay, and the rematch (asked, or offered).
export function endPanel(v: View, end: End | null, colours: string[], record: any | null, shown: number, me: number,
  rematch: Rematch | null, declined: boolean, busy: string, act: EndActions, accounts: (string | null)[] = []): HTMLElement {
  const panel = finalPanel(v, colours, record, shown, accounts);
  panel.dataset.endReason = end?.reason ?? "finished";
  panel.setAttribute("role", "region");
  panel.setAttribute("aria-label", t("final.scores"));
  const line = h("p", { class: "end-line", "data-end-line": "", role: "status", text: endLine(v, end) });
  panel.querySelector("h2")!.after(line);
  const actions = h("div", { class: "final-actions" });
  const replay = h("button", { type: "button", "data-final-replay": "", text: t("final.replay") });
  replay.addEventListener("click", () => act.replay());
  actions.append(replay);
  if (me >= 0) {
    if (!rematch) {
      const b = h("button", { type: "button", class: "primary", "data-rematch": "", disabled: !!busy, text: busy || t("final.rematch") });
      b.addEventListener("click", () => act.rematch());
      actions.append(b);
    } else if (rematch.seat === me) {
      const b = h("button", { type: "button", class: "primary", "data-rematch-open": rematch.game, text: t("final.rematch_open") });
      b.addEventListener("click", () => act.accept(rematch));
      actions.append(b);
    } else if (!declined) {
      const who = v.players[rematch.seat]?.name ?? "";
      const ask = h("div", { class: "rematch-ask", "data-rematch-offer": rematch.game, role: "alert" }, h("span", { text: t("final.rematch_asked", { name: who }) + " " }));
      const yes = h("button", { type: "button", class: "primary", "data-rematch-accept": "", text: t("final.accept") });
      const no = h("button", { type: "button", "data-rematch-decline": "", text: t("final.decline") });
      yes.addEventListener("click", () => act.accept(rematch));
      no.addEventListener("click", () => act.decline());
      ask.append(yes, " ", no);
      actions.append(ask);
    }
  } else if (rematch) {
    // a spectator follows the players into their rematch
    actions.append(h("a", { class: "button primary", href: `/play/${encodeURIComponent(rematch.game)}`, "data-rematch-watch": rematch.game, text: t("final.rematch_watch") }));
  }
  line.after(actions);
  return panel;
}

// Asks the server for the rematch: the new game's id (the same one however often it is asked).
// `by`: the seat's token, or the seat alone (a seat bound to the session's player: the cookie goes
// with the same-origin request).
export async function askRematch(game: string, by: { token: string } | { seat: number }): Promise<string> {
  const r = await getJSON<any>(withLang(`/api/games/${encodeURIComponent(game)}/rematch`), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(by) });
  return r.id;
}
