// The game page (/play/ID, /replay): the board, the turn in progress (tentative decisions checked
// with the server's `legal`, sent whole on confirm), panels, clocks, presence, the log, the end,
// and a replay slider over the game's record. The page holds no rules: what may be played comes
// from the view's options and `legal`; what is shown from the view.
import { Board, type Group, type Overlay } from "./board";
import { Conn, type Command, type ConnStatus } from "./conn";
import { finalPanel, fitTables, gamePanel, lastTurnPanel, logLine, logPanel, pilePanel, seatsPanel, section, type LogEntry } from "./panels";
import type { Catalog, GameEvent, OptionView, SeatInfo, TileIndex, View } from "./types";
import { getJSON, h, load, names, reuse, s as svgEl, save } from "./util";
import { hasMessage, langPicker, setGameWords, t, withLang } from "./i18n";
import { drawSeen } from "./seen";
import { settings, settingsMenu, TurnNotice } from "./notify";
import { askRematch, endPanel, endView, endLine, type End, type Rematch } from "./final";
import { RulesOverlay, rulesURL } from "./rules";
import { Intro, introSeen } from "./intro";
import { Analysis } from "./analysis";
import { meLink, session } from "./account";
import { turnsBadge } from "./turns";
import { ChatPanel } from "./chat";
import { ScoreTrack } from "./scoretrack";
import { Motion } from "./motion";

declare global {
  interface Window { carc: { confirmToBoardMs: number[]; interactiveMs?: number; seq?: number; sent?: number } }
}
window.carc = window.carc ?? { confirmToBoardMs: [] };

// The accounts a game's summary names per seat (null: none).
function seatAccounts(summary: any): (string | null)[] {
  return (summary?.seats ?? []).map((s: any) => (typeof s?.account === "string" && s.account ? s.account : null));
}

export interface MyGame { id: string; seat: number; token: string; game: string; created: number }

export function rememberSeat(g: MyGame): void {
  const list = load<MyGame[]>("carc.mygames", []).filter((x) => !(x.id === g.id && x.seat === g.seat));
  list.unshift(g);
  save("carc.mygames", list.slice(0, 100));
}

interface Turn {
  moves: string[];              // the decisions chosen so far (notation)
  options: OptionView[] | null; // what may follow them (null: waiting for `legal`)
  complete: boolean;
  sending: boolean;
  place: { x: number; y: number; rot: number } | null;
  words?: string[];             // the moves in words, as the last `legal` answer said them
}

export class GamePage {
  private view: View | null = null;
  private viewSeq = -1;
  private board!: Board;
  private colours: string[] = [];
  private seats: SeatInfo[] = [];
  // each seat's account (GET /api/games/ID's `account`: its name links to the player's page), asked
  // again once at the end (a seat opened since the page loaded is bound by then)
  private accounts: (string | null)[] = [];
  private accountsAtEnd = false;
  private me = -1;
  private conn: Conn | null = null;
  private turn: Turn = { moves: [], options: null, complete: false, sending: false, place: null };
  private legalQueue: string[][] = [];
  private prefRot = 0;
  private sel: string | null = null;       // the board target picked out (an overlay, a point, a cell of several options)
  private keysHelp: HTMLElement | null = null;
  private allOpen = false;
  private log: LogEntry[] = [];
  private live!: HTMLElement;
  private stopAutoplay: () => void = () => {};
  private wasMine = false;
  private started = false;  // the first events (a page's catch-up) are not read out
  private clocks: number[] = [];
  private clockBase = Date.now();
  private presence: any = null;
  private message = "";
  private record: any = null;
  private finalShown = 0;
  private finalTimer: number | undefined;
  private confirmAt = 0;
  private confirmSeq = 0;
  private confirmOnComplete = false;
  private goesOnAsked = false;  // the server's incomplete_turn brought a decision back: say which once its options come
  private replay: { record: any; step: number; steps: number; view: View | null; own: boolean } | null = null;
  private el!: { root: HTMLElement; side: HTMLElement; turn: HTMLElement; conn: HTMLElement; replayBar: HTMLElement; title: HTMLElement; boardWrap: HTMLElement };
  private readonly t0 = performance.now();
  // the end and what follows it (final.ts), what happened (seen.ts), your turn noticed (notify.ts)
  private end: End | null = null;
  private rematch: Rematch | null = null;
  private rematchDeclined = false;
  private askName = false;  // an invited seat's first visit: the "your name" panel
  private seatRefused = false;  // a seat asked for without its token was not this player's: watching
  private rematchBusy = "";
  private anyTurn = false;
  private hoverCell: string | null = null;
  private notice = new TurnNotice();
  // help (rules.ts, intro.ts): the game's rules over the page, the first game's callouts
  private tiles!: TileIndex;
  private rules!: RulesOverlay;
  private intro: Intro | null = null;
  // the analysis of a finished game (analysis.ts): the panel under the board, a decision's better move
  private analysis: Analysis | null = null;
  private replayGo: ((step: number, keep?: boolean) => Promise<unknown>) | null = null;
  private analyseSlot: HTMLElement | null = null;
  // the game's chat (chat.ts): a server's game, live or replayed from its record
  private chat: ChatPanel | null = null;
  private chatOver = false;
  // the score track along the board's top, and the motion over the board (motion.ts)
  private track = new ScoreTrack();
  private motion = new Motion(this.track);

  constructor(private root: HTMLElement, private id: string | null, private kind: string, private token: string | null) {}

  static async open(root: HTMLElement, id: string, params: URLSearchParams): Promise<GamePage> {
    let token = params.get("token");
    const asked = params.get("seat");
    let seat = Number(asked ?? -1);
    // a seat without a token ("Your games" on another device: /play/ID?seat=N): this browser's
    // token for that seat when it has one, else the seat is asked for by the session alone
    const stored = load<MyGame[]>("carc.mygames", []).find((g) => g.id === id && (token ? g.token === token : asked === null || g.seat === seat));
    if (!token && stored) { token = stored.token; seat = stored.seat; }
    const bySession = !token && asked !== null && Number.isInteger(seat) && seat >= 0;
    const summary = await getJSON<any>(`/api/games/${encodeURIComponent(id)}`);
    if (token) rememberSeat({ id, seat, token, game: summary.game, created: summary.created });
    const page = new GamePage(root, id, summary.game, token);
    page.seats = summary.seats;
    page.accounts = seatAccounts(summary);
    // an invited player opening their seat for the first time in this browser names themselves
    const mySeat = token ? summary.seats?.[seat] : undefined;
    page.askName = settings().ask_name && !stored && summary.status === "active" && !!mySeat && !mySeat.bot && mySeat.name !== localStorage.getItem("carc.name");
    page.me = token || bySession ? seat : -1;
    await page.setup();
    // the WebSocket's handshake carries the session's cookie: a seat opened with its token binds
    // to this player (its "Your games"), and a seat without one is found by it
    await session();
    page.connect();
    return page;
  }

  // An uploaded record (/replay): the replay slider alone.
  // `server`: the server's game the record is of (/replay?game=ID): its chat, both sides, beside it
  static async openRecord(root: HTMLElement, record: any, server?: string): Promise<GamePage> {
    const page = new GamePage(root, null, String(record.game ?? "base"), null);
    page.seats = (record.players ?? []).map((p: any, i: number) => ({ seat: i, name: p.name, bot: p.bot ?? "" }));
    await page.setup();
    page.el.conn.hidden = true;  // a record has no connection to show (it said "connecting…" for ever)
    if (server) {
      page.chat = new ChatPanel(server, () => -1, null, () => page.seats.map((s) => s.name), () => true, true);
      void page.chat.fetch().then(() => page.renderSide());
    }
    await page.startReplay(record, true);
    return page;
  }

