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
event = obj({"seq": I(minimum=1), "type": {"enum": ["created", "draw", "chance", "turn", "resign", "abort", "timeout", "seat_bot", "seat_back", "end"]},
             "seat": I(minimum=-1, maximum=4), "time": I(), "cid": S(), "data": {"type": "object"}}, ["seq", "type", "seat", "time", "data"])
client = {
  "hello": obj({"type": const("hello"), "token": S(maxLength=64), "since": seq, "views": B}, ["type"]),
  "play": obj({"type": const("play"), "cid": S(minLength=1, maxLength=64), "at": seq, "moves": {"type": "array", "items": S(maxLength=200), "minItems": 1, "maxItems": 16}}, ["type", "cid", "at", "moves"]),
  "legal": obj({"type": const("legal"), "moves": {"type": "array", "items": S(maxLength=200), "maxItems": 16}}, ["type"]),
  "resign": obj({"type": const("resign"), "cid": S(minLength=1, maxLength=64), "at": seq}, ["type", "cid", "at"]),
  "abort": obj({"type": const("abort"), "cid": S(minLength=1, maxLength=64), "at": seq}, ["type", "cid", "at"]),
  "view": obj({"type": const("view")}, ["type"]),
  "ping": obj({"type": const("ping")}, ["type"], extra=True),
}
seatinfo = obj({"seat": I(minimum=0), "name": S(), "bot": S()}, ["seat", "name", "bot"])
server = {
  "welcome": obj({"type": const("welcome"), "game": S(), "kind": S(), "seat": I(minimum=-1), "seq": seq, "seats": {"type": "array", "items": seatinfo}}, ["type", "game", "kind", "seat", "seq", "seats"]),
  "events": obj({"type": const("events"), "events": {"type": "array", "items": {"$ref": "#/$defs/event"}}, "seq": seq, "to_move": I(minimum=-1, maximum=4)}, ["type", "events", "seq", "to_move"]),
  "ack": obj({"type": const("ack"), "cid": S(), "seq": I(minimum=1), "repeat": B}, ["type", "cid", "seq"]),
  "reject": obj({"type": const("reject"), "cid": S(), "code": {"enum": ["stale", "not_your_turn", "illegal_move", "bad_turn", "incomplete_turn", "time", "over", "started", "resigned", "spectator", "bad_message", "store"]}, "message": S(), "seq": seq}, ["type", "cid", "code", "message", "seq"]),
  "options": obj({"type": const("options"), "seq": seq, "moves": {"type": "array", "items": S()}, "complete": B, "options": {"type": "array", "items": {"type": "object"}}}, ["type", "seq", "moves", "complete", "options"]),
  "state": obj({"type": const("state"), "seq": seq, "view": {"type": "object", "description": "the position view: docs/view.schema.json"}, "clocks": {"type": "array", "items": I(minimum=-1)}}, ["type", "seq", "view"]),
  "presence": obj({"type": const("presence"), "spectators": I(minimum=0), "seats": {"type": "array", "items": obj({"seat": I(minimum=0), "connected": B, "stand_in": B, "resigned": B, "grace_until": I()}, ["seat", "connected", "stand_in", "resigned"])}}, ["type", "seats", "spectators"]),
  "pong": obj({"type": const("pong"), "time": I()}, ["type", "time"]),
  "error": obj({"type": const("error"), "code": {"enum": ["bad_json", "bad_message", "no_hello", "bad_token", "unknown_game", "moved", "full", "restart", "internal"]}, "message": S()}, ["type", "code", "message"]),
}
http = {
  "create_request": obj({"game": S(), "options": {"type": "object", "additionalProperties": S()}, "seed": I(minimum=0),
                         "seats": {"type": "array", "minItems": 2, "maxItems": 5, "items": obj({"name": S(maxLength=40), "bot": S(maxLength=100)}, [])},
                         "clock": {"oneOf": [obj({"type": const("none")}, ["type"]), obj({"type": const("realtime"), "bank": {"type": "number"}, "increment": {"type": "number"}}, ["type", "bank"]), obj({"type": const("days"), "days": I(minimum=1, maximum=30)}, ["type", "days"])]},
                         "absence": obj({"grace": {"type": "number"}, "policy": {"enum": ["wait", "bot"]}, "bot": S()}, [])}, ["seats"]),
  "create_response": obj({"id": S(), "seed_hash": S(pattern="^[0-9a-f]{64}$"), "seats": {"type": "array", "items": obj({"seat": I(), "name": S(), "bot": S(), "token": S(pattern="^[0-9a-f]{32}$"), "invite": S()}, ["seat", "name", "bot"])}}, ["id", "seats", "seed_hash"]),
  "summary": obj({"id": S(), "game": S(), "seq": seq, "status": {"enum": ["active", "finished", "aborted"]}, "seats": {"type": "array", "items": seatinfo}, "to_move": I(minimum=-1), "clocks": {"type": "array", "items": I(minimum=-1)}, "clock": S(), "created": I(), "scores": {"type": "array", "items": I()}}, ["id", "game", "seq", "status", "seats", "to_move", "scores"]),
  "job": obj({"game": S(), "seq": seq, "seat": I(minimum=0), "spec": S(), "lease": S(), "lease_until": I(), "record": {"type": "object"}}, ["game", "seq", "seat", "spec", "lease", "record"]),
  "job_result": obj({"seq": seq, "seat": I(minimum=0), "lease": S(), "moves": {"type": "array", "items": S(), "minItems": 1, "maxItems": 16}}, ["seq", "seat", "moves"]),
  "problem": obj({"code": S(), "message": S()}, ["code", "message"]),
}
doc = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "carcassonne serve: the WebSocket and HTTP messages",
       "description": "docs/server-protocol.md. client: what a client sends over the WebSocket; server: what the server sends; http: the HTTP API's bodies.",
       "$defs": {"event": event, "client": {"$defs": client, "oneOf": [{"$ref": f"#/$defs/client/$defs/{k}"} for k in client]},
                 "server": {"$defs": server, "oneOf": [{"$ref": f"#/$defs/server/$defs/{k}"} for k in server]},
                 "http": {"$defs": http}}}
json.dump(doc, open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "server-protocol.schema.json"), "w"), indent=1)
print("wrote docs/server-protocol.schema.json")
