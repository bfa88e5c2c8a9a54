// Players who last in Debian's Chromium (issue 51; docs/web.md "Accounts"): every page names the
// session's player in its header (a guest on the first visit); /account claims an account (its 8
// recovery codes shown once, kept before going on), logs out and in, lists the sessions and ends
// another browser's, changes the password, deletes the account; /account/recover takes a recovery
// code, /account/reset the operator's one-time link (`carcassonne admin reset-link`); the lobby's
// "Your games" (GET /api/me/games) lists a guest's game after the claim, and another browser
// logged in as the same account opens its seat from there without the token (hello with `seat`).
// Every refusal is a sentence next to its field, in the page's language. Screenshots of /account
// (guest, codes, account) and the lobby's "Your games" in en, ru and ro: accounts-*-LANG.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { startServer, stopAll, launch, openPage, rng, playTurnByClicks, repo, bin } from "./harness.mjs";

let server, browser;
const shots = `${repo}/web/test-results`;
const PASSWORD = "a long enough secret", PASSWORD2 = "another long secret", PASSWORD3 = "third time lucky", PASSWORD4 = "the operator's link";
before(async () => { mkdirSync(shots, { recursive: true }); server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); await stopAll(); });

const open = (url, lang = "en", opts = {}) => openPage(browser, url === null ? null : server.url + url, { lang, ...opts });
const me = (page) => page.locator("[data-me]").first();
async function who(page) {
  await page.waitForSelector("[data-me]:not([hidden])");
  return { kind: await me(page).getAttribute("data-me"), text: (await me(page).innerText()).trim() };
}
// The sentence a refusal shows, and where: the field it names (data-error-for) or the form ("").
async function refusal(page, form, code) {
  const el = page.locator(`${form} [data-error="${code}"]`);
  await el.waitFor();
  return { text: (await el.innerText()).trim(), field: await el.getAttribute("data-error-for") };
}
async function submit(page, form, values) {
  for (const [name, v] of Object.entries(values)) await page.fill(`${form} [data-field="${name}"]`, v);
  await page.click(`${form} [data-submit]`);
}
// A guest claims an account on /account: the codes shown, kept, then the account's page.
async function claim(page, name, password = PASSWORD) {
  await page.waitForSelector("[data-claim-form]");
  await submit(page, "[data-claim-form]", { name, password });
  await page.waitForSelector("[data-codes] [data-code]");
  const codes = await page.$$eval("[data-code]", (els) => els.map((e) => e.textContent));
  await page.check("[data-codes-kept]");
  await page.click("[data-codes-done]");
  await page.waitForSelector("[data-account='account'] [data-sessions] li");
  return codes;
}
async function login(page, name, password) {
  await page.waitForSelector("[data-login-form]");
  await submit(page, "[data-login-form]", { name, password });
}
const sessionsShown = (page) => page.$$eval("[data-sessions] li[data-session]", (els) => els.map((e) => ({ id: e.dataset.session, current: e.dataset.current === "true" })));

test("every refusal of the account routes has a sentence in en, ru and ro", () => {
  const messages = JSON.parse(readFileSync(`${repo}/web/src/messages.json`, "utf8"));
  const codes = ["username_length", "username_chars", "username_reserved", "password_short", "password_long", "password_common", "password_username",
    "password_utf8", "name_taken", "already_claimed", "bad_login", "banned", "login_limited", "bad_password", "bad_recovery", "bad_reset", "not_claimed",
    "busy", "no_session", "unknown_session"];
  for (const c of codes) for (const l of ["en", "ru", "ro"]) assert.ok(messages[`account.error.${c}`]?.[l], `account.error.${c} in ${l}`);
  for (const c of ["login_limited", "busy"]) assert.match(messages[`account.error.${c}`].en, /\{wait\}/, `${c} says how long to wait`);
});

