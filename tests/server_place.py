#!/usr/bin/python3
"""The lobby's socket, your turn, profiles, leaderboards, chat and reports over real sockets on
loopback (docs/server-protocol.md: "The lobby", "Your turn", "Profiles and leaderboards", "Chat and
reports"):

- /ws/lobby: hello gets every open table and pool count, then batches of what changed (a table
  opened, joined, closed; a pool's count) at most one per --lobby-ms per socket; a host's real-time
  table closes a few seconds after their last lobby socket closes;
- GET /api/me/turns lists the games where the player is to move with their time left, and the
  correspondence cap refuses one game too many;
- rated games end in the players' results, history and, once not provisional, the leaderboard;
- the players' and spectators' chats stay apart while the game goes on and are both public after;
  limits, guests at strangers' tables, blocks, the operator's removal; reports and their queue;
- the per-player rate limits on opening tables and joining pools.

No check depends on the machine being quiet: every wait is for a state, with a deadline of many
seconds. Every server this test starts dies with it.

usage: server_place.py BUILD/carcassonne [--pg]  (--pg: two servers on CARC_PG_URL, scripts/pg.sh with)
"""
import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import server_accounts as acc  # noqa: E402

import websockets  # noqa: E402

check, fail, wait_for = acc.check, acc.fail, acc.wait_for
BIN = acc.BIN


def headers(srv, c):
    h = {"Origin": f"http://127.0.0.1:{srv.port}", "X-Forwarded-For": c.addr}
    if c.cookie:
        h["Cookie"] = c.cookie
    return h


def paired(c):
    st, r, _ = c.call("GET", "/api/pairing")
    return r if r.get("status") == "paired" else None


def pair(srv, a, b, pool):
    for c in (a, b):
        st, r, _ = c.call("POST", "/api/pairing", pool)
        check(st == 200, f"join {pool}: {st} {r}")
    ra = wait_for(lambda: paired(a), "paired")
    rb = wait_for(lambda: paired(b), "paired")
    check(ra["game"] == rb["game"], f"one table: {ra} {rb}")
    return ra["game"], ra["seat"], rb["seat"]


