// The client's own words in English, Russian and Romanian (docs/i18n.md): messages from
// messages.json, chosen by the language picker (remembered), else the browser's language. The
// game's words come from the server in the same language (hello's and the API's `lang`).
import catalog from "./messages.json";

export type Lang = "en" | "ru" | "ro";
export const LANGS: { code: Lang; name: string }[] = [
  { code: "en", name: "English" }, { code: "ru", name: "Русский" }, { code: "ro", name: "Română" }];

type Entry = { en: string; ru?: string; ro?: string; note?: string };
const messages = catalog as Record<string, Entry>;

function parseLang(tag: string | null | undefined): Lang | null {
  const t = (tag ?? "").toLowerCase().split(/[-_.@]/)[0];
  return t === "en" || t === "ru" || t === "ro" ? t : null;
}

function chooseLang(): Lang {
  try {
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
  location.reload();
}

// CLDR plural rules: English one|other, Russian one|few|many, Romanian one|few|other.
export function pluralIndex(l: Lang, n: number): number {
  const a = Math.abs(Math.trunc(n));
  if (l === "en") return a === 1 ? 0 : 1;
  if (l === "ru") {
    if (a % 10 === 1 && a % 100 !== 11) return 0;
    if (a % 10 >= 2 && a % 10 <= 4 && (a % 100 < 12 || a % 100 > 14)) return 1;
    return 2;
  }
  if (a === 1) return 0;
  if (a === 0 || (a % 100 >= 1 && a % 100 <= 19)) return 1;
  return 2;
}

// A message in the chosen language (English where it has none): {name} and {name|form|...}.
export function t(id: string, params: Record<string, string | number> = {}): string {
  const e = messages[id];
  if (!e) return `[${id}]`;
  const l: Lang = e[lang] ? lang : "en";
  const text = e[l] ?? e.en;
  return text.replace(/\{([a-z0-9_]+)((?:\|[^|}]*)*)\}/g, (m, name: string, forms: string) => {
    if (!(name in params)) return m;
    const v = params[name];
    if (!forms) return String(v);
    const list = forms.slice(1).split("|");
    return list[Math.min(pluralIndex(l, Number(v)), list.length - 1)].replace(/#/g, String(v));
  });
}

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
