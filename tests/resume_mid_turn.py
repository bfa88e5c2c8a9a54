#!/usr/bin/env python3
"""`carcassonne play --resume` on records saved in the middle of a turn, and on games that ended early.

Usage: resume_mid_turn.py path/to/carcassonne [games_per_game] [stride]

For every game (tools/game_list.py), seeded games between people are played through
`carcassonne engine` (each decision by the greedy bot); at **every decision after a turn's tile**
(a piece, an Amazonas double tile, a Hunters shaman, Safari's actions, hand-ins and the jeep's new
cell) the record is taken as the engine protocol writes it mid-turn (`"partial": true`), and
`carcassonne play --resume` is started on it with that decision typed in the engine's notation,
then `quit`. It must show the pending decision (never "The tile fits nowhere.", a crash or a
garbage tile), take the typed move, and save a record that replays (`replay --json`) with that
decision made. Then records whose status is `resigned`, `timeout` or `aborted` must load as over:
`play --resume` shows the game as ended and asks nothing, `replay` keeps the status, and the engine
protocol answers `game_over` to any move.

Bounded: one game per game by default (about 500 resumes in all), each process with a timeout.
`stride` k > 1 (the sanitizer build, where each process starts slowly) resumes every k-th
decision after a tile, and the first of each kind (phase and option kinds) in each game.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from game_list import game_ids  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import Engine  # noqa: E402

BIN = os.path.abspath(sys.argv[1])
GAMES_EACH = int(sys.argv[2]) if len(sys.argv) > 2 else 1
STRIDE = int(sys.argv[3]) if len(sys.argv) > 3 else 1
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def run(args, stdin="", timeout=120):
    try:
        return subprocess.run([BIN] + args, input=stdin, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        fail(f"{args}: no answer in {timeout} s")
        return None


def resume_at(tmp, game, rec, move, label):
    """play --resume on a mid-turn record, typing the pending decision `move`, then quit."""
    path = os.path.join(tmp, "mid.json")
    save = os.path.join(tmp, "after.json")
    with open(path, "w") as f:
        json.dump(rec, f)
    if os.path.exists(save):
        os.remove(save)
    r = run(["play", "--resume", path, "--autosave", save, "--overwrite", "--no-color"], stdin=f"{move}\nquit\n")
    if r is None:
        return
    out = r.stdout + r.stderr
    where = f"{game} {label} ({move!r})"
    if r.returncode != 0:
        fail(f"{where}: play --resume exited {r.returncode}: {out[-600:]}")
        return
    if "The tile fits nowhere." in out:
        fail(f"{where}: the resumed game asked for a placement: {out[-600:]}")
        return
    if not os.path.exists(save):
        fail(f"{where}: no save written: {out[-600:]}")
        return
    rp = run(["replay", save, "--json"])
    if rp is None:
        return
    if rp.returncode != 0:
        fail(f"{where}: the save after the resumed decision does not replay: {rp.stdout[-400:]} {rp.stderr[-400:]}")
        return
    with open(save) as f:
        after = json.load(f)
    if after == rec or after["moves"][: len(rec["moves"]) - 1] != rec["moves"][:-1]:
        fail(f"{where}: the save does not continue the record with the typed decision")


def play_one(tmp, game, seed, stats):
    eng = Engine(BIN)
    try:
        r = eng.ask("new", game=game, players=["Ann", "Bob", "Cy"] if game == "safari" else ["Ann", "Bob"], seed=seed)
        gid = r["game"]
        seen, n = set(), 0  # the decision kinds resumed; decisions after a tile so far
        while True:
            st = eng.ask("legal", game=gid)
            if st["over"]:
                break
            if st["phase"] == "waiting":
                fail(f"{game} seed {seed}: the game waits for a draw")
                break
            mv = eng.ask("bot", game=gid, bot="greedy", play=False)
            if not mv.get("ok"):
                fail(f"{game} seed {seed}: bot: {mv}")
                break
            n += st["phase"] != "place"
            kind = (st["phase"], tuple(sorted({o.get("kind", "") for o in st.get("options", [])})))
            if st["phase"] != "place" and (n % STRIDE == 0 or kind not in seen):  # a decision after the turn's tile: the turn is in progress
                seen.add(kind)
                rec = eng.ask("record", game=gid)["record"]
                last = rec["moves"][-1] if rec["moves"] else {}
                if not last.get("partial"):
                    fail(f"{game} seed {seed} turn {st['turn']}: a {st['phase']} decision, yet the record's last move is not partial")
                else:
                    resume_at(tmp, game, rec, mv["move"], f"seed {seed} turn {st['turn']} {st['phase']}")
                    stats[game] = stats.get(game, 0) + 1
            p = eng.ask("play", game=gid, move=mv["move"])
            if not p.get("ok"):
                fail(f"{game} seed {seed}: play {mv['move']}: {p}")
                break
        return eng.ask("record", game=gid)["record"]
    finally:
        eng.close()


def ended_early(tmp, game, rec):
    """A record cut before its end and stated resigned/timeout/aborted loads as over."""
    moves = [m for m in rec["moves"] if not m.get("partial")]
    cut = dict(rec, moves=moves[: max(2, len(moves) // 3)])
    for k in ("events", "final_scores"):
        cut.pop(k, None)
    for status in ("resigned", "timeout", "aborted"):
        cut["status"] = status
        path = os.path.join(tmp, f"ended-{status}.json")
        save = os.path.join(tmp, f"ended-{status}-save.json")
        with open(path, "w") as f:
            json.dump(cut, f)
        r = run(["play", "--resume", path, "--autosave", save, "--overwrite", "--no-color"], stdin="U 0,1 r0\npass\nquit\n")
        if r is None:
            continue
        out = r.stdout + r.stderr
        if r.returncode != 0 or "cannot be continued" not in out or "place tile" in out:
            fail(f"{game} {status}: play --resume of a game that ended early: exit {r.returncode}: {out[-500:]}")
        rp = run(["replay", path, "--json"])
        if rp is None or rp.returncode != 0 or json.loads(rp.stdout).get("status") != status:
            fail(f"{game} {status}: replay does not keep the status: {rp and rp.stdout[-300:]}")
        eng = Engine(BIN)
        try:
            ld = eng.ask("load", record=cut)
            if not ld.get("ok") or not ld.get("over") or ld.get("phase") != "over" or ld.get("to_move") is not None:
                fail(f"{game} {status}: load does not give a game that is over: {ld}")
                continue
            gid = ld["game"]
            for cmd, kw in (("play", {"move": "pass"}), ("bot", {}), ("analyze", {"playouts": 10})):
                a = eng.ask(cmd, game=gid, **kw)
                if a.get("ok") or a["error"]["code"] != "game_over":
                    fail(f"{game} {status}: {cmd} on a game that ended early: {a}")
            lg = eng.ask("legal", game=gid)
            if lg.get("options"):
                fail(f"{game} {status}: legal lists moves in a game that ended early")
            u = eng.ask("undo", game=gid)
            if u.get("ok"):
                fail(f"{game} {status}: undo brought a game that ended early back: {u}")
            rr = eng.ask("record", game=gid)
            if rr["record"].get("status") != status:
                fail(f"{game} {status}: the record written again says {rr['record'].get('status')}")
        finally:
            eng.close()


def main():
    stats = {}
    with tempfile.TemporaryDirectory() as tmp:
        for game in game_ids():
            for k in range(GAMES_EACH):
                rec = play_one(tmp, game, 4001 + k, stats)
                ended_early(tmp, game, rec)
    print(f"resumed mid-turn: {stats}")
    for game in game_ids():
        if stats.get(game, 0) == 0:
            fail(f"{game}: no decision after a tile was resumed")
    if failures:
        print(f"{len(failures)} failures", file=sys.stderr)
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
