#!/usr/bin/env python3
"""Writes docs/view.schema.json and docs/engine-protocol.schema.json (run from the repository root).
The schemas are checked against every reply of a real engine by tests/engine_protocol.py."""
import json
S = lambda **k: k
INT = {"type": "integer"}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
NULLABLE = lambda t: {"oneOf": [t, {"type": "null"}]}
def obj(props, required=None, extra=False, desc=None):
    o = {"type": "object", "properties": props, "required": required if required is not None else list(props.keys())}
    if not extra: o["additionalProperties"] = False
    if desc: o["description"] = desc
    return o
named_count = obj({"name": STR, "count": INT, "word": {"type": "string", "description": "the name in the view's language"}}, required=["name", "count"])
worth = obj({"completed": BOOL, "tiles": INT, "points": INT, "pieces": {"type": "array", "items": INT, "description": "pieces on the feature by seat"},
             "owners": {"type": "array", "items": INT, "description": "seats holding the majority (empty: no piece)"}},
            desc="what a feature is worth now: completed features what they score (or scored), open ones their value at the end as they stand")
option = {"type": "object", "required": ["kind", "text"], "additionalProperties": False, "properties": {
    "kind": {"enum": ["place", "piece", "pass", "action", "choice"]},
    "notation": {"type": "string", "description": "the move to send (all kinds but place)"},
    "notations": {"type": "array", "items": STR, "description": "place: one move per rotation in rots"},
    "rots": {"type": "array", "items": {"enum": [0, 90, 180, 270]}},
    "text": {"type": "string", "description": "a sentence for a person"},
    "x": {"type": "integer", "description": "the option's cell (place, piece, cell, piece target; tile, token or no target: the cell where it acts, when the game gives one) or grid point (point)"}, "y": INT, "port": STR, "piece": STR, "feature": STR, "worth": worth,
    "anchor": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2, "description": "piece: where the piece would stand in its tile, (0,0) north-west, (1,1) south-east"},
    "target": {"enum": ["cell", "piece", "tile", "token", "point"], "description": "action, choice: what the option names (cell: x, y; piece: x, y, port, piece, feature; tile: tile, rot; token: token; point: x, y a grid point, the north-west corner of cell x, y, and cell)"},
    "cell": {"type": "array", "items": INT, "minItems": 2, "maxItems": 2, "description": "target point: the cell whose quarter of the grid point the option fills"},
    "tile": {"type": "string", "description": "target tile: the tile id"}, "rot": {"enum": [0, 90, 180, 270], "description": "target tile: its rotation"},
    "token": {"type": "string", "description": "target token: the kind of token"},
    "overlay": {"type": "string", "description": "action, choice: the id of the overlay (board.overlays) the option acts on"}}}
