#!/usr/bin/python3
"""`carcassonne serve` on a real PostgreSQL (scripts/pg.sh) that restarts while games are in flight
(docs/deploy.md, "The store restarts"): people play turns and bots search while the cluster is
stopped for a few seconds and started again. While it is down, /healthz is 503 `store`, turns are
refused (`reject store`) and new games 503; once it is back the server reconnects by itself (logged,
counted in /metrics), /healthz is 200 again, the clients' turns sent again are acknowledged, the
bots play on and games are created. Then a second server on the same database finds every
acknowledged turn in the log exactly once, at the seq its ack named. A client that says hello while
the database is down sees its game (the room in memory); a game out of memory whose clock ran out
meanwhile times out once the database is back.

Loopback only; waits are bounded by seconds (checked from below, never a sub-second assumption).
The server dies with this test (PR_SET_PDEATHSIG, and killed at exit) and the cluster is stopped
and removed at exit however the test ends.

usage: server_pg_restart.py BUILD/carcassonne
"""
import asyncio
import atexit
import ctypes
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import websockets

BIN = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
PG = os.path.join(HERE, "..", "scripts", "pg.sh")
TMP = tempfile.mkdtemp(prefix="carc-pgrestart-")
PGDIR = tempfile.mkdtemp(prefix="carc-pg.")  # (pg.sh gives it to the postgres user: not inside TMP, which is root's alone)
SERVERS = []
_libc = ctypes.CDLL(None, use_errno=True)


