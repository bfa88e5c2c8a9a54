#!/usr/bin/python3
"""`carcassonne serve` over real sockets on loopback: two people and a bot play whole games through
HTTP and WebSocket, the server is SIGKILLed mid-game and restarted, and nothing acknowledged is
lost. Also: bad messages, a stale `at`, a repeated `cid`, spectators, the revealed seed.

usage: server_loopback.py BUILD/carcassonne
"""
import asyncio
import atexit
import ctypes
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

import jsonschema
import websockets

BIN = sys.argv[1]
TMP = tempfile.mkdtemp(prefix="carc-serve-")
DB = os.path.join(TMP, "games.db")
SCHEMA = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "server-protocol.schema.json")))
CHECKED = {"client": 0, "server": 0, "http": 0}


VALIDATORS = {}


def validator(kind, name):
    """The validator of one (kind, name), made once: jsonschema.validate checks the whole 45 kB schema
    against the metaschema and builds a new validator at every call (a tenth of a second each, most
    of this test's time); the checks made of each message are the same."""
    if (kind, name) not in VALIDATORS:
        sub = SCHEMA["$defs"][kind]
        schema = dict(sub["$defs"][name] if name else sub, **{"$defs": SCHEMA["$defs"]})
        if name is None:
            schema = {"$defs": SCHEMA["$defs"], "oneOf": [{"$ref": f"#/$defs/{kind}/$defs/{k}"} for k in sub["$defs"]]}
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        VALIDATORS[kind, name] = cls(schema)
    return VALIDATORS[kind, name]


def check(kind, msg, name=None):
    """Every message, both ways, against docs/server-protocol.schema.json."""
    try:
        error = jsonschema.exceptions.best_match(validator(kind, name).iter_errors(msg))  # as jsonschema.validate
        if error is not None:
            raise error
    except jsonschema.ValidationError as e:
        fail(f"{kind} message {json.dumps(msg)[:300]} does not fit the schema at {e.json_path}: {e.message}")
    CHECKED[kind] += 1


SERVERS = []


def kill_servers():
    for p in SERVERS:  # no server outlives the test, however it ends
        if p.poll() is None:
            p.kill()
            p.wait()


atexit.register(kill_servers)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # ctest's timeout: atexit still runs
_libc = ctypes.CDLL(None, use_errno=True)


def die_with_parent():
    _libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: a server dies with this test even if it is SIGKILLed


def fail(msg):
    print("FAIL:", msg)
    kill_servers()
    sys.exit(1)


