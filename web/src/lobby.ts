// The lobby (/): one click to play any game against a bot; a form for the game, its options,
// seats (you, invited people, bots) and clock; invite links to copy; your games (waiting for you
// first), games to watch or replay, and a record file to view.
import type { Catalog } from "./types";
import { getJSON, h, load, HttpError } from "./util";
import { langPicker, t, withLang } from "./i18n";
import { rememberSeat, type MyGame } from "./game";
import { rulesURL } from "./rules";
import { meLink, session, whoIs } from "./account";
import { placeSections } from "./place";
import { leaderboardLink } from "./player";
import { turnsBadge, turnsSection } from "./turns";

type SeatKind = "you" | "person" | string;  // string: a bot level

export async function lobbyPage(root: HTMLElement): Promise<void> {
  const catalog = await getJSON<Catalog>(withLang("/api/catalog"));
  const page = h("main", { class: "lobby", "data-page": "lobby" });
  root.replaceChildren(page);
  page.append(h("div", { class: "topbar" }, h("h1", { text: t("lobby.title") }), h("div", { class: "topbar-end" }, leaderboardLink(), turnsBadge(), meLink(), langPicker(h))), h("p", { class: "sub", text: t("lobby.sub") }));

  // one click: you against an easy bot
  const quick = h("section", { class: "card quick" }, h("h2", { text: t("lobby.quick") }));
  for (const g of catalog.games) {
    const b = h("button", { type: "button", class: "primary big", "data-quick": g.id, text: g.title });
    b.addEventListener("click", () => void create({ game: g.id, seats: [{ name: playerName() }, { bot: "easy" }] }, true));
    quick.append(b);
  }
  // each game's rules, on a page of their own
  quick.append(h("p", { class: "sub rules-links" }, t("lobby.rules"), ...catalog.games.flatMap((g, i) => [i ? " · " : " ",
    h("a", { href: rulesURL(g.id), "data-rules-link": g.id, text: g.title })])));
  const quickResult = h("div", { class: "result", "data-quick-result": "" });
  quick.append(quickResult);
  page.append(quick);
  // quick pairing and open tables (place.ts)
  page.append(turnsSection(catalog), ...placeSections(catalog));

  // the full form
  const form = h("section", { class: "card create", "data-create-form": "" }, h("h2", { text: t("lobby.new") }));
  const gameSel = h("select", { "data-lobby-game": "", "aria-label": t("lobby.game_label").replace(/[: ]+$/, "") }, ...catalog.games.map((g) => h("option", { value: g.id, text: g.title })));
  const optBox = h("div", { class: "opts" });
  const seatBox = h("div", { class: "seats" });
  const clockSel = h("select", { "data-lobby-clock": "", "aria-label": t("lobby.clock_label").replace(/[: ]+$/, "") },
    h("option", { value: "none", text: t("clock.none") }), h("option", { value: "rt5", text: t("clock.rt5") }),
    h("option", { value: "rt15", text: t("clock.rt15") }), h("option", { value: "d1", text: t("clock.d1") }),
    h("option", { value: "d3", text: t("clock.d3") }));
  const nameIn = h("input", { "data-lobby-name": "", value: playerName(), "aria-label": t("lobby.your_name"), maxlength: 40 });
  let seats: SeatKind[] = ["you", "easy"];
  const drawOptions = () => {
    const g = catalog.games.find((x) => x.id === gameSel.value)!;
    // the option, its values and its help in the game's words (the server's, in the page's language)
    optBox.replaceChildren(...g.options.map((o) => h("label", { title: o.help }, `${o.word ?? o.name}: `,
      h("select", { "data-lobby-option": o.name }, ...o.values.map((v, i) => h("option", { value: v, text: o.value_words?.[i] ?? v }))), h("span", { class: "sub", text: ` ${o.help}` }))));
    seats = seats.slice(0, g.max_players);
    while (seats.length < g.min_players) seats.push("easy");
    drawSeats();
  };
  const drawSeats = () => {
    const g = catalog.games.find((x) => x.id === gameSel.value)!;
    seatBox.replaceChildren(...seats.map((k, i) => {
      const sel = h("select", { "data-seat-kind": i, "aria-label": t("seat.n", { n: i + 1 }).trim() },
        h("option", { value: "you", text: t("seat.you") }), h("option", { value: "person", text: t("seat.person") }),
        ...catalog.bots.map((b) => h("option", { value: b.level, text: t("seat.bot", { level: b.word ?? b.level }) })));
      sel.value = k;
      sel.addEventListener("change", () => { seats[i] = sel.value; });
      const rm = h("button", { type: "button", "data-seat-remove": i, disabled: seats.length <= g.min_players, text: "✕", "aria-label": t("seat.remove", { n: i + 1 }), title: t("seat.remove", { n: i + 1 }) });
      rm.addEventListener("click", () => { seats.splice(i, 1); drawSeats(); });
      return h("div", { class: "seat-row", "data-seat-row": i }, h("span", { class: "swatch", style: `background:${catalog.seat_colours[i]}` }), t("seat.n", { n: i + 1 }), sel, rm);
    }));
    const add = h("button", { type: "button", "data-seat-add": "", disabled: seats.length >= g.max_players, text: t("seat.add") });
    add.addEventListener("click", () => { seats.push("person"); drawSeats(); });
    seatBox.append(add);
  };
  gameSel.addEventListener("change", drawOptions);
  const createBtn = h("button", { type: "button", class: "primary", "data-create": "", text: t("lobby.create") });
  const result = h("div", { class: "result", "data-create-result": "" });
  createBtn.addEventListener("click", () => {
    const options: Record<string, string> = {};
    optBox.querySelectorAll<HTMLSelectElement>("[data-lobby-option]").forEach((s) => { options[s.dataset.lobbyOption!] = s.value; });
    const name = nameIn.value.trim() || t("lobby.default_name");
    localStorage.setItem("carc.name", name);
    let invited = 0;
    const seatList = seats.map((k) => k === "you" ? { name } : k === "person" ? { name: t("lobby.guest", { n: ++invited }) } : { bot: k });
    const req: any = { game: gameSel.value, options, seats: seatList };
    const c = clockSel.value;
    if (c.startsWith("rt")) req.clock = { type: "realtime", bank: c === "rt5" ? 300 : 900, increment: c === "rt5" ? 10 : 20 };
    if (c.startsWith("d")) req.clock = { type: "days", days: Number(c.slice(1)) };
    if (seats.some((k) => k === "person")) req.absence = { grace: 60, policy: "wait" };
    void create(req, false);
  });
  form.append(h("label", {}, t("lobby.name_label"), nameIn), h("label", {}, t("lobby.game_label"), gameSel), optBox, h("h3", { text: t("lobby.seats") }), seatBox, h("label", {}, t("lobby.clock_label"), clockSel), createBtn, result);
  page.append(form);
  drawOptions();

  async function create(req: any, go: boolean): Promise<void> {
    result.textContent = "";
    quickResult.textContent = "";
    try {
      const r = await getJSON<any>("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(req) });
      const mine: any[] = [];
      r.seats.forEach((s: any, i: number) => {
        const you = !s.bot && (req.seats[i].name === playerName() || (go && i === 0)) && mine.length === 0;
        if (you) { mine.push(s); rememberSeat({ id: r.id, seat: i, token: s.token, game: req.game, created: Date.now() }); }
      });
      const own = mine[0];
      if (go && own) { location.href = own.invite; return; }
      const links = r.seats.filter((s: any) => s.invite).map((s: any) => {
        const url = new URL(s.invite, location.href).href;
        const inp = h("input", { readonly: true, value: url, "data-invite": s.seat, "aria-label": t("lobby.invite_label", { n: s.seat + 1 }) });
        const copy = h("button", { type: "button", "data-copy": s.seat, text: t("lobby.copy") });
        copy.addEventListener("click", async () => { try { await navigator.clipboard.writeText(url); copy.textContent = t("lobby.copied"); } catch { inp.select(); } });
        return h("div", { class: "invite" }, t(own && s.seat === own.seat ? "lobby.invite_row_you" : "lobby.invite_row", { name: s.name, n: s.seat + 1 }), inp, copy);
      });
      result.replaceChildren(h("p", { text: t("lobby.created", { id: r.id }) }), ...links,
        own ? h("a", { class: "button primary", href: own.invite, "data-open-game": "", text: t("lobby.open_seat") }) : h("a", { class: "button", href: `/play/${r.id}`, text: t("lobby.watch") }));
      void drawMine();
    } catch (e) {
      // said where it was asked: under the one-click games or under the form
      (go ? quickResult : result).replaceChildren(await refusal(e as Error));
    }
  }

  // A refused new game in words, with the way on: too many active games from this address
  // links to this browser's games in progress (those that block it) and to "Your games".
  async function refusal(e: Error): Promise<HTMLElement> {
    const code = e instanceof HttpError ? e.code ?? "" : "";
    const box = h("div", { class: "message refused", "data-message": "", "data-refused": code, role: "alert" });
    if (code === "too_many_games") {
      box.append(h("p", { text: t("lobby.refused_games") }));
      const active = (await mine()).filter((r) => r.s.status === "active");
      box.append(active.length
        ? h("div", {}, h("p", { text: t("lobby.refused_yours") }), h("ul", {}, ...active.map((r) => h("li", {}, h("a", { href: seatURL(r.g), "data-refused-game": r.g.id, text: gameLine(r) })))))
        : h("p", { text: t("lobby.refused_none") }));
      box.append(h("p", {}, h("a", { href: "#my-games", text: t("lobby.refused_mine") })));
    } else if (code === "server_full") box.append(h("p", { text: t("lobby.refused_full") }));
    else if (code === "rate_limited") box.append(h("p", { text: t("lobby.refused_rate", { s: (e as HttpError).retryAfter ?? 60 }) }));
    else box.append(h("p", { text: e.message }));
    return box;
  }

  // your games (the player's, on any device; then this browser's), then games to watch
  const accountBox = h("section", { class: "card", "data-account-games": "", id: "account-games", "aria-labelledby": "account-games-h" }, h("h2", { id: "account-games-h", text: t("lobby.account_games") }));
  const mineBox = h("section", { class: "card", "data-my-games": "", id: "my-games" }, h("h2", { text: t("lobby.mine") }));
  const watchBox = h("section", { class: "card", "data-watch-games": "" }, h("h2", { text: t("lobby.watch_title") }));
  page.append(accountBox, mineBox, watchBox);
  // this browser's games (carc.mygames) with their summaries, your move first
  async function mine(): Promise<{ g: MyGame; s: any }[]> {
    const list = load<MyGame[]>("carc.mygames", []);
    const rows = await Promise.all(list.slice(0, 30).map(async (g) => {
      try { return { g, s: await getJSON<any>(withLang(`/api/games/${g.id}`)) }; } catch { return null; }
    }));
    const ok = rows.filter((r): r is { g: MyGame; s: any } => !!r);
    ok.sort((a, b) => rank(a) - rank(b) || b.g.created - a.g.created);
    return ok;
  }
  const rank = (r: { g: MyGame; s: any }) => r.s.status !== "active" ? 2 : r.s.to_move === r.g.seat ? 0 : 1;
  const seatURL = (g: MyGame) => `/play/${g.id}?seat=${g.seat}&token=${g.token}`;
  const gameLine = (r: { g: MyGame; s: any }) => `${catalog.games.find((x) => x.id === r.s.game)?.title ?? r.s.game} · ${r.s.seats.map((x: any) => x.name).join(t("lobby.vs"))}`;
  async function drawMine(): Promise<void> {
    const ok = await mine();
    mineBox.replaceChildren(h("h2", { text: t("lobby.mine") }), ok.length ? h("ul", {}, ...ok.map((r) => h("li", { "data-my-game": r.g.id, "data-rank": rank(r) },
      h("a", { href: seatURL(r.g), text: gameLine(r) }),
      h("span", { class: rank(r) === 0 ? "badge hot" : "badge", text: rank(r) === 0 ? t("lobby.your_move") : r.s.status === "active" ? t("lobby.live") : ` ${t("status." + r.s.status)}: ${r.s.scores.join("–")}` })))) : h("p", { class: "sub", text: t("lobby.none") }));
  }
  async function drawWatch(): Promise<void> {
    const games = await getJSON<any[]>(withLang("/api/games"));
    const upload = h("input", { type: "file", accept: ".json,application/json", "data-upload": "", "aria-label": t("lobby.record_label") });
    upload.addEventListener("change", async () => {
      const f = upload.files?.[0];
      if (!f) return;
      sessionStorage.setItem("carc.upload", await f.text());
      location.href = "/replay";
    });
    watchBox.replaceChildren(h("h2", { text: t("lobby.watch_title") }), h("label", {}, t("lobby.record_view"), upload),
      h("ul", {}, ...games.slice(0, 40).map(watchRow)));
  }
  // a game to watch: its players (with their scores while it is in the server's memory), whose
  // turn it is, its status and age
  function watchRow(g: any): HTMLElement {
    const seats: any[] = g.seats ?? [];
    const players = seats.map((s, i) => g.scores ? `${s.name} ${g.scores[i]}` : s.name).join(t("lobby.vs"));
    const mover = g.status === "active" && g.to_move >= 0 ? seats[g.to_move]?.name : undefined;
    const label = `${catalog.games.find((x) => x.id === g.game)?.title ?? g.game} · ${players || g.id}`;
    return h("li", { "data-watch": g.id, "data-watch-status": g.status },
      h("a", { href: `/play/${g.id}`, text: label, "data-watch-players": "" }),
      mover ? h("span", { class: "badge", "data-watch-turn": g.to_move, text: ` ${t("lobby.to_move", { name: mover })}` }) : null,
      h("span", { class: "badge", text: mover ? ` · ${ago(g.created)}` : ` ${t("status." + g.status)} · ${ago(g.created)}` }));
  }
  // The games whose seats this player opened (GET /api/me/games), newest first: each opens the
  // player's seat by the session alone (/play/ID?seat=N, no token), on any device.
  async function drawAccount(): Promise<void> {
    const me = await session();
    let games: any[] = [];
    try {
      games = me ? (await getJSON<{ games: any[] }>(withLang("/api/me/games"))).games : [];
    } catch { games = []; }
    games.sort((a, b) => b.created - a.created);
    // a game not in the server's memory is listed without its seats: its summary has them
    await Promise.all(games.filter((g) => !g.seats).slice(0, 30).map(async (g) => {
      try { Object.assign(g, await getJSON<any>(withLang(`/api/games/${encodeURIComponent(g.id)}`)), { id: g.id, seat: g.seat }); } catch { /* listed as it is */ }
    }));
    const sub = me ? h("p", { class: "sub", text: t(me.guest ? "lobby.account_games_guest" : "lobby.account_games_sub", { who: whoIs(me) }) }) : null;
    if (me?.guest) sub?.append(" ", h("a", { href: "/account", "data-account-link": "", text: t("lobby.account_claim") }));
    accountBox.replaceChildren(accountBox.firstChild!, ...(sub ? [sub] : []), games.length
      ? h("ul", {}, ...games.map(accountRow))
      : h("p", { class: "sub", "data-account-none": "", text: t("lobby.none") }));
  }
  function accountRow(g: any): HTMLElement {
    const seats: any[] = g.seats ?? [];
    const rank = g.status !== "active" ? 2 : g.to_move === g.seat ? 0 : 1;
    const title = catalog.games.find((x) => x.id === g.game)?.title ?? g.game;
    const players = seats.map((s, i) => {
      const text = g.scores ? `${s.name} ${g.scores[i]}` : s.name;
      return i === g.seat ? h("b", { text }) : text;
    });
    const link = h("a", { href: `/play/${encodeURIComponent(g.id)}?seat=${g.seat}`, "data-account-game-link": "" }, `${title} · `);
    players.forEach((p, i) => link.append(...(i ? [t("lobby.vs"), p] : [p])));
    if (!players.length) link.append(g.id);
    return h("li", { "data-account-game": g.id, "data-seat": g.seat, "data-status": g.status, "data-rank": rank }, link,
      h("span", { class: rank === 0 ? "badge hot" : "badge", text: rank === 0 ? t("lobby.your_move") : rank === 1 ? t("lobby.live") : ` ${t("status." + g.status)} · ${ago(g.created)}` }));
  }
  void drawAccount();
  void drawMine();
  void drawWatch();
}

function ago(ms: number): string {
  const m = Math.max(0, Math.round((Date.now() - ms) / 60000));
  return m < 1 ? t("ago.now") : m < 60 ? t("ago.min", { n: m }) : m < 1440 ? t("ago.h", { n: Math.round(m / 60) }) : t("ago.days", { n: Math.round(m / 1440) });
}

function playerName(): string { return localStorage.getItem("carc.name") || t("lobby.default_name"); }
