// A place where players meet (issue 51; docs/web.md "Open tables and quick pairing",
// docs/server-protocol.md "Open tables", "Quick pairing", "The lobby: /ws/lobby"): the lobby's open
// tables (a form to open one, join and leave; a table you sit at that starts opens its game) and
// quick pairing (join a pool, wait, be seated). The tables and the pools' counts come from the
// lobby's WebSocket, else from GET /api/tables every 5 s (which also keeps the host's real-time
// tables open). Every refusal is a sentence in the page's language.
import type { Catalog } from "./types";
import { getJSON, h, HttpError } from "./util";
import { t } from "./i18n";
import { session, type Me } from "./account";

export interface Table {
  id: string; game: string; seats: number; bots: string[]; clock: string; rated: boolean;
  range?: [number, number]; players: (string | null)[]; created: number; status: string;
}
export interface Pool { game: string; seats: number; clock: string; rated: boolean; guest: boolean; waiting: number }

export function send<T>(method: "POST" | "DELETE", url: string, body?: unknown): Promise<T> {
  return getJSON<T>(url, body === undefined ? { method } : { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

// The codes the lobby, the player's page and the chat word themselves (messages place.error.CODE).
const CODES = ["blocked", "out_of_range", "rated_needs_account", "table_full", "table_closed", "too_many_tables", "too_many_games", "rate_limited",
  "unknown_table", "not_seated", "no_session", "unknown_player", "chat_too_fast", "chat_guest", "chat_account"];
// A refusal: its code and its sentence (the server's own words for a code the page does not know).
export function refused(e: unknown): { code: string; text: string } {
  if (!(e instanceof HttpError)) return { code: "other", text: t("account.error.network") };
  const code = e.code ?? "other";
  if (!CODES.includes(code)) return { code, text: e.message };
  const s = e.retryAfter ?? 60;
  return { code, text: t(`place.error.${code}`, { wait: s < 90 ? t("account.wait_s", { n: s }) : t("account.wait_min", { n: Math.ceil(s / 60) }) }) };
}
export function refusalBox(e: unknown): HTMLElement {
  const r = refused(e);
  return h("p", { class: "message refused", "data-message": "", "data-refused": r.code, role: "alert", text: r.text });
}

// A player's name as a link to their page (an account's); a guest in words.
export function playerLink(name: string | null | undefined): HTMLElement | string {
  if (!name) return t("place.a_guest");
  return h("a", { href: `/player/${encodeURIComponent(name)}`, "data-player-link": name, text: name });
}

export function clockWords(c: string): string { return t(c === "days" ? "place.clock.days" : "place.clock.realtime"); }

// ---- the lobby's feed: the WebSocket when the server has it, else polling ----

export class LobbyFeed {
  tables = new Map<string, Table>();
  pools: Pool[] = [];
  mode: "socket" | "poll" | "" = "";
  private ws: WebSocket | null = null;
  private timer: number | undefined;
  private lobbySeen = false;

  constructor(private changed: () => void) {}

  start(): void {
    if (!("WebSocket" in window)) { this.poll(); return; }
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws: WebSocket;
    try { ws = new WebSocket(`${proto}//${location.host}/ws/lobby`); } catch { this.poll(); return; }
    this.ws = ws;
    let ping: number | undefined;
    ws.onopen = () => { ws.send(JSON.stringify({ type: "hello" })); ping = window.setInterval(() => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: "ping" })), 15000); };
    ws.onmessage = (e) => {
      let m: any;
      try { m = JSON.parse(String(e.data)); } catch { return; }
      if (m.type === "lobby") { this.lobbySeen = true; this.mode = "socket"; this.apply(m); return; }
      if (m.type === "pong") return;
      // a server without the lobby's socket answers something else: ask over HTTP instead
      if (!this.lobbySeen) { ws.onclose = null; ws.close(); clearInterval(ping); this.poll(); }
    };
    ws.onclose = () => {
      clearInterval(ping);
      if (this.ws !== ws) return;
      this.ws = null;
      // a lobby socket that worked comes back (its host's tables wait 5 s for it); one that never did: polling
      if (this.lobbySeen) window.setTimeout(() => this.start(), 2000); else this.poll();
    };
  }

  private apply(m: any): void {
    if (m.full) this.tables.clear();
    for (const tb of m.tables ?? []) this.tables.set(tb.id, tb);
    for (const tb of m.added ?? []) this.tables.set(tb.id, tb);
    for (const id of m.removed ?? []) this.tables.delete(id);
    if (m.pools) this.pools = m.pools;
    this.changed();
  }

  private poll(): void {
    this.mode = "poll";
    if (this.timer !== undefined) return;
    const go = async () => {
      try {
        const r = await getJSON<{ tables: Table[] }>("/api/tables");
        this.tables = new Map(r.tables.map((x) => [x.id, x]));
        this.changed();
      } catch { /* the next poll tries again */ }
    };
    void go();
    this.timer = window.setInterval(go, 5000);
  }

  // after an action of this page: the list at once (the socket says it within its batch)
  refresh(): void {
    if (this.mode !== "poll") return;
    getJSON<{ tables: Table[] }>("/api/tables").then((r) => { this.tables = new Map(r.tables.map((x) => [x.id, x])); this.changed(); }, () => {});
  }
}

