// A game's rules (GET /api/rules/GAME: its folder's rules.json, in the page's language), each
// section beside the engine's pictures of the tiles it names (GET /api/tiles/GAME). Shown at
// /rules/GAME and over the game page (the header's "Rules"), without leaving the game.
import type { RulesPage, TileIndex } from "./types";
import { getJSON, h } from "./util";
import { langPicker, setGameWords, t, withLang, word } from "./i18n";
import { meLink } from "./account";

export function rulesURL(game: string): string { return `/rules/${encodeURIComponent(game)}`; }

export async function fetchRules(game: string): Promise<RulesPage> {
  return getJSON<RulesPage>(withLang(`/api/rules/${encodeURIComponent(game)}`));
}

// The rules as an article: a list of the sections, then each section's paragraphs and tiles.
export function rulesView(page: RulesPage, tiles: TileIndex, headingId: string): HTMLElement {
  const byId = new Map(tiles.tiles.map((x) => [x.id, x]));
  const figure = (id: string) => {
    const tile = byId.get(id);
    if (!tile) return null;
    // named by what it shows, in the page's language: "tile L28: tributary, jungle"
    const kinds = [...new Set(tile.features.map((f) => word("feature", f.type)))].join(", ");
    const alt = t("rules.tile_alt", { id, features: kinds });
    return h("figure", { class: "rules-tile", "data-rules-tile": id },
      h("img", { src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(tile.svg), alt, width: 96, height: 96 }),
      h("figcaption", { text: id }));
  };
  const article = h("article", { class: "rules", "data-rules": page.game, lang: page.lang, "aria-labelledby": headingId },
    h("h1", { id: headingId, text: t("rules.title", { title: page.title }) }));
  if (!page.sections.length) {
    article.append(h("p", { class: "sub", "data-rules-none": "", text: t("rules.none") }));
    return article;
  }
  const anchor = (id: string) => `rules-${page.game}-${id}`;
  const toc = h("nav", { class: "rules-toc", "aria-label": t("rules.contents") }, h("ol", {},
    ...page.sections.map((s) => h("li", {}, h("a", { href: `#${anchor(s.id)}`, text: s.title })))));
  toc.addEventListener("click", (e) => {
    // the section scrolls into view inside an overlay too (the page's own hash would move the game page)
    const a = (e.target as HTMLElement).closest("a");
    if (!a) return;
    e.preventDefault();
    const target = article.querySelector<HTMLElement>(a.getAttribute("href")!);
    target?.scrollIntoView({ block: "start" });
    target?.querySelector<HTMLElement>("h2")?.focus();
  });
  article.append(toc);
  for (const s of page.sections) {
    const pics = s.tiles.map(figure).filter((f): f is HTMLElement => !!f);
    article.append(h("section", { class: "rules-section", "data-rules-section": s.id, id: anchor(s.id) },
      h("h2", { tabindex: -1, text: s.title }),
      h("div", { class: "rules-body" },
        h("div", { class: "rules-text" }, ...s.text.map((p) => h("p", { text: p }))),
        pics.length ? h("div", { class: "rules-tiles" }, ...pics) : null)));
  }
  return article;
}

// /rules/GAME: the rules on a page of their own.
export async function rulesPage(root: HTMLElement, game: string): Promise<void> {
  const [page, tiles] = await Promise.all([fetchRules(game), getJSON<TileIndex>(withLang(`/api/tiles/${encodeURIComponent(game)}`))]);
  setGameWords(tiles as any);
  document.title = t("rules.title", { title: page.title });
  const header = h("header", { class: "bar" },
    h("a", { href: "/", class: "home", text: t("game.lobby") }),
    h("span", { class: "title", text: page.title }), h("span", { class: "spacer" }), h("div", { class: "bar-end" }, meLink(), langPicker(h)));
  root.replaceChildren(h("div", { class: "rules-page", "data-page": "rules" }, header, h("main", { class: "rules-main" }, rulesView(page, tiles, "rules-title"))));
}

// The rules over the game page: a dialog that keeps the focus until closed (Escape, the close
// button, a click beside it), then gives it back to what had it.
export class RulesOverlay {
  private box: HTMLElement | null = null;
  private back: HTMLElement | null = null;
  private page: RulesPage | null = null;

  constructor(private game: string, private tiles: () => TileIndex, private host: HTMLElement) {}

  isOpen(): boolean { return !!this.box; }

  async open(): Promise<void> {
    if (this.box) return;
    this.back = document.activeElement as HTMLElement | null;
    const close = h("button", { type: "button", class: "rules-close", "data-rules-close": "", "aria-label": t("rules.close"), title: t("rules.close"), text: "✕" });
    const body = h("div", { class: "rules-scroll" }, h("p", { class: "sub", text: "…" }));
    const panel = h("div", { class: "rules-panel" }, close, body);
    const box = h("div", { class: "rules-overlay", "data-rules-overlay": this.game, role: "dialog", "aria-modal": "true", "aria-label": t("game.rules") }, panel);
    close.addEventListener("click", () => this.close());
    box.addEventListener("click", (e) => { if (e.target === box) this.close(); });
    box.addEventListener("keydown", (e) => {
      if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); this.close(); return; }
      if (e.key === "Tab") trapTab(e, box);
      e.stopPropagation();  // the game page's keys (r, c, arrows...) do not reach the board underneath
    });
    this.host.append(box);
    this.box = box;
    close.focus();
    try {
      this.page = this.page ?? await fetchRules(this.game);
      if (this.box !== box) return;
      body.replaceChildren(rulesView(this.page, this.tiles(), "rules-overlay-title"));
      box.removeAttribute("aria-label");
      box.setAttribute("aria-labelledby", "rules-overlay-title");
    } catch (e) {
      body.replaceChildren(h("p", { class: "message", "data-message": "", role: "alert", text: (e as Error).message }));
    }
  }

  close(): void {
    if (!this.box) return;
    this.box.remove();
    this.box = null;
    this.back?.focus?.();
  }
}

// Tab and Shift+Tab go round the dialog's own controls (from a heading that has the focus too).
export function trapTab(e: KeyboardEvent, box: HTMLElement): void {
  const list = [...box.querySelectorAll<HTMLElement>("a[href], button:not([disabled]), input, select, [tabindex]:not([tabindex='-1'])")].filter((x) => x.checkVisibility());
  if (!list.length) return;
  const at = document.activeElement;
  const inside = !!at && box.contains(at);
  const after = (x: HTMLElement) => inside && !!(at!.compareDocumentPosition(x) & Node.DOCUMENT_POSITION_FOLLOWING);
  const next = e.shiftKey ? [...list].reverse().find((x) => x !== at && !after(x)) : list.find((x) => x !== at && after(x));
  e.preventDefault();
  (next ?? (e.shiftKey ? list[list.length - 1] : list[0])).focus();
}
