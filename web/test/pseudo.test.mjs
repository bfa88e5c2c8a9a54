// The pseudo-locale xx in the browser (issue 50, docs/i18n.md "The pseudo-locale xx"): every
// message, the client's and the server's, shows with its letters accented, so any run of plain
// ASCII letters on the screen did not come from a message. The test goes through the pages the
// other browser tests reach, in xx: the lobby (opened by ?lang=xx; a game created by its form;
// "your games"), each game of src/games/GAMES played to its end by clicks against a bot (every
// decision the turns bring, the keys' list, the settings, all options, the rules over the page,
// the final panel, the replay), the analysis of a finished game, the rules' own pages, the first
// game's dialog with the name asked, an unknown game's rules, the words in the tiles' pictures, the
// account pages (/account as a guest and as an account, the recovery codes, refusals,
// /account/recover, /account/reset) and the lobby's "Your games" of an account. On each it reads every visible text
// and the title, aria-label, aria-valuetext, placeholder and alt of every visible element, and
// fails on any run of two or more ASCII letters that is not in ALLOWED, naming the page, the
// element and the words around it. It also checks that the client's pseudo() is the server's
// (the rules pages in xx against their English). Screenshots: pseudo-{game}-{mid,final}.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import * as esbuild from "esbuild";
import { startServer, stopAll, launch, openPage, api, rng, playTurnByClicks, summary, repo } from "./harness.mjs";

let server, browser;
const shots = `${repo}/web/test-results`;
const games = readFileSync(`${repo}/src/games/GAMES`, "utf8").split("\n").map((l) => l.replace(/#.*/, "").trim()).filter(Boolean);
before(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer({ extra: ["--analysis-playouts", "100"] });
  browser = await launch();
  for (const id of games) for (const tile of (await api(server, "GET", `/api/tiles/${id}`)).tiles) ALLOWED_WORDS.add(tile.id);
});
after(async () => { await browser?.close(); await server?.stop(); await stopAll(); });

// The seats' names this test gives (Latin on purpose: a name is shown as it is).
const NAMES = ["Ann", "Bob"];
// What may show in plain ASCII letters, and only this:
// - elements whose text or tooltip is the notation, where the notation is meant: a log line's
//   notation (its tooltip), "This turn"'s tooltip, an analysed move's tooltip ([data-notation]),
//   the notation box (its value is typed);
//   and the language picker's names of its languages (each in its own language, never translated);
//   a recovery code (random letters and digits) and what a session's browser says of itself
//   (its user agent: "Chrome 131 · Linux", the whole as the tooltip);
const NOTATION_ELEMENTS = "[data-log-notation], [data-moves] b, [data-notation-input], select[data-lang] option, [data-code], [data-session-agent]";
const NOTATION_ATTRS = { "[data-log-notation]": "title", "[data-moves] b": "title", "[data-notation]": "title", "[data-session-agent]": "title" };
// - whole words: the seats' names, a tile's id (CSS1, CS5a: the games' tile catalogs, read before
//   the tests) and a game's id (12 hex digits: "Game 1371bf20f672 created").
//   A port of the notation where a sentence names it ("(ENE)", "at -1,0 NE") and a key as its
//   cap prints it (the keys' list).
const PORTS = ["NNE", "NE", "ENE", "ESE", "SE", "SSE", "SSW", "SW", "WSW", "WNW", "NW", "NNW"];
const KEY_CAPS = ["Shift", "Enter", "Tab", "Esc", "Backspace"];
const ALLOWED_WORDS = new Set([...NAMES, ...PORTS, ...KEY_CAPS]);
const GAME_ID = /^[0-9a-f]{12}$/;
// English still left, known and reported (each printed as a "known:" line when seen), to be fixed
// where it comes from; remove an entry once it is. page: the test's page name; where: the element;
// text: the words around the run.
const KNOWN = [
];

// Runs of two or more ASCII letters in a text, each with the words around it.
function foreign(text) {
  const out = [];  // [run, the words around it]
  for (const m of text.matchAll(/[A-Za-z]{2,}/g)) {
    // the whole word the run is in (letters and digits)
    const start = text.slice(0, m.index).search(/[\p{L}\p{N}]*$/u);
    const word = text.slice(start).match(/^[\p{L}\p{N}]+/u)[0];
    if (ALLOWED_WORDS.has(word) || GAME_ID.test(word)) continue;
    out.push([m[0], text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40).replace(/\s+/g, " ")]);
  }
  return out;
}

