// Accessibility in Debian's Chromium (docs/web.md, "Accessibility"): axe-core (npm, dev only) run
// inside the page finds no violation of WCAG 2.0/2.1 A and AA nor of its best practices on the
// lobby (and its "Your games"), the account pages, a game page of each game in the catalog (a placement decision, a piece decision, a board
// menu where one comes, the keys' list and the settings), the final panel after a resignation (and
// a rematch offered), and the replay (the game page's and an uploaded record's). At 200% zoom
// (1280x800 at 200% = 640x400 CSS px) Confirm shows without scrolling at a placement and a piece
// decision and a tile is placed by a click on the board; on a phone the header shows the game's
// whole title. Counts per page in web/test-results/a11y.json.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { startServer, stopAll, launch, api, rng, playTurnByClicks, waitReady, repo, clickFree } from "./harness.mjs";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const axeVersion = JSON.parse(readFileSync(require.resolve("axe-core/package.json"), "utf8")).version;
// WCAG 2.0 and 2.1, levels A and AA, and axe's best practices: all of them must find nothing
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

let server, browser, catalog;
const shots = `${repo}/web/test-results`;
const pages = {};  // page name -> { rules, nodes, ids, incomplete }
const zoom = {};
before(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer();
  browser = await launch();
  catalog = await api(server, "GET", "/api/catalog");
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await stopAll();
  const out = { axe: axeVersion, tags: TAGS, pages, zoom };
  mkdirSync(shots, { recursive: true });
  writeFileSync(`${shots}/a11y.json`, JSON.stringify(out, null, 1) + "\n");
  const brief = Object.fromEntries(Object.entries(pages).map(([k, v]) => [k, v.rules]));
  console.log(`a11y: ${JSON.stringify({ violations: brief, zoom })}`);
});

async function open(url, opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...opts });
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("dialog", (d) => void d.accept());
  await page.goto(url);
  return { ctx, page, errors };
}

// Runs axe on the whole document and records the result under `name`; the violations, each with
// its impact, node count and first targets, come back as one string ("" when there are none).
async function axe(page, name) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ content: axeSource });
  const r = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations", "incomplete"] }), TAGS);
  const v = r.violations;
  // the text whose contrast axe cannot decide alone (over an image, partly covered): counted here,
  // and looked at by hand (docs/web.md, "Accessibility")
  const unsure = r.incomplete.find((x) => x.id === "color-contrast")?.nodes ?? [];
  pages[name] = { rules: v.length, nodes: v.reduce((n, x) => n + x.nodes.length, 0), ids: Object.fromEntries(v.map((x) => [x.id, x.nodes.length])),
    contrast_unsure: unsure.map((n) => n.target.join(" ")) };
  return v.map((x) => `${name}: ${x.id} (${x.impact}) ${x.nodes.length} node(s): ${x.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(" | ")}\n    ${x.nodes[0]?.failureSummary?.replace(/\n/g, " ")}`).join("\n");
}
async function noViolations(page, name) {
  const found = await axe(page, name);
  assert.equal(found, "", `axe violations:\n${found}`);
}

