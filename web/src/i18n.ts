// The client's own words in English, Russian and Romanian (docs/i18n.md): messages from
// messages.json, chosen by the page's `?lang=` or the language picker (remembered), else the
// browser's language. The game's words come from the server in the same language (hello's and the
// API's `lang`). `xx` is the pseudo-locale (never in the picker): every message's English altered
// by pseudo(), as the server alters its own, so that any word on screen not from a message shows.
import catalog from "./messages.json";

export type Lang = "en" | "ru" | "ro" | "xx";
// the picker's languages (not xx)
export const LANGS: { code: Lang; name: string }[] = [
  { code: "en", name: "English" }, { code: "ru", name: "Русский" }, { code: "ro", name: "Română" }];

type Entry = { en: string; ru?: string; ro?: string; note?: string };
const messages = catalog as Record<string, Entry>;

function parseLang(tag: string | null | undefined): Lang | null {
  const t = (tag ?? "").toLowerCase().split(/[-_.@]/)[0];
  return t === "en" || t === "ru" || t === "ro" || t === "xx" ? t : null;
}

function chooseLang(): Lang {
  try {
    // the page's ?lang= (how xx is opened: docs/web.md), remembered as the picker's choice
    const asked = parseLang(new URLSearchParams(location.search).get("lang"));
    if (asked) {
      localStorage.setItem("carc.lang", asked);
      return asked;
    }
    const saved = parseLang(localStorage.getItem("carc.lang"));
    if (saved) return saved;
  } catch { /* storage off */ }
  for (const l of navigator.languages ?? [navigator.language]) {
    const p = parseLang(l);
    if (p) return p;
  }
  return "en";
}

export const lang: Lang = chooseLang();

export function setLang(l: Lang): void {
  try {
    localStorage.setItem("carc.lang", l);
  } catch { /* storage off: the choice lasts this page */ }
  const u = new URL(location.href);
  u.searchParams.delete("lang");  // the page's ?lang= would win over the choice
  location.replace(u.href);
}

// Numbers in the page's language; xx's are English's.
export const locale: string = lang === "xx" ? "en" : lang;

// CLDR plural rules: English one|other, Russian one|few|many, Romanian one|few|other.
export function pluralIndex(l: Lang, n: number): number {
  const a = Math.abs(Math.trunc(n));
  if (l === "en" || l === "xx") return a === 1 ? 0 : 1;
  if (l === "ru") {
    if (a % 10 === 1 && a % 100 !== 11) return 0;
    if (a % 10 >= 2 && a % 10 <= 4 && (a % 100 < 12 || a % 100 > 14)) return 1;
    return 2;
  }
  if (a === 1) return 0;
  if (a === 0 || (a % 100 >= 1 && a % 100 <= 19)) return 1;
  return 2;
}

// The pseudo-locale's letters for a-z and A-Z (i18n::pseudo, src/core/i18n.cpp).
const PSEUDO_LOWER = [..."áƀçđéƒĝĥíĵķĺɱñóþǫŕšţúṽŵẋýž"], PSEUDO_UPPER = [..."ÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŢÚṼŴẊÝŽ"];
function pseudoLetter(c: string): string | undefined {
  const k = c.charCodeAt(0);
  if (k >= 97 && k <= 122) return PSEUDO_LOWER[k - 97];
  if (k >= 65 && k <= 90) return PSEUDO_UPPER[k - 65];
  return undefined;
}

