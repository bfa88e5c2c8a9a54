// Help where it is needed, in Debian's Chromium: every game's rules opened from its game page (each
// section, the engine's pictures of the tiles it names, in English and in Russian), the rules on a
// page of their own (another language picked there), and the first game's dialog: three callouts
// at the tile in hand, the board and Confirm, shown once and never again.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { startServer, stopAll, launch, api, repo, waitReady } from "./harness.mjs";

let server, browser, catalog;
const shots = `${repo}/web/test-results`;
before(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer();
  browser = await launch();
  catalog = await api(server, "GET", "/api/catalog");
});
after(async () => { await browser?.close(); await server?.stop(); await stopAll(); });

const desktop = { viewport: { width: 1280, height: 800 } };
const phone = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

async function open(url, opts = {}, lang = null) {
  const ctx = await browser.newContext({ ...desktop, ...opts });
  if (lang) await ctx.addInitScript((l) => localStorage.setItem("carc.lang", l), lang);
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  if (url) await page.goto(url);
  return { ctx, page, errors };
}
// a game where the person moves first, against a bot
const newGame = (game, seed = 5) => api(server, "POST", "/api/games", { game, seats: [{ name: "Ann" }, { bot: "random" }], seed });

// The rules dialog's sections and pictures are the server's page, in its language.
async function checkRules(page, scope, rules) {
  await page.waitForSelector(`${scope} [data-rules-section]`);
  const shown = await page.$$eval(`${scope} [data-rules-section]`, (els) => els.map((e) => ({ id: e.dataset.rulesSection, title: e.querySelector("h2").textContent, paras: e.querySelectorAll(".rules-text p").length })));
  assert.deepEqual(shown.map((s) => s.id), rules.sections.map((s) => s.id), "every section, in order");
  assert.deepEqual(shown.map((s) => s.title), rules.sections.map((s) => s.title), "titles in the page's language");
  assert.deepEqual(shown.map((s) => s.paras), rules.sections.map((s) => s.text.length), "every paragraph");
  assert.ok((await page.locator(`${scope} h1`).textContent()).endsWith(rules.title), "the game's title heads the rules");
  // the engine's own pictures (inline SVG from /api/tiles/GAME), loaded, named in the page's language
  await page.waitForFunction((s) => [...document.querySelectorAll(`${s} [data-rules-tile] img`)].every((i) => i.complete), scope);
  const pics = await page.$$eval(`${scope} [data-rules-tile] img`, (imgs) => imgs.map((i) => ({
    id: i.closest("[data-rules-tile]").dataset.rulesTile, svg: i.src.startsWith("data:image/svg+xml"), drawn: i.naturalWidth > 0, alt: i.alt, w: i.getBoundingClientRect().width })));
  assert.deepEqual(pics.map((p) => p.id), rules.sections.flatMap((s) => s.tiles), "every tile the sections name");
  assert.ok(pics.length >= 1, "at least one tile picture");
  for (const p of pics) {
    assert.ok(p.svg && p.drawn && p.w >= 60, `tile ${p.id} drawn from the engine's picture: ${JSON.stringify(p)}`);
    assert.match(p.alt, new RegExp(`${p.id}: \\S`), "a picture says what it shows");
  }
  return pics;
}

