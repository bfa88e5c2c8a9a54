// Talking at the table (issue 51; docs/web.md "Chat"; docs/server-protocol.md "Chat and reports"):
// a game's chat panel. A seat writes in the players' chat, a spectator in the spectators'; each
// side sees its own while the game goes on, both once it is over (and in the replay of a server's
// game, from GET /api/games/ID/chat). Text (1–200 characters) or a canned phrase, which each reader
// sees in their own language (chat.phrase.KEY). Mute is the reader's own (localStorage
// "carc.muted": the muted players' messages are hidden); Report sends a message to the operator.
import { getJSON, h, load, save } from "./util";
import { lang, t } from "./i18n";
import { playerLink, refusalBox } from "./place";
import { reportButton } from "./player";
import { HttpError } from "./util";
import { session } from "./account";

export interface ChatMessage { id: string; channel: "players" | "spectators"; seat: number; player: string; name: string | null; text?: string; phrase?: string; time: number }
export const PHRASES = ["hello", "good_luck", "thinking", "well_played", "good_game", "thanks"];
const MUTED = "carc.muted";
interface Muted { player: string; who: string }

let cids = 0;

export class ChatPanel {
  readonly el: HTMLElement;
  private list: HTMLElement;
  private mutedBox: HTMLElement;
  private result: HTMLElement;
  private form: HTMLFormElement;
  private input: HTMLInputElement;
  private count: HTMLElement;
  private messages = new Map<string, ChatMessage>();
  private pending = new Map<string, { text?: string; phrase?: string }>();
  private myId: string | null = null;

