#!/usr/bin/env python3
"""What a league and a session cost a release goald (issue 37): RSS per loaded idle league, RSS per idle session of a
league, and the time of a first hello that loads a league against one to a loaded league.

    python3 Benchmarks/league-costs.py --goald .build-release/release/goald --leagues 1000 --sessions 2000

Starts goald (SQLite, a temporary state directory, leagues.idleSeconds=3600 so nothing unloads during the run),
creates the leagues over POST /api/v1/leagues with the admin token, then: RSS after a warm-up (one session to the
default league), RSS once every league was loaded by one session that said hello and left (each league is then
loaded and idle: its engine, hub, store and caches), RSS with `--sessions` idle sessions open in one league. Prints
one JSON object. Python 3 standard library only (the soak harness's goald and WebSocket helpers).
"""
import sys

sys.dont_write_bytecode = True

import argparse
import http.client
import json
import os
import statistics
import tempfile
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Soak"))

from soak_daemon import Node  # noqa: E402
from soak_ws import WSClient  # noqa: E402


def post(node, token, path, body):
    connection = http.client.HTTPSConnection("127.0.0.1", node.port, context=node.context, timeout=30)
    try:
        connection.request("POST", path, body=json.dumps(body),
                           headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        response = connection.getresponse()
        text = response.read().decode()
        if response.status not in (200, 201):
            raise RuntimeError(f"POST {path}: {response.status} {text}")
        return json.loads(text)
    finally:
        connection.close()


def hello(node, token, league):
    """Opens a session to `league` and returns it with the seconds from the hello to the welcome."""
    client = WSClient(node.port, node.context, timeout=30).open()
    message = {"type": "hello", "protocol": 2, "token": token, "client_instance": str(uuid.uuid4()), "stream": "all"}
    if league:
        message["league"] = league
    start = time.perf_counter()
    client.send_json(message)
    while True:
        for text in client.poll(30):
            reply = json.loads(text)
            if reply.get("type") == "welcome":
                return client, time.perf_counter() - start
            if reply.get("type") == "error":
                raise RuntimeError(f"hello to {league}: {reply}")


def settle(node, seconds=3.0):
    time.sleep(seconds)
    return node.rss_kib()


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--goald", required=True)
    parser.add_argument("--leagues", type=int, default=1000)
    parser.add_argument("--sessions", type=int, default=2000)
    args = parser.parse_args(argv)
    workdir = tempfile.mkdtemp(prefix="league-costs-")
    node = Node(1, os.path.abspath(args.goald), workdir, None, "warning", 0, ["leagues.idleSeconds=3600", "limits.maxConnectionsPerIP=100000", "limits.maxConnectionsPerToken=100000"])
    node.start()
    try:
        with open(os.path.join(node.state_dir, "admin-token")) as handle:
            token = handle.read().strip()
        slugs = [f"bench-{i}" for i in range(1, args.leagues + 1)]
        started = time.perf_counter()
        for slug in slugs:
            post(node, token, "/api/v1/leagues", {"id": slug, "name": slug})
        create_seconds = time.perf_counter() - started
        for _ in range(3):
            client, _ = hello(node, token, None)
            client.shutdown()
        baseline = settle(node)

        first_hellos = []
        for slug in slugs:
            client, seconds = hello(node, token, slug)
            first_hellos.append(seconds)
            client.shutdown()
        loaded = settle(node)
        warm_hellos = []
        for slug in slugs[:200]:
            client, seconds = hello(node, token, slug)
            warm_hellos.append(seconds)
            client.shutdown()

        sessions = []
        for _ in range(args.sessions):
            client, _ = hello(node, token, slugs[0])
            sessions.append(client)
        with_sessions = settle(node)
        for client in sessions:
            client.shutdown(wait=0)
        result = {
            "leagues": args.leagues,
            "sessions": args.sessions,
            "rss_kib": {"baseline": baseline, "leagues_loaded": loaded, "with_sessions": with_sessions},
            "kib_per_idle_league": round((loaded - baseline) / args.leagues, 1),
            "kib_per_idle_session": round((with_sessions - loaded) / args.sessions, 1),
            "league_create_ms_mean": round(create_seconds / args.leagues * 1000, 2),
            "hello_loading_league_ms": {"median": round(statistics.median(first_hellos) * 1000, 2),
                                        "p99": round(sorted(first_hellos)[int(len(first_hellos) * 0.99) - 1] * 1000, 2)},
            "hello_loaded_league_ms": {"median": round(statistics.median(warm_hellos) * 1000, 2)},
        }
        print(json.dumps(result, indent=2))
    finally:
        node.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