test("every game's rules open from its game page, with the engine's tiles, in English and Russian", { timeout: 240000 }, async () => {
  for (const lang of ["en", "ru"]) {
    const { ctx, page, errors } = await open(null, {}, lang);
    const titles = (await api(server, "GET", `/api/catalog?lang=${lang}`)).games;
    for (const g of catalog.games) {
      const rules = await api(server, "GET", `/api/rules/${g.id}?lang=${lang}`);
      assert.equal(rules.lang, lang);
      assert.equal(rules.title, titles.find((x) => x.id === g.id).title);
      assert.ok(rules.sections.length >= 2, `${g.id}: a rules page`);
      const created = await newGame(g.id);
      await page.goto(server.url + created.seats[0].invite);
      await waitReady(page);
      // the header's link, named in the page's language, also a plain link to the rules' own page
      const link = page.getByRole("link", { name: lang === "en" ? "Rules" : "Правила", exact: true });
      assert.equal(await link.getAttribute("href"), `/rules/${g.id}`);
      const rot = await page.locator("[data-hand-tile]").getAttribute("style");
      await link.click();
      const dialog = page.locator(`[data-rules-overlay="${g.id}"]`);
      await dialog.waitFor();
      assert.equal(await dialog.getAttribute("role"), "dialog");
      assert.equal(await dialog.getAttribute("aria-modal"), "true");
      await checkRules(page, "[data-rules-overlay]", rules);
      assert.equal(await page.locator("#rules-overlay-title").textContent(), lang === "en" ? `Rules: ${rules.title}` : `Правила: ${rules.title}`);
      assert.equal(await dialog.getAttribute("aria-labelledby"), "rules-overlay-title");
      assert.equal(await page.evaluate(() => document.activeElement?.hasAttribute("data-rules-close")), true, "the focus goes into the dialog");
      // the contents list jumps within the dialog; the game's keys wait while it is open
      await page.locator("[data-rules-overlay] .rules-toc a").last().click();
      assert.equal(await page.evaluate(() => document.activeElement?.closest("[data-rules-section]")?.dataset.rulesSection), rules.sections.at(-1).id);
      await page.keyboard.press("r");
      for (let i = 0; i < 8; i++) await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => !!document.activeElement?.closest("[data-rules-overlay]")), true, "Tab stays in the dialog");
      if (g.id === "hunters" && lang === "en") {
        await page.screenshot({ path: `${shots}/rules-desktop.png` });
        await page.setViewportSize({ width: 390, height: 844 });
        await page.locator("[data-rules-overlay] [data-rules-section='meadows']").scrollIntoViewIfNeeded();
        await page.waitForTimeout(150);
        await page.screenshot({ path: `${shots}/rules-phone.png` });
        await page.setViewportSize(desktop.viewport);
      }
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      assert.equal(await page.evaluate(() => document.activeElement?.dataset?.rulesLink), g.id, "the focus comes back to the link");
      assert.equal(await page.locator("[data-hand-tile]").getAttribute("style"), rot, "r did not turn the tile under the dialog");
      assert.equal(await page.locator("[data-intro]").count(), 0, "a test context has seen the first game's dialog");
    }
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});

test("the rules on a page of their own, from the lobby, in another language", { timeout: 60000 }, async () => {
  const { ctx, page, errors } = await open(server.url + "/");
  const first = catalog.games[0];
  await page.locator(`a[data-rules-link="${first.id}"]`).click();
  await page.waitForURL(`**/rules/${first.id}`);
  await checkRules(page, "[data-page='rules']", await api(server, "GET", `/api/rules/${first.id}`));
  assert.match(await page.title(), /^Rules: /);
  // the language picker reloads the page in Romanian
  await Promise.all([page.waitForEvent("load"), page.selectOption("select[data-lang]", "ro")]);
  const ro = await api(server, "GET", `/api/rules/${first.id}?lang=ro`);
  await checkRules(page, "[data-page='rules']", ro);
  assert.equal(await page.evaluate(() => document.documentElement.lang), "ro");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(150);
  await page.screenshot({ path: `${shots}/rules-page-phone.png` });
  // an unknown game says so
  await page.goto(server.url + "/rules/nogame");
  await page.waitForSelector("[data-message]");
  assert.deepEqual(errors, []);
  await ctx.close();
});

// Where a callout stands beside its target: the arrow's side touches the target's box.
async function callouts(page) {
  return page.evaluate(() => Object.fromEntries(["tile", "board", "confirm"].map((k) => {
    const c = document.querySelector(`[data-intro-callout="${k}"]`), ring = document.querySelector(`[data-intro-ring="${k}"]`);
    const a = c.getBoundingClientRect(), r = ring.getBoundingClientRect(), side = c.dataset.side;
    const gap = side === "right" ? a.left - r.right : side === "left" ? r.left - a.right : side === "above" ? r.top - a.bottom : a.top - r.bottom;
    const inView = a.left >= 0 && a.top >= 0 && a.right <= innerWidth && a.bottom <= innerHeight;
    return [k, { side, gap, inView, w: a.width }];
  })));
}
function targetsOf(page) {
  return page.evaluate(() => {
    const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    const ring = (k) => box(document.querySelector(`[data-intro-ring="${k}"]`));
    const within = (outer, inner) => outer[0] <= inner[0] + 1 && outer[1] <= inner[1] + 1 && outer[2] >= inner[2] - 1 && outer[3] >= inner[3] - 1;
    return {
      tile: within(ring("tile"), box(document.querySelector("[data-hand-tile]"))),
      confirm: within(ring("confirm"), box(document.querySelector("[data-confirm]"))),
      board: within(box(document.querySelector("[data-board]")), ring("board")),
    };
  });
}

