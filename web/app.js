// The page: asks for a token once (kept in this browser's localStorage, sent only inside the WebSocket hello,
// never in a URL), connects the stream, and draws rankings, matches and the connection state. Editors (and
// admins) get +/- goal buttons and an add-match form; refusals are worded as goal-client words them.
// `?tv`: large type, rankings beside the last matches, no controls. At /l/<league>/ goald names the league in
// <meta name="goald-league"> (and the title and heading); the hello then asks for that league, else the default one.

import { refusalText } from "./refusal.js";
import { Stream } from "./stream.js";
import { renderMatches, renderPickers, renderRankings } from "./view.js";

const TOKEN_KEY = "goald.token";
const TV_MATCHES = 12;
const tv = new URLSearchParams(location.search).has("tv");
const $ = (selector) => document.querySelector(selector);
const leagueId = document.querySelector('meta[name="goald-league"]')?.content || null;
const TITLE = leagueId ? `${leagueId} · goald league` : "goald league";

let stream = null;
let changed = new Set();
let renderScheduled = false;
const pending = new Map(); // seq → { matchId?, what }

// Match dates: a match created while the page watches is dated from its changeset (league.js); a snapshot match
// on screen is dated by asking the stream's history for its creating revision, one request at a time. A creation
// the server's log no longer holds (or a refusal) leaves the row undated and is not asked again.
const onScreen = new Set(); // ids of the match rows in the viewport
const undatable = new Set();
let dateAsked = null; // the match id whose history request is outstanding
const rowsSeen = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    if (entry.isIntersecting) onScreen.add(entry.target.dataset.key);
    else onScreen.delete(entry.target.dataset.key);
  }
  askDate();
});

function askDate() {
  if (!stream || dateAsked !== null || !stream.historyOffered) return;
  const league = stream.league;
  let next = null; // the newest undated match on screen
  for (const id of onScreen) {
    const match = league.matches.get(id);
    if (!match || league.created.has(id) || undatable.has(id)) continue;
    if (next === null || match.created.rev > next.created.rev) next = match;
  }
  if (next === null) return;
  const asking = stream;
  const revision = next.created.rev;
  dateAsked = next.id;
  asking
    .history({ entity: "match", id: next.id, before: revision + 1, limit: 1 })
    .then(
      (page) => {
        const creation = page.entries.find((e) => e.revision === revision && e.change === "created");
        if (!creation) undatable.add(next.id); // pruned: the log starts after the match's creation
        else if (asking.league.matches.has(next.id)) asking.league.created.set(next.id, creation.time);
      },
      (error) => {
        if (error.kind === "refused") undatable.add(next.id);
      }
    )
    .finally(() => {
      if (stream !== asking) return; // a new token or sign-out: that stream's answers no longer matter
      dateAsked = null;
      scheduleRender();
    });
}

function editable() {
  return !tv && stream !== null && (stream.role === "editor" || stream.role === "admin");
}

function scheduleRender() {
  if (renderScheduled) return;
  renderScheduled = true;
  setTimeout(render, 0); // one redraw for a burst of changesets (a backlog)
}

function render() {
  renderScheduled = false;
  drawStatus();
  if (!stream) return;
  const league = stream.league;
  const marks = changed;
  changed = new Set();
  renderRankings($("#rankings tbody"), league, marks);
  const pendingMatches = new Set(Array.from(pending.values(), (p) => p.matchId).filter(Boolean));
  renderMatches($("#matches"), league, marks, {
    limit: tv ? TV_MATCHES : 0,
    editable: editable(),
    pending: pendingMatches,
    onAdjust: adjust,
    onRow: (li) => rowsSeen.observe(li),
    onRowRemoved: (li) => {
      rowsSeen.unobserve(li);
      onScreen.delete(li.dataset.key);
    },
  });
  askDate();
  const known = league.synced || (connection !== null && connection.phase === "live"); // else: not known yet
  $("#empty-rankings").hidden = !known || league.players.size > 0;
  $("#empty-matches").hidden = !known || league.matches.size > 0;
  $("#add-match-panel").hidden = !editable();
  if (editable()) renderPickers([$("#home-players"), $("#away-players")], league);
}

const WORDS = { connecting: "connecting", syncing: "syncing", live: "live", reconnecting: "reconnecting", stopped: "stopped" };

let connection = null; // the stream's last state: phase, detail, role, mode, sessions

function showState(state) {
  connection = state;
  scheduleRender();
}