// ---- the lobby's sections ----

const MINE = "carc.tables";  // the tables this browser opened or sat at (a guest's name is not in the list)
function mineSet(): Set<string> { try { return new Set(JSON.parse(sessionStorage.getItem(MINE) ?? "[]")); } catch { return new Set(); } }
function setMine(s: Set<string>): void { try { sessionStorage.setItem(MINE, JSON.stringify([...s])); } catch { /* storage off */ } }

function select(hook: string, label: string, options: [string, string][], value?: string): HTMLSelectElement {
  const s = h("select", { [hook]: "", "aria-label": label }, ...options.map(([v, w]) => h("option", { value: v, text: w })));
  if (value !== undefined) s.value = value;
  return s;
}
function labelled(label: string, control: HTMLElement): HTMLElement { return h("label", { class: "field-inline" }, `${label} `, control); }
function check(hook: string, label: string, checked = false): { wrap: HTMLElement; input: HTMLInputElement } {
  const input = h("input", { type: "checkbox", [hook]: "", checked });
  return { wrap: h("label", { class: "setting" }, input, ` ${label}`), input };
}
const seatOptions = (min: number, max: number) => Array.from({ length: max - min + 1 }, (_, i) => [String(min + i), String(min + i)] as [string, string]);
const clockOptions = (): [string, string][] => [["realtime", t("place.clock.realtime")], ["days", t("place.clock.days")]];

