// The browser client of `carcassonne serve` (docs/web.md): the lobby at /, a game at /play/ID
// (?seat=N&token=T: a seat's invite link; without a token: watching), a record file at /replay,
// a game's rules at /rules/GAME, the player's account at /account (and /account/recover,
// /account/reset#TOKEN). Every page asks for the session first (account.ts: a guest on the first
// visit) and names the player in its header.
import { GamePage } from "./game";
import { lobbyPage } from "./lobby";
import { rulesPage } from "./rules";
import { h } from "./util";
import { lang, t } from "./i18n";
import { accountPage, recoverPage, resetPage, session } from "./account";
import { leaderboardPage, playerPage } from "./player";
import { startTurns } from "./turns";
import { getJSON } from "./util";

async function main(): Promise<void> {
  const root = document.getElementById("app")!;
  document.documentElement.lang = lang;
  document.title = t("lobby.title");  // a game's page and the rules' set their own
  const path = location.pathname;
  void session();
  startTurns();  // every page: the header's badge of games waiting for the player's move
  try {
    const m = /^\/play\/([^/]+)$/.exec(path);
    const rules = /^\/rules\/([^/]+)$/.exec(path);
    const player = /^\/player\/([^/]+)$/.exec(path);
    if (m) await GamePage.open(root, decodeURIComponent(m[1]), new URLSearchParams(location.search));
    else if (rules) await rulesPage(root, decodeURIComponent(rules[1]));
    else if (player) await playerPage(root, decodeURIComponent(player[1]));
    else if (path === "/leaderboard") await leaderboardPage(root);
    else if (path === "/account") await accountPage(root);
    else if (path === "/account/recover") await recoverPage(root);
    else if (path === "/account/reset") await resetPage(root);
    else if (path === "/replay") {
      // a server's game (/replay?game=ID: a player's page links its games so), else an uploaded record
      const id = new URLSearchParams(location.search).get("game");
      if (id) { await GamePage.openRecord(root, await getJSON<any>(`/api/games/${encodeURIComponent(id)}/record`), id); return; }
      const text = sessionStorage.getItem("carc.upload");
      if (!text) { location.href = "/"; return; }
      await GamePage.openRecord(root, JSON.parse(text));
    } else await lobbyPage(root);
  } catch (e) {
    root.replaceChildren(h("div", { class: "card message", "data-message": "", role: "alert" }, h("h2", { text: t("error.title") }), (e as Error).message, h("p", {}, h("a", { href: "/", text: t("error.back") }))));
  }
}
void main();
