#!/usr/bin/python3
"""A store written by an earlier version loads in this one (docs/record.md, "Versions"): every game
of tests/fixtures/store-*.db (made by tools/make_store_fixture.py with that version's binary) is
served, its record replays with this binary, its stored commitment still verifies, and an active
game goes on: a person's turn is acknowledged and lands in the log; the account tables' migrations
are applied to it in place.

usage: store_upgrade.py BUILD/carcassonne
"""
import asyncio
import atexit
import ctypes
import glob
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.request

import websockets

BIN = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
TMP = tempfile.mkdtemp(prefix="carc-upgrade-")
PROCS = []
_libc = ctypes.CDLL(None, use_errno=True)


def cleanup():
    for p in PROCS:
        if p.poll() is None:
            p.kill()
            p.wait()


atexit.register(cleanup)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def http(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=20) as r:
        return json.loads(r.read())


async def one_turn(port, gid, token):
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{gid}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        seq = to_move = seat = None
        while seq is None:
            m = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if m["type"] == "welcome":
                seat = m["seat"]
            if m["type"] == "events":
                seq, to_move = m["seq"], m["to_move"]
        if to_move != seat:
            return None
        moves = []
        while True:
            await ws.send(json.dumps({"type": "legal", "moves": moves}))
            while (o := json.loads(await asyncio.wait_for(ws.recv(), 30)))["type"] != "options":
                pass
            if o["complete"]:
                break
            opt = o["options"][0]
            moves.append(opt["notations"][0] if opt["kind"] == "place" else opt["notation"])
        await ws.send(json.dumps({"type": "play", "cid": "after-upgrade", "at": seq, "moves": moves}))
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if m["type"] in ("ack", "reject"):
                return m


def check_store(fixture):
    db = os.path.join(TMP, os.path.basename(fixture))
    shutil.copy(fixture, db)
    proc = subprocess.Popen([BIN, "serve", "--listen", "127.0.0.1:0", "--db", f"sqlite:{db}", "--quiet"], stdout=subprocess.PIPE, text=True,
                            preexec_fn=lambda: _libc.prctl(1, signal.SIGKILL))
    PROCS.append(proc)
    line = proc.stdout.readline()
    m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
    if not m:
        fail(f"{fixture}: serve did not start on the old store: {line!r}")
    port = int(m.group(1))
    games = http(port, "/api/games")
    if len(games) < 6:
        fail(f"{fixture}: {len(games)} games listed")
    kinds, turns = set(), 0
    for g in games:
        summary = http(port, f"/api/games/{g['id']}")
        log = http(port, f"/api/games/{g['id']}/events?since=0")
        if [e["seq"] for e in log] != list(range(1, len(log) + 1)) or summary["seq"] != len(log):
            fail(f"{g['id']}: the log does not load whole")
        kinds.add((g["game"], g["status"]))
        rec = http(port, f"/api/games/{g['id']}/record")
        path = os.path.join(TMP, f"{g['id']}.json")
        with open(path, "w") as f:
            json.dump(rec, f)
        out = subprocess.run([BIN, "replay", path], capture_output=True, text=True)
        if out.returncode != 0:
            fail(f"{g['id']} ({g['game']}, {g['status']}): its record does not replay: {out.stderr}")
        end = [e for e in log if e["type"] == "end"]
        if end and end[0]["data"]["reason"] != "aborted":
            d, created = end[0]["data"], log[0]["data"]
            text = f"{d['salt']}:{d['seed']}" if "salt" in d else str(d["seed"])
            if hashlib.sha256(text.encode()).hexdigest() != created["seed_hash"]:
                fail(f"{g['id']}: the stored commitment does not verify")
    if not any(g["status"] == "active" for g in games):
        fail(f"{fixture}: no active game to go on with")
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    if proc.returncode != 0:
        fail(f"{fixture}: serve exited {proc.returncode}")
    return kinds, len(games)


def main():
    fixtures = sorted(glob.glob(os.path.join(HERE, "fixtures", "store-*.db")))
    tokens_file = os.path.join(HERE, "fixtures", "store-tokens.json")
    if not fixtures:
        fail("no store fixtures")
    tokens = json.load(open(tokens_file)) if os.path.exists(tokens_file) else {}
    total = 0
    for fx in fixtures:
        kinds, n = check_store(fx)
        total += n
        # a person's turn in each active game whose token the fixture kept
        db = os.path.join(TMP, "again-" + os.path.basename(fx))
        shutil.copy(fx, db)
        proc = subprocess.Popen([BIN, "serve", "--listen", "127.0.0.1:0", "--db", f"sqlite:{db}", "--quiet"], stdout=subprocess.PIPE, text=True,
                                preexec_fn=lambda: _libc.prctl(1, signal.SIGKILL))
        PROCS.append(proc)
        port = int(re.search(r"127\.0\.0\.1:(\d+)", proc.stdout.readline()).group(1))
        played = 0
        for gid, seat_tokens in tokens.get(os.path.basename(fx), {}).items():
            for token in seat_tokens:
                r = asyncio.run(one_turn(port, gid, token))
                if r is None:
                    continue
                if r["type"] != "ack":
                    fail(f"{gid}: a turn after the upgrade: {r}")
                log = http(port, f"/api/games/{gid}/events?since=0")
                if not any(e.get("cid") == "after-upgrade" for e in log):
                    fail(f"{gid}: the acknowledged turn is not in the log")
                played += 1
                break
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        # the player tables came by the migrations, in place (docs/server-protocol.md, "Players and sessions")
        import sqlite3
        versions = [v for (v,) in sqlite3.connect(db).execute("SELECT version FROM schema_migrations ORDER BY version")]
        if versions != list(range(2, 2 + len(versions))) or len(versions) < 2:
            fail(f"{fx}: migrations applied in place: {versions}")
        if played == 0:
            fail(f"{fx}: no active game could go on")
        print(f"{os.path.basename(fx)}: {n} games load and replay ({', '.join(sorted(f'{k} {s}' for k, s in kinds))}); {played} went on")
    print(f"ok: {total} games of {len(fixtures)} stores of earlier versions")


main()
