#!/bin/bash
# Smoke test of the carcassonne binary: selfplay JSON, records and their replay, corrupted records,
# the bench signature, and bad arguments. Usage: cli_smoke.sh path/to/carcassonne
set -u
# the words are English unless a test asks for another language (play reads LC_ALL, LC_MESSAGES, LANG)
export LC_ALL=C.UTF-8
BIN=${1:?usage: cli_smoke.sh path/to/carcassonne}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")  # some checks run in other folders
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FAILS=0

fail() {
  echo "FAIL: $*" >&2
  FAILS=$((FAILS + 1))
}

# run NAME CMD...: runs a command, keeps stdout/stderr in $TMP/NAME.{out,err}, sets RC
run() {
  local name=$1
  shift
  "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
  RC=$?
}

# A crash is an exit by signal (134 abort, 139 segfault, ...) or an internal error (3).
no_crash() {
  local name=$1
  if [ "$RC" -ge 128 ] || [ "$RC" -eq 3 ]; then
    fail "$name crashed (exit $RC): $(head -c 400 "$TMP/$name.err")"
  fi
}

command -v python3 >/dev/null || { echo "python3 is needed" >&2; exit 1; }
# the games, as game_ids() lists them (src/games/GAMES)
GAMES=$(python3 "$(dirname "$0")/../tools/game_list.py" | tr '\n' ' ')
[ -n "$GAMES" ] || { echo "no games listed" >&2; exit 1; }

# ---------------------------------------------------------------------------------------------
# selfplay --json: valid JSON with the documented keys
run selfplay_json "$BIN" selfplay --games 20 --json --players 3 --seed 5
no_crash selfplay_json
[ "$RC" -eq 0 ] || fail "selfplay --json exited $RC: $(cat "$TMP/selfplay_json.err")"
python3 - "$TMP/selfplay_json.out" <<'EOF' || fail "selfplay --json output is not as documented"
import json, sys
j = json.load(open(sys.argv[1]))
need = ["game", "options", "players", "bots", "games", "seed", "seats", "mean_legal_placements_per_turn",
        "mean_turns", "seconds", "games_per_second"]
missing = [k for k in need if k not in j]
assert not missing, f"missing keys {missing}"
assert j["game"] == "base" and j["games"] == 20 and j["players"] == 3 and j["seed"] == 5, j
assert j["options"] == {"farmers": "on"}, j["options"]
assert len(j["seats"]) == 3 and len(j["bots"]) == 3
for k, seat in enumerate(j["seats"]):
    for key in ["seat", "bot", "mean_score", "stdev_score", "win_share"]:
        assert key in seat, f"seat lacks {key}"
    assert seat["seat"] == k + 1 and seat["bot"] == "random"
    assert seat["mean_score"] > 0 and seat["stdev_score"] >= 0 and 0 <= seat["win_share"] <= 1
assert abs(sum(s["win_share"] for s in j["seats"]) - 1) < 1e-9
assert 60 <= j["mean_turns"] <= 71, j["mean_turns"]
assert j["mean_legal_placements_per_turn"] > 1
EOF

# the same seed gives the same statistics (timings aside)
run selfplay_json2 "$BIN" selfplay --games 20 --json --players 3 --seed 5
python3 - "$TMP/selfplay_json.out" "$TMP/selfplay_json2.out" <<'EOF' || fail "selfplay is not reproducible"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for j in (a, b):
    j.pop("seconds"); j.pop("games_per_second")
assert a == b
EOF

