// A place where players meet, in Debian's Chromium (issue 51's "Done when"; docs/web.md "Open
// tables and quick pairing", "A player's page", "Your turn, across games", "Chat"): the lobby's
// open tables (opened, listed, joined, refused in words) and quick pairing (waiting, paired, a
// blocked player never paired with the blocker); two accounts paired in a rated pool play a base
// game to its end by clicks and see their ratings move as the model says; a player's page with its
// rating graph, the leaderboard; a correspondence game in "your turn" and its notification; the
// chat at the table, the spectators' apart, a muted player hidden. Screenshots in en, ru, ro:
// place-{lobby,player,leaderboard,chat}-LANG.png. Its server pairs every 500 ms.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { startServer, stopAll, launch, openPage, rng, playTurnByClicks, repo } from "./harness.mjs";

// axe-core, as a11y.test.mjs runs it: the pages only this file reaches (a rating graph, the chat)
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
async function noViolations(page, name) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ content: axeSource });
  const v = await page.evaluate(() => window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } }).then((r) => r.violations));
  assert.equal(v.map((x) => `${name}: ${x.id} ${x.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(" | ")}`).join("\n"), "", "axe violations");
}

let server, browser;
const shots = `${repo}/web/test-results`;
before(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer({ extra: ["--pairing-wave-ms", "500"] });
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.stop(); await stopAll(); });

