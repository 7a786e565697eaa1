"""Load benchmark of ``backgammon serve`` (not a test): N clients each play
whole games against the computer over loopback, as the page does (roll,
one request per checker step, confirm, take, next game), for a bounded
time; reports requests per second, p50/p99 latency and errors.

    python benchmarks/web_load.py --clients 50 --seconds 30 --level beginner

The server runs in a subprocess (uvicorn, one worker) on a free loopback
port unless ``--url`` names a running one.  The goal: 0 errors with 50
concurrent games.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time

from urllib.parse import urlsplit


class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.games = 0
        self.turns = 0


class Connection:
    """One keep-alive HTTP/1.1 connection, written by hand: the benchmark's
    own cost per request must stay small next to the server's."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body=None):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        data = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(data)}\r\n"
                f"Content-Type: application/json\r\n\r\n").encode()
        self.writer.write(head + data)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        length, close = 0, False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "connection" and value.strip().lower() == "close":
                close = True
        payload = await self.reader.readexactly(length)
        if close:
            self.writer.close()
            self.writer = None
        return status, payload

    def close(self):
        if self.writer is not None:
            self.writer.close()


async def call(conn: Connection, stats: Stats, method: str, path: str, body=None):
    t = time.perf_counter()
    try:
        status, payload = await conn.request(method, path, body)
    except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError, IndexError) as e:
        stats.errors.append(f"{method} {path}: {type(e).__name__} {e}")
        conn.writer = None
        return None
    stats.latencies.append(time.perf_counter() - t)
    if status >= 400:
        stats.errors.append(f"{method} {path} {body}: {status} {payload[:200]!r}")
        return None
    return json.loads(payload)


async def player(client: Connection, stats: Stats, level: str, deadline: float, seed: int):
    s = await call(client, stats, "POST", "/api/games", {"level": level, "length": 0, "seed": seed})
    while s is not None and time.monotonic() < deadline:
        a = s["actions"]
        path = f"/api/games/{s['id']}/actions"
        if s["game"]["phase"] == "over":
            stats.games += 1
            s = await call(client, stats, "POST", path, {"action": "next"})
        elif "take" in a:
            s = await call(client, stats, "POST", path, {"action": "take"})
        elif "accept" in a:
            s = await call(client, stats, "POST", path, {"action": "accept"})
        elif "roll" in a:
            s = await call(client, stats, "POST", path, {"action": "roll"})
        elif s["moves"] and not s["moves"]["complete"]:
            dest = s["moves"]["destinations"]
            frm = max(dest, key=int)
            s = await call(client, stats, "POST", path, {"action": "move", "from": int(frm), "to": dest[frm][0]})
        elif "commit" in a:
            stats.turns += 1
            s = await call(client, stats, "POST", path, {"action": "commit"})
        else:
            stats.errors.append(f"stuck in {s['game']['phase']} with actions {a}")
            return


def _cpu(proc) -> float | None:
    """CPU seconds (user + system) of a subprocess, from /proc (Linux)."""
    try:
        with open(f"/proc/{proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, AttributeError, ValueError, IndexError):
        return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "uvicorn", "--factory", "backgammon.web:create_app",
           "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    proc = subprocess.Popen(cmd, env=dict(os.environ))
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


async def run(url: str, clients: int, seconds: float, level: str) -> Stats:
    stats = Stats()
    parts = urlsplit(url)
    conns = [Connection(parts.hostname, parts.port or 80) for _ in range(clients)]
    deadline = time.monotonic() + seconds
    try:
        await asyncio.gather(*(player(conn, stats, level, deadline, seed) for seed, conn in enumerate(conns)))
    finally:
        for conn in conns:
            conn.close()
    return stats


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=50, help="concurrent games (default 50)")
    ap.add_argument("--seconds", type=float, default=30, help="how long to play (default 30)")
    ap.add_argument("--level", default="beginner", choices=["beginner", "intermediate", "advanced", "expert"])
    ap.add_argument("--url", help="a running server (default: start one on a free loopback port)")
    args = ap.parse_args(argv)
    proc = None
    url = args.url
    if url is None:
        port = free_port()
        proc = start_server(port)
        url = f"http://127.0.0.1:{port}"
    server_cpu = None
    try:
        t = time.perf_counter()
        c = time.process_time()
        cpu0 = _cpu(proc)
        stats = asyncio.run(run(url, args.clients, args.seconds, args.level))
        elapsed = time.perf_counter() - t
        client_cpu = time.process_time() - c
        if proc is not None and cpu0 is not None:
            server_cpu = _cpu(proc) - cpu0
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
    lat = sorted(stats.latencies)
    n = len(lat)
    p = (lambda q: 1000 * lat[min(n - 1, int(q * n))]) if n else (lambda q: float("nan"))
    print(f"{args.clients} clients, level {args.level}, {elapsed:.1f} s: {n} requests, "
          f"{n / elapsed:.0f} requests/s, {stats.games} games finished, {stats.turns} human plays")
    print(f"latency: p50 {p(0.50):.1f} ms, p99 {p(0.99):.1f} ms, max {1000 * lat[-1] if n else float('nan'):.1f} ms"
          + (f", mean {1000 * statistics.fmean(lat):.1f} ms" if n else ""))
    print(f"CPU: client {client_cpu:.1f} s" + (f", server {server_cpu:.1f} s" if server_cpu is not None else "")
          + f" of {elapsed:.1f} s wall on {os.cpu_count()} cores")
    print(f"errors: {len(stats.errors)}")
    for e in stats.errors[:10]:
        print("  " + e)
    return 1 if stats.errors else 0


if __name__ == "__main__":
    sys.exit(main())
