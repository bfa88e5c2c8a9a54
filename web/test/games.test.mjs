// A whole game of each game (src/games/GAMES) against `random`, by clicks alone, in Debian's
// Chromium; the final scores the page shows must be the server's record's. Also measures, in the
// browser, the time from a click on confirm to the updated board, and page load to an interactive
// board.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, mkdirSync } from "node:fs";
import { startServer, stopAll, launch, api, rng, playTurnByClicks, repo, clickStats, gameIds } from "./harness.mjs";

let server, browser;
const metrics = { confirm_to_board_ms: [], interactive_ms: [] };
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => {
  await browser?.close();
  await server?.stop();
  await stopAll();
  const c = metrics.confirm_to_board_ms.sort((a, b) => a - b);
  const pct = (p) => c.length ? c[Math.min(c.length - 1, Math.floor(p * c.length))] : null;
  const out = { confirm_to_board_ms: { n: c.length, p50: pct(0.5), p90: pct(0.9), max: c[c.length - 1] ?? null }, interactive_ms: metrics.interactive_ms, clicks: clickStats };
  mkdirSync(`${repo}/web/test-results`, { recursive: true });
  writeFileSync(`${repo}/web/test-results/metrics.json`, JSON.stringify(out, null, 1) + "\n");
  console.log("browser metrics:", JSON.stringify(out));
});

for (const [i, game] of gameIds().entries()) {
  test(`a whole ${game} game against random, by clicks`, { timeout: 600000 }, async () => {
    const created = await api(server, "POST", "/api/games", { game, seats: [{ name: "Tester" }, { bot: "random" }], seed: 1000 + i });
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(server.url + created.seats[0].invite);
    const rand = rng(77 + i);
    let turns = 0;
    while (await playTurnByClicks(page, rand)) {
      turns++;
      if (turns === 12) await page.screenshot({ path: `${repo}/web/test-results/${game}-desktop.png` });
    }
    assert.ok(turns > 5, `played ${turns} turns`);
    const rec = await api(server, "GET", `/api/games/${created.id}/record`);
    assert.equal(rec.status, "finished");
    await page.waitForSelector("[data-panel='final'] [data-final-score]");
    const shown = await page.$$eval("[data-final-score]", (els) => els.map((e) => Number(e.getAttribute("data-final-score"))));
    assert.deepEqual(shown, rec.final_scores);
    const seatScores = await page.$$eval("[data-panel='scores'] [data-score]", (els) => els.map((e) => Number(e.getAttribute("data-score"))));
    assert.deepEqual(seatScores, rec.final_scores);
    await page.screenshot({ path: `${repo}/web/test-results/${game}-end.png` });
    const m = await page.evaluate(() => window.carc);
    metrics.confirm_to_board_ms.push(...m.confirmToBoardMs);
    metrics.interactive_ms.push(Math.round(m.interactiveMs));
    assert.deepEqual(errors, []);
    await ctx.close();
  });
}
