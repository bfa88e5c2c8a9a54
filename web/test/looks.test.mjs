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
// The pictures name the Chromium that took them (screens/chromium.txt). Another version may
// smooth edges a little otherwise: then a picture fails above 2% (a moved panel, a redrawn piece
// or tile art across the board still does), and the test says so.
const LOOSE = 0.02;
const versionFile = path.join(screens, "chromium.txt");

let server, browser;
let share = SHARE;
before(async () => {
  server = await startServer(); browser = await launch(); mkdirSync(shots, { recursive: true });
  const taken = existsSync(versionFile) ? readFileSync(versionFile, "utf8").trim() : "";
  if (update) writeFileSync(versionFile, browser.version() + "\n");
  else if (taken !== browser.version()) {
    share = LOOSE;
    console.log(`# the pictures were taken with Chromium ${taken || "(unknown)"}, this is ${browser.version()}: compared with a margin of ${LOOSE * 100}% of the pixels`);
  }
});
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
      // the guest's name (drawn at random, of varying width) and the connection's state are not
      // the board's look: hidden, keeping their place
      await page.addStyleTag({ content: "[data-me], [data-conn] { visibility: hidden !important; }" });
      const png = await page.screenshot();
      const name = `${game}-${size.name}`;
      const file = path.join(screens, `${name}.png`);
      assert.deepEqual(errors, [], `${name}: no script errors`);
      if (update) {
        writeFileSync(file, png);
        console.log(`# updated ${path.relative(repo, file)}`);
      } else {
        assert.ok(existsSync(file), `${name}: no committed picture ${path.relative(repo, file)} (scripts/update-screens.sh makes it)`);
        const r = await compare(page, readFileSync(file).toString("base64"), png.toString("base64"));
        if (r.size || r.n > share * r.total) {
          writeFileSync(path.join(shots, `looks-${name}.png`), png);
          if (r.diff) writeFileSync(path.join(shots, `looks-${name}-diff.png`), Buffer.from(r.diff, "base64"));
        }
        assert.ok(!r.size, `${name}: the picture is ${r.size}`);
        assert.ok(r.n <= share * r.total, `${name}: ${r.n} of ${r.total} pixels differ (at most ${Math.floor(share * r.total)}): see web/test-results/looks-${name}-diff.png; if the change is meant, run scripts/update-screens.sh and look at the pictures`);
      }
      await ctx.close();
    }
  });
}

// The marks a player must see on the board (placement cells, piece spots, targets, the tentative
// tile's frame) keep a contrast of at least 3:1 (WCAG 1.4.11, non-text contrast) against what they
// are drawn on: a spot against every feature's colour of every game's look (the art's base colour
// under its texture), a placement cell against the board's background. A mark passes when one of
// its colours (its stroke, its fill when nearly opaque, a dark halo) does.
const MARKS = [
  { on: "tiles", html: "<g class='spot'><circle r='13'/></g>", el: "circle" },
  { on: "tiles", html: "<g class='spot second'><rect width='24' height='24'/></g>", el: "rect" },
  { on: "tiles", html: "<g class='spot target'><circle r='17'/></g>", el: "circle" },
  { on: "tiles", html: "<g class='spot overlay-target'><circle r='17'/></g>", el: "circle" },
  { on: "tiles", html: "<g class='spot point-target'><path d='M0,0 L9,0 L0,9 Z'/></g>", el: "path" },
  { on: "tiles", html: "<g class='spot quarter-target'><circle r='9'/></g>", el: "circle" },
  { on: "tiles", html: "<rect class='tentative-frame' width='100' height='100'/>", el: "rect" },
  { on: "background", html: "<rect class='fit' width='94' height='94'/>", el: "rect" },
  { on: "background", html: "<rect class='fit target' width='94' height='94'/>", el: "rect" },
  { on: "background", html: "<rect class='fit target located' width='94' height='94'/>", el: "rect" },
];
function luminance([r, g, b]) {
  const c = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
}
const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));

test("the board's marks stand out from every game's art and the board's background (3:1)", { timeout: 120000 }, async () => {
  const { page, ctx } = await openPage(browser, server.url + "/");
  const created = await (await fetch(`${server.url}/api/games`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ game: "base", seats: [{ name: "Tester" }, { bot: "random" }] }) })).json();
  await page.goto(server.url + created.seats[0].invite);
  await page.waitForSelector("[data-board] [data-tile]", { state: "attached" });
  const marks = await page.evaluate((marks) => {
    const svg = document.querySelector("[data-board]");
    const parse = (c) => { const m = /rgba?\(([^)]+)\)/.exec(c); if (!m) return null; const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number); return { rgb: p.slice(0, 3), a: p.length > 3 ? p[3] : 1 }; };
    const bg = parse(getComputedStyle(svg.closest(".board-wrap") ?? svg.parentElement).backgroundColor);
    return { bg, marks: marks.map((m) => {
      const g = document.createElementNS("http://www.w3.org/2000/svg", "g");
      g.innerHTML = m.html;
      svg.append(g);
      const el = g.querySelector(m.el), cs = getComputedStyle(el);
      const stroke = cs.stroke === "none" ? null : parse(cs.stroke), fill = cs.fill === "none" ? null : parse(cs.fill);
      // a halo (a drop shadow round the mark, on it or on its group) counts as one of its colours
      const halo = [cs.filter, getComputedStyle(el.parentElement).filter].map((f) => /drop-shadow\((rgba?\([^)]*\))/.exec(f ?? "")).filter(Boolean).map((h) => parse(h[1]));
      const colours = [stroke && stroke.a * Number(cs.strokeOpacity) > 0.8 ? stroke.rgb : null, fill && fill.a * Number(cs.fillOpacity) > 0.8 ? fill.rgb : null,
        ...halo.map((h) => (h.a > 0.8 ? h.rgb : null))].filter(Boolean);
      g.remove();  // (the computed style is live: read before)
      return { ...m, colours };
    }) };
  }, MARKS);
  const fills = [];
  for (const game of games) {
    const idx = await (await fetch(`${server.url}/api/tiles/${game}`)).json();
    for (const [name, f] of Object.entries(idx.look.features ?? {})) if (f.fill) fills.push({ what: `${game} ${name}`, rgb: hex(f.fill) });
  }
  assert.ok(fills.length >= 12, `the looks' feature colours: ${fills.length}`);
  const low = [];
  for (const m of marks.marks) {
    const under = m.on === "tiles" ? fills : [{ what: "the board's background", rgb: marks.bg.rgb }];
    for (const u of under) {
      const best = Math.max(0, ...m.colours.map((c) => contrast(c, u.rgb)));
      if (best < 3) low.push(`${m.html} on ${u.what}: ${best.toFixed(2)}`);
    }
  }
  assert.deepEqual(low, [], "marks below 3:1");
  await ctx.close();
});
