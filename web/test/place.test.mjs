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
async function waitPlay(page, timeout = 20000, not = null) {
  await page.waitForURL((u) => /\/play\/[^/?]+$/.test(u.pathname) && /^\d+$/.test(u.searchParams.get("seat") ?? "") && u.pathname.split("/").pop() !== not, { timeout });
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
  // the host, who did not fill the table, learns its game from GET /api/tables/ID (its `play`)
  const asked = [];
  a.page.on("request", (r) => { if (r.method() === "GET" && new URL(r.url()).pathname === `/api/tables/${id}`) asked.push(r.url()); });
  await b.page.click(`[data-table="${id}"] [data-table-join]`);
  const [pa, pb] = await Promise.all([waitPlay(a.page), waitPlay(b.page)]);
  assert.equal(pa.id, pb.id);
  assert.deepEqual([pa.seat, pb.seat].sort(), [0, 1]);
  assert.ok(asked.length >= 1, "the host's page asked GET /api/tables/ID");
  assert.equal(pa.seat, 0, "the host sits first");
  await a.page.waitForSelector("body[data-seat='0']");
  // guests at a table whose host did not let guests write: refused in words
  await a.page.waitForSelector("[data-chat-form]");
  await a.page.fill("[data-chat-input]", "hello");
  await a.page.click("[data-chat-send]");
  assert.match(await refusal(a.page, "[data-chat-result]", "chat_guest"), /Guests cannot write in a game with strangers/);
  // a host opens at most 3 tables at once: the fourth refused in words; a table its host leaves
  // goes from the other's list
  await a.page.goto(server.url + "/");
  const ids = [];
  for (let i = 0; i < 3; i++) {
    await a.page.click("[data-table-open]");
    await a.page.waitForFunction((n) => document.querySelectorAll("[data-table-opened]").length === 1 && document.querySelectorAll("[data-tables] li[data-seated='true']").length === n, i + 1, { timeout: 15000 });
    ids.push(await a.page.getAttribute("[data-table-opened]", "data-table-opened"));
  }
  await a.page.click("[data-table-open]");
  assert.match(await refusal(a.page, "[data-table-result]", "too_many_tables"), /You host 3 open tables already/);
  await b.page.goto(server.url + "/");
  await b.page.waitForSelector(`[data-table="${ids[0]}"] [data-table-join]`, { timeout: 15000 });
  for (const id of ids) {
    await a.page.click(`[data-table="${id}"] [data-table-leave]`);
    await a.page.waitForSelector(`[data-table="${id}"]`, { state: "detached" });
  }
  await b.page.waitForSelector(`[data-table="${ids[0]}"]`, { state: "detached", timeout: 15000 });
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
  // the pools' counts come with the lobby's socket (pushed within its batch of a second)
  const feed = await b.page.getAttribute("[data-tables-section]", "data-feed");
  console.log(`# lobby feed: ${feed}`);
  if (feed === "socket") {
    await b.page.waitForSelector("[data-pools]:not([hidden]) li[data-pool='base/3/realtime/casual'][data-waiting='1']", { timeout: 10000 });
    assert.match(await b.page.innerText("li[data-pool='base/3/realtime/casual']"), /Carcassonne, 3 players, live: 10 min \+ 10 s a move, casual: 1 waiting/);
  }
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
    // waiting, or paired at once (the pool now full pairs without waiting for a wave: the page goes to its game)
    const lobby = p.waitForSelector("[data-pairing-status='waiting'], [data-pairing-status='paired']", { state: "attached" });
    const play = p.waitForURL(/\/play\//);
    lobby.catch(() => {});
    play.catch(() => {});
    await Promise.race([lobby, play]);
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

test("a guest plays a casual game from quick pairing and keeps it after claiming an account", { timeout: 240000 }, async () => {
  const c = await open("/"), d = await open("/");
  const [pc, pd] = await pairFromLobby([c.page, d.page]);
  assert.equal(pc.id, pd.id);
  const rand = rng(7);
  // two turns each, then the other resigns
  for (let turns = 0; turns < 4;) {
    for (const p of [c.page, d.page]) {
      if (await p.evaluate(() => document.body.dataset.myTurn === "true" && document.body.dataset.ready === "true")) { await playTurnByClicks(p, rand); turns++; }
    }
    await c.page.waitForTimeout(100);
  }
  await d.page.click("[data-resign]");
  await c.page.waitForSelector("[data-panel='final'][data-end-reason='resign']", { timeout: 30000 });
  // claimed: the game is the account's (its "Your games", its page)
  await c.page.goto(server.url + "/account");
  await c.page.fill("[data-claim-form] [data-field='name']", "cleo_guest");
  await c.page.fill("[data-claim-form] [data-field='password']", "cleo keeps her games");
  await c.page.click("[data-claim-form] [data-submit]");
  await c.page.check("[data-codes-kept]");
  await c.page.click("[data-codes-done]");
  await c.page.waitForSelector("[data-me='account']");
  await c.page.goto(server.url + "/");
  await c.page.waitForSelector(`[data-account-games] [data-account-game='${pc.id}']:not([data-status='active'])`);
  const mine = (await call(c.page, "GET", "/api/me/games")).body.games.map((g) => g.id);
  assert.ok(mine.includes(pc.id));
  const profile = (await call(c.page, "GET", "/api/players/cleo_guest")).body;
  assert.deepEqual(profile.ratings, [], "a casual game is not rated");
  if (profile.games) {
    assert.ok(profile.games.some((g) => g.id === pc.id && g.rated === false), JSON.stringify(profile.games));
    await c.page.goto(server.url + "/player/cleo_guest");
    await c.page.waitForSelector(`[data-games] li[data-game='${pc.id}'] a[data-replay-link]`);
    // its replay, from the player's page
    await c.page.click(`[data-games] li[data-game='${pc.id}'] a[data-replay-link]`);
    await c.page.waitForSelector("[data-replay-bar]:not([hidden])");
  }
  await c.ctx.close(); await d.ctx.close();
});

test("a paired game: seats link to their players' pages; one resigns, the lobby forgets the pairing; a rematch asked and accepted without tokens seats both", { timeout: 240000 }, async () => {
  const a = await open("/", "ru"), b = await open("/", "ro");
  await account(a.page, "rita_rematch");
  await account(b.page, "sam_rematch");
  const [pa, pb] = await pairFromLobby([a.page, b.page]);
  assert.equal(pa.id, pb.id);
  const url = { [pa.seat]: a.page.url(), [pb.seat]: b.page.url() };
  for (const u of Object.values(url)) assert.ok(!/token=/.test(u), u);
  // each seat's name links to its player's page (GET /api/games/ID's `account`), for a spectator too
  const s = await open(`/play/${pa.id}`);
  for (const p of [a.page, b.page, s.page]) {
    for (const n of ["rita_rematch", "sam_rematch"]) {
      const link = p.locator(`[data-panel='scores'] a[data-player-link='${n}']`);
      await link.waitFor();
      assert.equal(await link.getAttribute("href"), `/player/${n}`);
      assert.equal(await link.innerText(), n);
    }
  }
  // a link focused by the keyboard keeps the focus while the clocks redraw the seats
  await s.page.waitForSelector("body[data-phase]");
  await s.page.focus("[data-panel='scores'] a[data-player-link='sam_rematch']");
  const clock = await s.page.getAttribute("[data-panel='scores'] tr.to-move [data-clock]", "data-clock");
  await s.page.waitForFunction((c) => document.querySelector("[data-panel='scores'] tr.to-move [data-clock]")?.getAttribute("data-clock") !== c, clock);
  assert.equal(await s.page.evaluate(() => document.activeElement?.getAttribute("data-player-link")), "sam_rematch");
  await s.page.keyboard.press("Enter");
  await s.page.waitForURL(/\/player\/sam_rematch$/);
  await s.page.goto(`${server.url}/play/${pa.id}`);
  // while it goes on, the lobby (another tab) links to it; over, the pairing is forgotten
  const lobby = await a.ctx.newPage();
  await lobby.goto(server.url + "/");
  await lobby.waitForSelector(`[data-pairing-status='paired'] a[data-pairing-play='${pa.id}']`);
  await a.page.click("[data-resign]");
  for (const p of [a.page, b.page, s.page]) await p.waitForSelector("[data-panel='final'][data-end-reason='resign']", { timeout: 30000 });
  await lobby.reload();
  await lobby.waitForSelector("[data-pairing-form]:not([hidden])");
  assert.equal((await call(lobby, "GET", "/api/pairing")).body.status, "none");
  // (the status is empty until the server's first answer)
  await lobby.waitForSelector("[data-pairing-status='none']", { state: "attached" });
  assert.equal(await lobby.locator("[data-pairing-play]").count(), 0);
  await lobby.close();
  // the final panel links the seats too
  for (const n of ["rita_rematch", "sam_rematch"]) await b.page.waitForSelector(`[data-panel='final'] [data-final-seat] a[data-player-link='${n}']`);
  await noViolations(b.page, "final-links");
  // rita asks for the rematch (no token: her seat and the session): her page opens her seat of it
  await a.page.click("[data-rematch]");
  const ra = await waitPlay(a.page, 20000, pa.id);
  assert.notEqual(ra.id, pa.id);
  assert.equal(ra.seat, pa.seat);
  assert.ok(!/token=/.test(a.page.url()), a.page.url());
  await a.page.waitForSelector(`body[data-seat='${pa.seat}']`);
  // sam is asked, accepts, and is seated in it as his own seat; the spectator may follow
  await b.page.waitForSelector(`[data-rematch-offer='${ra.id}'] [data-rematch-accept]`);
  await s.page.waitForSelector(`a[data-rematch-watch='${ra.id}']`);
  await b.page.screenshot({ path: `${shots}/place-rematch-ro.png` });
  await s.page.screenshot({ path: `${shots}/place-rematch-en.png` });
  await b.page.click("[data-rematch-accept]");
  const rb = await waitPlay(b.page, 20000, pa.id);
  assert.equal(rb.id, ra.id);
  assert.equal(rb.seat, pb.seat);
  assert.ok(!/token=/.test(b.page.url()), b.page.url());
  await b.page.waitForSelector(`body[data-seat='${pb.seat}']`);
  // the rematch's seats are the same players' (linked again), and neither page was refused
  for (const p of [a.page, b.page]) {
    await p.waitForSelector("[data-panel='scores'] a[data-player-link='sam_rematch']");
    assert.equal(await p.locator("[data-refused='not_your_seat']").count(), 0);
  }
  await a.page.screenshot({ path: `${shots}/place-rematch-ru.png` });
  for (const c of [a, b, s]) await c.ctx.close();
});

// A context whose pages may notify (permission granted, the setting on) and that records every
// Notification the page constructs (window.__notes).
async function notifying(lang = "en") {
  const c = await open(null, lang);
  await c.ctx.grantPermissions(["notifications"], { origin: server.url });
  await c.ctx.addInitScript(() => {
    const s = JSON.parse(localStorage.getItem("carc.settings") || "{}");
    localStorage.setItem("carc.settings", JSON.stringify({ ...s, notify: true }));
    const Real = window.Notification;
    window.__notes = [];
    window.Notification = class extends Real {
      constructor(title, opts) { window.__notes.push({ title, body: opts?.body, tag: opts?.tag }); super(title, opts); }
    };
  });
  return c;
}

test("your turn: a correspondence game shows in the badge and the lobby's list and notifies; a reminder under 12 hours, once", { timeout: 240000 }, async () => {
  const e = await notifying(), f = await notifying();
  for (const c of [e, f]) { await c.page.goto(server.url + "/"); await c.page.waitForSelector("[data-me]:not([hidden])"); }
  for (const c of [e, f]) assert.equal((await call(c.page, "POST", "/api/pairing", { game: "base", seats: 2, clock: "days" })).status, 200);
  const paired = async (p) => { for (;;) { const r = (await call(p, "GET", "/api/pairing")).body; if (r.status === "paired") return r; await p.waitForTimeout(200); } };
  const [re, rf] = [await paired(e.page), await paired(f.page)];
  assert.equal(re.game, rf.game);
  const [first, second] = re.seat === 0 ? [e, f] : [f, e];
  // the first to move: the badge, the list (about 2 days left), the notification
  await first.page.evaluate(() => window.carcTurnsAsk());
  await first.page.waitForSelector("a[data-turns='1']:not([hidden])");
  const row = first.page.locator(`[data-turns-section] li[data-turn='${re.game}'][data-clock='days']`);
  assert.match(await row.innerText(), /Carcassonne · 1 d 23 h left/);
  assert.ok(Number(await row.getAttribute("data-left")) > 47 * 3600e3);
  await noViolations(first.page, "lobby-turns");
  let notes = await first.page.evaluate(() => window.__notes);
  assert.deepEqual(notes.map((n) => n.title), ["▶ Your turn · Carcassonne"]);
  assert.equal(await second.page.getAttribute("a[data-turns]", "data-turns"), "0");
  // asked again: the same turn does not notify twice
  await first.page.evaluate(() => window.carcTurnsAsk());
  assert.equal((await first.page.evaluate(() => window.__notes)).length, 1);
  // the badge leads to the list; the turn played from there, the other player is told
  await first.page.click("a[data-turns]");
  await first.page.waitForURL(/#turns$/);
  await first.page.click(`li[data-turn='${re.game}'] a`);
  await waitPlay(first.page);
  assert.equal(await playTurnByClicks(first.page, rng(3)), true);
  await second.page.evaluate(() => window.carcTurnsAsk());
  await second.page.waitForSelector("a[data-turns='1']:not([hidden])");
  notes = await second.page.evaluate(() => window.__notes);
  assert.deepEqual(notes.map((n) => n.title), ["▶ Your turn · Carcassonne"]);
  // the game's own page (loaded since) did not notify of its own game through the turns
  assert.equal(await first.page.evaluate(() => window.__notes.length), 0);
  // less than 12 hours left (the server's answer changed on its way): a reminder, once
  await second.page.route("**/api/me/turns", async (route) => {
    const r = await route.fetch();
    const body = await r.json();
    for (const x of body.turns) if (x.clock === "days") x.left = 5 * 3600e3 + 20 * 60e3;
    await route.fulfill({ response: r, json: body });
  });
  await second.page.evaluate(() => window.carcTurnsAsk());
  await second.page.evaluate(() => window.carcTurnsAsk());
  notes = await second.page.evaluate(() => window.__notes);
  assert.deepEqual(notes.map((n) => [n.title, n.body]), [["▶ Your turn · Carcassonne", "It is your turn."], ["Time is running out · Carcassonne", "Your move: 5 h 20 min left."]]);
  assert.match(await second.page.innerText(`li[data-turn='${re.game}']`), /5 h 20 min left/);
  for (const c of [e, f]) await c.ctx.close();
});

test("chat: the two players talk at the table, a spectator's chat stays apart, a muted player's messages stay hidden; both chats after the end and in the replay", { timeout: 300000 }, async () => {
  const g = await open("/", "ru"), hh = await open("/", "ro"), s = await open("/");
  await account(g.page, "gus_chat");
  await account(hh.page, "hal_chat");
  await account(s.page, "ivy_watch");
  const [pg, ph] = await pairFromLobby([g.page, hh.page]);
  assert.equal(pg.id, ph.id);
  await s.page.goto(`${server.url}/play/${pg.id}`);
  for (const p of [g.page, hh.page, s.page]) await p.waitForSelector("[data-panel='chat'] [data-chat-form]");
  assert.equal(await s.page.getAttribute("[data-panel='chat']", "data-chat-side"), "spectators");
  assert.equal(await g.page.getAttribute("[data-panel='chat']", "data-chat-side"), "players");
  const texts = (p) => p.$$eval("[data-chat-list] li[data-chat-id]:not([hidden]) [data-chat-text]", (els) => els.map((e) => e.textContent));
  const say = async (p, text) => { await p.fill("[data-chat-input]", text); await p.click("[data-chat-send]"); };
  // a player writes, the other reads it; a phrase in each reader's language
  await say(g.page, "привет, hal");
  await hh.page.waitForFunction(() => [...document.querySelectorAll("[data-chat-text]")].some((e) => e.textContent === "привет, hal"));
  await g.page.waitForFunction(() => document.querySelector("[data-chat-input]").value === "");
  await hh.page.click("[data-chat-phrase='good_luck']");
  await g.page.waitForSelector("[data-chat-list] li[data-phrase='good_luck']");
  assert.equal(await g.page.innerText("li[data-phrase='good_luck'] [data-chat-text]"), "Удачи!");
  assert.equal(await hh.page.innerText("li[data-phrase='good_luck'] [data-chat-text]"), "Baftă!");
  // the spectator writes in the spectators' chat: the players do not see it while the game goes on
  await s.page.click("[data-chat-phrase='thinking']");
  await say(s.page, "nice opening");
  await s.page.waitForFunction(() => document.querySelectorAll("[data-chat-list] li[data-channel='spectators']").length === 2);
  assert.deepEqual(await texts(s.page), ["Thinking…", "nice opening"]);
  await hh.page.waitForTimeout(1000);
  assert.equal(await g.page.locator("li[data-channel='spectators']").count(), 0);
  assert.equal(await hh.page.locator("li[data-channel='spectators']").count(), 0);
  // muted: hal's messages hidden from gus (new ones too, and after a reload); then shown again
  await g.page.click("li[data-phrase='good_luck'] [data-chat-mute]");
  await g.page.waitForSelector("li[data-phrase='good_luck'][hidden]", { state: "attached" });
  await say(hh.page, "are you there?");
  await hh.page.waitForFunction(() => [...document.querySelectorAll("[data-chat-text]")].some((e) => e.textContent === "are you there?"));
  await g.page.waitForFunction(() => [...document.querySelectorAll("li[data-chat-id]")].length === 3);
  assert.deepEqual(await texts(g.page), ["привет, hal"]);
  assert.match(await g.page.innerText("[data-chat-muted]"), /2/);
  await g.page.reload();
  await g.page.waitForFunction(() => document.querySelectorAll("li[data-chat-id]").length === 3);
  assert.deepEqual(await texts(g.page), ["привет, hal"]);
  await g.page.screenshot({ path: `${shots}/place-chat-muted-ru.png` });
  await g.page.click("[data-chat-unmute]");
  await g.page.waitForFunction(() => document.querySelectorAll("li[data-chat-id]:not([hidden])").length === 3);
  // a message reported to the operator
  await g.page.click("li[data-phrase='good_luck'] [data-report]");
  await g.page.selectOption("li[data-phrase='good_luck'] [data-report-reason]", "spam");
  await g.page.click("li[data-phrase='good_luck'] [data-report-send]");
  await g.page.waitForSelector("li[data-phrase='good_luck'] [data-report-done]");
  // too fast: refused in words
  for (let i = 0; i < 6; i++) await hh.page.click("[data-chat-phrase='hello']");
  assert.match(await refusal(hh.page, "[data-chat-result]", "chat_too_fast"), /prea des/);
  await noViolations(g.page, "chat");
  for (const [p, l] of [[hh.page, "ro"], [s.page, "en"]]) await p.screenshot({ path: `${shots}/place-chat-${l}.png` });
  // the end: both chats, each side's messages marked
  await hh.page.click("[data-resign]");
  await g.page.waitForFunction(() => document.querySelectorAll("li[data-channel='spectators']").length === 2, null, { timeout: 20000 });
  assert.equal(await g.page.locator("[data-chat-channel]").innerText(), "Чаты игроков и зрителей: после конца игры они открыты всем.");
  await s.page.waitForFunction(() => document.querySelectorAll("li[data-channel='players']").length >= 3, null, { timeout: 20000 });
  await g.page.screenshot({ path: `${shots}/place-chat-ru.png` });
  // the replay of the server's game, from the record: its chat beside it, to read
  await s.page.goto(`${server.url}/replay?game=${pg.id}`);
  await s.page.waitForFunction(() => document.querySelectorAll("[data-panel='chat'] li[data-channel='spectators']").length === 2);
  assert.equal(await s.page.locator("[data-panel='chat'][data-chat-side='replay'] [data-chat-form]").count(), 0);
  assert.ok((await s.page.locator("[data-panel='chat'] li[data-channel='players']").count()) >= 3);
  for (const c of [g, hh, s]) await c.ctx.close();
});

test("screenshots in en, ru and ro: the lobby with tables and pairing, a player's page with its graph, the leaderboards", { timeout: 240000 }, async () => {
  const host = await open("/");
  await account(host.page, "host_shots");
  await host.page.waitForSelector("[data-table-form]");
  await host.page.check("[data-table-range]");
  await host.page.selectOption("[data-table-seats]", "3");
  await host.page.selectOption("[data-table-bots]", "1");
  await host.page.click("[data-table-open]");
  await host.page.waitForSelector("[data-table-opened]");
  await host.page.selectOption("[data-table-clock]", "days");
  await host.page.uncheck("[data-table-range]");
  await host.page.click("[data-table-open]");
  await host.page.waitForSelector("[data-tables] li[data-table] + li[data-table]");
  const players = (await (await fetch(`${server.url}/api/players/ann_rated`)).ok) ? ["ann_rated", "bob_rated"] : [];
  for (const lang of ["en", "ru", "ro"]) {
    const c = await open("/", lang);
    await c.page.waitForSelector("[data-tables] li[data-table] + li[data-table]", { timeout: 15000 });
    await c.page.click("[data-pairing-join]");
    await c.page.waitForSelector("[data-pairing-status='waiting'] [data-pairing-size]");
    await c.page.locator("[data-pairing]").screenshot({ path: `${shots}/place-pairing-${lang}.png` });
    await c.page.locator("[data-tables-section]").screenshot({ path: `${shots}/place-tables-${lang}.png` });
    await c.page.screenshot({ path: `${shots}/place-lobby-${lang}.png`, fullPage: true });
    await c.page.click("[data-pairing-leave]");
    if (players.length) {
      await c.page.goto(`${server.url}/player/${players[1]}`);
      await c.page.waitForSelector("svg[data-rating-graph]");
      await c.page.click("[data-report]");
      await c.page.screenshot({ path: `${shots}/place-player-${lang}.png`, fullPage: true });
    }
    // the leaderboards: the real answer (nobody settled yet), then one with names for the look
    await c.page.goto(`${server.url}/leaderboard?bucket=base/2`);
    await c.page.waitForSelector("[data-leaderboard-box][data-loaded='base/2'] [data-leaderboard-none]");
    await c.page.route("**/api/leaderboard?*", (route) => route.fulfill({ json: { bucket: "base/2", days: 30, players: [
      { rank: 1, name: "ann_rated", rating: 1712, games: 41, last: Date.now() - 3600e3 },
      { rank: 2, name: "bob_rated", rating: 1650, games: 33, last: Date.now() - 86400e3 },
      { rank: 3, name: "host_shots", rating: 1498, games: 27, last: Date.now() - 5 * 86400e3 }] } }));
    await c.page.selectOption("[data-bucket-picker]", "base/3-5");
    await c.page.selectOption("[data-bucket-picker]", "base/2");
    await c.page.waitForSelector("tr[data-rank='3'] a[data-player-link='host_shots']");
    await c.page.screenshot({ path: `${shots}/place-leaderboard-${lang}.png`, fullPage: true });
    await c.ctx.close();
  }
  await host.ctx.close();
});
