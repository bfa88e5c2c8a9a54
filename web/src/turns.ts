// Your turn, across games (issue 51; docs/web.md "Your turn, across games"; docs/server-protocol.md
// "Your turn"): every page asks GET /api/me/turns every 30 s. The header's badge counts the games
// where it is the player's turn and links to the lobby's list of them (the least time left first,
// as the server sorts them). A turn that appears brings a browser notification, and a
// days-per-move clock with less than 12 hours left a reminder (once per game and turn), where the
// player turned notifications on (the settings' `notify`) and the browser allows them.
import type { Catalog } from "./types";
import { getJSON, h, load, save } from "./util";
import { t, withLang } from "./i18n";
import { settings } from "./notify";
import { session } from "./account";

export interface Turn { id: string; game: string; seat: number; clock: string; left: number | null; seq: number; since: number; play: string }
export interface Turns { turns: Turn[]; waiting: number; correspondence: number; cap: number }

const EVERY_MS = 30000, REMIND_MS = 12 * 3600 * 1000;
let last: Turns | null = null;
let started = false;
const badges = new Set<HTMLAnchorElement>();
const listeners = new Set<(t: Turns) => void>();
let catalog: Promise<Catalog> | null = null;

declare global { interface Window { carcTurnNotices?: { kind: "turn" | "reminder"; game: string; title: string }[]; carcTurnsAsk?: () => Promise<void> } }

// The header's badge: how many games wait for this player's move (hidden at none).
export function turnsBadge(): HTMLAnchorElement {
  const a = h("a", { href: "/#turns", class: "turns-badge", "data-turns": "0", hidden: true });
  badges.add(a);
  fill(a);
  return a;
}
function fill(a: HTMLAnchorElement): void {
  const n = last?.turns.length ?? 0;
  a.dataset.turns = String(n);
  a.hidden = n === 0;
  // "▶ 2" to see, the sentence to hear
  a.replaceChildren(h("span", { "aria-hidden": "true", text: `▶ ${n}` }), h("span", { class: "sr-only", text: t("place.turns_badge_title", { n }) }));
  a.title = t("place.turns_badge_title", { n });
}

// Called with every answer (and at once with the last one).
export function onTurns(f: (t: Turns) => void): void {
  listeners.add(f);
  if (last) f(last);
}

// "1 d 4 h left", "3 h 20 min left", "12 min left"; no clock: "no clock".
export function leftWords(ms: number | null): string {
  if (ms === null || ms < 0) return t("clock.none");
  const m = Math.floor(ms / 60000), d = Math.floor(m / 1440), hr = Math.floor((m % 1440) / 60);
  return d ? t("place.left_dh", { d, h: hr }) : hr ? t("place.left_hm", { h: hr, m: m % 60 }) : t("place.left_m", { m });
}

// Starts the polling (once a page).
export function startTurns(): void {
  if (started) return;
  started = true;
  const ask = async () => {
    const me = await session();
    if (!me) return;
    try {
      const r = await getJSON<Turns>("/api/me/turns");
      last = r;
      for (const a of badges) fill(a);
      for (const f of listeners) f(r);
      await notice(r);
    } catch { /* no answer, or a server without it: the badge stays as it was */ }
  };
  window.carcTurnsAsk = ask;  // (tests: ask now rather than in 30 s)
  void ask();
  window.setInterval(() => void ask(), EVERY_MS);
}

// The notifications: a turn this browser has not seen before, and a reminder once per game and turn.
async function notice(r: Turns): Promise<void> {
  const seen = new Set(load<string[]>("carc.turns_seen", []));
  const reminded = new Set(load<string[]>("carc.turns_reminded", []));
  const here = /^\/play\/([^/]+)$/.exec(location.pathname)?.[1];
  const fresh = r.turns.filter((x) => !seen.has(`${x.id}:${x.seq}`));
  const due = r.turns.filter((x) => x.clock === "days" && x.left !== null && x.left < REMIND_MS && !reminded.has(`${x.id}:${x.since}`));
  save("carc.turns_seen", r.turns.map((x) => `${x.id}:${x.seq}`));  // (the turns of now: a list that never grows)
  for (const x of due) reminded.add(`${x.id}:${x.since}`);
  if (due.length) save("carc.turns_reminded", [...reminded].slice(-200));
  const s = settings();
  if (!s.notify || !("Notification" in window) || Notification.permission !== "granted") return;
  // the game's own page says it already (its title, its sound, its notification)
  const shown = (x: Turn) => decodeURIComponent(here ?? "") !== x.id;
  if (!fresh.some(shown) && !due.some(shown)) return;
  catalog ??= getJSON<Catalog>(withLang("/api/catalog"));
  const c = await catalog.catch(() => null);
  const title = (g: string) => c?.games.find((x) => x.id === g)?.title ?? g;
  const say = (x: Turn, kind: "turn" | "reminder") => {
    const head = t(kind === "turn" ? "place.turn_note" : "place.reminder_note", { title: title(x.game) });
    try {
      const n = new Notification(head, { body: kind === "turn" ? t("notify.body") : t("place.reminder_body", { left: leftWords(x.left) }), tag: `carc-${kind}-${x.id}` });
      n.onclick = () => { window.focus(); location.href = x.play; n.close(); };
      (window.carcTurnNotices ??= []).push({ kind, game: x.id, title: head });
    } catch { /* a browser without page notifications */ }
  };
  for (const x of fresh.filter(shown)) say(x, "turn");
  for (const x of due.filter(shown)) say(x, "reminder");
}

// The lobby's list of the games waiting for the player's move (section#turns).
export function turnsSection(catalogP: Catalog): HTMLElement {
  const box = h("section", { class: "card", "data-turns-section": "", id: "turns", "aria-labelledby": "turns-h", hidden: true },
    h("h2", { id: "turns-h", text: t("place.turns") }));
  const title = (g: string) => catalogP.games.find((x) => x.id === g)?.title ?? g;
  let first = true;
  onTurns((r) => {
    box.hidden = r.turns.length === 0 && r.correspondence === 0;
    // the header's badge leads here (/#turns): shown once the list has come
    if (first && location.hash === "#turns" && !box.hidden) requestAnimationFrame(() => box.scrollIntoView());
    first = false;
    box.replaceChildren(box.firstChild!,
      r.turns.length
        ? h("ol", { "data-turns-list": "" }, ...r.turns.map((x) => h("li", { "data-turn": x.id, "data-left": x.left ?? "", "data-clock": x.clock },
          h("a", { href: x.play, text: title(x.game) }),
          h("span", { class: x.left !== null && x.left < REMIND_MS ? "badge hot" : "badge", text: ` · ${leftWords(x.left)}` }))))
        : h("p", { class: "sub", "data-turns-none": "", text: t("place.turns_none") }),
      h("p", { class: "sub", "data-turns-counts": "", text: t("place.turns_counts", { waiting: r.waiting, n: r.correspondence, cap: r.cap }) }));
  });
  return box;
}