class Server:
    def __init__(self, port=0, db=DB, extra=()):
        self.proc = subprocess.Popen([BIN, "serve", "--listen", f"127.0.0.1:{port}", "--db", f"sqlite:{db}", "--allow-seed", "--quiet", *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=die_with_parent)
        SERVERS.append(self.proc)
        line = self.proc.stdout.readline()
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if not m:
            fail(f"serve did not start: {line!r} {self.proc.stderr.read()}")
        self.port = int(m.group(1))
        self.line = line

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            fail("serve did not stop on SIGTERM")
        if self.proc.returncode != 0:
            fail(f"serve exited {self.proc.returncode}: {self.proc.stderr.read()}")


def http(server, method, path, body=None, headers=None):
    if method == "POST" and path in ("/api/games", "/api/replay") and isinstance(body, dict) and "seeds" not in body:
        check("http", body, "create_request" if path == "/api/games" else "replay_request")
    req = urllib.request.Request(server.url(path), method=method, data=None if body is None else json.dumps(body).encode(), headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            st, body = r.status, json.loads(r.read() or b"null")
            if path == "/api/jobs/take" and st == 200:
                check("http", body, "job")
    except urllib.error.HTTPError as e:
        st, body = e.code, json.loads(e.read())
        check("http", body, "problem")
    bare = path.split("?")[0]
    if st == 201 or (st == 200 and method == "POST" and bare == "/api/games"):
        check("http", body, "create_response")
    elif st == 200 and bare.startswith("/api/games/") and bare.count("/") == 3:
        check("http", body, "summary")
    elif st == 200 and bare.startswith("/api/games/") and bare.endswith("/events"):
        check("http", body, "events")
    elif st == 200 and bare == "/api/games":
        check("http", body, "games")
    elif st == 200 and bare in ("/healthz", "/api/stats", "/api/catalog"):
        check("http", body, {"/healthz": "healthz", "/api/stats": "stats", "/api/catalog": "catalog"}[bare])
    elif st == 200 and bare.startswith("/api/tiles/"):
        check("http", body, "tiles")
    elif st == 200 and bare.startswith("/api/rules/"):
        check("http", body, "rules")
    elif st == 200 and bare == "/api/replay":
        check("http", body, "replay_response")
    elif bare.startswith("/api/games/") and bare.endswith("/analysis") and st in (200, 202):
        check("http", body, "analysis" if st == 200 else "analysis_progress")
    elif st == 200 and re.fullmatch(r"/api/games/[^/]+/analysis/\d+", bare):
        check("http", body, "analysis_decision")
    return st, body


class Client:
    """One seat's (or a spectator's) connection: keeps the events it saw and its unacknowledged commands."""

    def __init__(self, name, game, token=""):
        self.name, self.game, self.token = name, game, token
        self.seq, self.events, self.seat = 0, {}, None
        self.acked = {}  # cid -> seq
        self.n = 0

    async def connect(self, server):
        self.ws = await websockets.connect(f"ws://127.0.0.1:{server.port}/ws/{self.game}", max_size=None)
        await self.ws.send(json.dumps({"type": "hello", "token": self.token, "since": self.seq}))
        while True:
            m = await self.recv()
            if m["type"] == "events":
                return

    async def recv(self, seconds=20):
        m = json.loads(await asyncio.wait_for(self.ws.recv(), seconds))
        check("server", m)
        if m["type"] == "welcome":
            self.seat = m["seat"]
        elif m["type"] == "events":
            for e in m["events"]:
                # a turn is sent with its moves in words (never logged): one non-empty text a move
                words = e.pop("words", None)
                if e["type"] == "turn" and (not isinstance(words, list) or len(words) != len(e["data"]["moves"])
                                            or not all(isinstance(w, str) and w for w in words)):
                    fail(f"{self.name}: turn event {e['seq']} without its moves in words: {words}")
                if e["seq"] in self.events and self.events[e["seq"]] != e:
                    fail(f"{self.name}: event {e['seq']} changed: {self.events[e['seq']]} then {e}")
                if e["seq"] > self.seq + 1 and e["seq"] not in self.events:
                    fail(f"{self.name}: a gap: {self.seq} then {e['seq']}")
                self.events[e["seq"]] = e
                self.seq = max(self.seq, e["seq"])
        return m

    async def request(self, msg, want):
        check("client", msg)
        await self.ws.send(json.dumps(msg))
        while True:
            m = await self.recv()
            if m["type"] in want:
                return m

    async def drain(self, seconds=0.05):
        try:
            while True:
                await asyncio.wait_for(self.recv(), seconds)
        except asyncio.TimeoutError:
            pass

    async def until(self, done, what, seconds=60):
        """Receives until done() holds: a condition waited for (up to `seconds`, for a loaded
        machine or a sanitizer build), not a time assumed to be enough. A client waiting that long
        pings every 15 s, as the protocol asks ("Liveness"), whatever it receives meanwhile: the
        server closes a WebSocket that has sent nothing for --idle-ms (45 s), and an analysis on a
        busy machine under the sanitizers took longer."""
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        ping_at = loop.time() + 15
        while not done():
            now = loop.time()
            if now >= end:
                fail(f"{self.name}: {what} did not come within {seconds} s")
            if now >= ping_at:
                ping = {"type": "ping"}
                check("client", ping)
                await self.ws.send(json.dumps(ping))
                ping_at = now + 15
            try:
                await self.recv(min(end, ping_at) - now)
            except asyncio.TimeoutError:
                pass

    def last(self, kind):
        """done() for until: the last event this client holds is of this type."""
        return lambda: self.seq in self.events and self.events[self.seq]["type"] == kind

    def cid(self):
        self.n += 1
        return f"{self.name}-{self.n}"

    async def turn(self):
        """The first legal option at every decision of this seat's turn, sent whole."""
        moves = []
        for _ in range(8):
            o = await self.request({"type": "legal", "moves": moves}, ("options", "error"))
            if o["type"] == "error":
                fail(f"{self.name}: legal: {o}")
            if o["complete"]:
                break
            opt = o["options"][0]
            moves.append(opt["notations"][0] if opt["kind"] == "place" else opt["notation"])
        cid = self.cid()
        r = await self.request({"type": "play", "cid": cid, "at": self.seq, "moves": moves}, ("ack", "reject"))
        if r["type"] == "ack":
            self.acked[cid] = r["seq"]
        return r, cid, moves


def to_move(view):
    return view["decision"]["player"] if not view["over"] else -1


async def whole_game(server, kill_at=None):
    st, g = http(server, "POST", "/api/games", {"game": "base", "seed": 9, "seats": [{"name": "Ann"}, {"name": "Bob"}, {"bot": "greedy"}]})
    if st != 201:
        fail(f"create: {st} {g}")
    gid = g["id"]
    seed_hash = g["seed_hash"]
    ann, bob = Client("ann", gid, g["seats"][0]["token"]), Client("bob", gid, g["seats"][1]["token"])
    watcher = Client("watch", gid)
    for c in (ann, bob, watcher):
        await c.connect(server)
    if (ann.seat, bob.seat, watcher.seat) != (0, 1, -1):
        fail(f"seats: {ann.seat} {bob.seat} {watcher.seat}")
    players = {0: ann, 1: bob}
    turns, killed = 0, False
    while True:
        st, summary = http(server, "GET", f"/api/games/{gid}")
        if summary["status"] != "active":
            break
        p = summary["to_move"]
        if p not in players:  # the bot's turn: the worker inside the server plays it
            await asyncio.sleep(0.02)
            continue
        c = players[p]
        await c.drain(0.01)
        r, cid, moves = await c.turn()
        if r["type"] == "reject":
            if r["code"] != "stale":
                fail(f"{c.name}: rejected: {r}")
            continue
        turns += 1
        if kill_at is not None and turns == kill_at and not killed:
            # SIGKILL right after an ack; a new server on the same store and port
            port = server.port
            server.kill()
            server = Server(port)
            killed = True
            for x in (ann, bob, watcher):
                await x.connect(server)
    log = {e["seq"]: e for e in http(server, "GET", f"/api/games/{gid}/events?since=0")[1]}
    for c in (ann, bob, watcher):  # the last broadcasts may still be on their way (a loaded machine)
        while c.seq < len(log):
            try:
                await c.recv()
            except websockets.ConnectionClosed:  # a client silent past --idle-ms (the watcher): back with hello since its seq
                await c.connect(server)

    async def settle(c):  # anything more that comes (nothing should): the three clients at once
        try:
            await c.drain(0.2)
        except websockets.ConnectionClosed:
            pass
    await asyncio.gather(*(settle(c) for c in (ann, bob, watcher)))
    if sorted(log) != list(range(1, len(log) + 1)):
        fail("the log has gaps")
    # every acknowledged command is in the log exactly once, at the seq its ack named
    for c in (ann, bob):
        for cid, seq in c.acked.items():
            if log[seq]["type"] != "turn" or log[seq]["seat"] != c.seat:
                fail(f"{c.name}: ack {cid} at {seq} is not its turn: {log[seq]}")
        turns_logged = [e for e in log.values() if e["type"] == "turn" and e["seat"] == c.seat]
        if len(turns_logged) != len(c.acked):
            fail(f"{c.name}: {len(c.acked)} acks but {len(turns_logged)} turns in the log")
    # every client's view of the log is the server's
    for c in (ann, bob, watcher):
        if c.seq != len(log) or any(c.events[s] != log[s] for s in log):
            fail(f"{c.name}: saw {c.seq} events, the server has {len(log)}")
    end = log[len(log)]
    if end["type"] != "end" or end["data"]["reason"] != "finished":
        fail(f"the game did not end: {end}")
    # the commitment: SHA-256 of "SALT:SEED", both revealed at the end (the seed a number, as in the record)
    if not isinstance(end["data"]["seed"], int) or len(end["data"]["salt"]) != 32:
        fail(f"the end reveals the seed as a number and a 128-bit salt: {end['data']}")
    if hashlib.sha256(f"{end['data']['salt']}:{end['data']['seed']}".encode()).hexdigest() != seed_hash:
        fail("the revealed seed and salt do not match the published hash")
    # the record replays to the same scores
    st, rec = http(server, "GET", f"/api/games/{gid}/record")
    path = os.path.join(TMP, f"{gid}.json")
    with open(path, "w") as f:
        json.dump(rec, f)
    out = subprocess.run([BIN, "replay", "--json", path], capture_output=True, text=True)
    if out.returncode != 0:
        fail(f"replay: {out.stderr}")
    if json.loads(out.stdout)["final_scores"] != end["data"]["scores"]:
        fail("replay gives other scores")
    for c in (ann, bob, watcher):
        await c.ws.close()
    return server, turns, killed


async def bad_input(server):
    st, g = http(server, "POST", "/api/games", {"game": "base", "seeds": 1, "seats": [{"name": "A"}, {"name": "B"}]})
    if st != 400 or "unknown field \"seeds\"" not in g["message"]:
        fail(f"create with a bad field: {st} {g}")
    st, g = http(server, "GET", "/api/games/nosuchgame")
    if st != 404:
        fail(f"unknown game: {st}")
    st, g = http(server, "POST", "/api/games", {"game": "base", "seed": 3, "seats": [{"name": "A"}, {"name": "B"}]})
    gid = g["id"]
    async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/{gid}") as ws:
        async def say(text):
            await ws.send(text)
            return json.loads(await asyncio.wait_for(ws.recv(), 5))
        if (await say('{"type":"play"}'))["code"] != "no_hello":
            fail("a command before hello")
        if (await say("not json"))["code"] != "bad_json":
            fail("bad json")
        if (await say(json.dumps({"type": "hello", "token": "0" * 32})))["code"] != "bad_token":
            fail("a wrong token")
        if (await say('{"type":"ping"}'))["type"] != "pong":
            fail("ping")
    a = Client("a", gid, g["seats"][0]["token"])
    await a.connect(server)
    stale = await a.request({"type": "play", "cid": "s1", "at": a.seq - 1, "moves": ["pass"]}, ("reject",))
    if stale["code"] != "stale" or stale["seq"] != a.seq:
        fail(f"stale: {stale}")
    r, cid, moves = await a.turn()
    if r["type"] != "ack":
        fail(f"a turn: {r}")
    again = await a.request({"type": "play", "cid": cid, "at": 0, "moves": moves}, ("ack", "reject"))
    if again["type"] != "ack" or again["seq"] != r["seq"]:
        fail(f"a repeated cid: {again}")
    async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/nope") as ws:
        await ws.send('{"type":"hello"}')
        if json.loads(await ws.recv())["code"] != "unknown_game":
            fail("unknown game over ws")
    await a.ws.close()


def outside_workers():
    """Bots played by `carcassonne worker` processes; a job whose worker died is taken again once its lease ends."""
    server = Server(db=os.path.join(TMP, "workers.db"), extra=("--workers", "0", "--worker-key", "k3y", "--lease-ms", "800"))
    st, g = http(server, "POST", "/api/games", {"game": "hunters", "seed": 4, "seats": [{"bot": "greedy"}, {"bot": "random"}, {"bot": "greedy"}]})
    key = {"X-Worker-Key": "k3y"}
    if http(server, "POST", "/api/jobs/take", {}, {"X-Worker-Key": "nope"})[0] != 403:
        fail("a worker without the key was let in")
    st, job = http(server, "POST", "/api/jobs/take", {}, key)  # a worker that takes the job and dies
    if st != 200 or job["seat"] != 0:
        fail(f"take: {st} {job}")
    if http(server, "POST", "/api/jobs/take", {}, key)[0] != 204:
        fail("a leased job was given out twice")
    t0 = time.monotonic()
    w = subprocess.Popen([BIN, "worker", "--server", f"http://127.0.0.1:{server.port}", "--key", "k3y", "--quiet"])
    while http(server, "GET", f"/api/games/{g['id']}")[1]["status"] == "active":
        if time.monotonic() - t0 > 120:
            fail("the bots' game did not finish")
        time.sleep(0.05)
    w.send_signal(signal.SIGKILL)
    w.wait()
    log = http(server, "GET", f"/api/games/{g['id']}/events?since=0")[1]
    first_turn = next(e for e in log if e["type"] == "turn")
    if first_turn["time"] - log[0]["time"] < 700:
        fail("the dead worker's job was taken again before its lease ended")
    # the dead worker's result arriving late: the job's cid was used by the worker that retook it,
    # so it gets that answer and changes nothing
    st, r = http(server, "POST", f"/api/games/{g['id']}/job", {"seq": job["seq"], "seat": 0, "lease": job["lease"], "moves": ["pass"]}, key)
    if st != 200 or r.get("type") != "ack" or not r.get("repeat") or r["seq"] != first_turn["seq"]:
        fail(f"a late job result: {st} {r}")
    if len(http(server, "GET", f"/api/games/{g['id']}/events?since=0")[1]) != len(log):
        fail("a late job result changed the log")
    server.stop()
    return sum(e["type"] == "turn" for e in log)


async def silence():
    """A connection silent past --idle-ms is closed by the server; one that pings stays; the closed
    one comes back with hello since its last seq and misses nothing."""
    # the limit is seconds above the pings' interval: a loaded machine that runs this test late
    # by a second or two still keeps the pinging client's connection
    server = Server(db=os.path.join(TMP, "idle.db"), extra=("--idle-ms", "4000"))
    st, g = http(server, "POST", "/api/games", {"game": "base", "seed": 2, "seats": [{"name": "A"}, {"name": "B"}]})
    quiet, busy = Client("quiet", g["id"], g["seats"][1]["token"]), Client("busy", g["id"], g["seats"][0]["token"])
    await quiet.connect(server)
    await busy.connect(server)
    for _ in range(12):  # 6 s, past the limit: the pinging client keeps its connection
        await asyncio.sleep(0.5)
        await busy.request({"type": "ping"}, ("pong",))
    try:
        while True:
            await asyncio.wait_for(quiet.recv(), 30)
    except websockets.ConnectionClosed:
        pass
    except asyncio.TimeoutError:
        fail("a silent connection was not closed within 30 s of its 4 s limit")
    r, cid, moves = await busy.turn()
    if r["type"] != "ack":
        fail(f"a turn: {r}")
    await quiet.connect(server)  # hello since its last seq: the turn it missed
    if quiet.seq != busy.seq:
        fail(f"after reconnecting the quiet client holds seq {quiet.seq}, the game is at {busy.seq}")
    await busy.ws.close()
    await quiet.ws.close()
    server.stop()


async def http_resources(server):
    """The other HTTP bodies against the schema; an idempotent creation."""
    for path in ("/api/games", "/api/games?status=finished", "/healthz", "/api/catalog", "/api/tiles/safari"):
        if http(server, "GET", path)[0] != 200:
            fail(f"GET {path}")
    # each game's rules page, in English and Romanian: the same sections and tiles, other words
    for game in (g["id"] for g in http(server, "GET", "/api/catalog")[1]["games"]):
        st, en = http(server, "GET", f"/api/rules/{game}")
        st2, ro = http(server, "GET", f"/api/rules/{game}?lang=ro")
        if st != 200 or st2 != 200 or not en["sections"] or ro["lang"] != "ro":
            fail(f"GET /api/rules/{game}: {st} {st2}")
        if [(s["id"], s["tiles"], len(s["text"])) for s in en["sections"]] != [(s["id"], s["tiles"], len(s["text"])) for s in ro["sections"]]:
            fail(f"/api/rules/{game}: the Romanian page is not the English one's sections")
    st, body = http(server, "GET", "/api/rules/chess")
    if st != 404 or body["code"] != "unknown_game":
        fail(f"GET /api/rules/chess: {st} {body}")
    st, games = http(server, "GET", "/api/games?status=finished")
    st, rec = http(server, "GET", f"/api/games/{games[0]['id']}/record")
    st, rep = http(server, "POST", "/api/replay", {"record": rec, "step": 3})
    if st != 200 or rep["step"] != 3:
        fail(f"replay: {st} {rep}")
    # a retried creation with the same request_id gives the same game and tokens; another request
    # with that id is refused
    req = {"game": "base", "seats": [{"name": "A"}, {"name": "B"}], "request_id": "retry-5d1c2b7e-9f7a-4e55"}
    st1, g1 = http(server, "POST", "/api/games", req)
    st2, g2 = http(server, "POST", "/api/games", req)
    if st1 != 201 or st2 != 200 or not g2.get("repeat") or g1["id"] != g2["id"] or g1["seats"] != g2["seats"] or g1["seed_hash"] != g2["seed_hash"]:
        fail(f"a retried creation: {st1} {g1} / {st2} {g2}")
    # the games list names the players, and for a game in memory its scores and whose turn it is
    st, games = http(server, "GET", "/api/games?status=active")
    mine = [x for x in games if x["id"] == g1["id"]]
    if len(mine) != 1 or [s["name"] for s in mine[0]["seats"]] != ["A", "B"] or mine[0]["scores"] != [0, 0] or mine[0]["to_move"] not in (0, 1):
        fail(f"the games list's entry of a new game: {mine}")
    st3, g3 = http(server, "POST", "/api/games", dict(req, seats=[{"name": "A"}, {"name": "C"}]))
    if st3 != 409 or g3["code"] != "request_id_used":
        fail(f"another request with a used request_id: {st3} {g3}")


async def rematch(server):
    """A resignation ends the game for both seats (the `state` says how); a rematch over HTTP makes
    one new game, tells the other seat by a `rematch` event, and the old tokens open the new seats."""
    st, g = http(server, "POST", "/api/games", {"game": "base", "seats": [{"name": "Ann"}, {"name": "Bob"}], "options": {"farmers": "off"}, "seed": 7})
    a, b = Client("ann", g["id"], g["seats"][0]["token"]), Client("bob", g["id"], g["seats"][1]["token"])
    await a.connect(server)
    await b.connect(server)
    path = f"/api/games/{g['id']}/rematch"
    st, r = http(server, "POST", path, {"token": g["seats"][0]["token"]})
    if st != 409 or r["code"] != "not_over":
        fail(f"a rematch before the end: {st} {r}")
    # an invited seat names itself: everyone gets the event, and the rematch keeps the name
    r = await b.request({"type": "name", "cid": b.cid(), "name": "Боб"}, ("ack", "reject"))
    if r["type"] != "ack":
        fail(f"name: {r}")
    await a.until(a.last("name"), "the name event")
    if a.events[a.seq]["type"] != "name" or a.events[a.seq]["data"] != {"seat": 1, "name": "Боб"}:
        fail(f"the other seat sees the name: {a.events[a.seq]}")
    r = await b.request({"type": "name", "cid": b.cid(), "name": " "}, ("ack", "reject", "error"))
    if r["type"] != "reject" or r["code"] != "bad_message" or "name" not in r["message"]:
        fail(f"a blank name: {r}")
    r = await a.request({"type": "resign", "cid": a.cid(), "at": a.seq}, ("ack", "reject"))
    if r["type"] != "ack":
        fail(f"resign: {r}")
    await b.until(b.last("end"), "the end event")
    if b.events[b.seq]["type"] != "end" or b.events[b.seq]["data"]["reason"] != "resign" or b.events[b.seq]["data"]["winners"] != [1]:
        fail(f"the other seat sees the end: {b.events[b.seq]}")
    for c in (a, b):
        s = await c.request({"type": "view"}, ("state",))
        if s.get("end", {}).get("reason") != "resign" or s["end"]["resigned"] != [0] or s["end"]["winners"] != [1]:
            fail(f"{c.name}: the state after a resignation says how the game ended: {s.get('end')}")
    for bad in ({"token": "0" * 32}, {"token": g["seats"][0]["token"], "seats": []}, []):
        st, r = http(server, "POST", path, bad)
        if st not in (400, 403):
            fail(f"a bad rematch request {bad}: {st} {r}")
    check("http", {"token": g["seats"][0]["token"]}, "rematch_request")
    st, r1 = http(server, "POST", path, {"token": g["seats"][0]["token"]})
    if st != 201 or r1["rematch_of"] != g["id"] or r1["id"] == g["id"] or r1["seats"][0].get("token") != g["seats"][0]["token"] or "token" in r1["seats"][1]:
        fail(f"a rematch: {st} {r1}")
    await b.until(b.last("rematch"), "the rematch event")
    ev = b.events[b.seq]
    if ev["type"] != "rematch" or ev["data"] != {"game": r1["id"], "seat": 0} or ev["seat"] != 0:
        fail(f"the other seat is told of the rematch: {ev}")
    st, r2 = http(server, "POST", path, {"token": g["seats"][1]["token"]})
    if st != 200 or not r2.get("repeat") or r2["id"] != r1["id"] or r2["seats"][1].get("token") != g["seats"][1]["token"]:
        fail(f"a second rematch request gives the same game: {st} {r2}")
    await a.drain(0.3)
    if sum(1 for e in a.events.values() if e["type"] == "rematch") != 1:
        fail("one rematch event however often it is asked for")
    s = await b.request({"type": "view"}, ("state",))
    if s.get("rematch") != r1["id"]:
        fail(f"the state names the rematch: {s.get('rematch')}")
    # the old tokens open the same seats of the new game: same game, options, seats
    na, nb = Client("ann2", r1["id"], g["seats"][0]["token"]), Client("bob2", r1["id"], g["seats"][1]["token"])
    await na.connect(server)
    await nb.connect(server)
    if (na.seat, nb.seat) != (0, 1):
        fail(f"the old tokens open the new seats: {na.seat} {nb.seat}")
    created = na.events[1]["data"]
    if created["game"] != "base" or created["options"].get("farmers") != "off" or [x["name"] for x in created["seats"]] != ["Ann", "Боб"] or created["seed_hash"] == g["seed_hash"]:
        fail(f"the rematch is the same game with a new seed: {created}")
    r, _, _ = await (na if to_move((await na.request({"type": "view"}, ("state",)))["view"]) == 0 else nb).turn()
    if r["type"] != "ack":
        fail(f"a turn of the rematch: {r}")
    for c in (a, b, na, nb):
        await c.ws.close()
    return g["id"], r1["id"]


async def analysis(server):
    """A finished game's analysis: refused before the end, made once by the server's workers with
    its progress, stored as an `analysis` event (broadcast, in the log), a decision's better move
    given as a view."""
    st, g = http(server, "POST", "/api/games", {"game": "base", "seats": [{"name": "Ann"}, {"bot": "greedy"}], "seed": 11})
    st, r = http(server, "POST", f"/api/games/{g['id']}/analysis")
    if st != 409 or r["code"] != "not_over":
        fail(f"an analysis before the end: {st} {r}")
    st, g = http(server, "POST", "/api/games", {"game": "base", "seats": [{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "random"}], "seed": 3})
    gid = g["id"]
    for _ in range(300):
        st, s = http(server, "GET", f"/api/games/{gid}")
        if s["status"] == "finished":
            break
        await asyncio.sleep(0.1)
    else:
        fail(f"the bots' game did not end: {s}")
    st, r = http(server, "GET", f"/api/games/{gid}/analysis")
    if st != 404 or r["code"] != "no_analysis":
        fail(f"an analysis nobody asked for: {st} {r}")
    for bad in ({"playouts": 5}, [1]):
        st, r = http(server, "POST", f"/api/games/{gid}/analysis", bad)
        if st != 400:
            fail(f"a bad analysis request {bad}: {st} {r}")
    st, r = http(server, "POST", "/api/games/nosuchgame/analysis")
    if st != 404 or r["code"] != "unknown_game":
        fail(f"the analysis of no game: {st} {r}")
    watcher = Client("watcher", gid)
    await watcher.connect(server)
    st, r = http(server, "POST", f"/api/games/{gid}/analysis")
    if st not in (200, 202):
        fail(f"an analysis asked for: {st} {r}")
    progress = []
    ping_at = time.monotonic() + 15
    for _ in range(3000):  # up to 5 minutes (a sanitizer build searches slowly)
        st, r = http(server, "GET", f"/api/games/{gid}/analysis")
        if st == 200:
            break
        progress.append((r["status"], r["done"], r["total"]))
        if time.monotonic() >= ping_at:  # the watcher pings every 15 s meanwhile, as the protocol asks (else closed at --idle-ms)
            ping = {"type": "ping"}
            check("client", ping)
            await watcher.ws.send(json.dumps(ping))
            ping_at = time.monotonic() + 15
        await asyncio.sleep(0.1)
    else:
        fail(f"the analysis never came: {progress[-3:]}")
    if r["status"] != "done" or r["playouts"] != 1000 or not r["review"]["decisions"]:
        fail(f"the analysis: {json.dumps(r)[:300]}")
    review = r["review"]
    # each decision with its position's open features (at most 12), who scores them and how often
    for d in review["decisions"]:
        own = d.get("ownership")
        if not isinstance(own, list) or len(own) > 12 or any(not 0 <= x <= 1 for f in own for x in f["share"]) \
                or any([f["x"], f["y"]] not in f["cells"] or len(f["share"]) != 2 for f in own):
            fail(f"decision {d['index']}'s ownership: {json.dumps(own)[:300]}")
    if sum(len(d["ownership"]) for d in review["decisions"]) < 2 * len(review["decisions"]):
        fail("the analysis' positions have few open features")
    if any(d < 0 or (t and d > t) for _, d, t in progress) or [d for _, d, _ in progress] != sorted(d for _, d, _ in progress):
        fail(f"the progress goes up to the total: {progress}")
    await watcher.until(watcher.last("analysis"), "the analysis event")
    last = watcher.events[watcher.seq]
    # the HTTP answer adds each option's `words` (the request's language); the event keeps the stored review
    def unworded(v):
        if isinstance(v, dict):
            return {k: unworded(x) for k, x in v.items() if k != "words"}
        return [unworded(x) for x in v] if isinstance(v, list) else v
    if not all(o.get("words") for d in review["decisions"] for o in [d["played"], d["best"]] + d.get("top", [])):
        fail("the analysis answer does not say every reviewed move in words")
    if last["type"] != "analysis" or last["seat"] != -1 or last["data"]["review"] != unworded(review):
        fail(f"the analysis event a spectator sees: {json.dumps(last)[:300]}")
    st, again = http(server, "POST", f"/api/games/{gid}/analysis")
    if st != 200 or again["review"] != review:
        fail(f"asked again, the analysis is the stored one: {st}")
    await watcher.drain(0.3)
    if sum(1 for e in watcher.events.values() if e["type"] == "analysis") != 1:
        fail("one analysis event however often it is asked for")
    if len(review["players"]) != 2 or len(review["curve"]) != len(review["decisions"]):
        fail(f"the review's players and curve: {review['players']} {len(review['curve'])}")
    worst = max(review["decisions"], key=lambda d: d["loss"])
    st, w = http(server, "GET", f"/api/games/{gid}/analysis/{worst['index']}")
    if st != 200 or w["decision"] != worst or w["step"] != worst["move"] - 1 or w["view"]["turn"] < worst["turn"]:
        fail(f"a decision's better move: {st} {json.dumps(w)[:300]}")
    st, r = http(server, "GET", f"/api/games/{gid}/analysis/999999")
    if st != 404:
        fail(f"a decision the analysis has not: {st} {r}")
    await watcher.ws.close()
    # an analysis taken from its event alone (nobody asks again) holds no slot: one address asks
    # for three more, two at a time (--analyses-per-ip 2)
    more = []
    for seed in (4, 5, 6):
        st, g2 = http(server, "POST", "/api/games", {"game": "base", "seats": [{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "random"}], "seed": seed})
        more.append(g2["id"])
    for g2 in more:
        for _ in range(300):
            st, s = http(server, "GET", f"/api/games/{g2}")
            if s["status"] == "finished":
                break
            await asyncio.sleep(0.1)
    for g2 in more[:2]:
        st, r = http(server, "POST", f"/api/games/{g2}/analysis")
        if st != 202:
            fail(f"two analyses at once from one address: {st} {r}")
    w2 = Client("watcher2", more[0])
    await w2.connect(server)
    await w2.until(w2.last("analysis"), "the second analysis as an event", 300)
    await w2.ws.close()
    for _ in range(600):  # the first of the two is stored; a slot is free once it is saved
        st, r = http(server, "POST", f"/api/games/{more[2]}/analysis")
        if st == 202:
            break
        if st != 503 or r["code"] != "busy":
            fail(f"a third analysis: {st} {r}")
        await asyncio.sleep(0.5)
    else:
        fail("a stored analysis kept its slot")
    return gid, review, worst


async def main():
    await silence()
    bot_turns = outside_workers()
    server = Server()
    await bad_input(server)
    server, turns, killed = await whole_game(server, kill_at=5)
    if not killed:
        fail("the server was not killed")
    server, turns2, _ = await whole_game(server)
    st, stats = http(server, "GET", "/api/stats")
    await http_resources(server)
    old, new = await rematch(server)
    analysed, review, worst = await analysis(server)
    server.kill()  # the rematch survives a restart: asked again, the same game
    server = Server()
    st, r = http(server, "GET", f"/api/games/{analysed}/analysis")  # and the analysis, stored with the game
    if st != 200 or r["review"] != review:
        fail(f"the analysis after a restart: {st}")
    st, r = http(server, "POST", f"/api/games/{old}/rematch", {"token": "1" * 32})
    if st != 403:
        fail(f"a stranger's rematch: {st} {r}")
    st, s = http(server, "GET", f"/api/games/{new}")
    if st != 200 or s["status"] != "active":
        fail(f"the rematch after a restart: {st} {s}")
    server.stop()
    print(f"ok: a game of three bots played by a `carcassonne worker` ({bot_turns} turns, one job retaken after its lease), two whole games ({turns} + {turns2} human turns), one with a SIGKILL and restart; a resignation and a rematch; an analysis of {len(review['decisions'])} decisions (worst loss {worst['loss']}); "
          f"{stats['commits']} commits after the restart, largest batch {stats['max_batch']}; messages checked against the schema: {CHECKED}")


asyncio.run(main())
