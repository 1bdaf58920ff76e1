/* A score sheet drawn from its state (domain/scoresheet/views.py): the title, then one column per
 * player with their running total and rank (the result's once the game has ended, else how the
 * totals stand now); and, in the viewer, a plot of each player's total after each entry of the
 * sheet (a round, or one player's points), read from the record (scoresheet-sheet.js).
 *
 * The recorder (frame.recording) draws the totals only, short, so that they stay on the first
 * screen of a phone above the score pad.
 *
 * Data attributes carry what is drawn, for tests and tools: data-totals and data-ranks on the
 * sheet's group; data-seat, data-total and data-rank on each player's column; on the plot,
 * data-entries (the entries plotted) and data-seat on each player's line.
 */
import { svg, text, titled } from "../../lib/draw.js";
import { eventsUpTo, ordinal, ranksNow, rowsOf, shownTotal, written } from "./scoresheet-sheet.js";

const COLUMN_MIN = 84;
const TOP = 26; // the title's height
const ROW = 86; // a row of players' boxes
const PLOT = 240; // the plot's, under them in the viewer

function draw(board, state, ctx) {
  const seats = state.totals.length;
  // Boxes of a readable width, in as many rows as needed (a phone holds four a row), rather than
  // one row shrunk until the totals cannot be read.
  const width = ctx.narrow ? 380 : 680;
  const perRow = Math.min(seats, Math.floor((width - 16) / COLUMN_MIN));
  const rows = Math.ceil(seats / perRow);
  const column = (width - 16) / perRow;
  const head = TOP + rows * ROW;
  const result = state.result || null;
  const points = state.scoring !== "none";
  // Ranks: the result's (none in a game that ended with no winner); while the game goes on, how
  // the totals stand (none without points, none in a cooperative game, where the table wins or
  // loses together, and none in an abandoned game, which stands nowhere).
  const goesOn = !result && ctx.status !== "abandoned";
  const ranks = result ? result.ranks : goesOn && points && !state.cooperative ? ranksNow(state) : null;
  const plotted = !ctx.recording && points;
  // Each total as shown: "—" for a player no number was ever written for (not a 0).
  const shown = state.totals.map((total, seat) => shownTotal(state, seat));
  const longest = Math.max(...shown.map((total) => total.length));
  board.setAttribute("viewBox", `0 0 ${width} ${head + (plotted ? PLOT : 0)}`);
  const sheet = svg("g", {
    class: "sheet",
    "data-totals": JSON.stringify(state.totals),
    "data-ranks": ranks ? JSON.stringify(ranks) : null,
  });
  const rounds = state.rounds === 1 ? "1 round" : `${state.rounds} rounds`;
  const scoring = { highest: "highest wins", lowest: "lowest wins", none: "no points" }[state.scoring] || "";
  const kind = state.cooperative ? "cooperative" : scoring;
  // With teams, what is ranked is each team's total (views.py's team_totals).
  const teamTotals = points && state.teams && state.team_totals ? ` · ${state.team_totals.map((total, team) => `${teamName(state, team)} ${total}`).join(" · ")}` : "";
  sheet.append(text(8, 18, `${state.title} · ${rounds} · ${kind}${teamTotals}`, { class: "caption" }));
  const lines = [`${state.title}, after ${rounds}.`];
  for (let seat = 0; seat < seats; seat += 1) {
    const x = 8 + (seat % perRow) * column;
    const y = TOP + Math.floor(seat / perRow) * ROW; // the top of this player's box
    const middle = x + (column - 6) / 2;
    const name = ctx.players[seat];
    const group = svg("g", {
      class: "seat",
      "data-seat": seat,
      "data-total": String(state.totals[seat]),
      "data-rank": ranks ? String(ranks[seat]) : null,
    });
    group.append(svg("rect", { x, y, width: column - 6, height: ROW - 6, rx: 8, class: "panel" }));
    group.append(svg("circle", { cx: x + 12, cy: y + 16, r: 6, fill: ctx.colours[seat] }));
    // A long name is cut to its box (the whole name is in the box's title and the pad's columns).
    const room = Math.max(3, Math.floor((column - 30) / 8));
    group.append(text(x + 22, y + 21, name.length > room ? `${name.slice(0, room - 1)}…` : name, { class: "label" }));
    let said = points ? `${name}: ${shown[seat]}` : name;
    if (points) {
      // As big as the column lets the longest total be (a bold digit is about 0.62 em wide).
      const size = Math.min(28, Math.floor((column - 14) / (0.62 * longest)));
      group.append(text(middle, y + 52, shown[seat], { "text-anchor": "middle", "font-size": size, "font-weight": 700, class: "total" }));
    }
    let place = null;
    if (result && state.cooperative) place = result.winners.includes(seat) ? "won" : "lost";
    else if (ranks) place = result ? ordinal(ranks[seat]) : `${ordinal(ranks[seat])} now`;
    // With teams the line under the total names the player's team ("Red"), with its place.
    let line = place;
    if (state.teams) {
      const named = teamName(state, team(state, seat));
      const fits = Math.max(4, Math.floor((column - 10) / 7.5));
      const short = place ? `${named} ${place.replace(/ now$/, "")}` : named;
      line = short.length > fits ? `${short.slice(0, fits - 1)}…` : short;
      said += ` (${named})`;
    }
    if (line) group.append(text(middle, y + 73, line, { "text-anchor": "middle", class: "label place" }));
    if (place) said += `, ${place}`;
    sheet.append(titled(group, said));
    lines.push(`${said}.`);
  }
  board.append(sheet);
  if (plotted && ctx.id) plotLater(board, state, ctx, width, head);
  return { title: `${state.title} after move ${ctx.at} of ${ctx.version}`, description: lines.join(" ") };
}

