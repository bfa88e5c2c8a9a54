// The WebSocket to the game server (docs/server-protocol.md): hello with the last seq held,
// events in order (a gap makes it say hello again), an outbox of commands kept in browser storage
// until acknowledged and sent again with their cid after a reload or reconnect (the server applies
// a cid once), application pings, and a reconnect on silence or close.
import { lang } from "./i18n";
import { load, save } from "./util";
import type { GameEvent } from "./types";

// "name": a seat names itself (`name`; `at` is not sent: a name is not a turn and never stale)
export interface Command { cid: string; type: "play" | "resign" | "abort" | "name"; at: number; moves?: string[]; name?: string }
export type ConnStatus = "connecting" | "online" | "offline";

export interface ConnHandlers {
  welcome(msg: any): void;
  events(evs: GameEvent[], msg: any): void;
  state(msg: any): void;
  presence(msg: any): void;
  options(msg: any): void;
  ack(msg: any, cmd: Command | undefined): void;
  reject(msg: any, cmd: Command | undefined): void;
  error(msg: any): void;
  status(s: ConnStatus, why: string): void;
  chat?(msg: any): void;  // the game's chat (chat.ts)
}

const PING_MS = 15000, SILENCE_MS = 30000;

export class Conn {
  seq = 0;
  status: ConnStatus = "connecting";
  private ws: WebSocket | null = null;
  private outbox: Command[];
  private lastMessage = 0;
  private tries = 0;
  private timer: number | undefined;
  private retry: number | undefined;
  private readonly key: string;

  // seat: this page's seat (-1 watching); without a token it is asked for by the session alone
  // (`hello` with `seat`: a seat this player opened before, on another device)
  constructor(private game: string, private token: string | null, private seat: number, private h: ConnHandlers) {
    this.key = `carc.outbox.${game}.${seat}`;
    this.outbox = token || seat >= 0 ? load<Command[]>(this.key, []) : [];
    this.timer = window.setInterval(() => this.tick(), 1000);
    // the browser knows the network is gone before any timeout does: offline at once, and a new
    // connection as soon as it is back (a socket left open through a cut network may never close)
    window.addEventListener("offline", () => this.networkDown());
    window.addEventListener("online", () => { if (!this.ws || this.status !== "online") this.connect(); });
  }

  private networkDown(): void {
    const ws = this.ws;
    this.ws = null;
    if (ws) { ws.onclose = null; ws.close(); }
    if (this.retry !== undefined) { clearTimeout(this.retry); this.retry = undefined; }
    this.setStatus("offline", "network down");
  }

  pending(): Command[] { return this.outbox.slice(); }

  connect(): void {
    if (this.retry !== undefined) { clearTimeout(this.retry); this.retry = undefined; }
    if (navigator.onLine === false) { this.setStatus("offline", "network down"); return; }  // "online" connects
    this.setStatus("connecting", this.tries ? "reconnecting" : "connecting");
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(this.game)}`);
    this.ws = ws;
    this.lastMessage = Date.now();
    ws.onopen = () => {
      const hello: any = { type: "hello", since: this.seq, views: true, lang };
      if (this.token) hello.token = this.token;
      else if (this.seat >= 0) hello.seat = this.seat;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (e) => {
      if (ws !== this.ws) return;
      this.lastMessage = Date.now();
      let msg: any;
      try { msg = JSON.parse(String(e.data)); } catch { return; }
      this.onMessage(msg);
    };
    ws.onerror = () => { if (ws === this.ws && this.status === "online") this.setStatus("offline", "connection lost: reconnecting"); };
    ws.onclose = () => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.setStatus("offline", "connection lost: reconnecting");
      const wait = Math.min(5000, 300 * 2 ** Math.min(this.tries, 4));
      this.tries++;
      this.retry = window.setTimeout(() => this.connect(), wait);
    };
  }

  // Drops the connection and opens a new one (after a gap, `moved`, or silence).
  reconnect(): void {
    const ws = this.ws;
    this.ws = null;
    if (ws) { ws.onclose = null; ws.close(); }
    this.tries++;
    this.connect();
  }

  close(): void {
    clearInterval(this.timer);
    const ws = this.ws;
    this.ws = null;
    if (ws) { ws.onclose = null; ws.close(); }
  }

  // A command: kept until acknowledged (or rejected), sent now if online.
  submit(cmd: Command): void {
    this.outbox.push(cmd);
    save(this.key, this.outbox);
    if (this.status === "online") this.sendCommand(cmd);
  }

  // A command kept in the outbox but not sent yet (a confirm whose last pass the engine has still
  // to call whole): `release` sends it, `drop` takes it out. A reconnect sends it like any other.
  keep(cmd: Command): void {
    this.outbox.push(cmd);
    save(this.key, this.outbox);
  }
  release(cid: string): void {
    const c = this.outbox.find((x) => x.cid === cid);
    if (c && this.status === "online") this.sendCommand(c);
  }
  drop(cid: string): void { this.settle(cid); }

  send(msg: any): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  private sendCommand(c: Command): void {
    const m: any = c.type === "name" ? { type: c.type, cid: c.cid, name: c.name } : { type: c.type, cid: c.cid, at: c.at };
    if (c.moves) m.moves = c.moves;
    this.send(m);
  }

  private settle(cid: string): Command | undefined {
    const i = this.outbox.findIndex((c) => c.cid === cid);
    if (i < 0) return undefined;
    const [c] = this.outbox.splice(i, 1);
    save(this.key, this.outbox);
    return c;
  }

  private onMessage(msg: any): void {
    switch (msg.type) {
      case "welcome":
        this.tries = 0;
        this.setStatus("online", "");
        this.h.welcome(msg);
        for (const c of this.outbox) this.sendCommand(c);
        break;
      case "events": {
        const evs: GameEvent[] = (msg.events ?? []).filter((e: GameEvent) => e.seq > this.seq);
        if (evs.length && evs[0].seq !== this.seq + 1) {
          // a gap: what we hold is not followed by these; ask again from our last seq
          this.reconnect();
          return;
        }
        if (evs.length) this.seq = evs[evs.length - 1].seq;
        this.h.events(evs, msg);
        break;
      }
      case "state":
        this.h.state(msg);
        break;
      case "presence":
        this.h.presence(msg);
        break;
      case "options":
        this.h.options(msg);
        break;
      case "chat":
        this.h.chat?.(msg);
        break;
      case "ack":
        this.h.ack(msg, this.settle(msg.cid));
        break;
      case "reject":
        this.h.reject(msg, this.settle(msg.cid));
        break;
      case "error":
        if (msg.code === "moved") { this.reconnect(); return; }
        // the server is draining for a restart: it closes the connection next, and the usual
        // reconnection (with its backoff) finds it, or its successor, again
        if (msg.code === "restart") return;
        // a seat asked for without its token that is not this player's: watch instead
        if (msg.code === "not_your_seat" && !this.token && this.seat >= 0) {
          this.seat = -1;
          this.outbox = [];
          this.h.error(msg);
          this.reconnect();
          return;
        }
        this.h.error(msg);
        break;
      default:
        break;
    }
  }

  private tick(): void {
    const now = Date.now();
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      if (now - this.lastMessage > SILENCE_MS) { this.reconnect(); return; }
      if (now - this.lastPing > PING_MS) { this.lastPing = now; this.send({ type: "ping" }); }
    }
  }
  private lastPing = 0;

  private setStatus(s: ConnStatus, why: string): void {
    this.status = s;
    this.h.status(s, why);
  }
}