  private async setup(): Promise<void> {
    const [catalog, tiles] = await Promise.all([getJSON<Catalog>(withLang("/api/catalog")), getJSON<TileIndex>(withLang(`/api/tiles/${encodeURIComponent(this.kind)}`))]);
    setGameWords(tiles as any);
    this.tiles = tiles;
    this.colours = catalog.seat_colours;
    this.board = new Board(tiles, {
      cell: (x, y) => this.pickCell(x, y),
      option: (o) => this.choose(o),
      rotate: (d) => this.rotate(d),
      select: (key) => this.select(key),
    });
    const conn = h("span", { class: "conn", "data-conn": "connecting", role: "status", "aria-live": "polite", text: t("conn.connecting") });
    // the page's one heading, shown whole: the header's controls go to a second row when a
    // narrow screen (a phone, 200% zoom) cannot hold both
    const title = h("h1", { class: "title", text: tiles.title });
    // the rules over the page (a plain link elsewhere: a new tab opens them on a page of their own)
    const rulesLink = h("a", { href: rulesURL(this.kind), class: "button rules-link", "data-rules-link": this.kind, title: t("game.rules_title"), text: t("game.rules") });
    rulesLink.addEventListener("click", (e) => {
      if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      void this.rules.open();
    });
    const header = h("header", { class: "bar" },
      h("div", { class: "bar-start" }, h("a", { href: "/", class: "home", text: t("game.lobby") }), title, conn),
      h("div", { class: "bar-end" }, turnsBadge(), meLink(), rulesLink, settingsMenu(() => this.render()), langPicker(h),
        this.id ? h("button", { "data-replay": "", type: "button", text: t("game.replay") }) : null,
        this.id ? h("a", { "data-download": "", href: `/api/games/${this.id}/record`, download: `${this.id}.json`, class: "button", text: t("game.record") }) : null,
        h("button", { "data-toggle-panels": "", type: "button", text: t("game.panels") })));
    const zoom = h("div", { class: "zoom" },
      h("button", { "data-zoom-in": "", type: "button", title: t("game.zoom_in"), "aria-label": t("game.zoom_in"), text: "+" }),
      h("button", { "data-zoom-out": "", type: "button", title: t("game.zoom_out"), "aria-label": t("game.zoom_out"), text: "−" }),
      h("button", { "data-fit": "", type: "button", title: t("game.fit"), "aria-label": t("game.fit"), text: "⤢" }));
    // landmarks: the header, the board (main), the panels (complementary, focusable: it scrolls),
    // the turn bar and the replay bar (regions)
    const boardWrap = h("main", { class: "board-wrap" }, this.track.el, this.board.svg, zoom);
    const side = h("aside", { class: "side", "data-side": "", tabindex: 0, "aria-label": t("game.panels") });
    const turn = h("section", { class: "turn", "data-panel": "turn", "aria-label": t("game.turn_region") });
    const replayBar = h("section", { class: "replay-bar", "data-replay-bar": "", "aria-label": t("game.replay"), hidden: true });
    const main = h("div", { class: "main" }, boardWrap, side);
    if (this.id) {
      this.analysis = new Analysis(this.id, {
        colours: () => this.colours,
        names: () => this.view?.players.map((p) => p.name) ?? [],
        changed: () => this.analysisChanged(),
        show: (step) => this.replayAt(step),
        redraw: () => this.render(),
        opened: () => this.el.root.classList.remove("panels-open"),
      });
      boardWrap.append(this.analysis.note);
    }
    // read out by screen readers: each new move, end and score line, and the player's turn
    this.live = h("div", { class: "sr-only", "aria-live": "polite", role: "log", "data-live": "" });
    const page = h("div", { class: "game-page", "data-page": "game" }, header, main, this.analysis?.panel, turn, replayBar, this.live, this.motion.layer);
    this.root.replaceChildren(page);
    this.el = { root: page, side, turn, conn, replayBar, title, boardWrap };
    this.rules = new RulesOverlay(this.kind, () => this.tiles, page);
    header.querySelector("[data-toggle-panels]")!.addEventListener("click", () => page.classList.toggle("panels-open"));
    header.querySelector("[data-replay]")?.addEventListener("click", () => this.replay ? this.stopReplay() : void this.fetchReplay());
    zoom.querySelector("[data-zoom-in]")!.addEventListener("click", () => this.board.zoom(1.25));
    zoom.querySelector("[data-zoom-out]")!.addEventListener("click", () => this.board.zoom(0.8));
    zoom.querySelector("[data-fit]")!.addEventListener("click", () => this.board.fit());
    document.addEventListener("keydown", (e) => this.key(e));
    this.hoverLinks(side);
    setInterval(() => this.tickClocks(), 500);
  }

  private connect(): void {
    this.chat = new ChatPanel(this.id!, () => this.me, (msg) => this.conn?.send(msg) ?? false,
      () => this.view?.players.map((p) => p.name) ?? this.seats.map((s) => s.name), () => !!this.view?.over || !!this.end);
    this.conn = new Conn(this.id!, this.token, this.me, {
      welcome: (m) => { this.me = m.seat; this.seats = m.seats ?? this.seats; this.render(); },
      events: (evs) => this.onEvents(evs),
      state: (m) => this.onState(m),
      presence: (m) => { this.presence = m; this.renderSide(); },
      options: (m) => this.onOptions(m),
      ack: (m) => { if (!this.chat?.answer(m)) this.confirmSeq = m.seq; },
      reject: (m, cmd) => { if (!this.chat?.answer(m)) this.onReject(m, cmd); },
      chat: (m) => { this.chat?.add(m.messages ?? []); this.renderSide(); },
      error: (m) => this.onError(m),
      status: (s, why) => this.onStatus(s, why),
    });
    this.conn.connect();
  }

  // ---- messages ----
  private onStatus(s: ConnStatus, why: string): void {
    this.el.conn.setAttribute("data-conn", s);
    this.el.conn.textContent = s === "online" ? t("conn.online") : s === "connecting" ? (why === "reconnecting" ? t("conn.reconnecting") : t("conn.connecting")) : t("conn.offline");
    this.el.root.classList.toggle("is-offline", s !== "online");
    // `legal` asked on a connection that died is asked again on the new one
    if (s !== "online") this.legalQueue = [];
    else if (this.passed) { this.passed = null; window.carc.sent = (window.carc.sent ?? 0) + 1; return; }  // sent again with the outbox
    else if (this.turn.moves.length && !this.turn.options && !this.turn.complete) this.requestLegal();
  }

  private onEvents(evs: GameEvent[]): void {
    const name = (n: number) => this.seats[n]?.name ?? t("game.seat", { n: n + 1 });
    const said: string[] = [];
    for (const e of evs) {
      const l = logLine(e, name, this.me);
      if (l) { this.log.push(l); said.push(l.text); }
      if (e.type === "turn") this.anyTurn = true;
      if (e.type === "end") this.end = { reason: e.data.reason, scores: e.data.scores, winners: e.data.winners, resigned: e.data.resigned ?? [] };
      if (e.type === "rematch") this.rematch = { game: e.data.game, seat: e.data.seat };
      if (e.type === "name" && this.seats[e.data.seat]) this.seats[e.data.seat] = { ...this.seats[e.data.seat], name: e.data.name };
      if (e.type === "analysis") this.analysis?.stored(e.data);
    }
    window.carc.seq = this.conn?.seq;
    if (this.started && said.length) this.announce(said.slice(-3).join(". "));
    this.started = true;
    if (evs.length) this.renderSide();
  }

  private onState(m: any): void {
    if (m.end) this.end = m.end;
    if (m.rematch && !this.rematch) this.rematch = { game: m.rematch, seat: -1 };
    const v: View = endView(m.view, this.end);
    if (m.clocks) { this.clocks = m.clocks; this.clockBase = Date.now(); }
    const changed = m.seq !== this.viewSeq;
    this.view = v;
    this.viewSeq = m.seq;
    if (changed) {
      // a turn sent before a reload and not yet acknowledged is in the outbox: wait for its answer
      const waiting = (this.conn?.pending() ?? []).find((c) => c.type === "play" && c.at === m.seq);
      this.turn = { moves: [], options: null, complete: false, sending: !!waiting, place: null };
      // its tile where it was put (the placement's notation among the view's options)
      for (const o of waiting?.moves?.length ? v.decision.options : []) {
        const i = o.kind === "place" ? (o.notations ?? []).indexOf(waiting!.moves![0]) : -1;
        if (i >= 0) this.turn.place = { x: o.x!, y: o.y!, rot: o.rots![i] };
      }
      this.passed = null;
      this.legalQueue = [];
      this.confirmOnComplete = false;
      this.goesOnAsked = false;
      this.message = "";
      this.sel = null;
    }
    if (v.over && !this.record && this.id) {
      getJSON<any>(`/api/games/${this.id}/record`).then((r) => { this.record = r; this.renderSide(); }).catch(() => {});
      this.startFinal();
    }
    if (this.replay) return;
    this.render();
    if (this.confirmAt && this.confirmSeq && m.seq >= this.confirmSeq) {
      const t = this.confirmAt;
      this.confirmAt = 0;
      requestAnimationFrame(() => window.carc.confirmToBoardMs.push(performance.now() - t));
    }
    if (window.carc.interactiveMs === undefined) requestAnimationFrame(() => { window.carc.interactiveMs = performance.now() - this.t0; });
  }