test("a guest claims an account (8 codes), logs out and in; a second browser's wrong password, then right; the first ends the second's session", { timeout: 180000 }, async () => {
  const a = await open("/account");
  const guest = await who(a.page);
  assert.equal(guest.kind, "guest");
  assert.match(guest.text, /^Guest \d{1,4}$/);
  // the page's own words for the guest, and the header's link
  assert.equal(await me(a.page).getAttribute("href"), "/account");
  await a.page.screenshot({ path: `${shots}/accounts-guest-en.png`, fullPage: true });

  // the password field: shown and hidden on demand, paste not refused, its length said as typed
  const pw = "[data-claim-form] [data-field='password']";
  assert.equal(await a.page.getAttribute(pw, "type"), "password");
  await a.page.click("[data-claim-form] [data-show-password]");
  assert.equal(await a.page.getAttribute(pw, "type"), "text");
  await a.page.click("[data-claim-form] [data-show-password]");
  assert.equal(await a.page.getAttribute(pw, "type"), "password");
  const pasteRefused = await a.page.$eval(pw, (el) => !el.dispatchEvent(new ClipboardEvent("paste", { bubbles: true, cancelable: true, clipboardData: new DataTransfer() })));
  assert.equal(pasteRefused, false, "paste allowed (ASVS 2.1.11)");
  await a.page.fill(pw, "abc");
  const hint = "[data-claim-form] [data-length-hint]";
  assert.equal(await a.page.getAttribute(hint, "data-ok"), "false");
  assert.match(await a.page.innerText(hint), /At least 8 characters.*3 so far/);
  await a.page.fill(pw, "пароль12");  // 8 characters, 14 bytes
  assert.equal(await a.page.getAttribute(hint, "data-ok"), "true");
  assert.match(await a.page.innerText(hint), /^8 characters: long enough/);

  // the server's refusals, each a sentence next to the field it concerns
  const cases = [
    [{ name: "a", password: PASSWORD }, "username_length", "name", /2 to 30 characters/],
    [{ name: "9lives", password: PASSWORD }, "username_chars", "name", /starts with a letter/],
    [{ name: "Admin", password: PASSWORD }, "username_reserved", "name", /reserved/],
    [{ name: "ann_1", password: "short" }, "password_short", "password", /at least 8 characters/],
    [{ name: "ann_1", password: "Password1" }, "password_common", "password", /most common/],
    [{ name: "ann_1xyz", password: "ANN_1XYZ" }, "password_username", "password", /cannot be the name/],
  ];
  for (const [values, code, field, words] of cases) {
    await submit(a.page, "[data-claim-form]", values);
    const r = await refusal(a.page, "[data-claim-form]", code);
    assert.equal(r.field, field, code);
    assert.match(r.text, words, code);
    assert.equal(await a.page.getAttribute(`[data-claim-form] [data-field='${field}']`, "aria-invalid"), "true");
  }
  await a.page.screenshot({ path: `${shots}/accounts-refused-en.png`, fullPage: true });

  // the claim: the codes once, kept before going on (the button waits for the box)
  await submit(a.page, "[data-claim-form]", { name: "ann_1", password: PASSWORD });
  await a.page.waitForSelector("[data-codes] [data-code]");
  const codes = await a.page.$$eval("[data-code]", (els) => els.map((e) => e.textContent));
  assert.equal(codes.length, 8);
  for (const c of codes) assert.match(c, /^[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}$/);
  assert.match(await a.page.innerText("[data-codes-warning]"), /shown only this once/);
  await a.ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  await a.page.click("[data-codes-copy]");
  // (the copy is asynchronous: its answer comes when the clipboard has it)
  await a.page.waitForFunction(() => document.querySelector("[data-codes-copy]").textContent !== "Copy the codes", null, { timeout: 30000 });
  assert.match(await a.page.innerText("[data-codes-copy]"), /^(Copied|Selected: copy them yourself)$/);
  if ((await a.page.innerText("[data-codes-copy]")) === "Copied") assert.equal((await a.page.evaluate(() => navigator.clipboard.readText())).trim(), codes.join("\n"));
  assert.equal(await a.page.isDisabled("[data-codes-done]"), true, "kept first");
  await a.page.screenshot({ path: `${shots}/accounts-codes-en.png`, fullPage: true });
  assert.deepEqual(await who(a.page), { kind: "account", text: "ann_1" });
  await a.page.check("[data-codes-kept]");
  await a.page.click("[data-codes-done]");
  await a.page.waitForSelector("[data-account='account'] [data-sessions] li");
  assert.match(await a.page.innerText("[data-notice]"), /ann_1/);
  assert.equal(await a.page.getAttribute("[data-codes-left]", "data-codes-left"), "8");
  // the name taken, by another guest
  const other = await open("/account");
  await submit(other.page, "[data-claim-form]", { name: "ANN_1", password: PASSWORD });
  assert.equal((await refusal(other.page, "[data-claim-form]", "name_taken")).field, "name");
  await other.ctx.close();

  // logged out: a guest again; logged in again: the account
  await a.page.click("[data-logout]");
  await a.page.waitForSelector("[data-account='guest'] [data-login-form]");
  assert.equal((await who(a.page)).kind, "guest");
  assert.match(await a.page.innerText("[data-notice]"), /logged out/);
  await login(a.page, "ann_1", PASSWORD);
  await a.page.waitForSelector("[data-account='account'] [data-sessions] li");
  assert.deepEqual(await who(a.page), { kind: "account", text: "ann_1" });
  await a.page.goto(server.url + "/");  // the lobby's header too
  assert.deepEqual(await who(a.page), { kind: "account", text: "ann_1" });

  // a second browser: a wrong password, said in words; then the right one
  const b = await open("/account");
  await login(b.page, "ann_1", "not the password");
  const bad = await refusal(b.page, "[data-login-form]", "bad_login");
  assert.equal(bad.text, "The name or the password is not right.");
  await login(b.page, "ann_1", PASSWORD);
  await b.page.waitForSelector("[data-account='account'] [data-sessions] li");
  assert.deepEqual(await who(b.page), { kind: "account", text: "ann_1" });

  // the first browser sees both sessions and ends the other one
  await a.page.goto(server.url + "/account");
  await a.page.waitForSelector("[data-sessions] li[data-session]");
  const list = await sessionsShown(a.page);
  assert.equal(list.length, 2, JSON.stringify(list));
  assert.equal(list.filter((s) => s.current).length, 1);
  assert.equal(await a.page.locator("[data-session-agent]").first().innerText(), await a.page.evaluate(() => {
    const m = /Chrome\/(\d+)/.exec(navigator.userAgent);
    return `Chrome ${m[1]} · Linux`;
  }));
  await a.page.screenshot({ path: `${shots}/accounts-account-en.png`, fullPage: true });
  const theirs = list.find((s) => !s.current).id;
  await a.page.click(`[data-session-end="${theirs}"]`);
  await a.page.waitForFunction(() => document.querySelectorAll("[data-sessions] li[data-session]").length === 1);
  // the second browser's next page is a guest's
  await b.page.goto(server.url + "/");
  assert.equal((await who(b.page)).kind, "guest");
  await b.page.goto(server.url + "/account");
  await b.page.waitForSelector("[data-account='guest']");
  for (const x of [a, b]) { assert.deepEqual(x.errors, []); await x.ctx.close(); }
});

