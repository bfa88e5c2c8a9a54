// Screenshot comparisons: a fixed position of each game (a record in test/screens/, shown at a
// fixed step by the replay page) on a desktop and a phone, compared pixel by pixel with the
// picture committed beside it. An unintended change of the tiles' art, the pieces, the board's
// layout or the panels fails here; an intended one is taken by running
//   scripts/update-screens.sh
// (this file with UPDATE_SCREENS=1), which rewrites test/screens/*.png, to be looked at and
// committed. Motion is off (prefers-reduced-motion), so each picture is still when taken.
// A failed comparison leaves the new picture and a diff (changed pixels in magenta) in
// test-results/ (looks-GAME-SIZE.png, looks-GAME-SIZE-diff.png).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { startServer, stopAll, launch, openPage, repo } from "./harness.mjs";

const screens = path.join(repo, "web/test/screens");
const shots = path.join(repo, "web/test-results");
const update = process.env.UPDATE_SCREENS === "1";
// the step shown: the middle of a game, with pieces, scores and the game's own marks on the board
const STEP = 40;
const SIZES = [
  { name: "desktop", lang: "en", viewport: { width: 1366, height: 768 } },
  { name: "phone", lang: "ru", viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
];
// A pixel differs when a channel differs by more than CHANNEL; the picture fails when more than
// SHARE of its pixels differ (the same Chromium on another machine of the same kind draws the
// same pixels; the margin takes a stray anti-aliased edge, not a changed tile or piece).
const CHANNEL = 40, SHARE = 0.002;

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); mkdirSync(shots, { recursive: true }); });
after(async () => { await browser?.close(); await server?.stop(); await stopAll(); });

// The count of differing pixels between two PNGs (base64), and a diff picture, worked out in the
// page's canvas (no image library needed).
async function compare(page, a, b) {
  return page.evaluate(async ([a, b, channel]) => {
    const load = (d) => new Promise((res, rej) => { const i = new Image(); i.onload = () => res(i); i.onerror = rej; i.src = "data:image/png;base64," + d; });
    const [ia, ib] = await Promise.all([load(a), load(b)]);
    if (ia.width !== ib.width || ia.height !== ib.height) return { size: `${ia.width}x${ia.height} against ${ib.width}x${ib.height}` };
    const w = ia.width, h = ia.height;
    const data = (img) => { const c = document.createElement("canvas"); c.width = w; c.height = h; const x = c.getContext("2d"); x.drawImage(img, 0, 0); return x.getImageData(0, 0, w, h); };
    const da = data(ia), db = data(ib);
    const c = document.createElement("canvas"); c.width = w; c.height = h;
    const x = c.getContext("2d"), out = x.createImageData(w, h);
    let n = 0;
    for (let i = 0; i < da.data.length; i += 4) {
      const d = Math.max(Math.abs(da.data[i] - db.data[i]), Math.abs(da.data[i + 1] - db.data[i + 1]), Math.abs(da.data[i + 2] - db.data[i + 2]));
      const hit = d > channel;
      if (hit) n++;
      const g = Math.round((db.data[i] + db.data[i + 1] + db.data[i + 2]) / 3 * 0.3 + 170);
      out.data[i] = hit ? 255 : g; out.data[i + 1] = hit ? 0 : g; out.data[i + 2] = hit ? 255 : g; out.data[i + 3] = 255;
    }
    x.putImageData(out, 0, 0);
    return { n, total: w * h, diff: c.toDataURL("image/png").split(",")[1] };
  }, [a, b, CHANNEL]);
}

const games = ["base", "amazonas", "hunters", "safari"];
for (const game of games) {
  test(`the board of ${game} at step ${STEP} looks as committed, on a desktop and a phone`, { timeout: 240000 }, async () => {
    const record = JSON.parse(readFileSync(path.join(screens, `${game}.record.json`), "utf8"));
    for (const size of SIZES) {
      const { page, errors, ctx } = await openPage(browser, null, { lang: size.lang, viewport: size.viewport, hasTouch: size.hasTouch, isMobile: size.isMobile, reducedMotion: "reduce" });
      await page.goto(server.url + "/");
      await page.evaluate((r) => sessionStorage.setItem("carc.upload", JSON.stringify(r)), record);
      await page.goto(server.url + "/replay");
      await page.waitForSelector("[data-replay-bar][data-loaded]", { timeout: 60000 });
      await page.fill("[data-replay-slider]", String(STEP));
      await page.waitForSelector(`[data-replay-bar][data-loaded='${STEP}']`, { timeout: 60000 });
      await page.waitForFunction(() => [...document.querySelectorAll("[data-board] image")].every((i) => i.getAttribute("href")), null, { timeout: 30000 });
      await page.evaluate(() => document.fonts.ready);
      await page.mouse.move(0, size.viewport.height - 1);  // no hover over the board
      await page.waitForTimeout(500);  // a tile picture decoded after its load event
      // the guest's name (drawn at random) and the connection's state are not the board's look
      const png = await page.screenshot({ mask: [page.locator("[data-me]"), page.locator("[data-conn]")], maskColor: "#808080" });
      const name = `${game}-${size.name}`;
      const file = path.join(screens, `${name}.png`);
      assert.deepEqual(errors, [], `${name}: no script errors`);
      if (update) {
        writeFileSync(file, png);
        console.log(`# updated ${path.relative(repo, file)}`);
      } else {
        assert.ok(existsSync(file), `${name}: no committed picture ${path.relative(repo, file)} (scripts/update-screens.sh makes it)`);
        const r = await compare(page, readFileSync(file).toString("base64"), png.toString("base64"));
        if (r.size || r.n > SHARE * r.total) {
          writeFileSync(path.join(shots, `looks-${name}.png`), png);
          if (r.diff) writeFileSync(path.join(shots, `looks-${name}-diff.png`), Buffer.from(r.diff, "base64"));
        }
        assert.ok(!r.size, `${name}: the picture is ${r.size}`);
        assert.ok(r.n <= SHARE * r.total, `${name}: ${r.n} of ${r.total} pixels differ (at most ${Math.floor(SHARE * r.total)}): see web/test-results/looks-${name}-diff.png; if the change is meant, run scripts/update-screens.sh and look at the pictures`);
      }
      await ctx.close();
    }
  });
}
