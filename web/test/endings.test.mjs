// What happened and how it ended, in Debian's Chromium: the opponent's last turn framed in its
// colour after every bot turn; a resignation, a clock run out and an abort each bring both seats
// to the final panel; a rematch made from it and joined by the other seat; a confirm during a cut
// network kept in the outbox before any answer and applied exactly once.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { startServer, stopAll, launch, newContext, api, rng, playTurnByClicks, waitReady, events, summary, repo, clickFree } from "./harness.mjs";

let server, browser, colours;
const shots = `${repo}/web/test-results`;
before(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer();
  browser = await launch();
  colours = (await api(server, "GET", "/api/catalog")).seat_colours;
});
after(async () => { await browser?.close(); await server?.stop(); await stopAll(); });

async function open(url, opts = {}) {
  const ctx = await newContext(browser, { viewport: { width: 1280, height: 800 }, ...opts });
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("dialog", (d) => void d.accept());
  await page.goto(url);
  return { ctx, page, errors };
}
const norm = (c) => c.toLowerCase();

test("the opponent's last turn is framed in its colour after each bot turn", { timeout: 180000 }, async () => {
  const g = await api(server, "POST", "/api/games", { game: "base", seats: [{ name: "Ann" }, { bot: "random" }], seed: 12 });
  const { ctx, page, errors } = await open(server.url + g.seats[0].invite);
  const rand = rng(12);
  for (let turn = 0; turn < 5; turn++) {
    await playTurnByClicks(page, rand);
    await page.waitForFunction(() => document.body.dataset.ready === "true", null, { timeout: 30000 });
    // the bot has moved: its last tile framed in seat 1's colour, where the server says it went
    const botTurns = (await events(server, g.id)).filter((e) => e.type === "turn" && e.seat === 1);
    const cell = / (-?\d+,-?\d+) r\d+/.exec(botTurns[botTurns.length - 1].data.moves[0])[1];
    const frame = page.locator("[data-last-turn='1']");
    assert.equal(await frame.count(), 1, "one frame for the one other player");
    assert.equal(await frame.getAttribute("data-last-cell"), cell, "on the tile the bot laid");
    assert.equal(norm(await frame.getAttribute("stroke")), norm(colours[1]), "in the bot's colour");
    assert.equal(await page.locator("[data-last-turn='0']").count(), 0, "never this seat's own turn");
    assert.equal(await page.evaluate(() => document.body.dataset.titleTurn), "true");
    assert.match(await page.title(), /^▶ /, "the tab's title says it is your turn");
    // the live region read out the bot's move (its notation, after its name), then this seat's turn
    const live = page.locator("[data-live]");
    assert.equal(await live.getAttribute("aria-live"), "polite");
    assert.ok(Number(await live.getAttribute("data-said")) >= 2 * (turn + 1), "each move and each turn of this seat said");
    if (turn === 2) {
      await page.screenshot({ path: `${shots}/last-turn-desktop.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.click("[data-fit]");
      await page.waitForTimeout(200);
      await page.screenshot({ path: `${shots}/last-turn-phone.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  }
  // coordinates on the edges, a setting that is remembered; a log line shows its tile
  await page.click("[data-settings] summary");
  await page.check("[data-setting='coords']");
  await page.waitForSelector("[data-coords] [data-coord-x='0']");
  assert.ok(JSON.parse(await page.evaluate(() => localStorage.getItem("carc.settings"))).coords);
  const line = page.locator("[data-panel='log'] li[data-log-cell]").first();
  const logged = await line.getAttribute("data-log-cell");
  await line.hover();
  await page.waitForSelector(`[data-log-hover='${logged}']`);
  const nums = await page.$$eval("[data-panel='log'] .log-n", (els) => els.map((e) => e.textContent));
  assert.ok(nums.some((n) => n.length >= 2), `log numbers keep their digits: ${nums.slice(0, 3)}`);
  assert.deepEqual(errors, []);
  await ctx.close();
});

// What a turn scored is drawn on the board as it happens: each scoring of the last turn (the
// last-turn panel's lines with a feature) has its feature outlined with +N, in the scorer's
// colour (a completed feature's pieces have gone home: the view's owners are who scored it),
// whether the last tile is part of it or only completed it (a monastery's last neighbour).
async function scoringsShown(page) {
  return page.evaluate(() => {
    const lines = [...document.querySelectorAll("[data-panel='last-turn'] li[data-summary-feature]")].map((e) => ({ player: Number(e.dataset.summaryPlayer), feature: e.dataset.summaryFeature, points: Number(e.dataset.points) })).filter((l) => l.points > 0);
    const marks = [...document.querySelectorAll("[data-scored]")].map((e) => ({ type: e.dataset.featureType, points: Number(e.dataset.points), owners: e.dataset.owners.split(" ").map(Number), text: e.querySelector("text.points")?.textContent, stroke: e.querySelector("rect")?.getAttribute("stroke") }));
    return { lines, marks };
  });
}
function checkScorings({ lines, marks }, where) {
  for (const l of lines) {
    const m = marks.find((x) => x.type === l.feature && x.points === l.points && x.owners.includes(l.player));
    assert.ok(m, `${where}: the ${l.feature} seat ${l.player} scored (+${l.points}) is outlined: ${JSON.stringify(marks)}`);
    assert.equal(m.text, `+${l.points}`);
    assert.equal(norm(m.stroke), norm(colours[m.owners[0]]), "in the (first) scorer's colour");
  }
  return lines.length;
}

test("each scoring of a turn is outlined on the board with its points", { timeout: 600000 }, async () => {
  // live: a game against a bot, played by clicks; after each bot turn
  const g = await api(server, "POST", "/api/games", { game: "base", seats: [{ name: "Ann" }, { bot: "greedy" }], seed: 21 });
  const { ctx, page, errors } = await open(server.url + g.seats[0].invite);
  const rand = rng(21);
  let seen = 0, shot = false;
  for (let turn = 0; turn < 16; turn++) {
    if (!(await playTurnByClicks(page, rand))) break;
    await page.waitForFunction(() => document.body.dataset.ready === "true" || document.body.dataset.over === "true", null, { timeout: 60000 });
    const now = await scoringsShown(page);
    seen += checkScorings(now, `turn ${turn}`);
    if (now.lines.length && !shot) {
      // the page, and a spectator's in Russian and in Romanian, once the marks have popped in
      shot = true;
      await page.waitForTimeout(1000);
      await page.screenshot({ path: `${shots}/scored-en.png` });
      for (const lang of ["ru", "ro"]) {
        const w = await open(server.url + `/play/${g.id}`, { locale: lang });
        await w.page.waitForSelector(`[data-scored][data-points='${now.lines[0].points}']`);
        await w.page.waitForTimeout(1000);
        await w.page.screenshot({ path: `${shots}/scored-${lang}.png` });
        assert.deepEqual(w.errors, []);
        await w.ctx.close();
      }
    }
  }
  assert.ok(seen >= 1, "a turn scored");
  assert.deepEqual(errors, []);
  await ctx.close();
  // every scoring of a whole game between bots, turn by turn in its replay: among them monasteries
  // completed by a tile beside them. The seed fixes the draws, not the bots' choices (their seed
  // comes from the game's random id), so bots' games are played until one scores a monastery: a
  // greedy game without one happens (CI saw one), six in a row without one would be a fault
  let b, steps, monasteries = 0;
  for (let tries = 0; tries < 6 && monasteries === 0; tries++) {
    b = await api(server, "POST", "/api/games", { game: "base", seed: 4, seats: [{ name: "Ann", bot: "greedy" }, { name: "Bob", bot: "greedy" }] });
    let status;
    for (let i = 0; i < 1500 && (status = (await summary(server, b.id)).status) !== "finished"; i++) await new Promise((r) => setTimeout(r, 200));
    assert.equal(status, "finished", `the bots' game ${b.id} ended within 300 s`);
    const record = await api(server, "GET", `/api/games/${b.id}/record`);
    steps = [];
    monasteries = 0;
    for (let step = 1; step < record.moves.length; step++) {
      const { view } = await api(server, "POST", "/api/replay", { record, step });
      const scored = view.last_turn.filter((e) => e.feature && e.points > 0);
      if (scored.length) steps.push(step);
      monasteries += scored.filter((e) => e.feature === "monastery").length;
    }
  }
  assert.ok(monasteries >= 1, "one of six bots' games scored a monastery");
  const w = await open(server.url + `/play/${b.id}`);
  await w.page.click("[data-replay]");
  let all = 0, aside = 0;
  for (const step of steps) {
    await w.page.fill("[data-replay-slider]", String(step));
    await w.page.waitForSelector(`[data-replay-bar][data-loaded='${step}']`, { timeout: 60000 });
    const now = await scoringsShown(w.page);
    all += checkScorings(now, `step ${step}`);
    aside += now.marks.filter((m) => m.type === "monastery").length;
  }
  console.log(`scored: ${seen} scorings live, ${all} in ${steps.length} turns of a bots' game (${aside} monasteries)`);
  assert.ok(all >= 10 && aside >= 1, `every scoring, a monastery among them: ${all}, ${aside}`);
  assert.deepEqual(w.errors, []);
  await w.ctx.close();
});

// Both seats of a two-person game, each in its own tab.
async function twoSeats(body) {
  const g = await api(server, "POST", "/api/games", { game: "base", seats: [{ name: "Ann" }, { name: "Bob" }], seed: 3, ...body });
  const a = await open(server.url + g.seats[0].invite);
  const b = await open(server.url + g.seats[1].invite);
  await a.page.waitForSelector("[data-conn='online']");
  await b.page.waitForSelector("[data-conn='online']");
  return { g, a, b };
}
async function finalOnBoth(tabs, reason) {
  for (const x of tabs) {
    await x.page.waitForSelector(`[data-panel='final'][data-end-reason='${reason}']`, { timeout: 20000 });
    assert.equal(await x.page.evaluate(() => document.body.dataset.over), "true");
    assert.equal(await x.page.evaluate(() => document.body.dataset.myTurn), "false");
    assert.match(await x.page.textContent("[data-status]"), /^Game over/);
  }
}

test("a resignation, a clock run out and an abort each end the game on both seats; a rematch is made and joined", { timeout: 180000 }, async () => {
  // resignation: seat 0 resigns on its turn
  {
    const { g, a, b } = await twoSeats({});
    await waitReady(a.page);
    await a.page.click("[data-resign]");
    await finalOnBoth([a, b], "resign");
    assert.match(await b.page.textContent("[data-end-line]"), /Ann resigned\. Winner: Bob\./);
    assert.equal(await b.page.locator("[data-final-seat='1'] [data-winner]").count(), 1);
    await a.page.screenshot({ path: `${shots}/final-resign-desktop.png` });
    const phone = await open(server.url + g.seats[1].invite, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await phone.page.waitForSelector("[data-panel='final'][data-end-reason='resign']");
    await phone.page.waitForTimeout(1200);
    await phone.page.screenshot({ path: `${shots}/final-resign-phone.png` });
    await phone.ctx.close();
    // the rematch: Bob asks, Ann is asked and accepts; both are in the new game, same seats
    await b.page.click("[data-rematch]");
    await b.page.waitForURL((u) => /\/play\/[0-9a-f]+\?seat=1&token=/.test(u.href) && !u.href.includes(g.id), { timeout: 10000 });
    const id = /\/play\/([0-9a-f]+)/.exec(b.page.url())[1];
    assert.notEqual(id, g.id);
    await a.page.waitForSelector(`[data-rematch-offer='${id}'] [data-rematch-accept]`, { timeout: 10000 });
    await a.page.click("[data-rematch-accept]");
    await a.page.waitForURL(new RegExp(`/play/${id}\\?seat=0&token=`));
    for (const [x, seat] of [[a, "0"], [b, "1"]]) {
      await x.page.waitForSelector("[data-conn='online']");
      await x.page.waitForFunction(() => document.body.dataset.over === "false");
      assert.equal(await x.page.evaluate(() => document.body.dataset.seat), seat);
    }
    const s = await summary(server, id);
    assert.deepEqual(s.seats.map((x) => x.name), ["Ann", "Bob"]);
    // a spectator of the old game is shown the way to the rematch
    const watcher = await open(server.url + `/play/${g.id}`);
    await watcher.page.click(`[data-rematch-watch='${id}']`, { timeout: 20000 });
    await watcher.page.waitForURL(new RegExp(`/play/${id}$`));
    await watcher.page.waitForSelector("[data-conn='online']");
    assert.equal(await watcher.page.evaluate(() => document.body.dataset.seat), "-1");
    assert.deepEqual(watcher.errors, []);
    await watcher.ctx.close();
    assert.equal(s.game, "base");
    for (const x of [a, b]) { assert.deepEqual(x.errors, []); await x.ctx.close(); }
  }
  // a clock run out: two seconds for seat 0, who does nothing
  {
    const { a, b } = await twoSeats({ clock: { type: "realtime", bank: 2, increment: 0 } });
    await finalOnBoth([a, b], "timeout");
    assert.match(await a.page.textContent("[data-end-line]"), /Ann ran out of time/);
    for (const x of [a, b]) { assert.deepEqual(x.errors, []); await x.ctx.close(); }
  }
  // an abort before the first turn: by the seat that does not move first
  {
    const { a, b } = await twoSeats({});
    await b.page.click("[data-abort]");
    await finalOnBoth([a, b], "aborted");
    assert.equal(await a.page.locator("[data-winner]").count(), 0, "an aborted game has no winner");
    for (const x of [a, b]) { assert.deepEqual(x.errors, []); await x.ctx.close(); }
  }
});

test("a confirm during a cut network is in the outbox at once, says offline, and is applied exactly once", { timeout: 120000 }, async () => {
  // a tile with a piece left to decide: "Confirm (no piece)" passes it
  const g = await api(server, "POST", "/api/games", { game: "base", seats: [{ name: "Ann" }, { bot: "random" }], seed: 5 });
  const { ctx, page, errors } = await open(server.url + g.seats[0].invite);
  await waitReady(page);
  const cell = await page.locator("[data-cell]").first().getAttribute("data-cell");
  await clickFree(page.locator("[data-cell]").first());
  await waitReady(page);
  assert.equal(await page.evaluate(() => document.body.dataset.complete), "false", "a piece is still to decide");
  await ctx.setOffline(true);
  await page.waitForSelector("[data-conn='offline']", { timeout: 1000 });
  await page.click("[data-confirm]");
  const stored = await page.evaluate(() => Object.entries(localStorage).filter(([k]) => k.startsWith("carc.outbox.")).map(([, v]) => JSON.parse(v)).flat());
  assert.equal(stored.length, 1, "the turn is in the outbox before any answer");
  assert.equal(stored[0].moves[stored[0].moves.length - 1], "pass");
  assert.equal(await page.evaluate(() => document.body.dataset.sending), "true");
  assert.match(await page.textContent("[data-status]"), /saved/i);
  assert.equal(await page.locator(`[data-tentative='${cell}']`).count(), 1, "the tile stays on the board while its turn waits in the outbox");
  await page.screenshot({ path: `${shots}/outbox-offline.png` });
  await page.waitForTimeout(500);
  assert.equal((await events(server, g.id)).filter((e) => e.type === "turn" && e.seat === 0).length, 0, "nothing reached the server");
  assert.equal(await page.locator(`[data-tentative='${cell}']`).count(), 1, "still there");
  await ctx.setOffline(false);
  await page.waitForSelector("[data-conn='online']", { timeout: 10000 });
  await page.waitForFunction(() => Object.keys(localStorage).filter((k) => k.startsWith("carc.outbox.")).every((k) => localStorage.getItem(k) === "[]"), null, { timeout: 10000 });
  await page.reload();
  await waitReady(page, 30000);
  const mine = (await events(server, g.id)).filter((e) => e.type === "turn" && e.seat === 0);
  assert.equal(mine.length, 1, "applied once");
  assert.equal(mine[0].cid, stored[0].cid);
  assert.deepEqual(errors, []);
  await ctx.close();
});

// Motion, sounds and the score track (docs/web.md, "Motion, sounds and the score track"): the bot's
// tile settles and the points fly, decoratively: the page's hooks have the new position at once
// (body[data-ready] while the animations run); the score track's markers stand at the panel's
// scores. With prefers-reduced-motion nothing animates. Sounds are off by default and no
// AudioContext is made then; switched on (⚙), a tile laid sounds, and the switch is remembered.
test("motion is decorative and still under reduced motion; sounds only when switched on; the score track", { timeout: 240000 }, async () => {
  const countAudio = () => {
    window.__audioMade = 0;
    const A = window.AudioContext;
    window.AudioContext = class extends A { constructor(...a) { super(...a); window.__audioMade++; } };
  };
  for (const reducedMotion of ["no-preference", "reduce"]) {
    const g = await api(server, "POST", "/api/games", { game: "base", seats: [{ name: "Ann" }, { bot: "random" }], seed: 31 });
    const { ctx, page, errors } = await open(server.url + g.seats[0].invite, { reducedMotion });
    await ctx.addInitScript(countAudio);
    await page.reload();
    const rand = rng(31);
    let moved = 0, anims = 0;
    for (let turn = 0; turn < 6; turn++) {
      await playTurnByClicks(page, rand);
      await page.waitForFunction(() => document.body.dataset.ready === "true", null, { timeout: 30000 });
      // the position is whole at once: the bot's tile is on the board and its hooks are there
      const n = await page.evaluate(() => document.getAnimations().length);
      anims = Math.max(anims, n);
      moved = await page.evaluate(() => window.carcMotion?.tiles ?? 0);
      // the score track: a marker per seat at the players' panel's score, decorative
      const panel = await page.$$eval("[data-panel='scores'] [data-score]", (els) => els.map((e) => Number(e.getAttribute("data-score"))));
      const track = await page.$$eval("[data-score-track] [data-track-seat]", (els) => els.map((e) => Number(e.getAttribute("data-track-score"))));
      assert.deepEqual(track, panel, "the track's markers at the panel's scores");
      assert.equal(await page.getAttribute("[data-score-track]", "aria-hidden"), "true");
    }
    if (reducedMotion === "reduce") {
      assert.equal(anims, 0, "no animation runs with prefers-reduced-motion");
      assert.equal(moved, 0, "nothing animated");
      assert.equal(await page.locator("[data-motion-layer] .fly").count(), 0);
    } else {
      assert.ok(moved >= 6, `each tile laid settled in (${moved})`);
      assert.ok(anims > 0, "animations ran while the page was ready");
    }
    assert.equal(await page.evaluate(() => window.__audioMade), 0, "no AudioContext while the sound is off");
    assert.equal(await page.evaluate(() => window.carcSounds ?? 0), 0);
    if (reducedMotion === "no-preference") {
      // sounds on: the switch's own notes, then a tile laid by each side
      await page.click("[data-settings] summary");
      await page.check("[data-setting='sound']");
      await page.click("[data-settings] summary");
      for (let turn = 0; turn < 2; turn++) {
        await playTurnByClicks(page, rand);
        await page.waitForFunction(() => document.body.dataset.ready === "true", null, { timeout: 30000 });
      }
      await page.waitForTimeout(800);
      const kinds = await page.evaluate(() => window.carcSoundKinds ?? []);
      assert.ok(kinds.includes("tile"), `a tile laid sounded (${kinds.join(" ")})`);
      assert.ok(await page.evaluate(() => window.__audioMade) >= 1);
      assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem("carc.settings")).sound), true, "remembered");
    }
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});
