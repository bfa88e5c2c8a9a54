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
import { startServer, stopAll, launch, openPage, rng, playTurnByClicks, repo } from "./harness.mjs";

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
