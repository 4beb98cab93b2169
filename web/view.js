// Drawing the league: the rankings table and the match list, keyed by id so a row is updated in place (and
// flashes for a moment when a change touched it), moved when the order changes, and removed when its entity is.
// Text from the server only ever goes into textContent, never into markup.

const FLASH_MS = 1600;

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Restarts the row's highlight: a class with a CSS animation (background, outline and a marker that stays
// readable with colours off).
function flash(node) {
  node.classList.remove("changed");
  void node.offsetWidth; // a reflow, so the animation starts again
  node.classList.add("changed");
  clearTimeout(node.flashTimer);
  node.flashTimer = setTimeout(() => node.classList.remove("changed"), FLASH_MS);
}

// Puts `rows` (each with a `.key`) into `container` in order, reusing the element made for each key before;
// `removed(node)` (optional) hears of each element taken out.
function reconcile(container, rows, make, update, changed, removed) {
  const existing = new Map();
  for (const node of Array.from(container.children)) existing.set(node.dataset.key, node);
  let previous = null;
  for (const row of rows) {
    let node = existing.get(row.key);
    if (node) existing.delete(row.key);
    else node = make(row);
    update(node, row);
    const want = previous ? previous.nextSibling : container.firstChild;
    if (want !== node) container.insertBefore(node, want);
    if (changed.has(row.key)) flash(node);
    previous = node;
  }
  for (const node of existing.values()) {
    node.remove();
    if (removed) removed(node);
  }
}

function two(n) {
  return String(n).padStart(2, "0");
}

/** A match's date as the match lists show it (goal-client too): "HH:MM" today, else "YYYY-MM-DD"; local time. */
export function matchDate(milliseconds, now = new Date()) {
  const d = new Date(milliseconds);
  const today = d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
  if (today) return `${two(d.getHours())}:${two(d.getMinutes())}`;
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

export function renderRankings(tbody, league, changed) {
  const rows = league.rankings().map((r, index) => ({ ...r, key: r.id, rank: index + 1 }));
  reconcile(
    tbody,
    rows,
    (row) => {
      const tr = element("tr");
      tr.dataset.key = row.key;
      for (const name of ["rank", "name", "rating", "played", "won", "drawn", "lost"]) {
        tr.appendChild(element(name === "name" ? "th" : "td", name));
      }
      tr.firstChild.nextSibling.setAttribute("scope", "row");
      return tr;
    },
    (tr, row) => {
      const cells = tr.children;
      cells[0].textContent = String(row.rank);
      cells[1].textContent = row.name;
      cells[2].textContent = row.rating.toFixed(2);
      cells[3].textContent = String(row.played);
      cells[4].textContent = String(row.won);
      cells[5].textContent = String(row.drawn);
      cells[6].textContent = String(row.lost);
    },
    changed
  );
}

/**
 * @param {HTMLElement} list the <ol> of matches
 * @param {object} options { limit, editable, pending: Set of match ids, onAdjust(matchId, side, delta),
 *   onRow(li) and onRowRemoved(li): a row element was made or taken out (app.js watches which are on screen) }
 * Each row shows its match's date (`league.created`) when known, else nothing.
 */
export function renderMatches(list, league, changed, options) {
  let matches = league.matchesNewestFirst();
  if (options.limit) matches = matches.slice(0, options.limit);
  const rows = matches.map((m) => ({ key: m.id, match: m }));
  reconcile(
    list,
    rows,
    (row) => {
      const li = element("li", "match");
      li.dataset.key = row.key;
      li.appendChild(element("time", "date"));
      li.appendChild(element("span", "home"));
      const score = element("span", "score");
      score.append(element("span", "home-goals"), element("span", "colon", " : "), element("span", "away-goals"));
      li.appendChild(score);
      li.appendChild(element("span", "away"));
      li.appendChild(element("span", "pending"));
      if (options.editable) {
        // Each side's − and + under that side's names.
        for (const side of ["home", "away"]) {
          const controls = element("span", `controls ${side}-controls`);
          for (const [delta, label] of [
            [-1, "−"],
            [1, "+"],
          ]) {
            const button = element("button", `adjust ${side} ${delta > 0 ? "plus" : "minus"}`, label);
            button.type = "button";
            button.setAttribute("aria-label", `${side} ${delta > 0 ? "+1" : "−1"}`);
            button.addEventListener("click", () => options.onAdjust(row.key, side, delta));
            controls.appendChild(button);
          }
          li.appendChild(controls);
        }
      }
      if (options.onRow) options.onRow(li);
      return li;
    },
    (li, row) => {
      const m = row.match;
      const created = league.created.get(m.id);
      const date = li.querySelector(".date");
      date.textContent = created === undefined ? "" : matchDate(created);
      if (created === undefined) date.removeAttribute("datetime");
      else date.setAttribute("datetime", new Date(created).toISOString());
      li.querySelector(".home").textContent = league.names(m.home_players);
      li.querySelector(".home-goals").textContent = String(m.home_goals);
      li.querySelector(".away-goals").textContent = String(m.away_goals);
      li.querySelector(".away").textContent = league.names(m.away_players);
      const pending = options.pending.has(m.id);
      li.querySelector(".pending").textContent = pending ? "(pending)" : "";
      li.classList.toggle("is-pending", pending);
    },
    changed,
    options.onRowRemoved
  );
}

/** The add-match form's two player pickers, keeping what is selected. */
export function renderPickers(selects, league) {
  const players = Array.from(league.players.values()).sort((a, b) => (a.name_key < b.name_key ? -1 : 1));
  const signature = players.map((p) => p.id + "\u0000" + p.name).join("\u0001");
  for (const select of selects) {
    if (select.dataset.signature === signature) continue; // unchanged: leave the user's selection alone
    select.dataset.signature = signature;
    const chosen = new Set(Array.from(select.selectedOptions, (o) => o.value));
    select.replaceChildren(
      ...players.map((p) => {
        const option = element("option", "", p.name);
        option.value = p.id;
        option.selected = chosen.has(p.id);
        return option;
      })
    );
  }
}
