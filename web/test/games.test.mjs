// A whole game of each game (src/games/GAMES) against `random`, by clicks on the board's targets
// alone (the "all options" list stays folded), in Debian's Chromium; the final scores the page
// shows must be the server's record's. Then a whole game of each by keys alone. Also measures, in
// the browser, the time from a click on confirm to the updated board, page load to an interactive
// board, and the most option buttons one decision shows (at most a dozen).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, mkdirSync } from "node:fs";
import { startServer, stopAll, launch, newContext, api, rng, playTurnOnBoard, repo, clickStats, gameIds, clickFree, waitReady } from "./harness.mjs";

let server, browser;
const shots = `${repo}/web/test-results`;
const metrics = { confirm_to_board_ms: [], interactive_ms: [], max_buttons_per_decision: {}, by_keys: {} };
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => {
  await browser?.close();
  await server?.stop();
  await stopAll();
  const c = metrics.confirm_to_board_ms.sort((a, b) => a - b);
  const pct = (p) => c.length ? c[Math.min(c.length - 1, Math.floor(p * c.length))] : null;
  const out = { confirm_to_board_ms: { n: c.length, p50: pct(0.5), p90: pct(0.9), max: c[c.length - 1] ?? null }, interactive_ms: metrics.interactive_ms, clicks: clickStats,
    max_buttons_per_decision: metrics.max_buttons_per_decision, by_keys: metrics.by_keys };
  mkdirSync(shots, { recursive: true });
  writeFileSync(`${shots}/metrics.json`, JSON.stringify(out, null, 1) + "\n");
  console.log("browser metrics:", JSON.stringify(out));
});

// screenshots of the decisions the issue names, once each: a Safari piece decision with jeeps and
// watering-hole points (then a point selected), an Amazonas turn with its boats' track (and a double
// tile's menu when one comes)
function shooter(game, size) {
  const done = new Set();
  const shoot = async (page) => {
    const has = (sel) => page.locator(sel).count();
    if (game === "safari" && !done.has("piece") && (await has("[data-target-point]")) && (await has("[data-target-overlay]")) && !(await has("[data-board] .selected"))) {
      done.add("piece");
      await page.screenshot({ path: `${shots}/safari-piece-${size}.png` });
      await clickFree(page.locator("[data-target-point]").first());
      await waitReady(page);
      if (await has("[data-target-quarter]")) { await clickFree(page.locator("[data-target-quarter]").first()); await waitReady(page); }
      await page.screenshot({ path: `${shots}/safari-point-menu-${size}.png` });
    }
    if (game === "safari" && !done.has("jeep") && done.has("piece") && (await has("[data-target-overlay]")) && !(await has("[data-board] .selected"))) {
      done.add("jeep");
      await clickFree(page.locator("[data-target-overlay]").first());
      await waitReady(page);
      await page.screenshot({ path: `${shots}/safari-jeep-${size}.png` });
    }
    if (game === "amazonas" && !done.has("double") && (await has("[data-menu]"))) {
      done.add("double");
      await page.screenshot({ path: `${shots}/amazonas-double-${size}.png` });
    }
    if (game === "amazonas" && !done.has("turn") && Number(await page.evaluate(() => document.querySelectorAll("[data-tile]").length)) > 14 && (await has("[data-spot]"))) {
      done.add("turn");
      await page.screenshot({ path: `${shots}/amazonas-turn-${size}.png` });
    }
  };
  shoot.done = done;  // the shots taken
  return shoot;
}