test("a guest's game against a bot, kept by the claim, listed in \"Your games\" and opened from another browser without its token", { timeout: 240000 }, async () => {
  const a = await open("/");
  await a.page.waitForSelector("[data-quick='base']");
  await a.page.waitForSelector("[data-account-games] [data-account-none]");
  await a.page.click("[data-quick='base']");
  await a.page.waitForURL(/\/play\/[0-9a-f]+\?seat=0&token=/);
  const id = /\/play\/([0-9a-f]+)/.exec(a.page.url())[1];
  await a.page.waitForSelector("[data-conn='online']");
  assert.equal((await who(a.page)).kind, "guest");
  await a.page.goto(server.url + "/account");
  await claim(a.page, "bea");
  await a.page.goto(server.url + "/");
  const row = a.page.locator(`[data-account-game="${id}"]`);
  await row.waitFor();
  assert.equal(await row.getAttribute("data-seat"), "0");
  assert.equal(await row.getAttribute("data-status"), "active");
  assert.equal(await row.locator("a").getAttribute("href"), `/play/${id}?seat=0`);
  assert.match(await row.innerText(), /^Carcassonne · Player \d+ vs Bot easy \d+/);
  // this browser's own list goes on as before
  await a.page.waitForSelector(`[data-my-game="${id}"]`);
  await a.page.screenshot({ path: `${shots}/accounts-lobby-en.png`, fullPage: true });

  // another browser, logged in as bea: the lobby lists the game; its link opens the seat by the
  // session alone (hello with seat 0, no token, none in this browser's storage)
  const b = await open("/account");
  await login(b.page, "bea", PASSWORD);
  await b.page.waitForSelector("[data-account='account']");
  await b.page.goto(server.url + "/");
  const hellos = [];
  // (the game's socket: the lobby's own, /ws/lobby, says hello too)
  b.page.on("websocket", (ws) => ws.url().endsWith(`/ws/${id}`) && ws.on("framesent", (f) => { try { const m = JSON.parse(f.payload); if (m.type === "hello") hellos.push(m); } catch { /* not JSON */ } }));
  await b.page.click(`[data-account-game="${id}"] a`);
  await b.page.waitForURL(new RegExp(`/play/${id}\\?seat=0$`));
  await b.page.waitForFunction(() => document.body.dataset.seat === "0" && document.body.dataset.myTurn === "true" && document.body.dataset.ready === "true", null, { timeout: 30000 });
  assert.equal(await b.page.innerText("[data-status]"), "Your turn: place the tile");
  assert.ok(hellos.length >= 1 && hellos.every((m) => m.seat === 0 && !("token" in m)), JSON.stringify(hellos));
  assert.equal(await b.page.evaluate(() => localStorage.getItem("carc.mygames")), null, "no token in this browser");
  // and it plays: a turn by clicks, applied
  assert.equal(await playTurnByClicks(b.page, rng(7)), true);
  await b.page.waitForFunction(() => document.body.dataset.sending !== "true");
  const turns = (await (await fetch(`${server.url}/api/games/${id}/events`)).json()).filter((e) => e.type === "turn" && e.seat === 0);
  assert.equal(turns.length, 1);

  // a guest asking for that seat without its token is told it is not theirs, and watches
  const c = await open(`/play/${id}?seat=0`);
  await c.page.waitForSelector("[data-refused='not_your_seat']");
  assert.match(await c.page.innerText("[data-refused='not_your_seat']"), /not yours/);
  await c.page.waitForFunction(() => document.body.dataset.seat === "-1");
  for (const x of [a, b, c]) { assert.deepEqual(x.errors, []); await x.ctx.close(); }
});