def cleanup():
    for p in SERVERS:
        if p.poll() is None:
            p.kill()
            p.wait()
    subprocess.run(["bash", PG, "stop", PGDIR], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shutil.rmtree(TMP, ignore_errors=True)


def on_term(*_):
    # ctest's timeout: everything stopped at once (SystemExit would wait for the helper threads)
    cleanup()
    os._exit(1)


atexit.register(cleanup)
signal.signal(signal.SIGTERM, on_term)


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_cluster():
    for _ in range(5):
        port = free_port()
        r = subprocess.run(["bash", PG, "start", PGDIR, str(port)], capture_output=True, text=True)
        if r.returncode == 0:
            return port, r.stdout.strip()
        subprocess.run(["bash", PG, "stop", PGDIR], capture_output=True)
    fail(f"PostgreSQL did not start: {r.stderr}")


class Server:
    def __init__(self, url, name):
        self.log = os.path.join(TMP, f"{name}.log")

        def child():
            _libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: the server dies with this test

        self.proc = subprocess.Popen([BIN, "serve", "--listen", "127.0.0.1:0", "--db", url, "--create-rate", "0", "--unload-after-ms", "500"],
                                     stdout=subprocess.PIPE, stderr=open(self.log, "w"), text=True, preexec_fn=child)
        SERVERS.append(self.proc)
        line = self.proc.stdout.readline()
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if not m:
            fail(f"serve did not start: {line!r} {open(self.log).read()}")
        self.port = int(m.group(1))

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            fail("serve did not stop within 30 s of SIGTERM")
        if self.proc.returncode != 0:
            # what is not a JSON event line (a sanitizer's report, a crash's message), first
            odd = [x for x in open(self.log, errors="replace") if not x.startswith("{")]
            fail(f"serve exited {self.proc.returncode}; its log's other lines:\n{''.join(odd)[:12000]}")

    def events(self):
        out = []
        for line in open(self.log):
            try:
                out.append(json.loads(line))
            except ValueError:
                fail(f"a log line is not one JSON object: {line!r}")
        return out


def http(server, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", data=data, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            raw = r.read()
            st = r.status
            ctype = r.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        raw, st, ctype = e.read(), e.code, e.headers.get("Content-Type", "")
    return st, (json.loads(raw) if ctype.startswith("application/json") and raw else raw.decode())


def metrics(server):
    st, text = http(server, "GET", "/metrics")
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            k, v = line.rsplit(" ", 1)
            out[k] = float(v)
    return out


def until(what, check, seconds=30):
    t0 = time.monotonic()
    while True:
        r = check()
        if r:
            return r
        if time.monotonic() - t0 > seconds:
            fail(f"{what}: not within {seconds} s")
        time.sleep(0.2)


class Seat:
    """A person's seat: plays the first legal option whenever it is to move; a turn refused by the
    store is sent again (the same cid) until it is acknowledged or the game moved on."""

    def __init__(self, name, game, token):
        self.name, self.game, self.token = name, game, token
        self.seq, self.to_move, self.seat, self.over = 0, -1, None, False
        self.acked = {}  # cid -> seq
        self.store_rejects = 0
        self.n = 0

    async def connect(self, server):
        for _ in range(100):  # (a hello while the store is down is answered `store`: again)
            self.ws = await websockets.connect(f"ws://127.0.0.1:{server.port}/ws/{self.game}")
            await self.ws.send(json.dumps({"type": "hello", "token": self.token, "since": self.seq}))
            while True:
                m = await self.recv()
                if m["type"] == "events":
                    return
                if m["type"] == "error":
                    break
            await self.ws.close()
            await asyncio.sleep(0.5)
        fail(f"{self.name}: no hello answered")

    async def recv(self, seconds=30):
        m = json.loads(await asyncio.wait_for(self.ws.recv(), seconds))
        if m["type"] == "welcome":
            self.seat = m["seat"]
        elif m["type"] == "events":
            self.seq = max(self.seq, m["seq"])
            self.to_move = m["to_move"]
            self.over = any(e["type"] == "end" for e in m["events"]) or self.over
        return m

    async def request(self, msg, want):
        await self.ws.send(json.dumps(msg))
        while True:
            m = await self.recv()
            if m["type"] in want:
                return m

    async def play(self, stop):
        """Plays this seat's turns until stop() or the game's end."""
        while not stop() and not self.over:
            if self.to_move != self.seat:
                try:
                    await self.recv(0.5)
                except asyncio.TimeoutError:
                    await self.ws.send('{"type":"ping"}')
                continue
            await asyncio.sleep(0.25)  # (a pace, so that the games last through the restart)
            moves = []
            for _ in range(8):
                o = await self.request({"type": "legal", "moves": moves}, ("options",))
                if o["complete"]:
                    break
                opt = o["options"][0]
                moves.append(opt["notations"][0] if opt["kind"] == "place" else opt["notation"])
            self.n += 1
            cid = f"{self.name}-{self.n}"
            at = self.seq
            while True:
                r = await self.request({"type": "play", "cid": cid, "at": at, "moves": moves}, ("ack", "reject"))
                if r["type"] == "ack":
                    self.acked[cid] = r["seq"]
                    break
                if r["code"] != "store":
                    if r["code"] == "stale":
                        break
                    fail(f"{self.name}: {cid} rejected: {r}")
                self.store_rejects += 1
                if stop():
                    return
                await asyncio.sleep(0.5)  # the store is down: the same command again in a moment


async def main():
    port, url = start_cluster()
    s = Server(url, "s1")
    seats, games = [], []
    for i in range(4):
        # two games between people, two against a bot that searches (its turns in flight too)
        other = {"name": f"P{i}b"} if i < 2 else {"bot": "mcts:playouts=300,threads=1"}
        st, g = http(s, "POST", "/api/games", {"game": "base", "seats": [{"name": f"P{i}a"}, other]})
        if st != 201:
            fail(f"create: {st} {g}")
        games.append(g["id"])
        for x in g["seats"]:
            if x.get("token"):
                seats.append(Seat(f"g{i}s{x['seat']}", g["id"], x["token"]))
    for c in seats:
        await c.connect(s)
    phase = {"stop": False}
    players = [asyncio.create_task(c.play(lambda: phase["stop"])) for c in seats]

    async def later(seconds):
        await asyncio.sleep(seconds)

    await later(3)
    before = sum(len(c.acked) for c in seats)
    if before == 0:
        fail("nothing was played before the restart")

    # a game nobody watches (unloaded after 0.5 s) whose clock runs out while the cluster is down:
    # it times out once the cluster is back (the server keeps trying to load it)
    st, timed = http(s, "POST", "/api/games", {"game": "base", "seats": [{"name": "T1"}, {"name": "T2"}],
                                               "clock": {"type": "realtime", "bank": 3}})
    if st != 201:
        fail(f"create the timed game: {st} {timed}")

    # ---- the cluster stops while the games go on
    r = subprocess.run(["bash", PG, "halt", PGDIR], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"pg.sh halt: {r.stderr}")
    t_down = time.monotonic()
    await asyncio.to_thread(until, "/healthz 503 store while PostgreSQL is down",
                            lambda: (lambda r: r[0] == 503 and r[1].get("code") == "store")(http(s, "GET", "/healthz")))
    st, g = await asyncio.to_thread(http, s, "POST", "/api/games", {"game": "base", "seats": [{"name": "X"}, {"name": "Y"}]})
    if st != 503 or g.get("code") != "store":
        fail(f"a new game while the store is down: {st} {g}")
    await later(max(0.0, 4 - (time.monotonic() - t_down)))
    m = await asyncio.to_thread(metrics, s)
    if m.get("carc_store_up") != 0 or m.get("carc_store_lost_total", 0) < 1:
        fail(f"/metrics while the store is down: up {m.get('carc_store_up')}, lost {m.get('carc_store_lost_total')}")
    # a client that says hello meanwhile sees the game as committed (its room is in memory)
    async with websockets.connect(f"ws://127.0.0.1:{s.port}/ws/{games[0]}") as ws:
        await ws.send(json.dumps({"type": "hello"}))
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if m["type"] == "error":
                fail(f"a hello while the store is down: {m}")
            if m["type"] == "events":
                break
    during = sum(len(c.acked) for c in seats) - before
    rejects = sum(c.store_rejects for c in seats)

    # ---- it comes back on the same port
    r = subprocess.run(["bash", PG, "resume", PGDIR, str(port)], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"pg.sh resume: {r.stderr}")
    t_up = time.monotonic()
    await asyncio.to_thread(until, "/healthz 200 after PostgreSQL came back", lambda: http(s, "GET", "/healthz")[0] == 200)
    back_in = time.monotonic() - t_up
    acked_at_return = sum(len(c.acked) for c in seats)
    # every game goes on: people's turns acknowledged, the bots' turns committed
    heads = {gid: http(s, "GET", f"/api/games/{gid}")[1]["seq"] for gid in games}

    def moved_on():
        return all(http(s, "GET", f"/api/games/{gid}")[1]["seq"] >= heads[gid] + 4 or
                   http(s, "GET", f"/api/games/{gid}")[1]["status"] != "active" for gid in games)
    await asyncio.to_thread(until, "every game going on after the restart", moved_on, 60)
    if sum(len(c.acked) for c in seats) <= acked_at_return:
        fail(f"no turn was acknowledged after the restart: {[(c.name, len(c.acked), c.store_rejects, c.seq) for c in seats]}, "
             f"{[t.exception() if t.done() else 'running' for t in players]}")
    st, g = await asyncio.to_thread(http, s, "POST", "/api/games", {"game": "base", "seats": [{"name": "X"}, {"name": "Y"}]})
    if st != 201:
        fail(f"a new game after the restart: {st} {g}")
    # (watched through the list of games, which loads no game: the server must load it by itself)
    await asyncio.to_thread(until, "the clock that ran out while the store was down", lambda: any(
        x["id"] == timed["id"] for x in http(s, "GET", "/api/games?status=finished")[1]), 30)
    log = http(s, "GET", f"/api/games/{timed['id']}/events?since=0")[1]
    if not any(e["type"] == "timeout" for e in log):
        fail(f"the timed game ended without a timeout: {log[-2:]}")
    m = await asyncio.to_thread(metrics, s)
    if m.get("carc_store_up") != 1 or m.get("carc_store_reconnects_total", 0) < 1 or m.get("carc_store_reconnect_failures_total", 0) < 1:
        fail(f"/metrics after the restart: {[(k, v) for k, v in m.items() if k.startswith('carc_store')]}")
    phase["stop"] = True
    await asyncio.gather(*players)
    for c in seats:
        await c.ws.close()
    s.stop()
    logged = {e["event"] for e in s.events()}
    for ev in ("store_lost", "store_reconnect_failed", "store_reconnected"):
        if ev not in logged:
            fail(f"the log has no {ev} line: {sorted(logged)}")

    # ---- nothing acknowledged is lost: a new server on the same database reads every ack's turn
    s2 = Server(url, "s2")
    total = 0
    for gid in games:
        st, log = http(s2, "GET", f"/api/games/{gid}/events?since=0")
        by_seq = {e["seq"]: e for e in log}
        if sorted(by_seq) != list(range(1, len(log) + 1)):
            fail(f"game {gid}: the log has gaps")
        cids = [e.get("cid") for e in log if e.get("cid")]
        if len(cids) != len(set(cids)):
            fail(f"game {gid}: a command applied twice")
        for c in seats:
            if c.game != gid:
                continue
            for cid, seq in c.acked.items():
                e = by_seq.get(seq)
                if not e or e.get("cid") != cid or e["type"] != "turn":
                    fail(f"{c.name}: {cid} acknowledged at seq {seq}, the log has {e}")
                total += 1
    s2.stop()
    print(f"ok: PostgreSQL stopped for {time.monotonic() - t_down - (time.monotonic() - t_up):.1f} s with 4 games in flight: "
          f"{rejects} turns refused (store) and sent again, {during} acknowledged while it was down; /healthz 200 "
          f"{back_in:.1f} s after it was back; {total} acknowledged turns all in the log once")


asyncio.run(main())
