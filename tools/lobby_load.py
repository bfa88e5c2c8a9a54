#!/usr/bin/python3
"""The lobby socket under load (docs/server-protocol.md, "The lobby"): a server on loopback with
200 open tables, 1,000 lobby sockets that said hello, and tables changing all the time (a player
sits down or gets up every 50 ms); counts the lobby batches the sockets get per second and the
server's CPU time (user + system, from /proc) while it sends them.

usage: tools/lobby_load.py BUILD/carcassonne [--sockets 1000] [--tables 200] [--seconds 20] [--lobby-ms 1000]
"""
import argparse
import asyncio
import json
import os
import resource
import sys
import time

sys.argv, args_in = sys.argv[:2], sys.argv[2:]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import server_accounts as acc  # noqa: E402  (the Server and Client helpers)

import websockets  # noqa: E402


def cpu_s(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sockets", type=int, default=1000)
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--lobby-ms", type=int, default=1000)
    a = ap.parse_args(args_in)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    srv = acc.Server(os.path.join(acc.TMP, "lobby.db"), "--lobby-ms", str(a.lobby_ms), "--max-conns-per-ip", "0",
                     "--max-conns", "0", "--pairing-wave-ms", "0")
    tables = []
    for h in range((a.tables + 2) // 3):  # a player hosts 3 tables at most
        host = acc.Client(srv, f"10.{h // 250}.{h % 250}.1")
        host.call("POST", "/api/session", {})
        for _ in range(min(3, a.tables - len(tables))):
            st, r, _ = host.call("POST", "/api/tables", {"game": "base", "seats": 5, "clock": "days"})
            assert st == 201, (st, r)
            tables.append(r["table"])
    sitters = []
    for i in range(20):
        c = acc.Client(srv, f"10.200.{i}.1")
        c.call("POST", "/api/session", {})
        sitters.append(c)

    got = {"batches": 0, "bytes": 0}

    async def lobby_socket(i, ready):
        ws = await websockets.connect(f"ws://127.0.0.1:{srv.port}/ws/lobby", max_size=None,
                                      extra_headers={"X-Forwarded-For": f"10.{100 + i // 250}.{i % 250}.2"})
        await ws.send('{"type":"hello"}')
        full = json.loads(await ws.recv())
        assert full.get("full") and len(full["tables"]) == a.tables, full.get("type")
        ready.append(1)
        try:
            async for text in ws:
                got["batches"] += 1
                got["bytes"] += len(text)
        except websockets.ConnectionClosed:
            pass

    async def run():
        ready = []
        tasks = []
        for i in range(a.sockets):
            tasks.append(asyncio.create_task(lobby_socket(i, ready)))
            if i % 100 == 99:
                await asyncio.sleep(0.05)
        while len(ready) < a.sockets:
            await asyncio.sleep(0.1)
        print(f"{a.sockets} lobby sockets, {a.tables} open tables; churning for {a.seconds:.0f} s", flush=True)
        got["batches"] = got["bytes"] = 0
        c0, t0 = cpu_s(srv.proc.pid), time.monotonic()
        n = 0
        loop = asyncio.get_running_loop()
        at = {}  # sitter -> the table they sit at
        while time.monotonic() - t0 < a.seconds:
            i = n % len(sitters)
            # a player sits down at a table, and the next time gets up from it: each changes the table
            if i in at:
                st, r, _ = await loop.run_in_executor(None, sitters[i].call, "POST", f"/api/tables/{at.pop(i)}/leave", {})
            else:
                at[i] = tables[(n * 7) % len(tables)]
                st, r, _ = await loop.run_in_executor(None, sitters[i].call, "POST", f"/api/tables/{at[i]}/join", {})
            assert st == 200, (st, r)
            n += 1
            await asyncio.sleep(0.05)
        dt, dc = time.monotonic() - t0, cpu_s(srv.proc.pid) - c0
        print(f"table changes: {n} ({n / dt:.0f}/s); lobby batches received: {got['batches']} "
              f"({got['batches'] / dt:,.0f}/s, {got['batches'] / dt / a.sockets:.2f} per socket per s, "
              f"{got['bytes'] / max(got['batches'], 1) / 1024:.1f} KB each)")
        print(f"server CPU: {dc:.2f} s in {dt:.1f} s ({100 * dc / dt:.1f}% of a core, including the HTTP changes)")
        for t in tasks:
            t.cancel()

    asyncio.run(run())
    srv.stop()


if __name__ == "__main__":
    main()
