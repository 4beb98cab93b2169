// A refused mutation in goal-client's words (GoalViewModels' MutationError.alertMessage and ConflictAlert): a
// conflict says which fields someone else changed and what they hold now; an unauthorized refusal says what to do;
// anything else is "refused (code): message", with players and matches named as people name them (League.naming).

/** "home_goals" → "home goals". */
function label(field) {
  return field.replace(/_/g, " ");
}

/** "a", "a and b", "a, b and c". */
function list(items) {
  if (items.length <= 1) return items[0] || "";
  return items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
}

/**
 * @param {object} rejection the server's `rejected` message
 * @param {League} league where names come from
 * @returns {string} one line for the page's alert
 */
export function refusalText(rejection, league) {
  const fields = rejection.fields || [];
  if (rejection.code === "conflict") {
    const current = rejection.current;
    const values = [];
    for (const field of fields) {
      if (!current) break;
      if (current.kind === "match" && field in current) {
        const value = current[field];
        values.push(`${label(field)}: ${Array.isArray(value) ? league.names(value) : value}`);
      } else if (current.kind === "player" && field === "name") {
        values.push(`name: ${current.name}`);
      }
    }
    const changed = fields.length ? list(fields.map(label)) : "it";
    const now = values.length ? ` Now: ${values.join("; ")}.` : "";
    return `Someone else changed ${changed} while you were editing.${now}`;
  }
  if (rejection.code === "unauthorized") {
    return `refused (unauthorized): ${league.naming(rejection.message)}; ask an admin for an editor token`;
  }
  return `refused (${rejection.code}): ${league.naming(rejection.message)}`;
}
