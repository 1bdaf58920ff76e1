/* Mada's drawing (mada.js puts it together with its touches, mada-touch.js): the table, the
 * seats' rows, and the pictures and words the touch targets use. */
import { humanize, plural, svg, text, titled } from "../../lib/draw.js";

export const CARD_W = 44;
export const CARD_H = 60;
const SPECIAL_NAMES = { lemur: "Lemur", double_lemur: "Double Lemur", scorpion: "Scorpion" };

export function cardName(card) {
  return typeof card === "number" ? `${card}` : SPECIAL_NAMES[card] || String(card);
}

function pearsOf(card, cards) {
  if (typeof card !== "number") return 0;
  const pears = (cards.pears || {})[String(card)];
  return typeof pears === "number" ? pears : 0;
}

/** A card face up: a Cactus card's value and its prickly pears, or a special card's name. */
export function faceUp(card, x, y, cards) {
  const group = svg("g", { class: "card", "data-card": JSON.stringify(card) });
  if (typeof card === "number") {
    group.append(svg("rect", { x, y, width: CARD_W, height: CARD_H, rx: 5, class: "card-face", fill: "#fff", stroke: "#5b6068" }));
    group.append(text(x + CARD_W / 2, y + 30, card, { "text-anchor": "middle", "font-size": 22, "font-weight": 700 }));
    // Its value in the top-left corner too, as on a card held fanned: a card half under the next
    // one (a stack set aside on a phone) still shows it.
    group.append(text(x + 2.5, y + 10, card, { "font-size": 9, "font-weight": 700, class: "corner" }));
    const pears = pearsOf(card, cards);
    const shown = Math.min(pears, 6);
    const step = 6.2;
    const left = x + CARD_W / 2 - ((shown - 1) * step) / 2;
    for (let index = 0; index < shown; index += 1) {
      group.append(svg("circle", { cx: left + index * step, cy: y + CARD_H - 11, r: 2.6, fill: "#2e7d32" }));
    }
    if (pears > 6) group.append(text(x + CARD_W - 4, y + CARD_H - 4, `${pears}`, { "text-anchor": "end", "font-size": 8 }));
    return titled(group, `Cactus ${card}: ${plural(pears, "prickly pear")}`);
  }
  const scorpion = card === "scorpion";
  group.append(svg("rect", {
    x, y, width: CARD_W, height: CARD_H, rx: 5, class: `card-face ${scorpion ? "scorpion" : "special"}`,
    fill: scorpion ? "#ffe9e6" : "#f3ecff", stroke: scorpion ? "#a1281c" : "#6a3fa0",
  }));
  const words = cardName(card).split(" ");
  const symbol = { lemur: "L", double_lemur: "LL", scorpion: "S" }[card] || "?";
  group.append(text(x + CARD_W / 2, y + 28, symbol, {
    "text-anchor": "middle", "font-size": 20, "font-weight": 700, fill: scorpion ? "#8c1d13" : "#5a2f8f",
  }));
  words.forEach((word, index) => {
    group.append(text(x + CARD_W / 2, y + 42 + index * 10, word, { "text-anchor": "middle", "font-size": 9 }));
  });
  return titled(group, cardName(card));
}

export function faceDown(x, y, what) {
  const group = svg("g", { class: "card hidden-card" });
  group.append(svg("rect", { x, y, width: CARD_W, height: CARD_H, rx: 5, class: "card-back", fill: "#2f4f6f", stroke: "#1b2e40" }));
  group.append(svg("rect", {
    x: x + 5, y: y + 5, width: CARD_W - 10, height: CARD_H - 10, rx: 3, class: "card-back-pattern", fill: "none", stroke: "#8fb0cf",
  }));
  return titled(group, what || "a card, face down");
}

function emptySlot(x, y, words) {
  return svg("g", { class: "empty-slot" },
    svg("rect", { x, y, width: CARD_W, height: CARD_H, rx: 5, class: "slot" }),
    text(x + CARD_W / 2, y + CARD_H / 2 + 4, words, { "text-anchor": "middle", class: "small" }));
}

