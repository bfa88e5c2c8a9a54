// Players who last (issue 51; docs/web.md "Accounts", docs/server-protocol.md "Players and
// sessions"): every page load asks for the session (POST /api/session: a guest and its HttpOnly
// cookie on the first visit) and names the player in the header; /account (a guest claims an
// account or logs in; an account sees its sessions, changes its password, logs out, deletes
// itself), /account/recover (a recovery code) and /account/reset (the operator's link, its token
// in the address's fragment). Every request is same-origin: the server checks Origin.
import { getJSON, h, HttpError, s as svg } from "./util";
import { langPicker, locale, t } from "./i18n";
import { leaderboardLink } from "./player";
import { turnsBadge } from "./turns";

export interface Me { player: string; guest: boolean; name: string | null; number: number; recovery_codes?: string[]; recovery_codes_left?: number }
interface Session { id: string; created: number; seen: number; address: string; agent: string; current: boolean }

let me: Me | null = null;
let asked: Promise<Me | null> | null = null;
const links = new Set<HTMLAnchorElement>();

function send<T>(method: "POST" | "DELETE", url: string, body?: unknown): Promise<T> {
  return getJSON<T>(url, body === undefined ? { method } : { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

// The player of this browser's session, asked once a page load (a new guest on the first visit;
// null when the server does not answer: the page works without it).
export function session(): Promise<Me | null> {
  asked ??= send<Me>("POST", "/api/session", {}).then((m) => { setMe(m); return m; }, () => null);
  return asked;
}
function again(): Promise<Me | null> { asked = null; return session(); }

// "Guest 4821" or the account's name.
export function whoIs(m: Me): string { return m.guest || !m.name ? t("me.guest", { n: m.number }) : m.name; }

function setMe(m: Me | null): void {
  me = m;
  for (const a of links) fillLink(a);
}
function fillLink(a: HTMLAnchorElement): void {
  a.hidden = !me;
  if (!me) return;
  a.dataset.me = me.guest ? "guest" : "account";
  a.replaceChildren(personGlyph(), whoIs(me));
}

// A head and shoulders, in the text's colour (no emoji: not every system draws them).
function personGlyph(): SVGSVGElement {
  return svg("svg", { class: "me-icon", viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", focusable: "false" },
    svg("circle", { cx: 8, cy: 5, r: 3.2, fill: "currentColor" }), svg("path", { d: "M1.5 15.5c0-3.6 2.9-6 6.5-6s6.5 2.4 6.5 6z", fill: "currentColor" }));
}

// The header's link to /account, naming the player once the session is known.
export function meLink(): HTMLAnchorElement {
  const a = h("a", { href: "/account", class: "me-link", "data-me": "", title: t("me.title"), hidden: true });
  links.add(a);
  fillLink(a);
  return a;
}

// ---- forms: fields, the password's length, errors in words next to the field they concern ----

let ids = 0;
// The field each error code concerns (the others are the form's, said above its button).
const FIELD_OF: Record<string, string> = {
  username_length: "name", username_chars: "name", username_reserved: "name", name_taken: "name",
  password_short: "password", password_long: "password", password_common: "password", password_username: "password", password_utf8: "password",
  bad_password: "current", bad_recovery: "code",
};
const CODES = ["username_length", "username_chars", "username_reserved", "password_short", "password_long", "password_common", "password_username",
  "password_utf8", "name_taken", "already_claimed", "bad_login", "banned", "login_limited", "bad_password", "bad_recovery", "bad_reset", "not_claimed",
  "busy", "no_session", "unknown_session"];

// A wait in words: "40 seconds", "15 minutes".
function wait(s: number): string { return s < 90 ? t("account.wait_s", { n: s }) : t("account.wait_min", { n: Math.ceil(s / 60) }); }

// A refusal in the player's language (the server's own message for a code the page does not know).
export function problem(e: unknown): { code: string; text: string } {
  if (!(e instanceof HttpError) || !e.code) return { code: "", text: e instanceof HttpError ? e.message : t("account.error.network") };
  const code = e.code;
  if (!CODES.includes(code)) return { code, text: e.message };
  const s = e.retryAfter ?? (code === "busy" ? 5 : 60);
  return { code, text: t(`account.error.${code}`, { wait: wait(s) }) };
}

interface Field { wrap: HTMLElement; input: HTMLInputElement; error: HTMLElement }

function field(name: string, label: string, attrs: Record<string, string | number | boolean>, help?: string): Field {
  const id = `f${++ids}`;
  const input = h("input", { id, name, "data-field": name, spellcheck: "false", autocapitalize: "none", ...attrs });
  const error = h("p", { id: `${id}-error`, class: "message field-error", "data-error": "", "data-error-for": name, role: "alert", hidden: true });
  const hint = help ? h("p", { id: `${id}-help`, class: "sub hint", text: help }) : null;
  input.setAttribute("aria-describedby", [hint?.id, error.id].filter(Boolean).join(" "));
  const wrap = h("div", { class: "field" }, h("label", { for: id, text: label }), input, hint, error);
  return { wrap, input, error };
}

// A password: paste allowed, a show/hide toggle (ASVS 2.1.11, 2.1.12), and for a new one a live
// length hint (at least 8 characters, counted as the server counts them; no composition rules).
function passwordField(name: string, label: string, fresh: boolean): Field {
  const f = field(name, label, { type: "password", autocomplete: fresh ? "new-password" : "current-password" });
  const toggle = h("button", { type: "button", class: "pw-toggle", "data-show-password": name, "aria-controls": f.input.id, text: t("account.show") });
  toggle.addEventListener("click", () => {
    const shown = f.input.type === "password";
    f.input.type = shown ? "text" : "password";
    toggle.textContent = t(shown ? "account.hide" : "account.show");
    f.input.focus();
  });
  const pw = h("div", { class: "pw" });
  f.input.before(pw);
  pw.append(f.input, toggle);
  if (fresh) {
    const hint = h("p", { id: `${f.input.id}-hint`, class: "sub hint", "data-length-hint": "", "data-ok": "false" });
    const update = () => {
      const n = [...f.input.value].length, bytes = new TextEncoder().encode(f.input.value).length;
      hint.dataset.ok = String(n >= 8 && bytes <= 1024);
      hint.textContent = bytes > 1024 ? t("account.error.password_long") : n >= 8 ? t("account.pw_ok", { n }) : t("account.pw_short", { n });
    };
    f.input.addEventListener("input", update);
    update();
    f.error.before(hint);
    f.input.setAttribute("aria-describedby", `${hint.id} ${f.error.id}`);
  }
  return f;
}

// A form: its fields, a line for its own errors, its button; `go` sends it and answers what to
// show (a refusal is shown next to its field).
function form(hook: string, fields: Field[], button: string, go: () => Promise<void>): HTMLFormElement {
  const own = h("p", { class: "message", "data-error": "", "data-error-for": "", role: "alert", hidden: true });
  const submit = h("button", { type: "submit", class: "primary", "data-submit": "", text: button });
  const f = h("form", { class: "account-form", [hook]: "", novalidate: true }, ...fields.map((x) => x.wrap), own, submit);
  const clear = () => {
    for (const e of [own, ...fields.map((x) => x.error)]) { e.hidden = true; e.textContent = ""; e.dataset.error = ""; }
    for (const x of fields) x.input.removeAttribute("aria-invalid");
  };
  f.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (submit.disabled) return;
    clear();
    // a new password's length is known here: said at once (and a reset link is not spent on it)
    const pw = fields.find((x) => x.input.autocomplete === "new-password");
    const n = pw ? [...pw.input.value].length : 8;
    const local = !pw ? "" : new TextEncoder().encode(pw.input.value).length > 1024 ? "password_long" : n < 8 ? "password_short" : "";
    submit.disabled = true;
    f.setAttribute("aria-busy", "true");
    try {
      if (local) throw new HttpError("", 400, local);
      await go();
    } catch (e) {
      const p = problem(e);
      const at = fields.find((x) => x.input.dataset.field === FIELD_OF[p.code]);
      const box = at ? at.error : own;
      box.dataset.error = p.code || "other";
      box.textContent = p.text;
      box.hidden = false;
      if (at) { at.input.setAttribute("aria-invalid", "true"); at.input.focus(); }
    } finally {
      submit.disabled = false;
      f.removeAttribute("aria-busy");
    }
  });
  return f;
}

const nameField = (help: boolean) => field("name", t("account.name"), { autocomplete: "username", required: true }, help ? t("account.name_rules") : undefined);

// ---- the pages ----

function shell(root: HTMLElement, title: string, page: string): HTMLElement {
  document.title = `${title} · ${t("lobby.title")}`;
  const main = h("main", { class: "lobby account", "data-page": page });
  main.append(h("div", { class: "topbar" }, h("h1", { text: title }),
    h("div", { class: "topbar-end" }, h("a", { href: "/", class: "button", "data-home": "", text: t("game.lobby") }), leaderboardLink(), turnsBadge(), meLink(), langPicker(h))));
  root.replaceChildren(main);
  return main;
}

// /account: what a guest or an account can do.
export async function accountPage(root: HTMLElement): Promise<void> {
  const main = shell(root, t("account.title"), "account");
  const body = h("div", { "data-account": "" });
  main.append(body);
  await session();
  let notice = "";
  const draw = async () => {
    const m = me;
    if (!m) { body.replaceChildren(h("p", { class: "message", "data-message": "", role: "alert", text: t("account.error.no_session") })); return; }
    body.dataset.account = m.guest ? "guest" : "account";
    const note = notice ? h("p", { class: "card notice", "data-notice": "", role: "status", text: notice }) : null;
    notice = "";
    body.replaceChildren(...[note, ...(m.guest ? guestView(m) : await accountView(m))].filter((x): x is HTMLElement => !!x));
  };

  function guestView(m: Me): HTMLElement[] {
    const who = whoIs(m);
    const intro = h("p", { class: "lead", text: t("account.guest_intro", { who }) });
    const name = nameField(true), pw = passwordField("password", t("account.password"), true);
    const claim = form("data-claim-form", [name, pw], t("account.claim"), async () => {
      const r = await send<Me>("POST", "/api/account/claim", { name: name.input.value, password: pw.input.value });
      setMe(r);
      codesView(r.recovery_codes ?? []);
    });
    const ln = nameField(false), lp = passwordField("password", t("account.password"), false);
    const login = form("data-login-form", [ln, lp], t("account.login"), async () => {
      setMe(await send<Me>("POST", "/api/login", { name: ln.input.value, password: lp.input.value }));
      notice = t("account.logged_in", { name: whoIs(me!) });
      await draw();
    });
    return [intro,
      h("section", { class: "card", "data-claim": "", "aria-labelledby": "claim-h" }, h("h2", { id: "claim-h", text: t("account.claim_title") }),
        h("p", { class: "sub", text: t("account.claim_keeps", { who }) }), claim),
      h("section", { class: "card", "data-login": "", "aria-labelledby": "login-h" }, h("h2", { id: "login-h", text: t("account.login_title") }),
        h("p", { class: "sub", text: t("account.login_leaves", { who }) }), login,
        h("p", {}, h("a", { href: "/account/recover", "data-recover-link": "", text: t("account.lost") })))];
  }

  // The recovery codes, shown this once: kept before the page goes on (a box to tick, and the
  // browser's own question when leaving the page meanwhile).
  function codesView(codes: string[]): void {
    const guard = (e: BeforeUnloadEvent) => { e.preventDefault(); e.returnValue = ""; };
    window.addEventListener("beforeunload", guard);
    const list = h("ol", { class: "codes", "data-codes-list": "" }, ...codes.map((c) => h("li", {}, h("code", { "data-code": c, text: c }))));
    const copy = h("button", { type: "button", "data-codes-copy": "", text: t("account.codes_copy") });
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(codes.join("\n") + "\n");
        copy.textContent = t("account.codes_copied");
      } catch {
        // no clipboard here: the codes selected, for the player's own copy
        const r = document.createRange();
        r.selectNodeContents(list);
        getSelection()?.removeAllRanges();
        getSelection()?.addRange(r);
        copy.textContent = t("account.codes_selected");
      }
    });
    const kept = h("input", { type: "checkbox", id: "codes-kept", "data-codes-kept": "" });
    const done = h("button", { type: "button", class: "primary", "data-codes-done": "", disabled: true, text: t("account.codes_done") });
    kept.addEventListener("change", () => { done.disabled = !kept.checked; });
    done.addEventListener("click", () => {
      if (!kept.checked) return;
      window.removeEventListener("beforeunload", guard);
      notice = t("account.claimed", { name: whoIs(me!) });
      void draw();
    });
    const head = h("h2", { id: "codes-h", tabindex: -1, text: t("account.codes_title") });
    body.dataset.account = "codes";
    body.replaceChildren(h("section", { class: "card codes-card", "data-codes": codes.length, "aria-labelledby": "codes-h" }, head,
      h("p", { class: "warning", "data-codes-warning": "", text: t("account.codes_warning", { n: codes.length }) }), list,
      h("p", {}, copy), h("p", { class: "check" }, kept, h("label", { for: "codes-kept", text: t("account.codes_kept") })), done));
    head.focus();
  }

  async function accountView(m: Me): Promise<HTMLElement[]> {
    const info = await getJSON<Me>("/api/me").catch(() => m);
    const left = info.recovery_codes_left;
    const intro = h("p", { class: "lead" }, t("account.account_intro", { name: whoIs(m) }), " ",
      left === undefined ? "" : h("span", { class: left ? "" : "message", "data-codes-left": left, text: left ? t("account.codes_left", { n: left }) : t("account.codes_none") }));

    // the sessions: where, when, which browser; the others ended one by one
    const list = h("ul", { class: "sessions", "data-sessions": "" });
    const sessions = h("section", { class: "card", "data-sessions-card": "", "aria-labelledby": "sessions-h" }, h("h2", { id: "sessions-h", text: t("account.sessions") }), list);
    const drawSessions = async () => {
      const r = await getJSON<{ sessions: Session[] }>("/api/account/sessions").catch((e) => { list.replaceChildren(h("li", { class: "message", text: problem(e).text })); return null; });
      if (!r) return;
      list.replaceChildren(...r.sessions.map((s) => {
        const row = h("li", { "data-session": s.id, "data-current": String(s.current) },
          h("span", { class: "agent", "data-session-agent": "", title: s.agent, text: agentWords(s.agent) }),
          h("span", { class: "sub", text: ` · ${t("account.session_where", { address: s.address || "?" })} · ${t("account.session_since", { date: date(s.created) })} · ${t("account.session_seen", { ago: ago(s.seen) })} ` }));
        if (s.current) row.append(h("span", { class: "badge", "data-session-current": "", text: t("account.session_current") }));
        else {
          const end = h("button", { type: "button", "data-session-end": s.id, text: t("account.session_end") });
          end.addEventListener("click", async () => {
            end.disabled = true;
            try {
              await send("DELETE", `/api/account/sessions/${encodeURIComponent(s.id)}`);
            } catch (e) {
              row.append(h("span", { class: "message", "data-error": problem(e).code, role: "alert", text: ` ${problem(e).text}` }));
            }
            await drawSessions();
          });
          row.append(end);
        }
        return row;
      }));
    };
    await drawSessions();

    const cur = passwordField("current", t("account.current_password"), false), fresh = passwordField("password", t("account.new_password"), true);
    const done = h("p", { class: "done", "data-done": "", role: "status", hidden: true });
    const change = form("data-password-form", [cur, fresh], t("account.change"), async () => {
      setMe(await send<Me>("POST", "/api/account/password", { current: cur.input.value, password: fresh.input.value }));
      cur.input.value = fresh.input.value = "";
      fresh.input.dispatchEvent(new Event("input"));
      done.textContent = t("account.changed");
      done.hidden = false;
      await drawSessions();
    });

    const logout = h("button", { type: "button", "data-logout": "", text: t("account.logout") });
    const outErr = h("p", { class: "message", "data-error": "", role: "alert", hidden: true });
    logout.addEventListener("click", async () => {
      logout.disabled = true;
      try {
        await send("POST", "/api/logout", {});
        await again();
        notice = t("account.logged_out");
        await draw();
      } catch (e) {
        outErr.textContent = problem(e).text;
        outErr.hidden = false;
        logout.disabled = false;
      }
    });

    const dp = passwordField("current", t("account.password"), false);
    const del = form("data-delete-form", [dp], t("account.delete"), async () => {
      await send("POST", "/api/account/delete", { password: dp.input.value });
      await again();
      notice = t("account.deleted");
      await draw();
    });
    del.querySelector("[data-submit]")!.className = "danger";
    // the account's name for password managers (a password form names its user)
    for (const f of [change, del]) f.prepend(h("input", { type: "text", name: "username", autocomplete: "username", value: m.name ?? "", hidden: true, readonly: true }));

    return [intro, sessions,
      h("section", { class: "card", "data-password": "", "aria-labelledby": "pw-h" }, h("h2", { id: "pw-h", text: t("account.change_title") }),
        h("p", { class: "sub", text: t("account.change_ends") }), change, done),
      h("section", { class: "card", "data-logout-card": "", "aria-labelledby": "out-h" }, h("h2", { id: "out-h", text: t("account.logout_title") }),
        h("p", { class: "sub", text: t("account.logout_keeps") }), logout, outErr),
      h("section", { class: "card", "data-delete": "", "aria-labelledby": "del-h" }, h("h2", { id: "del-h", text: t("account.delete_title") }),
        h("p", { class: "sub", text: t("account.delete_keeps") }), del)];
  }

  await draw();
}