async function wholeGame(game, i, { keys }) {
  const created = await api(server, "POST", "/api/games", { game, seats: [{ name: "Tester" }, { bot: "random" }], seed: 1000 + i + (keys ? 50 : 0) });
  const ctx = await newContext(browser, { viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(server.url + created.seats[0].invite);
  const rand = rng(77 + i);
  const stats = {};
  const onStep = keys ? null : shooter(game, "desktop");
  let turns = 0;
  const t0 = Date.now();
  while (await playTurnOnBoard(page, rand, { keys, stats, onStep })) {
    turns++;
    if (turns === 12 && !keys) await page.screenshot({ path: `${shots}/${game}-desktop.png` });
  }
  assert.ok(turns > 5, `played ${turns} turns`);
  const rec = await api(server, "GET", `/api/games/${created.id}/record`);
  assert.equal(rec.status, "finished");
  await page.waitForSelector("[data-panel='final'] [data-final-score]");
  const shown = await page.$$eval("[data-final-score]", (els) => els.map((e) => Number(e.getAttribute("data-final-score"))));
  assert.deepEqual(shown, rec.final_scores);
  const seatScores = await page.$$eval("[data-panel='scores'] [data-score]", (els) => els.map((e) => Number(e.getAttribute("data-score"))));
  assert.deepEqual(seatScores, rec.final_scores);
  assert.ok(stats.maxButtons <= 12, `a decision showed ${stats.maxButtons} option buttons`);
  if (!keys) {
    await page.screenshot({ path: `${shots}/${game}-end.png` });
    const m = await page.evaluate(() => window.carc);
    metrics.confirm_to_board_ms.push(...m.confirmToBoardMs);
    metrics.interactive_ms.push(Math.round(m.interactiveMs));
  }
  metrics.max_buttons_per_decision[game] = Math.max(metrics.max_buttons_per_decision[game] ?? 0, stats.maxButtons);
  if (keys) metrics.by_keys[game] = { turns, keys: stats.keys, tabbed: stats.tabbed ?? 0, seconds: Math.round((Date.now() - t0) / 1000) };
  assert.deepEqual(errors, []);
  await ctx.close();
}

for (const [i, game] of gameIds().entries()) {
  test(`a whole ${game} game against random, by clicks on the board's targets`, { timeout: 600000 }, () => wholeGame(game, i, { keys: false }));
}
for (const [i, game] of gameIds().entries()) {
  test(`a whole ${game} game against random, by keys alone`, { timeout: 600000 }, () => wholeGame(game, i, { keys: true }));
}

test("phone size: a Safari piece decision and an Amazonas turn on the board", { timeout: 300000 }, async () => {
  for (const [game, seed] of [["safari", 4001], ["amazonas", 4002]]) {
    const created = await api(server, "POST", "/api/games", { game, seats: [{ name: "Tester" }, { bot: "random" }], seed });
    const ctx = await newContext(browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    const page = await ctx.newPage();
    await page.goto(server.url + created.seats[0].invite);
    const rand = rng(seed);
    const onStep = shooter(game, "phone");
    // until every shot this game can give is taken (a double tile's menu may never come: then 25 turns)
    const all = { safari: ["piece", "jeep"], amazonas: ["double", "turn"] }[game];
    let t = 0;
    while (t < 25 && !all.every((k) => onStep.done.has(k)) && (await playTurnOnBoard(page, rand, { onStep }))) t++;
    console.log(`phone ${game}: ${t} turns, shots ${[...onStep.done].join(" ")}`);
    await ctx.close();
  }
});

// A game's table fits its panel: Safari's tokens (five species beside each seat) were cut at the
// panel's edge ("zeb"); a table too wide sets its headings upright and every column shows, on a
// desktop and on a phone (panels unfolded), in English, Russian and Romanian. A place a panel
// names by its coordinates is framed on the board while hovered or focused. The species' columns
// are headed by the look's pictures of their tokens.
test("a game's table fits its panel: Safari's tokens, every species shown; a panel's cells framed on hover", { timeout: 300000 }, async () => {
  const created = await api(server, "POST", "/api/games", { game: "safari", seats: [{ name: "Tester" }, { bot: "random" }, { bot: "random" }], seed: 4003 });
  for (const lang of ["en", "ru", "ro"]) {
    for (const [size, opts] of [["desktop", { viewport: { width: 1280, height: 800 } }], ["phone", { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }]]) {
      const ctx = await newContext(browser, { ...opts, locale: lang });
      const page = await ctx.newPage();
      await page.goto(server.url + `/play/${created.id}`);
      await page.waitForSelector("[data-panel^='game:'] table.ptable th", { state: "attached" });
      if (size === "phone") { await page.click("[data-toggle-panels]"); await page.waitForTimeout(400); }
      const tables = await page.$$eval("[data-panel^='game:'] .scroll-x", (els) => els.map((e) => ({ panel: e.closest("[data-panel]").dataset.panel, scroll: e.scrollWidth, client: e.clientWidth, heads: [...e.querySelectorAll("th")].map((th) => { const r = th.getBoundingClientRect(), b = e.getBoundingClientRect(); return r.right <= b.right + 1 && r.left >= b.left - 1; }) })));
      assert.ok(tables.length >= 1, "a game panel with a table");
      for (const tb of tables) assert.ok(tb.scroll <= tb.client + 1 && tb.heads.every(Boolean), `${lang} ${size}: ${tb.panel}'s table fits: ${JSON.stringify(tb)}`);
      // the tokens held are shown as the look's pictures (its hand glyphs), not as words or letters:
      // a picture heads each species' column, its word for screen readers
      const heads = await page.$$eval("[data-panel='game:tokens'] th.pic-head", (els) => els.map((e) => ({ pic: !!e.querySelector("svg.pic path, svg.pic circle, svg.pic g"), word: e.querySelector(".sr-only")?.textContent ?? "" })));
      assert.equal(heads.length, 5, `${lang} ${size}: five species' pictures head the tokens' columns`);
      assert.ok(heads.every((x) => x.pic && x.word), JSON.stringify(heads));
      await page.locator("[data-panel^='game:'] .scroll-x").first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/safari-tokens-${size}-${lang}.png` });
      if (size === "desktop") {
        // a place a panel names by its coordinates (the jeeps' cells) is framed on the board while hovered or focused
        const jeep = await page.$eval("[data-overlay^='jeep']", (e) => `${e.dataset.x},${e.dataset.y}`);
        const ref = page.locator(`[data-panel^='game:'] [data-panel-cell='${jeep}']`).first();
        await ref.hover();
        await page.waitForSelector(`[data-board] [data-log-hover='${jeep}']`);
        await page.screenshot({ path: `${shots}/safari-cell-ref-${lang}.png` });
        await page.mouse.move(10, 400);
        await page.waitForSelector("[data-board] [data-log-hover]", { state: "detached" });
        await ref.focus();
        await page.waitForSelector(`[data-board] [data-log-hover='${jeep}']`);
      }
      await ctx.close();
    }
  }
});