/** The team of a seat (its index in state.teams). */
function team(state, seat) {
  return state.teams.findIndex((members) => members.includes(seat));
}

/** A team's name: the state's ("Red", or "Team 1" when not named). */
function teamName(state, team) {
  return (state.team_names && state.team_names[team]) || `Team ${team + 1}`;
}

/** The plot, once the record's events up to move `ctx.at` are read; drawn only if the board
 * still shows that move (the viewer may have stepped on meanwhile). */
function plotLater(board, state, ctx, width, head) {
  const place = svg("g", { class: "plot", "data-at": String(ctx.at), transform: `translate(0 ${head})` });
  board.append(place);
  eventsUpTo(ctx.id, ctx.at)
    .then((events) => {
      if (!board.contains(place)) return;
      plot(place, rowsOf(events, state.totals.length), ctx, width);
    })
    .catch((error) => {
      if (board.contains(place)) place.append(text(8, 30, "The plot could not be drawn: the record did not load.", { class: "label" }));
      console.warn(error);
    });
}

/** Each player's total (y) after each entry of the sheet (x: 0 before the first). */
function plot(place, rows, ctx, width) {
  const seats = ctx.players.length;
  const left = 52;
  const right = width - 16;
  const top = 16;
  const bottom = PLOT - 40;
  const series = [new Array(seats).fill(0), ...rows.map((row) => row.totals)];
  const values = series.flat();
  let low = Math.min(0, ...values);
  let high = Math.max(0, ...values);
  if (high === low) high = low + 1000;
  const x = (index) => left + (rows.length ? (index * (right - left)) / rows.length : 0);
  const y = (value) => bottom - ((value - low) * (bottom - top)) / (high - low);
  place.setAttribute("data-entries", String(rows.length));
  place.append(svg("rect", { x: left, y: top, width: right - left, height: bottom - top, class: "plot-area", fill: "none", stroke: "currentColor", "stroke-opacity": 0.25 }));
  for (const value of [low, high]) {
    place.append(text(left - 6, y(value) + 4, written(value), { "text-anchor": "end", class: "label axis" }));
  }
  if (low < 0 && high > 0) {
    place.append(svg("line", { x1: left, x2: right, y1: y(0), y2: y(0), stroke: "currentColor", "stroke-opacity": 0.3, "stroke-dasharray": "4 4" }));
    // Zero, named where it is far enough from the ends' labels not to overlap them.
    if (Math.min(y(0) - y(high), y(low) - y(0)) > 14) place.append(text(left - 6, y(0) + 4, "0", { "text-anchor": "end", class: "label axis" }));
  }
  // Each round is labelled by its number; a player's own points ("+") between rounds.
  const step = Math.max(1, Math.ceil(rows.length / 12));
  rows.forEach((row, index) => {
    if ((index + 1) % step && index !== rows.length - 1) return;
    const label = row.kind === "round" ? String(row.round) : "+";
    place.append(text(x(index + 1), bottom + 16, label, { "text-anchor": "middle", class: "label axis" }));
  });
  place.append(text((left + right) / 2, bottom + 34, rows.length ? "total after each round (+: a player's own points)" : "no points written yet", { "text-anchor": "middle", class: "caption" }));
  for (let seat = 0; seat < seats; seat += 1) {
    const path = series.map((totals, index) => `${index ? "L" : "M"}${x(index).toFixed(1)} ${y(totals[seat]).toFixed(1)}`).join(" ");
    const line = svg("path", { d: path, fill: "none", stroke: ctx.colours[seat], "stroke-width": 3, "stroke-linejoin": "round", class: "plot-line", "data-seat": seat });
    const last = series[series.length - 1][seat];
    place.append(titled(line, `${ctx.players[seat]}: ${series.map((totals) => written(totals[seat])).join(", ")}`));
    place.append(svg("circle", { cx: x(series.length - 1), cy: y(last), r: 4, fill: ctx.colours[seat] }));
  }
}

export { draw };
