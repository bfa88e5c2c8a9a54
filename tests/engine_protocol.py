#!/usr/bin/env python3
"""Another program plays whole games of every game through `carcassonne engine` alone.

Usage: engine_protocol.py path/to/carcassonne

Over a real process's stdin/stdout: new games, legal options, moves picked at random (seeded),
bot moves, a tentative placement, an undo, malformed lines between them; then each game's record
is written and checked with `carcassonne replay --json` (it must replay to the same final scores).
Every reply is checked against docs/engine-protocol.schema.json (views against
docs/view.schema.json, records against docs/record.schema.json).
Bounded: one game of each game, each to its end (about 200 requests), and a timeout on every reply.
"""
import json
import os
import random
import select
import subprocess
import sys
import tempfile
import time

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from game_list import game_ids  # noqa: E402

BIN = os.path.abspath(sys.argv[1])
DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs")
with open(os.path.join(DOCS, "engine-protocol.schema.json")) as f:
    PROTO = json.load(f)
RESOLVER = jsonschema.RefResolver(base_uri="file://" + os.path.abspath(DOCS) + "/engine-protocol.schema.json", referrer=PROTO)
checked = {"replies": 0}


def check_schema(cmd, reply):
    part = PROTO["$defs"]["replies"].get(cmd) if reply.get("ok") else PROTO["$defs"]["error"]
    if part is None:
        return
    try:
        jsonschema.Draft202012Validator(part, resolver=RESOLVER).validate(reply)
        checked["replies"] += 1
    except jsonschema.ValidationError as e:
        fail(f"{cmd} reply does not match the schema: {e.message} at {list(e.absolute_path)}")
GAMES = game_ids()  # as the engine lists them (src/games/GAMES)
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