// /account/recover: a recovery code sets a new password.
export async function recoverPage(root: HTMLElement): Promise<void> {
  const main = shell(root, t("account.recover_title"), "recover");
  void session();
  const name = nameField(false);
  const code = field("code", t("account.code"), { autocomplete: "off", required: true }, t("account.code_help"));
  const pw = passwordField("password", t("account.new_password"), true);
  const done = h("div", { class: "done", "data-done": "", role: "status", hidden: true });
  const f = form("data-recover-form", [name, code, pw], t("account.set_password"), async () => {
    const r = await send<Me>("POST", "/api/account/recover", { name: name.input.value, code: code.input.value, password: pw.input.value });
    setMe(r);
    f.hidden = true;
    done.replaceChildren(h("p", { text: t("account.recovered", { n: r.recovery_codes_left ?? 0 }) }), h("p", {}, h("a", { href: "/account", class: "button primary", text: t("account.to_account") })));
    done.hidden = false;
  });
  main.append(h("section", { class: "card", "data-recover": "" }, h("p", { class: "sub", text: t("account.recover_intro") }), f, done,
    h("p", { class: "sub", text: t("account.recover_none") })));
}

// /account/reset#TOKEN: the operator's one-time link. The token is read, then taken out of the
// address bar (and the history) before anything else.
export async function resetPage(root: HTMLElement): Promise<void> {
  const token = decodeURIComponent(location.hash.slice(1));
  if (location.hash) history.replaceState(history.state, "", location.pathname + location.search);
  const main = shell(root, t("account.reset_title"), "reset");
  void session();
  // the link pasted into the address bar of this very page changes its fragment alone
  window.addEventListener("hashchange", () => void resetPage(root), { once: true });
  const box = h("section", { class: "card", "data-reset": "" });
  main.append(box);
  if (!token) {
    box.append(h("p", { class: "message", "data-error": "bad_reset", role: "alert", text: t("account.reset_no_token") }));
    return;
  }
  const pw = passwordField("password", t("account.new_password"), true);
  const done = h("div", { class: "done", "data-done": "", role: "status", hidden: true });
  const f = form("data-reset-form", [pw], t("account.set_password"), async () => {
    // (a refused password leaves the link unused: the player tries another)
    setMe(await send<Me>("POST", "/api/account/reset", { token, password: pw.input.value }));
    f.hidden = true;
    done.replaceChildren(h("p", { text: t("account.reset_done") }), h("p", {}, h("a", { href: "/account", class: "button primary", text: t("account.to_account") })));
    done.hidden = false;
  });
  box.append(h("p", { class: "sub", text: t("account.reset_intro") }), f, done);
}