// Every text a person sees or hears on the page now, with where it is.
async function shown(page) {
  return page.evaluate(([notation, notationAttrs]) => {
    const out = [];
    const where = (el) => {
      const parts = [];
      for (let e = el; e && e !== document.body && parts.length < 3; e = e.parentElement) {
        const data = [...e.attributes].filter((a) => a.name.startsWith("data-")).map((a) => `[${a.name}${a.value ? `="${a.value.slice(0, 20)}"` : ""}]`).join("");
        parts.unshift(e.tagName.toLowerCase() + data + (e.className && typeof e.className === "string" ? `.${e.className.split(" ")[0]}` : ""));
      }
      return parts.join(" > ");
    };
    const visible = (el) => {
      if (el.tagName === "OPTION") return visible(el.closest("select"));
      if (el.tagName === "title" && el.parentElement) return visible(el.parentElement);
      return el.checkVisibility({ visibilityProperty: true });
    };
    out.push({ where: "document.title", text: document.title });
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent.trim() || el.closest("script, style, noscript") || el.closest(notation) || !visible(el)) continue;
      out.push({ where: where(el), text: n.textContent });
    }
    for (const el of document.querySelectorAll("[title], [aria-label], [aria-valuetext], [placeholder], [alt]")) {
      if (!visible(el)) continue;
      for (const a of ["title", "aria-label", "aria-valuetext", "placeholder", "alt"]) {
        const v = el.getAttribute(a);
        if (!v || Object.entries(notationAttrs).some(([sel, attr]) => attr === a && el.matches(sel))) continue;
        out.push({ where: `${where(el)} @${a}`, text: v });
      }
    }
    return out;
  }, [NOTATION_ELEMENTS, NOTATION_ATTRS]);
}

// The English found so far (one line each, deduplicated), by page.
function collector() {
  const found = new Map(), known = new Set();
  return {
    async check(page, name) { this.checkTexts(await shown(page), name); },
    checkTexts(texts, name) {
      for (const { where, text } of texts) {
        for (const [run, around] of foreign(text)) {
          const k = KNOWN.find((x) => x.page.test(name) && (!x.where || x.where.test(where)) && (!x.text || x.text.test(around)));
          if (k) { known.add(k.why); continue; }
          // one line per word and kind of element (the same label on every spot is one finding)
          const key = `"${run}" (${where.replace(/="[^"]*"/g, "")})`;
          if (!found.has(key)) found.set(key, `${name}: "${run}" in …${around}… (${where})`);
        }
      }
    },
    assertNone() {
      for (const why of known) console.log(`# known: ${why}`);
      const lines = [...found.values()];
      assert.deepEqual(lines, [], `ASCII words not from a message in xx:\n${lines.join("\n")}`);
    },
  };
}

const open = (url, opts = {}, { lang = "xx", askName = false } = {}) => openPage(browser, url, { lang, askName, ...opts });

test("the client's pseudo() is the server's: the rules pages in xx from their English", { timeout: 60000 }, async () => {
  // the client's i18n module, bundled for node (it reads no page at load but in try blocks)
  const built = await esbuild.build({ entryPoints: [`${repo}/web/src/i18n.ts`], bundle: true, format: "esm", write: false, platform: "neutral" });
  globalThis.navigator ??= { languages: [] };
  const { pseudo } = await import(`data:text/javascript;base64,${Buffer.from(built.outputFiles[0].text).toString("base64")}`);
  assert.equal(pseudo("Turn {turn}"), "[Ţúŕñ {turn} ~~]");
  for (const id of games) {
    const en = await api(server, "GET", `/api/rules/${id}?lang=en`), xx = await api(server, "GET", `/api/rules/${id}?lang=xx`);
    assert.equal(xx.lang, "xx");
    for (const [i, s] of en.sections.entries()) {
      assert.equal(pseudo(s.title), xx.sections[i].title);
      s.text.forEach((p, k) => assert.equal(pseudo(p), xx.sections[i].text[k], `${id} ${s.id} paragraph ${k}`));
    }
  }
});

test("the lobby in xx (?lang=xx): no English; xx not offered in the picker; a game created, your games", { timeout: 120000 }, async () => {
  const c = collector();
  const { ctx, page, errors } = await open(`${server.url}/?lang=xx`, {}, { lang: null });
  await page.waitForSelector("[data-seat-kind='1']");
  assert.equal(await page.evaluate(() => localStorage.getItem("carc.lang")), "xx", "?lang=xx remembered");
  assert.deepEqual(await page.$$eval("select[data-lang] option", (os) => os.map((o) => o.value)), ["en", "ru", "ro"]);
  await c.check(page, "lobby");
  for (const id of games) {
    await page.selectOption("[data-lobby-game]", id);
    await c.check(page, `lobby (${id} chosen)`);
  }
  await page.fill("[data-lobby-name]", NAMES[0]);
  await page.click("[data-create]");
  await page.waitForSelector("[data-create-result] [data-open-game]");
  await c.check(page, "lobby (a game created)");
  // a new page: the game just made is among "your games", and watched
  await page.goto(`${server.url}/`);
  await page.waitForSelector("[data-my-game]");
  await c.check(page, "lobby (your games)");
  await page.screenshot({ path: `${shots}/pseudo-lobby.png`, fullPage: true });
  // an unknown game's rules, and an unknown game
  for (const u of ["/rules/nogame", "/play/nogame"]) {
    await page.goto(server.url + u);
    await page.waitForSelector("[data-rules-none], [data-message]");
    await c.check(page, u);
  }
  await ctx.close();
  assert.deepEqual(errors, []);
  c.assertNone();
});

