// Ad-hoc (not a test): page load to an interactive board (window.carc.interactiveMs, docs/web.md)
// and confirm to the updated board late in a base game, on two running servers at once (e.g. the
// build before a change and after), alternating, so that a busy machine weighs on both alike.
//   node test/_paint.mjs URL_A URL_B [ROUNDS]      (env PAINT_GAMES=a,b: those games; PAINT_LATE=0: no whole game)
// Start each server with the limits for strangers off (as harness.mjs startServer does).
import { launch, newContext, rng, playTurnOnBoard } from "./harness.mjs";
const [A, B] = process.argv.slice(2, 4);
const rounds = Number(process.argv[4] ?? 5);
const games = (process.env.PAINT_GAMES ?? "base,amazonas,hunters,safari").split(",");  // PAINT_GAMES=hunters: one game
const post = async (url, body) => (await fetch(url + "/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json();
const browser = await launch();
const paint = { [A]: {}, [B]: {} }, late = { [A]: [], [B]: [] };
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.floor(s.length / 2)] : null; };
for (let r = 0; r < rounds; r++) {
  for (const game of games) {
    for (const url of r % 2 ? [B, A] : [A, B]) {
      const g = await post(url, { game, seats: [{ name: "Tester" }, { bot: "random" }], seed: 700 + r });
      const ctx = await newContext(browser, { viewport: { width: 1366, height: 768 } });
      const page = await ctx.newPage();
      await page.goto(url + g.seats[0].invite);
      await page.waitForFunction(() => window.carc?.interactiveMs !== undefined, null, { timeout: 60000 });
      (paint[url][game] ??= []).push(Math.round(await page.evaluate(() => window.carc.interactiveMs)));
      await ctx.close();
    }
  }
}
// a whole base game by clicks on each, alternating: confirm -> board from the player's 30th turn
// (move 60 on) to the end, where the board is largest
for (let r = 0; r < (process.env.PAINT_LATE === "0" ? 0 : Math.max(1, Math.floor(rounds / 2))); r++) {  // PAINT_LATE=0: none
  for (const url of r % 2 ? [B, A] : [A, B]) {
    const g = await post(url, { game: "base", seats: [{ name: "Tester" }, { bot: "random" }], seed: 900 + r });
    const ctx = await newContext(browser, { viewport: { width: 1366, height: 768 } });
    const page = await ctx.newPage();
    await page.goto(url + g.seats[0].invite);
    const rand = rng(900 + r);
    while (await playTurnOnBoard(page, rand, { timeout: 120000 }));
    const c = await page.evaluate(() => window.carc.confirmToBoardMs);
    late[url].push(...c.slice(29));
    await ctx.close();
  }
}
for (const url of [A, B]) {
  console.log(`${url}: page load to an interactive board, median of ${rounds} (ms): ${games.map((g) => `${g} ${med(paint[url][g])}`).join(", ")}`);
  console.log(`${url}: confirm -> board from move 60 of a base game: p50 ${med(late[url])?.toFixed(1)} ms over ${late[url].length} confirms`);
}
await browser.close();
