// Test harness for the browser tests: a real `carcassonne serve` on a loopback port with a fresh
// SQLite file, and Debian's Chromium driven by playwright-core. Nothing here leaves 127.0.0.1.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

const here = path.dirname(new URL(import.meta.url).pathname);
export const repo = path.resolve(here, "../..");
export const bin = process.env.CARC_BIN ?? path.join(repo, "build/carcassonne");
export const webRoot = process.env.CARC_WEB ?? path.join(repo, "web/dist");
export const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";

// The games, as the server's game_ids() lists them (tools/game_list.py reads the same files):
// src/games/GAMES, then tests/games/GAMES with CARCASSONNE_TEST_GAMES=1. For tests defined before a
// server runs; a running server's own list is its catalog (GET /api/catalog).
export function gameIds() {
  const read = (p) => existsSync(p) ? readFileSync(p, "utf8").split("\n").map((l) => l.replace(/#.*/, "").trim()).filter(Boolean) : [];
  const ids = read(path.join(repo, "src/games/GAMES"));
  if (process.env.CARCASSONNE_TEST_GAMES === "1") ids.push(...read(path.join(repo, "tests/games/GAMES")));
  return ids;
}

export function tempDir() { return mkdtempSync(path.join(tmpdir(), "carc-web-")); }

// Every server a test started, so that a failed test cannot leave one running (a live child
// process keeps the test file from ending): after() hooks call stopAll().
const running = new Set();
// Proxies too: a listening socket left by a failed test keeps node alive as well.
const proxies = new Set();
export async function stopAll() {
  await Promise.all([...running].map((s) => s.stop("SIGKILL")));
  await Promise.all([...proxies].map((p) => p.close()));
}
process.on("exit", () => { for (const s of running) s.proc.kill("SIGKILL"); });
const setpriv = "/usr/bin/setpriv";

// Starts the server; resolves once it prints its address. port 0: any free port.
export async function startServer({ dir = tempDir(), port = 0, extra = [] } = {}) {
  if (!existsSync(bin)) throw new Error(`no server binary at ${bin} (build it, or set CARC_BIN)`);
  // every test client comes from 127.0.0.1: the per-address limits are off here (tests/server_abuse.py tests them)
  const args = ["serve", "--listen", `127.0.0.1:${port}`, "--data", dir, "--allow-seed", "--web", webRoot, "--idle-ms", "20000",
    "--create-rate", "0", "--max-games-per-ip", "0", "--max-conns-per-ip", "0", ...extra];
  // killed with this process even when it dies without its "exit" hook (SIGKILL from a ctest
  // timeout): setpriv (util-linux, in every Debian) asks the kernel for a parent-death signal
  const proc = existsSync(setpriv)
    ? spawn(setpriv, ["--pdeathsig", "KILL", "--", bin, ...args], { stdio: ["ignore", "pipe", "pipe"] })
    : spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  proc.stderr.on("data", (d) => { err += d; if (err.length > 20000) err = err.slice(-10000); });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 15000);
    proc.stdout.on("data", (d) => {
      out += d;
      const m = /listening on (http:\/\/[0-9.:]+)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    proc.on("exit", (code) => { clearTimeout(timer); reject(new Error(`server exited ${code}: ${err}`)); });
  });
  const server = {
    url, dir, proc,
    log: () => err,  // the tail of what the server printed to stderr (for a failure's message)
    port: Number(new URL(url).port),
    async stop(signal = "SIGTERM") {
      if (proc.exitCode !== null) return;
      const done = new Promise((r) => proc.once("exit", r));
      proc.kill(signal);
      // a server that does not stop within 15 s is killed: a test run never hangs on it
      const t = setTimeout(() => proc.kill("SIGKILL"), 15000);
      await done;
      clearTimeout(t);
      running.delete(server);
    },
  };
  running.add(server);
  return server;
}

// A browser context as the tests use it: a page opened from an invite does not ask the player's
// name (the "ask my name" setting off, as a player who turned it off) unless askName; the one test
// of naming asks for it.
export async function newContext(browser, opts = {}, { askName = false } = {}) {
  const ctx = await browser.newContext(opts);
  if (!askName) await ctx.addInitScript(() => {
    const s = JSON.parse(localStorage.getItem("carc.settings") || "{}");
    if (!("ask_name" in s)) localStorage.setItem("carc.settings", JSON.stringify({ ...s, ask_name: false }));
  });
  return ctx;
}

// A page in a new context (1280×900 unless `opts` says otherwise) in language `lang` (carc.lang;
// null: the page chooses), with its script errors collected and dialogs accepted; `url` null: not
// opened yet.
export async function openPage(browser, url, { lang = null, askName = false, ...opts } = {}) {
  const ctx = await newContext(browser, { viewport: { width: 1280, height: 900 }, ...opts }, { askName });
  if (lang) await ctx.addInitScript((l) => localStorage.setItem("carc.lang", l), lang);
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("dialog", (d) => void d.accept());
  if (url) await page.goto(url);
  return { ctx, page, errors };
}

// Every context a test opens has already seen the first game's dialog (carc.seen_intro, docs/web.md),
// which would otherwise cover the first board a test plays on; a test of the dialog itself opens
// its context with { intro: true }.
export async function launch() {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async ({ intro = false, ...opts } = {}) => {
    const ctx = await newContext(opts);
    if (!intro) await ctx.addInitScript(() => { try { localStorage.setItem("carc.seen_intro", "1"); } catch { /* a page without storage */ } });
    return ctx;
  };
  return browser;
}

export async function api(server, method, p, body) {
  const r = await fetch(server.url + p, { method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined });
  const t = await r.text();
  if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${t}`);
  return t ? JSON.parse(t) : null;
}

// A seeded generator for the tests' choices (the same clicks for the same seed).
export function rng(seed) {
  let x = BigInt(seed) * 0x9E3779B97F4A7C15n + 1n;
  return () => {
    x ^= x << 13n; x &= (1n << 64n) - 1n; x ^= x >> 7n; x ^= x << 17n; x &= (1n << 64n) - 1n;
    return Number(x % 1000000n) / 1000000;
  };
}

// Clicks an element where it shows: a cell target can carry a piece spot at its centre (Safari:
// "found lion at 1,-1" and a spot on the tile laid there), and two spots of one tile can overlap
// (Hunters: the river's S and SSW), where a player clicks the part that shows. So this clicks a
// point of the element that the page hit-tests to it, with a margin of 2 px around it, nearest the
// centre first.
export const clickStats = { clicks: 0, besideCentre: 0, retried: 0, centred: 0 };
export async function clickFree(loc) {
  // The page may redraw at any time (a resync after a reconnect replaces the board), and
  // Playwright's scrollIntoViewIfNeeded fails on an element replaced meanwhile instead of finding
  // the new one (CI's cut-connection test did): so the point is found in one step in the page,
  // scrolling included (again if the element found was replaced before that step), and the click
  // itself (which re-finds its element) is Playwright's.
  // A target the board has panned away from (a phone shows part of a long board) is brought into
  // view as a player would: the whole board (key 0, "fit") when it lies outside the board's box.
  const outside = await loc.evaluate((el) => {
    const r = el.getBoundingClientRect(), svg = el.closest("svg")?.getBoundingClientRect();
    if (!svg) return false;
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    return cx < svg.left || cx > svg.right || cy < svg.top || cy > svg.bottom || cx > innerWidth || cy > innerHeight;
  }, null, { timeout: 10000 }).catch(() => false);
  if (outside) {
    await loc.page().evaluate(() => (document.activeElement instanceof HTMLElement) && document.activeElement.blur());
    await loc.page().keyboard.press("0");
    await loc.page().waitForTimeout(50);
  }
  let point = await freePoint(loc);
  if (point === null && (await centreOnBoard(loc))) point = await freePoint(loc);
  if (point === "replaced") point = null;
  try {
    // Playwright's box of an SVG element is not the DOM's (it counts the stroke), so the point
    // goes to it in page coordinates
    const box = point && (await loc.boundingBox({ timeout: 10000 }));
    await loc.click(point && box ? { position: { x: point.x - box.x, y: point.y - box.y }, timeout: 20000 } : { timeout: 20000 });
  } catch (e) {
    // say where the element was and what the page showed there, for a failure seen in CI only
    const where = await loc.evaluate((el) => {
      const r = el.getBoundingClientRect(), b = document.querySelector("svg")?.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return JSON.stringify({ el: el.outerHTML.slice(0, 300), rect: [r.left, r.top, r.width, r.height], svg: b && [b.left, b.top, b.width, b.height],
        viewport: [innerWidth, innerHeight], atCentre: hit ? hit.outerHTML.slice(0, 120) : null, viewBox: document.querySelector("svg")?.getAttribute("viewBox") });
    }, null, { timeout: 2000 }).catch((x) => `(not found: ${x.message.split("\n")[0]})`);
    e.message += `\nclickFree: ${where}`;
    throw e;
  }
  clickStats.clicks++;
  if (point && point.beside) clickStats.besideCentre++;
}

// A point of the element that the page hit-tests to it (null: none shows; "replaced": the element
// went away while looking).
async function freePoint(loc) {
  let point = null;
  for (let attempt = 0; attempt < 5; attempt++) {
    point = await loc.evaluate((el) => {
      if (!el.isConnected) return "replaced";
      el.scrollIntoView({ block: "nearest", inline: "nearest" });
      const r = el.getBoundingClientRect();
      const mine = (x, y) => { const hit = document.elementFromPoint(x, y); return !!hit && (hit === el || el.contains(hit)); };
      const pts = [];
      for (let i = 0; i <= 16; i++) for (let j = 0; j <= 16; j++) pts.push([r.left + (i / 16) * r.width, r.top + (j / 16) * r.height]);
      const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      pts.sort((a, b) => Math.hypot(a[0] - cx, a[1] - cy) - Math.hypot(b[0] - cx, b[1] - cy));
      for (const m of [2, 0]) {
        for (const [x, y] of pts) {
          if (mine(x, y) && mine(x - m, y) && mine(x + m, y) && mine(x, y - m) && mine(x, y + m)) return { x, y, beside: Math.hypot(x - cx, y - cy) > 0.5 };
        }
      }
      return null;
    }, null, { timeout: 10000 });
    if (point !== "replaced") break;
    clickStats.retried++;
  }
  return point;
}

// A target under the board's own buttons (a phone's fitted board puts it 8 px wide under "fit") is
// brought out as a player would: the board dragged so that the target sits at its centre, then
// zoomed in there with the wheel until the target is at least 20 px wide. False when the element
// is not on the board.
async function centreOnBoard(loc) {
  const page = loc.page();
  const geo = () => loc.evaluate((el) => {
    const svg = el.closest("svg");
    if (!svg) return null;
    const r = el.getBoundingClientRect(), b = svg.getBoundingClientRect();
    return { ex: r.left + r.width / 2, ey: r.top + r.height / 2, w: r.width, sx: b.left + b.width / 2, sy: b.top + b.height / 2 };
  }, null, { timeout: 10000 }).catch(() => null);
  let g = await geo();
  if (!g) return false;
  const dx = g.sx - g.ex, dy = g.sy - g.ey;
  await page.mouse.move(g.sx - dx / 2, g.sy - dy / 2);
  await page.mouse.down();
  await page.mouse.move(g.sx + dx / 2, g.sy + dy / 2, { steps: 8 });
  await page.mouse.up();
  for (let i = 0; i < 12 && g && g.w < 20; i++) {
    await page.mouse.move(g.sx, g.sy);
    await page.mouse.wheel(0, -100);
    await page.waitForTimeout(30);
    g = await geo();
  }
  clickStats.centred++;
  return true;
}

// Plays one turn of the player's by clicks alone (on the board's targets: playTurnOnBoard).
// Returns false when the game is over.
export async function playTurnByClicks(page, rand, opts = {}) { return playTurnOnBoard(page, rand, opts); }

// Two piece spots whose marks overlap (centres under 27 board units apart; a mark is 26 wide), or
// null: the board spreads them so that each shows and takes its own clicks.
export async function spotsTooClose(page) {
  return page.evaluate(() => {
    const c = [...document.querySelectorAll("[data-spot]")].map((g) => {
      const m = g.querySelector("circle, rect");
      const x = m.tagName === "circle" ? Number(m.getAttribute("cx")) : Number(m.getAttribute("x")) + Number(m.getAttribute("width")) / 2;
      const y = m.tagName === "circle" ? Number(m.getAttribute("cy")) : Number(m.getAttribute("y")) + Number(m.getAttribute("height")) / 2;
      return { n: g.dataset.notation, x, y };
    });
    for (let i = 0; i < c.length; i++) for (let j = i + 1; j < c.length; j++) {
      if (Math.hypot(c[i].x - c[j].x, c[i].y - c[j].y) < 27) return `${c[i].n} and ${c[j].n}`;
    }
    return null;
  });
}

export async function waitReady(page, timeout = 20000) {
  await page.waitForFunction(() => document.body.dataset.ready === "true" || document.body.dataset.over === "true" || document.body.dataset.myTurn === "false", null, { timeout });
}

// A TCP forwarder on loopback in front of the server, so that a test can cut the page's
// connections (Chromium's offline emulation freezes a WebSocket instead of closing it).
import net from "node:net";
export async function startProxy(targetPort) {
  const sockets = new Set();
  const srv = net.createServer((client) => {
    const up = net.connect(targetPort, "127.0.0.1");
    sockets.add(client); sockets.add(up);
    client.pipe(up); up.pipe(client);
    const drop = () => { client.destroy(); up.destroy(); sockets.delete(client); sockets.delete(up); };
    client.on("error", drop); up.on("error", drop); client.on("close", drop); up.on("close", drop);
  });
  await new Promise((r) => srv.listen(0, "127.0.0.1", r));
  const proxy = {
    url: `http://127.0.0.1:${srv.address().port}`,
    cut() { const n = sockets.size; for (const s of sockets) s.destroy(); sockets.clear(); return n; },
    close() { proxies.delete(proxy); this.cut(); return new Promise((r) => srv.close(r)); },
  };
  proxies.add(proxy);
  return proxy;
}