test("the first game's dialog waits while an invited player who moves first is asked their name", { timeout: 120000 }, async () => {
  for (const lang of ["en", "ru", "ro"]) {
    const g = await api(server, "POST", "/api/games", { game: catalog.games[0].id, seats: [{ name: "Ann" }, { name: "Bob" }], seed: 8 });
    const { ctx, page, errors } = await open(server.url + g.seats[0].invite, { intro: true }, lang);
    await page.waitForSelector("[data-name-form]");
    await waitReady(page);
    await page.waitForTimeout(500);
    assert.equal(await page.locator("[data-intro]").count(), 0, `${lang}: no dialog over the question`);
    await page.screenshot({ path: `${shots}/name-before-intro-${lang}.png` });
    await page.fill("[data-name-input]", "Ana");
    await page.click("[data-name-save]");
    await page.locator("[data-intro]").waitFor();
    await page.waitForFunction(() => document.querySelector("[data-panel='scores']")?.textContent.includes("Ana"), null, { timeout: 20000 });
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});

test("the first game's dialog points at the tile, the board and Confirm, once and never again", { timeout: 120000 }, async () => {
  const g = await newGame(catalog.games[0].id, 8);
  const { ctx, page, errors } = await open(server.url + g.seats[0].invite, { intro: true });
  const dialog = page.locator("[data-intro]");
  // an invited player is asked their name first: the dialog waits for the answer, not over it
  await page.waitForSelector("[data-name-form]");
  await waitReady(page);
  await page.waitForTimeout(500);
  assert.equal(await dialog.count(), 0, "the dialog waits while the name is asked");
  await page.click("[data-name-keep]");
  await dialog.waitFor();
  assert.equal(await dialog.getAttribute("role"), "dialog");
  assert.equal(await dialog.getAttribute("aria-modal"), "true");
  assert.equal(await page.locator("#" + (await dialog.getAttribute("aria-labelledby"))).textContent(), "Your first game here");
  assert.equal(await page.locator("#" + (await dialog.getAttribute("aria-describedby")) + " li").count(), 3);
  assert.deepEqual(await targetsOf(page), { tile: true, confirm: true, board: true }, "each ring around its target");
  for (const [k, c] of Object.entries(await callouts(page))) {
    assert.ok(c.inView, `${k}: the callout is on the screen`);
    assert.ok(c.gap >= 4 && c.gap <= 30, `${k}: the callout stands beside its target (${JSON.stringify(c)})`);
  }
  // the focus is in the dialog and stays there; the game's keys wait
  assert.equal(await page.evaluate(() => document.activeElement?.hasAttribute("data-intro-close")), true);
  for (let i = 0; i < 5; i++) await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => !!document.activeElement?.closest("[data-intro]")), true, "Tab stays in the dialog");
  const rot = await page.locator("[data-hand-tile]").getAttribute("style");
  await page.keyboard.press("r");
  assert.equal(await page.locator("[data-hand-tile]").getAttribute("style"), rot, "r does not turn the tile under the dialog");
  await page.screenshot({ path: `${shots}/intro-desktop.png` });
  // Escape closes it for good: not after a reload, nor on another game's page
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  assert.equal(await page.evaluate(() => localStorage.getItem("carc.seen_intro")), "1");
  await page.keyboard.press("r");
  assert.notEqual(await page.locator("[data-hand-tile]").getAttribute("style"), rot, "the keys are the game's again");
  await page.reload();
  await waitReady(page);
  await page.waitForTimeout(300);
  assert.equal(await dialog.count(), 0, "not again after a reload");
  const g2 = await newGame(catalog.games[1 % catalog.games.length].id, 9);
  await page.goto(server.url + g2.seats[0].invite);
  await waitReady(page);
  await page.waitForTimeout(300);
  assert.equal(await dialog.count(), 0, "nor on another game's page");
  assert.deepEqual(errors, []);
  await ctx.close();

  // on a phone, and its button to the rules (which closes it for good too)
  const g3 = await newGame(catalog.games[0].id, 10);
  const p = await open(server.url + g3.seats[0].invite, { ...phone, intro: true });
  // the name's question is in the panels, folded away on a phone: the dialog covers nothing of it
  await p.page.locator("[data-intro]").waitFor();
  assert.equal(await p.page.locator("[data-name-save]").isVisible(), false, "the question is folded away");
  assert.deepEqual(await targetsOf(p.page), { tile: true, confirm: true, board: true });
  for (const [k, c] of Object.entries(await callouts(p.page))) assert.ok(c.inView && c.gap >= 4 && c.gap <= 30, `phone: ${k}: ${JSON.stringify(c)}`);
  await p.page.screenshot({ path: `${shots}/intro-phone.png` });
  await p.page.locator("[data-intro-rules]").tap();
  await p.page.locator("[data-rules-overlay] [data-rules-section]").first().waitFor();
  assert.equal(await p.page.locator("[data-intro]").count(), 0);
  assert.equal(await p.page.evaluate(() => localStorage.getItem("carc.seen_intro")), "1");
  await p.page.locator("[data-rules-close]").tap();
  await p.page.locator("[data-rules-overlay]").waitFor({ state: "detached" });
  assert.deepEqual(p.errors, []);
  await p.ctx.close();
});