event = obj({"turn": INT, "player": INT, "points": INT, "reason": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$", "description": "completed, final, farm, special, or one of the game's own events' reasons (its definition's own_events: Amazonas track, amazon, mouth; Hunters network)"}, "text": STR,
             "feature": {"type": "string", "description": "the feature type scored (completed, final, farm, network); absent for a game's own event"}},
            required=["turn", "player", "points", "reason", "text"])
panel = obj({"id": STR, "title": STR, "counters": {"type": "array", "items": obj({"name": STR, "value": STR})},
             "columns": {"type": "array", "items": STR}, "rows": {"type": "array", "items": {"type": "array", "items": STR}},
             "lines": {"type": "array", "items": STR}, "track": INT},
            desc="a game's own panel, as data: counters, a table (a first column 'seat' holds the seat of each row's player), lines; {p0}..{p4} in any text stand for the players' names; track > 0: each seat row stands on a track of that many spaces at its 'space' column")
view = obj({
    "game": STR, "title": STR, "lang": {"enum": ["en", "ru", "ro"], "description": "the language of the view's words (docs/i18n.md)"}, "turn": INT,
    "board": obj({
        "tiles": {"type": "array", "items": obj({"id": STR, "x": INT, "y": INT, "rot": {"enum": [0, 90, 180, 270]}, "player": {"type": "integer", "description": "who placed it; -1 the start board or a prepared position"},
                                                  "last": {"const": True, "description": "placed in the last turn that placed tiles"},
                                                  "covered": {"type": "array", "items": INT, "description": "local features whose symbols no longer count"}},
                                                 required=["id", "x", "y", "rot", "player"])},
        "pieces": {"type": "array", "items": obj({"player": INT, "piece": STR, "x": INT, "y": INT, "port": STR, "feature": STR, "feature_id": INT,
                                                    "anchor": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2, "description": "where to draw it in the tile: (0,0) north-west corner, (1,1) south-east"}})},
        "features": {"type": "array", "description": "every feature on the board: its id, type, the cells it spans, and what it is worth now",
                     "items": obj({"id": INT, "type": STR, "cells": {"type": "array", "items": {"type": "array", "items": INT}}, **worth["properties"]})},
        "overlays": {"type": "array", "description": "what stands on the board besides tiles and pieces (a game's jeeps, watering holes, boats on its track), drawn with the glyphs of the game's look (docs/look.md)",
                     "items": obj({"id": {"type": "string", "description": "stable while it stays"},
                                   "at": {"enum": ["cell", "point", "track"], "description": "cell: x, y a cell (drawn round its centre); point: x, y a grid point (the north-west corner of cell x, y); track: x a space of board.track"},
                                   "x": INT, "y": INT, "label": {"type": "string", "description": "what it is, in words; {p0}..{p4} stand for the players' names"},
                                   "glyph": {"type": "string", "description": "the look's glyph drawn at the anchor; absent: only the parts"},
                                   "seat": {"type": "integer", "description": "drawn in this seat's colour"},
                                   "done": {"const": True, "description": "finished (drawn as its parts say)"},
                                   "parts": {"type": "array", "items": obj({"glyph": STR, "dx": {"type": "number"}, "dy": {"type": "number"},
                                                                           "rot": {"enum": [90, 180, 270]}, "seat": INT, "label": STR}, required=["glyph", "dx", "dy"]),
                                             "description": "glyphs round the anchor: dx, dy in tiles, rot degrees clockwise, seat: in that seat's colour"},
                                   "targets": {"type": "array", "items": STR, "description": "the notations of the decision's options acting on it"}},
                                  required=["id", "at", "x", "y", "label", "parts", "targets"])},
        "track": obj({"length": INT, "title": STR, "name": {"type": "string", "description": "what stands on it, one word (a boat)"}, "word": {"type": "string", "description": "name in the view's language"}}, desc="the game's track: spaces 1..length (overlays at track stand on them)")},
        required=["tiles", "pieces", "features", "overlays"]),
    "players": {"type": "array", "items": {"type": "object", "required": ["seat", "name", "bot", "score", "supply", "hand"], "additionalProperties": False, "properties": {
        "seat": INT, "name": STR, "bot": NULLABLE(STR), "score": INT, "supply": {"type": "array", "items": named_count},
        "hand": {"type": "array", "items": named_count, "description": "what else the player holds (Safari: tokens by species)"},
        "track": {"type": "integer", "description": "space on the game's track (Amazonas: the boat)"}}}},
    "pile": obj({"left": INT, "bonus_left": INT, "tiles": {"type": "array", "items": named_count}}),
    "decision": obj({"phase": {"enum": ["place", "piece", "choose", "over", "waiting"]}, "player": NULLABLE(INT), "tile": NULLABLE(STR), "options": {"type": "array", "items": option},
                     "panels": {"type": "array", "items": panel, "description": "the game's explanation of the decision: the actions beside a piece, what a choice's options score"}}),
    "last_turn": {"type": "array", "items": event, "description": "the score events of the last finished turn (at the end: with the final scoring)"},
    "panels": {"type": "array", "items": panel},
    "summary": {"type": "array", "items": STR, "description": "the game's own state in a few short lines ({p0}..{p4}: the players' names)"},
    "over": BOOL,
    "final_scores": {"type": "array", "items": INT},
    "winners": {"type": "array", "items": INT}},
    required=["game", "title", "turn", "board", "players", "pile", "decision", "last_turn", "panels", "over"])
view_schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
               "title": "A position as data: what the protocol's view command returns (src/view/view.hpp)", **view}
