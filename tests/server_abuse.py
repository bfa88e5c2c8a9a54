#!/usr/bin/python3
"""`carcassonne serve` tried as a stranger on the network would (docs/deploy.md, "Limits"), over real
sockets on loopback (127.0.0.1 and 127.0.0.2 as two client addresses): bytes that are not UTF-8,
paths out of the web root, JSON nested 100,000 deep, binary WebSocket frames; slow requests
(slowloris) and idle keep-alives; connection caps per address; a creation flood answered with 429
while another address plays; active-game caps; bots over the budget; descriptors exhausted and
freed; spectators that cost O(1) each and are capped; idle games unloaded; /healthz and /metrics;
SIGTERM drains with nothing acknowledged lost; every refused request logged as one JSON line.

No check depends on the machine being quiet: waits are bounded by seconds, and a timeout is only
checked from below (never answered before it) and within a margin of seconds. Every server this
test starts dies with it (PR_SET_PDEATHSIG, and killed at exit however the test ends).

usage: server_abuse.py BUILD/carcassonne [PART...]   (parts: the functions main() runs; default all)
"""
import asyncio
import atexit
import ctypes
import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time

import websockets

BIN = sys.argv[1]
PARTS = sys.argv[2:]
TMP = tempfile.mkdtemp(prefix="carc-abuse-")
SERVERS = []
FIGURES = {}


def cleanup():
    for p in SERVERS:
        if p.poll() is None:
            p.kill()
            p.wait()


atexit.register(cleanup)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # ctest's timeout: atexit still runs


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


_libc = ctypes.CDLL(None, use_errno=True)


class Server:
    def __init__(self, *extra, name="s", fds=None, web=None, db=None, env=None):
        self.db = db or os.path.join(TMP, f"{name}.db")
        self.log = os.path.join(TMP, f"{name}.log")
        args = [BIN, "serve", "--listen", "127.0.0.1:0", "--db", f"sqlite:{self.db}", "--allow-seed", *extra]
        if web:
            args += ["--web", web]

        def child():
            _libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: the server dies with this test
            if fds:
                resource.setrlimit(resource.RLIMIT_NOFILE, (fds, fds))

        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=open(self.log, "w"), text=True, preexec_fn=child,
                                     env=dict(os.environ, **(env or {})))
        SERVERS.append(self.proc)
        line = self.proc.stdout.readline()
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if not m:
            fail(f"serve did not start: {line!r} {open(self.log).read()}")
        self.port = int(m.group(1))

    def alive(self):
        return self.proc.poll() is None

    def stop(self, timeout=20):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            fail("serve did not stop within 20 s of SIGTERM")
        return self.proc.returncode

    def log_lines(self):
        out = []
        for line in open(self.log):
            try:
                out.append(json.loads(line))
            except ValueError:
                fail(f"a log line is not one JSON object: {line!r}")
        return out

    def cpu(self):
        with open(f"/proc/{self.proc.pid}/stat") as f:
            parts = f.read().rsplit(")", 1)[1].split()
        return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")

    def rss_kb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0


def connect(server, src="127.0.0.1", timeout=20):
    s = socket.create_connection(("127.0.0.1", server.port), timeout=timeout, source_address=(src, 0))
    return s