class Conn:
    """A game's WebSocket that keeps every message it gets."""

    def __init__(self, srv, client, game):
        self.srv, self.client, self.game, self.got = srv, client, game, []

    async def open(self, hello):
        self.ws = await websockets.connect(f"ws://127.0.0.1:{self.srv.port}/ws/{self.game}",
                                           extra_headers=headers(self.srv, self.client) if self.client else {})
        await self.ws.send(json.dumps({"type": "hello", **hello}))
        self.seq = (await self.until(lambda m: m["type"] == "events"))["seq"]
        return self

    async def until(self, pred, seconds=30):
        for m in self.got:
            if pred(m):
                self.got.remove(m)
                return m
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                fail(f"no such message within {seconds} s; got {self.got[-5:]}")
            try:
                m = json.loads(await asyncio.wait_for(self.ws.recv(), left))
            except asyncio.TimeoutError:
                continue
            if pred(m):
                return m
            self.got.append(m)

    async def drain(self, seconds=1.5):
        """What arrives within `seconds` (to see that something did not)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                self.got.append(json.loads(await asyncio.wait_for(self.ws.recv(), end - time.monotonic())))
            except asyncio.TimeoutError:
                break
        out, self.got = self.got, []
        return out

    async def say(self, cid, **what):
        await self.ws.send(json.dumps({"type": "chat", "cid": cid, **what}))
        return await self.until(lambda m: m.get("cid") == cid and m["type"] in ("ack", "reject"))


def chats(msgs):
    return [x for m in msgs if m["type"] == "chat" for x in m["messages"]]


def lobby_checks(srv):
    host, _ = acc.guest_and_claim(srv, "Lobby_Host", "10.9.0.1")
    guest = acc.Client(srv, "10.9.0.2")
    guest.call("POST", "/api/session", {})

    async def run():
        hl = await websockets.connect(f"ws://127.0.0.1:{srv.port}/ws/lobby", extra_headers=headers(srv, host))
        gl = await websockets.connect(f"ws://127.0.0.1:{srv.port}/ws/lobby", extra_headers=headers(srv, guest))
        for ws in (hl, gl):
            await ws.send(json.dumps({"type": "hello"}))
            m = json.loads(await ws.recv())
            check(m["type"] == "lobby" and m["full"] and isinstance(m["tables"], list) and isinstance(m["pools"], list),
                  f"the whole lobby after hello: {m}")
        await gl.send(json.dumps({"type": "ping"}))
        check(json.loads(await gl.recv())["type"] == "pong", "ping")
        await gl.send(json.dumps({"type": "play"}))
        m = json.loads(await gl.recv())
        check(m["type"] == "error" and m["code"] == "bad_message", f"the lobby takes hello and ping: {m}")

        async def next_batch(ws, pred, seconds=30):
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                try:
                    m = json.loads(await asyncio.wait_for(ws.recv(), end - time.monotonic()))
                except asyncio.TimeoutError:
                    break
                if m["type"] == "lobby" and pred(m):
                    return m
            fail("no such lobby batch within 30 s")

        st, r, _ = host.call("POST", "/api/tables", {"game": "base", "seats": 3, "clock": "realtime"})
        check(st == 201, f"open: {st} {r}")
        tid = r["table"]
        m = await next_batch(gl, lambda m: any(t["id"] == tid for t in m["added"]))
        t = [t for t in m["added"] if t["id"] == tid][0]
        check(t["players"] == ["Lobby_Host"] and t["seats"] == 3, f"the table as listed: {t}")
        st, r, _ = guest.call("POST", f"/api/tables/{tid}/join", {})
        check(st == 200 and "game" not in r, f"join: {st} {r}")
        m = await next_batch(gl, lambda m: any(t["id"] == tid for t in m["added"]))
        check([t for t in m["added"] if t["id"] == tid][0]["players"] == ["Lobby_Host", None], f"a changed table comes whole: {m}")
        st, r, _ = guest.call("POST", "/api/pairing", {"game": "amazonas", "seats": 4, "clock": "days"})
        m = await next_batch(gl, lambda m: "pools" in m)
        check({"game": "amazonas", "seats": 4, "clock": "days", "rated": False, "guest": True, "waiting": 1} in m["pools"],
              f"a pool's count: {m}")
        guest.call("DELETE", "/api/pairing")
        # the budget: however many changes, at most one batch per --lobby-ms (500) per socket
        t0 = time.monotonic()
        n = 0
        for i in range(6):
            guest.call("POST", "/api/pairing", {"game": "base", "seats": 2 + i % 4, "clock": "days"})
        while time.monotonic() - t0 < 3:
            try:
                m = json.loads(await asyncio.wait_for(gl.recv(), 0.2))
                n += m["type"] == "lobby"
            except asyncio.TimeoutError:
                pass
        check(n <= (time.monotonic() - t0) / 0.5 + 2, f"{n} batches in {time.monotonic() - t0:.1f} s: over the budget")
        guest.call("DELETE", "/api/pairing")
        # the host's last lobby socket closes: the real-time table goes a few seconds later
        await hl.close()
        m = await next_batch(gl, lambda m: tid in m["removed"], seconds=40)
        st, r, _ = guest.call("POST", f"/api/tables/{tid}/join", {})
        check(st == 409 and r["code"] == "table_closed", f"closed with its host: {st} {r}")
        await gl.close()

    asyncio.run(run())
    print("lobby socket: ok")


def turns_checks(srv):
    a, _ = acc.guest_and_claim(srv, "Turn_Ann", "10.9.1.1")
    b, _ = acc.guest_and_claim(srv, "Turn_Bob", "10.9.1.2")
    gid, sa, sb = pair(srv, a, b, {"game": "base", "seats": 2, "clock": "days"})
    st, ta, _ = a.call("GET", "/api/me/turns")
    st2, tb, _ = b.call("GET", "/api/me/turns")
    check(st == 200 and st2 == 200, f"turns: {ta} {tb}")
    mover, other = (ta, tb) if ta["turns"] else (tb, ta)
    check(len(mover["turns"]) == 1 and not other["turns"] and other["waiting"] == 1, f"one to move: {ta} {tb}")
    t = mover["turns"][0]
    check(t["id"] == gid and t["clock"] == "days" and 0 < t["left"] <= 2 * 86400 * 1000 and t["play"].startswith(f"/play/{gid}?seat="),
          f"the turn: {t}")
    check(mover["correspondence"] == 1 and mover["cap"] == 2, f"counts: {mover}")
    # the cap (--correspondence-cap 2): a second days game, then a third is refused
    gid2, _, _ = pair(srv, a, b, {"game": "amazonas", "seats": 2, "clock": "days"})
    st, r, _ = a.call("POST", "/api/pairing", {"game": "hunters", "seats": 2, "clock": "days"})
    check(st == 409 and r["code"] == "too_many_games", f"the cap on pairing: {st} {r}")
    st, r, _ = a.call("POST", "/api/tables", {"game": "hunters", "seats": 2, "clock": "days"})
    check(st == 409 and r["code"] == "too_many_games", f"the cap on tables: {st} {r}")
    st, r, _ = a.call("POST", "/api/pairing", {"game": "hunters", "seats": 2, "clock": "realtime"})
    check(st == 200, f"real-time games are not capped: {st} {r}")
    a.call("DELETE", "/api/pairing")
    st, r, _ = acc.Client(srv, "10.9.1.3").call("GET", "/api/me/turns")
    check(st == 401 and r["code"] == "no_session", f"no session: {st} {r}")
    print("your turn, cap: ok")
    return a, b, gid, sa, sb


async def resign(srv, client, gid, seat):
    c = await Conn(srv, client, gid).open({"seat": seat})
    await c.ws.send(json.dumps({"type": "resign", "cid": "res", "at": c.seq}))
    m = await c.until(lambda m: m.get("cid") == "res" and m["type"] in ("ack", "reject"))
    check(m["type"] == "ack", f"resign: {m}")
    await c.ws.close()


def ratings_checks(srv, db):
    a, _ = acc.guest_and_claim(srv, "Board_Ann", "10.9.2.1")
    b, _ = acc.guest_and_claim(srv, "Board_Bob", "10.9.2.2")
    anon = acc.Client(srv, "10.9.2.9", origin=None)
    games = 0
    for games in (1, 2):  # Ann wins both (Bob resigns)
        gid, sa, sb = pair(srv, a, b, {"game": "base", "seats": 2, "rated": True})
        asyncio.run(resign(srv, b, gid, sb))
        wait_for(lambda: (lambda r: r if r[1]["ratings"] and r[1]["ratings"][0]["games"] == games else None)(
            anon.call("GET", "/api/players/Board_Bob")), "Bob rated")
    st, board, _ = anon.call("GET", "/api/leaderboard?bucket=base%2F2")
    check(st == 200 and board["days"] == 30 and board["players"] == [], f"provisional players are not on the board: {board}")
    check(paired(a) is None and paired(b) is None, "a pairing whose game is over is not answered \"paired\" any more")
    st, sm, _ = anon.call("GET", f"/api/games/{gid}")
    check([x["account"] for x in sorted(sm["seats"], key=lambda x: x["seat"])] ==
          [("Board_Ann" if i == sa else "Board_Bob") for i in range(2)], f"seats name their accounts: {sm['seats']}")
    # a rematch asked with a seat that has no token (paired): both players' seats are theirs in it
    st, r, _ = anon.call("POST", f"/api/games/{gid}/rematch", {"seat": sb}, headers={"Origin": f"http://127.0.0.1:{srv.port}"})
    check(st == 403 and r["code"] == "not_your_seat", f"another's seat: {st} {r}")
    st, r, _ = b.call("POST", f"/api/games/{gid}/rematch", {"seat": sb})
    check(st == 201 and r["rematch_of"] == gid and r["seats"][sb]["play"] == f"/play/{r['id']}?seat={sb}" and
          "token" not in r["seats"][sb], f"a rematch by seat: {st} {r}")
    rid = r["id"]
    st, again, _ = a.call("POST", f"/api/games/{gid}/rematch", {"seat": sa})
    check(st == 200 and again["repeat"] and again["id"] == rid, f"asked again from the other seat: {st} {again}")
    st, mine, _ = a.call("GET", "/api/me/games")
    check(any(g["id"] == rid and g["seat"] == sa for g in mine["games"]), f"the rematch is in Ann's games: {mine}")

    async def open_rematch():
        c = await Conn(srv, a, rid).open({"seat": sa})
        welcome = [m for m in c.got if m["type"] == "welcome"]
        check(welcome and welcome[0]["seat"] == sa, f"Ann opens her rematch seat without a token: {c.got[:3]}")
        await c.ws.close()

    asyncio.run(open_rematch())
    before = anon.call("GET", "/api/players/Board_Ann")[1]
    check(len(before["history"]) == games and before["history"][-1]["after"] == before["ratings"][0]["rating"],
          f"history: {before['history'][-1]} {before['ratings']}")
    # a rating leaves "provisional" at sigma 5 (docs/ratings.md), some 30 two-player games: the
    # standings are given that sigma here rather than played so far (the ratings table is derived)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE ratings SET sigma = '4.5'")
    st, board, _ = anon.call("GET", "/api/leaderboard?bucket=base%2F2")
    ann = anon.call("GET", "/api/players/Board_Ann")[1]
    check([p["name"] for p in board["players"]] == ["Board_Ann", "Board_Bob"] and board["players"][0]["rank"] == 1 and
          board["players"][0]["rating"] == ann["ratings"][0]["rating"], f"the board once not provisional ({games} games): {board}")
    check(ann["results"] == [{"game": "base", "players": 2, "played": games, "won": games}], f"results: {ann['results']}")
    check(len(ann["games"]) == games and ann["games"][0]["place"] == 1 and ann["games"][0]["rated"] and
          ann["games"][0]["reason"] == "resign", f"games: {ann['games'][:2]}")
    bob = anon.call("GET", "/api/players/Board_Bob")[1]
    check(bob["results"] == [{"game": "base", "players": 2, "played": games, "won": 0}] and bob["games"][0]["place"] == 2, f"Bob: {bob['results']}")
    for q in ("bucket=chess%2F2", "bucket=base%2F4", "", "bucket=base%2F2&days=0", "bucket=base%2F2&days=x"):
        st, r, _ = anon.call("GET", f"/api/leaderboard?{q}")
        check(st == 400 and r["code"] == "bad_request", f"leaderboard?{q}: {st} {r}")
    st, r, _ = anon.call("GET", "/api/leaderboard?bucket=base/2&days=365")
    check(st == 200 and len(r["players"]) == 2, f"an unescaped bucket: {st} {r}")
    print(f"results, history, leaderboard ({games} games): ok")


def chat_checks(srv, db):
    a, _ = acc.guest_and_claim(srv, "Chat_Ann", "10.9.3.1")
    b, _ = acc.guest_and_claim(srv, "Chat_Bob", "10.9.3.2")
    s, _ = acc.guest_and_claim(srv, "Chat_Spec", "10.9.3.3")
    gid, sa, sb = pair(srv, a, b, {"game": "hunters", "seats": 2, "clock": "realtime"})
    g = acc.Client(srv, "10.9.3.4")  # a guest watching
    g.call("POST", "/api/session", {})

    async def run():
        ca = await Conn(srv, a, gid).open({"seat": sa})
        cb = await Conn(srv, b, gid).open({"seat": sb})
        cs = await Conn(srv, s, gid).open({})
        cg = await Conn(srv, g, gid).open({})
        cn = await Conn(srv, None, gid).open({})  # no session at all
        m = await ca.say("c1", text="Hi Bob! Удачи 🙂")
        check(m["type"] == "ack", f"a player's message: {m}")
        got = chats([await cb.until(lambda m: m["type"] == "chat")])
        check(got[0]["text"] == "Hi Bob! Удачи 🙂" and got[0]["channel"] == "players" and got[0]["name"] == "Chat_Ann"
              and got[0]["seat"] == sa, f"Bob reads it: {got}")
        ann_msg = got[0]["id"]
        m = await cs.say("s1", phrase="good_luck")
        check(m["type"] == "ack", f"a spectator's phrase: {m}")
        got = chats([await cg.until(lambda m: m["type"] == "chat")])
        check(got[0]["phrase"] == "good_luck" and got[0]["channel"] == "spectators" and got[0]["seat"] == -1, f"{got}")
        check(not [x for x in chats(await ca.drain()) if x["channel"] == "spectators"], "players do not read the spectators' chat")
        check(not [x for x in chats(await cs.drain()) if x["channel"] == "players"], "spectators do not read the players'")
        # refusals
        m = await cg.say("g1", text="hello")
        check(m["type"] == "reject" and m["code"] == "chat_guest", f"a guest at strangers' table: {m}")
        m = await cn.say("n1", text="hello")
        check(m["type"] == "reject" and m["code"] == "chat_account", f"no session: {m}")
        for bad in ({"text": ""}, {"text": "x" * 201}, {"text": "a\u202eb"}, {"phrase": "gl_hf"}, {"text": "a", "phrase": "thanks"}):
            m = await ca.say("bad", **bad)
            check(m["type"] == "reject" and m["code"] == "bad_message", f"{bad}: {m}")
        for i in range(4):
            check((await ca.say(f"burst{i}", phrase="thinking"))["type"] == "ack", "a burst of 5")
        m = await ca.say("burst4", phrase="thinking")
        check(m["type"] == "reject" and m["code"] == "chat_too_fast", f"the sixth in 10 s: {m}")
        # blocks: Bob blocks Ann; from his next hello he reads none of hers
        b.call("POST", "/api/blocks", {"name": "Chat_Ann"})
        await cb.ws.close()
        cb = await Conn(srv, b, gid).open({"seat": sb})
        hist = chats(await cb.drain())
        check(not [x for x in hist if x["player"] != "" and x["name"] == "Chat_Ann"], f"a blocked writer's history is not sent: {hist}")
        b.call("DELETE", "/api/blocks/Chat_Ann")
        st, r, _ = s.call("GET", f"/api/games/{gid}/chat")
        check(st == 200 and {x["channel"] for x in r["messages"]} == {"spectators"}, f"while it goes on: the spectators' only: {r}")
        for c in (ca, cb, cs, cg, cn):
            await c.ws.close()
        return ann_msg

    ann_msg = asyncio.run(run())
    asyncio.run(resign(srv, b, gid, sb))
    st, r, _ = s.call("GET", f"/api/games/{gid}/chat")
    check({x["channel"] for x in r["messages"]} == {"players", "spectators"}, f"once over: both: {r}")
    # the operator removes Ann's message
    out = subprocess.run([BIN, "admin", "chat-remove", ann_msg, "--db", f"sqlite:{db}"], capture_output=True, text=True, timeout=60)
    check(out.returncode == 0, f"chat-remove: {out.stdout} {out.stderr}")
    st, r, _ = s.call("GET", f"/api/games/{gid}/chat")
    check(ann_msg not in [x["id"] for x in r["messages"]], f"removed: {r}")
    out = subprocess.run([BIN, "admin", "chat-remove", ann_msg, "--db", f"sqlite:{db}"], capture_output=True, text=True, timeout=60)
    check(out.returncode != 0 and "no chat message" in out.stderr, f"twice: {out.stdout} {out.stderr}")

    # a table whose host allows guests' chat
    host, _ = acc.guest_and_claim(srv, "Chat_Host", "10.9.3.5")
    st, r, _ = host.call("POST", "/api/tables", {"game": "base", "seats": 2, "clock": "days", "guest_chat": True})
    tid = r["table"]
    st, r, _ = g.call("POST", f"/api/tables/{tid}/join", {})
    check(st == 200 and "game" in r, f"the guest sits: {st} {r}")
    st, t, _ = host.call("GET", f"/api/tables/{tid}")
    check(st == 200 and t["status"] == "started" and t["game_id"] == r["game"] and t["seat"] == 0 and
          t["play"] == f"/play/{r['game']}?seat=0", f"the host finds the started table's game: {st} {t}")
    st, t, _ = acc.Client(srv, "10.9.3.8").call("GET", "/api/tables/nosuchtable")
    check(st == 404 and t["code"] == "unknown_table", f"{st} {t}")

    async def guest_talks():
        c = await Conn(srv, g, r["game"]).open({"seat": r["seat"]})
        m = await c.say("ok", phrase="hello")
        check(m["type"] == "ack", f"a guest where the host allows it: {m}")
        await c.ws.close()

    asyncio.run(guest_talks())

    # reports
    st, rep, _ = s.call("POST", "/api/reports", {"name": "chat_ann", "reason": "abuse", "game": gid, "message": ann_msg, "note": "rude"})
    check(st == 201 and rep["report"], f"report: {st} {rep}")
    for bad, code in (({"name": "Chat_Ann", "reason": "boring"}, 400), ({"name": "Nobody_Here", "reason": "spam"}, 404),
                      ({"name": "Chat_Ann", "reason": "spam", "note": "x" * 501}, 400), ({"name": "Chat_Ann", "reason": "spam", "extra": 1}, 400)):
        st, r, _ = s.call("POST", "/api/reports", bad)
        check(st == code, f"{bad}: {st} {r}")
    for i in range(9):
        st, r, _ = s.call("POST", "/api/reports", {"name": "Chat_Bob", "reason": "spam"})
        check(st == 201, f"report {i}: {st} {r}")
    st, r, h = s.call("POST", "/api/reports", {"name": "Chat_Bob", "reason": "spam"})
    check(st == 429 and r["code"] == "rate_limited" and "Retry-After" in h, f"the eleventh in an hour: {st} {r}")
    out = subprocess.run([BIN, "admin", "reports", "--db", f"sqlite:{db}"], capture_output=True, text=True, timeout=60)
    first = out.stdout.splitlines()[0]
    check(out.returncode == 0 and "Chat_Spec reports Chat_Ann: abuse" in first and "note: rude" in first and "Hi Bob" in first,
          f"the queue: {out.stdout} {out.stderr}")
    out = subprocess.run([BIN, "admin", "report-close", rep["report"], "--db", f"sqlite:{db}"], capture_output=True, text=True, timeout=60)
    check(out.returncode == 0, f"close: {out.stderr}")
    out = subprocess.run([BIN, "admin", "reports", "--db", f"sqlite:{db}"], capture_output=True, text=True, timeout=60)
    check(rep["report"] not in out.stdout and len(out.stdout.splitlines()) == 9, f"closed leaves the queue: {out.stdout}")
    out = subprocess.run([BIN, "admin", "reports", "--all", "--db", f"sqlite:{db}"], capture_output=True, text=True, timeout=60)
    check(rep["report"] in out.stdout and "closed" in out.stdout, f"--all: {out.stdout}")
    print("chat, reports: ok")


def rate_checks(srv):
    h, _ = acc.guest_and_claim(srv, "Rate_Host", "10.9.4.1")
    for i in range(10):
        st, r, _ = h.call("POST", "/api/tables", {"game": "base", "seats": 2})
        check(st == 201, f"table {i}: {st} {r}")
        h.call("POST", f"/api/tables/{r['table']}/leave", {})
    st, r, hd = h.call("POST", "/api/tables", {"game": "base", "seats": 2})
    check(st == 429 and r["code"] == "rate_limited" and int(hd["Retry-After"]) >= 1, f"the 11th table in a minute: {st} {r}")
    for i in range(20):
        st, r, _ = h.call("POST", "/api/pairing", {"game": "base", "seats": 2 + i % 4})
        check(st == 200, f"join {i}: {st} {r}")
    st, r, _ = h.call("POST", "/api/pairing", {"game": "base", "seats": 2})
    check(st == 429 and r["code"] == "rate_limited", f"the 21st join in a minute: {st} {r}")
    h.call("DELETE", "/api/pairing")
    print("rate limits: ok")


def two_processes(url):
    """Two servers on one PostgreSQL: a lobby on one sees the other's tables, a pool joined on both
    pairs once, and the turns of a game are listed by the process that does not hold it."""
    a_srv = acc.Server(url, "--pairing-wave-ms", "300", "--lobby-ms", "500")
    b_srv = acc.Server(url, "--pairing-wave-ms", "300", "--lobby-ms", "500")
    ann, _ = acc.guest_and_claim(a_srv, "Two_Ann", "10.10.0.1")
    bob, _ = acc.guest_and_claim(b_srv, "Two_Bob", "10.10.0.2")

    def on(srv, c):  # the same browser, through the other process
        other = acc.Client(srv, c.addr)
        other.cookie = c.cookie
        return other

    async def lobby():
        ws = await websockets.connect(f"ws://127.0.0.1:{b_srv.port}/ws/lobby", extra_headers=headers(b_srv, bob))
        await ws.send(json.dumps({"type": "hello"}))
        check(json.loads(await ws.recv())["full"], "the whole lobby")
        st, r, _ = ann.call("POST", "/api/tables", {"game": "safari", "seats": 2, "clock": "days"})
        check(st == 201, f"a table on the first process: {st} {r}")
        end = time.monotonic() + 30
        while time.monotonic() < end:
            m = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if m["type"] == "lobby" and any(t["id"] == r["table"] for t in m["added"]):
                break
        else:
            fail("the second process's lobby never showed the first's table")
        ann.call("POST", f"/api/tables/{r['table']}/leave", {})
        await ws.close()

    asyncio.run(lobby())
    gid, sa, sb = pair(a_srv, ann, bob, {"game": "base", "seats": 2, "clock": "days"})
    for c in (ann, bob, on(b_srv, ann), on(a_srv, bob)):
        st, mine, _ = c.call("GET", "/api/me/games")
        check([g["id"] for g in mine["games"]].count(gid) == 1, f"seated once: {mine}")
    turns = [on(srv, c).call("GET", "/api/me/turns")[1] for srv in (a_srv, b_srv) for c in (ann, bob)]
    check([len(t["turns"]) for t in turns] in ([1, 0, 1, 0], [0, 1, 0, 1]), f"both processes list the same turns: {turns}")
    check(turns[0]["turns"] == turns[2]["turns"] or turns[1]["turns"] == turns[3]["turns"], f"{turns}")
    a_srv.stop()
    b_srv.stop()
    print("server_place (two processes on PostgreSQL): ok")


def main():
    if "--pg" in sys.argv:
        return two_processes(os.environ["CARC_PG_URL"])
    db = os.path.join(acc.TMP, "place.db")
    srv = acc.Server(db, "--pairing-wave-ms", "300", "--lobby-ms", "500", "--correspondence-cap", "2")
    lobby_checks(srv)
    turns_checks(srv)
    ratings_checks(srv, db)
    chat_checks(srv, db)
    rate_checks(srv)
    srv.stop()
    print("server_place: ok")


if __name__ == "__main__":
    main()
