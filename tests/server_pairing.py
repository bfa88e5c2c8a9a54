#!/usr/bin/python3
"""Quick pairing, blocks, rated games and ratings over real sockets on loopback (docs/pairing.md,
docs/ratings.md, docs/server-protocol.md "Quick pairing"): two accounts in a rated pool are paired
by a wave, open their seats without tokens, one resigns, and both ratings move as the Weng-Lin
Plackett-Luce model says (checked here against the model's formulas, and against `carcassonne
ratings rebuild --check`); a player never meets one they blocked; guests pair only with guests and
never in rated pools; open tables filled by players and bots start their game, refuse a blocked
player, and close when their host leaves.

No check depends on the machine being quiet: waves run every 300 ms and the test waits for a state
with a deadline of many seconds. Every server this test starts dies with it.

usage: server_pairing.py BUILD/carcassonne
"""
import asyncio
import math
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import server_accounts as acc  # noqa: E402  (the Server and Client helpers, the claim)

import websockets  # noqa: E402

check, fail, wait_for = acc.check, acc.fail, acc.wait_for
BIN = acc.BIN


def status(c):
    st, r, _ = c.call("GET", "/api/pairing")
    check(st == 200, f"pairing status: {st} {r}")
    return r


def pl_two(winner, loser, beta=25 / 6, tau=25 / 300, kappa=1e-4):
    """The Weng-Lin Plackett-Luce step for two players, from (mu, sigma) priors, tau first."""
    (mw, sw), (ml, sl) = winner, loser
    sw, sl = math.sqrt(sw * sw + tau * tau), math.sqrt(sl * sl + tau * tau)
    c = math.sqrt(sw * sw + sl * sl + 2 * beta * beta)
    ew, el = math.exp(mw / c), math.exp(ml / c)
    out = []
    for mu, s, mine, win in ((mw, sw, ew, True), (ml, sl, el, False)):
        if win:  # ranked first: only q = itself, sum over both
            p = mine / (ew + el)
            omega = s * s / c * (1 - p)
            delta = (s / c) * s * s / c / c * p * (1 - p)
        else:  # ranked second: q = winner (sum both) and itself (sum itself)
            pw, ps = mine / (ew + el), 1.0
            omega = s * s / c * (-pw + (1 - ps))
            delta = (s / c) * s * s / c / c * (pw * (1 - pw) + ps * (1 - ps))
        out.append((mu + omega, s * math.sqrt(max(1 - delta, kappa))))
    return out


