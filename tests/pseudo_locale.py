#!/usr/bin/env python3
"""The terminal in the pseudo-locale and in Russian: no word a player reads that is not a message.

Usage: pseudo_locale.py path/to/carcassonne [--show]

The pseudo-locale `xx` (docs/i18n.md) shows every message's English text with its letters accented
("Ţúŕñ 1"), so any run of plain ASCII letters on its screens came from somewhere else: an
identifier, English data, a sentence built in code. For every game (tools/game_list.py), a seeded
game is played through `carcassonne engine` by the greedy bot in every seat to learn its moves;
then `carcassonne play --lang xx` plays the same game with every seat a person, typing those moves
in the engine's notation, with the commands a player uses (help, scores, panels, moves, view,
board, a bad move). Every line of that transcript is checked:

- a run of two or more ASCII letters fails unless it is what a player types (the notation's words
  and the commands, and whatever stands in ASCII double quotes), a seat's name or a file path;
- a line wider than the --width given (80) fails: lines wrap at word boundaries.

The same game is then played in Russian, where any run of ASCII letters outside those is English,
and in Romanian, where English's own small words ("the", "of", "tile"...) are looked for.
The board picture (`render --lang`) of the typed game, half-way and at the end, is read the same
way: its texts, tooltips and labels. The engine protocol in `xx` is read the same way: a greedy game's options, events and views at
every decision (the fields a front end shows: text, title, label, rows...; the notation and the
bot's report for researchers aside).

Bounded: one game per game, each process with a timeout. `--show` prints the transcripts.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from game_list import game_ids  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_client import Engine  # noqa: E402

BIN = os.path.abspath(sys.argv[1])
SHOW = "--show" in sys.argv
WIDTH = 80
NAMES = ["Ann", "Bob", "Cy"]
failures = []

# What a player types, shown as such: the terminal's commands and the notation's words (moves
# are typed in the notation in every language; docs/i18n.md). Ports are upper case compass names.
TYPED = {
    "help", "undo", "quit", "board", "moves", "view", "scores", "hint", "panels", "none", "pass",
    "at", "resume", "overwrite", "carcassonne", "play", "json", "Enter", "actions",
    # the notation's placeholders in the help (what a player puts there is said beside them)
    "ROT", "PORT", "SPECIES", "CORNER",
}
# words that are English and not Romanian (what the Romanian run looks for)
ENGLISH = {"the", "of", "and", "with", "your", "you", "is", "for", "tile", "tiles", "left", "points", "point",
           "turn", "showing", "type", "or", "no", "placed", "scores", "draws", "supply", "none left"}
PORT = re.compile(r"^(?:[NESW]{1,3}|C)$")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
QUOTED = re.compile(r'"[^"\n]*"')
PATH = re.compile(r"(?:/[\w.\-]+)+|[\w\-]+\.json")
WORD = re.compile(r"[A-Za-z]{2,}")
# a word standing alone: a run of letters inside a board's drawing ("··Bz─", "m1EM") is glyphs
ALONE = re.compile(r"(?<![^\s(\[{,;:'«„])[A-Za-z]{2,}(?![^\s)\]},;:.!?'»”…])")


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def width(s):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def moves_of(game, seed, players):
    """The moves of a seeded game in which the greedy bot makes every decision, in notation."""
    eng = Engine(BIN)
    try:
        gid = eng.ask("new", game=game, players=players, seed=seed)["game"]
        moves = []
        while True:
            st = eng.ask("legal", game=gid)
            if st["over"]:
                return moves
            mv = eng.ask("bot", game=gid, bot="greedy", play=False)["move"]
            if not eng.ask("play", game=gid, move=mv).get("ok"):
                raise RuntimeError(f"{game}: the engine refused its bot's move {mv}")
            moves.append(mv)
    finally:
        eng.close()


# the view's and the protocol's fields a player reads (the rest are identifiers and notation)
READ = {"text", "title", "label", "rows", "lines", "summary_words", "words", "word", "track_title", "head"}


def engine_words(game, seed, players):
    """A greedy game through `carcassonne engine --lang xx`: every text a front end shows (options,
    events, the view's panels and titles) at every decision; returns {word: example}."""
    found = {}

    def walk(v, key=""):
        if isinstance(v, dict):
            for k, x in v.items():
                if k in ("notation", "notations", "move", "report"):  # notation; the bot's report is for researchers
                    continue
                walk(x, k)
        elif isinstance(v, list):
            for x in v:
                walk(x, key)
        elif isinstance(v, str) and key in READ:
            for w in ALONE.findall(QUOTED.sub(" ", v)):
                found.setdefault(w, f"{key}: {v[:140]}")

    eng = Engine(BIN, "--lang", "xx")
    try:
        gid = eng.ask("new", game=game, players=players, seed=seed)["game"]
        while True:
            st = eng.ask("legal", game=gid)
            walk(st)
            walk(eng.ask("view", game=gid))
            if st["over"]:
                break
            walk(eng.ask("bot", game=gid, bot="greedy", play=True))
    finally:
        eng.close()
    return found


def allowed(word, names):
    return word in TYPED or word in names or PORT.match(word) is not None


def check(game, lang, out, names, tokens, typed):
    bad = {}
    for n, raw in enumerate(ANSI.sub("", out).splitlines(), 1):
        # what was typed, echoed after a prompt's ">", is the player's, not the program's
        for t in typed:
            if t and raw.endswith(" " + t) and (">" in raw or "]" in raw):
                raw = raw[: -len(t)]
                break
        if raw.startswith(SVG):  # a picture's text: no terminal width
            raw = raw[len(SVG):]
        elif width(raw.rstrip()) > WIDTH:
            bad.setdefault(f"wider than {WIDTH}", []).append(f"line {n}: {raw!r}")
        stripped = PATH.sub(" ", QUOTED.sub(" ", raw))
        for w in ALONE.findall(stripped):
            if lang == "ro" and w.lower() not in ENGLISH:  # Romanian is Latin: only English's own words
                continue
            if not allowed(w, names) and w not in tokens:
                bad.setdefault(w, []).append(f"line {n}: {raw.strip()[:150]}")
    for what, where in sorted(bad.items()):
        fail(f"{game} --lang {lang}: {what!r} on {len(where)} line(s), first {where[0]}")


SVG = "\x01svg "  # marks the board picture's texts among the transcript's lines
COMMANDS = ["help", "scores", "panels", "moves", "board", "view 0 0", "view", "no such move"]


def play(game, lang, seed, players, moves):
    with tempfile.TemporaryDirectory() as tmp:
        save = os.path.join(tmp, "game.json")
        # the typed lines: a player's commands first, then every move in the notation (the typed
        # moves themselves are echoed by no terminal: input is piped)
        lines = COMMANDS + moves
        args = ["play", "--game", game, "--seats", ",".join(["human"] * len(players)), "--name", ",".join(players),
                "--seed", str(seed), "--lang", lang, "--width", str(WIDTH), "--no-color", "--no-hints",
                "--autosave", save, "--overwrite"]
        try:
            r = subprocess.run([BIN] + args, input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            fail(f"{game} --lang {lang}: no end in 300 s")
            return ""
        out = r.stdout + r.stderr
        if r.returncode != 0:
            fail(f"{game} --lang {lang}: play exited {r.returncode}: {out[-500:]}")
        with open(save) as f:
            rec = json.load(f)
        if rec.get("status", "finished") != "finished" or "final_scores" not in rec:
            fail(f"{game} --lang {lang}: the typed game did not reach its end ({len(rec.get('moves', []))} moves): {out[-800:]}")
        # the board picture of the game in the same language: its texts, tooltips and labels
        pic = os.path.join(tmp, "board.svg")
        for turn in (len(rec["moves"]) // 2, len(rec["moves"])):
            r = subprocess.run([BIN, "render", save, "--turn", str(turn), "-o", pic, "--lang", lang], capture_output=True,
                               text=True, timeout=120)
            if r.returncode != 0:
                fail(f"{game} render --lang {lang}: exited {r.returncode}: {r.stderr[-300:]}")
                continue
            with open(pic, encoding="utf-8") as f:
                svg = f.read()
            texts = re.findall(r"<text[^>]*>(.*?)</text>", svg) + re.findall(r"<title>([^<]*)</title>", svg)
            texts += re.findall(r'aria-label="([^"]*)"', svg)
            out += "\n" + "\n".join(SVG + re.sub(r"<[^>]*>", "", t).replace("&amp;", "&") for t in texts if t.strip())
        return out


def main():
    # the notation's own words (kinds and names a move is typed with), from every move typed
    for game in game_ids():
        players = NAMES if game == "safari" else NAMES[:2]
        seed = 7101
        moves = moves_of(game, seed, players)
        tokens = {w for m in moves for w in WORD.findall(m)}
        for lang in ("xx", "ru", "ro"):
            out = play(game, lang, seed, players, moves)
            if SHOW:
                print(f"===== {game} {lang}\n{out}")
            check(game, lang, out, set(players), tokens, set(COMMANDS) | set(moves))
        for w, where in sorted(engine_words(game, seed, players).items()):
            if not allowed(w, set(players)) and w not in tokens:
                fail(f"{game} engine --lang xx: {w!r} in {where}")
        print(f"{game}: {len(moves)} moves typed in xx, ru and ro; notation words: {' '.join(sorted(tokens))}")
    if failures:
        print(f"{len(failures)} failure(s)", file=sys.stderr)
        sys.exit(1)
    print("no word outside the messages on any terminal screen")


if __name__ == "__main__":
    main()
