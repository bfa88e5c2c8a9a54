// Frames while the board animates (not a test: a measurement to read, docs/web.md "Motion"): the
// replay of a whole base game (test/screens/base.record.json, 72 tiles at its end) stepped turn by
// turn over its last turns, each step's motion (the tile settling, its piece, the points flying)
// watched by requestAnimationFrame: the intervals between frames, how many were over 25 ms (a
// dropped frame at 60 Hz is over 16.7 ms; 25 ms leaves room for a loaded machine's timer), and the
// longest. Then the same with prefers-reduced-motion: no animation at all.
//   cd web && node test/frames.mjs        (prints one JSON line; FRAMES_FROM=60 by default)
import { readFileSync } from "node:fs";
import { startServer, stopAll, launch, openPage, repo } from "./harness.mjs";

const record = JSON.parse(readFileSync(`${repo}/web/test/screens/base.record.json`, "utf8"));
const steps = record.moves.length;
const from = Number(process.env.FRAMES_FROM ?? steps - 10);
const server = await startServer();
const browser = await launch();
const result = {};
try {
  for (const motion of ["no-preference", "reduce"]) {
    const { page, ctx } = await openPage(browser, null, { viewport: { width: 1366, height: 768 }, reducedMotion: motion });
    await page.goto(server.url + "/");
    await page.evaluate((r) => sessionStorage.setItem("carc.upload", JSON.stringify(r)), record);
    await page.goto(server.url + "/replay");
    await page.waitForSelector("[data-replay-bar][data-loaded]", { timeout: 60000 });
    await page.fill("[data-replay-slider]", String(from));
    await page.waitForSelector(`[data-replay-bar][data-loaded='${from}']`);
    await page.waitForTimeout(1500);
    const all = [];
    let running = 0, maxAnims = 0, tiles = 0;
    for (let step = from + 1; step <= steps; step++) {
      await page.evaluate(() => {
        window.__f = []; let last = performance.now();
        const tick = (t) => { window.__f.push(t - last); last = t; if (window.__f.length < 200) window.__fid = requestAnimationFrame(tick); };
        window.__fid = requestAnimationFrame(tick);
      });
      await page.click("[data-replay-next]");
      await page.waitForSelector(`[data-replay-bar][data-loaded='${step}']`);
      const n = await page.evaluate(() => document.getAnimations().length);
      maxAnims = Math.max(maxAnims, n);
      if (n) running++;
      await page.waitForTimeout(1600);  // the turn's motion: 260 ms tile, 220 ms piece, about 1.2 s points
      const f = await page.evaluate(() => { cancelAnimationFrame(window.__fid); return window.__f.slice(1); });
      all.push(...f);
      tiles = await page.evaluate(() => document.querySelectorAll("[data-tile]").length);
    }
    const counts = await page.evaluate(() => window.carcMotion);
    all.sort((a, b) => a - b);
    result[motion] = { steps: steps - from, tiles, frames: all.length, over25ms: all.filter((x) => x > 25).length, over50ms: all.filter((x) => x > 50).length,
      p50: +all[Math.floor(all.length / 2)]?.toFixed(1), max: +all[all.length - 1]?.toFixed(1), stepsWithAnimations: running, maxAnimations: maxAnims, motion: counts };
    await ctx.close();
  }
} finally {
  await browser.close();
  await server.stop();
  await stopAll();
}
console.log(JSON.stringify(result));
