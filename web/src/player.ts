// A player's page (/player/NAME) and the leaderboards (/leaderboard?bucket=GAME/2) (issue 51;
// docs/web.md "A player's page and the leaderboards"; docs/server-protocol.md "Profiles and
// leaderboards"): ratings per bucket, a graph of them over time (inline SVG, with its numbers in a
// table), results by game and number of players, the latest games with their replays; Block,
// Unblock and Report. The numbers are the server's: the page computes no rating.
import type { Catalog } from "./types";
import { getJSON, h, HttpError, s as svg } from "./util";
import { langPicker, locale, t, withLang } from "./i18n";
import { meLink, session } from "./account";
import { playerLink, refusalBox, send } from "./place";
import { turnsBadge } from "./turns";

interface Rating { bucket: string; rating: number; provisional: boolean; games: number; mu: number; sigma: number; last: number }
interface Step { game: string; bucket: string; time: number; before: number; after: number }
interface Result { game: string; players: number; played: number; won: number }
interface Played { id: string; game: string; players: number; seat: number; place: number; score: number; rated: boolean; reason: string; ended: number }
interface Profile { name: string; since: number; ratings: Rating[]; history: Step[]; results?: Result[]; games?: Played[] }

// The header's link to the leaderboards.
export function leaderboardLink(): HTMLAnchorElement {
  return h("a", { href: "/leaderboard", class: "button", "data-leaderboard-link": "", text: t("place.leaderboard") });
}

function shell(root: HTMLElement, title: string, page: string): HTMLElement {
  document.title = `${title} · ${t("lobby.title")}`;
  const main = h("main", { class: "lobby place-page", "data-page": page });
  main.append(h("div", { class: "topbar" }, h("h1", { text: title }),
    h("div", { class: "topbar-end" }, h("a", { href: "/", class: "button", "data-home": "", text: t("game.lobby") }), page === "leaderboard" ? null : leaderboardLink(),
      turnsBadge(), meLink(), langPicker(h))));
  root.replaceChildren(main);
  return main;
}