  private onOptions(m: any): void {
    const asked = this.legalQueue.shift();
    if (!asked || asked.join("\n") !== this.turn.moves.join("\n") || m.seq !== this.viewSeq) return;
    if (this.passed) {
      this.settlePassed(m.complete);
      if (m.complete) { this.turn.complete = true; this.render(); return; }
    }
    this.turn.moves = m.moves;  // as the engine writes them (a typed shorthand becomes its notation)
    this.turn.words = m.words;  // and in words
    if (this.placing() && m.moves.length) {
      // a typed placement: show it on the board as if clicked
      for (const o of this.view!.decision.options) {
        const i = o.kind === "place" ? (o.notations ?? []).indexOf(m.moves[0]) : -1;
        if (i >= 0) this.turn.place = { x: o.x!, y: o.y!, rot: o.rots![i] };
      }
    }
    this.turn.options = m.options;
    this.turn.complete = m.complete;
    if (this.goesOnAsked) { this.goesOnAsked = false; this.message = this.goesOn(); }
    if (this.confirmOnComplete) {
      this.confirmOnComplete = false;
      if (m.complete && this.mine()) { this.submitTurn(); return; }
      this.message = this.goesOn();
    }
    this.render();
  }

  private onError(m: any): void {
    this.confirmOnComplete = false;
    if (m.code === "not_your_seat") {
      // the page watches instead (conn.ts), and says why
      this.me = -1;
      this.seatRefused = true;
      this.render();
      return;
    }
    if (this.legalQueue.length) {
      // a typed or stale tentative move the engine refused: take it back
      const asked = this.legalQueue.shift()!;
      if (asked.join("\n") === this.turn.moves.join("\n")) {
        this.settlePassed(false);
        this.turn.moves.pop();
        if (!this.turn.moves.length) this.turn.place = null;
        this.message = m.message;
        if (this.turn.moves.length) this.requestLegal(); else this.turn.options = null;
        this.render();
      }
      return;
    }
    this.message = m.message;
    this.renderTurn();
  }

  private onReject(m: any, cmd: Command | undefined): void {
    this.turn.sending = false;
    this.confirmAt = 0;
    // a refusal the client words by its code (the server's own text is English), else as it came
    this.message = hasMessage(`reject.${m.code}`) ? t(`reject.${m.code}`) : t("game.not_played", { code: m.code, message: m.message });
    if (cmd && m.code === "incomplete_turn" && cmd.moves) {
      // a confirm that passed a decision the turn goes on after: that decision is shown
      this.turn.moves = cmd.moves.slice();
      this.message = t("game.goes_on");
      this.goesOnAsked = true;
      this.requestLegal();
    }
    else if (cmd && m.code === "store") {
      // not committed: the same command (same cid, so never applied twice) again in a second
      this.turn.sending = true;
      this.message = t("game.store_retry");
      setTimeout(() => this.conn?.submit(cmd), 1000);
    }
    else this.conn?.send({ type: "view" });
    this.render();
  }

  // ---- the turn ----
  private mine(): boolean {
    const v = this.view;
    return !!v && !this.replay && this.me >= 0 && !v.over && v.decision.player === this.me && ["place", "piece", "choose"].includes(v.decision.phase);
  }
  private current(): OptionView[] {
    if (!this.mine() || this.turn.sending) return [];
    if (!this.turn.moves.length) return this.view!.decision.options;
    return this.turn.options ?? [];
  }
  private placing(): boolean { return this.mine() && this.view!.decision.phase === "place"; }

  private requestLegal(): void {
    this.turn.options = null;
    this.turn.complete = false;
    this.sel = null;
    const moves = this.turn.moves.slice();
    if (this.conn?.send({ type: "legal", moves })) this.legalQueue.push(moves);
  }

  private pickCell(x: number, y: number): void {
    if (!this.placing() || this.turn.sending) return;
    const o = this.view!.decision.options.find((p) => p.kind === "place" && p.x === x && p.y === y);
    if (!o) return;
    const rots = o.rots ?? [];
    const keep = this.turn.place ? this.turn.place.rot : this.prefRot;
    const i = Math.max(0, rots.indexOf(keep));
    this.setPlacement(o, i);
  }

  private setPlacement(o: OptionView, i: number): void {
    this.turn.place = { x: o.x!, y: o.y!, rot: o.rots![i] };
    this.turn.moves = [o.notations![i]];
    this.message = "";
    this.requestLegal();
    this.render();
  }

  private rotate(dir: 1 | -1): void {
    if (!this.placing() || this.turn.sending) return;
    const p = this.turn.place;
    if (!p) { this.prefRot = (this.prefRot + 360 + dir * 90) % 360; this.renderTurn(); return; }
    const o = this.view!.decision.options.find((q) => q.kind === "place" && q.x === p.x && q.y === p.y)!;
    const rots = o.rots!;
    if (rots.length < 2) return;
    const i = (rots.indexOf(p.rot) + dir + rots.length) % rots.length;
    this.prefRot = rots[i];
    this.setPlacement(o, i);
  }

  private rotateTo(deg: number): void {
    const p = this.turn.place;
    if (!p) { this.prefRot = deg; this.renderTurn(); return; }
    const o = this.view!.decision.options.find((q) => q.kind === "place" && q.x === p.x && q.y === p.y)!;
    const i = o.rots!.indexOf(deg);
    if (i >= 0) { this.prefRot = deg; this.setPlacement(o, i); }
  }

  private choose(o: OptionView): void {
    if (!this.mine() || this.turn.sending || !o.notation) return;
    if (!this.current().includes(o)) return;
    this.turn.moves.push(o.notation);
    this.message = "";
    this.requestLegal();
    this.render();
  }

  private takeBack(): void {
    if (!this.mine() || this.turn.sending || !this.turn.moves.length) return;
    this.turn.moves.pop();
    this.confirmOnComplete = false;
    this.goesOnAsked = false;
    this.message = "";
    if (!this.turn.moves.length) { this.turn.place = null; this.turn.options = null; this.turn.complete = false; }
    else this.requestLegal();
    this.render();
  }

  // The turn may be confirmed when it is whole, or when all that is left is a decision with a pass
  // (no piece): confirming then passes, as players expect.
  private canConfirm(): boolean {
    if (!this.mine() || this.turn.sending || !this.conn) return false;
    return this.turn.complete || (this.turn.moves.length > 0 && !!this.turn.options?.some((o) => o.kind === "pass"));
  }

  private confirm(): void {
    if (!this.canConfirm() || !this.conn) {
      const need = this.required();
      if (need && this.message !== need) { this.message = need; this.renderTurn(); }
      return;
    }
    if (!this.turn.complete) {
      // confirming with a decision left passes it; whether the turn is then whole is the engine's
      // to say: it is sent when it is, and the next decision is shown when it is not
      // it goes into the outbox at once (a turn confirmed during a cut network is kept), and
      // the server's incomplete_turn brings the decision back when it is not
      this.turn.moves.push(this.turn.options!.find((o) => o.kind === "pass")!.notation!);
      this.keepPassed();
      return;
    }
    this.submitTurn();
  }

