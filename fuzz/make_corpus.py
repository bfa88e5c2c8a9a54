#!/usr/bin/env python3
"""Regenerates the seed corpus in fuzz/corpus/ (committed; run again only to refresh it).

    python3 fuzz/make_corpus.py build/carcassonne

The games are the shipped ones of the game list (src/games/GAMES, through tools/game_list.py), in
its order: a harness's first byte picks a game by that index. fuzz_record: selfplay records of
every game (a whole record, one without the engine-written fields, one cut to its first moves) and
a few tiny hand-written ones. fuzz_tiles: every game's tile file (byte 0 = '0', '1', ... picks the
game) and small subsets. fuzz_play_commands: typed sessions. fuzz_engine_protocol: protocol
sessions of every game.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(HERE, "corpus")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from game_list import read_list  # noqa: E402

# the shipped games (not the test games: the harnesses never see them), in game_ids() order
GAMES = read_list(os.path.join(ROOT, "src", "games", "GAMES"))


def index(game):
    """The digit that picks `game` in a harness's first byte."""
    return str(GAMES.index(game))


def compact(j):
    return json.dumps(j, separators=(",", ":"), ensure_ascii=False)


def write(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)


def records(binary):
    tmp = tempfile.mkdtemp()
    try:
        for gi, g in enumerate(GAMES):
            folder = os.path.join(tmp, g)
            subprocess.run([binary, "selfplay", "--game", g, "--games", "2", "--seed", "3", "--bots",
                            "greedy,random" + ",greedy" * (gi % 2), "--players", str(2 + gi % 2), "--records", folder], check=True, stdout=subprocess.DEVNULL)
            a = json.load(open(os.path.join(folder, "game-00001.json")))
            b = json.load(open(os.path.join(folder, "game-00002.json")))
            write("fuzz_record", f"{g}-full.json", compact(a))
            bare = {k: v for k, v in b.items() if k not in ("events", "final_scores", "status", "format")}
            write("fuzz_record", f"{g}-bare.json", compact(bare))
            cut = dict(bare)
            cut["moves"] = bare["moves"][:6]
            cut["draws"] = bare["draws"][:8]
            cut.pop("seed", None)
            write("fuzz_record", f"{g}-cut.json", compact(cut))
    finally:
        shutil.rmtree(tmp)
    write("fuzz_record", "tiny-seed-only.json", '{"game":"base","players":["a","b"],"seed":1,"moves":[]}')
    write("fuzz_record", "tiny-one-move.json",
          '{"game":"base","players":[{"name":"a"},{"name":"b","bot":"greedy"}],"draws":["U"],'
          '"moves":[{"player":0,"tile":"U","x":1,"y":0,"rot":90,"follower":"W"}]}')
    write("fuzz_record", "tiny-options.json",
          '{"game":"base","options":{"farmers":"off"},"players":["a","b","c"],"seed":7,"draws":["A","B"],"moves":[]}')
    write("fuzz_record", "tiny-safari.json", '{"game":"safari","players":["a","b"],"seed":2,"chance":["lion","zebra"],"moves":[]}')


def tiles():
    for gi, g in enumerate(GAMES):
        path = os.path.join(ROOT, "data", "tiles", f"{g}.tiles.json")
        text = open(path).read()
        write("fuzz_tiles", f"{gi}-{g}.tiles.json", str(gi) + text)
        j = json.loads(text)
        for k in ("title", "generated_from", "generated_by", "reconstruction_note", "correcting", "disputes", "corner_rule"):
            j.pop(k, None)
        for t in j["tiles"]:
            t.pop("description", None)
        write("fuzz_tiles", f"{gi}-{g}-compact.json", str(gi) + compact(j))
    # a small base set: the start tile and four more types (total_tiles follows the counts)
    j = json.load(open(os.path.join(ROOT, "data", "tiles", "base.tiles.json")))
    keep = {"A", "D", "E", "U", "V"}
    j["tiles"] = [t for t in j["tiles"] if t["id"] in keep]
    for t in j["tiles"]:
        t.pop("description", None)
    j["total_tiles"] = sum(t["count"] for t in j["tiles"])
    for k in ("title", "generated_from", "generated_by"):
        j.pop(k, None)
    write("fuzz_tiles", "0-base-small.json", "0" + compact(j))
    # near the engine's capacities (docs/tile-format.md limits): a full 120-tile pile, many
    # monasteries, a tile of twelve one-port fields
    base = json.load(open(os.path.join(ROOT, "data", "tiles", "base.tiles.json")))
    for k in ("title", "generated_from", "generated_by"):
        base.pop(k, None)
    for t in base["tiles"]:
        t.pop("description", None)
    big = json.loads(json.dumps(base))
    for t in big["tiles"]:
        if t["id"] == "V":
            t["count"] += 120 - 71 - 16
        if t["id"] == "B":
            t["count"] = 20
    big["total_tiles"] = sum(t["count"] for t in big["tiles"])
    write("fuzz_tiles", "0-base-edge-pile.json", "0" + compact(big))
    ports = ["NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW"]
    split = json.loads(json.dumps(base))
    split["tiles"].append({"id": "Z", "count": 8, "features": [{"type": "field", "ports": [p]} for p in ports]})
    split["total_tiles"] = sum(t["count"] for t in split["tiles"])
    write("fuzz_tiles", "0-base-edge-fields.json", "0" + compact(split))


