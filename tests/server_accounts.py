#!/usr/bin/python3
"""Players and sessions over real sockets on loopback (docs/server-protocol.md, "Players and
sessions"; docs/security.md): a guest's session and its cookie, claiming an account, log in and out,
the same answer and the same work for an unknown name and a wrong password, the login limits at
their documented thresholds (client addresses told apart through --trust-proxy's X-Forwarded-For),
a stranger who cannot lock the owner out, sessions that end on logout, password change and ban,
recovery codes and the operator's reset link used once, a foreign Origin refused for a POST and a
WebSocket, account deletion, and the store's migrations on SQLite.

No check depends on the machine being quiet: nothing is timed. Every server this test starts dies
with it (PR_SET_PDEATHSIG, and killed at exit however the test ends).

usage: server_accounts.py BUILD/carcassonne
"""
import asyncio
import atexit
import ctypes
import http.client
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

import websockets

BIN = sys.argv[1]
TMP = tempfile.mkdtemp(prefix="carc-accounts-")
SERVERS = []
_libc = ctypes.CDLL(None, use_errno=True)


def cleanup():
    for p in SERVERS:
        if p.poll() is None:
            p.kill()
            p.wait()


atexit.register(cleanup)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def wait_for(cond, what, seconds=60):
    """cond()'s first true value, asked every 0.2 s for up to `seconds` (a state, never a sleep)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.2)
    fail(f"not within {seconds} s: {what}")


class Server:
    def __init__(self, db, *extra):
        """db: an SQLite file, or a postgresql:// URL (several servers may share it)."""
        self.db = db
        url = db if db.startswith("postgresql://") else f"sqlite:{db}"
        self.log = os.path.join(TMP, f"server{len(SERVERS)}.log") if url == db else db + ".log"
        args = [BIN, "serve", "--listen", "127.0.0.1:0", "--db", url, "--trust-proxy", "127.0.0.1",
                "--workers", "0", *extra]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=open(self.log, "w"), text=True,
                                     preexec_fn=lambda: _libc.prctl(1, signal.SIGKILL))
        SERVERS.append(self.proc)
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", self.proc.stdout.readline())
        if not m:
            fail("serve did not start: " + open(self.log).read())
        self.port = int(m.group(1))

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=30)


class Client:
    """A browser's cookie jar, at one client address (X-Forwarded-For, trusted from 127.0.0.1)."""

    def __init__(self, srv, addr="10.0.0.1", origin=True):
        self.srv, self.addr, self.cookie = srv, addr, None
        self.origin = f"http://127.0.0.1:{srv.port}" if origin is True else origin

    def call(self, method, path, body=None, headers=None):
        c = http.client.HTTPConnection("127.0.0.1", self.srv.port, timeout=60)
        h = {"X-Forwarded-For": self.addr}
        if self.origin:
            h["Origin"] = self.origin
        if self.cookie:
            h["Cookie"] = self.cookie
        if body is not None:
            h["Content-Type"] = "application/json"
        h.update(headers or {})
        c.request(method, path, None if body is None else json.dumps(body), h)
        r = c.getresponse()
        text = r.read().decode()
        for k, v in r.getheaders():
            if k.lower() == "set-cookie":
                self.set_cookie = v
                name_value = v.split(";")[0]
                self.cookie = None if name_value.endswith("=") else name_value
        c.close()
        try:
            return r.status, json.loads(text), dict(r.getheaders())
        except ValueError:
            return r.status, text, dict(r.getheaders())


def metric(srv, name):
    c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
    c.request("GET", "/metrics")
    text = c.getresponse().read().decode()
    m = re.search(rf"^{name} (\d+)", text, re.M)
    check(m, f"/metrics has no {name}")
    return int(m.group(1))


PASSWORD = "tile-laying meadow 42"


def guest_and_claim(srv, name, addr="10.0.0.1"):
    a = Client(srv, addr)
    st, me, _ = a.call("POST", "/api/session", {})
    check(st == 201 and me["guest"], f"a guest: {st} {me}")
    st, me, _ = a.call("POST", "/api/account/claim", {"name": name, "password": PASSWORD})
    check(st == 200 and me["name"] == name and not me["guest"], f"claim {name}: {st} {me}")
    return a, me