  // "Confirm (no piece)": the turn with its pass is in the outbox at once, and sent when `legal`
  // says it is whole (offline, the outbox sends it on reconnect; the server's incomplete_turn
  // then brings a decision left back). A decision after the pass takes it out again.
  private passed: Command | null = null;
  private keepPassed(): void {
    if (!this.conn) return;
    const cmd: Command = { cid: this.newCid(), type: "play", at: this.viewSeq, moves: this.turn.moves.slice() };
    this.conn.keep(cmd);
    this.passed = cmd;
    this.turn.sending = true;
    this.confirmAt = performance.now();
    this.confirmSeq = 0;
    this.requestLegal();
    this.render();
  }
  private settlePassed(complete: boolean): void {
    const cmd = this.passed;
    if (!cmd || !this.conn) return;
    this.passed = null;
    if (complete) {
      this.conn.release(cmd.cid);
      window.carc.sent = (window.carc.sent ?? 0) + 1;
      return;
    }
    this.conn.drop(cmd.cid);
    this.turn.sending = false;
    this.confirmAt = 0;
    this.message = t("game.goes_on");
    this.goesOnAsked = true;  // said in full once the decision's options are in
  }
  // What the page says when a confirm passed a decision and the turn goes on: the decision after
  // it may be passed too, or not (a piece taken this turn may have to go back on the board).
  private goesOn(): string {
    const o = this.turn.options;
    return !o || o.some((x) => x.kind === "pass") ? t("game.goes_on") : t("game.goes_on_required");
  }
  // What the decision now requires, in words, when it cannot be passed: the options' sentence
  // (their cells left out when that is all that differs), else how many and one of them. Null when
  // it may be passed, is whole, or is the placement (the status says that).
  private required(): string | null {
    const v = this.view;
    if (!v || !this.mine() || this.turn.sending || this.turn.complete) return null;
    if (this.turn.moves.length ? !this.turn.options : v.decision.phase === "place") return null;
    const opts = this.current().filter((o) => o.kind !== "place");
    if (!opts.length || opts.some((o) => o.kind === "pass")) return null;
    const blank = (x: string) => x.replace(/-?\d+\s*,\s*-?\d+/g, "…");
    const texts = opts.map((o) => blank(o.text ?? ""));
    const what = opts.length === 1 ? opts[0].text : texts[0] && texts.every((x) => x === texts[0]) ? texts[0] : t("game.required_one_of", { n: opts.length, text: opts[0].text });
    return t(this.groups(v, opts).loose.length ? "game.required_below" : "game.required", { what });
  }
  private newCid(): string { return `${this.me}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`; }

