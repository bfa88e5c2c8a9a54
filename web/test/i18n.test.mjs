// The page in Russian and Romanian says nothing in English (issue 50): in each game of the
// catalog, a seat plays two turns by clicks against two bots, resigns, and the bots play on to the
// end; the lobby's bot levels and options, the seats' names, the game log and "This turn" (moves in
// words, the notation only as a tooltip, the reader's own turns in the second person), the final
// panel's points by source and the end's line are checked for the English the server or the page
// used to leave there. Screenshots: i18n-{game}-{lang}.png (the final panel), i18n-lobby-{lang}.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { startServer, stopAll, launch, openPage, api, rng, playTurnByClicks, repo } from "./harness.mjs";

let server, browser;
const shots = `${repo}/web/test-results`;
// the games players get (src/games/GAMES): the test games' words are a test's own
const games = readFileSync(`${repo}/src/games/GAMES`, "utf8").split("\n").map((l) => l.replace(/#.*/, "").trim()).filter(Boolean);
before(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer();
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.stop(); await stopAll(); });

const open = (url, lang) => openPage(browser, url, { lang });

// The move notation as the log used to show it: "L36 18,-2 r180", "explorer N", "jeep from -8,-1 to 1,4".
const NOTATION = /\S+ -?\d+,-?\d+ r\d+|\bjeep from\b|\b(found|explore) [a-z]+ at\b/;
// Words the page or the server left in English before (each a whole word, case as shown).
const ENGLISH = ["found", "explore", "jeep", "tokens in hand", "canoe", "pit trap", "explorer", "tribe member", "follower",
  "Bot", "easy", "normal", "hard", "Player", "You", "pass", "farmers", "Game created", "finished", "track", "amazon", "mouth",
  "watering hole", "on the", "tile"];
// A Romanian word that is also one of those (the rulebook's, or the same in both languages)
const SAME = { ro: ["canoe", "normal", "jeep", "Amazon", "Bot"] };

function english(text, lang) {
  return ENGLISH.filter((w) => !(SAME[lang] ?? []).some((s) => s.toLowerCase() === w.toLowerCase()))
    .filter((w) => new RegExp(`(^|[^\\p{L}])${w}([^\\p{L}]|$)`, "u").test(text));
}

// Russian shows no Latin word with a lower-case letter at all (tile ids, ports and coordinates are
// capitals and digits).
// A game's words may give a recorded choice's notation beside them ("(W at 3,0)"): that is notation.
function latinRu(text) { text = text.replace(/\(\S+ at -?\d+,-?\d+\)/g, ""); return [...text.matchAll(/[A-Za-z]*[a-z][A-Za-z]*/g)].map((m) => m[0]).filter((w) => w.length > 1); }

for (const lang of ["ru", "ro"]) {
  test(`the lobby in ${lang}: bot levels and a game's options in words`, { timeout: 60000 }, async () => {
    const { ctx, page, errors } = await open(server.url + "/", lang);
    await page.waitForSelector("[data-seat-kind='1']");
    const levels = await page.$$eval("[data-seat-kind='1'] option", (os) => os.map((o) => o.textContent));
    for (const l of levels) assert.deepEqual(english(l, lang), [], `a seat's choice in English: ${l}`);
    for (const id of games) {
      await page.selectOption("[data-lobby-game]", id);
      const opts = await page.locator("[data-create-form] .opts").innerText();
      assert.deepEqual(english(opts, lang), [], `${id}'s options in English: ${opts}`);
      if (lang === "ru") assert.deepEqual(latinRu(opts), [], `${id}'s options: ${opts}`);
    }
    await page.screenshot({ path: `${shots}/i18n-lobby-${lang}.png`, fullPage: true });
    assert.deepEqual(errors, []);
    await ctx.close();
  });

  for (const id of games) {
    test(`${id} in ${lang}: the log, the turn and the final panel say moves and sources in words`, { timeout: 240000 }, async () => {
      const g = await api(server, "POST", "/api/games", { game: id, seed: 7, seats: [{ name: "Аня" }, { bot: "easy" }, { bot: "easy" }] });
      const { ctx, page, errors } = await open(server.url + g.seats[0].invite, lang);
      const rand = rng(7);
      // the seats' names: the bots' in words, in the page's language
      await page.waitForSelector("[data-panel='scores'] tr[data-seat='2']");
      const seats = await page.locator("[data-panel='scores']").innerText();
      assert.deepEqual(english(seats, lang), [], `the seats in English: ${seats}`);
      await page.waitForSelector("[data-notation-input]");
      const hint = await page.locator("[data-notation-input]").getAttribute("placeholder");
      assert.deepEqual(english(hint, lang), [], `the notation box: ${hint}`);
      for (let turn = 0; turn < 2; turn++) {
        // "This turn" in words once a decision is taken (the notation is its tooltip)
        let said = "";
        await playTurnByClicks(page, rand, {
          onStep: async (p) => {
            const b = p.locator("[data-moves] b");
            if (await b.count()) said = await b.innerText();
          },
        });
        if (said) {
          assert.doesNotMatch(said, NOTATION, `"This turn" in notation: ${said}`);
          assert.deepEqual(english(said, lang), [], `"This turn" in English: ${said}`);
        }
        await page.waitForFunction(() => document.body.dataset.ready === "true" || document.body.dataset.over === "true", null, { timeout: 60000 });
      }
      await page.click("[data-resign]");
      await page.waitForSelector("[data-panel='final'] tr[data-breakdown]", { timeout: 180000 });
      await page.waitForFunction(() => document.querySelectorAll("[data-panel='log'] li").length > 5);
      const log = await page.$$eval("[data-panel='log'] li", (ls) => ls.map((l) => l.innerText.replace(/\s+/g, " ")));
      const final = await page.locator("[data-panel='final']").innerText();
      const status = await page.locator("[data-status]").innerText().catch(() => "");
      for (const l of log) {
        assert.doesNotMatch(l, NOTATION, `a log line in notation: ${l}`);
        assert.deepEqual(english(l, lang), [], `a log line in English: ${l}`);
        if (lang === "ru") assert.deepEqual(latinRu(l), [], `a log line with Latin words: ${l}`);
      }
      // the reader's own turns in the second person; the notation stays as each line's tooltip
      const you = lang === "ru" ? "Вы:" : "Tu:";
      assert.ok(log.some((l) => l.includes(` ${you} `)), `no line of the reader's own turns (${you}): ${log.join(" | ")}`);
      assert.ok(!log.some((l) => l.includes("Аня:")), "the reader named in the third person");
      const tips = await page.$$eval("[data-panel='log'] [data-log-notation]", (ls) => ls.map((l) => l.getAttribute("title")));
      assert.ok(tips.some((x) => / -?\d+,-?\d+ r\d+/.test(x)), `the notation as the turns' tooltips: ${tips.slice(0, 3)}`);
      const rows = await page.$$eval("[data-panel='final'] tr[data-breakdown] td:first-child", (tds) => tds.map((td) => td.textContent));
      for (const r of rows) {
        assert.deepEqual(english(r, lang), [], `a points-by-source row in English: ${r}`);
        if (lang === "ru") assert.deepEqual(latinRu(r), [], `a points-by-source row: ${r}`);
      }
      assert.deepEqual(english(final, lang), [], `the final panel in English: ${final}`);
      assert.doesNotMatch(status + final, /\((terminat|завершена)\)/, "the end's reason repeated");
      if (lang === "ru") assert.deepEqual(latinRu(final), [], `the final panel: ${final}`);
      await page.screenshot({ path: `${shots}/i18n-${id}-${lang}.png`, fullPage: true });
      assert.deepEqual(errors, []);
      await ctx.close();
    });
  }
}