def read_response(s):
    """One HTTP response from the socket: (status, headers dict, body bytes); (None, ..) if closed first."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            return None, {}, data
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, v in (ln.split(":", 1) for ln in lines[1:] if ":" in ln)}
    n = int(headers.get("content-length", "0"))
    while len(body) < n:
        chunk = s.recv(65536)
        if not chunk:
            break
        body += chunk
    return status, headers, body


def raw(server, data, src="127.0.0.1"):
    s = connect(server, src)
    try:
        s.sendall(data)
        return read_response(s)
    finally:
        s.close()


def request(server, method, path, body=None, src="127.0.0.1", headers=()):
    b = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    h = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers)
    if body is not None:
        h += f"Content-Length: {len(b)}\r\n"
    st, hd, out = raw(server, h.encode() + b"\r\n" + b, src)
    try:
        j = json.loads(out) if out and hd.get("content-type", "").startswith("application/json") else out
    except ValueError:
        fail(f"{method} {path}: a JSON answer that does not parse: {out[:200]!r}")
    return st, hd, j


def expect(what, got, want):
    if got != want:
        fail(f"{what}: {got!r}, expected {want!r}")


def metrics(server):
    st, _, text = request(server, "GET", "/metrics")
    expect("GET /metrics", st, 200)
    out = {}
    for line in text.decode().splitlines():
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r'([a-z_]+)(\{[^}]*\})? (\S+)', line)
        if not m:
            fail(f"/metrics: a line not in Prometheus' text format: {line!r}")
        out[m.group(1) + (m.group(2) or "")] = float(m.group(3))
    return out


def until(what, check, seconds=20):
    t0 = time.monotonic()
    while True:
        r = check()
        if r:
            return r
        if time.monotonic() - t0 > seconds:
            fail(f"{what}: not within {seconds} s")
        time.sleep(0.1)


GAME = {"game": "base", "seats": [{"name": "A"}, {"name": "B"}]}


async def next_of(ws, types):
    """The next message of one of these types (others are passed over)."""
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), 20))
        if m["type"] in types:
            return m


async def hello(ws, token):
    """Says hello with a seat's token; the game's seq once the events came."""
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return (await next_of(ws, ("events",)))["seq"]


# ---- inputs that once stopped the server ---------------------------------------------------------

def bad_bytes():
    web = os.path.join(TMP, "web")
    os.makedirs(os.path.join(web, "assets"), exist_ok=True)
    open(os.path.join(web, "index.html"), "w").write("<!doctype html><title>client</title>")
    open(os.path.join(web, "assets", "app.js"), "w").write("1")
    open(os.path.join(web, ".hidden"), "w").write("HIDDEN")
    open(os.path.join(TMP, "outside.txt"), "w").write("OUTSIDE")
    s = Server("--create-rate", "0", name="bytes", web=web)
    cases = [
        ("POST /api/games, a byte that is not UTF-8", b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n\xff", 400, "bad_utf8"),
        ("POST /api/replay, a byte that is not UTF-8", b"POST /api/replay HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n\xff", 400, "bad_utf8"),
        ("a header that is not UTF-8", b"GET /api/catalog HTTP/1.1\r\nHost: x\r\nX-A: \xfe\r\n\r\n", 400, "bad_utf8"),
        ("a target that is not UTF-8", b"GET /\xff.js HTTP/1.1\r\nHost: x\r\n\r\n", 400, "bad_utf8"),
        ("a NUL inside a JSON body", b"POST /api/replay HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{}\x00garbage", 400, "bad_request"),
        ("not HTTP at all", b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03\r\n\r\n", 400, "bad_http"),
    ]
    for path, st in [("/.", 200), ("/a/..", 200), ("/a/./..", 200), ("/..", 400), ("/%2e%2e/outside.txt", 400), ("/..%2foutside.txt", 400),
                     ("/assets/..%2f..%2foutside.txt", 400), ("//outside.txt", 404), ("/.hidden", 404), ("/assets/%2e%2e/%2e%2e/outside.txt", 400),
                     ("/a%00.js", 400), ("/assets/app.js", 200), ("/assets//app.js", 200), ("/x/../assets/./app.js", 200)]:
        cases.append((f"GET {path}", f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode(), st, None))
    deep = b'{"record":' + b"[" * 100000 + b"]" * 100000 + b"}"
    cases.append(("a record nested 100,000 deep", b"POST /api/replay HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(deep) + deep, 400, "bad_request"))
    deep_game = b'{"game":"base","seats":' + b"[" * 50000 + b"]" * 50000 + b"}"
    cases.append(("a create request nested 50,000 deep", b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(deep_game) + deep_game, 400, "bad_json"))
    for what, data, want, code in cases:
        st, hd, body = raw(s, data)
        if st != want:
            fail(f"{what}: {st} {body[:200]!r}, expected {want}")
        if b"OUTSIDE" in body or b"HIDDEN" in body:
            fail(f"{what}: served a file outside the web root or a hidden one")
        if code:
            j = json.loads(body)
            if j.get("code") != code or not j.get("message"):
                fail(f"{what}: {j}, expected code {code} and a message")
        if not s.alive():
            fail(f"{what}: the server died")
    # names: control and invisible characters refused
    for name in ["a\u202eb", "\u200bx", "a\u2066b", "x\ufeff", "\uffff"]:
        st, _, j = request(s, "POST", "/api/games", {"seats": [{"name": name}, {"name": "B"}]})
        if st != 400 or "seats[0].name" not in j["message"]:
            fail(f"a name with U+{ord(name[-1]) if len(name) == 1 else ord(name[1]):04X}: {st} {j}")
    # bots: a level or a spec within the budget; anything larger refused with the field named
    st, _, j = request(s, "POST", "/api/games", {"seats": [{"name": "A"}, {"bot": "mcts:ms=600000,threads=64"}]})
    if st != 400 or "seats[1].bot" not in j["message"] or "budget" not in j["message"]:
        fail(f"a bot over the budget: {st} {j}")
    st, _, j = request(s, "POST", "/api/games", {"seats": [{"name": "A"}, {"bot": "mcts:playouts=100000000,threads=1"}]})
    if st != 400 or "seats[1].bot" not in j["message"]:
        fail(f"a bot with too many playouts: {st} {j}")
    st, _, j = request(s, "POST", "/api/games", {"seats": [{"name": "A"}, {"bot": "x"}], "absence": {"bot": "mcts:threads=9"}})
    if st != 400:
        fail(f"a bad bot: {st} {j}")
    for bot in ["easy", "normal", "hard", "random", "greedy", "mcts:ms=500,threads=1", "mcts:playouts=2000,threads=1"]:
        st, _, j = request(s, "POST", "/api/games", {"seats": [{"name": "A"}, {"bot": bot}]})
        if st != 201:
            fail(f"the bot {bot}: {st} {j}")
    # WebSocket: a binary frame and a deep message are answered, the connection goes on
    gid = request(s, "POST", "/api/games", GAME)[2]["id"]

    async def ws_checks():
        async with websockets.connect(f"ws://127.0.0.1:{s.port}/ws/{gid}") as ws:
            await ws.send(b"\xff\x00{}")
            m = json.loads(await asyncio.wait_for(ws.recv(), 20))
            expect("a binary frame", (m["type"], m["code"]), ("error", "bad_json"))
            await ws.send("[" * 30000 + "]" * 30000)  # (frames are at most 64 KB)
            m = json.loads(await asyncio.wait_for(ws.recv(), 20))
            expect("a message nested 30,000 deep", (m["type"], m["code"]), ("error", "bad_json"))
            await ws.send('{"type":"ping"}\u0000garbage')
            m = json.loads(await asyncio.wait_for(ws.recv(), 20))
            expect("a message with a NUL", (m["type"], m["code"]), ("error", "bad_json"))
            await ws.send('{"type":"ping"}')
            m = json.loads(await asyncio.wait_for(ws.recv(), 20))
            expect("ping after the bad messages", m["type"], "pong")
    asyncio.run(ws_checks())
    m = metrics(s)
    expect("handler failures", m["carc_handler_failures_total"], 0)
    st, _, j = request(s, "GET", "/healthz")
    expect("healthz", (st, j["status"]), (200, "ok"))
    refused = [x for x in s.log_lines() if x.get("event") == "refused"]
    if not any(x.get("code") == "bad_utf8" for x in refused) or not all("client" in x and "time" in x for x in refused):
        fail(f"the refused requests are not logged as JSON lines with client and time: {refused[:3]}")
    expect("SIGTERM", s.stop(), 0)
    return len(cases)


# ---- slow clients -------------------------------------------------------------------------------

def slow_clients():
    s = Server("--header-timeout-ms", "1500", "--body-timeout-ms", "1500", "--keepalive-ms", "1500", name="slow")
    # headers that never end: 408 after the header timeout (never before it), then closed
    for what, data in [("headers that never end", b"GET /api/catalog HTTP/1.1\r\nHost: x\r\n"),
                       ("a body that never comes", b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"game\"")]:
        c = connect(s)
        t0 = time.monotonic()
        c.sendall(data)
        st, _, body = read_response(c)
        took = time.monotonic() - t0
        if st != 408 or took < 1.4:
            fail(f"{what}: {st} after {took:.2f} s, expected 408 after the 1.5 s limit")
        if c.recv(10) != b"":
            fail(f"{what}: the connection was not closed after the 408")
        c.close()
    # a keep-alive connection left idle is closed without a word
    c = connect(s)
    c.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: x\r\n\r\n")
    st, _, _ = read_response(c)
    expect("a keep-alive request", st, 200)
    t0 = time.monotonic()
    rest = c.recv(100)
    if rest != b"" or time.monotonic() - t0 < 1.4:
        fail(f"an idle keep-alive connection: {rest!r} after {time.monotonic() - t0:.2f} s")
    c.close()
    if not any(x.get("code") == "header_timeout" for x in s.log_lines()):
        fail("a header timeout was not logged")
    expect("SIGTERM", s.stop(), 0)


# ---- caps and quotas ------------------------------------------------------------------------------

def connection_caps():
    s = Server("--max-conns-per-ip", "4", "--header-timeout-ms", "60000", name="conns")
    held = [connect(s) for _ in range(4)]
    time.sleep(0.3)  # (only lets the server accept them; the check below does not depend on it)
    c = connect(s)
    st, hd, body = read_response(c)
    if st != 503 or json.loads(body)["code"] != "too_many_connections" or "retry-after" not in hd:
        fail(f"a fifth connection from one address: {st} {body!r}")
    c.close()
    st, _, _ = request(s, "GET", "/api/catalog", src="127.0.0.2")
    expect("another address while the first is at its cap", st, 200)
    for h in held:
        h.close()
    until("the address's connections given back", lambda: request(s, "GET", "/api/catalog")[0] == 200)
    expect("SIGTERM", s.stop(), 0)


def creation_flood():
    s = Server("--create-rate", "6", "--create-burst", "3", "--max-games-per-ip", "5", name="flood")
    t0 = time.monotonic()
    got = []
    for _ in range(10):
        st, hd, j = request(s, "POST", "/api/games", GAME)
        got.append(st)
        if st == 429 and (j["code"] != "rate_limited" or int(hd.get("retry-after", "0")) < 1):
            fail(f"a 429 without its code or Retry-After: {hd} {j}")
    took = time.monotonic() - t0
    allowed = 3 + int(took * 6 / 60) + 1
    if got.count(429) == 0 or got.count(201) > allowed or set(got) - {201, 429}:
        fail(f"a flood of 10 creations in {took:.1f} s from one address: {got}")
    # another address is not held back
    st, _, j = request(s, "POST", "/api/games", GAME, src="127.0.0.2")
    expect("a creation from another address during the flood", st, 201)
    gid, token = j["id"], j["seats"][0]["token"]

    async def play_one_turn():
        async with websockets.connect(f"ws://127.0.0.1:{s.port}/ws/{gid}") as ws:
            seq = await hello(ws, token)
            await ws.send(json.dumps({"type": "legal", "moves": []}))
            moves = [(await next_of(ws, ("options",)))["options"][0]["notations"][0]]
            while True:
                await ws.send(json.dumps({"type": "legal", "moves": moves}))
                m = await next_of(ws, ("options",))
                if m["complete"]:
                    break
                moves.append(m["options"][-1]["notation"])
            await ws.send(json.dumps({"type": "play", "cid": "c1", "at": seq, "moves": moves}))
            return await next_of(ws, ("ack", "reject"))
    m = asyncio.run(play_one_turn())
    expect("a turn from the other address during the flood", m["type"], "ack")
    mt = metrics(s)
    if mt.get('carc_refused_total{code="rate_limited"}', 0) < 1 or mt.get('carc_http_responses_total{status="429"}', 0) < 1:
        fail(f"the 429s are not counted in /metrics: {mt}")
    expect("SIGTERM", s.stop(), 0)
    FIGURES["flood"] = f"10 creations from one address in {took:.1f} s: {got.count(201)} created, {got.count(429)} answered 429"


def game_caps():
    s = Server("--create-rate", "0", "--max-games-per-ip", "2", "--max-games", "3", name="caps")
    ids = []
    for src in ["127.0.0.1", "127.0.0.1"]:
        st, _, j = request(s, "POST", "/api/games", GAME, src=src)
        expect("a creation within the caps", st, 201)
        ids.append(j)
    st, hd, j = request(s, "POST", "/api/games", GAME)
    if st != 503 or j["code"] != "too_many_games":
        fail(f"a third active game from one address: {st} {j}")
    st, _, j = request(s, "POST", "/api/games", GAME, src="127.0.0.2")
    expect("a game from another address", st, 201)
    st, _, j = request(s, "POST", "/api/games", GAME, src="127.0.0.3")
    if st != 503 or j["code"] != "server_full":
        fail(f"a game past --max-games: {st} {j}")

    # an aborted game is no longer active: its address may create again
    async def abort(g):
        async with websockets.connect(f"ws://127.0.0.1:{s.port}/ws/{g['id']}") as ws:
            seq = await hello(ws, g["seats"][0]["token"])
            await ws.send(json.dumps({"type": "abort", "cid": "ab", "at": seq}))
            return await next_of(ws, ("ack", "reject"))
    expect("abort", asyncio.run(abort(ids[0]))["type"], "ack")
    st, _, j = request(s, "POST", "/api/games", GAME)
    expect("a creation after one of the address's games ended", st, 201)
    expect("SIGTERM", s.stop(), 0)


# ---- descriptors ------------------------------------------------------------------------------------

def descriptors():
    """The server's descriptor limit is 64 (hard and soft, so it cannot raise it): 100 connections
    run it out; once they close, it serves again."""
    s = Server("--header-timeout-ms", "60000", "--max-conns-per-ip", "0", name="fds", fds=64)
    held = []
    for _ in range(100):
        try:
            held.append(connect(s, timeout=5))
        except OSError:
            break
    until("accepts failing for want of descriptors", lambda: metrics_when_possible(s, held) > 0, seconds=30)
    for h in held:
        h.close()
    t0 = time.monotonic()
    until("the server serving again once descriptors are free", lambda: request_ok(s), seconds=30)
    FIGURES["fds"] = f"out of descriptors, then serving again {time.monotonic() - t0:.1f} s after the connections closed"
    if not s.alive():
        fail("the server died out of descriptors")
    expect("SIGTERM", s.stop(), 0)


def metrics_when_possible(s, held):
    """carc_accept_errors_total, read over one of the held connections (no new descriptor needed)."""
    c = held.pop(0)  # the first ones were accepted before the descriptors ran out
    try:
        c.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        st, _, body = read_response(c)
    finally:
        c.close()
    if st != 200:
        return 0
    m = re.search(rb"^carc_accept_errors_total (\S+)$", body, re.M)
    return float(m.group(1)) if m else 0


def request_ok(s):
    try:
        return request(s, "GET", "/healthz")[0] == 200
    except OSError:
        return False


# ---- spectators, unloading, costs -------------------------------------------------------------------

async def spectators():
    s = Server("--max-spectators", "40", "--create-rate", "0", "--max-games-per-ip", "0", "--unload-after-ms", "2000", name="spect")
    st, _, g = request(s, "POST", "/api/games", GAME)
    gid = g["id"]
    a = await websockets.connect(f"ws://127.0.0.1:{s.port}/ws/{gid}", max_size=None)
    await a.send(json.dumps({"type": "hello", "token": g["seats"][0]["token"]}))
    seen = []

    async def a_until(pred):
        while True:
            m = json.loads(await asyncio.wait_for(a.recv(), 20))
            seen.append(m)
            if pred(m):
                return m
    await a_until(lambda m: m["type"] == "presence")
    seen.clear()
    cpu0, rss0 = s.cpu(), s.rss_kb()
    watchers = []
    for _ in range(40):
        w = await websockets.connect(f"ws://127.0.0.1:{s.port}/ws/{gid}", max_size=None)
        await w.send(json.dumps({"type": "hello"}))
        while json.loads(await asyncio.wait_for(w.recv(), 20))["type"] != "presence":
            pass
        watchers.append(w)
    cpu1, rss1 = s.cpu(), s.rss_kb()
    extra = await websockets.connect(f"ws://127.0.0.1:{s.port}/ws/{gid}")
    await extra.send(json.dumps({"type": "hello"}))
    m = json.loads(await asyncio.wait_for(extra.recv(), 20))
    if m["type"] != "error" or m["code"] != "full":
        fail(f"a spectator past --max-spectators: {m}")
    await extra.close()
    # the seat's player heard nothing of the 40 spectators; B's arrival is one presence with them
    b = await websockets.connect(f"ws://127.0.0.1:{s.port}/ws/{gid}")
    await b.send(json.dumps({"type": "hello", "token": g["seats"][1]["token"]}))
    p = await a_until(lambda m: m["type"] == "presence")
    if [m for m in seen[:-1] if m["type"] == "presence"] or p["spectators"] != 40:
        fail(f"spectators' joins broadcast presence, or the count is wrong: {[m['type'] for m in seen]} {p}")
    FIGURES["spectator"] = f"per spectator join: {(cpu1 - cpu0) * 1000 / 40:.2f} ms CPU, {(rss1 - rss0) / 40:.0f} KB"
    for w in watchers:
        await w.close()
    await a.close()
    await b.close()
    # an active game without connections leaves memory after --unload-after-ms, and comes back
    until("the idle game unloaded", lambda: metrics(s)["carc_games_loaded"] == 0, seconds=30)
    st, _, j = request(s, "GET", f"/api/games/{gid}")
    expect("an unloaded game asked for", (st, j["status"]), (200, "active"))
    # memory per loaded game: 200 games held (no connections, within the unload delay)
    rss0 = s.rss_kb()
    for _ in range(200):
        request(s, "POST", "/api/games", GAME)
    m = metrics(s)
    FIGURES["game"] = f"per loaded game: {(s.rss_kb() - rss0) / max(1, m['carc_games_loaded']):.0f} KB ({m['carc_games_loaded']:.0f} loaded)"
    expect("SIGTERM", s.stop(), 0)


async def connection_cost():
    s = Server("--max-conns-per-ip", "0", name="cost")
    rss0, cpu0 = s.rss_kb(), s.cpu()
    conns = [await websockets.connect(f"ws://127.0.0.1:{s.port}/ws/none") for _ in range(200)]
    rss1, cpu1 = s.rss_kb(), s.cpu()
    FIGURES["connection"] = f"per idle WebSocket connection: {(rss1 - rss0) / 200:.0f} KB, {(cpu1 - cpu0) * 1000 / 200:.2f} ms CPU to open"
    for c in conns:
        await c.close()
    expect("SIGTERM", s.stop(), 0)


# ---- SIGTERM ---------------------------------------------------------------------------------------

async def drain():
    """A turn sent just before SIGTERM is committed and acknowledged; every client is told to
    reconnect; the process exits 0; after a restart the acknowledged turn is in the log."""
    s = Server("--create-rate", "0", name="drain")
    st, _, g = request(s, "POST", "/api/games", GAME)
    gid = g["id"]
    ws = await websockets.connect(f"ws://127.0.0.1:{s.port}/ws/{gid}")
    seq = await hello(ws, g["seats"][0]["token"])
    await ws.send(json.dumps({"type": "legal", "moves": []}))
    moves = [(await next_of(ws, ("options",)))["options"][0]["notations"][0], "pass"]
    await ws.send(json.dumps({"type": "play", "cid": "before-term", "at": seq, "moves": moves}))
    s.proc.send_signal(signal.SIGTERM)
    got = []
    try:
        while True:
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 20)))
    except websockets.ConnectionClosed:
        pass
    types = [(m["type"], m.get("code")) for m in got]
    acked = any(m["type"] == "ack" and m["cid"] == "before-term" for m in got)
    if ("error", "restart") not in types:
        fail(f"the client was not told to reconnect: {types}")
    try:
        s.proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        fail("serve did not exit within 20 s of SIGTERM")
    expect("the exit status after SIGTERM", s.proc.returncode, 0)
    s2 = Server("--create-rate", "0", name="drain2", db=s.db)
    st, _, log = request(s2, "GET", f"/api/games/{gid}/events?since=0")
    in_log = any(e.get("cid") == "before-term" for e in log)
    if acked and not in_log:
        fail("an acknowledged turn is not in the log after the restart")
    expect("SIGTERM", s2.stop(), 0)
    FIGURES["drain"] = f"SIGTERM with a turn in flight: {'acknowledged and kept' if acked else 'not acknowledged'}, clients told to reconnect, exit 0"


async def drain_bots():
    """SIGTERM while a bot's turn is in hand (docs/deploy.md, "SIGTERM"): a search that ends within
    --drain-ms is committed; one that does not is cancelled at the deadline and its job given back
    to the store (the next start takes it at once, not when its lease ends); the process exits
    within --drain-ms either way, and a second signal stops it at once. While it drains, new
    connections are answered: /healthz 503 "draining", new games and WebSockets 503 "restarting"."""
    async def bot_searching(drain_ms, bot, trusted=False, name="dbot"):
        extra = ["--create-rate", "0", "--drain-ms", str(drain_ms)] + (["--trusted-bots"] if trusted else [])
        s = Server(*extra, name=name)
        st, _, g = request(s, "POST", "/api/games", {"game": "base", "seats": [{"name": "A"}, {"bot": bot}]})
        expect("create", st, 201)
        ws = await websockets.connect(f"ws://127.0.0.1:{s.port}/ws/{g['id']}")
        seq = await hello(ws, g["seats"][0]["token"])
        await ws.send(json.dumps({"type": "legal", "moves": []}))
        moves = [(await next_of(ws, ("options",)))["options"][0]["notations"][0], "pass"]
        await ws.send(json.dumps({"type": "play", "cid": "a1", "at": seq, "moves": moves}))
        ack = await next_of(ws, ("ack", "reject"))
        expect("the person's turn", ack["type"], "ack")
        until("the bot's search under way", lambda: metrics(s)["carc_workers_busy"] == 1)
        return s, g, ws, request(s, "GET", f"/api/games/{g['id']}")[2]["seq"]  # (the bot's job's seq)

    def exit_time(s, t0, limit):
        try:
            s.proc.wait(timeout=limit + 30)
        except subprocess.TimeoutExpired:
            fail(f"serve did not exit within {limit + 30} s of SIGTERM")
        expect("the exit status", s.proc.returncode, 0)
        return time.monotonic() - t0

    # a search of about 4 s (two decisions of 2 s) in a drain of 10 s: waited for and committed
    s, g, ws, seq = await bot_searching(10000, "mcts:ms=2000,threads=1", name="dbot1")
    s.proc.send_signal(signal.SIGTERM)
    t0 = time.monotonic()
    st, _, j = until("/healthz answering 503 once the signal is taken", lambda: (lambda r: r if r[0] == 503 else None)(request(s, "GET", "/healthz")))
    expect("/healthz while draining", (st, j.get("status")), (503, "draining"))
    st, _, j = request(s, "POST", "/api/games", GAME)
    expect("a new game while draining", (st, j.get("code")), (503, "restarting"))
    st, _, body = raw(s, b"GET /ws/" + g["id"].encode() + b" HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    expect("a new WebSocket while draining", (st, json.loads(body).get("code")), (503, "restarting"))
    got = []
    try:
        while True:
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
    except websockets.ConnectionClosed:
        pass
    took = exit_time(s, t0, 10)
    bot_turns = [e for m in got if m["type"] == "events" for e in m["events"] if e["type"] == "turn" and e["seat"] == 1]
    if not bot_turns or ("error", "restart") not in [(m["type"], m.get("code")) for m in got]:
        fail(f"the bot's turn searched during the drain was not committed and broadcast before the restart message: {got}")
    if took > 10 + 2:
        fail(f"a drain of 10 s took {took:.1f} s")
    s2 = Server("--workers", "0", name="dbot1b", db=s.db)
    st, _, log = request(s2, "GET", f"/api/games/{g['id']}/events?since={seq}")
    if not any(e["type"] == "turn" and e["seat"] == 1 for e in log):
        fail(f"the bot's turn committed in the drain is not in the log after the restart: {log}")
    expect("SIGTERM", s2.stop(), 0)
    FIGURES["drain_bot"] = f"a bot's 4 s turn in a 10 s drain: committed and broadcast, exit after {took:.1f} s"

    # a search longer than the drain (two decisions of 15 s in a drain of 2 s): cancelled at the
    # deadline, the process out within the drain (a margin of seconds), its job free at once
    s, g, ws, seq = await bot_searching(2000, "mcts:ms=15000,threads=1", trusted=True, name="dbot2")
    s.proc.send_signal(signal.SIGTERM)
    t0 = time.monotonic()
    took = exit_time(s, t0, 2)
    await ws.close()
    if took > 2 + 2:
        fail(f"a drain of 2 s with a 30 s search in hand took {took:.1f} s")
    timeout = [x for x in s.log_lines() if x.get("event") == "drain_timeout"]
    if not timeout or len(timeout[0].get("bot_turns_given_back", [])) != 1:
        fail(f"the drain's timeout does not name the bot's turn it gave back: {timeout}")
    s2 = Server("--workers", "0", "--worker-key", "K", name="dbot2b", db=s.db)
    st, _, job = request(s2, "POST", "/api/jobs/take", headers=[("X-Worker-Key", "K")])
    if st != 200 or job.get("seq") != seq:
        fail(f"the bot's job was not given back (free at once after the restart): {st} {job}")
    expect("SIGTERM", s2.stop(), 0)
    FIGURES["drain_cancel"] = f"a bot's 30 s turn in a 2 s drain: cancelled, job given back, exit after {took:.1f} s"

    # a second signal stops at once, whatever is in hand (a drain of 30 s, a search of 60 s)
    s, g, ws, seq = await bot_searching(30000, "mcts:ms=30000,threads=1", trusted=True, name="dbot3")
    s.proc.send_signal(signal.SIGTERM)
    time.sleep(1)
    s.proc.send_signal(signal.SIGTERM)
    t0 = time.monotonic()
    took = exit_time(s, t0, 0)
    await ws.close()
    if took > 2:
        fail(f"a second SIGTERM took {took:.1f} s to stop the server")
    s2 = Server("--workers", "0", "--worker-key", "K", name="dbot3b", db=s.db)
    st, _, job = request(s2, "POST", "/api/jobs/take", headers=[("X-Worker-Key", "K")])
    if st != 200 or job.get("seq") != seq:
        fail(f"the bot's job was not given back by the second signal: {st} {job}")
    expect("SIGTERM", s2.stop(), 0)
    FIGURES["drain_second"] = f"a second SIGTERM with a 60 s search in hand: exit after {took:.1f} s"


def sanitized():
    """A sanitizer build (./test.sh --sanitize) of the binary."""
    out = subprocess.run(["ldd", BIN], capture_output=True, text=True).stdout
    return "libasan" in out or "libubsan" in out


def main():
    if PARTS:  # only these parts (a test of one fix; the full run is ctest's)
        for part in PARTS:
            r = globals()[part]()
            if asyncio.iscoroutine(r):
                asyncio.run(r)
        print(f"ok: {', '.join(PARTS)}")
        for k, v in FIGURES.items():
            print(f"  {k}: {v}")
        return
    n = bad_bytes()
    slow_clients()
    connection_caps()
    creation_flood()
    game_caps()
    fds = not sanitized()
    if not fds:
        # The sanitizers' runtime needs descriptors of its own: UBSan's vptr check reads memory
        # through a pipe it makes, and in a process out of descriptors it then reports a valid
        # object as invalid (seen with gdb on a shared_ptr copy in take_slot); its suppressions
        # file cannot be opened then either. The Release build runs this part.
        print("descriptors: not run under the sanitizers (their runtime needs descriptors of its own)")
    else:
        descriptors()
    asyncio.run(spectators())
    asyncio.run(connection_cost())
    asyncio.run(drain())
    asyncio.run(drain_bots())
    print(f"ok: {n} malicious requests answered (none fatal), slow requests 408, connection caps, a flood answered 429 while "
          f"another address played, game caps, {'descriptors exhausted and recovered, ' if fds else ''}spectators O(1) and capped, SIGTERM drained (with bots' turns in hand: committed, or cancelled at the deadline)")
    for k, v in FIGURES.items():
        print(f"  {k}: {v}")


main()