// The status line: always visible, in words (never colour alone), with the revision the page shows.
function drawStatus() {
  if (!connection) return;
  const node = $("#connection");
  const revision = stream ? stream.league.revision : 0;
  node.dataset.phase = connection.phase;
  node.dataset.mode = connection.mode || "";
  node.dataset.revision = String(revision);
  node.dataset.sessions = String(connection.sessions); // welcomes on this page: 1 + how often it reconnected
  let text = WORDS[connection.phase] || connection.phase;
  if (connection.phase === "live") text += ` · r${revision}` + (connection.role ? ` · ${connection.role}` : "");
  if (connection.detail && connection.phase !== "live") text += ` (${connection.detail})`;
  node.textContent = text;
  document.title = `${connection.phase === "live" ? "" : "(" + text + ") "}${TITLE}`;
}

function showAlert(text) {
  const node = $("#alert");
  node.textContent = text;
  node.hidden = !text;
}

function answered(answer) {
  const mutation = pending.get(answer.seq);
  pending.delete(answer.seq);
  if (answer.type === "rejected") showAlert(refusalText(answer, stream.league));
  else if (mutation && mutation.what === "add match") $("#add-match").reset();
  scheduleRender();
}

function submit(action, what, matchId) {
  if (!stream.canMutate()) {
    showAlert("too many changes waiting for an answer; try again in a moment");
    return;
  }
  showAlert("");
  const seq = stream.mutate(action);
  pending.set(seq, { matchId, what });
  scheduleRender();
}

function adjust(matchId, side, delta) {
  submit({ op: "adjust_goals", id: matchId, side, delta }, `${side} ${delta > 0 ? "+1" : "-1"}`, matchId);
}

function addMatch(event) {
  event.preventDefault();
  const chosen = (select) => Array.from($(select).selectedOptions, (o) => o.value);
  const goals = (input) => Number.parseInt($(input).value, 10);
  const home = chosen("#home-players");
  const away = chosen("#away-players");
  const homeGoals = goals("#home-goals");
  const awayGoals = goals("#away-goals");
  if (!Number.isInteger(homeGoals) || !Number.isInteger(awayGoals)) {
    showAlert("goals must be whole numbers from 0 to 999");
    return;
  }
  submit(
    {
      op: "create_match",
      id: crypto.randomUUID(),
      home_players: home,
      away_players: away,
      home_goals: homeGoals,
      away_goals: awayGoals,
    },
    "add match"
  );
}

function start(token) {
  $("#login").hidden = true;
  $("#league").hidden = false;
  $("#sign-out").hidden = tv;
  stream = new Stream(token, {
    onState: showState,
    onChange(changes) {
      for (const change of changes) changed.add(change.kind === "rating" ? change.player : change.id);
      scheduleRender();
    },
    onReset: scheduleRender,
    onAnswer: answered,
    onTerminal(code) {
      if (code === 4401 || code === 4403) {
        localStorage.removeItem(TOKEN_KEY);
        showAlert(`this token was refused (${code === 4401 ? "unknown" : "revoked"}); enter another`);
        $("#login").hidden = false;
      } else if (code === 4404) {
        showAlert(`there is no league ${leagueId || "default"} on this server`);
      } else if (code === 4405) {
        showAlert(`this token is not allowed in league ${leagueId || "default"}; enter another`);
        $("#login").hidden = false;
      }
    },
  }, leagueId);
  stream.start();
}

// Ends the current stream and empties what it drew (its rows carry the old role's controls).
function dropStream(reason) {
  if (stream) stream.stop(reason);
  stream = null;
  pending.clear();
  rowsSeen.disconnect();
  onScreen.clear();
  undatable.clear();
  dateAsked = null;
  $("#matches").replaceChildren();
  $("#rankings tbody").replaceChildren();
}

function signOut() {
  localStorage.removeItem(TOKEN_KEY);
  dropStream("signed out");
  $("#league").hidden = true;
  $("#sign-out").hidden = true;
  $("#login").hidden = false;
}

function boot() {
  document.body.classList.toggle("tv", tv);
  $("#login").addEventListener("submit", (event) => {
    event.preventDefault(); // the token goes to localStorage and the hello only: no request carries it
    const input = $("#token");
    const token = input.value.trim();
    input.value = "";
    if (!token) return;
    localStorage.setItem(TOKEN_KEY, token);
    dropStream("new token");
    showAlert("");
    start(token);
  });
  $("#sign-out").addEventListener("click", signOut);
  $("#add-match").addEventListener("submit", addMatch);
  window.addEventListener("online", () => stream && stream.reconnectNow());
  const token = localStorage.getItem(TOKEN_KEY);
  if (token) start(token);
  else $("#login").hidden = false;
}

boot();