export async function events(server, id) { return api(server, "GET", `/api/games/${id}/events`); }
export async function summary(server, id) { return api(server, "GET", `/api/games/${id}`); }

// ---- the board alone: targets, menus, keys (docs/web.md "Test hooks", "Keys") ----

// The option buttons a decision shows now (visible ones: the folded "all options" list does not
// count), for the "no more than a dozen buttons" measure.
export async function buttonsShown(page) {
  return page.evaluate(() => [...document.querySelectorAll("[data-option], [data-menu-option]")].filter((b) => b.checkVisibility()).length);
}

const TOP = "[data-spot], [data-target-piece], [data-target-cell], [data-target-overlay], [data-target-point], [data-target-menu], [data-options] > [data-option]";
const FOLLOW = "[data-target-quarter], [data-target-cell]";

// Moves the keyboard focus to an element by keys alone: arrow keys over the board (the cursor),
// ArrowDown in a menu, Tab elsewhere (or when the arrows do not get there).
export async function focusByKeys(page, loc, stats = {}) {
  const where = () => loc.evaluate((el) => {
    const a = document.activeElement;
    if (a === el) return { done: true };
    const board = el.closest("[data-board]"), menu = el.closest("[data-menu]");
    const key = a?.getAttribute?.("data-key") ?? a?.getAttribute?.("data-notation") ?? a?.tagName;
    if (menu) return { menu: true, key };
    if (!board) return { tab: true, key };
    const r = el.getBoundingClientRect();
    const onBoard = a && a !== board && board.contains(a);
    if (!onBoard) return { first: true, key };
    const q = a.getBoundingClientRect();
    const dx = r.left + r.width / 2 - (q.left + q.width / 2), dy = r.top + r.height / 2 - (q.top + q.height / 2);
    // at the same place: the cursor goes on in document order (right: the next, left: the one before)
    if (Math.hypot(dx, dy) < 4) return { dx: a.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING ? 1 : -1, dy: 0, key };
    return { dx, dy, key };
  });
  const seen = new Map();
  let next = null;  // where the focus is after the last key, when nothing was pressed since: not asked again
  for (let i = 0; i < 60; i++) {
    const w = next ?? (await where());
    next = null;
    if (w.done) return;
    if (w.menu) { await page.keyboard.press("ArrowDown"); stats.keys = (stats.keys ?? 0) + 1; continue; }
    if (w.tab) break;
    let key = "ArrowRight";
    if (!w.first) {
      const visits = (seen.get(w.key) ?? 0) + 1;
      if (visits > 2) break;  // going round: Tab instead
      seen.set(w.key, visits);
      const main = Math.abs(w.dx) > Math.abs(w.dy);
      const horizontal = visits === 1 ? main : !main && Math.abs(w.dx) > 4 || main && Math.abs(w.dy) <= 4;  // the second time here: the other axis
      key = horizontal ? (w.dx > 0 ? "ArrowRight" : "ArrowLeft") : (w.dy > 0 ? "ArrowDown" : "ArrowUp");
    }
    await page.keyboard.press(key);
    stats.keys = (stats.keys ?? 0) + 1;
    const after = await where();
    if (!after.done && !after.first && after.key === w.key && !w.first) {
      // nothing that way in the cursor's reach: the other axis
      const k2 = Math.abs(w.dx) > Math.abs(w.dy) ? (w.dy > 0 ? "ArrowDown" : "ArrowUp") : (w.dx > 0 ? "ArrowRight" : "ArrowLeft");
      await page.keyboard.press(k2);
      stats.keys++;
    } else next = after;
  }
  if (process.env.CARC_DEBUG_KEYS) console.log("tab to", await loc.evaluate((el) => el.getAttribute("data-key")), "from", await page.evaluate(() => document.activeElement?.getAttribute("data-key") ?? document.activeElement?.tagName));
  for (let i = 0; i < 600; i++) {
    if (await loc.evaluate((el) => document.activeElement === el)) { stats.tabbed = (stats.tabbed ?? 0) + 1; return; }
    await page.keyboard.press("Tab");
    stats.keys = (stats.keys ?? 0) + 1;
  }
  throw new Error("could not reach " + (await loc.evaluate((el) => el.outerHTML.slice(0, 200))) + " by keys");
}