class Engine:
    def __init__(self):
        self.p = subprocess.Popen([BIN, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.n = 0

    def line(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()
        ready, _, _ = select.select([self.p.stdout], [], [], 60)
        if not ready:
            raise RuntimeError("no reply within 60 s to: " + text[:200])
        out = self.p.stdout.readline()
        if not out:
            raise RuntimeError("the engine closed its output after: " + text[:200])
        return json.loads(out)

    def ask(self, cmd, **kw):
        self.n += 1
        req = dict(id=self.n, cmd=cmd, **kw)
        r = self.line(json.dumps(req))
        check_schema(cmd, r)
        if r.get("id") != self.n:
            fail(f"reply id {r.get('id')} to request {self.n}")
        return r


def play_game(eng, game, seed, tmp):
    rnd = random.Random(seed)
    r = eng.ask("new", game=game, players=["ann", {"name": "bob", "bot": "greedy"}], seed=seed)
    if not r["ok"]:
        fail(f"{game}: new: {r}")
        return
    gid = r["game"]
    status, steps, undone = r, 0, False
    while not status["over"]:
        steps += 1
        if steps > 1500:
            fail(f"{game}: no end after 1500 requests")
            return
        if steps == 7:  # analysis of the position, the move about to be played forced
            legal = eng.ask("legal", game=gid)
            first = legal["options"][0]
            force = first["notations"][0] if first["kind"] == "place" else first["notation"]
            a = eng.ask("analyze", game=gid, playouts=120, seed=3, top=3, force=force, ownership=True)
            if not a["ok"] or a["player"] != status["to_move"] or a["playouts"] != 120 or len(a["options"]) > 3 or a["forced"]["move"] != force or a["forced"]["visits"] < 29:
                fail(f"{game}: analyze: {a}")
            if not a["ownership"] or any(not 0 <= x <= 1 for f in a["ownership"] for x in f["share"]) \
                    or any([f["x"], f["y"]] not in f["cells"] or not 0 <= min(f["anchor"]) <= max(f["anchor"]) <= 1 for f in a["ownership"]):
                fail(f"{game}: ownership: {a['ownership'][:3]}")
            if eng.ask("analyze", game=gid, playouts=120, seed=3, top=3, force=force, ownership=True) != dict(a, id=eng.n):
                fail(f"{game}: analyze is not deterministic for a seed")
            bad = eng.ask("analyze", game=gid, force="no such move")
            if bad["ok"] or bad["error"]["code"] != "illegal_move":
                fail(f"{game}: analyze with a bad forced move: {bad}")
        if status["to_move"] == 1:  # bob's seat plays its bot
            status = eng.ask("bot", game=gid, play=True, view=(steps % 40 == 1))
        else:
            legal = eng.ask("legal", game=gid)
            if not legal["ok"] or not legal["options"]:
                fail(f"{game}: legal: {legal}")
                return
            o = rnd.choice(legal["options"])
            move = rnd.choice(o["notations"]) if o["kind"] == "place" else o["notation"]
            if o["kind"] == "place" and steps % 9 == 0:
                after = eng.ask("legal", game=gid, after=move)
                if not after["ok"]:
                    fail(f"{game}: legal after {move}: {after}")
            status = eng.ask("play", game=gid, move=move)
            if status["ok"] and not undone and steps > 30 and status["phase"] == "piece":
                u = eng.ask("undo", game=gid)  # take the placement back, then go on
                undone = True
                if not u["ok"]:
                    fail(f"{game}: undo: {u}")
                status = u
        if not status["ok"]:
            fail(f"{game}: {status}")
            return
        if steps % 50 == 0:  # garbage between requests changes nothing
            bad = eng.line('{"id": "x", "cmd": "play", "game": "' + gid + '", "move": "no such move"}')
            if bad["ok"] or bad["error"]["code"] != "illegal_move":
                fail(f"{game}: a bad move was answered {bad}")
            bad = eng.line("this is not json")
            if bad["ok"] or bad["error"]["code"] != "bad_json":
                fail(f"{game}: garbage was answered {bad}")
    rec = eng.ask("record", game=gid)
    path = os.path.join(tmp, f"{game}.json")
    with open(path, "w") as f:
        json.dump(rec["record"], f)
    out = subprocess.run([BIN, "replay", "--json", path], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        fail(f"{game}: replay exit {out.returncode}: {out.stdout[:300]} {out.stderr[:300]}")
        return
    res = json.loads(out.stdout)
    if res.get("final_scores") != status["scores"]:
        fail(f"{game}: replay gives {res.get('final_scores')}, the protocol {status['scores']}")
    # the review of the record, by the protocol and by the command line: the same
    rv = eng.ask("review", record=rec["record"], playouts=20, seed=5)
    if not rv["ok"] or rv["review"]["final_scores"] != status["scores"] or not rv["review"]["decisions"]:
        fail(f"{game}: review: {str(rv)[:300]}")
    big = eng.ask("review", record=rec["record"], playouts=1000000)
    if big["ok"] or big["error"]["code"] != "bad_request" or "playouts" not in big["error"]["message"]:
        fail(f"{game}: a review over the session's budget: {str(big)[:300]}")
    out = subprocess.run([BIN, "review", "--json", "--playouts", "20", "--seed", "5", path], capture_output=True, text=True, timeout=300)
    cli = json.loads(out.stdout) if out.returncode == 0 else {}
    cli.pop("file", None)
    if cli != rv["review"]:
        fail(f"{game}: carcassonne review --json differs from the protocol's review (exit {out.returncode}: {out.stderr[:200]})")
    print(f"{game}: {steps} steps, final scores {status['scores']}, replayed")


def main():
    start = time.time()
    eng = Engine()
    with tempfile.TemporaryDirectory() as tmp:
        for i, g in enumerate(GAMES):
            play_game(eng, g, 11 + i, tmp)
    # a line over the 4 MiB limit is refused, and the engine goes on
    big = eng.line('{"id": 1, "cmd": "games", "pad": "' + "x" * (5 << 20) + '"}')
    if big.get("ok") or big["error"]["code"] != "too_long":
        fail(f"a 5 MiB line was answered {str(big)[:200]}")
    if not eng.ask("games")["ok"]:
        fail("the engine did not go on after a too long line")
    r = eng.ask("quit")
    if not r["ok"]:
        fail(f"quit: {r}")
    try:
        code = eng.p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        eng.p.kill()
        code = None
    if code != 0:
        fail(f"the engine exited {code} after quit")
    # end of input also ends it, cleanly
    p = subprocess.run([BIN, "engine"], input='{"id":1,"cmd":"games"}\n{"id":2,', capture_output=True, text=True, timeout=30)
    lines = p.stdout.splitlines()
    if p.returncode != 0 or len(lines) != 2 or json.loads(lines[1])["error"]["code"] != "bad_json":
        fail(f"end of input: exit {p.returncode}, {lines}")
    # issue 49 item 9: a search of a million playouts (most of a minute of CPU) stops when the
    # input closes: the engine answers within its 5 s grace and exits, with a margin of seconds
    p = subprocess.Popen([BIN, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write('{"id":1,"cmd":"new","players":["a","b"],"seed":3}\n{"id":2,"cmd":"analyze","game":"g1","playouts":1000000}\n')
    p.stdin.close()
    t0 = time.time()
    try:
        p.wait(timeout=25)
        lines = p.stdout.read().splitlines()
        an = json.loads(lines[1]) if len(lines) == 2 else {}
        if p.returncode != 0 or not an.get("ok") or an.get("playouts", 0) >= 1000000:
            fail(f"analyze after the end of input: exit {p.returncode}, {str(lines)[:300]}")
        print(f"a million-playout analyze after the end of input: answered and exited in {time.time() - t0:.1f} s")
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        fail("a million-playout analyze went on for 25 s after the end of input")
    print(f"{checked['replies']} replies matched the schema")
    print(f"{'FAILED' if failures else 'ok'} in {time.time() - start:.1f} s")
    sys.exit(1 if failures else 0)


main()