// ---- words ----

const date = (ms: number) => new Intl.DateTimeFormat(locale, { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(ms);
export function ago(ms: number): string {
  const m = Math.max(0, Math.round((Date.now() - ms) / 60000));
  return m < 1 ? t("ago.now") : m < 60 ? t("ago.min", { n: m }) : m < 1440 ? t("ago.h", { n: Math.round(m / 60) }) : t("ago.days", { n: Math.round(m / 1440) });
}

// A browser's own words for itself, shortened: "Chrome 131 · Linux" (the whole in the tooltip).
function agentWords(ua: string): string {
  if (!ua) return t("account.agent_unknown");
  // the browsers that name others after themselves first, else the last product the agent names
  // with its "Version/N"
  const known = [["Edg", "Edge"], ["OPR", "Opera"], ["Firefox", "Firefox"], ["CriOS", "Chrome"], ["Chrome", "Chrome"]]
    .map(([k, name]) => { const m = new RegExp(`\\b(?:Headless)?${k}/(\\d+)`).exec(ua); return m ? `${name} ${m[1]}` : ""; }).find(Boolean);
  const version = /\bVersion\/(\d+)/.exec(ua), last = /([A-Za-z]+)\/[\d.]+\s*$/.exec(ua);
  const browser = known || (version && last ? `${last[1]} ${version[1]}` : "");
  const os = [["Android", "Android"], ["iPhone", "iOS"], ["iPad", "iPadOS"], ["Windows", "Windows"], ["Mac OS X", "macOS"], ["CrOS", "ChromeOS"], ["Linux", "Linux"]]
    .find(([k]) => ua.includes(k))?.[1];
  return [browser, os].filter(Boolean).join(" · ") || ua.slice(0, 60);
}
