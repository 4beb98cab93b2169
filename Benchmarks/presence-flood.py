#!/usr/bin/env python3
"""Changeset latency with and without a presence flood (issue 20: presence never delays changesets).

Against a live goald: `--observers` sessions that ask for presence (`hello.presence: all`) and the whole stream, one
writer committing `--rate` create_player mutations per second for `--seconds`, and `--flooders` sessions that each
announce `editing` a fresh match id `--flood-rate` times per second (far past the server's announcement bucket, so
the server coalesces them; below the per-session frame flood guard). Latency is the time from the writer sending a
mutation to an observer reading its changeset, over every observer and changeset, on one clock (one process).
Prints one line: flooders, changesets, p50/p99/max in ms, presence events the observers read, flooders closed.

Needs python3-websockets (Debian's, as the interop test). Example (a goald started by `goald serve`):
    python3 Benchmarks/presence-flood.py --url wss://127.0.0.1:7443/v1/stream \
        --ca ~/.local/state/goald/tls/ca.pem --token-file ~/.local/state/goald/admin-token --flooders 0
"""
import argparse
import asyncio
import json
import ssl
import time
import uuid

import websockets


async def hello(url, context, token, presence, stream="all"):
    """A welcomed session: (socket, welcome, its client instance)."""
    instance = str(uuid.uuid4())
    ws = await websockets.connect(url, ssl=context, max_size=None)
    await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token,
                              "client_instance": instance, "stream": stream, "presence": presence}))
    welcome = json.loads(await ws.recv())
    if welcome.get("type") != "welcome":
        raise SystemExit(f"not welcomed: {welcome}")
    return ws, welcome, instance


async def observe(ws, sent, latencies, counts, done):
    async for raw in ws:
        now = time.monotonic()
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "changeset":
            started = sent.get((message.get("client_instance"), message.get("seq")))
            if started is not None:
                latencies.append((now - started) * 1000)
        elif kind == "presence":
            counts["presence"] += 1
        if done.is_set() and len(latencies) >= counts["expected"]:
            return


async def flood(ws, rate, stop, counts):
    interval = 1 / rate
    try:
        while not stop.is_set():
            await ws.send(json.dumps({"type": "presence", "state": "editing", "match": str(uuid.uuid4())}))
            await asyncio.sleep(interval)
    except websockets.ConnectionClosed:
        counts["flooders_closed"] += 1


async def drain(ws, stop):
    try:
        async for _ in ws:
            if stop.is_set():
                return
    except websockets.ConnectionClosed:
        return


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token-file", required=True)
    parser.add_argument("--observers", type=int, default=20)
    parser.add_argument("--flooders", type=int, default=0)
    parser.add_argument("--flood-rate", type=float, default=200)
    parser.add_argument("--rate", type=float, default=20)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    token = open(args.token_file, encoding="utf-8").read().strip()
    context = ssl.create_default_context(cafile=args.ca)

    observers = [await hello(args.url, context, token, "all") for _ in range(args.observers)]
    writer, welcome, instance = await hello(args.url, context, token, "none", stream="acks")
    flooders = [await hello(args.url, context, token, "all") for _ in range(args.flooders)]
    sent, latencies = {}, []
    counts = {"presence": 0, "flooders_closed": 0, "expected": 0}
    done, stop = asyncio.Event(), asyncio.Event()
    watching = [asyncio.create_task(observe(ws, sent, latencies, counts, done)) for ws, _, _ in observers]
    flooding = [asyncio.create_task(flood(ws, args.flood_rate, stop, counts)) for ws, _, _ in flooders]
    draining = [asyncio.create_task(drain(ws, stop)) for ws, _, _ in flooders]
    draining.append(asyncio.create_task(drain(writer, stop)))
    await asyncio.sleep(1)  # the flood is under way before the first commit

    base, commits = welcome["head"], int(args.rate * args.seconds)
    for seq in range(1, commits + 1):
        message = {"type": "mutate", "seq": seq, "base": base, "op": "create_player", "id": str(uuid.uuid4()),
                   "name": f"flood-{uuid.uuid4().hex[:12]}"}
        sent[(instance, seq)] = time.monotonic()
        await writer.send(json.dumps(message))
        await asyncio.sleep(1 / args.rate)
    counts["expected"] = commits * args.observers
    done.set()
    try:
        await asyncio.wait_for(asyncio.gather(*watching), timeout=60)
    except asyncio.TimeoutError:
        pass
    stop.set()
    for task in flooding + draining:
        task.cancel()
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")
    print(f"flooders={args.flooders} observers={args.observers} changesets={commits} "
          f"deliveries={len(latencies)}/{commits * args.observers} "
          f"p50={p(0.50):.1f}ms p99={p(0.99):.1f}ms max={latencies[-1] if latencies else float('nan'):.1f}ms "
          f"presence_events_read={counts['presence']} flooders_closed={counts['flooders_closed']}", flush=True)



if __name__ == "__main__":
    asyncio.run(main())
