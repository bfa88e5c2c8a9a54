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

// Starts the server; resolves once it prints its address. port 0: any free port.
export async function startServer({ dir = tempDir(), port = 0, extra = [] } = {}) {
  if (!existsSync(bin)) throw new Error(`no server binary at ${bin} (build it, or set CARC_BIN)`);
  // every test client comes from 127.0.0.1: the per-address limits are off here (tests/server_abuse.py tests them)
  const args = ["serve", "--listen", `127.0.0.1:${port}`, "--data", dir, "--allow-seed", "--web", webRoot, "--idle-ms", "20000",
    "--create-rate", "0", "--max-games-per-ip", "0", "--max-conns-per-ip", "0", ...extra];
  const proc = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
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

export async function launch() {
  return chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
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
export const clickStats = { clicks: 0, besideCentre: 0, retried: 0 };
export async function clickFree(loc) {
  // The page may redraw at any time (a resync after a reconnect replaces the board), and
  // Playwright's scrollIntoViewIfNeeded fails on an element replaced meanwhile instead of finding
  // the new one (CI's cut-connection test did): so the point is found in one step in the page,
  // scrolling included (again if the element found was replaced before that step), and the click
  // itself (which re-finds its element) is Playwright's.
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

// Plays one decision of the player's turn by clicks alone: a highlighted cell, maybe a rotation,
// then maybe a piece spot or an option, then confirm. Returns false when the game is over.
export async function playTurnByClicks(page, rand, { timeout = 60000 } = {}) {
  await page.waitForFunction(() => document.body.dataset.over === "true" || document.body.dataset.ready === "true", null, { timeout });
  if (await page.evaluate(() => document.body.dataset.over === "true")) return false;
  const cells = page.locator("[data-cell]");
  const nCells = await cells.count();
  if (nCells > 0 && (await page.locator("[data-tentative]").count()) === 0) {
    await clickFree(cells.nth(Math.floor(rand() * nCells)));
    await waitReady(page);
    if (rand() < 0.3 && (await page.locator("[data-rotate='cw']").count())) { await page.click("[data-rotate='cw']"); await waitReady(page); }
  }
  for (let guard = 0; guard < 20; guard++) {
    const confirm = page.locator("[data-confirm]");
    const canConfirm = (await confirm.count()) > 0 && (await confirm.isEnabled());
    const complete = await page.evaluate(() => document.body.dataset.complete === "true");
    const choices = page.locator("[data-spot], [data-target-cell][data-notation], [data-target-piece], [data-option]:not([data-kind='pass'])");
    const n = await choices.count();
    const close = await spotsTooClose(page);
    if (close) throw new Error(`two piece spots overlap: ${close}`);
    if (!complete && n > 0 && (!canConfirm || rand() < 0.5)) {
      await clickFree(choices.nth(Math.floor(rand() * n)));
      await waitReady(page);
      continue;
    }
    if (canConfirm) {
      const sent = await page.evaluate(() => window.carc.sent ?? 0);
      await confirm.click();
      // the turn is sent and acknowledged, or the page went on to a decision left
      await page.waitForFunction(() => document.body.dataset.sending !== "true" && (document.body.dataset.ready === "true" || document.body.dataset.myTurn === "false" || document.body.dataset.over === "true"), null, { timeout });
      if ((await page.evaluate(() => window.carc.sent ?? 0)) > sent) return true;
      continue;
    }
    const pass = page.locator("[data-option][data-kind='pass']");
    if (await pass.count()) { await pass.first().click(); await waitReady(page); continue; }
    await page.waitForTimeout(50);
  }
  throw new Error("no way to finish the turn: " + (await page.locator("[data-panel='turn']").innerText()));
}

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