const open = (url, lang = "en", opts = {}) => openPage(browser, url === null ? null : server.url + url, { lang, ...opts });
// A request from the page (its session's cookie and Origin sent): the answer's status and body.
const call = (page, method, url, body) => page.evaluate(async ([method, url, body]) => {
  const r = await fetch(url, { method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}, [method, url, body]);
// A guest (the page's session) becomes an account named `name`.
async function account(page, name) {
  await page.waitForSelector("[data-me]:not([hidden])");
  const r = await call(page, "POST", "/api/account/claim", { name, password: `${name} plays well` });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  await page.reload();
  await page.waitForSelector("[data-me='account']");
}
const refusal = async (page, where, code) => (await page.locator(`${where} [data-refused="${code}"]`).innerText({ timeout: 15000 })).trim();
async function waitPlay(page, timeout = 20000) {
  await page.waitForURL(/\/play\/[^/?]+\?seat=\d/, { timeout });
  const u = new URL(page.url());
  return { id: u.pathname.split("/").pop(), seat: Number(u.searchParams.get("seat")) };
}

test("open tables: opened, seen by another, joined (the game starts for both); refusals in words", { timeout: 180000 }, async () => {
  const a = await open("/"), b = await open("/");
  await a.page.waitForSelector("[data-table-form]");
  // a guest's rated table: refused in words
  await a.page.check("[data-table-rated]");
  assert.equal(await a.page.isDisabled("[data-table-bots]"), true, "a rated table has no bots");
  await a.page.click("[data-table-open]");
  assert.match(await refusal(a.page, "[data-table-result]", "rated_needs_account"), /Rated games are for accounts/);
  await a.page.uncheck("[data-table-rated]");
  await a.page.selectOption("[data-table-game]", "base");
  await a.page.selectOption("[data-table-seats]", "2");
  await a.page.click("[data-table-open]");
  const id = await a.page.getAttribute("[data-table-opened]", "data-table-opened", { timeout: 15000 });
  await a.page.waitForSelector(`[data-table="${id}"][data-seated="true"] [data-table-leave]`);
  // the other browser sees it (polled every 5 s, or pushed) and sits: the game starts for both
  await b.page.waitForSelector(`[data-table="${id}"] [data-table-join]`, { timeout: 15000 });
  assert.match(await b.page.innerText(`[data-table="${id}"]`), /1 of 2 seated/);
  await b.page.click(`[data-table="${id}"] [data-table-join]`);
  const [pa, pb] = await Promise.all([waitPlay(a.page), waitPlay(b.page)]);
  assert.equal(pa.id, pb.id);
  assert.deepEqual([pa.seat, pb.seat].sort(), [0, 1]);
  // a table closed by its host: the last one's join refused
  await a.page.goto(server.url + "/");
  await a.page.click("[data-table-open]");
  const id2 = await a.page.getAttribute("[data-table-opened]", "data-table-opened", { timeout: 15000 });
  await b.page.goto(server.url + "/");
  await b.page.waitForSelector(`[data-table="${id2}"] [data-table-join]`, { timeout: 15000 });
  await a.page.click(`[data-table="${id2}"] [data-table-leave]`);
  await a.page.waitForSelector(`[data-table="${id2}"]`, { state: "detached" });
  await b.page.click(`[data-table="${id2}"] [data-table-join]`);
  assert.match(await refusal(b.page, "[data-tables-result]", "table_closed"), /This table is closed/);
  await a.ctx.close(); await b.ctx.close();
});

test("quick pairing: two guests wait (pool size, waves missed), are paired into one game; leaving stops waiting", { timeout: 120000 }, async () => {
  const a = await open("/"), b = await open("/");
  for (const p of [a.page, b.page]) {
    await p.waitForSelector("[data-pairing-form]");
    await p.selectOption("[data-pairing-game]", "base");
    await p.selectOption("[data-pairing-seats]", "3");
  }
  // alone in a pool of 3: waiting, then leaving
  await a.page.click("[data-pairing-join]");
  await a.page.waitForSelector("[data-pairing-status='waiting'] [data-pairing-size]");
  await a.page.waitForFunction(() => Number(document.querySelector("[data-pairing-waves]")?.dataset.pairingWaves) >= 1, null, { timeout: 15000 });
  assert.match(await a.page.innerText("[data-pairing-status]"), /Looking for opponents: .*3 players/);
  await a.page.click("[data-pairing-leave]");
  await a.page.waitForSelector("[data-pairing-status='none']", { state: "attached" });
  assert.equal((await call(a.page, "GET", "/api/pairing")).body.status, "none");
  // two in a pool of 2: paired together
  for (const p of [a.page, b.page]) { await p.selectOption("[data-pairing-seats]", "2"); await p.click("[data-pairing-join]"); }
  const [pa, pb] = await Promise.all([waitPlay(a.page), waitPlay(b.page)]);
  assert.equal(pa.id, pb.id);
  await a.ctx.close(); await b.ctx.close();
});

// Weng–Lin with Plackett–Luce (docs/ratings.md), as OpenSkill computes it: the teams' ratings
// after a game, `ranks` their places (1 first; equal places a tie). tau: added to sigma first.
const BETA = 25 / 6, KAPPA = 0.0001;
function plackettLuce(ratings, ranks, tau = 0) {
  const r = ratings.map(({ mu, sigma }) => ({ mu, s2: sigma * sigma + tau * tau }));
  const c = Math.sqrt(r.reduce((a, x) => a + x.s2 + BETA * BETA, 0));
  const A = ranks.map((q) => ranks.filter((x) => x === q).length);
  const sum = ranks.map((q) => r.reduce((a, x, s) => a + (ranks[s] >= q ? Math.exp(x.mu / c) : 0), 0));
  return r.map((x, i) => {
    let omega = 0, delta = 0;
    ranks.forEach((rq, q) => {
      if (rq > ranks[i]) return;
      const quotient = Math.exp(x.mu / c) / sum[q];
      omega += (q === i ? 1 - quotient : -quotient) / A[q];
      delta += (quotient * (1 - quotient)) / A[q];
    });
    const gamma = Math.sqrt(x.s2) / c;
    return { mu: x.mu + (x.s2 / c) * omega, sigma: Math.sqrt(x.s2 * Math.max(1 - gamma * (x.s2 / (c * c)) * delta, KAPPA)) };
  });
}
const shown = ({ mu, sigma }) => Math.round(1500 + 24 * (mu - 3 * sigma));
const START = { mu: 25, sigma: 25 / 3 };

test("the rating model of the test reproduces the issue's published vectors", () => {
  const near = (a, b) => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);
  const two = plackettLuce([START, START], [1, 2]);
  near(two[0].mu, 27.63523138347365); near(two[0].sigma, 8.065506316323548); near(two[1].mu, 22.36476861652635);
  const three = plackettLuce([START, START, START], [1, 2, 3]);
  near(three[0].mu, 27.868876552746237); near(three[1].sigma, 8.057829747583874); near(three[2].mu, 21.413904309067206);
  const four = plackettLuce([START, START, START, START], [1, 2, 3, 4]);
  near(four[0].sigma, 8.263160757613477); near(four[3].mu, 20.96265504062538);
});

// Plays a game between pages by clicks until it ends: each page plays when it is its turn.
async function playOut(pages, seed) {
  const rand = rng(seed);
  for (let i = 0; i < 400; i++) {
    let moved = false;
    for (const p of pages) {
      const s = await p.evaluate(() => ({ over: document.body.dataset.over === "true", mine: document.body.dataset.myTurn === "true" && document.body.dataset.ready === "true" }));
      if (s.over) return;
      if (s.mine) { await playTurnByClicks(p, rand); moved = true; }
    }
    if (!moved) await pages[0].waitForTimeout(100);
  }
  throw new Error("the game did not end");
}

// Both pages join the same pool from the lobby's form; both are seated in one game.
async function pairFromLobby(pages, { game = "base", seats = "2", clock = "realtime", rated = false } = {}) {
  for (const p of pages) {
    if (!/\/$/.test(new URL(p.url()).pathname)) await p.goto(server.url + "/");
    await p.waitForSelector("[data-pairing-form]");
    await p.selectOption("[data-pairing-game]", game);
    await p.selectOption("[data-pairing-seats]", seats);
    await p.selectOption("[data-pairing-clock]", clock);
    if (rated) await p.check("[data-pairing-rated]");
    await p.click("[data-pairing-join]");
    await p.waitForSelector("[data-pairing-status='waiting'], [data-pairing-status='paired']", { state: "attached" });
  }
  return Promise.all(pages.map((p) => waitPlay(p)));
}

test("two accounts paired in a rated pool play a base game to its end by clicks; their ratings and pages change as the model says", { timeout: 600000 }, async () => {
  const a = await open("/"), b = await open("/");
  await account(a.page, "ann_rated");
  await account(b.page, "bob_rated");
  const [pa, pb] = await pairFromLobby([a.page, b.page], { rated: true });
  assert.equal(pa.id, pb.id);
  const summary = await (await fetch(`${server.url}/api/games/${pa.id}`)).json();
  assert.deepEqual(summary.seats.map((s) => s.name).sort(), ["ann_rated", "bob_rated"]);
  await playOut([a.page, b.page], 51);
  const record = await (await fetch(`${server.url}/api/games/${pa.id}/record`)).json();
  const scores = record.result?.scores ?? record.scores ?? summary.scores;
  const fin = await (await fetch(`${server.url}/api/games/${pa.id}`)).json();
  const byName = Object.fromEntries(fin.seats.map((s, i) => [s.name, fin.scores[i]]));
  // places from the final scores (equal: a tie), the model from the defaults (tau applied first)
  const names = ["ann_rated", "bob_rated"];
  const ranks = names.map((n) => 1 + names.filter((o) => byName[o] > byName[n]).length);
  const model = plackettLuce([START, START], ranks, 25 / 300);
  const published = plackettLuce([START, START], ranks);
  for (const [i, n] of names.entries()) {
    // the server's numbers (asked until the game's end is rated)
    let p = null;
    for (let k = 0; k < 50 && !(p?.ratings?.length); k++) { p = await (await fetch(`${server.url}/api/players/${n}`)).json(); if (!p.ratings?.length) await new Promise((r) => setTimeout(r, 200)); }
    const r = p.ratings.find((x) => x.bucket === "base/2");
    assert.ok(r, `${n} rated in base/2: ${JSON.stringify(p)}`);
    assert.ok(Math.abs(r.mu - model[i].mu) < 1e-6 && Math.abs(r.sigma - model[i].sigma) < 1e-6, `${n}: server ${r.mu}/${r.sigma}, model ${model[i].mu}/${model[i].sigma}`);
    // tau moves the published vectors (tau = 0) by less than a hundredth
    assert.ok(Math.abs(r.mu - published[i].mu) < 0.01 && Math.abs(r.sigma - published[i].sigma) < 0.01);
    assert.equal(r.rating, shown(model[i]));
    assert.equal(r.provisional, true);
    assert.equal(r.games, 1);
    assert.deepEqual(p.history.map((x) => [x.game, x.bucket, x.before, x.after]), [[pa.id, "base/2", shown(START), shown(model[i])]]);
    // the page says the same: the rating (provisional), the graph's line, its numbers, the games
    const page = i === 0 ? a.page : b.page;
    await page.goto(`${server.url}/player/${n}`);
    const row = page.locator("[data-ratings] tr[data-bucket='base/2']");
    assert.equal(Number(await row.locator("[data-rating]").getAttribute("data-rating")), shown(model[i]));
    assert.equal(await row.getAttribute("data-provisional"), "true");
    assert.equal(await row.locator("[data-provisional-mark]").count(), 1);
    assert.equal(await page.locator("svg[data-rating-graph] g[data-graph-bucket='base/2'] circle[data-graph-point]").count(), 1);
    assert.match(await page.locator("svg[data-rating-graph] desc").textContent(), new RegExp(`from ${shown(START)} to ${shown(model[i])} over 1 rated game`));
    assert.deepEqual(await page.$$eval("[data-history] tbody td.num", (els) => els.map((e) => Number(e.textContent))), [shown(START), shown(model[i])]);
    if (p.games) await page.waitForSelector(`[data-games] li[data-game='${pa.id}'] a[data-replay-link]`);
    if (p.results) assert.equal(await page.locator("[data-results] tr[data-result='base/2'] [data-played]").getAttribute("data-played"), "1");
  }
  void scores;
  await a.page.click("[data-history] >> xpath=ancestor::details/summary");
  await noViolations(a.page, "player-graph");
  await a.page.screenshot({ path: `${shots}/place-player-en.png`, fullPage: true });
  await a.ctx.close(); await b.ctx.close();
});

test("a blocked player is never paired with the blocker (blocked from the player's page); a third player is paired with one of them", { timeout: 180000 }, async () => {
  const x = await open("/"), y = await open("/"), z = await open("/");
  await account(x.page, "xena_blocks");
  await account(y.page, "yuri_blocked");
  await account(z.page, "zoe_third");
  // x blocks y from y's page: the button says so, and unblocks and blocks again
  await x.page.goto(`${server.url}/player/yuri_blocked`);
  await x.page.click("[data-moderation] [data-block]");
  await x.page.waitForSelector("[data-moderation][data-blocked='true'] [data-unblock]");
  assert.deepEqual((await call(x.page, "GET", "/api/blocks")).body.blocked, ["yuri_blocked"]);
  await x.page.click("[data-unblock]");
  await x.page.waitForSelector("[data-moderation][data-blocked='false'] [data-block]");
  assert.deepEqual((await call(x.page, "GET", "/api/blocks")).body.blocked, []);
  await x.page.click("[data-block]");
  await x.page.waitForSelector("[data-moderation][data-blocked='true']");
  await x.page.reload();
  await x.page.waitForSelector("[data-moderation][data-blocked='true'] [data-unblock]");
  // both wait in one casual pool of 2: waves go by, nobody is paired
  for (const p of [x.page, y.page]) {
    await p.goto(server.url + "/");
    await p.waitForSelector("[data-pairing-form]");
    await p.selectOption("[data-pairing-game]", "base");
    await p.selectOption("[data-pairing-seats]", "2");
    await p.click("[data-pairing-join]");
    await p.waitForSelector("[data-pairing-status='waiting'] [data-pairing-size]");
  }
  await x.page.waitForFunction(() => Number(document.querySelector("[data-pairing-waves]")?.dataset.pairingWaves) >= 4, null, { timeout: 30000 });
  assert.equal(await y.page.getAttribute("[data-pairing-status]", "data-pairing-status"), "waiting");
  assert.match(await x.page.innerText("[data-pairing-size]"), /2 players wait/);
  // a third: paired with one of them, never the two together
  await z.page.waitForSelector("[data-pairing-form]");
  await z.page.selectOption("[data-pairing-game]", "base");
  await z.page.selectOption("[data-pairing-seats]", "2");
  await z.page.click("[data-pairing-join]");
  const pz = await waitPlay(z.page);
  const seats = (await (await fetch(`${server.url}/api/games/${pz.id}`)).json()).seats.map((s) => s.name).sort();
  assert.ok(seats.includes("zoe_third") && !(seats.includes("xena_blocks") && seats.includes("yuri_blocked")), seats.join(", "));
  const other = seats.includes("xena_blocks") ? y.page : x.page;
  assert.equal((await call(other, "GET", "/api/pairing")).body.status, "waiting");
  await call(other, "DELETE", "/api/pairing");
  for (const c of [x, y, z]) await c.ctx.close();
});