json.dump(view_schema, open("docs/view.schema.json", "w"), indent=1)
open("docs/view.schema.json", "a").write("\n")

status = {"phase": {"enum": ["place", "piece", "choose", "over", "waiting"]}, "to_move": NULLABLE(INT), "tile": NULLABLE(STR), "turn": INT, "over": BOOL, "scores": {"type": "array", "items": INT}}
ID = {"oneOf": [INT, {"type": "string", "maxLength": 100}, {"type": "null"}]}
players = {"type": "array", "minItems": 2, "maxItems": 5, "items": {"oneOf": [STR, obj({"name": STR, "bot": STR}, required=["name"])]}}
move = {"oneOf": [STR, {"type": "object", "required": ["kind"], "additionalProperties": False, "properties": {
    "kind": {"enum": ["place", "piece", "pass", "action", "choice"]}, "x": INT, "y": INT, "rot": {"enum": [0, 90, 180, 270]}, "port": STR, "piece": STR, "text": STR}}]}
LANG = {"type": "string", "maxLength": 40, "description": "the language of the reply's words: en, ru, ro (also ru-RU...; docs/i18n.md); default: the session's (engine --lang)"}
def req(cmd, props, required):
    return obj({"id": ID, "cmd": {"const": cmd}, "lang": LANG, **props}, required=["cmd"] + required)
def rep(props, with_status=True):
    p = {"id": ID, "ok": {"const": True}, **props}
    if with_status: p.update(status)
    return obj(p, required=["id", "ok"] + list(props.keys()) + (list(status.keys()) if with_status else []))
requests = {
    "new": req("new", {"game": STR, "players": players, "options": {"type": "object", "additionalProperties": STR}, "seed": {"type": "integer", "minimum": 0, "maximum": 18446744073709551615},
                       "setup": {"$ref": "record.schema.json#/properties/setup"}, "view": BOOL}, ["players"]),
    "load": req("load", {"record": {"oneOf": [{"$ref": "record.schema.json"}, STR]}, "seed": {"type": "integer", "minimum": 0}, "view": BOOL}, ["record"]),
    "view": req("view", {"game": STR, "features": BOOL, "options": BOOL}, ["game"]),
    "legal": req("legal", {"game": STR, "after": move}, ["game"]),
    "play": req("play", {"game": STR, "move": move, "view": BOOL}, ["game", "move"]),
    "undo": req("undo", {"game": STR, "player": INT}, ["game"]),
    "bot": req("bot", {"game": STR, "bot": STR, "play": BOOL, "view": BOOL}, ["game"]),
    "analyze": req("analyze", {"game": STR, "playouts": {"type": "integer", "minimum": 1}, "seed": {"type": "integer", "minimum": 0}, "top": {"type": "integer", "minimum": 1, "maximum": 1000}, "force": STR, "ownership": BOOL}, ["game"]),
    "review": req("review", {"record": {"oneOf": [{"$ref": "record.schema.json"}, STR]}, "playouts": {"type": "integer", "minimum": 1}, "seed": {"type": "integer", "minimum": 0}, "ownership": BOOL}, ["record"]),
    "record": req("record", {"game": STR}, ["game"]),
    "close": req("close", {"game": STR}, ["game"]),
    "games": req("games", {}, []),
    "quit": req("quit", {}, []),
}
VIEW = {"$ref": "view.schema.json"}
NUM = {"type": "number"}
OPTSTATS = obj({"move": STR, "visits": INT, "margin": NUM, "se": NUM, "win": NUM, "win_prob": NUM})
SHARE = {"type": "number", "minimum": 0, "maximum": 1}
OWNERSHIP = {"type": "array", "description": "the position's open features, largest first, and who scores them in the search's playouts (docs/mcts.md, \"Analysis\")",
             "items": obj({"feature": STR, "x": INT, "y": INT, "port": STR,
                           "anchor": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2, "description": "where a piece on it would stand in tile x, y: (0,0) north-west, (1,1) south-east"},
                           "tiles": INT,
                           "cells": {"type": "array", "items": {"type": "array", "items": INT, "minItems": 2, "maxItems": 2}, "minItems": 1, "description": "the cells of its tiles (a monastery: its own)"},
                           "pieces": {"type": "array", "items": INT, "description": "its pieces by seat now"},
                           "share": {"type": "array", "items": SHARE, "description": "by seat: the share of playouts in which the seat scored it"},
                           "points": {"type": "array", "items": NUM, "description": "by seat: the mean points the seat scored from it, over all playouts"}})}