test("the account pages in xx: a guest's, refusals, the codes, an account's, recovery and reset, the lobby's \"Your games\"", { timeout: 120000 }, async () => {
  const c = collector();
  const { ctx, page, errors } = await open(`${server.url}/`);
  // a guest's game, for "Your games"
  await page.click(`[data-quick="${games[0]}"]`);
  await page.waitForSelector("[data-conn='online']");
  await c.check(page, "game page (the header's guest)");
  await page.goto(`${server.url}/account`);
  await page.waitForSelector("[data-claim-form]");
  await c.check(page, "/account (a guest)");
  const send = async (form, values) => {
    for (const [k, v] of Object.entries(values)) await page.fill(`${form} [data-field="${k}"]`, v);
    await page.click(`${form} [data-submit]`);
  };
  await send("[data-claim-form]", { name: "a", password: "short" });
  await page.waitForSelector("[data-claim-form] [data-error='password_short']");
  await send("[data-claim-form]", { name: "a", password: "a long enough secret" });
  await page.waitForSelector("[data-claim-form] [data-error='username_length']");
  await send("[data-login-form]", { name: NAMES[0], password: "not the password" });
  await page.waitForSelector("[data-login-form] [data-error='bad_login']");
  await c.check(page, "/account (refusals)");
  await send("[data-claim-form]", { name: NAMES[0], password: "a long enough secret" });
  await page.waitForSelector("[data-codes] [data-code]");
  await page.click("[data-codes-copy]");
  await c.check(page, "/account (the recovery codes)");
  await page.check("[data-codes-kept]");
  await page.click("[data-codes-done]");
  await page.waitForSelector("[data-sessions] [data-session]");
  await send("[data-password-form]", { current: "not the password", password: "another long secret" });
  await page.waitForSelector("[data-password-form] [data-error='bad_password']");
  await c.check(page, "/account (an account)");
  await page.goto(`${server.url}/`);
  await page.waitForSelector("[data-account-game]");
  await c.check(page, "lobby (your games, an account's)");
  await page.goto(`${server.url}/account/recover`);
  await send("[data-recover-form]", { name: NAMES[0], code: "0000-0000-0000", password: "a third long secret" });
  await page.waitForSelector("[data-recover-form] [data-error='bad_recovery']");
  await c.check(page, "/account/recover");
  await page.goto(`${server.url}/account/reset`);
  await page.waitForSelector("[data-reset] [data-error]");
  await c.check(page, "/account/reset (no token)");
  await page.goto(`${server.url}/account/reset#${"A".repeat(43)}`);
  await send("[data-reset-form]", { password: "a fourth long secret" });
  await page.waitForSelector("[data-reset-form] [data-error='bad_reset']");
  await c.check(page, "/account/reset (a refused link)");
  await ctx.close();
  assert.deepEqual(errors, []);
  c.assertNone();
});

test("the tiles' pictures in xx: their words too", { timeout: 60000 }, async () => {
  // the engine's pictures are images on the page (their words are not the page's text)
  const c = collector();
  for (const id of games) {
    const texts = (await api(server, "GET", `/api/tiles/${id}?lang=xx`)).tiles.flatMap((tile) =>
      [...(tile.svg ?? "").matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => ({ where: `tile ${tile.id}'s picture`, text: m[1] })));
    c.checkTexts(texts, `tiles:${id}`);
  }
  c.assertNone();
});

test("the rules' own page of every game in xx", { timeout: 120000 }, async () => {
  const c = collector();
  const { ctx, page, errors } = await open(null);
  for (const id of games) {
    await page.goto(`${server.url}/rules/${id}`);
    await page.waitForSelector("[data-page='rules'] [data-rules-section]");
    await page.waitForFunction(() => [...document.querySelectorAll("[data-rules-tile] img")].every((i) => i.complete));
    await c.check(page, `/rules/${id}`);
  }
  await ctx.close();
  assert.deepEqual(errors, []);
  c.assertNone();
});

