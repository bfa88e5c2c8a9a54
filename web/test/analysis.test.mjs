// The analysis of a finished game in the browser (docs/web.md, "Analysis"): a bots-only game with a
// fixed seed, opened when it is over; one click on Analyse shows the progress, then the graph and
// one row per reviewed decision (as the server's JSON has them); a marked row shows the better move
// on the board with what it was expected to score, and the toggle the move played; the graph's
// points choose decisions too; axe finds nothing on the page with the panel; on a phone (in
// Russian) the panel is reachable and a row shows its better move. The ownership overlay, off
// until asked: a mark per open feature of the decision's position, in its likeliest scorer's colour
// with that share, named in words; off again, gone. Screenshots:
// web/test-results/analysis-{desktop,phone,ownership}.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { startServer, stopAll, launch, api, summary, repo } from "./harness.mjs";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

let server, browser;
const shots = `${repo}/web/test-results`;
before(async () => {
  mkdirSync(shots, { recursive: true });
  // 100 playouts a decision: a base game's ~90 decisions in a few seconds
  server = await startServer({ extra: ["--analysis-playouts", "100"] });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await stopAll();
});

async function open(url, opts = {}, lang = null) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...opts });
  if (lang) await ctx.addInitScript((l) => localStorage.setItem("carc.lang", l), lang);
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  return { ctx, page, errors };
}

async function axe(page) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ content: axeSource });
  const r = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: "tag", values: tags } }), TAGS);
  return r.violations.map((x) => `${x.id} (${x.impact}) ${x.nodes.length} node(s): ${x.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(" | ")}\n    ${x.nodes[0]?.failureSummary?.replace(/\n/g, " ")}`).join("\n");
}

// "R 0,-1 r270" -> the tile the board shows for that placement
const placement = (move) => {
  const m = /^(\S+) (-?\d+),(-?\d+) r(\d+)$/.exec(move);
  return m && { id: m[1], cell: `${m[2]},${m[3]}`, rot: m[4] };
};
const tileAt = (page, p) => page.locator(`[data-board] g[data-tile='${p.cell}'][data-tile-id='${p.id}'][data-rot='${p.rot}']`);

// The chosen decision's frame on the screen: its box (CSS px), its word's height, and whether it
// lies inside the board's box (the board is fitted to it, not to the whole game).
async function frameOnScreen(page) {
  return page.evaluate(() => {
    const f = document.querySelector("[data-analysis-frame] rect.outer").getBoundingClientRect();
    const w = document.querySelector("[data-analysis-frame] text").getBoundingClientRect();
    const b = document.querySelector("[data-board]").getBoundingClientRect();
    return { w: f.width, word: w.height, inside: f.left >= b.left && f.right <= b.right && f.top >= b.top && f.bottom <= b.bottom };
  });
}