// Plays one turn of the player's by board targets alone (no "all options" list): a placement
// cell, maybe a rotation, then the targets and menus the turn shows, then confirm. With
// `keys`, by keys alone: the cursor (arrow keys, Tab), Enter, r, c. Records in `stats` the most
// option buttons one decision showed (`maxButtons`). Returns false when the game is over.
export async function playTurnOnBoard(page, rand, { keys = false, stats = {}, timeout = 60000, onStep = null } = {}) {
  await page.waitForFunction(() => document.body.dataset.over === "true" || document.body.dataset.ready === "true", null, { timeout });
  if (await page.evaluate(() => document.body.dataset.over === "true")) return false;
  const act = async (loc) => {
    if (!keys) return clickFree(loc);
    await focusByKeys(page, loc, stats);
    await page.keyboard.press(rand() < 0.5 ? "Enter" : " ");
  };
  const measure = async () => { stats.maxButtons = Math.max(stats.maxButtons ?? 0, await buttonsShown(page)); };
  await measure();
  const cells = page.locator("[data-cell]");
  const nCells = await cells.count();
  if (nCells > 0 && (await page.locator("[data-tentative]").count()) === 0) {
    await act(cells.nth(Math.floor(rand() * nCells)));
    await waitReady(page);
    if (rand() < 0.3) {
      if (keys) await page.keyboard.press(rand() < 0.5 ? "r" : "R");
      else if (await page.locator("[data-rotate='cw']").count()) await page.click("[data-rotate='cw']");
      await waitReady(page);
    }
  }
  for (let guard = 0; guard < 40; guard++) {
    await measure();
    const close = await spotsTooClose(page);
    if (close) throw new Error(`two piece spots overlap: ${close}`);
    if (onStep) await onStep(page);
    // what the page shows now, in one look (a round trip to the page per question took a tenth
    // of the test's time): the all-options list, confirm, complete, and the candidates: what may
    // be acted on now by board targets alone (an open menu's items, else what a selection shows,
    // else the top-level targets) and which of them show
    const now = await page.evaluate(([top, follow]) => {
      const vis = (q) => [...document.querySelectorAll(q)].filter((e) => e.checkVisibility());
      let sel = top;
      if (vis("[data-menu] [data-menu-option]").length) sel = "[data-menu] [data-menu-option]";
      else if (document.querySelector("[data-board] .selected") && vis(follow).length) sel = follow;
      return {
        allOptionsOpen: document.querySelectorAll("[data-all-options][open]").length > 0,
        confirms: document.querySelectorAll("[data-confirm]").length,
        complete: document.body.dataset.complete === "true",
        sel,
        shown: [...document.querySelectorAll(sel)].map((e, i) => e.checkVisibility() ? i : -1).filter((i) => i >= 0),
      };
    }, [TOP, FOLLOW]);
    if (now.allOptionsOpen) throw new Error("the all-options list was opened");
    const confirm = page.locator("[data-confirm]");
    const canConfirm = now.confirms > 0 && (await confirm.isEnabled());
    const { complete, sel, shown: all } = now;
    const choices = page.locator(sel);
    const n = all.length;
    const inMenu = sel.startsWith("[data-menu]");
    if (!complete && n > 0 && (!canConfirm || inMenu || rand() < 0.5)) {
      await act(choices.nth(all[Math.floor(rand() * all.length)]));
      await waitReady(page);
      continue;
    }
    if (canConfirm) {
      const sent = await page.evaluate(() => window.carc.sent ?? 0);
      if (keys) { await page.keyboard.press("c"); stats.keys = (stats.keys ?? 0) + 1; } else await confirm.click();
      await page.waitForFunction(() => document.body.dataset.sending !== "true" && (document.body.dataset.ready === "true" || document.body.dataset.myTurn === "false" || document.body.dataset.over === "true"), null, { timeout });
      if ((await page.evaluate(() => window.carc.sent ?? 0)) > sent) return true;
      continue;
    }
    await page.waitForTimeout(50);
  }
  throw new Error("no way to finish the turn on the board: " + (await page.locator("[data-panel='turn']").innerText()));
}
