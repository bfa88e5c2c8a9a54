#!/usr/bin/python3
"""Writes a server store (SQLite) with games of every kind, played by a given `carcassonne` binary:
the fixture tests/fixtures/ uses to check that a new version loads the stores of an earlier one
(tests/store_upgrade.py, docs/record.md "Versions").

  git worktree add /tmp/prev COMMIT && cmake -S /tmp/prev -B /tmp/prev/build -G Ninja \\
      -DCMAKE_BUILD_TYPE=Release -DCARC_TESTS=OFF && ninja -C /tmp/prev/build carcassonne
  tools/make_store_fixture.py /tmp/prev/build/carcassonne tests/fixtures/store-COMMIT.db
  (also writes the active games' invite tokens to tests/fixtures/store-tokens.json)

Games (all seeded, so the file is the same every time up to times and random ids): a base game of
two people played to its end; a base game resigned mid-way; an aborted one; Amazonas (a person and
a greedy bot), Hunters (a person, random, greedy) and Safari (two people) left mid-game with a
realtime clock on one of them.
"""
import asyncio
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import urllib.request

import websockets

BIN, OUT = sys.argv[1], sys.argv[2]


def http(port, method, path, body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, data=None if body is None else json.dumps(body).encode())
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.loads(r.read() or b"null")


class Seat:
    def __init__(self, port, gid, token):
        self.port, self.gid, self.token, self.seq, self.to_move, self.n = port, gid, token, 0, -1, 0

    async def open(self):
        self.ws = await websockets.connect(f"ws://127.0.0.1:{self.port}/ws/{self.gid}", max_size=None)
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        await self.until(lambda m: m["type"] == "events")

    async def until(self, pred):
        while True:
            m = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
            if m["type"] == "welcome":
                self.seat = m["seat"]
            if m["type"] == "events":
                self.seq, self.to_move = m["seq"], m["to_move"]
            if pred(m):
                return m

    async def turn(self):
        moves = []
        while True:
            await self.ws.send(json.dumps({"type": "legal", "moves": moves}))
            o = await self.until(lambda m: m["type"] in ("options", "error"))
            if o["type"] == "error" or o["complete"]:
                break
            opt = o["options"][0]
            moves.append(opt["notations"][0] if opt["kind"] == "place" else opt["notation"])
        self.n += 1
        await self.ws.send(json.dumps({"type": "play", "cid": f"s{self.seat}-{self.n}", "at": self.seq, "moves": moves}))
        r = await self.until(lambda m: m["type"] in ("ack", "reject"))
        if r["type"] != "ack":
            raise SystemExit(f"a turn was rejected: {r}")

    async def command(self, kind):
        self.n += 1
        await self.ws.send(json.dumps({"type": kind, "cid": f"s{self.seat}-{self.n}", "at": self.seq}))
        return await self.until(lambda m: m["type"] in ("ack", "reject"))


async def play(port, g, turns):
    """People's turns (bots play theirs) until `turns` people's turns are made or the game ends."""
    seats = [Seat(port, g["id"], s["token"]) for s in g["seats"] if s.get("token")]
    for s in seats:
        await s.open()
    made = 0
    while made < turns:
        mover = next((s for s in seats if s.seat == seats[0].to_move), None)
        if seats[0].to_move < 0:
            break
        if mover is None:  # a bot's turn: wait for its events
            await seats[0].until(lambda m: m["type"] == "events")
            continue
        await mover.turn()
        made += 1
        for s in seats:
            if s is not mover:
                await s.until(lambda m: m["type"] == "events" and m["seq"] >= mover.seq)
    return seats


async def main():
    tmp = tempfile.mkdtemp(prefix="carc-fixture-")
    db = os.path.join(tmp, "games.db")
    proc = subprocess.Popen([BIN, "serve", "--listen", "127.0.0.1:0", "--db", f"sqlite:{db}", "--allow-seed", "--quiet"],
                            stdout=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r":(\d+)", proc.stdout.readline().split("http://")[1]).group(1))
        people = [{"name": "Ann"}, {"name": "Bob"}]
        whole = http(port, "POST", "/api/games", {"game": "base", "seed": 11, "seats": people})
        await play(port, whole, 10000)
        resigned = http(port, "POST", "/api/games", {"game": "base", "seed": 12, "seats": people})
        s = await play(port, resigned, 6)
        await s[0].command("resign")
        aborted = http(port, "POST", "/api/games", {"game": "base", "seed": 13, "seats": people})
        s = await play(port, aborted, 0)
        await s[0].command("abort")
        ama = http(port, "POST", "/api/games", {"game": "amazonas", "seed": 14, "seats": [{"name": "Ann"}, {"bot": "greedy"}]})
        await play(port, ama, 8)
        hun = http(port, "POST", "/api/games", {"game": "hunters", "seed": 15, "seats": [{"name": "Ann"}, {"bot": "random"}, {"bot": "greedy"}]})
        await play(port, hun, 8)
        saf = http(port, "POST", "/api/games", {"game": "safari", "seed": 16, "seats": people, "clock": {"type": "days", "days": 30}})
        await play(port, saf, 10)
        await asyncio.sleep(1)  # the bots' last turns
        active = {g["id"]: [s["token"] for s in g["seats"] if s.get("token")] for g in (ama, hun, saf)}
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("VACUUM")
    con.close()
    with open(db, "rb") as f, open(OUT, "wb") as o:
        o.write(f.read())
    # the people's tokens of the active games (the store keeps only their hashes), for the test
    tokens_path = os.path.join(os.path.dirname(OUT), "store-tokens.json")
    tokens = json.load(open(tokens_path)) if os.path.exists(tokens_path) else {}
    tokens[os.path.basename(OUT)] = active
    with open(tokens_path, "w") as f:
        json.dump(tokens, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {OUT}: {os.path.getsize(OUT)} bytes, and the active games' tokens to {tokens_path}")


asyncio.run(main())