test("one click analyses a finished game: graph, marked moves, a marked move's better move on the board", { timeout: 600000 }, async () => {
  const t0 = Date.now();
  const g = await api(server, "POST", "/api/games", { game: "base", seed: 3, seats: [{ name: "Ann", bot: "greedy" }, { name: "Bob", bot: "random" }] });
  for (let i = 0; i < 300 && (await summary(server, g.id)).status !== "finished"; i++) await new Promise((r) => setTimeout(r, 200));
  assert.equal((await summary(server, g.id)).status, "finished");
  const url = `${server.url}/play/${g.id}`;

  // a phone in Russian opened first: the analysis another page asks for reaches it as an event
  const phone = await open(url, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }, "ru");
  await phone.page.waitForSelector("[data-panel='final'] [data-analyse][data-analysis-state='none']");

  const { ctx, page, errors } = await open(url);
  await page.waitForSelector("[data-panel='final'] [data-final-score]");
  const button = page.locator("[data-panel='final'] [data-analyse]");
  assert.equal(await button.textContent(), "Analyse");
  assert.equal(await page.locator("[data-panel='analysis']").isVisible(), false, "no panel before the click");
  // every progress line the page shows, however briefly
  await page.evaluate(() => {
    window.progressSeen = [];
    new MutationObserver(() => {
      for (const el of document.querySelectorAll("[data-analysis-progress]")) if (!window.progressSeen.includes(el.textContent)) window.progressSeen.push(el.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  // at 100 playouts the analysis is stored before the page's first poll: the POST's answer is
  // made to say what a long one says at first ("running", 30 of 92), the analysis itself real
  await page.route(/\/api\/games\/[0-9a-f]+\/analysis\?/, async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    // a handler that throws leaves the page's request hanging for good: a failed fetch lets the
    // request through as it is (the progress check below then says so)
    try {
      const r = await route.fetch({ timeout: 60000 });
      const body = await r.json();
      await route.fulfill({ response: r, json: r.status() === 202 ? { ...body, status: "running", done: 30, total: 92 } : body });
    } catch (e) {
      console.log(`# the POST's interception failed (${e.message}): sent as it is`);
      await route.continue().catch(() => {});
    }
  });
  // the server lets go of a finished job only when it answers for it (else it counts against
  // --analyses-per-ip for good): the page reads the stored analysis at least once
  let answered = 0;
  page.on("response", (r) => { if (/\/analysis(\?|$)/.test(r.url()) && r.request().method() === "GET" && r.status() === 200) answered++; });
  const tAsked = Date.now();
  await button.click();
  // (a machine busy with other work makes it slower than the few seconds it takes alone)
  try {
    await page.waitForSelector("[data-panel='analysis'] svg[data-analysis-graph], [data-analyse][data-analysis-state='error']", { timeout: 300000 });
  } catch (e) {
    // what the page, the server's answer and its log say, for the failure's message
    const got = await fetch(`${server.url}/api/games/${g.id}/analysis`).then(async (r) => `${r.status} ${(await r.text()).slice(0, 300)}`).catch((x) => x.message);
    const shows = await page.evaluate(() => ({ state: document.querySelector("[data-analyse]")?.getAttribute("data-analysis-state"), progress: document.querySelector("[data-analysis-progress]")?.textContent, panel: !document.querySelector("[data-panel='analysis']")?.hidden }));
    assert.fail(`${e.message}\nthe page: ${JSON.stringify(shows)}, progress seen: ${await page.evaluate(() => window.progressSeen.join(" | "))}\npage errors: ${errors.join(" | ")}\nGET analysis: ${got}\nthe server's log:\n${server.log().slice(-3000)}`);
  }
  const state = await page.getAttribute("[data-analyse]", "data-analysis-state");
  if (state !== "done") assert.fail(`the analysis: ${await page.textContent("[data-analysis-progress]")}`);
  const tAnalysed = Date.now();
  const seen = await page.evaluate(() => window.progressSeen);
  assert.ok(seen.includes("Analysing: 30 of 92 decisions"), `the progress: ${seen.join(" | ")}`);
  await page.unroute(/\/api\/games\/[0-9a-f]+\/analysis\?/);
  for (let i = 0; i < 50 && !answered; i++) await page.waitForTimeout(100);
  assert.ok(answered >= 1, "the page read the stored analysis with a GET");
  await page.waitForSelector("[data-analysis-moves] [data-decision]");
  assert.equal(await page.locator("[data-analysis-progress]").count(), 0, "the progress is gone once stored");
  assert.equal(await page.getAttribute("[data-analyse]", "aria-expanded"), "true");

  // the rows are the server's review, one per decision, with its mark
  const stored = await api(server, "GET", `/api/games/${g.id}/analysis`);
  assert.equal(stored.status, "done");
  const review = stored.review;
  const rows = await page.$$eval("[data-analysis-moves] [data-decision]", (els) => els.map((e) => ({ index: Number(e.dataset.decision), mark: e.dataset.mark, text: e.textContent, notation: e.querySelector("[data-notation]")?.dataset.notation })));
  assert.equal(rows.length, review.decisions.length, "one row per reviewed decision");
  assert.deepEqual(rows.map((r) => [r.index, r.mark]), review.decisions.map((d) => [d.index, d.mark]));
  // each row says its move in words (the GET's `words`), its notation in the tooltip
  for (const [i, d] of review.decisions.entries()) {
    assert.ok(d.played.words && d.best.words, `decision ${d.index}: the GET says its moves in words`);
    assert.ok(rows[i].text.includes(d.played.words), `row ${d.index} says ${d.played.words}: ${rows[i].text}`);
    assert.equal(rows[i].notation, d.played.move, `row ${d.index}'s notation`);
  }
  const marked = review.decisions.filter((d) => d.mark);
  assert.ok(marked.length > 0, "the review marks at least one move");
  assert.equal(await page.locator("[data-analysis-moves] [data-decision]:not([data-mark=''])").count(), marked.length);
  // marks as text: ?! ? ??
  const symbols = { inaccuracy: "?!", mistake: "?", blunder: "??" };
  for (const d of marked.slice(0, 5)) assert.match(await page.textContent(`[data-decision='${d.index}'] .mark`), new RegExp(`^\\${symbols[d.mark].split("").join("\\")}`));
  // the graph: a point per decision, a dot per mistake and blunder
  assert.equal(await page.locator("[data-analysis-graph] [data-graph-decision]").count(), review.curve.length);
  assert.equal(await page.locator("[data-analysis-graph] [data-graph-mark]").count(), review.decisions.filter((d) => d.mark === "mistake" || d.mark === "blunder").length);
  assert.match(await page.getAttribute("[data-analysis-graph]", "aria-label"), /Ann's chance to win/);
  // the players' summary
  for (const p of review.summary) {
    for (const [k, n] of [["inaccuracy", p.inaccuracies], ["mistake", p.mistakes], ["blunder", p.blunders]]) assert.equal(await page.textContent(`[data-analysis-seat='${p.player}'] [data-count='${k}']`), String(n));
  }
  // the filter keeps the marked ones
  await page.selectOption("[data-analysis-filter]", "marked");
  assert.equal(await page.locator("[data-analysis-moves] li:not([hidden]) [data-decision]").count(), marked.length);
  await page.selectOption("[data-analysis-filter]", "all");

  // a marked placement whose best move differs (the worst such): its better move on the board
  // (the bots' game differs from run to run: a marked piece decision if no placement is marked)
  // (the placements farthest apart first: the board must still bring the better one close, not
  // fit both at the whole board's scale)
  const apart = (d) => {
    const [a, b] = [placement(d.best.move), placement(d.played.move)].map((p) => p && p.cell.split(",").map(Number));
    return a && b ? Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1])) : -1;
  };
  const differs = review.decisions.filter((d) => d.mark && d.best.move !== d.played.move).sort((a, b) => apart(b) - apart(a) || b.loss - a.loss);
  const pick = differs.find((d) => placement(d.best.move) && placement(d.played.move)) ?? differs[0];
  assert.ok(pick, "a marked move whose better move differs");
  const place = !!placement(pick.best.move) && !!placement(pick.played.move);
  const detail = await api(server, "GET", `/api/games/${g.id}/analysis/${pick.index}`);
  await page.click(`[data-decision='${pick.index}']`);
  await page.waitForSelector("[data-better]");
  const better = await page.textContent("[data-better]");
  assert.ok(better.includes(pick.best.words), `"${better}" names the better move ${pick.best.words}`);
  assert.ok(better.includes(pick.played.words), `"${better}" names the move played ${pick.played.words}`);
  assert.equal(detail.decision.best.words, pick.best.words, "GET /analysis/K words its moves too");
  assert.match(better, /^Better: .* — expected margin [+−]?\d+\.\d \(played .*: [+−]?\d+\.\d\), loss \d+\.\d$/);
  assert.equal(await page.getAttribute(`[data-decision='${pick.index}']`, "aria-current"), "true");
  // the board: the position after the better move (the view GET /analysis/K gives)
  await page.waitForSelector("[data-analysis-frame='better']");
  assert.equal(Number(await page.getAttribute("[data-board]", "data-tiles")), detail.view.board.tiles.length);
  const last = detail.view.board.tiles.find((x) => x.last);
  assert.equal(await page.getAttribute("[data-analysis-frame]", "data-frame-cell"), `${last.x},${last.y}`);
  if (place) {
    await tileAt(page, placement(pick.best.move)).waitFor();
    assert.equal(`${last.x},${last.y}`, placement(pick.best.move).cell);
  }
  assert.equal(await page.getAttribute("[data-analysis-frame]", "data-analysis-frame"), "better");
  // the replay is at the turn as played
  await page.waitForSelector(`[data-replay-bar][data-loaded='${detail.step + 1}']`);
  assert.equal(await page.getAttribute("[data-show-better]", "aria-pressed"), "true");
  // the board brought to the decision: its tile at least 70 px, the word "better" at least 14 px
  await page.waitForFunction(() => document.querySelector("[data-analysis-frame] rect.outer")?.getBoundingClientRect().width >= 70, null, { timeout: 20000 }).catch(() => {});
  const framed = await frameOnScreen(page);
  assert.ok(framed.w >= 70 && framed.word >= 14 && framed.inside, `the board is fitted to the chosen decision (${pick.best.move} / ${pick.played.move}): ${JSON.stringify(framed)}`);
  await page.screenshot({ path: `${shots}/analysis-desktop.png` });
  // the toggle: the move played, then the better one again
  await page.click("[data-show-played]");
  await page.waitForSelector("[data-analysis-frame='played']");
  if (place) {
    await tileAt(page, placement(pick.played.move)).waitFor();
    assert.equal(await page.locator(`[data-board] g[data-tile='${placement(pick.best.move).cell}']`).count(), placement(pick.best.move).cell === placement(pick.played.move).cell ? 1 : 0, "the better move is not on the board");
  }
  assert.equal(await page.getAttribute("[data-show-played]", "aria-pressed"), "true");
  assert.ok((await page.textContent("[data-better]")).includes(pick.best.words), "the words stay");
  await page.click("[data-show-better]");
  await page.waitForSelector("[data-analysis-frame='better']");
  if (place) await tileAt(page, placement(pick.best.move)).waitFor();
  // a late decision, on a board of some 70 tiles (fitted whole: 30 px tiles): brought to it too
  const late = review.decisions[review.decisions.length - 1];
  await page.click(`[data-decision='${late.index}']`);
  await page.waitForFunction((i) => document.querySelector("[data-analysis-note]")?.dataset.noteDecision === String(i) && !!document.querySelector("[data-analysis-frame]") && document.querySelector("[data-replay-bar]").dataset.loaded !== undefined, late.index, { timeout: 20000 });
  await page.waitForFunction(() => document.querySelector("[data-analysis-frame] rect.outer")?.getBoundingClientRect().width >= 70, null, { timeout: 20000 }).catch(() => {});
  const framedLate = await frameOnScreen(page);
  assert.ok(framedLate.w >= 70 && framedLate.word >= 14 && framedLate.inside, `a late decision: the board is fitted to it: ${JSON.stringify(framedLate)}`);
  await page.screenshot({ path: `${shots}/analysis-late-desktop.png` });
  await page.click(`[data-decision='${pick.index}']`);
  await page.waitForSelector("[data-analysis-frame='better']");

  // ownership: each reviewed decision has its position's open features (at most 12), each seat's
  // share of the playouts in [0, 1]; the overlay shows them on demand
  for (const d of review.decisions) {
    assert.ok(Array.isArray(d.ownership) && d.ownership.length <= 12, `decision ${d.index}: ownership`);
    for (const f of d.ownership) {
      assert.equal(f.share.length, 2);
      assert.ok(f.share.every((x) => x >= 0 && x <= 1), `decision ${d.index}: shares ${f.share}`);
      assert.ok(f.cells.some(([x, y]) => x === f.x && y === f.y), `decision ${d.index}: ${f.feature} at ${f.x},${f.y} in its cells`);
    }
  }
  const owned = pick.ownership;
  assert.ok(owned.length > 0, "the chosen decision's position has open features");
  assert.equal(await page.getAttribute("[data-ownership-toggle]", "aria-pressed"), "false", "off until asked");
  assert.equal(await page.locator("[data-ownership-feature]").count(), 0);
  await page.click("[data-ownership-toggle]");
  await page.waitForSelector(`[data-ownership='${pick.index}'] [data-ownership-feature]`);
  assert.equal(await page.getAttribute("[data-ownership-toggle]", "aria-pressed"), "true");
  assert.ok(await page.locator("[data-ownership-legend]").isVisible(), "the legend says what the marks are");
  const marks = await page.$$eval("[data-ownership-feature]", (els) => els.map((e) => ({ key: e.dataset.ownershipFeature, feature: e.dataset.feature, seat: Number(e.dataset.seat), share: Number(e.dataset.share), label: e.getAttribute("aria-label"), title: e.querySelector("title")?.textContent })));
  assert.equal(marks.length, owned.length, "a mark per open feature");
  const names = review.players;
  for (const [i, f] of owned.entries()) {
    const m = marks[i];
    const top = Math.max(...f.share);
    assert.equal(m.key, `${f.x},${f.y},${f.port}`);
    assert.equal(m.feature, f.feature);
    assert.equal(m.share, top);
    assert.ok(m.share >= 0 && m.share <= 1);
    assert.equal(m.seat, top > 0 ? f.share.indexOf(top) : -1, `the likeliest scorer of ${m.key}`);
    assert.ok(m.seat >= -1 && m.seat < names.length);
    assert.equal(m.title, m.label);
    assert.match(m.label, new RegExp(`^\\S.* at ${f.x},${f.y}: `));
    if (m.seat >= 0) assert.match(m.label, new RegExp(`: ${names[m.seat]} ${Math.round(top * 100)}% \\(mean \\d+\\.\\d points\\)`));
    else assert.match(m.label, /nobody scores it$/);
  }
  // a mark hovered outlines its feature's cells
  const biggest = owned.findIndex((f) => f.cells.length > 1 && Math.max(...f.share) > 0);
  if (biggest >= 0) {
    const sel = `[data-ownership-feature='${marks[biggest].key}']`;
    // (the board is brought to the decision's tile: the whole board first, so that the mark is in sight)
    await page.click("[data-fit]");
    assert.equal(await page.locator(`${sel} .own-cells`).isVisible(), false);
    await page.hover(`${sel} circle.own-base`, { force: true });
    await page.waitForSelector(`${sel} .own-cells`, { state: "visible" });
    assert.equal(await page.locator(`${sel} .own-cells rect`).count(), owned[biggest].cells.length);
  }
  // the screenshot closer up (zoomed in once, the board's middle), a mark hovered
  await page.click("[data-zoom-in]");
  if (biggest >= 0) await page.hover(`[data-ownership-feature='${marks[biggest].key}'] circle.own-base`, { force: true });
  await page.screenshot({ path: `${shots}/analysis-ownership.png` });
  await page.click("[data-fit]");
  // the move played keeps the overlay; off again, it is gone
  await page.click("[data-show-played]");
  await page.waitForSelector("[data-analysis-frame='played']");
  assert.equal(await page.locator("[data-ownership-feature]").count(), owned.length);
  await page.click("[data-ownership-toggle]");
  await page.waitForSelector("[data-ownership-feature]", { state: "detached" });
  assert.equal(await page.getAttribute("[data-ownership-toggle]", "aria-pressed"), "false");
  assert.equal(await page.locator("[data-ownership-legend]").count(), 0);
  await page.click("[data-show-better]");
  await page.waitForSelector("[data-analysis-frame='better']");

  // the graph's point of another decision chooses it
  const other = review.decisions.slice(0, -1).find((d) => d.mark === "blunder" || d.mark === "mistake") ?? review.decisions[0];
  const i = review.curve.findIndex((c) => c.index === other.index);
  const box = await page.locator("[data-analysis-graph]").boundingBox();
  await page.mouse.click(box.x + ((i + 0.5) / review.curve.length) * box.width, box.y + box.height / 2);
  await page.waitForSelector(`[data-decision='${other.index}'][aria-current='true']`);
  assert.equal(await page.getAttribute("[data-analysis-cursor]", "data-analysis-cursor"), String(other.index));
  await page.waitForSelector(`[data-analysis-note][data-note-decision='${other.index}']`);
  // keys: the down arrow on a row chooses the next one
  const next = review.decisions[review.decisions.findIndex((d) => d.index === other.index) + 1];
  await page.focus(`[data-decision='${other.index}']`);
  await page.keyboard.press("ArrowDown");
  await page.waitForSelector(`[data-decision='${next.index}'][aria-current='true']`);
  await page.waitForSelector(`[data-analysis-note][data-note-decision='${next.index}']`);
  // keys on the graph, a slider over the decisions: Home, the arrows, Page Down to the next
  // mistake or blunder, End; the focus stays on the graph
  const graph = "[data-analysis-graph]";
  const chosen = async (i) => {
    await page.waitForSelector(`[data-decision='${review.curve[i].index}'][aria-current='true']`);
    await page.waitForSelector(`${graph}[aria-valuenow='${i + 1}']`);
  };
  assert.equal(await page.getAttribute(graph, "role"), "slider");
  assert.equal(await page.getAttribute(graph, "aria-valuemax"), String(review.curve.length));
  await page.focus(graph);
  await page.keyboard.press("Home");
  await chosen(0);
  await page.keyboard.press("ArrowRight");
  await chosen(1);
  const second = review.decisions.find((d) => d.index === review.curve[1].index);
  assert.ok((await page.getAttribute(graph, "aria-valuetext")).includes(second.played.words), "the point's text names its move");
  await page.keyboard.press("ArrowLeft");
  await chosen(0);
  const bad = (i) => ["mistake", "blunder"].includes(review.decisions.find((d) => d.index === review.curve[i].index)?.mark);
  const firstBad = review.curve.findIndex((c, i) => i > 0 && bad(i));
  if (firstBad > 0) {
    await page.keyboard.press("PageDown");
    await chosen(firstBad);
  }
  await page.keyboard.press("End");
  await chosen(review.curve.length - 1);
  assert.ok(await page.evaluate(() => document.activeElement?.hasAttribute("data-analysis-graph")), "the focus stays on the graph");
  await page.locator("figure.analysis-graph").screenshot({ path: `${shots}/analysis-graph-keys.png` });

  // axe: the page with the panel, a decision and its better move shown
  await page.click(`[data-decision='${pick.index}']`);
  await page.waitForSelector(`[data-analysis-note][data-note-decision='${pick.index}'] [data-show-better]:not([disabled])`);
  await page.click("[data-ownership-toggle]");  // with the ownership overlay on
  await page.waitForSelector("[data-ownership-feature]");
  const found = await axe(page);
  assert.equal(found, "", `axe violations:\n${found}`);
  // the slider leaves the analysis' decision; the panel stays
  await page.click("[data-replay-prev]");
  await page.waitForSelector("[data-analysis-note]", { state: "hidden" });
  // the board is drawn again after the note hides: wait for it (a frame left over fails here)
  await page.waitForFunction(() => !document.querySelector("[data-analysis-frame], [data-ownership-feature]"), null, { timeout: 10000 });
  assert.equal(await page.locator("[data-analysis-frame]").count(), 0);
  assert.equal(await page.locator("[data-ownership-feature]").count(), 0, "no decision, no ownership");
  assert.ok(await page.locator("[data-panel='analysis']").isVisible());
  // the replay bar's button hides and shows it again
  await page.click("[data-replay-bar] [data-analyse]");
  await page.waitForSelector("[data-panel='analysis']", { state: "hidden" });
  await page.click("[data-replay-bar] [data-analyse]");
  await page.waitForSelector("[data-panel='analysis'] [data-analysis-graph]");
  assert.deepEqual(errors, []);
  await ctx.close();

  // the phone, in Russian: the analysis arrived as an event; the panel is reachable under the board
  const p = phone.page;
  await p.waitForSelector("[data-panel='final'] [data-analyse][data-analysis-state='done']", { timeout: 10000 });
  assert.equal(await p.textContent("[data-panel='final'] [data-analyse]"), "Показать анализ");
  await p.click("[data-panel='final'] [data-analyse]");
  await p.waitForSelector("[data-panel='analysis'] [data-analysis-graph]");
  assert.equal(await p.evaluate(() => document.querySelector(".game-page").classList.contains("panels-open")), false, "the side panels fold away");
  const within = async (sel) => p.locator(sel).first().evaluate((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.left >= 0 && r.right <= innerWidth + 0.5 && r.top >= 0 && r.bottom <= innerHeight + 0.5; });
  // in sight, or coming into it: the page scrolls the note into sight once the decision's position
  // has come (a busy machine takes a while), so the check waits seconds for it
  const inSight = async (sel, what) => {
    for (let i = 0; i < 100 && !(await within(sel)); i++) await p.waitForTimeout(100);
    assert.ok(await within(sel), what);
  };
  assert.ok(await within("[data-panel='analysis'] h2"), "the panel's heading shows");
  assert.ok(await within("[data-analysis-graph]"), "the graph shows");
  assert.ok(await p.evaluate(() => document.documentElement.scrollWidth <= innerWidth), "no wider than the screen");
  const row = p.locator(`[data-decision='${pick.index}']`);
  await row.scrollIntoViewIfNeeded();
  assert.ok(await within(`[data-decision='${pick.index}']`), "the row can be brought into view");
  assert.match(await row.textContent(), /(неточность|ошибка|грубая ошибка)/);
  await row.tap();
  await p.waitForSelector("[data-better]");
  // the moves in Russian words, as GET ?lang=ru says them
  const ruReview = (await api(server, "GET", `/api/games/${g.id}/analysis?lang=ru`)).review;
  const ruPick = ruReview.decisions.find((d) => d.index === pick.index);
  assert.ok((await p.textContent("[data-better]")).includes(ruPick.best.words), `the better move in Russian: ${ruPick.best.words}`);
  assert.match(await p.textContent("[data-better]"), /^Лучший ход: .* — ожидаемый перевес/);
  await inSight("[data-better]", "the better move's words show");
  // the note can be taller than the strip under the board on a phone: the toggle is reached by
  // scrolling, as a finger would
  await p.locator("[data-show-played]").scrollIntoViewIfNeeded();
  await inSight("[data-show-played]", "the toggle shows");
  await p.waitForSelector("[data-analysis-frame='better']");
  if (place) await tileAt(p, placement(pick.best.move)).waitFor();
  const framedPhone = await frameOnScreen(p);
  assert.ok(framedPhone.w >= 40 && framedPhone.word >= 10 && framedPhone.inside, `phone: the board is fitted to the chosen decision: ${JSON.stringify(framedPhone)}`);
  await p.screenshot({ path: `${shots}/analysis-phone.png` });
  const foundPhone = await axe(p);
  assert.equal(foundPhone, "", `axe violations (phone):\n${foundPhone}`);
  assert.deepEqual(phone.errors, []);
  await phone.ctx.close();
  console.log(`analysis: ${review.decisions.length} decisions, ${marked.length} marked, the game over in ${((tAsked - t0) / 1000).toFixed(1)} s, analysed in ${((tAnalysed - tAsked) / 1000).toFixed(1)} s, all in ${((Date.now() - t0) / 1000).toFixed(1)} s; progress seen: ${seen.join(" | ")}`);
});
