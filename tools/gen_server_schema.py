#!/usr/bin/python3
"""Writes docs/server-protocol.schema.json: the game server's WebSocket messages and HTTP bodies (docs/server-protocol.md)."""
import json
import os
S = lambda **k: dict(type="string", **k)
I = lambda **k: dict(type="integer", **k)
B = {"type": "boolean"}
def obj(props, req, extra=False):
    return {"type": "object", "properties": props, "required": req, "additionalProperties": extra}
const = lambda v: {"const": v}
seq = I(minimum=0)
HERE = os.path.dirname(os.path.abspath(__file__))
# the position view and its decision options, as docs/view.schema.json has them (embedded: one file)
VIEW = json.load(open(os.path.join(HERE, "..", "docs", "view.schema.json")))
VIEW = {k: v for k, v in VIEW.items() if k not in ("$schema", "title")}
OPTION = VIEW["properties"]["decision"]["properties"]["options"]["items"]
# a game's review (docs/mcts.md "Review"), as the engine protocol's review reply has it (embedded: one file)
REVIEW = json.load(open(os.path.join(HERE, "..", "docs", "engine-protocol.schema.json")))["$defs"]["replies"]["review"]["properties"]["review"]


def worded(schema):
    """The review as the server's HTTP answers give it: each option (an object with move and visits)
    may also have `words`, its move in the request's language (docs/server-protocol.md)."""
    import copy
    out = copy.deepcopy(schema)

    def walk(v):
        if isinstance(v, dict):
            props = v.get("properties")
            if isinstance(props, dict) and "move" in props and "visits" in props:
                props["words"] = {"type": "string", "description": "the move in the request's language (view::move_words)"}
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    walk(out)
    return out


REVIEW_WORDED = worded(REVIEW)
seat_no = I(minimum=0, maximum=4)
ints = {"type": "array", "items": I()}
# each event type with its data (docs/server-protocol.md, "Events")
event_data = {
  "created": obj({"game": S(), "options": {"type": "object", "additionalProperties": S()}, "seats": {"type": "array", "items": obj({"name": S(), "bot": S()}, ["name", "bot"])},
                  "seed_hash": S(pattern="^[0-9a-f]{64}$"),
                  "clock": obj({"type": {"enum": ["none", "realtime", "days"]}, "bank_ms": I(minimum=0), "increment_ms": I(minimum=0), "move_ms": I(minimum=0)}, ["type", "bank_ms", "increment_ms", "move_ms"]),
                  "absence": obj({"grace_ms": I(minimum=0), "policy": {"enum": ["wait", "bot"]}, "bot": S()}, ["grace_ms", "policy", "bot"])},
                 ["game", "options", "seats", "seed_hash", "clock", "absence"]),
  "draw": obj({"tile": S()}, ["tile"]),
  "chance": obj({"outcome": S()}, ["outcome"]),
  "turn": obj({"moves": {"type": "array", "items": S(), "minItems": 1}, "elapsed": I()}, ["moves", "elapsed"]),
  "resign": obj({"seat": seat_no}, ["seat"]),
  "abort": obj({"seat": seat_no}, ["seat"]),
  "timeout": obj({"seat": seat_no, "elapsed": I()}, ["seat", "elapsed"]),
  "seat_bot": obj({"seat": seat_no, "bot": S()}, ["seat", "bot"]),
  "seat_back": obj({"seat": seat_no}, ["seat"]),
  "end": obj({"reason": {"enum": ["finished", "resign", "timeout", "aborted"]}, "scores": ints, "winners": ints, "resigned": ints,
              "seed": I(minimum=0, maximum=18446744073709551615, description="the record's seed (a JSON integer up to 2^64-1: read it as a big integer)"),
              "salt": S(pattern="^[0-9a-f]{32}$", description="seed_hash = SHA-256 of SALT:SEED; absent for games created before salts (seed_hash = SHA-256 of SEED)")},
             ["reason", "scores", "winners", "resigned", "seed"]),
  "rematch": obj({"game": S(description="the rematch's id: open it with this seat's own token"), "seat": seat_no}, ["game", "seat"]),
  "name": obj({"seat": seat_no, "name": S(minLength=1, maxLength=40, description="the seat's name from now on (views, records, summaries, a rematch)")}, ["seat", "name"]),
  "analysis": obj({"playouts": I(minimum=1), "seed": I(minimum=0, maximum=18446744073709551615), "review": REVIEW}, ["playouts", "seed", "review"]),
}
# a turn as the connection's language says it, one sentence per move (the server adds it to what it sends: not stored)
turn_words = {"words": {"type": "array", "items": S(), "description": "each move of data.moves in words, in the connection's language (docs/server-protocol.md, \"Events\")"}}
event = {"oneOf": [obj({"seq": I(minimum=1), "type": const(t), "seat": I(minimum=-1, maximum=4), "time": I(), "cid": S(), "data": d, **(turn_words if t == "turn" else {})},
                       ["seq", "type", "seat", "time", "data"]) for t, d in event_data.items()]}