test("the lobby: no axe violations, before and after creating a game", { timeout: 120000 }, async () => {
  const { ctx, page, errors } = await open(server.url + "/");
  await page.waitForSelector("[data-quick]");
  await page.waitForSelector("[data-watch-games] input[data-upload]");
  await page.screenshot({ path: `${shots}/a11y-lobby.png`, fullPage: true });
  const found = [await axe(page, "lobby")];
  // a game for two people: the invite links to copy, then the lobby again with "your games"
  await page.selectOption("[data-seat-kind='1']", "person");
  await page.click("[data-create]");
  await page.waitForSelector("input[data-invite]");
  found.push(await axe(page, "lobby-created"));
  await page.reload();
  await page.waitForSelector("[data-my-game]");
  found.push(await axe(page, "lobby-my-games"));
  // in Russian: the longest words
  await page.selectOption("select[data-lang]", "ru");
  await page.waitForFunction(() => document.documentElement.lang === "ru");
  await page.waitForSelector("[data-my-game]");
  found.push(await axe(page, "lobby-ru"));
  assert.equal(found.filter(Boolean).join("\n"), "", "axe violations");
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("the account pages and the lobby's \"Your games\": no axe violations", { timeout: 120000 }, async () => {
  const { ctx, page, errors } = await open(server.url + "/");
  const found = [];
  const send = async (form, values) => {
    for (const [k, v] of Object.entries(values)) await page.fill(`${form} [data-field="${k}"]`, v);
    await page.click(`${form} [data-submit]`);
  };
  await page.click("[data-quick='base']");
  await page.waitForSelector("[data-conn='online']");
  await page.goto(server.url + "/account");
  await page.waitForSelector("[data-claim-form]");
  found.push(await axe(page, "account-guest"));
  // refusals next to their fields, a password shown
  await send("[data-claim-form]", { name: "9x", password: "a long enough secret" });
  await page.waitForSelector("[data-claim-form] [data-error='username_chars']");
  await send("[data-login-form]", { name: "nobody", password: "not the password" });
  await page.waitForSelector("[data-login-form] [data-error='bad_login']");
  await page.click("[data-claim-form] [data-show-password]");
  found.push(await axe(page, "account-refused"));
  await send("[data-claim-form]", { name: "axe", password: "a long enough secret" });
  await page.waitForSelector("[data-codes] [data-code]");
  found.push(await axe(page, "account-codes"));
  await page.check("[data-codes-kept]");
  await page.click("[data-codes-done]");
  await page.waitForSelector("[data-sessions] [data-session]");
  // a second session to end
  const other = await open(server.url + "/account");
  await other.page.waitForSelector("[data-login-form]");
  await other.page.fill("[data-login-form] [data-field='name']", "axe");
  await other.page.fill("[data-login-form] [data-field='password']", "a long enough secret");
  await other.page.click("[data-login-form] [data-submit]");
  await other.page.waitForSelector("[data-sessions] [data-session]");
  await other.ctx.close();
  await page.reload();
  await page.waitForSelector("[data-session-end]");
  await send("[data-password-form]", { current: "not the password", password: "x" });
  await page.waitForSelector("[data-password-form] [data-error='password_short']");
  found.push(await axe(page, "account"));
  await page.goto(server.url + "/");
  await page.waitForSelector("[data-account-game]");
  found.push(await axe(page, "lobby-account-games"));
  await page.goto(server.url + "/account/recover");
  await page.waitForSelector("[data-recover-form]");
  found.push(await axe(page, "account-recover"));
  await page.goto(server.url + "/account/reset#" + "A".repeat(43));
  await page.waitForSelector("[data-reset-form]");
  found.push(await axe(page, "account-reset"));
  assert.equal(found.filter(Boolean).join("\n"), "", "axe violations");
  assert.deepEqual(errors, []);
  await ctx.close();
});

// A place where players meet (issue 51): the lobby with an open table, a refusal and a player
// waiting in a pool.
test("open tables and quick pairing in the lobby: no axe violations", { timeout: 120000 }, async () => {
  const { ctx, page, errors } = await open(server.url + "/");
  const found = [];
  await page.waitForSelector("[data-table-form]");
  await page.check("[data-table-rated]");
  await page.click("[data-table-open]");
  await page.waitForSelector("[data-table-result] [data-refused]");
  await page.uncheck("[data-table-rated]");
  await page.check("[data-table-range]");
  await page.click("[data-table-open]");
  await page.waitForSelector("[data-table][data-seated='true']", { timeout: 15000 });
  await page.click("[data-pairing-join]");
  await page.waitForSelector("[data-pairing-status='waiting'] [data-pairing-size]");
  found.push(await axe(page, "lobby-place"));
  await page.click("[data-pairing-leave]");
  assert.equal(found.filter(Boolean).join("\n"), "", "axe violations");
  assert.deepEqual(errors, []);
  await ctx.close();
});

// A player's page (another's: Block and Report, its form open; a refusal) and the leaderboards.
test("a player's page and the leaderboards: no axe violations", { timeout: 120000 }, async () => {
  const { ctx, page, errors } = await open(server.url + "/");
  const found = [];
  await page.waitForSelector("[data-me]:not([hidden])");
  const claim = (p, name) => p.evaluate(async (name) => (await fetch("/api/account/claim", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name, password: "a long enough secret" }) })).status, name);
  assert.equal(await claim(page, "axe_viewer"), 200);
  const other = await open(server.url + "/");
  await other.page.waitForSelector("[data-me]:not([hidden])");
  assert.equal(await claim(other.page, "axe_viewed"), 200);
  await other.ctx.close();
  await page.goto(server.url + "/player/axe_viewed");
  await page.waitForSelector("[data-moderation] [data-block]");
  await page.click("[data-moderation] [data-block]");
  await page.waitForSelector("[data-moderation] [data-unblock]");
  await page.click("[data-moderation] [data-report]");
  await page.waitForSelector("[data-report-form]:not([hidden])");
  found.push(await axe(page, "player"));
  await page.goto(server.url + "/player/nobody_here");
  await page.waitForSelector("[data-refused]");
  found.push(await axe(page, "player-unknown"));
  await page.goto(server.url + "/leaderboard");
  await page.waitForSelector("[data-leaderboard-box][data-loaded]");
  found.push(await axe(page, "leaderboard"));
  assert.equal(found.filter(Boolean).join("\n"), "", "axe violations");
  assert.deepEqual(errors, []);
  await ctx.close();
});