# ---------------------------------------------------------------------------------------------
# selfplay --records DIR, then replay every record: success and matching final scores
run selfplay_rec "$BIN" selfplay --games 6 --players 4 --bots random,greedy,random,greedy --records "$TMP/rec" --option farmers=off
no_crash selfplay_rec
[ "$RC" -eq 0 ] || fail "selfplay --records exited $RC: $(cat "$TMP/selfplay_rec.err")"
nrec=$(ls "$TMP/rec"/*.json 2>/dev/null | wc -l)
[ "$nrec" -eq 6 ] || fail "expected 6 records, found $nrec"
for f in "$TMP"/rec/*.json; do
  [ -e "$f" ] || continue
  run replay "$BIN" replay --json "$f"
  no_crash replay
  if [ "$RC" -ne 0 ]; then
    fail "replay $f exited $RC: $(cat "$TMP/replay.err")"
    continue
  fi
  python3 - "$f" "$TMP/replay.out" <<'EOF' || fail "replay of $f does not match the record"
import json, sys
rec = json.load(open(sys.argv[1]))
out = json.load(open(sys.argv[2]))
assert rec["status"] == "finished" and out["status"] == "finished", (rec["status"], out["status"])
assert rec["final_scores"] == out["final_scores"] == out["scores"], (rec["final_scores"], out["final_scores"])
assert rec["options"] == {"farmers": "off"}
assert [e["points"] for e in rec["events"]] == [e["points"] for e in out["events"]]
assert all(e["reason"] != "farm" for e in out["events"])
assert out["turns"] + out["discards"] == 71
EOF
  # the plain-text form works too
  run replay_text "$BIN" replay "$f"
  [ "$RC" -eq 0 ] && grep -q "^finished" "$TMP/replay_text.out" || fail "plain replay of $f: exit $RC"
done

# ---------------------------------------------------------------------------------------------
# corrupted records: non-zero exit, a message naming the move, no crash
first=$(ls "$TMP"/rec/*.json | head -1)
corrupt() {  # corrupt NAME PYTHON-EXPRESSION-ON-j
  python3 - "$first" "$TMP/$1.json" "$2" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(j, open(sys.argv[2], "w"))
EOF
}
corrupt bad_cell 'j["moves"][4]["x"] = 60'
corrupt bad_tile 'j["moves"][6]["tile"] = "C" if j["moves"][6]["tile"] != "C" else "B"'
corrupt bad_port 'j["moves"][2]["follower"] = "NORTH"'
corrupt bad_player 'j["moves"][3]["player"] = 9'
corrupt bad_rot 'j["moves"][7]["rot"] = 45'
for case in bad_cell:5 bad_tile:7 bad_port:3 bad_player:4 bad_rot:8; do
  name=${case%%:*}
  move=${case##*:}
  run "$name" "$BIN" replay "$TMP/$name.json"
  no_crash "$name"
  [ "$RC" -ne 0 ] || fail "replay of $name exited 0"
  grep -q "move $move\b" "$TMP/$name.err" || fail "replay of $name: message does not name move $move: $(cat "$TMP/$name.err")"
done
# replay --json: the first error as JSON on stdout (move number, stable code, message), exit 2
run bad_cell_json "$BIN" replay --json "$TMP/bad_cell.json"
no_crash bad_cell_json
[ "$RC" -eq 2 ] || fail "replay --json of bad_cell: exit $RC"
python3 - "$TMP/bad_cell_json.out" <<'EOF2' || fail "replay --json error output: $(cat "$TMP/bad_cell_json.out")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["ok"] is False and j["error"]["move"] == 5 and j["error"]["code"] == "illegal_placement", j
assert "move 5" in j["error"]["message"]
EOF2
run notjson_json "$BIN" replay --json "$TMP"
[ "$RC" -eq 2 ] && python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["error"]["code"]=="bad_record" and j["error"]["move"] == 0 and not j["error"]["message"].startswith(sys.argv[2])' "$TMP/notjson_json.out" "$TMP" ||
  fail "replay --json of a folder: exit $RC, $(cat "$TMP/notjson_json.out")"
# replay --moves: every decision with its move, in text and in JSON
run moves_text "$BIN" replay --moves "$first"
[ "$RC" -eq 0 ] && grep -q "^move   1: .* place (one of [0-9]*): " "$TMP/moves_text.out" || fail "replay --moves: exit $RC, $(head -3 "$TMP/moves_text.out")"
run moves_json "$BIN" replay --moves --json "$first"
python3 - "$first" "$TMP/moves_json.out" <<'EOF2' || fail "replay --moves --json does not list every decision"
import json, sys
rec = json.load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))["decisions"]
assert len([x for x in d if x["kind"] == "place"]) == len(rec["moves"]), (len(d), len(rec["moves"]))
assert all(x["options"] >= 1 for x in d) and d[0]["move"] == 1
EOF2
# claimed results that disagree with the replay
python3 - "$first" "$TMP/bad_scores.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
j["final_scores"] = [s + 1 for s in j["final_scores"]]
json.dump(j, open(sys.argv[2], "w"))
EOF
run bad_scores "$BIN" replay "$TMP/bad_scores.json"
no_crash bad_scores
[ "$RC" -ne 0 ] || fail "a record with wrong final scores replayed with exit 0"
# not JSON at all, and a missing file
head -c 200 "$first" >"$TMP/truncated.json"
run truncated "$BIN" replay "$TMP/truncated.json"
no_crash truncated
[ "$RC" -ne 0 ] && grep -qi "json" "$TMP/truncated.err" || fail "truncated record: exit $RC, $(cat "$TMP/truncated.err")"
run missing "$BIN" replay "$TMP/no-such-record.json"
no_crash missing
[ "$RC" -ne 0 ] && grep -q "no-such-record" "$TMP/missing.err" || fail "missing record: exit $RC"

# ---------------------------------------------------------------------------------------------
# bench: a signature line, the same twice
run bench1 "$BIN" bench --no-gbench --games 200
no_crash bench1
[ "$RC" -eq 0 ] || fail "bench exited $RC: $(cat "$TMP/bench1.err")"
run bench2 "$BIN" bench --no-gbench --games 200
sig1=$(grep '^signature:' "$TMP/bench1.out")
sig2=$(grep '^signature:' "$TMP/bench2.out")
[[ "$sig1" =~ ^signature:\ [0-9a-f]{16}\  ]] || fail "no signature line: $(cat "$TMP/bench1.out")"
[ "$sig1" = "$sig2" ] || fail "bench signatures differ: '$sig1' vs '$sig2'"
run bench3 "$BIN" bench --no-gbench --games 200 --seed 2
sig3=$(grep '^signature:' "$TMP/bench3.out")
[ -n "$sig3" ] && [ "$sig1" != "$sig3" ] || fail "bench signature ignores the seed"

# ---------------------------------------------------------------------------------------------
# Amazonas: bot games (selfplay), an all-bot `play` (no input needed) whose autosave replays, and a
# human seat that quits at the first prompt (the game is saved)
run amz_selfplay "$BIN" selfplay --game amazonas --players 3 --bots greedy,random,greedy --games 4 --seed 3
no_crash amz_selfplay
[ "$RC" -eq 0 ] || fail "selfplay --game amazonas exited $RC: $(cat "$TMP/amz_selfplay.err")"
run amz_play "$BIN" play --game amazonas --seats greedy,random,greedy,random --seed 11 --autosave "$TMP/amz_play.json" </dev/null
no_crash amz_play
[ "$RC" -eq 0 ] || fail "all-bot play --game amazonas exited $RC: $(cat "$TMP/amz_play.err")"
grep -q "^Final scores:" "$TMP/amz_play.out" || fail "all-bot play --game amazonas printed no final scores"
grep -q "then the double tile" "$TMP/amz_play.out" || fail "all-bot play --game amazonas: no double tile placed"
grep -q "at the river mouth" "$TMP/amz_play.out" || fail "all-bot play --game amazonas: no river mouth scoring"
run amz_replay "$BIN" replay "$TMP/amz_play.json"
no_crash amz_replay
[ "$RC" -eq 0 ] && grep -q "^finished" "$TMP/amz_replay.out" || fail "replay of the Amazonas play record: exit $RC"
printf 'help\nquit\n' >"$TMP/amz_quit.in"
run amz_human "$BIN" play --game amazonas --players 3 --seats human,greedy,greedy --seed 2 --autosave "$TMP/amz_human.json" <"$TMP/amz_quit.in"
no_crash amz_human
[ "$RC" -eq 0 ] || fail "play --game amazonas with a human exited $RC: $(cat "$TMP/amz_human.err")"
grep -q "River: 16 spaces" "$TMP/amz_human.out" && grep -q "Choosing a double tile" "$TMP/amz_human.out" &&
  [ -s "$TMP/amz_human.json" ] || fail "play --game amazonas with a human: no river panel, help or saved game"

# ---------------------------------------------------------------------------------------------
# Hunters & Gatherers: bot games (selfplay), an all-bot `play` whose autosave replays (bonus turns
# after menhirs, huts, river systems and meadows at the end), and a human seat that asks for help and
# quits at the first prompt
run hg_selfplay "$BIN" selfplay --game hunters --players 3 --bots greedy,random,greedy --games 4 --seed 3 --json
no_crash hg_selfplay
[ "$RC" -eq 0 ] || fail "selfplay --game hunters exited $RC: $(cat "$TMP/hg_selfplay.err")"
python3 - "$TMP/hg_selfplay.out" <<'EOF2' || fail "selfplay --game hunters: unexpected statistics"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["game"] == "hunters" and j["games"] == 4 and j["players"] == 3, j
assert j["mean_turns"] >= 78, j["mean_turns"]
EOF2
run hg_play "$BIN" play --game hunters --seats greedy,random,greedy,random --seed 11 --autosave "$TMP/hg_play.json" </dev/null
no_crash hg_play
[ "$RC" -eq 0 ] || fail "all-bot play --game hunters exited $RC: $(cat "$TMP/hg_play.err")"
grep -q "^Final scores:" "$TMP/hg_play.out" || fail "all-bot play --game hunters printed no final scores"
grep -q "Menhir! A bonus tile and an extra turn for " "$TMP/hg_play.out" &&
  grep -q " placed bonus tile " "$TMP/hg_play.out" || fail "all-bot play --game hunters: no bonus turn"
grep -q "hut on the river system" "$TMP/hg_play.out" || fail "all-bot play --game hunters: no hut placed"
grep -q "for the hut majority on a river system with" "$TMP/hg_play.out" &&
  grep -q "for a meadow with" "$TMP/hg_play.out" || fail "all-bot play --game hunters: no final river system or meadow scoring"
run hg_replay "$BIN" replay "$TMP/hg_play.json"
no_crash hg_replay
[ "$RC" -eq 0 ] && grep -q "^finished" "$TMP/hg_replay.out" || fail "replay of the Hunters play record: exit $RC"
printf 'help\nquit\n' >"$TMP/hg_quit.in"
run hg_human "$BIN" play --game hunters --seats human,greedy --seed 2 --autosave "$TMP/hg_human.json" <"$TMP/hg_quit.in"
no_crash hg_human
[ "$RC" -eq 0 ] || fail "play --game hunters with a human exited $RC: $(cat "$TMP/hg_human.err")"
grep -q "regular left" "$TMP/hg_human.out" && grep -q "hut PORT" "$TMP/hg_human.out" &&
  [ -s "$TMP/hg_human.json" ] || fail "play --game hunters with a human: no piles panel, help or saved game"

# ---------------------------------------------------------------------------------------------
# Safari: bot games (selfplay), an all-bot `play` whose autosave replays to the same scores (jeeps
# taken and moved, watering holes, token hand-ins, baobab deals), and a human seat piped a few
# commands: help, a placement, the action list, a bad action, a jeep move, then quit
run saf_selfplay "$BIN" selfplay --game safari --players 3 --bots greedy,random,greedy --games 4 --seed 3 --json
no_crash saf_selfplay
[ "$RC" -eq 0 ] || fail "selfplay --game safari exited $RC: $(cat "$TMP/saf_selfplay.err")"
python3 - "$TMP/saf_selfplay.out" <<'EOF3' || fail "selfplay --game safari: unexpected statistics"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["game"] == "safari" and j["games"] == 4 and j["players"] == 3, j
assert j["mean_turns"] >= 60, j["mean_turns"]
EOF3
run saf_play "$BIN" play --game safari --seats greedy,random,greedy --seed 11 --autosave "$TMP/saf_play.json" </dev/null
no_crash saf_play
[ "$RC" -eq 0 ] || fail "all-bot play --game safari exited $RC: $(cat "$TMP/saf_play.err")"
grep -q "^Final scores:" "$TMP/saf_play.out" || fail "all-bot play --game safari printed no final scores"
grep -q "^Opening deal" "$TMP/saf_play.out" && grep -q " draws 2 tokens: " "$TMP/saf_play.out" ||
  fail "all-bot play --game safari: no opening deal or baobab tokens shown"
grep -q "took the jeep at .* and put it on " "$TMP/saf_play.out" && grep -q "moved a jeep from " "$TMP/saf_play.out" ||
  fail "all-bot play --game safari: no jeep taken and moved"
grep -q "founded a watering hole with " "$TMP/saf_play.out" && grep -q "token handed in" "$TMP/saf_play.out" ||
  fail "all-bot play --game safari: no watering hole or token hand-in"
# the same game in Russian (play --lang ru), and from the environment (LANG=ro_RO.UTF-8)
run saf_ru "$BIN" play --lang ru --game safari --seats greedy,random,greedy --seed 11 --autosave "$TMP/saf_ru.json" </dev/null
no_crash saf_ru
[ "$RC" -eq 0 ] || fail "play --lang ru exited $RC: $(cat "$TMP/saf_ru.err")"
grep -q "^Ход  1: " "$TMP/saf_ru.out" && grep -q "^Итоговые очки:" "$TMP/saf_ru.out" ||
  fail "play --lang ru: the turn header or the final scoring is not in Russian"
cmp -s <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["moves"], r["final_scores"])' "$TMP/saf_play.json") \
       <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["moves"], r["final_scores"])' "$TMP/saf_ru.json") ||
  fail "play --lang ru played another game than in English (the language changed the play)"
LC_ALL= LANG=ro_RO.UTF-8 run saf_ro "$BIN" play --game safari --seats greedy,random --seed 3 --autosave "$TMP/saf_ro.json" </dev/null
grep -q "^Tura  1: " "$TMP/saf_ro.out" || fail "LANG=ro_RO.UTF-8: play does not speak Romanian"
# a Russian player's screens: the board, its legend, the help, the lists, an error and the save
# are Russian; the English words left are what is typed (commands, the notation), names and paths
printf 'help\nmoves\nboard\nscores\nfoo\nquit\n' >"$TMP/saf_ru_in.txt"
run saf_ru_human "$BIN" play --lang ru --game safari --seats human,greedy --seed 11 --autosave "$TMP/saf_ru_h.json" <"$TMP/saf_ru_in.txt"
no_crash saf_ru_human
english=$(sed "s|$TMP[^ ]*||g" "$TMP/saf_ru_human.out" | grep -oE '\b[a-z]{3,}\b' | sort -u |
  grep -vxE 'help|hint|view|scores|resume|quit|none|moves|board|undo|play|pass|panels|carcassonne|follower|double|found|explore|jeep|jeeps|tokens|actions|trail|bush|baobab|lion|from|greedy|foo|json' || true)
grep -q "^Карта:" "$TMP/saf_ru_human.out" && grep -q "^Порты квадрата:" "$TMP/saf_ru_human.out" ||
  fail "play --lang ru: the board's legend or the help was not shown"
[ -z "$english" ] || fail "play --lang ru: English words on a Russian player's screens: $(echo $english)"
run saf_bad_lang "$BIN" play --lang de --game safari --seats greedy,random </dev/null
[ "$RC" -ne 0 ] && grep -q "not a language" "$TMP/saf_bad_lang.err" || fail "play --lang de was not refused naming the language"
run saf_replay "$BIN" replay --json "$TMP/saf_play.json"
no_crash saf_replay
[ "$RC" -eq 0 ] || fail "replay of the Safari play record: exit $RC: $(cat "$TMP/saf_replay.err")"
python3 - "$TMP/saf_play.json" "$TMP/saf_replay.out" <<'EOF3' || fail "replay of the Safari play record does not match"
import json, sys
rec = json.load(open(sys.argv[1]))
out = json.load(open(sys.argv[2]))
assert rec["game"] == "safari" and rec["status"] == "finished" and out["status"] == "finished", (rec["status"], out["status"])
assert rec["final_scores"] == out["final_scores"], (rec["final_scores"], out["final_scores"])
assert any(c for m in rec["moves"] for c in m.get("choices", [])), "no choices recorded"
EOF3
printf 'help\nd 0\nactions\nj 1,1\njeep -2,0 to 1,-1\n\ntokens\nquit\n' >"$TMP/saf_human.in"
run saf_human "$BIN" play --game safari --seats human,greedy --seed 2 --autosave "$TMP/saf_human.json" <"$TMP/saf_human.in"
no_crash saf_human
[ "$RC" -eq 0 ] || fail "play --game safari with a human exited $RC: $(cat "$TMP/saf_human.err")"
grep -q "found SPECIES X,Y CORNER" "$TMP/saf_human.out" && grep -q "Face-down pile: " "$TMP/saf_human.out" &&
  grep -q "Or one action instead of a photographer" "$TMP/saf_human.out" ||
  fail "play --game safari with a human: no help, Safari panel or action list"
grep -q "two jeeps are on the board: say which" "$TMP/saf_human.out" ||
  fail "play --game safari with a human: an ambiguous jeep move was not explained"
grep -q "You placed CS24a at 0,1 r0, moved a jeep from -2,0 to 1,-1" "$TMP/saf_human.out" ||
  fail "play --game safari with a human: the typed jeep move was not played"
run saf_human_replay "$BIN" replay "$TMP/saf_human.json"
no_crash saf_human_replay
[ "$RC" -eq 0 ] && grep -q "^in progress" "$TMP/saf_human_replay.out" ||
  fail "replay of the saved Safari game with a human: exit $RC, $(cat "$TMP/saf_human_replay.err")"

# ---------------------------------------------------------------------------------------------
# the toy game (tests/games/toy, CARCASSONNE_TEST_GAMES=1) in the terminal: its beacon (an overlay
# on a cell) drawn from the view with its look's terminal mark, and its action typed at the piece
# prompt; the terminal names no game (tests/lint_front_ends.py)
if [ "${CARCASSONNE_TEST_GAMES:-}" = 1 ]; then
  printf 'a\nbeacon to 0,-2\nboard\nhelp\nquit\n' >"$TMP/toy_human.in"
  run toy_human "$BIN" play --game toy --seats human,greedy --seed 2 --autosave "$TMP/toy_human.json" <"$TMP/toy_human.in"
  no_crash toy_human
  [ "$RC" -eq 0 ] || fail "play --game toy with a human exited $RC: $(cat "$TMP/toy_human.err")"
  grep -q "c 1,0: r0 r180 beacon" "$TMP/toy_human.out" && grep -q "╰beac" "$TMP/toy_human.out" ||
    fail "play --game toy: the beacon is not drawn on its cell or named among the placements"
  grep -q "You placed D at 0,-1 r180, beacon to 0,-2" "$TMP/toy_human.out" ||
    fail "play --game toy: the typed beacon action was not played"
  python3 - "$TMP/toy_human.out" <<'EOF4' || fail "play --game toy: the beacon is not drawn at 0,-2 after the move"
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
# a board row -2 (its label "  -2 ") with the beacon's mark across an empty cell
assert any(l.startswith("  -2 ") and "beac" in l for l in lines), "no board row -2 with the beacon"
EOF4
  grep -q "beac: the beacon, on an empty cell" "$TMP/toy_human.out" || fail "play --game toy: no beacon in the board legend"
  run toy_bots "$BIN" play --game toy --seats greedy,random --seed 3 --autosave "$TMP/toy_bots.json" </dev/null
  no_crash toy_bots
  [ "$RC" -eq 0 ] && grep -q "^Final scores:" "$TMP/toy_bots.out" || fail "all-bot play --game toy: exit $RC, $(cat "$TMP/toy_bots.err")"
fi

# ---------------------------------------------------------------------------------------------
# levels and mcts options in bot lists: an all-bot game with the easy mcts bot and an mcts spec
# with options beside another bot; the level names the seat
run level_play "$BIN" play --seats easy,mcts:playouts=50,threads=1,random --seed 4 --autosave "$TMP/level.json" </dev/null
no_crash level_play
[ "$RC" -eq 0 ] || fail "play --seats easy,mcts:...,random exited $RC: $(cat "$TMP/level_play.err")"
grep -q "^Final scores:" "$TMP/level_play.out" || fail "play with the easy level printed no final scores"
grep -q "Bot (easy)" "$TMP/level_play.out" || fail "the easy seat is not named Bot (easy)"
run level_replay "$BIN" replay "$TMP/level.json"
[ "$RC" -eq 0 ] || fail "replay of the easy-level game: exit $RC, $(cat "$TMP/level_replay.err")"
run arena_opts "$BIN" arena --bots mcts:playouts=20,threads=1,random --games 2 --json --quiet
[ "$RC" -eq 0 ] || fail "arena with mcts options in --bots exited $RC: $(cat "$TMP/arena_opts.err")"
grep -q '"mcts:playouts=20,threads=1"' "$TMP/arena_opts.out" || fail "arena did not keep the mcts options together"
# each bot's decisions with a choice and their CPU time: the search costs more than a random move,
# and a 2-game base match has dozens of decisions a bot
python3 - "$TMP/arena_opts.out" <<'EOF' || fail "arena --json has no CPU per decision as documented"
import json, sys
j = json.load(open(sys.argv[1]))
mcts, rnd = j["bots"]
assert j["cpu_seconds"] > 0, j["cpu_seconds"]
for b in (mcts, rnd):
    assert b["decisions"] >= 20, b
    assert abs(b["cpu_ms_per_decision"] - 1000 * b["cpu_seconds"] / b["decisions"]) < 1e-9, b
assert mcts["cpu_seconds"] > rnd["cpu_seconds"], (mcts, rnd)
assert mcts["cpu_seconds"] + rnd["cpu_seconds"] <= j["cpu_seconds"] + 1e-6, j
EOF
# fit-value on games of two bots, seats rotating, half blended with the game's weights, saved; an
# arena bot searches with the saved weights (mcts:weights=FILE) and names them
run fit_mix "$BIN" fit-value --games 20 --test-games 4 --bots mcts:playouts=1,threads=1,value=2,greedy --blend 0.5 --save "$TMP/w.txt"
[ "$RC" -eq 0 ] || fail "fit-value with two bots exited $RC: $(cat "$TMP/fit_mix.err")"
grep -q "value=2, greedy (seats rotating)" "$TMP/fit_mix.out" || fail "fit-value did not name both bots: $(head -2 "$TMP/fit_mix.out")"
[ "$(grep -c '# ' "$TMP/w.txt")" -eq 45 ] || fail "the saved weights are not 44 named numbers and a heading"
run arena_w "$BIN" arena --bots "mcts:playouts=5,threads=1,weights=$TMP/w.txt,greedy" --games 2 --quiet
[ "$RC" -eq 0 ] || fail "arena with weights=FILE exited $RC: $(cat "$TMP/arena_w.err")"
grep -q "weights=$TMP/w.txt" "$TMP/arena_w.out" || fail "arena did not name the bot's weights file"

# fit-value --dump: every training row, 44 features and the target, as float32
run fit_dump "$BIN" fit-value --games 5 --test-games 1 --dump "$TMP/rows.f32"
[ "$RC" -eq 0 ] || fail "fit-value --dump exited $RC: $(cat "$TMP/fit_dump.err")"
rows=$(sed -n 's/.*fitted on \([0-9]*\) positions.*/\1/p' "$TMP/fit_dump.out")
[ -n "$rows" ] && [ "$rows" -gt 0 ] && [ "$(stat -c %s "$TMP/rows.f32")" -eq $((rows * 45 * 4)) ] ||
  fail "fit-value --dump wrote $(stat -c %s "$TMP/rows.f32") bytes for '$rows' rows of 45 float32"
# tools/value_mlp.py reads those rows: the linear fit's and the network's errors; a file that is not
# rows of 45 numbers is refused by name
/usr/bin/python3 "$(dirname "$0")/../tools/value_mlp.py" "$TMP/rows.f32" --epochs 1 --hidden 8 >"$TMP/mlp.out" 2>"$TMP/mlp.err" &&
  grep -q "^epoch 1: linear + network test RMS" "$TMP/mlp.out" || fail "value_mlp: $(cat "$TMP/mlp.out" "$TMP/mlp.err")"
head -c 7 "$TMP/rows.f32" >"$TMP/rows_cut.f32"
/usr/bin/python3 "$(dirname "$0")/../tools/value_mlp.py" "$TMP/rows_cut.f32" >/dev/null 2>"$TMP/mlp_bad.err" &&
  fail "value_mlp accepted 7 bytes"
grep -q "rows_cut.f32" "$TMP/mlp_bad.err" || fail "value_mlp's refusal does not name the file: $(cat "$TMP/mlp_bad.err")"

# ---------------------------------------------------------------------------------------------
# bad arguments: non-zero exit, a clear message, no crash
bad_args() {  # bad_args NAME EXPECTED-TEXT ARGS...
  local name=$1 text=$2
  shift 2
  run "$name" "$BIN" "$@"
  no_crash "$name"
  [ "$RC" -ne 0 ] || fail "$name: '$*' exited 0"
  grep -qi -- "$text" "$TMP/$name.err" "$TMP/$name.out" || fail "$name: message lacks '$text': $(cat "$TMP/$name.err")"
}
bad_args players9 "players" selfplay --players 9 --games 1
bad_args players1 "players" selfplay --players 1 --games 1
bad_args farmers_maybe "maybe" selfplay --option farmers=maybe --games 1
bad_args unknown_option "cows" selfplay --option cows=on --games 1
bad_args unknown_bot "wizard" selfplay --bots wizard --games 1
bad_args bots_count "bots" selfplay --players 3 --bots random,greedy --games 1
bad_args games0 "games" selfplay --games 0
bad_args unknown_game "chess" selfplay --game chess --games 1
bad_args bench_players "players" bench --no-gbench --players 6 --games 1
bad_args bench_option "maybe" bench --no-gbench --games 1 --option farmers=maybe
bad_args bad_level "level" play --level medium </dev/null
bad_args bad_mcts_option "horizon" arena --bots mcts:horizon=x,greedy --games 1
bad_args bad_weights_file "no_such_weights" arena --bots mcts:weights=/nonexistent/no_such_weights,greedy --games 1
bad_args bad_blend "blend" fit-value --games 2 --test-games 1 --blend 2
bad_args bad_dump "cannot write /nonexistent/rows.f32" fit-value --games 2 --test-games 1 --dump /nonexistent/rows.f32
bad_args no_command "" 
bad_args unknown_command "subcommand" frobnicate

# ---------------------------------------------------------------------------------------------
# Issue 12. Helpers: an unfinished save cut from a finished record (the first 30 moves), and a check
# that output holds no raw control character (only newlines; no escape reaches the terminal).
cut_record() {  # cut_record SRC DEST [PYTHON-EXPRESSION-ON-j]
  python3 - "$1" "$2" "${3:-}" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
j["moves"] = j["moves"][:30]
for k in ("final_scores", "events"):
    j.pop(k, None)
j["status"] = "in_progress"
exec(sys.argv[3])
json.dump(j, open(sys.argv[2], "w"), indent=1)
EOF
}
no_control_chars() {  # no_control_chars FILE...: true if no byte other than \n and \t is a control character
  python3 - "$@" <<'EOF'
import sys
bad = [(p, b) for p in sys.argv[1:] for b in open(p, "rb").read() if (b < 32 and b not in (9, 10)) or b == 127]
sys.exit(1 if bad else 0)
EOF
}
# limited NAME KBYTES CMD...: CMD under a file-size limit (ulimit -f, 1 KB blocks) standing in for a
# full disk; its output goes through a pipe (not limited) to $TMP/NAME.out; sets RC
limited() {
  local name=$1 kb=$2
  shift 2
  (
    ulimit -f "$kb"
    "$@" </dev/null 2>&1
    echo "exit=$?"
  ) | cat >"$TMP/$name.out"
  RC=$(sed -n 's/^exit=//p' "$TMP/$name.out" | tail -1)
}
tmp_files() { find "$1" -name '*.tmp*' | wc -l; }

# 4. A full disk never empties the autosave. Mid-game: the first save fits, later ones do not: the
# game goes on and says so, the file keeps the last good save (which replays), no temporary file
# is left, and nothing claims the game was saved.
mkdir -p "$TMP/disk"
limited full_mid 2 "$BIN" play --seats random,random --seed 3 --autosave "$TMP/disk/mid.json"
[ "$RC" = 0 ] || fail "play on a full disk exited $RC: $(tail -3 "$TMP/full_mid.out")"
# (messages wrap at the terminal's width: read them as one line)
tr '\n' ' ' <"$TMP/full_mid.out" | tr -s ' ' >"$TMP/full_mid.joined"
grep -q "WARNING: the game could NOT be saved: .*mid.json: .*File too large" "$TMP/full_mid.joined" &&
  grep -q "still holds the last good save ([0-9]* turns played)" "$TMP/full_mid.joined" &&
  grep -q "The final record could NOT be saved" "$TMP/full_mid.out" ||
  fail "play on a full disk: no clear message that saving failed: $(grep -i save "$TMP/full_mid.out" | head -5)"
grep -q "Game saved\|The game record is in" "$TMP/full_mid.out" && fail "play on a full disk claims the game was saved"
[ "$(grep -c 'could NOT be saved' "$TMP/full_mid.out")" -eq 2 ] || fail "play on a full disk: the warning is repeated every turn"
[ "$(tmp_files "$TMP/disk")" -eq 0 ] || fail "play on a full disk left a temporary file: $(ls "$TMP/disk")"
run full_mid_replay "$BIN" replay "$TMP/disk/mid.json"
[ "$RC" -eq 0 ] && grep -q "^in progress" "$TMP/full_mid_replay.out" ||
  fail "the last good save on a full disk does not replay: exit $RC, $(cat "$TMP/full_mid_replay.err")"
# Resuming a larger save: the first save fails, so the game does not start; the save is intact.
cut_record "$first" "$TMP/disk/big.json"
cp "$TMP/disk/big.json" "$TMP/disk/big.orig"
limited full_resume 2 "$BIN" play --resume "$TMP/disk/big.json"
[ "$RC" = 2 ] || fail "play --resume on a full disk exited $RC (expected 2)"
grep -q "cannot be saved: .*big.json: .*previous file is kept" "$TMP/full_resume.out" ||
  fail "play --resume on a full disk: $(cat "$TMP/full_resume.out")"
cmp -s "$TMP/disk/big.json" "$TMP/disk/big.orig" || fail "play --resume on a full disk changed the save"
[ "$(tmp_files "$TMP/disk")" -eq 0 ] || fail "play --resume on a full disk left a temporary file: $(ls "$TMP/disk")"

# 5. Each game its own save file; unfinished ones are offered; nothing is overwritten unasked.
mkdir -p "$TMP/home"
(cd "$TMP/home" && "$BIN" play --seats random,random --seed 12345 </dev/null >"$TMP/own1.out" 2>&1) ||
  fail "play without --autosave: $(tail -3 "$TMP/own1.out")"
(cd "$TMP/home" && printf 'quit\n' | "$BIN" play --seats human,random --seed 12345 >"$TMP/own2.out" 2>&1) ||
  fail "play without --autosave (human quits): $(tail -3 "$TMP/own2.out")"
nsaves=$(ls "$TMP"/home/carcassonne-saves/base-*-s12345*.json 2>/dev/null | wc -l)
[ "$nsaves" -eq 2 ] || fail "two games with the same seed did not get two save files: $(ls "$TMP/home" "$TMP/home/carcassonne-saves")"
grep -q "Unfinished game" "$TMP/own2.out" && fail "a finished game is offered as unfinished"
unfinished=$(grep -l '"in_progress"' "$TMP"/home/carcassonne-saves/*.json | head -1)
[ -n "$unfinished" ] || fail "no unfinished save after quitting"
rel=carcassonne-saves/$(basename "$unfinished")
cp "$unfinished" "$TMP/unfinished.orig"
(cd "$TMP/home" && printf 'quit\n' | "$BIN" play --seats human,random --seed 777 >"$TMP/own3.out" 2>&1)
grep -q "Unfinished game (continue one with: carcassonne play --resume FILE)" "$TMP/own3.out" &&
  grep -qF "$rel" "$TMP/own3.out" && grep -q "You vs random, 0 turns played" "$TMP/own3.out" ||
  fail "a new game does not list the unfinished one: $(head -5 "$TMP/own3.out")"
# --autosave naming an unfinished game, stdin not a terminal: refused, the game kept
(cd "$TMP/home" && "$BIN" play --seats random,random --autosave "$rel" </dev/null >"$TMP/own4.out" 2>"$TMP/own4.err")
RC=$?
[ "$RC" -eq 2 ] && grep -q "holds an unfinished game .* it is not overwritten" "$TMP/own4.err" &&
  grep -q -- "--resume $rel" "$TMP/own4.err" && grep -q -- "--overwrite" "$TMP/own4.err" ||
  fail "--autosave over an unfinished game: exit $RC, $(cat "$TMP/own4.err")"
cmp -s "$unfinished" "$TMP/unfinished.orig" || fail "--autosave overwrote an unfinished game"
[ ! -s "$TMP/own4.out" ] || ! grep -q "New game" "$TMP/own4.out" || fail "--autosave refused only after announcing a new game"
(cd "$TMP/home" && "$BIN" play --seats random,random --autosave "$rel" --overwrite </dev/null >"$TMP/own5.out" 2>&1)
RC=$?
[ "$RC" -eq 0 ] && grep -q '"finished"' "$unfinished" || fail "--autosave --overwrite: exit $RC, $(tail -3 "$TMP/own5.out")"
echo '{"not": "a record"}' >"$TMP/home/notes.json"
(cd "$TMP/home" && "$BIN" play --seats random,random --autosave notes.json </dev/null >/dev/null 2>"$TMP/own6.err")
[ $? -eq 2 ] && grep -q "not a game record" "$TMP/own6.err" && grep -q '"not"' "$TMP/home/notes.json" ||
  fail "--autosave over a file that is not a record: $(cat "$TMP/own6.err")"
# the shared autosave of earlier versions is offered too; at a terminal a number resumes that game
cp "$TMP/unfinished.orig" "$TMP/home/carcassonne-autosave.json"
python3 - "$BIN" "$TMP/home" >"$TMP/own7.out" 2>&1 <<'EOF' || fail "the resume offer at a terminal: $(cat "$TMP/own7.out")"
import os, pty, select, sys, time
binary, home = sys.argv[1], sys.argv[2]
os.chdir(home)
pid, fd = pty.fork()
if pid == 0:
    os.execv(binary, [binary, "play", "--no-color", "--seats", "human,random", "--seed", "5"])
out = b""
def until(text, secs=20):
    global out
    end = time.time() + secs
    while text.encode() not in out:
        if time.time() > end:
            raise SystemExit(f"timed out waiting for {text!r}:\n{out.decode(errors='replace')}")
        if select.select([fd], [], [], 0.2)[0]:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
until("or press Enter for a new game> ")
text = out.decode(errors="replace")
assert "carcassonne-autosave.json" in text, text
n = next(l.split(".")[0].strip() for l in text.splitlines()
         if "You vs random" in l and l.strip()[:1].isdigit()
         and "carcassonne-autosave.json" in text.splitlines()[text.splitlines().index(l) + 1])
os.write(fd, (n + "\n").encode())
until("place tile")
assert "Resumed Carcassonne from carcassonne-autosave.json" in out.decode(errors="replace"), out
os.write(fd, b"quit\n")
until("Game saved to")
os.waitpid(pid, 0)
EOF

# 8. Numbers are range-checked as what they are: seeds are 0..2^64-1 in every command, every other
# numeric flag in its range, and a number typed in play before it is narrowed
bad_args seed_neg_play "--seed" play --seed -1 </dev/null
bad_args seed_big_self "--seed" selfplay --seed 18446744073709551616 --games 1
bad_args seed_neg_arena "--seed" arena --bots random,greedy --seed -1 --games 1
bad_args seed_big_bench "--seed" bench --no-gbench --seed 18446744073709551616 --games 1
bad_args seed_hex "--seed" selfplay --seed 0x10 --games 1
bad_args seed_wraps "--seed" selfplay --seed 18446744073709551615 --games 3
bad_args width_small "--width" play --width 5 </dev/null
bad_args players_huge "--players" play --players 99999999999 </dev/null
bad_args min_time_nan "--min-time" bench --no-gbench --min-time nan
bad_args turn_neg "--turn" render "$first" --turn -1 -o "$TMP/t.svg"
bad_args tile_size "--tile-size" render "$first" --tile-size 100000 -o "$TMP/t.svg"
for name in seed_neg_play seed_big_self seed_neg_arena seed_big_bench width_small players_huge min_time_nan; do
  grep -q "Could not convert" "$TMP/$name.err" && fail "$name: CLI11's message instead of ours"
done
printf 'view -2147483648 0\nview 99999999999 1\nview 3,-1\nquit\n' >"$TMP/view.in"
run view_overflow "$BIN" play --seats human,random --seed 4 --autosave "$TMP/view.json" <"$TMP/view.in"
no_crash view_overflow
[ "$RC" -eq 0 ] || fail "play with huge view numbers exited $RC"
[ "$(grep -c "usage: view X Y (centre the board on column X, row Y, each from -128 to 127)" "$TMP/view_overflow.out")" -eq 2 ] ||
  fail "play: view with numbers out of range is not refused: $(grep -i view "$TMP/view_overflow.out" | head -5)"

# 11. Strings from files reach the terminal neutralised: a player name that would retitle the
# terminal and clear the screen, in a resumed game (refused by the record parser, or shown as escapes)
cut_record "$first" "$TMP/evil.json" 'j["players"][0]["name"] = "Eve\x1b]0;pwned\x07\x1b[2J\r\nforged line"'
run evil_resume "$BIN" play --resume "$TMP/evil.json" --autosave "$TMP/evil-save.json"
no_crash evil_resume
no_control_chars "$TMP/evil_resume.out" "$TMP/evil_resume.err" ||
  fail "play --resume sends a record's control characters to the terminal"
if [ "$RC" -eq 0 ]; then
  grep -qF 'Eve\x1b]0;pwned\x07\x1b[2J\x0d\x0aforged line' "$TMP/evil_resume.out" || fail "the escaped name is not shown"
else
  [ "$RC" -eq 2 ] || fail "play --resume of a record with control characters exited $RC"
fi
# a tile id from a tile file (--tiles): refused by the loader, or shown as escapes
tiles_src="$(cd "$(dirname "$0")/.." && pwd)/data/tiles/base.tiles.json"
if [ -f "$tiles_src" ]; then
  python3 - "$tiles_src" "$TMP/evil.tiles.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
for t in j["tiles"]:
    t["id"] = t["id"] + "\x1b[2J"
json.dump(j, open(sys.argv[2], "w"))
EOF
  run evil_tiles "$BIN" play --tiles "$TMP/evil.tiles.json" --seats human,random --seed 4 --autosave "$TMP/evil-tiles.json" <"$TMP/view.in"
  no_crash evil_tiles
  no_control_chars "$TMP/evil_tiles.out" "$TMP/evil_tiles.err" || fail "play sends a tile id's control characters to the terminal"
else
  fail "no tile file at $tiles_src"
fi

# 14. Clear messages: --games 0 (no 309-digit range), a folder where a file is wanted, bad output
# names, a bad bot option before anything is announced, an unwritable --records folder
for cmd in "selfplay --games 0" "arena --bots random,greedy --games 0" "bench --no-gbench --games 0"; do
  run games0 "$BIN" $cmd
  [ "$RC" -eq 1 ] && grep -q -- "--games: \"0\" is not a whole number from 1 to" "$TMP/games0.err" &&
    ! grep -q '[0-9]\{20\}' "$TMP/games0.err" || fail "$cmd: exit $RC, $(cat "$TMP/games0.err")"
done
(cd "$TMP" && "$BIN" render "$first" -o board.png >/dev/null 2>"$TMP/png.err")
[ $? -eq 1 ] && grep -q "SVG only.*\.svg" "$TMP/png.err" && [ ! -e "$TMP/board.png" ] ||
  fail "render -o board.png: $(cat "$TMP/png.err")"
(cd "$TMP" && "$BIN" render "$first" -o - >"$TMP/stdout.svg" 2>"$TMP/stdout.err")
[ $? -eq 0 ] && [ ! -e "$TMP/-" ] && python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$TMP/stdout.svg" ||
  fail "render -o - does not write SVG to standard output: $(cat "$TMP/stdout.err")"
# a finished game's record drawn at a turn before its end (its stated end is not the cut's)
"$BIN" render "$first" --turn 10 -o "$TMP/turn10.svg" 2>"$TMP/turn10.err" && grep -q "turn 10 of" "$TMP/turn10.svg" ||
  fail "render --turn 10 of a finished record: $(cat "$TMP/turn10.err")"
mkdir -p "$TMP/dir.svg"
bad_args render_dir "is a folder" render "$first" -o "$TMP/dir.svg"
bad_args autosave_dir "is a folder" play --seats random,random --autosave "$TMP/dir.svg"
for a in "replay $TMP" "render $TMP -o $TMP/x.svg" "play --resume $TMP" "selfplay --games 1 --tiles $TMP"; do
  run dir_arg "$BIN" $a </dev/null
  [ "$RC" -eq 2 ] && grep -q "is a folder" "$TMP/dir_arg.err" || fail "$a: exit $RC, $(cat "$TMP/dir_arg.err")"
done
run bad_bot_play "$BIN" play --seats human,mcts:foo=1 --autosave "$TMP/badbot.json" </dev/null
[ "$RC" -eq 2 ] && grep -q '"foo"' "$TMP/bad_bot_play.err" && [ ! -s "$TMP/bad_bot_play.out" ] && [ ! -e "$TMP/badbot.json" ] ||
  fail "play with a bad bot option: exit $RC, printed: $(head -3 "$TMP/bad_bot_play.out")"
touch "$TMP/plain"
for cmd in selfplay arena; do
  for dir in "$TMP/plain/sub" "$TMP/plain"; do
    run records_bad "$BIN" $cmd --bots random,greedy --games 2 --records "$dir"
    [ "$RC" -eq 2 ] && grep -qF -- "--records $dir" "$TMP/records_bad.err" && [ ! -s "$TMP/records_bad.out" ] ||
      fail "$cmd --records $dir: exit $RC, $(cat "$TMP/records_bad.err"; head -2 "$TMP/records_bad.out")"
  done
done


# ---------------------------------------------------------------------------------------------
# tiles: every tile's picture and an index a browser can draw boards from; pictures are XML
for g in $GAMES; do
  run "tiles_$g" "$BIN" tiles --game "$g" -o "$TMP/tiles-$g" --px 64
  no_crash "tiles_$g"
  [ "$RC" -eq 0 ] || fail "tiles --game $g exited $RC: $(cat "$TMP/tiles_$g.err")"
done
python3 - "$TMP" $GAMES <<'EOF2' || fail "tiles: the index or the pictures are not as documented"
import json, os, sys, xml.dom.minidom
tmp = sys.argv[1]
for g in sys.argv[2:]:
    d = os.path.join(tmp, "tiles-" + g)
    idx = json.load(open(os.path.join(d, "index.json")))
    assert idx["format"] == "carcassonne-tiles/1" and idx["game"] == g and idx["px"] == 64, g
    files = [t["file"] for t in idx["tiles"]]
    assert len(set(files)) == len(files), g + ": file names collide"
    for t in idx["tiles"]:
        doc = xml.dom.minidom.parse(os.path.join(d, t["file"]))
        assert doc.documentElement.getAttribute("width") == "64", t["file"]
        for f in t["features"]:
            assert len(f["anchors"]) == 4 and all(0 < a < 1 for xy in f["anchors"] for a in xy), (g, t["id"], f)
EOF2
run tiles_bad_game "$BIN" tiles --game chess -o "$TMP/tiles-x"
[ "$RC" -eq 2 ] || fail "tiles --game chess: exit $RC (2 expected)"


# ---------------------------------------------------------------------------------------------
# play on a short terminal (--rows 24 --width 80) and a big one (60 x 200): every turn's screen,
# from its header to the prompt, fits, and shows places for the tile by their letters
mkdir -p "$TMP/fit"
for g in $GAMES; do
  for size in "24 80" "60 200"; do
    set -- $size
    (for i in $(seq 1 12); do printf 'a 0\na 90\na 180\na 270\nnone\n\n'; done; echo quit) |
      (cd "$TMP/fit" && "$BIN" play --game "$g" --seats human,greedy --seed 3 --rows "$1" --width "$2" --autosave "fit-$g.json" --overwrite) \
        >"$TMP/fit/$g-$1.out" 2>&1
    python3 - "$TMP/fit/$g-$1.out" "$1" "$2" <<'EOF2' || fail "play --rows $1 --width $2 ($g): a screen does not fit"
import re, sys
rows, cols = int(sys.argv[2]), int(sys.argv[3])
screens, cur = [], None
for line in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    if line.startswith("── Turn"):
        cur = [line]
    elif cur is not None:
        cur.append(line)
        if "place tile" in line and ">" in line:
            screens.append(cur)
            cur = None
assert len(screens) >= 3, f"only {len(screens)} screens"
for s in screens:
    assert len(s) <= rows, f"{len(s)} lines:\n" + "\n".join(s)
    assert max(len(l) for l in s[:-1]) <= cols, "too wide:\n" + "\n".join(s)
    assert re.search(r"│ [a-zA-Z] │", "\n".join(s)), "no place letter on the board:\n" + "\n".join(s)
EOF2
  done
done


# play takes the engine's notation at its prompts too (as the view and the protocol write moves)
mkdir -p "$TMP/notation"
printf 'U -1,0 r90\nfollower E\n\nquit\n' | (cd "$TMP/notation" && "$BIN" play --game base --seats human,greedy --seed 3 --autosave n.json) \
  >"$TMP/notation.out" 2>&1
grep -q "You placed U at -1,0 r90, follower on road (E)" "$TMP/notation.out" || fail "play: the engine's notation at the prompts: $(tail -5 "$TMP/notation.out")"

# hints (issue 27): on against bots, noted in the record; off between people unless --hints
mkdir -p "$TMP/hints"
printf 'hint\nquit\n' | (cd "$TMP/hints" && "$BIN" play --seats human,greedy --seed 5 --autosave h.json) >"$TMP/hint.out" 2>&1
grep -q "^Hint for you (100 playouts" "$TMP/hint.out" && fail "play: a hint searched the wrong budget"
grep -q "^Hint for you (1000 playouts" "$TMP/hint.out" || fail "play: hint against a bot: $(tail -5 "$TMP/hint.out")"
grep -Eq "^  1\. H 0,(-1 r0|1 r90): margin [+-][0-9]+\.[0-9], wins [0-9]+%$" "$TMP/hint.out" || fail "play: hint's first option: $(grep -A2 '^Hint for' "$TMP/hint.out")"
python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["hints"]; assert h=={"allowed": True, "used": [{"player": 0, "move": 1}]}, h' "$TMP/hints/h.json" \
  || fail "play: the record does not say the hint was used"
printf 'hint\nquit\n' | (cd "$TMP/hints" && "$BIN" play --seats human,human --seed 5 --autosave p.json) >"$TMP/hint_people.out" 2>&1
grep -q "^Hints are off in this game" "$TMP/hint_people.out" || fail "play: hint between people without --hints: $(tail -3 "$TMP/hint_people.out")"
python3 -c 'import json,sys; assert "hints" not in json.load(open(sys.argv[1]))' "$TMP/hints/p.json" || fail "play: a record without hints names them"
printf 'hint\nquit\n' | (cd "$TMP/hints" && "$BIN" play --seats human,human --hints --seed 5 --autosave q.json) >"$TMP/hint_agreed.out" 2>&1
grep -q "^Hint for Player 1" "$TMP/hint_agreed.out" || fail "play: hint between people who agreed: $(tail -3 "$TMP/hint_agreed.out")"
printf 'hint\nquit\n' | (cd "$TMP/hints" && "$BIN" play --resume q.json --no-hints) >"$TMP/hint_resumed.out" 2>&1
grep -q "^Hint for Player 1" "$TMP/hint_resumed.out" || fail "play: --no-hints on resume changed the game's setting"
tr '\n' ' ' <"$TMP/hint_resumed.out" | tr -s ' ' | grep -q "and --hints are taken from the saved game" || fail "play: resume did not say --hints is the game's"
# the review offered at the end of a game (resuming a finished record shows its end)
"$BIN" selfplay --games 1 --seed 4 --bots greedy,random --records "$TMP/hints/rec" >/dev/null 2>&1
fin=$(ls "$TMP/hints/rec"/*.json | head -1)
python3 - "$fin" "$TMP/hints/fin.json" <<'EOF2'
import json, sys
r = json.load(open(sys.argv[1]))
for p in r["players"]:
    if isinstance(p, dict):
        p.pop("bot", None)
json.dump(r, open(sys.argv[2], "w"))
EOF2
printf 'review\n' | (cd "$TMP/hints" && "$BIN" play --resume fin.json --hint-playouts 200) >"$TMP/review_end.out" 2>&1
grep -q "decisions with a choice, 200 playouts each" "$TMP/review_end.out" || fail "play: review at the end: $(tail -5 "$TMP/review_end.out")"
[ "$(grep -Ec ' (\?!|\?|\?\?)$' "$TMP/review_end.out")" -ge 1 ] || fail "play: the end's review marks no move"
grep -Eq "mean loss [0-9.]+; [0-9]+ inaccuracies" "$TMP/review_end.out" || fail "play: the end's review has no summary"
printf '\n' | (cd "$TMP/hints" && "$BIN" play --resume fin.json) >"$TMP/review_no.out" 2>&1
grep -q "decisions with a choice" "$TMP/review_no.out" && fail "play: the end reviewed a game nobody asked to review"

# tools/points_by_kind.py over an arena's records: every point of the final scores is in a kind
"$BIN" arena --game base --bots greedy,random --games 4 --seed 3 --quiet --records "$TMP/kinds" >/dev/null 2>&1
/usr/bin/python3 "$(dirname "$0")/../tools/points_by_kind.py" "$TMP/kinds" --bot greedy --json >"$TMP/kinds.json" 2>"$TMP/kinds.err" ||
  fail "points_by_kind: exit $?: $(cat "$TMP/kinds.err")"
/usr/bin/python3 - "$TMP/kinds.json" <<'EOF2' || fail "points_by_kind: $(cat "$TMP/kinds.json" | head -5)"
import json, sys
t = json.load(open(sys.argv[1]))
assert t["games"] == 4, t["games"]
assert abs(sum(k["bot"] for k in t["kinds"]) - t["score"]) < 1e-6, "the bot's kinds do not add up to its score"
assert abs(sum(k["others"] for k in t["kinds"]) - t["others_score"]) < 1e-6, "the others' kinds do not add up"
assert t["wins"] >= 3 and t["score"] > t["others_score"], "greedy did not beat random"
EOF2
/usr/bin/python3 "$(dirname "$0")/../tools/points_by_kind.py" "$TMP/kinds" --bot nobody >/dev/null 2>"$TMP/kinds_none.err" &&
  fail "points_by_kind: no matching seat exited 0"
grep -q "no seat's bot starts with 'nobody'" "$TMP/kinds_none.err" || fail "points_by_kind: $(cat "$TMP/kinds_none.err")"

# tools/race_steps.py over Amazonas records: a step before each turn with an Amazon scoring (15 a
# game: a "!" tile and its double tile score in one turn), 14 of them between two such turns
"$BIN" selfplay --game amazonas --players 2 --bots greedy,greedy --games 3 --seed 77 --records "$TMP/race" >/dev/null 2>&1
/usr/bin/python3 "$(dirname "$0")/../tools/race_steps.py" "$TMP/race" >"$TMP/race.out" 2>"$TMP/race.err" ||
  fail "race_steps: exit $?: $(cat "$TMP/race.err")"
grep -q "^3 games$" "$TMP/race.out" || fail "race_steps: $(head -3 "$TMP/race.out")"
grep -q "^start to the first scoring: 3 steps" "$TMP/race.out" || fail "race_steps: no first steps: $(cat "$TMP/race.out")"
grep -Eq "^between scorings: 42 steps, mean [-+][0-9.]+, variance [0-9.]+" "$TMP/race.out" ||
  fail "race_steps: between scorings: $(cat "$TMP/race.out")"
# three players: each boat's own steps and two boats' difference (every pair of seats once)
"$BIN" selfplay --game amazonas --players 3 --bots greedy,greedy,greedy --games 2 --seed 77 --records "$TMP/race3" >/dev/null 2>&1
/usr/bin/python3 "$(dirname "$0")/../tools/race_steps.py" "$TMP/race3" >"$TMP/race3.out" 2>"$TMP/race3.err" ||
  fail "race_steps, 3 players: exit $?: $(cat "$TMP/race3.err")"
grep -q "^3 players, 2 games$" "$TMP/race3.out" &&
  grep -Eq "^  each boat, between scorings: 84 steps, mean [-+][0-9.]+, variance [0-9.]+" "$TMP/race3.out" &&
  grep -Eq "^  two boats, between scorings: 84 steps" "$TMP/race3.out" || fail "race_steps, 3 players: $(cat "$TMP/race3.out")"
/usr/bin/python3 "$(dirname "$0")/../tools/race_steps.py" "$TMP/kinds" >/dev/null 2>"$TMP/race_none.err" &&
  fail "race_steps: base records exited 0"
grep -q "no Amazonas records" "$TMP/race_none.err" || fail "race_steps: $(cat "$TMP/race_none.err")"

if [ "$FAILS" -ne 0 ]; then
  echo "cli_smoke: $FAILS failure(s)" >&2
  exit 1
fi
echo "cli_smoke: all checks passed"
