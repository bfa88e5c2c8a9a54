// Screenshots of a game page of each game mid-game, to look at (not a test): a seat plays TURNS
// turns by clicks against `random`, then the same seat is opened on a desktop (1366×768) and a
// phone (390×844), in English and Russian, at its turn. Pictures in web/test-results/shots/
// (GAME-SIZE-LANG.png).
//   cd web && node test/shots.mjs [GAME...]      (SHOTS_TURNS=24 by default)
import { mkdirSync } from "node:fs";
import { startServer, stopAll, launch, newContext, api, rng, playTurnOnBoard, repo, gameIds } from "./harness.mjs";

const out = process.env.SHOTS_OUT ?? `${repo}/web/test-results/shots`;
mkdirSync(out, { recursive: true });
const turns = Number(process.env.SHOTS_TURNS ?? 24);
const games = process.argv.slice(2).length ? process.argv.slice(2) : gameIds().filter((g) => g !== "toy");
const only = process.env.SHOTS_SIZES?.split(",");
const sizes = [
  ["desktop", { viewport: { width: 1366, height: 768 } }],
  ["phone", { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }],
].filter(([n]) => !only || only.includes(n));
const langs = process.env.SHOTS_LANGS?.split(",") ?? ["en", "ru"];
const server = await startServer();
const browser = await launch();
try {
  for (const [i, game] of games.entries()) {
    const created = await api(server, "POST", "/api/games", { game, seats: [{ name: "Tester" }, { bot: "random" }], seed: 5100 + i });
    const url = server.url + created.seats[0].invite;
    const ctx = await newContext(browser, sizes[0][1]);
    const page = await ctx.newPage();
    await page.goto(url);
    const rand = rng(900 + i);
    for (let t = 0; t < turns && (await playTurnOnBoard(page, rand)); t++);
    await ctx.close();
    for (const [size, opts] of sizes) {
      for (const lang of langs) {
        const c = await newContext(browser, opts);
        await c.addInitScript((l) => localStorage.setItem("carc.lang", l), lang);
        const p = await c.newPage();
        await p.goto(url);
        await p.waitForFunction(() => document.body.dataset.ready === "true" || document.body.dataset.over === "true", null, { timeout: 60000 });
        await p.waitForTimeout(800);
        await p.screenshot({ path: `${out}/${game}-${size}-${lang}.png` });
        // the tiles' size on the screen, and the board's box
        const px = await p.evaluate(() => { const i = document.querySelector("[data-board] g[data-tile] image"); const b = document.querySelector("[data-board]").getBoundingClientRect(); return { tile: i ? Math.round(i.getBoundingClientRect().width) : 0, board: [Math.round(b.width), Math.round(b.height)], tiles: document.querySelectorAll("[data-tile]").length }; });
        console.log(`${out}/${game}-${size}-${lang}.png`, JSON.stringify(px));
        await c.close();
      }
    }
  }
} finally {
  await browser.close();
  await server.stop();
  await stopAll();
}