// The decision shown now: "place" with placement cells and no tile laid yet, "piece" with options
// after the placement, else null.
async function decision(page) {
  return page.evaluate(() => {
    if (document.body.dataset.ready !== "true") return null;
    if (document.querySelector("[data-cell]") && !document.querySelector("[data-tentative]")) return "place";
    return document.querySelector("[data-all-options], [data-options]") ? "piece" : null;
  });
}

// Plays by clicks until a placement and a piece decision (and a board menu, when the game has one)
// have been checked, at most `turns` turns. `at(kind)` checks the page at each first one.
async function walk(page, rand, turns, at) {
  const seen = new Set();
  for (let turn = 0; turn < turns && !(seen.has("place") && seen.has("piece")); turn++) {
    await page.waitForFunction(() => document.body.dataset.ready === "true" || document.body.dataset.over === "true", null, { timeout: 60000 });
    if (await page.evaluate(() => document.body.dataset.over === "true")) break;
    if (!seen.has("place") && (await decision(page)) === "place") { seen.add("place"); await at("place"); }
    const cells = page.locator("[data-cell]");
    const n = await cells.count();
    if (n === 0 || (await page.locator("[data-tentative]").count())) { await playTurnByClicks(page, rand); continue; }
    await clickFree(cells.nth(Math.floor(rand() * n)));
    await waitReady(page);
    if (!seen.has("piece") && (await decision(page)) === "piece") {
      seen.add("piece");
      await at("piece");
      // a target that opens a menu on the board (a grid point, a cell of several options)
      const opener = page.locator("[data-target-point], [data-target-menu], [data-target-cell][data-count]:not([data-count='1'])");
      if (await opener.count()) {
        await clickFree(opener.first());
        await waitReady(page);
        if (await page.locator("[data-target-quarter]").count()) { await clickFree(page.locator("[data-target-quarter]").first()); await waitReady(page); }
        if (await page.locator("[data-menu]").count()) await at("menu");
      }
    }
    await playTurnByClicks(page, rand);
  }
  return seen;
}

test("a game page of each game: no axe violations at a placement and a piece decision", { timeout: 600000 }, async (t) => {
  for (const [i, g] of catalog.games.entries()) {
    await t.test(g.id, async () => {
      const created = await api(server, "POST", "/api/games", { game: g.id, seats: [{ name: "Ann" }, { bot: "random" }], seed: 300 + i });
      const { ctx, page, errors } = await open(server.url + created.seats[0].invite);
      await page.waitForSelector("[data-conn='online']");
      const found = [];
      const seen = await walk(page, rng(300 + i), 12, async (kind) => {
        found.push(await axe(page, `${g.id}-${kind}`));
        if (kind === "place" && i === 0) {
          // the keys' list and the settings, once
          await page.click("[data-keys]");
          await page.waitForSelector("[data-keys-help]");
          found.push(await axe(page, "keys-help"));
          await page.click("[data-keys-close]");
          await page.click("[data-settings] summary");
          found.push(await axe(page, "settings"));
          await page.click("[data-settings] summary");
        }
      });
      assert.ok(seen.has("place"), "a placement decision was checked");
      assert.ok(seen.has("piece"), `a piece decision was checked (${[...seen]})`);
      assert.equal(found.filter(Boolean).join("\n"), "", "axe violations");
      assert.deepEqual(errors, []);
      await ctx.close();
    });
  }
});