// An English text in the pseudo-locale, exactly as the server's i18n::pseudo: ASCII letters
// accented; {name} kept, a plural's forms altered ('#' kept); what stands in ASCII double quotes
// kept; a text of 3 letters or more bracketed and lengthened by a third ("Turn {turn}" ->
// "[Ţúŕñ {turn} ~~]", the tildes in runs of 10), a trailing space or line break staying last.
export function pseudo(text: string): string {
  let out = "", letters = 0, quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    if (c === "{" && !quoted) {
      const e = text.indexOf("}", i);
      if (e < 0) { out += text.slice(i); break; }
      const inner = text.slice(i, e + 1), bar = inner.indexOf("|");
      out += bar < 0 ? inner : inner.slice(0, bar);
      if (bar >= 0) for (const f of inner.slice(bar)) { const p = pseudoLetter(f); out += p ?? f; if (p) letters++; }
      i = e;
      continue;
    }
    const p = quoted ? undefined : pseudoLetter(c);
    if (p) letters++;
    out += p ?? c;
  }
  if (letters < 3) return out;  // a mark or a symbol: altered, not lengthened
  const end = out.replace(/[ \n]+$/, "").length;
  let pad = "";
  for (let k = 0; k < Math.floor((letters + 2) / 3); k++) pad += k > 0 && k % 10 === 0 ? " ~" : "~";
  return `[${out.slice(0, end)} ${pad}]${out.slice(end)}`;
}
const pseudoTexts = new Map<string, string>();

// A message in the chosen language (English where it has none): {name} and {name|form|...}.
export function t(id: string, params: Record<string, string | number> = {}): string {
  const e = messages[id];
  if (!e) return `[${id}]`;
  let l: Lang = lang, text: string;
  if (l === "xx") {
    text = pseudoTexts.get(id) ?? pseudo(e.en);
    pseudoTexts.set(id, text);
  } else {
    if (!e[l]) l = "en";
    text = e[l as "en" | "ru" | "ro"] ?? e.en;
  }
  return text.replace(/\{([a-z0-9_]+)((?:\|[^|}]*)*)\}/g, (m, name: string, forms: string) => {
    if (!(name in params)) return m;
    const v = params[name];
    if (!forms) return String(v);
    const list = forms.slice(1).split("|");
    return list[Math.min(pluralIndex(l, Number(v)), list.length - 1)].replace(/#/g, String(v));
  });
}

// Whether the client has a message of that id (a server's error code worded: "error.code.CODE").
export function hasMessage(id: string): boolean { return id in messages; }

// The picker: a labelled select that reloads the page in the chosen language.
export function langPicker(h: (tag: "select", attrs: Record<string, string>) => HTMLSelectElement): HTMLSelectElement {
  const sel = h("select", { "data-lang": "", "aria-label": t("lang.picker") });
  for (const l of LANGS) {
    const o = document.createElement("option");
    o.value = l.code;
    o.textContent = l.name;
    o.lang = l.code;
    sel.append(o);
  }
  sel.value = lang;
  sel.addEventListener("change", () => setLang(sel.value as Lang));
  return sel;
}

// The API's URL with the language: "/api/tiles/base" -> "/api/tiles/base?lang=ru".
export function withLang(url: string): string {
  return `${url}${url.includes("?") ? "&" : "?"}lang=${lang}`;
}

// The game's words for its identifiers, from the tile catalog (in the page's language): feature
// types and pieces. An identifier without a word is shown as it is.
const gameWords = new Map<string, string>();
export function setGameWords(tiles: { feature_types?: { name: string; word?: string }[]; piece_words?: Record<string, string>; source_words?: Record<string, string> }): void {
  for (const f of tiles.feature_types ?? []) if (f.word) gameWords.set(`feature:${f.name}`, f.word);
  for (const [k, w] of Object.entries(tiles.piece_words ?? {})) gameWords.set(`piece:${k}`, w);
  // the scoring sources that are not feature types (a game's special effects and own events)
  for (const [k, w] of Object.entries(tiles.source_words ?? {})) gameWords.set(`source:${k}`, w);
}
export function word(kind: "feature" | "piece" | "source", id: string): string {
  return gameWords.get(`${kind}:${id}`) ?? id;
}
export function hasWord(kind: "feature" | "piece" | "source", id: string): boolean { return gameWords.has(`${kind}:${id}`); }
