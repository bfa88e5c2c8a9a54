// Ad-hoc (not a test): the pictures a person looks at before calling the board done (issue 52's
// "Done when"). For each game, a game against the greedy bot played by clicks, seen at once by four
// browsers at its seat (desktop 1366×768 and phone 390×844, English and Russian): each takes the
// first turn, the middle of the game and the final panel; the desktop English one also the middle
// through a deuteranopia simulation (Chromium's own). Pictures go to the folder given (default
// web/test-results/shots).
//   cd web && node test/_shots.mjs [FOLDER] [GAME...]      (SHOTS_JPEG=1: JPEG pictures, quality 80)
import { mkdirSync } from "node:fs";
import path from "node:path";
import { startServer, stopAll, launch, newContext, api, rng, playTurnOnBoard, repo, gameIds } from "./harness.mjs";

const out = process.argv[2] ?? path.join(repo, "web/test-results/shots");
const only = process.argv.slice(3);
mkdirSync(out, { recursive: true });
const jpeg = process.env.SHOTS_JPEG === "1", ext = jpeg ? "jpg" : "png", kind = jpeg ? { type: "jpeg", quality: 80 } : {};
const server = await startServer();
const browser = await launch();
const VIEWS = [
  { size: "desktop", lang: "en", opts: { viewport: { width: 1366, height: 768 } } },
  { size: "desktop", lang: "ru", opts: { viewport: { width: 1366, height: 768 } } },
  { size: "phone", lang: "en", opts: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 } },
  { size: "phone", lang: "ru", opts: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 } },
];
try {
  for (const [i, game] of gameIds().entries()) {
    if (only.length ? !only.includes(game) : game.startsWith("toy")) continue;
    const created = await api(server, "POST", "/api/games", { game, seats: [{ name: "Tester" }, { bot: "greedy" }], seed: 5200 + i });
    const pages = [];
    for (const v of VIEWS) {
      const ctx = await newContext(browser, v.opts);
      await ctx.addInitScript((l) => localStorage.setItem("carc.lang", l), v.lang);
      const page = await ctx.newPage();
      await page.goto(server.url + created.seats[0].invite);
      pages.push({ ...v, ctx, page });
    }
    const shoot = async (when) => {
      for (const p of pages) {
        await p.page.waitForSelector("[data-board] [data-tile]", { state: "attached" });
        await p.page.waitForTimeout(1500);  // the last move's motion ends
        await p.page.screenshot({ path: `${out}/${game}-${p.size}-${p.lang}-${when}.${ext}`, ...kind });
      }
    };
    const main = pages[0].page;
    await main.waitForSelector("[data-board] [data-tile]", { state: "attached" });
    await shoot("turn1");
    const rand = rng(52 + i);
    const total = (await api(server, "GET", `/api/games/${created.id}`)).tiles_left ?? 70;
    let turns = 0, mid = false;
    while (await playTurnOnBoard(main, rand, { timeout: 120000 })) {
      turns++;
      const tiles = Number(await main.evaluate(() => document.querySelector("[data-board]")?.getAttribute("data-tiles") ?? 0));
      if (!mid && (turns === 18 || (tiles >= total / 2 && turns > 10))) {
        mid = true;
        await shoot("mid");
        const cdp = await pages[0].ctx.newCDPSession(main);
        await cdp.send("Emulation.setEmulatedVisionDeficiency", { type: "deuteranopia" });
        await main.screenshot({ path: `${out}/${game}-desktop-en-mid-deuteranopia.${ext}`, ...kind });
        await cdp.send("Emulation.setEmulatedVisionDeficiency", { type: "none" });
      }
    }
    await main.waitForSelector("[data-panel='final'] [data-final-score]");
    await shoot("final");
    for (const p of pages) await p.ctx.close();
    console.log(`${game}: pictures in ${out}`);
  }
} finally {
  await browser.close();
  await server.stop();
  await stopAll();
}
