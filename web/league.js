// The page's replica of the league: players, matches and ratings by id, and where it stands in the server's
// history (revision, epoch, digest). Changes are entity-level, as in GoalClient's ReplicaState: a change replaces
// or removes one entry; ratings travel in the changesets, so nothing is recomputed from matches here.
//
// Rankings are computed here from the ratings' integers, not fetched from /api/v1/rankings after each change:
// the stream already carries points and played for every player it touches (PROTOCOL.md: clients compute
// 10 × points / (3 × played) and show 2 decimals), so a second request per change would only add latency, load
// and a window where the page shows a revision's matches beside another revision's rankings.

/** d_0: 32 zero bytes, as hex. */
export const GENESIS = "0".repeat(64);

export class League {
  constructor() {
    this.epoch = null;
    // Match id → when it was created (ms since 1970): the time of the changeset that created it, or of its
    // `created` history entry (app.js asks for those of shown snapshot matches). Not part of the replica's state.
    this.created = new Map();
    this.reset();
  }

  /** Forgets everything but the epoch: the next hello asks for a snapshot. */
  reset() {
    this.revision = 0;
    this.digest = GENESIS;
    this.synced = false;
    this.players = new Map();
    this.matches = new Map();
    this.ratings = new Map();
  }

  /** What hello resumes from, or null for an empty replica. */
  position() {
    if (!this.synced || this.epoch === null) return null;
    return { since: this.revision, epoch: this.epoch, digest: this.digest };
  }

  replace(snapshot, digest) {
    this.reset();
    this.epoch = snapshot.epoch;
    for (const player of snapshot.players) this.players.set(player.id, player);
    for (const match of snapshot.matches) this.matches.set(match.id, match);
    for (const id of Array.from(this.created.keys())) if (!this.matches.has(id)) this.created.delete(id);
    for (const rating of snapshot.ratings) this.ratings.set(rating.player, rating);
    this.revision = snapshot.revision;
    this.digest = digest;
    this.synced = true;
  }

  apply(changeset) {
    for (const change of changeset.changes) {
      switch (change.kind) {
        case "player":
          this.players.set(change.id, change);
          break;
        case "player_deleted":
          this.players.delete(change.id);
          this.ratings.delete(change.id);
          break;
        case "match":
          this.matches.set(change.id, change);
          if (change.created.rev === changeset.revision) this.created.set(change.id, changeset.time);
          break;
        case "match_deleted":
          this.matches.delete(change.id);
          this.created.delete(change.id);
          break;
        case "rating":
          this.ratings.set(change.player, change);
          break;
      }
    }
    this.revision = changeset.revision;
    this.digest = changeset.digest;
    this.synced = true;
  }

  name(id) {
    const player = this.players.get(id);
    return player ? player.name : id.slice(0, 8);
  }

  names(ids) {
    return ids.map((id) => this.name(id)).join(", ");
  }

  /** Every player with rating, played, won, drawn, lost: rating descending, ties by name key, then id. */
  rankings() {
    const rows = [];
    for (const player of this.players.values()) {
      const r = this.ratings.get(player.id) || { points: 0, played: 0, won: 0, drawn: 0, lost: 0 };
      const rating = r.played > 0 ? (10 * r.points) / (3 * r.played) : 0;
      rows.push({ id: player.id, name: player.name, key: player.name_key, rating, ...pick(r) });
    }
    rows.sort((a, b) => b.rating - a.rating || compare(a.key, b.key) || compare(a.id, b.id));
    return rows;
  }

  /** Matches newest first (by the revision that created them). */
  matchesNewestFirst() {
    return Array.from(this.matches.values()).sort((a, b) => b.created.rev - a.created.rev);
  }

  /**
   * The server's message with every id of a player or match the page knows written as people name them, as
   * goal-client does (EntityNaming): a player as its quoted name, a match as its short id and its players
   * (`3f2a9c1e (Ada vs Béa)`); a full id anywhere, a short id (8 hex digits) after "player " or "match ", the form
   * the server's rules use. Ids the page does not know stay as they are.
   */
  naming(message) {
    const id = /\b(?:(player|match) )?([0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|[0-9a-f]{8})(?![0-9a-f-])/g;
    return message.replace(id, (whole, kind, text) => {
      const prefix = kind ? `${kind} ` : "";
      const unique = (map) => {
        const found = Array.from(map.values()).filter((entity) => entity.id.startsWith(text));
        return found.length === 1 ? found[0] : undefined;
      };
      const player = text.length > 8 ? this.players.get(text) : kind === "player" ? unique(this.players) : undefined;
      if (player) return `${prefix}"${player.name}"`;
      const match = text.length > 8 ? this.matches.get(text) : kind === "match" ? unique(this.matches) : undefined;
      if (match) return prefix + this.matchLabel(match);
      return whole;
    });
  }

  /** A match as messages name it: `3f2a9c1e (Ada, Bo vs Cy)` (a player the page lacks shows its short id). */
  matchLabel(match) {
    const side = (ids) => ids.map((id) => (this.players.has(id) ? this.players.get(id).name : id.slice(0, 8)));
    return `${match.id.slice(0, 8)} (${side(match.home_players).join(", ")} vs ${side(match.away_players).join(", ")})`;
  }
}

function pick(r) {
  return { played: r.played, won: r.won, drawn: r.drawn, lost: r.lost };
}

function compare(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