test("password change, a recovery code (once), the operator's reset link (once, its token out of the address bar), the login limit, deletion", { timeout: 240000 }, async () => {
  const a = await open("/account");
  const codes = await claim(a.page, "cat-9");
  const b = await open("/account");
  await login(b.page, "cat-9", PASSWORD);
  await b.page.waitForSelector("[data-account='account']");

  // the password changed: a wrong current one, a common new one, then right; the other session ends
  const f = "[data-password-form]";
  await submit(a.page, f, { current: "not the one at all", password: PASSWORD2 });
  assert.deepEqual(await refusal(a.page, f, "bad_password"), { text: "The password is not right.", field: "current" });
  await submit(a.page, f, { current: PASSWORD, password: "sunshine" });
  assert.equal((await refusal(a.page, f, "password_common")).field, "password");
  await submit(a.page, f, { current: PASSWORD, password: PASSWORD2 });
  await a.page.waitForSelector(`${f} ~ [data-done]:not([hidden])`);
  await a.page.waitForFunction(() => document.querySelectorAll("[data-sessions] li[data-session]").length === 1);
  await b.page.reload();
  assert.equal((await who(b.page)).kind, "guest");
  await login(b.page, "cat-9", PASSWORD);
  assert.equal((await refusal(b.page, "[data-login-form]", "bad_login")).field, "");

  // a recovery code, typed as people do (capitals, spaces): a new password; then used up
  await b.page.click("[data-recover-link]");
  await b.page.waitForURL(/\/account\/recover$/);
  const r = "[data-recover-form]";
  await submit(b.page, r, { name: "cat-9", code: "abcd-efgh-jkmn", password: PASSWORD3 });
  assert.equal((await refusal(b.page, r, "bad_recovery")).field, "code");
  const typed = codes[0].toUpperCase().replace(/-/g, " ");
  await submit(b.page, r, { name: "cat-9", code: typed, password: PASSWORD3 });
  await b.page.waitForSelector("[data-done]:not([hidden])");
  assert.match(await b.page.innerText("[data-done]"), /7 recovery codes left/);
  assert.deepEqual(await who(b.page), { kind: "account", text: "cat-9" });
  const c = await open("/account/recover");
  await submit(c.page, r, { name: "cat-9", code: codes[0], password: PASSWORD3 });
  assert.equal((await refusal(c.page, r, "bad_recovery")).field, "code");
  await c.ctx.close();

  // the operator's link: the token read and taken out of the address bar; a short password is
  // said before the link is spent; then the new password; the link works once
  const link = execFileSync(bin, ["admin", "reset-link", "cat-9", "--db", `sqlite:${path.join(server.dir, "games.db")}`, "--base", server.url], { encoding: "utf8" }).trim().split("\n")[0];
  assert.match(link, /\/account\/reset#[A-Za-z0-9_-]{43}$/);
  const d = await open(null);
  await d.page.goto(link);
  await d.page.waitForSelector("[data-reset-form]");
  assert.equal(await d.page.evaluate(() => location.hash), "");
  assert.ok(!d.page.url().includes("#"), d.page.url());
  await submit(d.page, "[data-reset-form]", { password: "short" });
  assert.equal((await refusal(d.page, "[data-reset-form]", "password_short")).field, "password");
  await submit(d.page, "[data-reset-form]", { password: PASSWORD4 });
  await d.page.waitForSelector("[data-done]:not([hidden])");
  assert.deepEqual(await who(d.page), { kind: "account", text: "cat-9" });
  const e = await open(null);
  await e.page.goto(link);
  await submit(e.page, "[data-reset-form]", { password: PASSWORD4 });
  assert.match((await refusal(e.page, "[data-reset-form]", "bad_reset")).text, /unknown, used or expired/);
  // a reset page without its token says so
  await e.page.goto(server.url + "/account/reset");
  await e.page.waitForSelector("[data-reset] [data-error='bad_reset']");
  await e.ctx.close();

  // the login limit: five failures of this name from here (one since the recovery code's
  // success forgot the earlier ones) and the next try is refused, with the wait in words
  const g = await open("/account");
  let limited = null;
  for (let i = 0; i < 6 && !limited; i++) {
    await login(g.page, "cat-9", `wrong password ${i}`);
    await g.page.waitForSelector("[data-login-form] [data-error='bad_login'], [data-login-form] [data-error='login_limited']");
    if (await g.page.locator("[data-login-form] [data-error='login_limited']").count()) limited = { at: i, ...(await refusal(g.page, "[data-login-form]", "login_limited")) };
  }
  assert.equal(limited?.at, 4, "refused at the pair's sixth check (docs/security.md, Login limits)");
  assert.match(limited.text, /^Too many failed attempts: try again in 1[45] minutes\.$/);
  assert.equal(limited.field, "");
  await g.ctx.close();

  // deletion: asks the password; the games stay; the name logs in no more
  await d.page.goto(server.url + "/account");
  const del = "[data-delete-form]";
  await submit(d.page, del, { current: "not the one at all" });
  assert.equal((await refusal(d.page, del, "bad_password")).field, "current");
  await submit(d.page, del, { current: PASSWORD4 });
  await d.page.waitForSelector("[data-account='guest'] [data-notice]");
  assert.match(await d.page.innerText("[data-notice]"), /deleted/);
  assert.equal((await who(d.page)).kind, "guest");
  for (const x of [a, b, d]) { assert.deepEqual(x.errors, []); await x.ctx.close(); }
});

test("/account (guest, codes, account) and the lobby's \"Your games\" in Russian and Romanian", { timeout: 180000 }, async () => {
  for (const lang of ["ru", "ro"]) {
    const a = await open("/", lang);
    await a.page.waitForSelector("[data-quick='base']");
    await a.page.click("[data-quick='base']");
    await a.page.waitForSelector("[data-conn='online']");
    await a.page.goto(server.url + "/account");
    await a.page.waitForSelector("[data-claim-form]");
    assert.match((await who(a.page)).text, lang === "ru" ? /^Гость \d+$/ : /^Invitat \d+$/);
    await a.page.screenshot({ path: `${shots}/accounts-guest-${lang}.png`, fullPage: true });
    await submit(a.page, "[data-claim-form]", { name: `nadia-${lang}`, password: "qwertyuiop" });
    const common = await refusal(a.page, "[data-claim-form]", "password_common");
    assert.equal(common.text, lang === "ru" ? "Этот пароль — один из самых распространённых: выберите другой." : "Această parolă e una dintre cele mai folosite: alege alta.");
    await submit(a.page, "[data-claim-form]", { name: `nadia-${lang}`, password: PASSWORD });
    await a.page.waitForSelector("[data-codes] [data-code]");
    await a.page.screenshot({ path: `${shots}/accounts-codes-${lang}.png`, fullPage: true });
    await a.page.check("[data-codes-kept]");
    await a.page.click("[data-codes-done]");
    await a.page.waitForSelector("[data-sessions] li");
    await a.page.screenshot({ path: `${shots}/accounts-account-${lang}.png`, fullPage: true });
    await a.page.goto(server.url + "/");
    await a.page.waitForSelector("[data-account-game]");
    await a.page.screenshot({ path: `${shots}/accounts-lobby-${lang}.png`, fullPage: true });
    // no English word left on these pages but the names and the browser's own
    assert.deepEqual(a.errors, []);
    await a.ctx.close();
  }
});
