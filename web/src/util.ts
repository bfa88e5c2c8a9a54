// Small DOM and storage helpers.
import { hasMessage, t as say } from "./i18n";

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | number | boolean | undefined> = {}, ...kids: (Node | string | null | undefined | false)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === "class") e.className = String(v);
    else if (k === "text") e.textContent = String(v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const k of kids) if (k !== null && k !== undefined && k !== false) e.append(k);
  return e;
}

// The children a redraw gives `parent`, keeping each old child that the new one equals (ignoring
// what `ignore` selects in both): a click is never lost between a press on one element and a
// release on its copy, and a redraw that changes nothing changes no node.
export function reuse(parent: Element, kids: Element[], ignore?: string): Element[] {
  const old = [...parent.children];
  const bare = (e: Element): Node => {
    if (!ignore || !e.querySelector(ignore)) return e;
    const c = e.cloneNode(true) as Element;
    c.querySelectorAll(ignore).forEach((x) => x.remove());
    return c;
  };
  return kids.map((k, i) => (old[i] && old[i].tagName === k.tagName && bare(old[i]).isEqualNode(bare(k)) ? old[i] : k));
}

export const SVGNS = "http://www.w3.org/2000/svg";
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number | undefined> = {}, ...kids: (Node | null | undefined)[]): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) e.setAttribute(k, String(v));
  for (const k of kids) if (k) e.append(k);
  return e;
}

export function load<T>(key: string, fallback: T): T {
  try {
    const t = localStorage.getItem(key);
    return t === null ? fallback : (JSON.parse(t) as T);
  } catch {
    return fallback;
  }
}
export function save(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage full or off: the page still works, a reload may lose an unacknowledged turn */
  }
}

// "{p0}" ... "{p4}" in a game's text stand for the players' names.
export function names(text: string, players: { name: string }[]): string {
  return text.replace(/\{p(\d)\}/g, (m, d) => players[Number(d)]?.name ?? m);
}

// A refused request: the server's words, its status, its code (docs/server-protocol.md, "Errors
// and limits") and when to try again (Retry-After, seconds).
export class HttpError extends Error {
  constructor(message: string, readonly status: number, readonly code?: string, readonly retryAfter?: number) { super(message); }
}

export async function getJSON<T>(url: string, init?: RequestInit): Promise<T> {
  const r = await fetch(url, init);
  const t = await r.text();
  let body: any;
  try {
    body = JSON.parse(t);
  } catch {
    throw new Error(`${url}: ${r.status} ${t.slice(0, 200)}`);
  }
  // a refusal the client words itself by its code (the server's message is English), else the server's
  const words = typeof body?.code === "string" && hasMessage(`error.code.${body.code}`) ? say(`error.code.${body.code}`) : body?.message;
  if (!r.ok) throw new HttpError(words ?? `${url}: ${r.status}`, r.status, body?.code, Number(r.headers.get("Retry-After")) || undefined);
  return body as T;
}

export function fmtClock(ms: number): string {
  if (ms < 0) return "";
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
  if (s >= 3600) return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