const day = (ms: number) => new Intl.DateTimeFormat(locale, { year: "numeric", month: "short", day: "numeric" }).format(ms);
const hhmm = (ms: number) => new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(ms);
const when = (ms: number) => new Intl.DateTimeFormat(locale, { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(ms);

// "Carcassonne, 2 players" for bucket "base/2".
function bucketWords(catalog: Catalog, b: string): string {
  const [g, n] = b.split("/");
  const title = catalog.games.find((x) => x.id === g)?.title ?? g;
  return t(n === "2" ? "place.bucket_2" : "place.bucket_35", { game: title });
}
const COLOURS = ["#1f5fbf", "#b34700", "#177a3a", "#7e22ce", "#b91c1c", "#0e7490", "#8a6100", "#be185d"];

// The graph: one line per bucket, the rating after each rated game over time (the first game's
// "before" starts it), named for screen readers by its title and description.
function graph(catalog: Catalog, name: string, history: Step[]): SVGSVGElement {
  const W = 640, H = 240, L = 48, R = 12, T = 12, B = 28;
  const buckets = [...new Set(history.map((x) => x.bucket))];
  const times = history.map((x) => x.time), values = history.flatMap((x) => [x.before, x.after]);
  const span = Math.max(...times) - Math.min(...times);
  const t0 = Math.min(...times) - Math.max(span * 0.06, 3600000), t1 = Math.max(...times);
  let lo = Math.min(...values), hi = Math.max(...values);
  const pad = Math.max(20, (hi - lo) * 0.1);
  lo = Math.floor((lo - pad) / 10) * 10; hi = Math.ceil((hi + pad) / 10) * 10;
  const x = (ms: number) => L + ((ms - t0) / Math.max(1, t1 - t0)) * (W - L - R);
  const y = (r: number) => T + (1 - (r - lo) / Math.max(1, hi - lo)) * (H - T - B);
  const desc = buckets.map((b) => {
    const s = history.filter((x) => x.bucket === b);
    return t("place.graph_line", { bucket: bucketWords(catalog, b), from: s[0].before, to: s[s.length - 1].after, n: s.length });
  }).join(" ");
  const g = svg("svg", { class: "rating-graph", "data-rating-graph": "", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "graph-title graph-desc" },
    svg("title", { id: "graph-title" }), svg("desc", { id: "graph-desc" }));
  g.querySelector("title")!.textContent = t("place.graph_title", { name });
  g.querySelector("desc")!.textContent = desc;
  // the axes: ratings at the left (lowest, highest), the first and last day at the foot
  g.append(svg("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }), svg("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" }));
  for (const v of [lo, Math.round((lo + hi) / 20) * 10, hi]) {
    g.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    const tx = svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" });
    tx.textContent = String(v);
    g.append(tx);
  }
  // the first and last day at the foot (their times of day when it is one day)
  const oneDay = day(t0) === day(t1);
  for (const [ms, anchor] of [[t0, "start"], [t1, "end"]] as [number, string][]) {
    const tx = svg("text", { x: x(ms), y: H - 8, "text-anchor": anchor, class: "tick" });
    tx.textContent = oneDay ? `${day(ms)} ${hhmm(ms)}` : day(ms);
    g.append(tx);
  }
  buckets.forEach((b, i) => {
    const s = history.filter((q) => q.bucket === b);
    const pts = [[t0, s[0].before], ...s.map((q) => [q.time, q.after])];
    const colour = COLOURS[i % COLOURS.length];
    const line = svg("g", { "data-graph-bucket": b });
    line.append(svg("polyline", { points: pts.map(([a, r]) => `${x(a).toFixed(1)},${y(r).toFixed(1)}`).join(" "), fill: "none", stroke: colour, "stroke-width": 2.5 }));
    for (const q of s) line.append(svg("circle", { cx: x(q.time).toFixed(1), cy: y(q.after).toFixed(1), r: 3.5, fill: colour, "data-graph-point": q.game }));
    g.append(line);
  });
  return g;
}

// /player/NAME
export async function playerPage(root: HTMLElement, name: string): Promise<void> {
  const main = shell(root, name, "player");
  const [catalog, me] = await Promise.all([getJSON<Catalog>(withLang("/api/catalog")), session()]);
  let p: Profile;
  try {
    p = await getJSON<Profile>(`/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    main.append(h("div", { class: "card" }, refusalBox(e)));
    return;
  }
  main.querySelector("h1")!.textContent = p.name;
  document.title = `${p.name} · ${t("lobby.title")}`;
  const title = (g: string) => catalog.games.find((x) => x.id === g)?.title ?? g;
  main.dataset.player = p.name;
  main.append(h("p", { class: "sub", text: t("place.since", { date: day(p.since) }) }));

  // ratings per bucket, then the graph and its numbers
  const ratings = h("section", { class: "card", "data-ratings-section": "", "aria-labelledby": "ratings-h" }, h("h2", { id: "ratings-h", text: t("place.ratings") }));
  if (!p.ratings.length) ratings.append(h("p", { class: "sub", "data-ratings-none": "", text: t("place.ratings_none") }));
  else {
    ratings.append(h("table", { class: "list", "data-ratings": "" },
      h("thead", {}, h("tr", {}, ...([["place.col_bucket", ""], ["place.col_rating", "num"], ["place.col_games", "num"], ["place.col_last", ""]] as const).map(([k, c]) => h("th", { scope: "col", class: c, text: t(k) })))),
      h("tbody", {}, ...p.ratings.map((r) => h("tr", { "data-bucket": r.bucket, "data-provisional": String(r.provisional) },
        h("th", { scope: "row", text: bucketWords(catalog, r.bucket) }),
        h("td", { class: "num" }, h("b", { "data-rating": r.rating, text: String(r.rating) }),
          r.provisional ? h("abbr", { class: "provisional", title: t("place.provisional"), "data-provisional-mark": "", text: "?" }) : null,
          r.provisional ? h("span", { class: "sr-only", text: ` (${t("place.provisional")})` }) : null),
        h("td", { class: "num", text: String(r.games) }),
        h("td", { text: r.last ? day(r.last) : "" }))))));
    if (p.ratings.some((r) => r.provisional)) ratings.append(h("p", { class: "sub", text: `? ${t("place.provisional_help")}` }));
  }
  if (p.history.length) {
    const buckets = [...new Set(p.history.map((x) => x.bucket))];
    ratings.append(h("h3", { text: t("place.graph") }), h("div", { class: "rating-graph-box" }, graph(catalog, p.name, p.history)),
      h("ul", { class: "legend", "data-graph-legend": "" }, ...buckets.map((b, i) => h("li", {}, h("span", { class: "swatch", style: `background:${COLOURS[i % COLOURS.length]}` }), ` ${bucketWords(catalog, b)}`))),
      h("details", { class: "graph-numbers" }, h("summary", { text: t("place.graph_numbers") }),
        h("table", { class: "list", "data-history": "" },
          h("thead", {}, h("tr", {}, ...([["place.col_when", ""], ["place.col_bucket", ""], ["place.col_before", "num"], ["place.col_after", "num"]] as const).map(([k, c]) => h("th", { scope: "col", class: c, text: t(k) })))),
          h("tbody", {}, ...p.history.map((q) => h("tr", { "data-history-game": q.game },
            h("td", {}, h("a", { href: `/replay?game=${encodeURIComponent(q.game)}`, text: when(q.time) })), h("td", { text: bucketWords(catalog, q.bucket) }),
            h("td", { class: "num", text: String(q.before) }), h("td", { class: "num", text: String(q.after) })))))));
  }
  main.append(ratings);

  // results by game and number of players
  if (p.results) {
    main.append(h("section", { class: "card", "data-results-section": "", "aria-labelledby": "results-h" }, h("h2", { id: "results-h", text: t("place.results") }),
      p.results.length ? h("table", { class: "list", "data-results": "" },
        h("thead", {}, h("tr", {}, ...([["place.col_game", ""], ["place.col_players", "num"], ["place.col_played", "num"], ["place.col_won", "num"]] as const).map(([k, c]) => h("th", { scope: "col", class: c, text: t(k) })))),
        h("tbody", {}, ...p.results.map((r) => h("tr", { "data-result": `${r.game}/${r.players}` },
          h("th", { scope: "row", text: title(r.game) }), h("td", { class: "num", text: String(r.players) }),
          h("td", { class: "num", "data-played": r.played, text: String(r.played) }), h("td", { class: "num", "data-won": r.won, text: String(r.won) })))))
        : h("p", { class: "sub", text: t("place.results_none") })));
  }
  // the latest games, each with its replay
  if (p.games) {
    main.append(h("section", { class: "card", "data-games-section": "", "aria-labelledby": "games-h" }, h("h2", { id: "games-h", text: t("place.games") }),
      p.games.length ? h("ul", { "data-games": "" }, ...p.games.map((g) => h("li", { "data-game": g.id },
        h("a", { href: `/replay?game=${encodeURIComponent(g.id)}`, "data-replay-link": g.id, text: `${title(g.game)} · ${t("place.players_n", { n: g.players })}` }),
        h("span", { class: "badge", text: ` · ${t("place.placed", { n: g.place, score: g.score })} · ${t(g.rated ? "place.is_rated" : "place.is_casual")} · ${when(g.ended)}` }))))
        : h("p", { class: "sub", text: t("place.results_none") })));
  }

  // block, unblock, report: for another player, with a session
  if (me && (me.guest || (me.name ?? "").toLowerCase() !== p.name.toLowerCase())) {
    const box = h("section", { class: "card", "data-moderation": "", "aria-labelledby": "mod-h" }, h("h2", { id: "mod-h", text: t("place.you_and", { name: p.name }) }));
    const result = h("div", { class: "result", "data-block-result": "" });
    const blockBtn = h("button", { type: "button" });
    let blocked = false;
    try { blocked = (await getJSON<{ blocked: string[] }>("/api/blocks")).blocked.some((n) => n.toLowerCase() === p.name.toLowerCase()); } catch { /* shown as not blocked */ }
    const drawBlock = () => {
      blockBtn.textContent = t(blocked ? "place.unblock" : "place.block");
      blockBtn.toggleAttribute("data-unblock", blocked);
      blockBtn.toggleAttribute("data-block", !blocked);
      blockBtn.setAttribute("aria-pressed", String(blocked));
      box.dataset.blocked = String(blocked);
    };
    drawBlock();
    blockBtn.addEventListener("click", async () => {
      result.replaceChildren();
      try {
        if (blocked) await send("DELETE", `/api/blocks/${encodeURIComponent(p.name)}`);
        else await send("POST", "/api/blocks", { name: p.name });
        blocked = !blocked;
        drawBlock();
        result.replaceChildren(h("p", { class: "notice", role: "status", text: t(blocked ? "place.blocked" : "place.unblocked", { name: p.name }) }));
      } catch (e) { result.replaceChildren(refusalBox(e)); }
    });
    box.append(h("p", { class: "sub", text: t("place.block_help") }), h("div", { class: "row" }, blockBtn, reportButton(p.name, {})), result);
    main.append(box);
  }
}

// Report a player (or a chat message): a button that opens a small form (a reason, a note).
export function reportButton(name: string, about: { game?: string; message?: string }, compact = false): HTMLElement {
  const wrap = h("span", { class: "report" });
  const btn = h("button", { type: "button", "data-report": name, class: compact ? "small link" : "", "aria-expanded": "false", text: t("place.report") });
  if (compact) btn.setAttribute("aria-label", t("place.report_message", { name }));
  const reason = h("select", { "data-report-reason": "", "aria-label": t("place.report_reason") },
    ...["abuse", "cheating", "spam", "name", "other"].map((r) => h("option", { value: r, text: t(`place.reason.${r}`) })));
  const note = h("textarea", { "data-report-note": "", maxlength: 500, rows: 2, "aria-label": t("place.report_note") });
  const go = h("button", { type: "submit", class: "primary", "data-report-send": "", text: t("place.report_send") });
  const out = h(compact ? "span" : "div", { class: "result", "data-report-result": "" });
  const form = h("form", { class: "report-form", "data-report-form": name, hidden: true },
    h("label", { class: "field-inline" }, `${t("place.report_reason")} `, reason), h("label", { class: "field-inline note" }, `${t("place.report_note")} `, note), go);
  btn.addEventListener("click", () => { form.hidden = !form.hidden; btn.setAttribute("aria-expanded", String(!form.hidden)); if (!form.hidden) reason.focus(); });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    out.replaceChildren();
    go.disabled = true;
    try {
      const body: any = { name, reason: reason.value, ...about };
      if (note.value.trim()) body.note = note.value.trim();
      const r = await send<{ report: string }>("POST", "/api/reports", body);
      form.hidden = true;
      btn.setAttribute("aria-expanded", "false");
      out.replaceChildren(h(compact ? "span" : "p", { class: compact ? "notice sub" : "notice", role: "status", "data-report-done": r.report, text: t("place.reported") }));
    } catch (e) { out.replaceChildren(refusalBox(e)); } finally { go.disabled = false; }
  });
  wrap.append(btn, form, out);
  return wrap;
}

// /leaderboard?bucket=GAME/2
export async function leaderboardPage(root: HTMLElement): Promise<void> {
  const main = shell(root, t("place.leaderboard"), "leaderboard");
  const catalog = await getJSON<Catalog>(withLang("/api/catalog"));
  const buckets = catalog.games.flatMap((g) => [...(g.min_players <= 2 ? [`${g.id}/2`] : []), ...(g.max_players >= 3 ? [`${g.id}/3-5`] : [])]);
  const asked = new URLSearchParams(location.search).get("bucket");
  const picker = h("select", { "data-bucket-picker": "", id: "bucket" }, ...buckets.map((b) => h("option", { value: b, text: bucketWords(catalog, b) })));
  picker.value = asked && buckets.includes(asked) ? asked : buckets[0];
  const box = h("div", { "data-leaderboard-box": "" });
  main.append(h("section", { class: "card" }, h("p", { class: "sub", text: t("place.leaderboard_sub") }),
    h("label", { for: "bucket", class: "field-inline" }, `${t("place.col_bucket")} `), picker, box));
  const draw = async () => {
    const b = picker.value;
    const u = new URL(location.href);
    u.searchParams.set("bucket", b);
    history.replaceState(history.state, "", u.pathname + u.search);
    box.dataset.bucket = b;
    try {
      const r = await getJSON<{ players: { rank: number; name: string; rating: number; games: number; last: number }[]; days: number }>(`/api/leaderboard?bucket=${encodeURIComponent(b)}`);
      if (picker.value !== b) return;
      box.replaceChildren(r.players.length
        ? h("table", { class: "list", "data-leaderboard": b },
          h("caption", { class: "sub", text: t("place.leaderboard_caption", { bucket: bucketWords(catalog, b), days: r.days }) }),
          h("thead", {}, h("tr", {}, ...([["place.col_rank", "num"], ["place.col_player", ""], ["place.col_rating", "num"], ["place.col_games", "num"], ["place.col_last", ""]] as const).map(([k, c]) => h("th", { scope: "col", class: c, text: t(k) })))),
          h("tbody", {}, ...r.players.map((x) => h("tr", { "data-rank": x.rank, "data-player": x.name },
            h("td", { class: "num", text: String(x.rank) }), h("th", { scope: "row" }, playerLink(x.name)),
            h("td", { class: "num", "data-rating": x.rating, text: String(x.rating) }), h("td", { class: "num", text: String(x.games) }),
            h("td", { text: x.last ? day(x.last) : "" })))))
        : h("p", { class: "sub", "data-leaderboard-none": "", text: t("place.leaderboard_none", { days: r.days }) }));
    } catch (e) {
      box.replaceChildren(e instanceof HttpError ? refusalBox(e) : h("p", { class: "message", role: "alert", text: (e as Error).message }));
    }
    box.dataset.loaded = b;
  };
  picker.addEventListener("change", () => void draw());
  await draw();
}