def main():
    db = os.path.join(TMP, "a.db")
    srv = Server(db)

    # --- a guest on the first visit: a session in an HttpOnly, SameSite=Lax cookie
    a = Client(srv)
    st, me, _ = a.call("GET", "/api/me")
    check(st == 401 and me["code"] == "no_session", f"no session yet: {st} {me}")
    st, me, _ = a.call("POST", "/api/session", {})
    check(st == 201 and me["guest"] and me["name"] is None and 0 <= me["number"] < 10000, f"guest: {st} {me}")
    for part in ("HttpOnly", "SameSite=Lax", "Path=/"):
        check(part in a.set_cookie, f"the session cookie lacks {part}: {a.set_cookie}")
    check("Secure" not in a.set_cookie and a.set_cookie.startswith("carc_session="), a.set_cookie)
    secret = a.cookie.split("=", 1)[1]
    check(len(secret) >= 22, f"a session id of at least 128 bits: {secret}")
    guest = me["player"]
    st, me, _ = a.call("POST", "/api/session", {})
    check(st == 200 and me["player"] == guest, f"the same session: {st} {me}")
    # the store keeps only the session id's hash
    rows = sqlite3.connect(db).execute("SELECT id_hash FROM sessions").fetchall()
    check(rows and all(secret not in r[0] for r in rows), "a session id stored in clear")

    # --- claiming: names and passwords refused with their codes, then an account with its codes
    for name, code in (("admin", "username_reserved"), ("a", "username_length"), ("x" * 31, "username_length"),
                       ("bad name", "username_chars")):
        st, r, _ = a.call("POST", "/api/account/claim", {"name": name, "password": PASSWORD})
        check(st == 400 and r["code"] == code, f"claim as {name!r}: {st} {r}")
    for pw, code in (("short", "password_short"), ("password123", "password_common"), ("Meeple_Joe", "password_username")):
        st, r, _ = a.call("POST", "/api/account/claim", {"name": "Meeple_Joe", "password": pw})
        check(st == 400 and r["code"] == code, f"password {pw!r}: {st} {r}")
    st, r, _ = a.call("POST", "/api/account/claim", {"name": "Meeple_Joe", "password": PASSWORD, "extra": 1})
    check(st == 400 and "extra" in r["message"], f"an unknown field: {st} {r}")
    guest_cookie = a.cookie
    st, me, _ = a.call("POST", "/api/account/claim", {"name": "Meeple_Joe", "password": PASSWORD})
    check(st == 200 and me["player"] == guest and me["name"] == "Meeple_Joe", f"claimed: {st} {me}")
    check(a.cookie != guest_cookie, "claiming gives the session a new id")
    fixated = Client(srv)
    fixated.cookie = guest_cookie
    check(fixated.call("GET", "/api/me")[0] == 401, "the guest's session id ends at the claim")
    codes = me["recovery_codes"]
    check(len(codes) == 8 and len(set(codes)) == 8, f"8 recovery codes: {codes}")
    stored = sqlite3.connect(db).execute("SELECT password FROM players WHERE id = ?", (guest,)).fetchone()[0]
    check(stored.startswith("$argon2id$v=19$m=65536,t=2,"), f"Argon2id at 64 MiB, 2 passes: {stored[:40]}")
    st, me, _ = a.call("GET", "/api/me")
    check(st == 200 and "recovery_codes" not in me and me["recovery_codes_left"] == 8, f"codes shown once: {me}")
    b = Client(srv, "10.0.0.2")
    b.call("POST", "/api/session", {})
    st, r, _ = b.call("POST", "/api/account/claim", {"name": "meeple_joe", "password": PASSWORD})
    check(st == 409 and r["code"] == "name_taken", f"names are unique whatever their case: {st} {r}")

    # --- log in: a new session id; the same answer and the same work for unknown and wrong
    before = metric(srv, "carc_password_checks_total")
    st, r1, _ = b.call("POST", "/api/login", {"name": "nobody_here", "password": PASSWORD})
    st2, r2, _ = b.call("POST", "/api/login", {"name": "MEEPLE_JOE", "password": "wrong password 1"})
    check(st == st2 == 401 and r1 == r2 and r1["code"] == "bad_login", f"unknown and wrong: {st} {r1} / {st2} {r2}")
    check(metric(srv, "carc_password_checks_total") == before + 2, "an unknown name costs a password check too")
    old = b.cookie
    st, me, _ = b.call("POST", "/api/login", {"name": "meeple_joe", "password": PASSWORD})
    check(st == 200 and me["player"] == guest and b.cookie != old, f"log in: {st} {me}")
    stale = Client(srv, "10.0.0.2")
    stale.cookie = old
    check(stale.call("GET", "/api/me")[0] == 401, "the session before the login ended with it")

    # --- sessions: listed, one ended from another
    st, r, _ = a.call("GET", "/api/account/sessions")
    check(st == 200 and len(r["sessions"]) == 2 and sum(s["current"] for s in r["sessions"]) == 1, f"sessions: {r}")
    other = next(s["id"] for s in r["sessions"] if not s["current"])
    st, r, _ = a.call("DELETE", f"/api/account/sessions/{other}")
    check(st == 200, f"end this one: {st} {r}")
    check(b.call("GET", "/api/me")[0] == 401, "the ended session is refused")
    st, r, _ = a.call("DELETE", "/api/account/sessions/nosuchsession")
    check(st == 404 and r["code"] == "unknown_session", f"{st} {r}")

    # --- logout ends the session on the server, not only the cookie
    b.call("POST", "/api/login", {"name": "meeple_joe", "password": PASSWORD})
    kept = b.cookie
    st, r, _ = b.call("POST", "/api/logout", {})
    check(st == 200 and b.cookie is None, f"logout: {st} {r} {b.set_cookie}")
    replay = Client(srv, "10.0.0.2")
    replay.cookie = kept
    check(replay.call("GET", "/api/me")[0] == 401, "a logged-out session id is refused")

    # --- password change asks the current one and ends every other session
    b.call("POST", "/api/login", {"name": "meeple_joe", "password": PASSWORD})
    st, r, _ = a.call("POST", "/api/account/password", {"current": "not it at all", "password": "a new password 7"})
    check(st == 403 and r["code"] == "bad_password", f"{st} {r}")
    st, r, _ = a.call("POST", "/api/account/password", {"current": PASSWORD, "password": "a new password 7"})
    check(st == 200, f"password changed: {st} {r}")
    check(b.call("GET", "/api/me")[0] == 401, "password change ends the other sessions")
    check(a.call("GET", "/api/me")[0] == 200, "the session that changed it goes on (with a new id)")

    # --- recovery codes: each works once
    c = Client(srv, "10.0.0.3")
    st, r, _ = c.call("POST", "/api/account/recover", {"name": "meeple_joe", "code": codes[0].upper(), "password": "recovered pass 1"})
    check(st == 200 and r["recovery_codes_left"] == 7, f"recover: {st} {r}")
    check(a.call("GET", "/api/me")[0] == 401, "recovery ends the other sessions")
    st, r, _ = c.call("POST", "/api/account/recover", {"name": "meeple_joe", "code": codes[0], "password": "recovered pass 2"})
    check(st == 401 and r["code"] == "bad_recovery", f"a used code: {st} {r}")

    # --- the operator's reset link: works once
    out = subprocess.run([BIN, "admin", "reset-link", "meeple_joe", "--db", f"sqlite:{db}", "--base", "https://example.org"],
                         capture_output=True, text=True, timeout=60)
    check(out.returncode == 0 and out.stdout.startswith("https://example.org/account/reset#"), f"reset-link: {out}")
    token = out.stdout.strip().split("#", 1)[1]
    d = Client(srv, "10.0.0.4")
    st, r, _ = d.call("POST", "/api/account/reset", {"token": token, "password": "short"})
    check(st == 400 and r["code"] == "password_short", f"a refused password: {st} {r}")
    st, r, _ = d.call("POST", "/api/account/reset", {"token": token, "password": "from the reset link"})
    check(st == 200 and r["name"] == "Meeple_Joe", f"the link still works after a refused password: {st} {r}")
    st, r, _ = d.call("POST", "/api/account/reset", {"token": token, "password": "from the reset link 2"})
    check(st == 403 and r["code"] == "bad_reset", f"a reset link works once: {st} {r}")
    out = subprocess.run([BIN, "admin", "reset-link", "nobody_here", "--db", f"sqlite:{db}"], capture_output=True, text=True, timeout=60)
    check(out.returncode == 2 and "nobody_here" in out.stderr, f"reset-link of no account: {out}")

    # --- ban: sessions end, no login; unban
    check(d.call("GET", "/api/me")[0] == 200, "d is logged in")
    out = subprocess.run([BIN, "admin", "ban", "meeple_joe", "--db", f"sqlite:{db}"], capture_output=True, text=True, timeout=60)
    check(out.returncode == 0, f"ban: {out}")
    check(d.call("GET", "/api/me")[0] == 401, "a ban ends the sessions")
    st, r, _ = d.call("POST", "/api/login", {"name": "meeple_joe", "password": "from the reset link"})
    check(st == 403 and r["code"] == "banned", f"a banned account cannot log in: {st} {r}")
    subprocess.run([BIN, "admin", "unban", "meeple_joe", "--db", f"sqlite:{db}"], check=True, capture_output=True, timeout=60)
    st, r, _ = d.call("POST", "/api/login", {"name": "meeple_joe", "password": "from the reset link"})
    check(st == 200, f"unbanned: {st} {r}")

    # --- CSRF: a foreign Origin is refused for a POST and a WebSocket; a cookie needs an Origin
    evil = Client(srv, "10.0.0.5", origin="https://evil.example")
    evil.cookie = d.cookie
    st, r, _ = evil.call("POST", "/api/logout", {})
    check(st == 403 and r["code"] == "bad_origin", f"foreign origin POST: {st} {r}")
    check(d.call("GET", "/api/me")[0] == 200, "the foreign POST changed nothing")
    blind = Client(srv, "10.0.0.5", origin=None)
    blind.cookie = d.cookie
    st, r, _ = blind.call("POST", "/api/logout", {})
    check(st == 403 and r["code"] == "bad_origin", f"a cookie without Origin: {st} {r}")
    st, r, _ = Client(srv, "10.0.0.5", origin=None).call("GET", "/api/catalog")
    check(st == 200, "a GET without Origin (not a browser) is fine")

    async def ws_origin():
        try:
            async with websockets.connect(f"ws://127.0.0.1:{srv.port}/ws/nogame", origin="https://evil.example"):
                fail("a WebSocket from a foreign origin was accepted")
        except websockets.exceptions.InvalidStatusCode as e:
            check(e.status_code == 403, f"foreign WebSocket: {e.status_code}")
        async with websockets.connect(f"ws://127.0.0.1:{srv.port}/ws/nogame", origin=f"http://127.0.0.1:{srv.port}") as ws:
            await ws.send(json.dumps({"type": "hello"}))
            got = json.loads(await ws.recv())
            check(got.get("code") == "unknown_game", f"own origin WebSocket: accepted, then {got}")

    asyncio.run(ws_origin())

    # --- seats bound to players: "your games", and your seat on another device without its token
    p1, me1 = guest_and_claim(srv, "Seat_Owner", "10.6.0.1")
    st, game, _ = Client(srv, "10.6.0.9", origin=None).call(
        "POST", "/api/games", {"game": "base", "seats": [{"name": "Ann"}, {"name": "Bob"}]})
    check(st == 201, f"a game: {st} {game}")
    gid, tok0 = game["id"], game["seats"][0]["token"]

    async def hello(client, **fields):
        headers = {"Origin": f"http://127.0.0.1:{srv.port}", "X-Forwarded-For": client.addr}
        if client.cookie:
            headers["Cookie"] = client.cookie
        async with websockets.connect(f"ws://127.0.0.1:{srv.port}/ws/{gid}", extra_headers=headers) as ws:
            await ws.send(json.dumps({"type": "hello", **fields}))
            return json.loads(await ws.recv())

    w = asyncio.run(hello(p1, token=tok0))
    check(w["type"] == "welcome" and w["seat"] == 0, f"the owner opens seat 0 with its token: {w}")
    st, mine, _ = p1.call("GET", "/api/me/games")
    check(st == 200 and [(g["id"], g["seat"]) for g in mine["games"]] == [(gid, 0)], f"your games: {mine}")
    other_device = Client(srv, "10.6.0.2")
    st, _, _ = other_device.call("POST", "/api/login", {"name": "Seat_Owner", "password": PASSWORD})
    check(st == 200, "the owner logs in on another device")
    w = asyncio.run(hello(other_device, seat=0))
    check(w["type"] == "welcome" and w["seat"] == 0, f"the owner's seat without its token on another device: {w}")
    stranger, _ = guest_and_claim(srv, "Seat_Stranger", "10.6.0.3")
    w = asyncio.run(hello(stranger, seat=0))
    check(w["type"] == "error" and w["code"] == "not_your_seat", f"another player's seat: {w}")
    w = asyncio.run(hello(stranger, seat=1))
    check(w["type"] == "error" and w["code"] == "not_your_seat", f"a seat nobody opened yet: {w}")
    w = asyncio.run(hello(Client(srv, "10.6.0.4"), seat=0))
    check(w["type"] == "error" and w["code"] == "not_your_seat", f"no session: {w}")
    asyncio.run(hello(stranger, token=tok0))  # the token still opens the seat (it is the invite)...
    st, mine, _ = stranger.call("GET", "/api/me/games")
    check(mine["games"] == [], f"...but the seat stays its first player's: {mine}")

    # --- login limits at their thresholds (docs/security.md, "Login limits")
    guest_and_claim(srv, "Owner_1", "10.1.0.1")  # the owner logs in from 10.1.0.1
    # one address, one account: 5 failures, then 429 with Retry-After
    x = Client(srv, "10.2.0.1")
    for i in range(5):
        st, r, _ = x.call("POST", "/api/login", {"name": "Owner_1", "password": f"wrong guess {i}"})
        check(st == 401, f"failure {i + 1}: {st} {r}")
    st, r, h = x.call("POST", "/api/login", {"name": "Owner_1", "password": PASSWORD})
    check(st == 429 and r["code"] == "login_limited" and int(h["Retry-After"]) > 0, f"the 6th try: {st} {r}")
    # strangers at many addresses: the account is refused to unknown addresses after 20 failures,
    # but the owner's known address still logs in
    for i in range(15):
        st, r, _ = Client(srv, f"10.3.0.{i + 1}").call("POST", "/api/login", {"name": "Owner_1", "password": f"guess {i}"})
        check(st == 401, f"stranger {i}: {st} {r}")
    st, r, _ = Client(srv, "10.3.1.1").call("POST", "/api/login", {"name": "Owner_1", "password": PASSWORD})
    check(st == 429, f"the account's limit for unknown addresses: {st} {r}")
    st, r, _ = Client(srv, "10.1.0.1").call("POST", "/api/login", {"name": "Owner_1", "password": PASSWORD})
    check(st == 200, f"the owner at a known address is not locked out: {st} {r}")
    # one address across accounts: 30 failures, then 429 for any account
    y = Client(srv, "10.4.0.1")
    for i in range(30):
        st, r, _ = y.call("POST", "/api/login", {"name": f"someone_{i % 6}", "password": f"guess {i}"})
        check(st == 401, f"address failure {i + 1}: {st} {r}")
    st, r, _ = y.call("POST", "/api/login", {"name": "someone_else", "password": PASSWORD})
    check(st == 429, f"the address limit: {st} {r}")

    # --- account deletion keeps the player's row (its games) with the name gone
    e, me = guest_and_claim(srv, "Leaving_Player", "10.5.0.1")
    st, r, _ = e.call("POST", "/api/account/delete", {"password": "wrong one here"})
    check(st == 403, f"delete asks the password: {st} {r}")
    st, r, _ = e.call("POST", "/api/account/delete", {"password": PASSWORD})
    check(st == 200 and e.cookie is None, f"deleted: {st} {r}")
    row = sqlite3.connect(db).execute("SELECT name, name_key, password, deleted FROM players WHERE id = ?", (me["player"],)).fetchone()
    check(row[0] is None and row[1] is None and row[2] is None and row[3], f"deleted row: {row}")
    st, r, _ = Client(srv, "10.5.0.2").call("POST", "/api/login", {"name": "Leaving_Player", "password": PASSWORD})
    check(st == 401, f"a deleted account cannot log in: {st}")

    # --- the log holds no password, recovery code or session id (ASVS 7.1.1)
    log = open(srv.log).read()
    check("refused" in log, "the log has the refusals")
    for secret in [PASSWORD, "a new password 7", "recovered pass 1", "from the reset link", token, codes[1],
                   (a.cookie or "x=none-here").split("=", 1)[1], (d.cookie or "x=none-here").split("=", 1)[1]]:
        check(secret not in log, f"a secret in the server's log: {secret[:6]}...")

    # --- behind TLS: the cookie is __Host- prefixed and Secure
    tls = Server(os.path.join(TMP, "tls.db"), "--secure-cookies")
    t = Client(tls)
    st, me, _ = t.call("POST", "/api/session", {})
    check(st == 201 and t.set_cookie.startswith("__Host-carc_session=") and "; Secure" in t.set_cookie, t.set_cookie)
    check(t.call("GET", "/api/me")[0] == 200, "the __Host- cookie opens the session")
    plain = Client(tls)
    plain.cookie = "carc_session=" + t.cookie.split("=", 1)[1]
    check(plain.call("GET", "/api/me")[0] == 401, "the plain cookie name is not read under --secure-cookies")
    tls.stop()

    # --- migrations recorded; a restart applies none again
    versions = [v for (v,) in sqlite3.connect(db).execute("SELECT version FROM schema_migrations ORDER BY version")]
    check(versions == list(range(2, len(versions) + 2)) and len(versions) >= 3, f"migrations: {versions}")
    srv.stop()
    srv = Server(db)
    versions2 = [v for (v,) in sqlite3.connect(db).execute("SELECT version FROM schema_migrations ORDER BY version")]
    check(versions2 == versions, "a restart applies no migration twice")
    st, r, _ = Client(srv, "10.1.0.1").call("POST", "/api/login", {"name": "Owner_1", "password": PASSWORD})
    check(st == 200, f"accounts survive a restart: {st}")
    srv.stop()
    print("server_accounts: ok")


if __name__ == "__main__":
    main()