def main():
    db = os.path.join(acc.TMP, "pairing.db")
    srv = acc.Server(db, "--pairing-wave-ms", "300")

    # --- rated pool: two accounts are paired by a wave
    a, me_a = acc.guest_and_claim(srv, "Pair_Ann", "10.7.0.1")
    b, me_b = acc.guest_and_claim(srv, "Pair_Bob", "10.7.0.2")
    pool = {"game": "base", "seats": 2, "clock": "realtime", "rated": True}
    for c in (a, b):
        st, r, _ = c.call("POST", "/api/pairing", pool)
        check(st == 200 and r["status"] in ("waiting", "paired"), f"join: {st} {r}")
    ra = wait_for(lambda: (lambda s: s if s["status"] == "paired" else None)(status(a)), "Ann paired")
    rb = wait_for(lambda: (lambda s: s if s["status"] == "paired" else None)(status(b)), "Bob paired")
    check(ra["game"] == rb["game"] and {ra["seat"], rb["seat"]} == {0, 1}, f"one table: {ra} {rb}")
    gid = ra["game"]
    st, mine, _ = a.call("GET", "/api/me/games")
    check([g["id"] for g in mine["games"]] == [gid], f"the paired game is in Ann's games: {mine}")

    # both open their seats without a token; Ann resigns: Bob wins a rated game
    async def play():
        hdr = lambda c: {"Origin": f"http://127.0.0.1:{srv.port}", "Cookie": c.cookie, "X-Forwarded-For": c.addr}
        async with websockets.connect(f"ws://127.0.0.1:{srv.port}/ws/{gid}", extra_headers=hdr(a)) as wa, \
                websockets.connect(f"ws://127.0.0.1:{srv.port}/ws/{gid}", extra_headers=hdr(b)) as wb:
            await wa.send(acc.json.dumps({"type": "hello", "seat": ra["seat"]}))
            await wb.send(acc.json.dumps({"type": "hello", "seat": rb["seat"]}))
            seq = None
            while True:
                m = acc.json.loads(await wa.recv())
                if m["type"] == "welcome":
                    check(m["seat"] == ra["seat"], f"Ann's seat: {m}")
                if m["type"] == "events":
                    seq = m["seq"]
                    break
            await wa.send(acc.json.dumps({"type": "resign", "cid": "r1", "at": seq}))
            while True:
                m = acc.json.loads(await wa.recv())
                if m["type"] == "ack":
                    return
                check(m["type"] not in ("reject", "error"), f"resign: {m}")

    asyncio.run(play())

    def rating_of(name):
        st, r, _ = acc.Client(srv, "10.7.0.9", origin=None).call("GET", f"/api/players/{name}")
        check(st == 200, f"profile {name}: {st} {r}")
        return r["ratings"][0] if r["ratings"] else None

    bob = wait_for(lambda: rating_of("Pair_Bob"), "Bob's rating")
    ann = rating_of("Pair_Ann")
    (wmu, wsig), (lmu, lsig) = pl_two((25, 25 / 3), (25, 25 / 3))
    check(bob["bucket"] == "base/2" and bob["games"] == 1 and ann["games"] == 1, f"{bob} {ann}")
    check(abs(bob["mu"] - wmu) < 1e-9 and abs(bob["sigma"] - wsig) < 1e-9, f"Bob as the model says: {bob} vs {wmu}, {wsig}")
    check(abs(ann["mu"] - lmu) < 1e-9 and abs(ann["sigma"] - lsig) < 1e-9, f"Ann as the model says: {ann} vs {lmu}, {lsig}")
    check(bob["rating"] == round(1500 + 24 * (wmu - 3 * wsig)) and bob["provisional"], f"display: {bob}")
    st, prof, _ = acc.Client(srv, "10.7.0.9", origin=None).call("GET", "/api/players/Pair_Bob")
    check(len(prof["history"]) == 1 and prof["history"][0]["game"] == gid, f"history: {prof}")
    out = subprocess.run([BIN, "ratings", "rebuild", "--check", "--db", f"sqlite:{db}"], capture_output=True, text=True, timeout=60)
    check(out.returncode == 0 and "equal the rebuild" in out.stdout, f"rebuild --check: {out.stdout} {out.stderr}")

    # --- a blocked player is never paired with the blocker
    c3, _ = acc.guest_and_claim(srv, "Block_Cat", "10.7.1.1")
    c4, _ = acc.guest_and_claim(srv, "Block_Dan", "10.7.1.2")
    st, r, _ = c3.call("POST", "/api/blocks", {"name": "block_dan"})
    check(st == 200 and r["blocked"] == "Block_Dan", f"block: {st} {r}")
    st, r, _ = c3.call("GET", "/api/blocks")
    check(r["blocked"] == ["Block_Dan"], f"blocks: {r}")
    casual3 = {"game": "amazonas", "seats": 2, "clock": "days", "rated": False}
    for c in (c3, c4):
        c.call("POST", "/api/pairing", casual3)
    wait_for(lambda: status(c3).get("waves", 0) >= 8 and status(c4).get("waves", 0) >= 8, "eight waves missed")
    check(status(c3)["status"] == "waiting" and status(c4)["status"] == "waiting", "blocked: never seated together")
    c5, _ = acc.guest_and_claim(srv, "Block_Eve", "10.7.1.3")
    c5.call("POST", "/api/pairing", casual3)
    r5 = wait_for(lambda: (lambda s: s if s["status"] == "paired" else None)(status(c5)), "Eve paired")
    seated = [c for c in (c3, c4) if status(c)["status"] == "paired"]
    check(len(seated) == 1 and status(seated[0])["game"] == r5["game"], "Eve sits with one of them")
    st, r, _ = c3.call("DELETE", "/api/blocks/Block_Dan")
    check(st == 200, f"unblock: {st} {r}")

    # --- guests: never rated, never with accounts
    g = acc.Client(srv, "10.7.2.1")
    g.call("POST", "/api/session", {})
    st, r, _ = g.call("POST", "/api/pairing", pool)
    check(st == 403 and r["code"] == "rated_needs_account", f"a guest in a rated pool: {st} {r}")
    casual = {"game": "hunters", "seats": 2, "clock": "realtime", "rated": False}
    st, r, _ = g.call("POST", "/api/pairing", casual)
    check(st == 200, f"a guest in a casual pool: {st} {r}")
    h, _ = acc.guest_and_claim(srv, "Casual_Hal", "10.7.2.2")
    h.call("POST", "/api/pairing", casual)
    wait_for(lambda: status(g).get("waves", 0) >= 5, "five waves")
    check(status(g)["status"] == "waiting" and status(h)["status"] == "waiting", "a guest and an account are not paired")
    g2 = acc.Client(srv, "10.7.2.3")
    g2.call("POST", "/api/session", {})
    g2.call("POST", "/api/pairing", casual)
    r2 = wait_for(lambda: (lambda s: s if s["status"] == "paired" else None)(status(g2)), "two guests paired")
    check(status(g)["game"] == r2["game"], "the guests sit together")
    st, r, _ = h.call("DELETE", "/api/pairing")
    check(st == 200 and r["left"] and status(h)["status"] == "none", f"leave: {r}")
    st, r, _ = h.call("POST", "/api/pairing", {"game": "chess", "seats": 2})
    check(st == 400, f"an unknown game: {st} {r}")
    st, r, _ = h.call("POST", "/api/pairing", {"game": "base", "seats": 9})
    check(st == 400, f"nine seats: {st} {r}")
    # --- open tables: open, listed, joined until full, then the game starts with bound seats
    host, _ = acc.guest_and_claim(srv, "Table_Host", "10.8.0.1")
    st, r, _ = host.call("POST", "/api/tables", {"game": "safari", "seats": 3, "bots": ["easy"], "clock": "days"})
    check(st == 201, f"open a table: {st} {r}")
    tid = r["table"]
    st, r, _ = host.call("POST", "/api/tables", {"game": "base", "seats": 2, "bots": ["easy"], "rated": True})
    check(st == 400 and "bots" in r["message"], f"a rated table with bots: {st} {r}")
    st, r, _ = host.call("POST", "/api/tables", {"game": "base", "seats": 2, "bots": ["grandmaster"]})
    check(st == 400 and "bots[0]" in r["message"], f"a bad level: {st} {r}")
    st, lst, _ = host.call("GET", "/api/tables")
    mine = [t for t in lst["tables"] if t["id"] == tid]
    check(mine and mine[0]["players"] == ["Table_Host"] and mine[0]["bots"] == ["easy"], f"listed: {lst}")
    blocker, _ = acc.guest_and_claim(srv, "Table_Blocker", "10.8.0.2")
    blocker.call("POST", "/api/blocks", {"name": "Table_Host"})
    st, r, _ = blocker.call("POST", f"/api/tables/{tid}/join", {})
    check(st == 403 and r["code"] == "blocked", f"a blocked player cannot sit with the host: {st} {r}")
    guest = acc.Client(srv, "10.8.0.3")
    guest.call("POST", "/api/session", {})
    st, r, _ = guest.call("POST", f"/api/tables/{tid}/join", {})
    check(st == 200 and r["seat"] == 1 and "game" in r, f"the last free seat starts the game: {st} {r}")
    gid2 = r["game"]
    st, r, _ = guest.call("POST", f"/api/tables/{tid}/join", {})
    check(st == 409 and r["code"] == "table_closed", f"a started table: {st} {r}")
    st, mine, _ = host.call("GET", "/api/me/games")
    check(any(g["id"] == gid2 and g["seat"] == 0 for g in mine["games"]), f"the host's games: {mine}")
    st, mine, _ = guest.call("GET", "/api/me/games")
    check(any(g["id"] == gid2 and g["seat"] == 1 for g in mine["games"]), f"the guest's games: {mine}")
    st, lst, _ = host.call("GET", "/api/tables")
    check(all(t["id"] != tid for t in lst["tables"]), "a started table leaves the list")
    # the host leaving closes the table; a guest cannot open a rated one
    st, r, _ = host.call("POST", "/api/tables", {"game": "base", "seats": 2, "clock": "days"})
    t2 = r["table"]
    st, r, _ = host.call("POST", f"/api/tables/{t2}/leave", {})
    check(st == 200, f"leave: {st} {r}")
    st, r, _ = guest.call("POST", f"/api/tables/{t2}/join", {})
    check(st == 409, f"a closed table: {st} {r}")
    st, r, _ = guest.call("POST", "/api/tables", {"game": "base", "seats": 2, "rated": True})
    check(st == 403 and r["code"] == "rated_needs_account", f"{st} {r}")
    # a host keeps at most 3 open tables
    for i in range(3):
        st, r, _ = guest.call("POST", "/api/tables", {"game": "base", "seats": 2, "clock": "days"})
        check(st == 201, f"table {i + 1}: {st} {r}")
    st, r, _ = guest.call("POST", "/api/tables", {"game": "base", "seats": 2, "clock": "days"})
    check(st == 409 and r["code"] == "too_many_tables", f"a 4th open table: {st} {r}")
    srv.stop()
    print("server_pairing: ok")


if __name__ == "__main__":
    main()
