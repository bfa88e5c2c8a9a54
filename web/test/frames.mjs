// Frames while the board animates (not a test: a measurement to read, docs/web.md "Motion"): the
// replay of a whole base game (test/screens/base.record.json, 72 tiles at its end) stepped turn by
// turn over its last turns, each step's motion (the tile settling, its piece, the points flying)
// watched by requestAnimationFrame: the intervals between frames, how many were over 25 ms (a
// dropped frame at 60 Hz is over 16.7 ms; 25 ms leaves room for a loaded machine's timer), and the
// longest; `afterDrawn`: the same from 100 ms after each step's position was drawn (the frames of
// the animations alone, not the redraw's). Then the same with prefers-reduced-motion: no
// animation at all.
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
    const all = [], anim = [];
    let running = 0, maxAnims = 0, tiles = 0;
    for (let step = from + 1; step <= steps; step++) {
      await page.evaluate(() => {
        // each frame's interval and when it began; when the step's position was drawn
        window.__f = []; window.__drawn = 0; let last = performance.now();
        const bar = document.querySelector("[data-replay-bar]");
        new MutationObserver((ms, o) => { window.__drawn = performance.now(); o.disconnect(); }).observe(bar, { attributes: true, attributeFilter: ["data-loaded"] });
        const tick = (t) => { window.__f.push([last, t - last]); last = t; if (window.__f.length < 200) window.__fid = requestAnimationFrame(tick); };
        window.__fid = requestAnimationFrame(tick);
      });
      await page.click("[data-replay-next]");
      await page.waitForSelector(`[data-replay-bar][data-loaded='${step}']`);
      const n = await page.evaluate(() => document.getAnimations().length);
      maxAnims = Math.max(maxAnims, n);
      if (n) running++;
      await page.waitForTimeout(1600);  // the turn's motion: 260 ms tile, 220 ms piece, about 1.2 s points
      const f = await page.evaluate(() => { cancelAnimationFrame(window.__fid); return { f: window.__f.slice(1), drawn: window.__drawn }; });
      all.push(...f.f.map((x) => x[1]));
      // the frames while only the animations run: from 100 ms after the position was drawn
      anim.push(...f.f.filter((x) => x[0] > f.drawn + 100).map((x) => x[1]));
      tiles = await page.evaluate(() => document.querySelectorAll("[data-tile]").length);
    }
    const counts = await page.evaluate(() => window.carcMotion);
    all.sort((a, b) => a - b);
    result[motion] = { steps: steps - from, tiles, frames: all.length, over25ms: all.filter((x) => x > 25).length, over50ms: all.filter((x) => x > 50).length,
      p50: +all[Math.floor(all.length / 2)]?.toFixed(1), max: +all[all.length - 1]?.toFixed(1),
      afterDrawn: { frames: anim.length, over25ms: anim.filter((x) => x > 25).length, max: +Math.max(0, ...anim).toFixed(1) }, stepsWithAnimations: running, maxAnimations: maxAnims, motion: counts };
    await ctx.close();
  }
} finally {
  await browser.close();
  await server.stop();
  await stopAll();
}
console.log(JSON.stringify(result));
