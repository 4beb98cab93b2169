#!/usr/bin/env python3
"""Interop check of protocol 2, written from docs/PROTOCOL.md alone: lean `delta` frames expand to full changesets.

A reader says hello with protocol 2 and keeps a replica (players, matches, ratings). A writer (stream "acks") plays
a small league: players created and renamed, matches created, scored, changed and deleted. The reader expands
every `delta` against its replica by the rules of §5 "Lean changesets", writes the full changeset's canonical
payload (§5 "Canonical payload") and checks d_R = SHA-256(d_R-1 || payload_R) against the frame's digest.
Prints one line per revision ("delta R ok" / "changeset R ok") and exits non-zero at the first mismatch.
Used by GoalServerTests/InteropTests.
"""
import argparse
import asyncio
import hashlib
import json
import ssl
import sys
import uuid

import websockets


def canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


class Replica:
    def __init__(self):
        self.players, self.matches, self.ratings = {}, {}, {}
        self.revision, self.digest = 0, bytes(32)

    @staticmethod
    def outcome(match, side):
        own = match["home_goals"] if side == "home" else match["away_goals"]
        other = match["away_goals"] if side == "home" else match["home_goals"]
        return "won" if own > other else ("drawn" if own == other else "lost")

    def move(self, rating, match, sign):
        for side in ("home", "away"):
            if rating["player"] in match[side + "_players"]:
                result = self.outcome(match, side)
                rating["played"] += sign
                rating[result] += sign
                rating["points"] += sign * {"won": 3, "drawn": 1, "lost": 0}[result]

    def ratings_after(self, old, new):
        touched = list(old["home_players"] + old["away_players"]) if old else []
        for player in (new["home_players"] + new["away_players"]) if new else []:
            if player not in touched:
                touched.append(player)
        changes = []
        for player in touched:
            if player not in self.ratings:
                continue
            rating = dict(self.ratings[player])
            if old:
                self.move(rating, old, -1)
            if new:
                self.move(rating, new, 1)
            self.ratings[player] = rating
            changes.append(dict(rating, kind="rating"))
        return changes

    def expand(self, delta):
        stamp = {"by": delta["client_instance"], "rev": delta["revision"]}
        changes = []
        for change in delta["changes"]:
            kind, entity = change["kind"], change["id"]
            if kind == "player":
                player = dict(self.players.get(entity) or {"created": stamp, "id": entity})
                player.update(name=change["name"], name_key=change["name_key"], name_stamp=stamp)
                new = entity not in self.players
                self.players[entity] = player
                changes.append(dict(player, kind="player"))
                if new:
                    zero = {"drawn": 0, "lost": 0, "played": 0, "player": entity, "points": 0, "won": 0}
                    self.ratings[entity] = zero
                    changes.append(dict(zero, kind="rating"))
            elif kind == "player_deleted":
                self.players.pop(entity, None)
                self.ratings.pop(entity, None)
                changes.append(change)
            elif kind == "match":
                old = self.matches.get(entity)
                fields = ("away_goals", "away_players", "home_goals", "home_players")
                if old is None:
                    new = {"id": entity, "created": stamp, "stamps": {f: stamp for f in fields}}
                else:
                    new = dict(old, stamps=dict(old["stamps"]))
                for field in fields:
                    if field in change:
                        new[field] = change[field]
                        new["stamps"][field] = stamp
                self.matches[entity] = new
                changes.append(dict(new, kind="match"))
                changes += self.ratings_after(old, new)
            elif kind == "match_deleted":
                old = self.matches.pop(entity)
                changes.append(change)
                changes += self.ratings_after(old, None)
            else:
                raise ValueError(f"unknown lean change kind {kind}")
        full = {key: delta[key] for key in ("action", "author", "client_instance", "seq", "time") if key in delta}
        full.update(changes=changes, revision=delta["revision"])
        return full

    def apply(self, full):
        for change in full["changes"]:
            kind = change["kind"]
            body = {k: v for k, v in change.items() if k != "kind"}
            if kind == "player":
                self.players[body["id"]] = body
                self.ratings.setdefault(body["id"], {"drawn": 0, "lost": 0, "played": 0, "player": body["id"],
                                                     "points": 0, "won": 0})
            elif kind == "match":
                self.matches[body["id"]] = body
            elif kind == "rating":
                self.ratings[body["player"]] = body
            elif kind == "player_deleted":
                self.players.pop(body["id"], None)
                self.ratings.pop(body["id"], None)
            elif kind == "match_deleted":
                self.matches.pop(body["id"], None)

    def check(self, frame) -> bool:
        if frame["type"] == "delta":
            full = self.expand(frame)
        else:
            full = {k: v for k, v in frame.items() if k not in ("type", "digest")}
            self.apply(full)
        digest = hashlib.sha256(self.digest + canonical(full)).digest()
        if frame["revision"] != self.revision + 1 or digest.hex() != frame["digest"]:
            print(f"{frame['type']} {frame['revision']} MISMATCH: payload {canonical(full).decode()}", flush=True)
            return False
        self.revision, self.digest = frame["revision"], digest
        print(f"{frame['type']} {frame['revision']} ok", flush=True)
        return True


def league():
    ada, bea, cid, match, other = (str(uuid.uuid4()) for _ in range(5))
    return [
        {"op": "create_player", "id": ada, "name": "Ada"},
        {"op": "create_player", "id": bea, "name": "Béa"},
        {"op": "create_player", "id": cid, "name": "Cid"},
        {"op": "create_match", "id": match, "home_players": [ada], "away_players": [bea], "home_goals": 0,
         "away_goals": 0},
        {"op": "adjust_goals", "id": match, "side": "home", "delta": 1},
        {"op": "rename_player", "id": bea, "name": "Béatrice"},
        {"op": "update_match", "id": match, "away_players": [bea, cid], "away_goals": 3},
        {"op": "create_match", "id": other, "home_players": [cid], "away_players": [ada], "home_goals": 2,
         "away_goals": 2},
        {"op": "delete_match", "id": other},
        {"op": "create_player", "id": str(uuid.uuid4()), "name": "Dora"},
    ]


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", required=True)
    args = parser.parse_args()
    context = ssl.create_default_context(cafile=args.ca)
    replica = Replica()
    async with websockets.connect(args.url, ssl=context) as reader, \
            websockets.connect(args.url, ssl=context) as writer:
        await reader.send(json.dumps({"type": "hello", "protocol": 2, "token": args.token,
                                      "client_instance": str(uuid.uuid4()), "stream": "all"}))
        welcome = json.loads(await reader.recv())
        if welcome.get("protocol") != 2 or welcome.get("mode") != "live":
            print(f"unexpected welcome {welcome}", flush=True)
            return 1
        await writer.send(json.dumps({"type": "hello", "protocol": 2, "token": args.token,
                                      "client_instance": str(uuid.uuid4()), "stream": "acks"}))
        json.loads(await writer.recv())
        head = welcome["head"]
        for seq, action in enumerate(league(), start=1):
            await writer.send(json.dumps(dict(action, type="mutate", seq=seq, base=head)))
            answer = json.loads(await writer.recv())
            if answer.get("type") != "ack":
                print(f"not acked: {answer}", flush=True)
                return 1
            head = answer["revision"]
        while replica.revision < head:
            frame = json.loads(await reader.recv())
            if frame["type"] not in ("delta", "changeset"):
                continue
            if not replica.check(frame):
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