// "Open tables" and "Quick pairing" of the lobby, fed by one LobbyFeed.
export function placeSections(catalog: Catalog): HTMLElement[] {
  const title = (g: string) => catalog.games.find((x) => x.id === g)?.title ?? g;
  const gameOptions = catalog.games.map((g) => [g.id, g.title] as [string, string]);
  let me: Me | null = null;
  const feed = new LobbyFeed(() => { drawTables(); drawPools(); });

  // -- open tables --
  const tablesBox = h("section", { class: "card place", "data-tables-section": "", id: "tables", "aria-labelledby": "tables-h" },
    h("h2", { id: "tables-h", text: t("place.tables") }), h("p", { class: "sub", text: t("place.tables_sub") }));
  const list = h("ul", { class: "tables", "data-tables": "" });
  const listResult = h("div", { class: "result", "data-tables-result": "" });
  const game = select("data-table-game", t("place.game"), gameOptions);
  const seats = select("data-table-seats", t("place.seats"), []);
  const bots = select("data-table-bots", t("place.bots"), []);
  const level = select("data-table-bot-level", t("place.bot_level"), catalog.bots.filter((b) => ["easy", "normal", "hard"].includes(b.level)).map((b) => [b.level, b.word ?? b.level]));
  const clock = select("data-table-clock", t("place.clock"), clockOptions());
  const rated = check("data-table-rated", t("place.rated"));
  const ranged = check("data-table-range", t("place.range"));
  const lo = h("input", { type: "number", min: 0, max: 4000, step: 50, value: 1300, "data-table-min": "", "aria-label": t("place.range_min"), disabled: true });
  const hi = h("input", { type: "number", min: 0, max: 4000, step: 50, value: 1700, "data-table-max": "", "aria-label": t("place.range_max"), disabled: true });
  const guestChat = check("data-table-guest-chat", t("place.guest_chat"));
  const openBtn = h("button", { type: "submit", class: "primary", "data-table-open": "", text: t("place.open") });
  const formResult = h("div", { class: "result", "data-table-result": "" });
  const drawSeats = () => {
    const g = catalog.games.find((x) => x.id === game.value)!;
    const v = seats.value || "2";
    seats.replaceChildren(...seatOptions(Math.max(2, g.min_players), Math.min(5, g.max_players)).map(([a, b]) => h("option", { value: a, text: b })));
    seats.value = Number(v) >= Math.max(2, g.min_players) && Number(v) <= Math.min(5, g.max_players) ? v : String(Math.max(2, g.min_players));
    drawBots();
  };
  const drawBots = () => {
    const n = Number(seats.value), v = Math.min(Number(bots.value || 0), n - 1);
    bots.replaceChildren(...Array.from({ length: n }, (_, i) => h("option", { value: String(i), text: i ? t("place.bots_n", { n: i }) : t("place.bots_none") })));
    bots.value = String(rated.input.checked ? 0 : v);
    bots.disabled = rated.input.checked;  // bots are not rated
    level.disabled = rated.input.checked || bots.value === "0";
  };
  game.addEventListener("change", drawSeats);
  seats.addEventListener("change", drawBots);
  bots.addEventListener("change", drawBots);
  rated.input.addEventListener("change", drawBots);
  ranged.input.addEventListener("change", () => { lo.disabled = hi.disabled = !ranged.input.checked; });
  const form = h("form", { class: "table-form", "data-table-form": "", "aria-labelledby": "table-form-h" },
    h("h3", { id: "table-form-h", text: t("place.open_title") }),
    h("div", { class: "row" }, labelled(t("place.game"), game), labelled(t("place.seats"), seats), labelled(t("place.clock"), clock)),
    h("div", { class: "row" }, labelled(t("place.bots"), bots), labelled(t("place.bot_level"), level)),
    h("div", { class: "row" }, rated.wrap, ranged.wrap, labelled(t("place.range_min"), lo), labelled(t("place.range_max"), hi)),
    h("div", { class: "row" }, guestChat.wrap), openBtn, formResult);
  drawSeats();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    formResult.replaceChildren();
    const n = Number(bots.value);
    const req: any = { game: game.value, seats: Number(seats.value), clock: clock.value, rated: rated.input.checked };
    if (n && !rated.input.checked) req.bots = Array(n).fill(level.value);
    if (ranged.input.checked) req.range = [Number(lo.value), Number(hi.value)];
    if (guestChat.input.checked) req.guest_chat = true;
    openBtn.disabled = true;
    try {
      const r = await send<{ table: string }>("POST", "/api/tables", req);
      const s = mineSet(); s.add(r.table); setMine(s);
      formResult.replaceChildren(h("p", { class: "notice", role: "status", "data-table-opened": r.table, text: t("place.opened") }));
      feed.refresh();
    } catch (e) { formResult.replaceChildren(refusalBox(e)); } finally { openBtn.disabled = false; }
  });
  tablesBox.append(list, listResult, form);

  // seated at a table: is this player one of its players (an account by name, a guest by this browser's list)
  const seated = (tb: Table) => (me && !me.guest && me.name ? tb.players.some((p) => p !== null && p.toLowerCase() === me!.name!.toLowerCase()) : false) || mineSet().has(tb.id);
  let known = new Map<string, Table>();
  function drawTables(): void {
    tablesBox.dataset.feed = feed.mode;
    // a table this player sat at that went: started (its game opens) or closed
    for (const [id, tb] of known) if (!feed.tables.has(id) && seated(tb)) void findStarted(tb);
    known = new Map(feed.tables);
    const rows = [...feed.tables.values()].filter((x) => x.status === "open").sort((a, b) => b.created - a.created);
    list.replaceChildren(...rows.map(tableRow));
    if (!rows.length) list.replaceChildren(h("li", { class: "sub", "data-tables-none": "", text: t("place.tables_none") }));
  }
  function tableRow(tb: Table): HTMLElement {
    const mine = seated(tb);
    const people = tb.seats - tb.bots.length;
    const who: (HTMLElement | string)[] = [];
    tb.players.forEach((p, i) => who.push(...(i ? [", ", playerLink(p)] : [playerLink(p)])));
    const facts = [t("place.seated", { n: tb.players.length, of: people }), clockWords(tb.clock), t(tb.rated ? "place.is_rated" : "place.is_casual")];
    if (tb.bots.length) facts.push(t("place.with_bots", { n: tb.bots.length }));
    if (tb.range) facts.push(t("place.range_is", { lo: tb.range[0], hi: tb.range[1] }));
    const act = mine
      ? h("button", { type: "button", "data-table-leave": tb.id, text: t("place.leave") })
      : h("button", { type: "button", class: "primary", "data-table-join": tb.id, text: t("place.join") });
    act.addEventListener("click", () => void (mine ? leave(tb) : join(tb)));
    return h("li", { class: "table-row", "data-table": tb.id, "data-seated": String(mine), "data-status": tb.status },
      h("b", { text: title(tb.game) }), ` · ${t("place.players_n", { n: tb.seats })} · `,
      h("span", { "data-table-players": "" }, ...who), h("span", { class: "badge", text: ` · ${facts.join(" · ")}` }), " ", act);
  }
  async function join(tb: Table): Promise<void> {
    listResult.replaceChildren();
    try {
      const r = await send<{ table: string; seat: number; game?: string; play?: string }>("POST", `/api/tables/${encodeURIComponent(tb.id)}/join`, {});
      const s = mineSet(); s.add(tb.id); setMine(s);
      if (r.play) { location.href = r.play; return; }
      feed.refresh();
      drawTables();
    } catch (e) { listResult.replaceChildren(refusalBox(e)); }
  }
  async function leave(tb: Table): Promise<void> {
    listResult.replaceChildren();
    try {
      await send("POST", `/api/tables/${encodeURIComponent(tb.id)}/leave`, {});
    } catch (e) { if (!(e instanceof HttpError && e.code === "not_seated")) { listResult.replaceChildren(refusalBox(e)); return; } }
    const s = mineSet(); s.delete(tb.id); setMine(s);
    known.delete(tb.id);
    feed.refresh();
    drawTables();
  }
  // The game a table this player sat at became (GET /api/tables/ID: a started table's `play`, for a
  // player at it); a table still starting is asked again, a closed one is forgotten.
  async function findStarted(tb: Table): Promise<void> {
    const s = mineSet(); s.delete(tb.id); setMine(s);
    for (let i = 0; i < 10; i++) {
      try {
        const r = await getJSON<{ status: string; play?: string }>(`/api/tables/${encodeURIComponent(tb.id)}`);
        if (r.play) { location.href = r.play; return; }
        if (r.status !== "starting") return;
      } catch (e) { if (e instanceof HttpError && e.status === 404) return; }
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  // -- quick pairing --
  const pairBox = h("section", { class: "card place", "data-pairing": "", id: "pairing", "aria-labelledby": "pairing-h" },
    h("h2", { id: "pairing-h", text: t("place.pairing") }), h("p", { class: "sub", text: t("place.pairing_sub") }));
  const pGame = select("data-pairing-game", t("place.game"), gameOptions);
  const pSeats = select("data-pairing-seats", t("place.seats"), []);
  const pClock = select("data-pairing-clock", t("place.clock"), clockOptions());
  const pRated = check("data-pairing-rated", t("place.rated"));
  const pJoin = h("button", { type: "submit", class: "primary", "data-pairing-join": "", text: t("place.pairing_join") });
  const pForm = h("form", { class: "table-form", "data-pairing-form": "" },
    h("div", { class: "row" }, labelled(t("place.game"), pGame), labelled(t("place.seats"), pSeats), labelled(t("place.clock"), pClock), pRated.wrap), pJoin);
  // (its status empty until the server's first answer)
  const pStatus = h("div", { class: "pairing-status", "data-pairing-status": "", role: "status" });
  const pResult = h("div", { class: "result", "data-pairing-result": "" });
  const pools = h("ul", { class: "pools", "data-pools": "", hidden: true });
  const drawPSeats = () => {
    const g = catalog.games.find((x) => x.id === pGame.value)!;
    pSeats.replaceChildren(...seatOptions(Math.max(2, g.min_players), Math.min(5, g.max_players)).map(([a, b]) => h("option", { value: a, text: b })));
  };
  pGame.addEventListener("change", drawPSeats);
  drawPSeats();
  pairBox.append(pForm, pStatus, pResult, h("h3", { class: "sr-only", text: t("place.pools") }), pools);
  let pollTimer: number | undefined;
  let waited = false;  // this page saw the player waiting
  function showPairing(st: any): void {
    clearInterval(pollTimer);
    pollTimer = undefined;
    pStatus.dataset.pairingStatus = st.status;
    if (st.status === "paired") {
      pForm.hidden = false;
      // paired while this page waited: the game opens; else (the server answers `paired` while
      // the paired game goes on, `none` once it is over) a link to it
      if (waited) {
        pStatus.replaceChildren(h("p", { text: t("place.paired") }), h("a", { class: "button primary", href: st.play, "data-pairing-play": st.game, text: t("place.to_game") }));
        location.href = st.play;
        return;
      }
      pStatus.replaceChildren(h("p", {}, t("place.paired_before"), " ", h("a", { href: st.play, "data-pairing-play": st.game, text: t("place.to_game") })));
      return;
    }
    if (st.status !== "waiting") { pStatus.replaceChildren(); pForm.hidden = false; return; }
    waited = true;
    pForm.hidden = true;
    const leaveBtn = h("button", { type: "button", "data-pairing-leave": "", text: t("place.leave") });
    leaveBtn.addEventListener("click", async () => {
      try { await send("DELETE", "/api/pairing"); } catch (e) { pResult.replaceChildren(refusalBox(e)); return; }
      showPairing({ status: "none" });
    });
    const p = st.pool;
    pStatus.replaceChildren(
      h("p", { class: "waiting" }, t("place.waiting", { game: title(p.game), n: p.seats, clock: clockWords(p.clock), rated: t(p.rated ? "place.is_rated" : "place.is_casual") })),
      h("p", { class: "sub" }, h("span", { "data-pairing-size": st.waiting ?? 0, text: t("place.pool_size", { n: st.waiting ?? 0 }) }), " · ",
        h("span", { "data-pairing-waves": st.waves ?? 0, text: t("place.waves", { n: st.waves ?? 0 }) })), leaveBtn);
    pollTimer = window.setInterval(() => void ask(), 2000);
  }
  async function ask(): Promise<void> {
    try { showPairing(await getJSON<any>("/api/pairing")); } catch { /* asked again in 2 s */ }
  }
  pForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    pResult.replaceChildren();
    pJoin.disabled = true;
    try {
      const r = await send<any>("POST", "/api/pairing", { game: pGame.value, seats: Number(pSeats.value), clock: pClock.value, rated: pRated.input.checked });
      waited = true;  // (a pool that fills pairs at once: the answer may be `paired`)
      showPairing({ waves: 0, ...r });
    } catch (e) { pResult.replaceChildren(refusalBox(e)); } finally { pJoin.disabled = false; }
  });
  function drawPools(): void {
    const mineKind = me?.guest ?? true;
    const shown = feed.pools.filter((p) => p.guest === mineKind && p.waiting > 0);
    pools.hidden = feed.mode !== "socket" || !shown.length;
    pools.replaceChildren(...shown.map((p) => h("li", { "data-pool": `${p.game}/${p.seats}/${p.clock}/${p.rated ? "rated" : "casual"}`, "data-waiting": p.waiting },
      t("place.pool_line", { game: title(p.game), n: p.seats, clock: clockWords(p.clock), rated: t(p.rated ? "place.is_rated" : "place.is_casual"), waiting: p.waiting }))));
  }

  void session().then((m) => {
    me = m;
    feed.start();
    void ask();
  });
  return [pairBox, tablesBox];
}