test("the final panel after a resignation, a rematch offered, and the replays: no axe violations", { timeout: 240000 }, async () => {
  const g = await api(server, "POST", "/api/games", { game: "base", seats: [{ name: "Ann" }, { name: "Bob" }], seed: 21 });
  const a = await open(server.url + g.seats[0].invite);
  const b = await open(server.url + g.seats[1].invite);
  // a few turns each, so that the replay has something to show
  const ra = rng(21), rb = rng(22);
  for (let turn = 0; turn < 3; turn++) {
    await playTurnByClicks(a.page, ra);
    await playTurnByClicks(b.page, rb);
  }
  await waitReady(a.page);
  await a.page.click("[data-resign]");
  const found = [];
  for (const [x, name] of [[a, "final-resigned"], [b, "final-winner"]]) {
    await x.page.waitForSelector("[data-panel='final'][data-end-reason='resign'] [data-final-score]");
    await x.page.waitForTimeout(1200);  // the end's scoring, step by step
    found.push(await axe(x.page, name));
  }
  // on a phone: the panels unfold over the board
  const phone = await open(server.url + g.seats[1].invite, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await phone.page.waitForSelector("[data-panel='final'] [data-final-score]");
  await phone.page.waitForTimeout(1200);
  found.push(await axe(phone.page, "final-phone"));
  await phone.ctx.close();
  // the game page's replay, at its middle
  await a.page.click("[data-final-replay]");
  await a.page.waitForSelector("[data-replay-bar][data-loaded]");
  await a.page.click("[data-replay-prev]");
  await a.page.click("[data-replay-prev]");
  await a.page.waitForFunction(() => document.querySelector("[data-replay-bar]").dataset.loaded === document.querySelector("[data-replay-step]").dataset.replayStep);
  found.push(await axe(a.page, "replay"));
  // a record file (/replay), as the lobby's upload opens it
  const record = await api(server, "GET", `/api/games/${g.id}/record`);
  await b.page.evaluate((r) => sessionStorage.setItem("carc.upload", JSON.stringify(r)), record);
  await b.page.goto(server.url + "/replay");
  await b.page.waitForSelector("[data-replay-bar][data-loaded]");
  found.push(await axe(b.page, "replay-file"));
  // the rematch offered to the other seat
  const c = await open(server.url + g.seats[0].invite);
  await c.page.waitForSelector("[data-rematch]");
  const asked = await api(server, "POST", `/api/games/${g.id}/rematch`, { token: new URL(g.seats[1].invite, server.url).searchParams.get("token") });
  await c.page.waitForSelector(`[data-rematch-offer='${asked.id}']`);
  found.push(await axe(c.page, "final-rematch-offer"));
  assert.equal(found.filter(Boolean).join("\n"), "", "axe violations");
  for (const x of [a, b, c]) { assert.deepEqual(x.errors, []); await x.ctx.close(); }
});

// Where Confirm is: inside the viewport, the topmost element at its centre, the page not scrolled.
async function confirmShows(page) {
  return page.evaluate(() => {
    const el = document.querySelector("[data-confirm]");
    if (!el) return { ok: false, why: "no confirm" };
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const se = document.scrollingElement;
    const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    const board = document.querySelector("[data-board]").getBoundingClientRect();
    return { ok: inside && hit === el && se.scrollTop === 0 && se.scrollHeight <= innerHeight, rect: [r.left, r.top, r.right, r.bottom].map(Math.round),
      viewport: [innerWidth, innerHeight], scrolled: se.scrollTop, pageHeight: se.scrollHeight, topmost: hit === el, board: [Math.round(board.width), Math.round(board.height)] };
  });
}

test("200% zoom: Confirm shows without scrolling and a tile is placed by a click on the board, in each game", { timeout: 600000 }, async (t) => {
  for (const [i, g] of catalog.games.entries()) {
    await t.test(g.id, async () => {
      const created = await api(server, "POST", "/api/games", { game: g.id, seats: [{ name: "Ann" }, { bot: "random" }], seed: 500 + i });
      // 1280x800 at 200%: 640x400 CSS pixels, two device pixels each
      const { ctx, page, errors } = await open(server.url + created.seats[0].invite, { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 });
      await page.waitForSelector("[data-conn='online']");
      const res = {};
      const seen = await walk(page, rng(500 + i), 12, async (kind) => {
        if (kind === "menu") return;
        const c = await confirmShows(page);
        res[kind] = c;
        assert.ok(c.ok, `${kind}: Confirm is not shown whole without scrolling: ${JSON.stringify(c)}`);
        assert.ok(c.board[0] >= 200 && c.board[1] >= 120, `${kind}: the board is ${c.board} px`);
        if (i === 0) await page.screenshot({ path: `${shots}/a11y-zoom200-${kind}.png` });
        if (kind === "place") {
          // the board is usable: a click on a target places the tile there
          const cell = page.locator("[data-cell]").first();
          const key = await cell.getAttribute("data-cell");
          await clickFree(cell);
          await page.waitForSelector(`[data-tentative='${key}']`);
          await waitReady(page);
          const c2 = await confirmShows(page);
          assert.ok(c2.ok, `after placing: Confirm is not shown whole: ${JSON.stringify(c2)}`);
          await page.click("[data-takeback]");
          await waitReady(page);
        }
        if (kind === "piece" && (await page.locator("[data-all-options]").count())) {
          // every option unfolded: the turn bar scrolls, and Confirm stays at its foot
          await page.click("[data-all-options] > summary");
          const c3 = await confirmShows(page);
          if (i === 0) await page.screenshot({ path: `${shots}/a11y-zoom200-all-options.png` });
          res.all_options = c3;
          assert.ok(c3.ok, `all options open: Confirm is not shown whole: ${JSON.stringify(c3)}`);
          await page.click("[data-all-options] > summary");
        }
      });
      assert.ok(seen.has("place"));
      assert.ok(seen.has("piece"), `a piece decision was reached (${[...seen]})`);
      zoom[g.id] = Object.fromEntries(Object.entries(res).map(([k, v]) => [k, { confirm: v.rect, board: v.board }]));
      assert.deepEqual(errors, []);
      await ctx.close();
    });
  }
});

test("a phone's header shows the game's whole title; so does the 200% zoom's", { timeout: 180000 }, async () => {
  const titles = {};
  const longest = catalog.games.reduce((a, b) => (b.title.length > a.title.length ? b : a)).id;
  // every game in English; in Russian, the game with the longest title there
  const ru = (await api(server, "GET", "/api/catalog?lang=ru")).games;
  const longestRu = ru.reduce((a, b) => (b.title.length > a.title.length ? b : a)).id;
  for (const [lang, g] of [...catalog.games.map((g) => ["en", g]), ["ru", catalog.games.find((x) => x.id === longestRu)]]) {
    const created = await api(server, "POST", "/api/games", { game: g.id, seats: [{ name: "Ann" }, { bot: "random" }], seed: 7 });
    for (const [size, opts] of [["phone", { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }], ["zoom200", { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 }]]) {
      const ctx = await browser.newContext(opts);
      await ctx.addInitScript((l) => localStorage.setItem("carc.lang", l), lang);
      const page = await ctx.newPage();
      await page.goto(server.url + created.seats[0].invite);
      await page.waitForSelector("[data-conn='online']");
      await waitReady(page);
      const m = await page.evaluate(() => {
        const el = document.querySelector(".bar .title");
        const bar = document.querySelector(".bar").getBoundingClientRect();
        return { text: el.textContent, scroll: el.scrollWidth, client: el.clientWidth, barRight: Math.round(bar.right), pageWidth: document.scrollingElement.scrollWidth, vw: innerWidth };
      });
      titles[`${g.id}-${size}-${lang}`] = m;
      assert.ok(m.scroll <= m.client, `${g.id} ${size}: the title "${m.text}" is cut (${m.scroll} > ${m.client} px)`);
      assert.ok(m.pageWidth <= m.vw, `${g.id} ${size}: the page is ${m.pageWidth} px wide in ${m.vw}`);
      // the header and what is under it
      if (g.id === longest || g.id === catalog.games[0].id) await page.screenshot({ path: `${shots}/a11y-header-${size}-${g.id}-${lang}.png`, clip: { x: 0, y: 0, width: m.vw, height: 160 } });
      await ctx.close();
    }
  }
  zoom.header = Object.fromEntries(Object.entries(titles).map(([k, v]) => [k, `${v.scroll}/${v.client}`]));
});