def play():
    # byte 0: game (its index in GAMES) and seats; byte 1: seed (low 7 bits), colour (bit 7)
    turns = "a\na 0\na 90\na 180\na 270\nnone\n" * 5
    b = index("base")
    write("fuzz_play_commands", "base-turns.txt", b + "A\n" + turns + "board\nscores\n")
    write("fuzz_play_commands", "base-commands.txt",
          str(int(b) + 4) + "B\nhelp\nboard\nmoves\nview 2 -1\nview\n3 -1 90\n0,1 r90\na 90\nb\nroad\nN\nundo\na\nfollower\n.\n.\nundo\nscores\nquit\n")
    write("fuzz_play_commands", "base-color.txt", (b + "\xc1\n.\n.\na\nmonastery\n.\nview -3,2\nboard\n").encode("latin-1"))
    # each game's own commands, for the games that have them
    own = {
        "amazonas": ("C", turns + "river\nD2 180\nd1 r0\ncamp\nexplorer\nN at 9,0\n"),
        "hunters": ("D", turns + "hut N\nN hut\nhut\nfisher\nhunter\nnone\n1\nN at 0,-1\n"),
        "safari": ("E", turns + "tokens\nactions\nfound lion at 2,1 NE\nf\njeep from -2,0 to 1,1\nj 3,1\nexplore zebra 1,1 SE\nlion\nnone\n.\n"),
    }
    for game, (seed, text) in own.items():
        if game in GAMES:
            write("fuzz_play_commands", f"{game}-turns.txt", index(game) + seed + "\n" + text)
    if "safari" in GAMES:
        write("fuzz_play_commands", "safari-bots.txt", str(int(index("safari")) + 4) + "F\n" + ".\n" * 12 + "a\nN\n")
    # issue 49: the game saved and resumed at every decision, mid-turn too (play --resume)
    resumed = "a\nresume\nnone\nresume\n.\nresume\n" * 6
    for k, game in enumerate(GAMES):
        write("fuzz_play_commands", f"{game}-resume.txt", f"{k}G\n" + resumed + ".\nresume\n" * 8)


def protocol(binary):
    """fuzz_engine_protocol: sessions of every game recorded from the real engine, a record loaded
    back, and malformed lines."""
    import random
    out_dir = os.path.join(OUT, "fuzz_engine_protocol")
    os.makedirs(out_dir, exist_ok=True)
    BIN = binary
    for gi, game in enumerate(GAMES):
        p = subprocess.Popen([BIN, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        lines = []
        def ask(req):
            s = json.dumps(req, separators=(",", ":"))
            lines.append(s)
            p.stdin.write(s + "\n"); p.stdin.flush()
            return json.loads(p.stdout.readline())
        rnd = random.Random(gi)
        r = ask({"id": 1, "cmd": "new", "game": game, "players": ["a", {"name": "b", "bot": "greedy"}], "seed": 3 + gi})
        gid = r["game"]
        for n in range(30):
            lg = ask({"id": n, "cmd": "legal", "game": gid})
            o = rnd.choice(lg["options"])
            mv = rnd.choice(o["notations"]) if o["kind"] == "place" else o["notation"]
            if n == 5 and o["kind"] == "place":
                ask({"id": n, "cmd": "legal", "game": gid, "after": mv})
            ask({"id": n, "cmd": "play", "game": gid, "move": mv})
        ask({"id": 90, "cmd": "bot", "game": gid, "play": True})
        ask({"id": 91, "cmd": "undo", "game": gid})
        ask({"id": 92, "cmd": "view", "game": gid, "features": False})
        rec = ask({"id": 93, "cmd": "record", "game": gid})
        p.stdin.close(); p.wait()
        open(f"{out_dir}/{game}-session.txt", "w").write("\n".join(lines) + "\n")
        open(f"{out_dir}/{game}-load.txt", "w").write(json.dumps({"id": 1, "cmd": "load", "record": rec["record"]}, separators=(",", ":")) + "\n" +
            json.dumps({"id": 2, "cmd": "legal", "game": "g1"}) + "\n" + json.dumps({"id": 3, "cmd": "bot", "game": "g1", "bot": "mcts:playouts=50", "play": True}) + "\n")
    open(f"{out_dir}/errors.txt", "w").write("\n".join([
        '{"id":1,"cmd":"new","players":["a","b"],"seed":1,"setup":{"scores":[3,4],"pile":["U","E"]}}',
        '{"id":2,"cmd":"play","game":"g1","move":{"kind":"place","x":1,"y":0,"rot":90}}',
        '{"id":3,"cmd":"play","game":"g1","move":{"kind":"piece","x":1,"y":0,"port":"N"}}',
        '{"id":4,"cmd":"fly"}', 'nope', '{"id":5,"cmd":"close","game":"g1"}', '{"id":6,"cmd":"games"}', '{"id":7,"cmd":"quit"}']) + "\n")


if __name__ == "__main__":
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "carcassonne")
    for t in ("fuzz_record", "fuzz_tiles", "fuzz_play_commands", "fuzz_engine_protocol"):
        shutil.rmtree(os.path.join(OUT, t), ignore_errors=True)
    records(binary)
    tiles()
    play()
    protocol(binary)