// The step between fanned cards at which each still shows its corner value (top left): a
// two-digit value in the corner's 9 px bold type, and a margin.
const CORNER_STEP = 15;

/** The width a fan of ``count`` cards needs for every card to show its corner value. */
function cornersWidth(count) {
  return CARD_W + Math.max(count - 1, 0) * CORNER_STEP;
}

/** Cards side by side within ``width``, overlapping when they must; the last one whole. */
function fan(cards, x, y, width, drawOne) {
  const group = svg("g", { class: "fan" });
  const step = cards.length > 1 ? Math.min(CARD_W + 4, (width - CARD_W) / (cards.length - 1)) : 0;
  cards.forEach((card, index) => group.append(drawOne(card, x + index * step, y, index)));
  return group;
}

function listed(cards) {
  return cards.length ? cards.map(cardName).join(", ") : "nothing";
}

export function draw(board, state, ctx) {
  const cards = ctx.cards || {};
  const seats = state.hand_sizes.length;
  const narrow = ctx.narrow;
  // On a phone, narrow enough that the cards drawn at a finger's size (lib/zoom.js) fit the width.
  const width = narrow ? 370 : 680;
  const rowHeight = narrow ? 108 : 118;
  const tableHeight = 92;
  const height = tableHeight + seats * (rowHeight + 8) + 4;
  board.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const lines = [];

  // The table: draw pile, discard, round, the decision awaited.
  const table = svg("g", {
    class: "table",
    "data-draw-pile-size": state.draw_pile_size,
    "data-discard": JSON.stringify(state.discard),
  });
  table.append(text(8, 16, "Draw pile", { class: "caption" }));
  const drawPile = svg("g", { class: "draw-pile" });
  if (state.draw_pile_size > 0) drawPile.append(faceDown(8, 22, plural(state.draw_pile_size, "card") + " to draw"));
  else drawPile.append(emptySlot(8, 22, "empty"));
  table.append(drawPile);
  table.append(text(58, 56, state.draw_pile_size, { class: "label" }));
  table.append(text(98, 16, "Discard", { class: "caption" }));
  const discardTop = state.discard[state.discard.length - 1];
  if (state.discard.length) table.append(faceUp(discardTop, 98, 22, cards));
  else table.append(emptySlot(98, 22, "empty"));
  table.append(text(148, 56, state.discard.length, { class: "label" }));
  const info = narrow ? 190 : 220;
  table.append(text(info, 30, `Round ${state.round}`, { class: "label" }));
  let turn;
  if (state.status === "abandoned") {
    turn = "Game abandoned";
  } else if (state.status === "finished") {
    const names = (state.winners || []).map((seat) => ctx.players[seat]);
    turn = names.length ? `Game over: ${names.join(" and ")} won` : "Game over";
  } else if (state.pending) {
    turn = `${ctx.players[state.pending.player]} to choose: ${humanize(state.pending.kind)}`;
  } else if (state.current_player !== null && state.current_player !== undefined) {
    turn = `${ctx.players[state.current_player]} to play`;
  } else {
    turn = "";
  }
  table.append(text(info, 52, turn, { class: "label" }));
  board.append(table);
  lines.push(`Round ${state.round}. ${turn}.`);
  lines.push(`Draw pile: ${plural(state.draw_pile_size, "card")}. Discard: ${plural(state.discard.length, "card")}${state.discard.length ? `, ${cardName(discardTop)} on top` : ""}.`);

  for (let seat = 0; seat < seats; seat += 1) {
    const top = tableHeight + seat * (rowHeight + 8);
    const name = ctx.players[seat] || `seat ${seat}`;
    const hand = state.hands ? state.hands[seat] : null;
    const pile = state.piles[seat];
    const setAside = state.set_aside ? state.set_aside[seat] : null;
    const score = state.scores ? state.scores[seat] : null;
    const current = state.current_player === seat;
    const winner = (state.winners || []).includes(seat);
    const group = svg("g", {
      class: "seat",
      "data-seat": seat,
      "data-hand": hand ? JSON.stringify(hand) : null,
      "data-hand-size": state.hand_sizes[seat],
      "data-pile": JSON.stringify(pile),
      "data-set-aside": setAside ? JSON.stringify(setAside) : null,
      "data-set-aside-count": state.set_aside_counts[seat],
      "data-score": score === null ? null : score,
      "data-current": current ? "true" : null,
    });
    group.append(svg("rect", { x: 2, y: top, width: width - 4, height: rowHeight, rx: 8, class: current ? "panel current" : "panel" }));
    group.append(svg("circle", { cx: 16, cy: top + 16, r: 7, fill: ctx.colours[seat] }));
    let heading = name;
    if (score !== null) heading += ` · score ${score}`;
    if (winner) heading += " · winner";
    if (current && state.status === "active") heading += " · to play";
    group.append(text(28, top + 21, heading, { class: "label" }));

    // Hand, pile, set aside: side by side, narrower (and overlapping more) on a phone.
    const handX = 10;
    const handY = top + (narrow ? 42 : 44);
    // The pile and the set-aside stack share the row's right part. The stack takes what its
    // cards need to show each value in its corner (a 13 must not hide under a 10), leaving the
    // pile at least two cards' width; the pile takes the rest.
    const pileX = narrow ? 140 : 216;
    const pileY = handY;
    const rightEnd = width - 10;
    const gap = 10;
    const asideCards = setAside ? setAside.length : state.set_aside_counts[seat];
    const asideRoom = Math.min(cornersWidth(asideCards), rightEnd - pileX - gap - 2 * CARD_W);
    const asideWidth = Math.max(narrow ? 64 : 196, asideRoom);
    const asideX = rightEnd - asideWidth;
    const pileWidth = asideX - gap - pileX;
    const asideWords = narrow ? "Aside" : "Set aside";
    group.append(text(handX, handY - 6, `Hand (${state.hand_sizes[seat]})`, { class: "caption" }));
    group.append(text(pileX, pileY - 6, `Pile (${pile.length})`, { class: "caption" }));
    group.append(text(asideX, handY - 6, `${asideWords} (${state.set_aside_counts[seat]})`, { class: "caption" }));

    const region = (name, cardsShown, count, x, y, regionWidth, hiddenWhat, emptyWords) => {
      const area = svg("g", { class: name });
      if (cardsShown) {
        area.append(cardsShown.length
          ? fan(cardsShown, x, y, regionWidth, (card, cx, cy) => faceUp(card, cx, cy, cards))
          : emptySlot(x, y, emptyWords));
      } else {
        const backs = Array.from({ length: count }, () => null);
        area.append(backs.length
          ? fan(backs, x, y, regionWidth, (card, cx, cy) => faceDown(cx, cy, hiddenWhat))
          : emptySlot(x, y, emptyWords));
      }
      group.append(area);
    };
    region("hand", hand, state.hand_sizes[seat], handX, handY, narrow ? 124 : 188, "a card in hand", "none");
    region("pile", pile, pile.length, pileX, pileY, pileWidth, "", "empty");
    region("set-aside", setAside, state.set_aside_counts[seat], asideX, handY, asideWidth, "a card set aside, face down", "none");
    board.append(group);

    const parts = [
      hand ? `hand ${listed(hand)}` : `${plural(state.hand_sizes[seat], "card")} in hand, hidden`,
      `pile ${pile.length ? listed(pile) + " (bottom to top)" : "empty"}`,
      setAside ? `set aside ${listed(setAside)}` : `${plural(state.set_aside_counts[seat], "card")} set aside, face down`,
    ];
    if (score !== null) parts.push(`score ${score}`);
    lines.push(`${name}${winner ? " (winner)" : ""}: ${parts.join("; ")}.`);
  }
  return {
    title: `Mada after move ${ctx.at} of ${ctx.version}`,
    description: lines.join(" "),
  };
}
