/* Tally, drawn from its state (tests/games/tally/rules.py's view): the tally as a big number out of
 * 15, the cards played, then one row per seat with its hand. A hand the viewer may not see (null in
 * the state) is drawn face down: the state gives only its size.
 *
 * Its moves are said in the words of Game.describe, which the API sends: none is said here.
 *
 * Data attributes carry what is drawn, as JSON, for tests and tools: data-tally and data-played on
 * the table's group; on each seat's group data-seat, data-hand (when shown), data-hand-size and
 * data-current.
 */
import { plural, svg, text, titled } from "../../lib/draw.js";

const CARD_W = 44;
const CARD_H = 60;
const TARGET = 15;

function faceUp(card, x, y) {
  const group = svg("g", { class: "card", "data-card": JSON.stringify(card) });
  group.append(svg("rect", { x, y, width: CARD_W, height: CARD_H, rx: 5, class: "card-face" }));
  group.append(text(x + CARD_W / 2, y + 38, card, { "text-anchor": "middle", "font-size": 24, "font-weight": 700 }));
  return titled(group, `a ${card}`);
}

function faceDown(x, y) {
  const group = svg("g", { class: "card hidden-card" });
  group.append(svg("rect", { x, y, width: CARD_W, height: CARD_H, rx: 5, class: "card-back" }));
  group.append(svg("rect", { x: x + 5, y: y + 5, width: CARD_W - 10, height: CARD_H - 10, rx: 3, class: "card-back-pattern" }));
  return titled(group, "a card in hand, face down");
}

function emptySlot(x, y) {
  return svg("g", { class: "empty-slot" },
    svg("rect", { x, y, width: CARD_W, height: CARD_H, rx: 5, class: "slot" }),
    text(x + CARD_W / 2, y + CARD_H / 2 + 4, "none", { "text-anchor": "middle", class: "small" }));
}

function row(cards, x, y, drawOne) {
  const group = svg("g", { class: "fan" });
  if (!cards.length) group.append(emptySlot(x, y));
  cards.forEach((card, index) => group.append(drawOne(card, x + index * (CARD_W + 6), y)));
  return group;
}

function draw(board, state, ctx) {
  const narrow = ctx.narrow;
  const width = narrow ? 380 : 680;
  const seats = state.hand_sizes.length;
  const tableHeight = 120;
  const rowHeight = 104;
  board.setAttribute("viewBox", `0 0 ${width} ${tableHeight + seats * (rowHeight + 8) + 4}`);
  const lines = [];

  let turn = "";
  if (state.status === "finished") {
    const names = (state.winners || []).map((seat) => ctx.players[seat]);
    turn = names.length ? `Game over: ${names.join(" and ")} won` : "Game over";
  } else if (Number.isInteger(state.current_player)) {
    turn = `${ctx.players[state.current_player]} to play`;
  }
  const table = svg("g", { class: "table", "data-tally": state.tally, "data-played": JSON.stringify(state.played) });
  table.append(text(8, 16, `Tally (${TARGET} wins)`, { class: "caption" }));
  const big = text(8, 84, state.tally, { class: "tally", "font-size": 72, "font-weight": 700 });
  table.append(titled(svg("g", { class: "tally-count" }, big), `tally ${state.tally} of ${TARGET}`));
  table.append(text(120, 16, `Played (${state.played.length})`, { class: "caption" }));
  const recent = state.played.slice(-(narrow ? 4 : 9));
  table.append(row(recent, 120, 24, faceUp));
  table.append(text(narrow ? 8 : 120, 108, `${turn}. Deck: ${plural(state.deck_size, "card")}.`, { class: "label" }));
  board.append(table);
  lines.push(`Tally ${state.tally} of ${TARGET}. ${turn}.`);
  lines.push(`Played: ${state.played.length ? state.played.join(", ") : "nothing"}.`);

  for (let seat = 0; seat < seats; seat += 1) {
    const top = tableHeight + seat * (rowHeight + 8);
    const name = ctx.players[seat] || `seat ${seat}`;
    const hand = state.hands ? state.hands[seat] : null;
    const current = state.status !== "finished" && state.current_player === seat;
    const winner = (state.winners || []).includes(seat);
    const group = svg("g", {
      class: "seat",
      "data-seat": seat,
      "data-hand": hand ? JSON.stringify(hand) : null,
      "data-hand-size": state.hand_sizes[seat],
      "data-current": current ? "true" : null,
    });
    group.append(svg("rect", { x: 2, y: top, width: width - 4, height: rowHeight, rx: 8, class: current ? "panel current" : "panel" }));
    group.append(svg("circle", { cx: 16, cy: top + 16, r: 7, fill: ctx.colours[seat] }));
    let heading = `${name} · hand (${state.hand_sizes[seat]})`;
    if (winner) heading += " · winner";
    if (current) heading += " · to play";
    group.append(text(28, top + 21, heading, { class: "label" }));
    const shown = hand || Array.from({ length: state.hand_sizes[seat] }, () => null);
    group.append(row(shown, 10, top + 32, hand ? faceUp : (card, x, y) => faceDown(x, y)));
    board.append(group);
    const what = hand ? `hand ${hand.length ? hand.join(", ") : "empty"}` : `${plural(state.hand_sizes[seat], "card")} in hand, hidden`;
    lines.push(`${name}${winner ? " (winner)" : ""}: ${what}.`);
  }
  return { title: `Tally after move ${ctx.at} of ${ctx.version}`, description: lines.join(" ") };
}

export { draw };
