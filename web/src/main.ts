// The browser client of `carcassonne serve` (docs/web.md): the lobby at /, a game at /play/ID
// (?seat=N&token=T: a seat's invite link; without a token: watching), a record file at /replay,
// a game's rules at /rules/GAME.
import { GamePage } from "./game";
import { lobbyPage } from "./lobby";
import { rulesPage } from "./rules";
import { h } from "./util";
import { lang, t } from "./i18n";

async function main(): Promise<void> {
  const root = document.getElementById("app")!;
  document.documentElement.lang = lang;
  document.title = t("lobby.title");  // a game's page and the rules' set their own
  const path = location.pathname;
  try {
    const m = /^\/play\/([^/]+)$/.exec(path);
    const rules = /^\/rules\/([^/]+)$/.exec(path);
    if (m) await GamePage.open(root, decodeURIComponent(m[1]), new URLSearchParams(location.search));
    else if (rules) await rulesPage(root, decodeURIComponent(rules[1]));
    else if (path === "/replay") {
      const text = sessionStorage.getItem("carc.upload");
      if (!text) { location.href = "/"; return; }
      await GamePage.openRecord(root, JSON.parse(text));
    } else await lobbyPage(root);
  } catch (e) {
    root.replaceChildren(h("div", { class: "card message", "data-message": "", role: "alert" }, h("h2", { text: t("error.title") }), (e as Error).message, h("p", {}, h("a", { href: "/", text: t("error.back") }))));
  }
}
void main();
