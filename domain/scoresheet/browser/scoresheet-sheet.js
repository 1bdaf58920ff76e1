/* A score sheet's rows, read from its record: each `round` a row, each `score` a row with one
 * player's points, in the order written, with the totals after each. The state (views.py) holds
 * the totals and the count of rounds only; the rows are the record's events, which nothing hides
 * in a score sheet, so the public GET /games/{id}/events gives them to any page.
 *
 * Arithmetic is in thousandths, as the rules' (domain/scoresheet/numbers.py): a number has at
 * most 3 decimals, so thousandths are exact integers and 0.1 + 0.2 adds up to 0.3.
 */

const PAGE = 1000; // events asked for per GET /events

// The events read so far, per game: the record only grows (a retraction is an event too), so the
// pages ask only for what came after. A cache of public data, shared by every draw of the page.
const records = new Map();

/** The game's events, from the first to move `upTo` at least (a Promise of the list). */
export async function eventsUpTo(id, upTo) {
  const known = records.get(id) || [];
  records.set(id, known);
  while (known.length < upTo) {
    const from = known.length + 1;
    const response = await fetch(`/games/${encodeURIComponent(id)}/events?from=${from}&limit=${PAGE}`, { cache: "no-store" });
    if (!response.ok) throw new Error(`GET /events answered ${response.status}`);
    const body = await response.json();
    const words = body.words || [];
    body.events.forEach((event, index) => {
      if (event.seq === known.length + 1) known.push({ ...event, words: words[index] });
    });
    if (body.events.length < PAGE) break;
  }
  return known.slice(0, upTo);
}

/** The events that stand after the first `at` (each retraction takes back the last standing). */
export function standing(events) {
  const stack = [];
  for (const event of events) {
    if (event.type === "retract") stack.pop();
    else if (event.type !== "abandon") stack.push(event);
  }
  return stack;
}

/** The sheet's rows from the standing events: {seq, kind, round, points (one per seat, null
 * for none), totals (after it, in thousandths), words}. */
export function rowsOf(events, seats) {
  const rows = [];
  let totals = new Array(seats).fill(0);
  let round = 0;
  for (const event of standing(events)) {
    let points = null;
    if (event.type === "round" && Array.isArray(event.points)) {
      round += 1;
      points = event.points.slice(0, seats);
    } else if (event.type === "score" && Number.isInteger(event.player)) {
      points = new Array(seats).fill(null);
      points[event.player] = event.points;
    } else continue;
    totals = totals.map((total, seat) => total + milli(points[seat]));
    rows.push({ seq: event.seq, kind: event.type, round: event.type === "round" ? round : null, points, totals, words: event.words });
  }
  return rows;
}

/** The last standing event, whatever its type (what "Take back the last entry" takes back). */
export function lastStanding(events) {
  const stack = standing(events);
  return stack.length ? stack[stack.length - 1] : null;
}

function milli(points) {
  return typeof points === "number" ? Math.round(points * 1000) : 0;
}

/** Thousandths written as the API writes a number: shortest form (12, 4.5, -0.125). */
export function written(thousandths) {
  return String(thousandths / 1000);
}

/** A typed number as the JSON number to send, or null if it is not one: an integer or a decimal
 * with at most 3 digits after the point (a comma is read as the point, as many phones type it),
 * within 10^9. Sent as a Number, JSON.stringify writes it without an exponent at this size. */
export function parsePoints(typed) {
  const text = String(typed).trim().replace(",", ".").replace(/^\u2212/, "-");
  if (!/^[-+]?(\d+(\.\d{0,3})?|\.\d{1,3})$/.test(text)) return null;
  const number = Number(text);
  if (!Number.isFinite(number) || Math.abs(number) > 1e9) return null;
  return number === 0 ? 0 : number; // never -0
}

/** Competition ranks of `values`, best first: equal values share a rank and the next skips (1,
 * 2, 2, 4); a null (no number written) ranks after every number, the nulls sharing that rank.
 * The rules rank the totals this way when the end leaves it to them (state.py). */
export function standings(values, highest) {
  const better = (other, value) => other !== null && (value === null || (highest ? other > value : other < value));
  return values.map((value) => 1 + values.filter((other) => better(other, value)).length);
}

/** Whether any number was written for `seat` (the state's `entered`): a total of 0 with none
 * written is no score ("—"), not a 0. */
export function hasNumber(state, seat) {
  return !state.entered || state.entered[seat] > 0;
}

/** A seat's total as the sheet shows it: its number, or "—" when none was ever written. */
export function shownTotal(state, seat) {
  return hasNumber(state, seat) ? String(state.totals[seat]) : NO_NUMBER;
}

export const NO_NUMBER = "—";

/** A rank per seat, from the totals (or the teams' totals): how the game stands now. */
export function ranksNow(state) {
  const seats = state.totals.length;
  const highest = state.scoring !== "lowest";
  if (!state.teams) return standings(state.totals.map((total, seat) => (hasNumber(state, seat) ? milli(total) : null)), highest);
  const teamTotal = (team) => (team.some((seat) => hasNumber(state, seat)) ? team.reduce((sum, seat) => sum + milli(state.totals[seat]), 0) : null);
  const teamRanks = standings(state.teams.map(teamTotal), highest);
  const ranks = new Array(seats).fill(0);
  state.teams.forEach((team, index) => team.forEach((seat) => { ranks[seat] = teamRanks[index]; }));
  return ranks;
}

export function ordinal(rank) {
  const tens = rank % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[rank % 10] || "th");
  return `${rank}${suffix}`;
}