test("the first game's dialog with the name asked first, in xx", { timeout: 120000 }, async () => {
  const c = collector();
  const g = await api(server, "POST", "/api/games", { game: games[0], seed: 5, seats: [{}, { bot: "random" }] });
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, intro: true });
  await ctx.addInitScript(() => localStorage.setItem("carc.lang", "xx"));
  const page = await ctx.newPage();
  await page.goto(server.url + g.seats[0].invite);
  await page.waitForSelector("[data-name-form], [data-intro]");
  await c.check(page, "game page (the name asked)");
  const name = page.locator("[data-name-form] input");
  if (await name.count()) {
    await name.fill(NAMES[0]);
    await page.keyboard.press("Enter");
  }
  await page.waitForSelector("[data-intro]");
  await c.check(page, "game page (the first game's dialog)");
  await ctx.close();
  c.assertNone();
});

// A game played to its end by clicks against a bot, in xx: every decision, the page's helps, the
// final panel, the replay; the analysis of the first game.
for (const [gi, id] of games.entries()) {
  test(`${id} in xx: every decision by clicks, the helps, the final panel, the replay`, { timeout: 600000 }, async () => {
    const c = collector();
    const g = await api(server, "POST", "/api/games", { game: id, seed: 11, seats: [{ name: NAMES[0] }, { bot: "easy" }] });
    const { ctx, page, errors } = await open(server.url + g.seats[0].invite);
    const rand = rng(11);
    await page.waitForSelector("[data-notation-input]");
    await c.check(page, `${id}: the first turn`);
    // the keys' list, the settings, all options, the rules over the page: opened once each
    await page.click("[data-keys]");
    await page.waitForSelector("[data-keys-help]");
    await c.check(page, `${id}: the keys' list`);
    await page.keyboard.press("Escape");
    await page.click("[data-settings] summary");
    await c.check(page, `${id}: the settings`);
    await page.click("[data-settings] summary");
    await page.click(`a[data-rules-link="${id}"]`);
    await page.waitForSelector(`[data-rules-overlay] [data-rules-section]`);
    await c.check(page, `${id}: the rules over the game`);
    await page.click("[data-rules-close]");
    let turns = 0, midShot = false;
    for (; turns < 200; turns++) {
      const more = await playTurnByClicks(page, rand, {
        onStep: async (p) => {
          await c.check(p, `${id}: turn ${turns + 1}`);
          if (turns === 4 && !midShot) {
            midShot = true;
            const all = p.locator("[data-all-options] > summary");
            if (await all.count()) {
              await all.click();
              await c.check(p, `${id}: all options`);
              await p.screenshot({ path: `${shots}/pseudo-${id}-mid.png` });
              await all.click();
            } else await p.screenshot({ path: `${shots}/pseudo-${id}-mid.png` });
          }
        },
      });
      if (!more) break;
      await page.waitForFunction(() => document.body.dataset.ready === "true" || document.body.dataset.over === "true", null, { timeout: 60000 });
    }
    await page.waitForSelector("[data-panel='final'] [data-final-score]", { timeout: 120000 });
    await c.check(page, `${id}: the final panel`);
    await page.screenshot({ path: `${shots}/pseudo-${id}-final.png`, fullPage: true });
    // the replay bar, a step back
    await page.click("header [data-replay]");
    await page.waitForSelector("[data-replay-bar]:not([hidden])");
    await page.click("[data-replay-prev]");
    await c.check(page, `${id}: the replay`);
    await page.click("header [data-replay]");
    if (gi === 0) {
      // the analysis: the graph, the list, a decision chosen, its ownership
      assert.equal((await summary(server, g.id)).status, "finished");
      await page.click("[data-panel='final'] [data-analyse]");
      await page.waitForSelector("[data-panel='analysis'] svg[data-analysis-graph]", { timeout: 300000 });
      await c.check(page, `${id}: the analysis`);
      const marked = page.locator("[data-analysis-moves] li:not([data-mark='']) button[data-decision]");
      await (await marked.count() ? marked.first() : page.locator("button[data-decision]").first()).click();
      await page.waitForSelector("[data-analysis-note]:not([hidden])");
      await page.waitForTimeout(300);
      await c.check(page, `${id}: the analysis (a decision chosen)`);
      const own = page.locator("[data-ownership-toggle]");
      if (await own.count()) {
        await own.click();
        await page.waitForSelector("[data-ownership-legend]");
        await c.check(page, `${id}: the analysis (ownership)`);
      }
    }
    assert.deepEqual(errors, []);
    await ctx.close();
    c.assertNone();
  });
}
