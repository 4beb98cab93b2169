#!/usr/bin/env python3
"""Interop check: a standard Python `websockets` client speaks goald's protocol.

Connects over wss trusting the given CA, says hello, creates a player, and prints every server message as one
JSON line until it has seen its own ack; then reconnects with no `since` and prints the snapshot it receives.
Used by GoalServerTests/InteropTests; exits non-zero on any failure.
"""
import argparse
import asyncio
import json
import ssl
import sys
import uuid

import websockets


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", required=True)
    args = parser.parse_args()

    context = ssl.create_default_context(cafile=args.ca)
    instance = str(uuid.uuid4())
    async with websockets.connect(args.url, ssl=context) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": args.token,
                                  "client_instance": instance, "stream": "all"}))
        welcome = json.loads(await ws.recv())
        print(json.dumps(welcome), flush=True)
        await ws.send(json.dumps({"type": "mutate", "seq": 1, "base": welcome["head"], "op": "create_player",
                                  "id": str(uuid.uuid4()), "name": "Python Pat"}))
        while True:
            message = json.loads(await ws.recv())
            print(json.dumps(message), flush=True)
            if message["type"] in ("ack", "rejected", "error"):
                break

    async with websockets.connect(args.url, ssl=context) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": args.token,
                                  "client_instance": str(uuid.uuid4())}))
        while True:
            message = json.loads(await ws.recv())
            print(json.dumps(message), flush=True)
            if message["type"] in ("snapshot_end", "error"):
                break
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