REVIEW = obj({"game": STR, "players": {"type": "array", "items": STR}, "final_scores": {"type": "array", "items": INT}, "playouts": INT, "seed": INT, "share": NUM, "value": {"type": "integer", "minimum": 0, "maximum": 2}, "scale": NUM,
              "thresholds": obj({"inaccuracy": NUM, "mistake": NUM, "blunder": NUM}),
              "decisions": {"type": "array", "items": obj({"index": INT, "move": INT, "turn": INT, "player": INT, "options": INT, "played": OPTSTATS, "best": OPTSTATS, "loss": NUM, "loss_se": NUM,
                                                           "mark": {"enum": ["", "inaccuracy", "mistake", "blunder"]}, "top": {"type": "array", "items": OPTSTATS},
                                                           "ownership": dict(OWNERSHIP, maxItems=12)},
                                                          required=["index", "move", "turn", "player", "options", "played", "best", "loss", "loss_se", "mark", "top"])},
              "curve": {"type": "array", "items": obj({"index": INT, "turn": INT, "seat": INT, "margin": NUM, "win_prob": NUM})},
              "summary": {"type": "array", "items": obj({"player": INT, "decisions": INT, "mean_loss": NUM, "inaccuracies": INT, "mistakes": INT, "blunders": INT})}})
EVENTS = {"type": "array", "items": event}
replies = {
    "new": rep({"game": STR, "seed": INT}) | {},
    "load": rep({"game": STR}),
    "view": rep({"view": VIEW}, False),
    "legal": rep({"options": {"type": "array", "items": option}}),
    "play": rep({"played": STR, "player": INT, "events": EVENTS}),
    "undo": rep({}),
    "bot": rep({"bot": STR, "move": STR, "player": INT, "played": BOOL, "report": obj({"summary": STR, "value": {"type": "number"}, "visits": INT, "total_visits": INT})}),
    "analyze": rep({"player": INT, "playouts": INT, "options": {"type": "array", "items": OPTSTATS}}, False),
    "review": rep({"review": REVIEW}, False),
    "record": rep({"record": {"$ref": "record.schema.json"}}, False),
    "close": rep({"closed": STR}, False),
    "games": rep({"games": {"type": "array", "items": obj({"game": STR, "kind": STR, **status})}}, False),
    "quit": rep({}, False),
}
# optional reply keys
replies["new"]["properties"]["view"] = VIEW
replies["load"]["properties"]["view"] = VIEW
replies["play"]["properties"]["view"] = VIEW
replies["bot"]["properties"]["view"] = VIEW
replies["bot"]["properties"]["events"] = EVENTS
replies["legal"]["properties"]["after"] = STR
replies["analyze"]["properties"]["forced"] = OPTSTATS
replies["analyze"]["properties"]["ownership"] = dict(OWNERSHIP, maxItems=64)
error = obj({"id": ID, "ok": {"const": False}, "error": obj({"code": {"enum": ["bad_json", "too_long", "bad_request", "unknown_command", "unknown_game", "bad_input", "bad_record",
                                                                              "illegal_move", "game_over", "waiting", "no_undo", "too_many_games", "time_cap", "internal"]}, "message": STR})})
proto = {"$schema": "https://json-schema.org/draft/2020-12/schema",
         "title": "The engine protocol (docs/engine-protocol.md): one request object per line, one reply per line",
         "$defs": {"requests": requests, "replies": replies, "error": error},
         "description": "A request is one of $defs.requests (by cmd); its reply is the same command's $defs.replies entry, or $defs.error."}
json.dump(proto, open("docs/engine-protocol.schema.json", "w"), indent=1)
open("docs/engine-protocol.schema.json", "a").write("\n")