client = {
  "hello": obj({"type": const("hello"), "token": S(maxLength=64), "seat": {"type": "integer", "minimum": 0, "maximum": 4}, "since": seq, "views": B, "lang": S(maxLength=40)}, ["type"]),
  "play": obj({"type": const("play"), "cid": S(minLength=1, maxLength=64), "at": seq, "moves": {"type": "array", "items": S(maxLength=200), "minItems": 1, "maxItems": 16}}, ["type", "cid", "at", "moves"]),
  "legal": obj({"type": const("legal"), "moves": {"type": "array", "items": S(maxLength=200), "maxItems": 16}}, ["type"]),
  "resign": obj({"type": const("resign"), "cid": S(minLength=1, maxLength=64), "at": seq}, ["type", "cid", "at"]),
  "abort": obj({"type": const("abort"), "cid": S(minLength=1, maxLength=64), "at": seq}, ["type", "cid", "at"]),
  "name": obj({"type": const("name"), "cid": S(minLength=1, maxLength=64), "name": S(minLength=1, maxLength=40)}, ["type", "cid", "name"]),
  "view": obj({"type": const("view")}, ["type"]),
  "chat": obj({"type": const("chat"), "cid": S(minLength=1, maxLength=64), "text": S(minLength=1, maxLength=800, description="1-200 characters"),
               "phrase": {"enum": ["hello", "good_luck", "thinking", "well_played", "good_game", "thanks"]}}, ["type", "cid"]),
  "ping": obj({"type": const("ping")}, ["type"], extra=True),
}
seatinfo = obj({"seat": I(minimum=0), "name": S(), "bot": S()}, ["seat", "name", "bot"])
server = {
  "welcome": obj({"type": const("welcome"), "game": S(), "kind": S(), "seat": I(minimum=-1), "seq": seq, "seats": {"type": "array", "items": seatinfo}}, ["type", "game", "kind", "seat", "seq", "seats"]),
  "events": obj({"type": const("events"), "events": {"type": "array", "items": {"$ref": "#/$defs/event"}}, "seq": seq, "to_move": I(minimum=-1, maximum=4)}, ["type", "events", "seq", "to_move"]),
  "ack": obj({"type": const("ack"), "cid": S(), "seq": I(minimum=1), "repeat": B}, ["type", "cid", "seq"]),
  "reject": obj({"type": const("reject"), "cid": S(), "code": {"enum": ["stale", "not_your_turn", "illegal_move", "bad_turn", "incomplete_turn", "time", "over", "started", "resigned", "spectator", "bot_seat", "same_name", "name_taken", "too_many_renames", "rename_too_soon", "bad_message", "store", "chat_too_fast", "chat_guest", "chat_account"]}, "message": S(), "seq": seq}, ["type", "cid", "code", "message", "seq"]),
  "options": obj({"type": const("options"), "seq": seq, "moves": {"type": "array", "items": S()}, "words": {"type": "array", "items": S()}, "complete": B, "options": {"type": "array", "items": {"$ref": "#/$defs/option"}}}, ["type", "seq", "moves", "words", "complete", "options"]),
  "state": obj({"type": const("state"), "seq": seq, "view": {"$ref": "#/$defs/view"}, "clocks": {"type": "array", "items": I(minimum=-1)},
                    "end": obj({"reason": {"enum": ["finished", "resign", "timeout", "aborted"]}, "scores": ints, "winners": ints, "resigned": ints}, ["reason", "scores", "winners", "resigned"]),
                    "rematch": S()}, ["type", "seq", "view"]),
  "presence": obj({"type": const("presence"), "spectators": I(minimum=0), "seats": {"type": "array", "items": obj({"seat": I(minimum=0), "connected": B, "stand_in": B, "resigned": B, "grace_until": I()}, ["seat", "connected", "stand_in", "resigned"])}}, ["type", "seats", "spectators"]),
  "pong": obj({"type": const("pong"), "time": I()}, ["type", "time"]),
  "chat": obj({"type": const("chat"), "messages": {"type": "array", "items": obj({"id": S(), "channel": {"enum": ["players", "spectators"]}, "seat": I(minimum=-1, maximum=4),
                                                                                  "player": S(), "name": {"type": ["string", "null"]}, "text": S(), "phrase": S(), "time": I()},
                                                                                 ["id", "channel", "seat", "player", "name", "time"])}}, ["type", "messages"]),
  "lobby": obj({"type": const("lobby"), "full": B, "seq": I(minimum=0), "tables": {"type": "array", "items": {"type": "object"}}, "added": {"type": "array", "items": {"type": "object"}},
                "removed": {"type": "array", "items": S()}, "pools": {"type": "array", "items": obj({"game": S(), "seats": I(minimum=2, maximum=5), "clock": S(), "rated": B, "guest": B, "waiting": I(minimum=1)},
                                                                                               ["game", "seats", "clock", "rated", "guest", "waiting"])}}, ["type", "seq"]),
  "error": obj({"type": const("error"), "code": {"enum": ["bad_json", "bad_message", "no_hello", "bad_token", "not_your_seat", "unknown_game", "moved", "full", "restart", "internal", "store"]}, "message": S()}, ["type", "code", "message"]),
}
http = {
  "create_request": obj({"game": S(), "options": {"type": "object", "additionalProperties": S()}, "seed": I(minimum=0),
                         "request_id": S(minLength=16, maxLength=64, description="the client's id for this request: a retry with the same request gets the same game and tokens"),
                         "seats": {"type": "array", "minItems": 2, "maxItems": 5, "items": obj({"name": S(maxLength=40), "bot": S(maxLength=100)}, [])},
                         "clock": {"oneOf": [obj({"type": const("none")}, ["type"]), obj({"type": const("realtime"), "bank": {"type": "number"}, "increment": {"type": "number"}}, ["type", "bank"]), obj({"type": const("days"), "days": I(minimum=1, maximum=30)}, ["type", "days"])]},
                         "absence": obj({"grace": {"type": "number"}, "policy": {"enum": ["wait", "bot"]}, "bot": S()}, [])}, ["seats"]),
  "rematch_request": {"oneOf": [obj({"token": S(maxLength=64)}, ["token"]), obj({"seat": I(minimum=0, maximum=4, description="the session's own seat (bound to its player)")}, ["seat"])]},
  "create_response": obj({"id": S(), "seed_hash": S(pattern="^[0-9a-f]{64}$"), "repeat": B, "rematch_of": S(), "seats": {"type": "array", "items": obj({"seat": I(), "name": S(), "bot": S(), "token": S(pattern="^[0-9a-f]{32}$"), "invite": S(), "play": S(description="a rematch asked with the session's seat: its page, opened with hello seat")}, ["seat", "name", "bot"])}}, ["id", "seats", "seed_hash"]),
  "games": {"type": "array", "items": obj({"id": S(), "game": S(), "status": {"enum": ["active", "finished", "aborted"]}, "created": I(),
                                          "seats": {"type": "array", "items": seatinfo, "description": "the seats' names now (a game in the server's memory, as every active game is) or as created"},
                                          "scores": {"type": "array", "items": I(), "description": "a game in the server's memory only"},
                                          "to_move": I(minimum=-1, maximum=4, description="the seat that decides now, -1 nobody (a game in the server's memory only)"),
                                          "seq": seq}, ["id", "game", "status", "created", "seats"])},
  "events": {"type": "array", "items": {"$ref": "#/$defs/event"}},
  "healthz": obj({"status": {"enum": ["ok", "draining"]}, "store": S(), "games_loaded": I(minimum=0)}, ["status", "store", "games_loaded"]),
  "stats": obj({"games_loaded": I(minimum=0), "connections": I(minimum=0), "commits": I(minimum=0), "appends": I(minimum=0), "events": I(minimum=0), "max_batch": I(minimum=0),
                "mean_batch": {"type": "number"}, "failed": I(minimum=0), "commit_ms_p50": {"type": "number"}, "commit_ms_p99": {"type": "number"}, "store": S()},
               ["games_loaded", "connections", "commits", "appends", "events", "max_batch", "mean_batch", "failed", "commit_ms_p50", "commit_ms_p99", "store"]),
  "catalog": obj({"games": {"type": "array", "items": obj({"id": S(), "title": S(), "min_players": I(minimum=2), "max_players": I(maximum=5),
                                                          "options": {"type": "array", "items": obj({"name": S(), "values": {"type": "array", "items": S()}, "help": S(), "word": S(), "value_words": {"type": "array", "items": S()}}, ["name", "values", "help", "word", "value_words"])},
                                                          "levels": {"type": "array", "items": obj({"level": S(), "spec": S()}, ["level", "spec"])}},
                                                         ["id", "title", "min_players", "max_players", "options", "levels"])},
                  "bots": {"type": "array", "items": obj({"level": S(), "spec": S(), "word": S()}, ["level", "spec", "word"])}, "seat_colours": {"type": "array", "items": S()}},
                 ["games", "bots", "seat_colours"]),
  "tiles": obj({"format": S(), "game": S(), "title": S(), "note": S(), "px": I(minimum=1), "feature_types": {"type": "array"}, "piece_names": {"type": "array", "items": S()}, "lang": {"enum": ["en", "ru", "ro"]},
                "piece_words": {"type": "object", "additionalProperties": S()},
                "tiles": {"type": "array", "items": obj({"id": S(), "count": I(minimum=0), "kind": S(), "pile": S(), "file": S(), "features": {"type": "array"},
                                                         "svg": S(pattern="^<svg")}, ["id", "count", "features", "svg"], extra=True)}},
               ["game", "px", "tiles"], extra=True),
  "rules": obj({"game": S(), "title": S(), "lang": {"enum": ["en", "ru", "ro"]},
                "sections": {"type": "array", "items": obj({"id": S(pattern="^[a-z0-9_-]+$"), "title": S(minLength=1), "text": {"type": "array", "items": S(minLength=1), "minItems": 1},
                                                            "tiles": {"type": "array", "items": S()}}, ["id", "title", "text", "tiles"])}},
               ["game", "title", "lang", "sections"]),
  "replay_request": obj({"record": {"type": ["object", "string"]}, "step": I(minimum=0)}, ["record"]),
  "replay_response": obj({"steps": I(minimum=0), "step": I(minimum=0), "view": {"$ref": "#/$defs/view"}}, ["steps", "step", "view"]),
  "summary": obj({"id": S(), "game": S(), "seq": seq, "status": {"enum": ["active", "finished", "aborted"]}, "seats": {"type": "array", "items": obj({"seat": I(minimum=0), "name": S(), "bot": S(), "account": {"type": ["string", "null"]}}, ["seat", "name", "bot"])}, "to_move": I(minimum=-1), "clocks": {"type": "array", "items": I(minimum=-1)}, "clock": S(), "created": I(), "scores": {"type": "array", "items": I()}}, ["id", "game", "seq", "status", "seats", "to_move", "scores"]),
  "job": obj({"game": S(), "seq": seq, "seat": I(minimum=0), "spec": S(), "lease": S(), "lease_until": I(), "record": {"type": "object"}}, ["game", "seq", "seat", "spec", "lease", "record"]),
  "job_result": obj({"seq": seq, "seat": I(minimum=0), "lease": S(), "moves": {"type": "array", "items": S(), "minItems": 1, "maxItems": 16}}, ["seq", "seat", "moves"]),
  "analysis": obj({"status": const("done"), "playouts": I(minimum=1), "seed": I(minimum=0, maximum=18446744073709551615), "review": REVIEW_WORDED}, ["status", "playouts", "seed", "review"]),
  "analysis_progress": obj({"status": {"enum": ["queued", "running", "saving"]}, "done": I(minimum=0), "total": I(minimum=0), "ahead": I(minimum=0), "playouts": I(minimum=1)},
                           ["status", "done", "total", "ahead", "playouts"]),
  "analysis_decision": obj({"decision": REVIEW_WORDED["properties"]["decisions"]["items"], "step": I(minimum=0), "view": {"$ref": "#/$defs/view"}}, ["decision", "step", "view"]),
  "problem": obj({"code": S(), "message": S()}, ["code", "message"]),
}
doc = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "carcassonne serve: the WebSocket and HTTP messages",
       "description": "docs/server-protocol.md. client: what a client sends over the WebSocket; server: what the server sends; http: the HTTP API's bodies.",
       "$defs": {"event": event, "view": VIEW, "option": OPTION, "client": {"$defs": client, "oneOf": [{"$ref": f"#/$defs/client/$defs/{k}"} for k in client]},
                 "server": {"$defs": server, "oneOf": [{"$ref": f"#/$defs/server/$defs/{k}"} for k in server]},
                 "http": {"$defs": http}}}
json.dump(doc, open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "server-protocol.schema.json"), "w"), indent=1)
print("wrote docs/server-protocol.schema.json")