  // game: the server's game id; send: the connection's (false when it is not open); names: the
  // seats' names now; readOnly: a replay (nothing to write)
  constructor(private game: string, private seat: () => number, private send: ((msg: any) => boolean) | null,
    private names: () => string[], private over: () => boolean, private readOnly = false) {
    // (focusable: it scrolls)
    this.list = h("ol", { class: "chat-list", "data-chat-list": "", "aria-live": "polite", "aria-relevant": "additions", tabindex: 0, "aria-label": t("chat.title") });
    this.mutedBox = h("div", { class: "sub chat-muted", "data-chat-muted": "", hidden: true });
    this.result = h("div", { class: "result", "data-chat-result": "" });
    this.input = h("input", { type: "text", "data-chat-input": "", maxlength: 400, autocomplete: "off", "aria-label": t("chat.input"), placeholder: t("chat.placeholder") });
    this.count = h("span", { class: "sub chat-count", "data-chat-count": "0", "aria-live": "off" });
    const go = h("button", { type: "submit", "data-chat-send": "", text: t("chat.send") });
    this.form = h("form", { class: "chat-form", "data-chat-form": "" }, h("div", { class: "chat-line" }, this.input, go), this.count);
    const phrases = h("div", { class: "chat-phrases", "data-chat-phrases": "", role: "group", "aria-label": t("chat.phrases") },
      ...PHRASES.map((k) => {
        const b = h("button", { type: "button", class: "small", "data-chat-phrase": k, text: t(`chat.phrase.${k}`) });
        b.addEventListener("click", () => this.post({ phrase: k }));
        return b;
      }));
    this.input.addEventListener("input", () => this.counted());
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      if ([...text].length > 200) { this.say("too_long"); return; }
      this.post({ text });
    });
    this.el = h("section", { class: "panel chat", "data-panel": "chat", "aria-labelledby": "chat-h" },
      h("h2", { id: "chat-h", text: t("chat.title") }), h("p", { class: "sub", "data-chat-channel": "", text: "" }), this.list, this.mutedBox,
      ...(readOnly ? [] : [this.form, phrases]), this.result);
    this.counted();
    this.draw();
    void session().then((m) => { this.myId = m?.player ?? null; this.draw(); });
  }

  private counted(): void {
    const n = [...this.input.value.trim()].length;
    this.count.dataset.chatCount = String(n);
    this.count.textContent = t("chat.count", { n, max: 200 });
    this.count.classList.toggle("over", n > 200);
  }

  private post(m: { text?: string; phrase?: string }): void {
    this.result.replaceChildren();
    const cid = `chat-${Date.now().toString(36)}-${++cids}`;
    if (!this.send?.({ type: "chat", cid, ...m })) { this.say("offline"); return; }
    this.pending.set(cid, m);
  }

  // The connection's answer to a chat command: true when it was one (its cid).
  answer(msg: any): boolean {
    const m = this.pending.get(msg.cid);
    if (!m) return false;
    this.pending.delete(msg.cid);
    if (msg.type === "ack") {
      if (m.text !== undefined && this.input.value.trim() === m.text) { this.input.value = ""; this.counted(); }
      return true;
    }
    this.say(msg.code, msg.message);
    return true;
  }

  private say(code: string, message?: string): void {
    const known = ["chat_too_fast", "chat_guest", "chat_account"].includes(code);
    if (known) { this.result.replaceChildren(refusalBox(new HttpError(message ?? code, 403, code))); return; }
    const text = code === "offline" ? t("chat.offline") : code === "too_long" ? t("chat.too_long") : message ?? code;
    this.result.replaceChildren(h("p", { class: "message refused", "data-message": "", "data-refused": code, role: "alert", text }));
  }

  // The server's `chat` message: messages so far after hello, then each new one.
  add(ms: ChatMessage[]): void {
    for (const m of ms) this.messages.set(m.id, m);
    this.draw();
  }

  // A replay of a server's game: its chat, both sides (GET /api/games/ID/chat).
  async fetch(): Promise<void> {
    try { this.add((await getJSON<{ messages: ChatMessage[] }>(`/api/games/${encodeURIComponent(this.game)}/chat`)).messages); } catch { /* none to show */ }
  }

  private muted(): Muted[] { return load<Muted[]>(MUTED, []); }
  private mute(m: ChatMessage, on: boolean): void {
    const list = this.muted().filter((x) => x.player !== m.player);
    if (on) list.push({ player: m.player, who: this.who(m) });
    save(MUTED, list);
    this.draw();
  }

  // "ann", a seat's name for a guest at a seat, "Spectator" for a guest watching.
  private who(m: ChatMessage): string {
    return m.name ?? (m.seat >= 0 ? this.names()[m.seat] ?? t("game.seat", { n: m.seat + 1 }) : t("chat.a_spectator"));
  }

  draw(): void {
    const me = this.seat(), over = this.over();
    const channel = me >= 0 ? "players" : "spectators";
    (this.el.querySelector("[data-chat-channel]") as HTMLElement).textContent =
      this.readOnly || over ? t("chat.both") : t(me >= 0 ? "chat.players_only" : "chat.spectators_only");
    this.el.dataset.chatSide = this.readOnly ? "replay" : channel;
    const muted = this.muted();
    const mutedIds = new Set(muted.map((x) => x.player));
    const all = [...this.messages.values()].sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : 1));
    const time = new Intl.DateTimeFormat(lang === "xx" ? "en" : lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    let hidden = 0;
    const rows = all.map((m) => {
      const hide = mutedIds.has(m.player);
      if (hide) hidden++;
      const words = m.phrase ? t(`chat.phrase.${m.phrase}`) : m.text ?? "";
      const li = h("li", { "data-chat-id": m.id, "data-channel": m.channel, "data-author": m.player, "data-seat": m.seat, class: m.channel === "spectators" ? "from-spectator" : "", hidden: hide });
      if (m.phrase) li.dataset.phrase = m.phrase;
      li.append(h("span", { class: "chat-time sub", text: time.format(m.time) }), " ", h("b", { class: "chat-who" }, m.name ? playerLink(m.name) : this.who(m)));
      if ((over || this.readOnly) && m.channel === "spectators") li.append(h("span", { class: "sub", text: ` (${t("chat.spectator_tag")})` }));
      li.append(": ", h("span", { class: "chat-text", "data-chat-text": "", text: words }));
      // the reader's own tools: mute its author, report it (an account's: reports name an account)
      const mine = this.mineMessage(m);
      if (!mine && !this.readOnly) {
        const mute = h("button", { type: "button", class: "small link", "data-chat-mute": m.player, "aria-label": t("chat.mute_who", { name: this.who(m) }), text: t("chat.mute") });
        mute.addEventListener("click", () => this.mute(m, true));
        li.append(" ", mute);
        if (m.name) li.append(" ", reportButton(m.name, { game: this.game, message: m.id }, true));
      }
      return li;
    });
    // keep the rows that did not change (a report form being filled, the focus)
    const old = new Map([...this.list.children].map((e) => [(e as HTMLElement).dataset.chatId, e as HTMLElement]));
    const next = rows.map((r) => {
      const o = old.get(r.dataset.chatId);
      return o && o.hidden === r.hidden && o.querySelector(".chat-who")?.textContent === r.querySelector(".chat-who")?.textContent && o.dataset.channel === r.dataset.channel ? o : r;
    });
    if (next.length !== this.list.children.length || next.some((e, i) => this.list.children[i] !== e)) {
      // the newest in view, unless the reader scrolled up to read older ones
      const atEnd = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 24 || !this.list.children.length;
      this.list.replaceChildren(...next);
      if (atEnd) this.list.scrollTop = this.list.scrollHeight;
    }
    if (!all.length && !this.list.querySelector("[data-chat-none]")) this.list.replaceChildren(h("li", { class: "sub", "data-chat-none": "", text: t("chat.none") }));
    this.el.dataset.chatCount = String(all.length - hidden);
    // the muted: how many messages are hidden, and Unmute
    const shownMuted = muted.filter((x) => all.some((m) => m.player === x.player));
    this.mutedBox.hidden = !shownMuted.length;
    this.mutedBox.replaceChildren(...(shownMuted.length ? [t("chat.hidden", { n: hidden }), " ", ...shownMuted.flatMap((x) => {
      const b = h("button", { type: "button", class: "small link", "data-chat-unmute": x.player, text: t("chat.unmute_who", { name: x.who }) });
      b.addEventListener("click", () => { save(MUTED, this.muted().filter((y) => y.player !== x.player)); this.draw(); });
      return [b, " "];
    })] : []));
  }

  // The reader's own message: by this player (the session's), or from this seat
  private mineMessage(m: ChatMessage): boolean {
    const me = this.seat();
    return (this.myId !== null && m.player === this.myId) || (me >= 0 && m.channel === "players" && m.seat === me);
  }
}