  private submitTurn(): void {
    if (!this.conn) return;
    this.confirmOnComplete = false;
    this.turn.sending = true;
    this.confirmAt = performance.now();
    this.confirmSeq = 0;
    const cid = `${this.me}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    this.conn.submit({ cid, type: "play", at: this.viewSeq, moves: this.turn.moves.slice() });
    window.carc.sent = (window.carc.sent ?? 0) + 1;
    this.render();
  }

  private typed(text: string): void {
    const typed = text.trim();
    if (!typed) { this.confirm(); return; }
    if (/^(undo|back|take back)$/i.test(typed)) { this.takeBack(); return; }
    if (/^(confirm|ok|done)$/i.test(typed)) { this.confirm(); return; }
    if (!this.mine() || this.turn.sending) { this.message = t("game.not_yours"); this.renderTurn(); return; }
    if (this.turn.complete) { this.message = t("game.complete_hint"); this.renderTurn(); return; }
    this.turn.moves.push(typed);
    this.message = "";
    this.requestLegal();
    this.render();
  }

  // Screen readers read the live region's new text (polite: after what they are reading).
  private announce(text: string): void {
    this.live.textContent = text;
    this.live.dataset.said = String(Number(this.live.dataset.said ?? 0) + 1);
  }

  private resign(): void {
    if (!this.conn || this.me < 0 || !this.view || this.view.over) return;
    if (!confirm(t("game.resign_q"))) return;
    this.conn.submit({ cid: `${this.me}-resign-${Date.now().toString(36)}`, type: "resign", at: this.viewSeq });
  }

  private abort(): void {
    if (!this.conn || this.me < 0 || !this.view || this.view.over || this.anyTurn) return;
    if (!confirm(t("game.abort_q"))) return;
    this.conn.submit({ cid: `${this.me}-abort-${Date.now().toString(36)}`, type: "abort", at: this.viewSeq });
  }

  private async askRematch(): Promise<void> {
    if (!this.id || this.rematchBusy || this.me < 0) return;
    // a seat opened with its token asks with it; a seat opened by the session alone (paired, a
    // table's, "Your games" on another device) asks with its number and the session's cookie
    this.rematchBusy = t("final.rematch_busy");
    this.renderSide();
    try {
      this.openRematch(await askRematch(this.id, this.token ? { token: this.token } : { seat: this.me }));
    } catch (e) {
      this.rematchBusy = "";
      this.message = (e as Error).message;
      this.render();
    }
  }

  // The rematch's seats are the old game's: a seat with a token opens it with that token; a seat
  // without one with its number (the server bound it to the same player); a spectator watches.
  private openRematch(game: string): void {
    const at = `/play/${encodeURIComponent(game)}`;
    if (this.me < 0) { location.href = at; return; }
    if (!this.token) { location.href = `${at}?seat=${this.me}`; return; }
    rememberSeat({ id: game, seat: this.me, token: this.token, game: this.kind, created: Date.now() });  // named already: not asked again
    location.href = `${at}?seat=${this.me}&token=${encodeURIComponent(this.token)}`;
  }

  // A log line or a last-turn line under the pointer (or focus) shows what it names on the board.
  private hoverLinks(side: HTMLElement): void {
    const over = (e: Event) => {
      const li = (e.target as HTMLElement).closest<HTMLElement>("[data-log-cell], [data-summary-feature], [data-panel-cell]");
      const cell = li?.dataset.logCell ?? li?.dataset.panelCell ?? null;
      if (cell !== this.hoverCell) { this.hoverCell = cell; if (this.shown()) drawSeen(this.board.svg, this.shown()!, { me: this.replay ? -1 : this.me, colours: this.colours, coords: settings().coords, hover: cell }); }
      const type = li?.dataset.summaryFeature ?? null;
      this.board.svg.querySelectorAll<SVGElement>("[data-scored]").forEach((g) => g.classList.toggle("hot", !!type && g.dataset.featureType === type));
    };
    side.addEventListener("mouseover", over);
    side.addEventListener("focusin", over);
    side.addEventListener("mouseleave", () => over({ target: side } as any));
  }

  // Keys (docs/web.md): Enter and Space act on the focused control only (buttons natively, board
  // targets by the board); arrows move the cursor over the board's cells and targets (Shift:
  // pan); r / R rotate; c confirms; Escape closes a menu or takes back; ? lists the keys.
  private key(e: KeyboardEvent): void {
    const tgt = e.target as HTMLElement;
    if (tgt && (tgt.tagName === "INPUT" || tgt.tagName === "TEXTAREA" || tgt.tagName === "SELECT")) return;
    if (this.rules.isOpen() || this.intro?.isOpen()) return;  // a dialog over the page has the keys
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    const inMenu = !!tgt?.closest?.("[data-menu]");
    if (k === "?") { this.toggleKeys(); e.preventDefault(); return; }
    if (k === "Escape" && this.keysHelp) { this.toggleKeys(false); e.preventDefault(); return; }
    if (k === "r" || k === "R") { this.rotate(k === "r" ? 1 : -1); e.preventDefault(); }
    else if (k === "c" || k === "C") { this.confirm(); e.preventDefault(); }
    else if (k === "Escape") {
      e.preventDefault();
      if (this.sel) { const back = this.sel; this.select(this.parentOf(back)); this.board.refocus(this.focusKeyOf(back)); }
      else this.takeBack();
    }
    else if (k === "Backspace") { this.takeBack(); e.preventDefault(); }
    else if (k.startsWith("Arrow") && !inMenu) {
      const dx = k === "ArrowLeft" ? -1 : k === "ArrowRight" ? 1 : 0, dy = k === "ArrowUp" ? -1 : k === "ArrowDown" ? 1 : 0;
      e.preventDefault();
      if (e.shiftKey || !this.board.targets().length) this.board.panKey(dx, dy);
      else this.board.moveCursor(dx, dy);
    }
    else if (k === "+" || k === "=") this.board.zoom(1.25);
    else if (k === "-") this.board.zoom(0.8);
    else if (k === "0") this.board.fit();
    else return;
  }

  private toggleKeys(show = !this.keysHelp): void {
    this.keysHelp?.remove();
    this.keysHelp = null;
    if (!show) return;
    // the keys as their caps print them (Shift, Enter, Tab, Esc, Backspace), the space bar in words
    const rows: [string, string][] = [["←↑→↓", t("keys.arrows")], ["Shift + ←↑→↓", t("keys.pan")], [`Enter, ${t("keys.space")}`, t("keys.enter")], ["Tab", t("keys.tab")],
      ["r / R", t("keys.rotate")], ["c", t("keys.confirm")], ["Esc", t("keys.escape")], ["Backspace", t("keys.back")], ["+ − 0", t("keys.zoom")], ["?", t("keys.help")]];
    const close = h("button", { type: "button", "data-keys-close": "", text: t("keys.close") });
    const box = h("div", { class: "keys-help", "data-keys-help": "", role: "dialog", "aria-label": t("keys.title") },
      h("h2", { text: t("keys.title") }),
      h("table", {}, ...rows.map(([key, what]) => h("tr", { "data-key-row": key }, h("th", {}, h("kbd", { text: key })), h("td", { text: what })))), close);
    close.addEventListener("click", () => this.toggleKeys(false));
    this.el.root.append(box);
    this.keysHelp = box;
    close.focus();
  }

  // ---- drawing ----
  // a held item's picture for the panels: the look's `hand` glyph of it, in a small SVG of its own
  private pic = (item: string): SVGSVGElement | null => {
    const L = this.tiles?.look;
    const name = L?.hand ? L.hand.replace("{}", item) : "";
    const gl = name ? L.glyphs[name] : undefined;
    const g = gl ? this.board.glyph(name, -1, this.colours, 1) : null;
    if (!gl || !g) return null;
    const r = Math.max(8, gl.size) / 2 + 1;
    return svgEl("svg", { class: "pic", viewBox: `${-r} ${-r} ${2 * r} ${2 * r}`, width: 18, height: 18, "aria-hidden": "true", focusable: "false" }, g);
  };

  private shown(): View | null { return this.replay ? (this.analysis?.boardView() ?? this.replay.view) : this.view; }

  // ---- targets on the board ----
  private select(key: string | null): void {
    if (!this.mine() || this.turn.sending) return;
    const viaKeys = document.activeElement !== document.body && !!document.activeElement?.closest?.("[data-board], [data-menu]");
    this.sel = key;
    this.render();
    // the keyboard goes on into what the selection shows: the menu's first item
    if (viaKeys) this.board.menuOpen()?.querySelector<HTMLButtonElement>("button")?.focus();
  }
  private parentOf(key: string): string | null {
    if (key.startsWith("q:")) { const [px, py] = key.slice(2).split(","); return `pt:${px},${py}`; }
    return null;
  }
  private focusKeyOf(key: string): string { return key.startsWith("cell:") ? `t${key}` : key; }

  // The decision's options by where they act on the board (docs/web.md): piece spots, pieces,
  // cells, overlays to select first (their cells then), grid points (then their quarters and a
  // menu), cells where a menu of tiles or tokens acts; what has no place on the board is `loose`.
  private groups(v: View, opts: OptionView[]) {
    const spots = opts.filter((o) => o.kind === "piece");
    const pieceTargets = opts.filter((o) => o.target === "piece");
    const add = (m: Map<string, Group>, key: string, x: number, y: number, o: OptionView) => {
      const g = m.get(key) ?? { key, x, y, options: [] };
      g.options.push(o);
      m.set(key, g);
    };
    const cellOverlays = new Map(v.board.overlays.filter((ov) => ov.at === "cell").map((ov) => [ov.id, ov]));
    const overlays = new Map<string, Group>(), cells = new Map<string, Group>(), points = new Map<string, Group>(), located = new Map<string, Group>();
    const loose: OptionView[] = [];
    for (const o of opts) {
      if (o.kind === "place" || o.kind === "piece" || o.kind === "pass" || o.target === "piece") continue;
      const ov = o.overlay ? cellOverlays.get(o.overlay) : undefined;
      if (o.target === "cell" && ov && !(ov.x === o.x && ov.y === o.y)) add(overlays, `ov:${ov.id}`, ov.x, ov.y, o);
      else if (o.target === "cell") add(cells, `cell:${o.x},${o.y}`, o.x!, o.y!, o);
      else if (o.target === "point") add(points, `pt:${o.x},${o.y}`, o.x!, o.y!, o);
      else if (o.x !== undefined && o.y !== undefined) add(located, `loc:${o.x},${o.y}`, o.x, o.y, o);
      else loose.push(o);
    }
    return { spots, pieceTargets, overlays, cells, points, located, loose };
  }

  private render(): void {
    const v = this.shown();
    if (!v) return;
    const opts = this.current();
    const placing = this.placing() && !this.turn.sending;
    const tileInHand = v.decision.tile;
    const G = this.groups(v, opts);
    // a selection that no longer names anything is dropped; a decision that is one menu opens it
    const all = [...G.overlays.keys(), ...G.cells.keys(), ...G.points.keys(), ...G.located.keys()];
    if (this.sel && !all.includes(this.sel) && !(this.sel.startsWith("q:") && G.points.has(this.parentOf(this.sel)!))) this.sel = null;
    const only = G.spots.length + G.pieceTargets.length + G.loose.length === 0 && all.length === 1 && G.located.size === 1 ? all[0] : null;
    const sel = this.sel ?? only;
    const cells = [...G.cells.values()];
    if (sel?.startsWith("ov:")) {
      const m = new Map<string, Group>();
      for (const o of G.overlays.get(sel)?.options ?? []) {
        const key = `cell:${o.x},${o.y}`;
        const g = m.get(key) ?? { key, x: o.x!, y: o.y!, options: [] };
        g.options.push(o);
        m.set(key, g);
      }
      cells.push(...m.values());
    }
    let quarters: Group[] = [];
    let menu: Overlay["menu"] = null;
    const S = 100;
    const label = (o: OptionView): Node[] => {
      const kids: Node[] = [];
      if (o.target === "tile" && o.tile) kids.push(h("img", { src: this.board.tileURL(o.tile), alt: "", width: 36, height: 36, style: `transform: rotate(${o.rot ?? 0}deg)` }));
      if (o.target === "token" && o.token) kids.push(h("b", { text: v.players[this.me]?.hand.find((x) => x.name === o.token)?.word ?? o.token }));
      kids.push(document.createTextNode(o.text));
      return kids;
    };
    if (sel?.startsWith("pt:") || sel?.startsWith("q:")) {
      const ptKey = sel.startsWith("pt:") ? sel : this.parentOf(sel)!;
      const pt = G.points.get(ptKey)!;
      const m = new Map<string, Group>();
      for (const o of pt.options) {
        const [cx, cy] = o.cell ?? [pt.x, pt.y];
        const key = `q:${pt.x},${pt.y},${cx},${cy}`;
        const g = m.get(key) ?? { key, x: cx, y: cy, options: [] };
        g.options.push(o);
        m.set(key, g);
      }
      if (m.size === 1) menu = { key: ptKey, x: pt.x * S + 14, y: pt.y * S, items: pt.options, label };
      else {
        quarters = [...m.values()];
        const q = sel.startsWith("q:") ? m.get(sel) : undefined;
        if (q) menu = { key: q.key, x: (pt.x + (q.x + 0.5 - pt.x) * 0.42) * S + 12, y: (pt.y + (q.y + 0.5 - pt.y) * 0.42) * S, items: q.options, label };
      }
    }
    else if (sel?.startsWith("cell:") && G.cells.get(sel) && G.cells.get(sel)!.options.length > 1) { const g = G.cells.get(sel)!; menu = { key: sel, x: (g.x + 1) * S, y: (g.y + 0.5) * S, items: g.options, label }; }
    else if (sel?.startsWith("cell:")) { const g = cells.find((c) => c.key === sel); if (g && g.options.length > 1) menu = { key: sel, x: (g.x + 1) * S, y: (g.y + 0.5) * S, items: g.options, label }; }
    else if (sel?.startsWith("loc:")) {
      const g = G.located.get(sel)!;
      const wide = g.options.some((o) => o.target === "tile");
      menu = { key: sel, x: (g.x + (wide ? 2 : 1)) * S, y: (g.y + 0.5) * S, items: g.options, label };
    }
    const overlay: Overlay = {
      fits: placing ? v.decision.options.filter((o) => o.kind === "place") : [],
      // the tile stays where it was put while its turn is sent (or waits in the outbox, offline)
      tentative: this.placing() && this.turn.place && tileInHand ? { tile: tileInHand, ...this.turn.place } : null,
      spots: G.spots,
      cells,
      pieceTargets: G.pieceTargets,
      overlayTargets: [...G.overlays.values()],
      points: [...G.points.values()],
      quarters,
      located: [...G.located.values()],
      selected: sel,
      menu,
      colours: this.colours,
    };
    const focus = this.board.focusedKey();
    const menuFocus = (document.activeElement as HTMLElement | null)?.closest?.("[data-menu]") ? (document.activeElement as HTMLElement).getAttribute("data-notation") : null;
    this.board.render(v, overlay);
    const mine = this.mine();
    if (mine && !this.wasMine) this.announce(t("notify.body"));
    this.wasMine = mine;
    drawSeen(this.board.svg, v, { me: this.replay ? -1 : this.me, colours: this.colours, coords: settings().coords, hover: this.hoverCell });
    if (this.replay) {
      this.analysis?.decorate(this.board.svg, v);
      const f = this.analysis?.takeFocus();
      if (f === "fit") this.board.fit(); else if (f) this.board.frame(f);
    }
    // what is new moves in (decorative, after the position is drawn whole); not the analysis' boards
    this.motion.update(v, this.board.svg, this.colours, !this.replay, !!this.analysis?.boardView());
    if (!this.replay) this.notice.update(v.title, this.colours[this.me] ?? null, this.mine(), v.over);
    this.board.refocus(focus);
    if (menuFocus !== null) {
      // the menu's item keeps the focus while the menu stays; else the board takes it
      const again = this.board.menuOpen()?.querySelector<HTMLButtonElement>(`button[data-notation="${CSS.escape(menuFocus)}"]`);
      if (again) again.focus(); else this.board.refocus("");
    }
    const b = document.body;
    b.dataset.myTurn = String(this.mine());
    b.dataset.phase = v.decision.phase;
    b.dataset.seq = String(this.viewSeq);
    b.dataset.over = String(v.over);
    b.dataset.seat = String(this.me);
    b.dataset.sending = String(this.turn.sending);
    b.dataset.complete = String(this.turn.complete);
    // ready: the page waits for the player's input (tests wait for it)
    b.dataset.ready = String(this.mine() && !this.turn.sending && (!this.turn.moves.length || this.turn.options !== null || this.turn.complete));
    this.el.title.textContent = t("game.title_turn", { title: v.title, turn: v.turn });
    this.renderTurn();
    this.renderSide();
    this.maybeIntro();
  }

  // The first game in this browser: once, when this seat is first to place a tile (intro.ts),
  // after the board has fitted itself to its box.
  private introPending = false;
  private maybeIntro(): void {
    // the name asked first: the dialog would cover the question (not where the panels are folded away)
    if (this.intro || this.introPending || !this.placing() || this.turn.sending || this.rules.isOpen() || introSeen() || this.nameOnScreen()) return;
    const targets = () => {
      const tile = this.el.turn.querySelector("[data-hand-tile]"), confirm = this.el.turn.querySelector("[data-confirm]");
      return tile && confirm ? { tile, confirm, board: this.el.boardWrap, placed: [...this.board.svg.querySelectorAll("[data-tile]")], cells: [...this.board.svg.querySelectorAll("[data-cell]")] } : null;
    };
    if (!targets()) return;
    this.introPending = true;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      this.introPending = false;
      if (this.intro || !this.placing() || this.rules.isOpen() || introSeen() || !targets()) return;
      this.intro = new Intro(this.el.root, targets, () => void this.rules.open(), () => {});
    }));
  }

  private renderTurn(): void {
    const v = this.shown();
    const el = this.el.turn;
    if (!v || this.replay) { el.replaceChildren(); el.hidden = true; return; }
    el.hidden = false;
    const kids: (Node | null)[] = [];
    const who = v.decision.player;
    const whoName = who === null || who === undefined ? "" : v.players[who]?.name ?? "";
    let status: string;
    if (v.over) status = `${t("status.over")}: ${endLine(v, this.end)}`;
    else if (this.turn.sending) status = this.conn?.status === "online" ? t("status.sending") : t("status.queued");
    else if (this.mine()) status = v.decision.phase === "place" ? (this.turn.place ? t("status.follows") : t("status.place")) : t("status.decision");
    else if (this.me < 0) status = t("status.watching", { name: whoName });
    else status = t("status.waiting", { name: whoName });
    kids.push(h("div", { class: "status", "data-status": "", text: status }));
    if (v.decision.tile && v.decision.phase === "place" && !v.over) {
      const rot = this.turn.place ? this.turn.place.rot : this.prefRot;
      const img = h("img", { class: "hand", "data-hand-tile": v.decision.tile, src: this.board.tileURL(v.decision.tile), alt: t("game.tile_alt", { id: v.decision.tile }), style: `transform: rotate(${rot}deg)`, width: 64, height: 64 });
      const box = h("div", { class: "hand-box" }, img);
      if (this.placing()) {
        const rotsHere = this.turn.place ? this.view!.decision.options.find((q) => q.kind === "place" && q.x === this.turn.place!.x && q.y === this.turn.place!.y)?.rots ?? [] : [0, 90, 180, 270];
        box.append(h("div", { class: "rots" },
          h("button", { type: "button", "data-rotate": "ccw", title: t("game.rot_ccw"), "aria-label": t("game.rot_ccw"), text: "⟲" }),
          h("button", { type: "button", "data-rotate": "cw", title: t("game.rot_cw"), "aria-label": t("game.rot_cw"), text: "⟳" }),
          ...rotsHere.map((r) => h("button", { type: "button", "data-rotate-to": r, class: r === rot ? "on" : "", text: `${r}°` }))));
      }
      kids.push(box);
    }
    const opts = this.current();
    const listed = opts.filter((o) => o.kind !== "place");
    if (this.mine() && !this.turn.sending) {
      // the decisions in words (the notation as a tooltip; a move the server has not worded yet as notation)
      const said = this.turn.moves.map((mv, i) => (this.turn.words?.length === this.turn.moves.length ? this.turn.words[i] : "") || mv);
      if (this.turn.moves.length) kids.push(h("div", { class: "moves", "data-moves": this.turn.moves.join(" | ") }, t("game.this_turn"), h("b", { text: said.join("; "), title: this.turn.moves.join(" · ") })));
      if (this.turn.moves.length && !this.turn.options && !this.turn.complete) kids.push(h("div", { class: "sub", text: "…" }));
      const G = this.groups(v, opts);
      const onBoard = listed.length - G.loose.length - listed.filter((o) => o.kind === "pass").length;
      if (onBoard > 0) kids.push(h("div", { class: "sub hint", "data-hint": "", text: t("game.on_board", { n: onBoard }) }));
      const need = this.required();
      if (need && this.message !== need) kids.push(h("div", { class: "required", "data-required": "", text: need }));
      const button = (o: OptionView, i: number) => {
        const b = h("button", { type: "button", "data-option": i, "data-kind": o.kind, "data-notation": o.notation, class: `opt ${o.kind}`, title: o.text });
        if (o.target === "tile" && o.tile) b.append(h("img", { src: this.board.tileURL(o.tile), alt: o.tile, width: 40, height: 40, style: `transform: rotate(${o.rot ?? 0}deg)` }));
        if (o.target === "token" && o.token) b.append(h("b", { text: (v.players[this.me]?.hand.find((x) => x.name === o.token)?.word ?? o.token) + " " }));
        b.append(o.text);
        b.addEventListener("click", () => this.choose(o));
        return b;
      };
      // what has no place on the board (a "keep" choice): buttons, a few at most
      if (G.loose.length) {
        const box = h("div", { class: "options", "data-options": "" });
        for (const o of G.loose) box.append(button(o, listed.indexOf(o)));
        kids.push(box);
      }
      // every option, grouped and folded away: "all options"
      if (listed.length) {
        const groupOf = (o: OptionView): string => {
          const ov = o.overlay ? v.board.overlays.find((q) => q.id === o.overlay) : undefined;
          if (ov && o.target !== "point") return names(ov.label, v.players);
          if (o.kind === "piece") return t("opts.piece");
          if (o.kind === "pass") return t("opts.pass");
          if (o.target === "point") return t("opts.point", { x: o.x!, y: o.y! });
          if (o.target === "cell") return t("opts.cell");
          if (o.target === "piece") return t("opts.pieces_on_board");
          if (o.target === "tile") return t("opts.tile");
          if (o.target === "token") return t("opts.token");
          return t("opts.other");
        };
        const groups = new Map<string, HTMLElement[]>();
        listed.forEach((o, i) => { const g = groupOf(o); groups.set(g, [...(groups.get(g) ?? []), button(o, i)]); });
        const det = h("details", { class: "all-options", "data-all-options": listed.length },
          h("summary", { text: t("game.all_options", { n: listed.length }) }),
          ...[...groups].map(([name, bs]) => h("div", { class: "opt-group", "data-option-group": name }, h("div", { class: "opt-group-title", text: name }), h("div", { class: "options" }, ...bs))));
        if (this.allOpen) det.setAttribute("open", "");
        det.addEventListener("toggle", () => { this.allOpen = det.open; });
        kids.push(det);
      }
      if (!this.turn.moves.length) for (const p of v.decision.panels) kids.push(gamePanel(p, v, this.colours, this.pic));
    }
    if (this.message) kids.push(h("div", { class: "message", "data-message": "", role: "alert", text: this.message }));
    if (this.seatRefused) kids.push(h("div", { class: "message", "data-message": "", "data-refused": "not_your_seat", role: "alert", text: t("error.code.not_your_seat") }));
    const actions = h("div", { class: "actions" });
    if (this.me >= 0 && !v.over) {
      const back = h("button", { type: "button", "data-takeback": "", disabled: !this.mine() || this.turn.sending || !this.turn.moves.length, text: t("game.take_back") });
      // "Confirm (no piece)" only where confirming passes: a decision that cannot be passed says so
      const passes = !this.turn.complete && !this.turn.sending && this.turn.moves.length > 0 && !this.required();
      const ok = h("button", { type: "button", class: "primary", "data-confirm": "", disabled: !this.canConfirm(), text: passes ? t("game.confirm_none") : t("game.confirm") });
      back.addEventListener("click", () => this.takeBack());
      ok.addEventListener("click", () => this.confirm());
      const form = h("form", { class: "notation", "data-notation-form": "" },
        h("input", { "data-notation-input": "", "aria-label": t("game.notation_label"), placeholder: t("game.notation_hint", { example: "D 0,-1 r90" }), autocomplete: "off" }));
      form.addEventListener("submit", (e) => { e.preventDefault(); const inp = form.querySelector("input")!; const t = inp.value; inp.value = ""; this.typed(t); });
      const resign = h("button", { type: "button", class: "quiet", "data-resign": "", text: t("game.resign") });
      resign.addEventListener("click", () => this.resign());
      const keys = h("button", { type: "button", class: "quiet", "data-keys": "", title: t("keys.title"), "aria-label": t("keys.title"), text: "?" });
      keys.addEventListener("click", () => this.toggleKeys());
      actions.append(back, ok, form, resign, keys);
      if (!this.anyTurn) {
        const abort = h("button", { type: "button", class: "quiet", "data-abort": "", text: t("game.abort") });
        abort.addEventListener("click", () => this.abort());
        actions.append(abort);
      }
    }
    kids.push(actions);
    // keep the typed text and focus across redraws
    const old = el.querySelector<HTMLInputElement>("[data-notation-input]");
    const focused = old && document.activeElement === old;
    const value = old?.value ?? "";
    el.replaceChildren(...kids.filter((k): k is Node => !!k));
    const inp = el.querySelector<HTMLInputElement>("[data-notation-input]");
    if (inp) { inp.value = value; if (focused) inp.focus(); }
    el.querySelectorAll<HTMLButtonElement>("[data-rotate]").forEach((b) => b.addEventListener("click", () => this.rotate(b.dataset.rotate === "cw" ? 1 : -1)));
    el.querySelectorAll<HTMLButtonElement>("[data-rotate-to]").forEach((b) => b.addEventListener("click", () => this.rotateTo(Number(b.dataset.rotateTo))));
  }

  private renderSide(): void {
    const v = this.shown();
    if (!v) return;
    const toMove = v.over ? -1 : (v.decision.player ?? -1);
    const kids: HTMLElement[] = [];
    if (this.askingName()) kids.push(this.namePanel());
    if (v.over && this.replay) kids.push(finalPanel(v, this.colours, this.replay.record, 1e9));
    else if (v.over) {
      if (!this.accountsAtEnd && this.id) {
        this.accountsAtEnd = true;
        getJSON<any>(`/api/games/${encodeURIComponent(this.id)}`).then((g) => { this.accounts = seatAccounts(g); this.renderSide(); }, () => {});
      }
      const panel = endPanel(v, this.end, this.colours, this.record, this.finalShown, this.me, this.rematch, this.rematchDeclined, this.rematchBusy, {
        replay: () => void this.fetchReplay(),
        rematch: () => void this.askRematch(),
        accept: (r) => this.openRematch(r.game),
        decline: () => { this.rematchDeclined = true; this.renderSide(); },
      }, this.accounts);
      kids.push(panel);
    }
    kids.push(seatsPanel(v, this.colours, this.me, toMove, this.replay ? [] : this.clocks, this.replay ? null : this.presence, this.clockBase, this.replay ? [] : this.accounts, this.pic));
    if (this.chat) {
      // over: both chats are public (the other side's asked for once)
      if (v.over && !this.chatOver && this.id) { this.chatOver = true; this.chat.draw(); void this.chat.fetch().then(() => this.chat?.draw()); }
      kids.push(this.chat.el);
    }
    if (!v.over || v.last_turn.length === 0) kids.push(lastTurnPanel(v, this.colours));
    for (const p of v.panels) kids.push(gamePanel(p, v, this.colours, this.pic));
    kids.push(pilePanel(v, (id) => this.board.tileURL(id)));
    if (!this.replay) kids.push(logPanel(this.log));
    const scroll = this.el.side.scrollTop;
    // the Analyse button keeps the focus across redraws (its progress redraws it every second)
    const refocus = this.el.side.contains(document.activeElement) && document.activeElement!.matches("[data-analyse]");
    // so does a seat's link to its player's page (the clocks redraw the seats every second)
    const link = this.el.side.contains(document.activeElement) && document.activeElement!.matches("[data-player-link]") ? document.activeElement as HTMLElement : null;
    const linkAt = link ? `[data-panel="${link.closest<HTMLElement>("[data-panel]")?.dataset.panel}"] [data-player-link="${CSS.escape(link.dataset.playerLink ?? "")}"]` : "";
    this.el.side.replaceChildren(...reuse(this.el.side, kids, ".analyse"));
    // the Analyse button: one element, moved into the final panel only if it is not there already
    const actions = this.analysable() ? this.el.side.querySelector("[data-panel='final'] .final-actions") : null;
    if (actions) {
      const control = this.analysis!.control();
      if (control.parentElement !== actions) actions.append(control);
    }
    fitTables(this.el.side);
    this.el.side.scrollTop = scroll;
    if (refocus) this.el.side.querySelector<HTMLElement>("[data-analyse]")?.focus({ preventScroll: true });
    if (link && !link.isConnected) this.el.side.querySelector<HTMLElement>(linkAt)?.focus({ preventScroll: true });
  }

  private askingName(): boolean { return this.askName && this.me >= 0 && !this.replay && !!this.view && !this.view.over; }
  private nameOnScreen(): boolean {
    const f = this.el.side.querySelector<HTMLElement>("[data-name-form]");
    return !!f && f.getClientRects().length > 0 && getComputedStyle(f).visibility !== "hidden";
  }
  // The name answered (saved or kept): the first game's dialog, which waited, may come.
  private nameAnswered(): void {
    this.askName = false;
    this.renderSide();
    this.maybeIntro();
  }

  // "Your name in this game": an invited seat's first visit (docs/web.md); sent as a `name` command
  // through the outbox, so a reload or a cut network does not lose it.
  private namePanel(): HTMLElement {
    const current = this.seats[this.me]?.name ?? "";
    const input = h("input", { "data-name-input": "", maxlength: 40, value: localStorage.getItem("carc.name") || current, "aria-label": t("name.label"), autocomplete: "nickname" }) as HTMLInputElement;
    const form = h("form", { class: "name-form", "data-name-form": "" }, h("label", {}, t("name.label"), input),
      h("div", { class: "row" }, h("button", { type: "submit", class: "primary", "data-name-save": "", text: t("name.save") }),
        h("button", { type: "button", "data-name-keep": "", text: t("name.keep", { name: current }) })));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) { input.focus(); return; }
      localStorage.setItem("carc.name", name);
      if (name !== current && this.conn) this.conn.submit({ cid: `${this.me}-name-${Date.now().toString(36)}`, type: "name", at: this.viewSeq, name });
      this.nameAnswered();
    });
    form.querySelector("[data-name-keep]")!.addEventListener("click", () => this.nameAnswered());
    return section("name", t("name.title"), form);
  }

  private tickClocks(): void {
    if (!this.view || this.view.over || this.replay || !this.clocks.some((c) => c >= 0)) return;
    this.renderSide();
  }

  private startFinal(): void {
    if (this.finalTimer !== undefined) return;
    // on a phone the panels are folded away: the final scoring unfolds them once
    this.el.root.classList.add("panels-open");
    this.finalShown = 1;
    this.finalTimer = window.setInterval(() => {
      const n = this.view?.last_turn.length ?? 0;
      if (this.finalShown >= n) { clearInterval(this.finalTimer); return; }
      this.finalShown++;
      this.renderSide();
    }, 350);
  }

  // ---- replay ----
  private async fetchReplay(): Promise<void> {
    const record = await getJSON<any>(`/api/games/${this.id}/record`);
    await this.startReplay(record, false);
  }

  // ---- the analysis (analysis.ts) ----
  // A finished game's (not an aborted one's: no turn was played) analysis may be asked for.
  private analysable(): boolean { return !!this.analysis && !!this.view?.over && this.end?.reason !== "aborted"; }

  // The Analyse button (in the final panel; in the replay bar while replaying) drawn again.
  private analysisChanged(): void {
    this.renderSide();
    this.el.root.classList.toggle("analysis-open", !!this.analysis && !this.analysis.panel.hidden);
    const slot = this.analyseSlot;
    if (!slot) return;
    const refocus = slot.contains(document.activeElement);
    if (this.replay && this.analysable()) {
      const control = this.analysis!.control();
      if (control.parentElement !== slot) slot.replaceChildren(control);
    } else slot.replaceChildren();
    if (refocus) slot.querySelector<HTMLElement>("[data-analyse]")?.focus({ preventScroll: true });
  }

  // The replay at `step` (started if need be), keeping the analysis' chosen decision.
  private async replayAt(step: number): Promise<void> {
    if (this.replay && this.replayGo) { await this.replayGo(step, true); return; }
    this.record = this.record ?? await getJSON<any>(`/api/games/${this.id}/record`);
    await this.startReplay(this.record, false, step);
  }

  private async startReplay(record: any, own: boolean, start?: number): Promise<void> {
    const steps = Array.isArray(record.moves) ? record.moves.length : 0;
    this.replay = { record, step: steps, steps, view: null, own };
    this.el.root.classList.add("replaying");
    const slider = h("input", { type: "range", min: 0, max: steps, value: steps, step: 1, "data-replay-slider": "", "aria-label": t("replay.turn") });
    const label = h("span", { class: "replay-label", "data-replay-step": steps, text: t("replay.step", { step: steps, steps }) });
    const prev = h("button", { type: "button", "data-replay-prev": "", title: t("replay.prev"), "aria-label": t("replay.prev"), text: "◀" });
    const next = h("button", { type: "button", "data-replay-next": "", title: t("replay.next"), "aria-label": t("replay.next"), text: "▶" });
    // autoplay: one turn every 1/speed seconds (the speed remembered), from the start if at the end
    const play = h("button", { type: "button", "data-replay-play": "", "data-playing": "false", title: t("replay.play"), "aria-label": t("replay.play") }, playIcon(false));
    const speed = h("select", { "data-replay-speed": "", "aria-label": t("replay.speed") },
      ...[0.5, 1, 2, 4, 8].map((v) => h("option", { value: v, text: `${v}×` })));
    speed.value = String(load<number>("carc.replay_speed", 1));
    const exit = own ? null : h("button", { type: "button", "data-replay-exit": "", text: t("replay.back") });
    this.analyseSlot = own || !this.analysis ? null : h("span", { class: "analyse-slot" });
    const dl = own ? h("a", { class: "button", "data-download": "", download: "record.json", href: URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" })), text: t("game.record") }) : null;
    this.el.replayBar.replaceChildren(prev, play, next, slider, label, speed, ...(dl ? [dl] : []), ...(this.analyseSlot ? [this.analyseSlot] : []), ...(exit ? [exit] : []));
    this.el.replayBar.hidden = false;
    let pending = 0;
    // a step the analysis did not choose (the slider, the arrows, autoplay) shows the replay alone;
    // "shown" once that step is on the board, "later" when a later ask came first, "failed"
    const go = async (step: number, keep = false): Promise<"shown" | "later" | "failed"> => {
      if (!keep) this.analysis?.clear();
      step = Math.max(0, Math.min(steps, step));
      slider.value = String(step);
      label.textContent = t("replay.step", { step, steps });
      label.dataset.replayStep = String(step);
      const ticket = ++pending;
      try {
        const r = await getJSON<any>(withLang("/api/replay"), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ record, step }) });
        if (ticket !== pending || !this.replay) return "later";
        this.replay.step = step;
        this.replay.view = r.view;
        this.el.replayBar.dataset.loaded = String(step);
        this.render();
        return "shown";
      } catch (e) {
        if (ticket !== pending) return "later";
        label.textContent = t("replay.error", { message: (e as Error).message });
        this.el.replayBar.dataset.error = (e as Error).message;
        return "failed";
      }
    };
    // Autoplay: the next step is asked once the last one is on the board, 1/speed seconds after
    // the last was asked. (A fixed interval asked the next step while the last was still on its
    // way: when the server took longer than the interval, as on a busy machine, every answer was
    // superseded by the next step's and the board stood still until the end.)
    let timer: number | undefined;
    let run = 0;  // the autoplay now (0: paused); a step of an older one is not followed
    const stopPlay = () => {
      run = 0;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      play.replaceChildren(playIcon(false));
      play.title = t("replay.play");
      play.setAttribute("aria-label", t("replay.play"));
      play.dataset.playing = "false";
    };
    let runs = 0;
    const startPlay = () => {
      const mine = run = ++runs;
      const after = (asked: number) => {
        if (run !== mine) return;
        timer = window.setTimeout(() => void stepOn(), Math.max(0, asked + 1000 / Number(speed.value) - performance.now()));
      };
      const stepOn = async () => {
        timer = undefined;
        const at = Number(slider.value);
        if (run !== mine) return;
        if (!this.replay || at >= steps) { stopPlay(); return; }
        const asked = performance.now();
        if ((await go(at + 1)) === "failed" && run === mine) { stopPlay(); return; }
        after(asked);
      };
      play.replaceChildren(playIcon(true));
      play.title = t("replay.pause");
      play.setAttribute("aria-label", t("replay.pause"));
      play.dataset.playing = "true";
      if (Number(slider.value) >= steps) {
        const asked = performance.now();
        void go(0).then((r) => { if (r === "failed" && run === mine) stopPlay(); else after(asked); });
      } else after(performance.now());
    };
    this.stopAutoplay = stopPlay;
    play.addEventListener("click", () => (run === 0 ? startPlay() : stopPlay()));
    speed.addEventListener("change", () => {
      save("carc.replay_speed", Number(speed.value));
      if (run !== 0) { stopPlay(); startPlay(); }
    });
    slider.addEventListener("input", () => { stopPlay(); void go(Number(slider.value)); });
    prev.addEventListener("click", () => void go(Number(slider.value) - 1));
    next.addEventListener("click", () => void go(Number(slider.value) + 1));
    exit?.addEventListener("click", () => this.stopReplay());
    this.replayGo = go;
    this.analysisChanged();
    await go(start ?? steps, start !== undefined);
  }

  private stopReplay(): void {
    this.stopAutoplay();
    this.analysis?.clear();
    this.replay = null;
    this.replayGo = null;
    this.el.replayBar.hidden = true;
    this.el.root.classList.remove("replaying");
    this.render();
  }
}

export { section };

// The replay's play and pause signs, drawn (the fonts Chromium finds on a bare Debian have no
// ⏵ or ⏸: they showed as empty boxes)
function playIcon(playing: boolean): SVGSVGElement {
  return svgEl("svg", { class: "icon", viewBox: "0 0 12 12", width: 12, height: 12, "aria-hidden": "true", fill: "currentColor" },
    ...(playing ? [svgEl("rect", { x: 2, y: 1.5, width: 3, height: 9 }), svgEl("rect", { x: 7, y: 1.5, width: 3, height: 9 })]
      : [svgEl("polygon", { points: "2.5,1.5 10.5,6 2.5,10.5" })]));
}
