// Ad-hoc (not a test): the "Done when" walk against a running ./run.sh server: from the
// lobby, one click, a whole game against the easy bot, in each game, at desktop and phone size.
import { launch, rng, playTurnByClicks } from "./harness.mjs";
const url = process.argv[2] ?? "http://127.0.0.1:8080";
const catalog = await (await fetch(`${url}/api/catalog`)).json();
const browser = await launch();
for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844, touch: true }]) {
  for (const game of catalog.games.map((g) => g.id)) {
    const t0 = Date.now();
    const ctx = await browser.newContext({ viewport: { width: size.width, height: size.height }, hasTouch: !!size.touch, isMobile: !!size.touch });
    const page = await ctx.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url + "/");
    await page.click(`[data-quick='${game}']`);
    await page.waitForURL(/\/play\//);
    const rand = rng(game.length + size.width);
    let turns = 0;
    while (await playTurnByClicks(page, rand, { timeout: 120000 })) turns++;
    const id = /\/play\/([0-9a-f]+)/.exec(page.url())[1];
    const rec = await (await fetch(`${url}/api/games/${id}/record`)).json();
    await page.waitForSelector("[data-final-score]", { state: "attached" });
    await page.waitForTimeout(3000);  // the final scoring steps
    const shown = await page.$$eval("[data-final-score]", (els) => els.map((e) => Number(e.getAttribute("data-final-score"))));
    const ok = JSON.stringify(shown) === JSON.stringify(rec.final_scores) && rec.status === "finished";
    console.log(`${game} ${size.width}x${size.height}: ${turns} turns by clicks, ${rec.status}, page ${shown} record ${rec.final_scores} ${ok ? "OK" : "MISMATCH"}, errors ${errors.length}, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    await page.screenshot({ path: `/tmp/shots/done-${game}-${size.width}.png` });
    await ctx.close();
  }
}
await browser.close();
