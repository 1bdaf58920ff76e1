/* Mada, drawn from its state (domain/mada/views.py): the draw pile and the discard, then one row
 * per seat with its hand, its personal pile (bottom to top, left to right) and the cards it set
 * aside, with its score. Hidden cards (hands, cards set aside while the game is on) are drawn face
 * down: the public view gives only their number. On a phone's width a row holds its hand, pile and
 * cards set aside side by side, so that the cards stay big enough to touch.
 *
 * Data attributes carry what is drawn, as JSON, for tests and tools: on each seat's group
 * data-hand (when shown), data-hand-size, data-pile, data-set-aside (when shown),
 * data-set-aside-count and data-score (when shown); data-discard and data-draw-pile-size on the
 * table's group.
 *
 * Recording by touch (record(table), called by the recorder page, service/pages/static/record.js):
 * every target comes from the moves GET /legal lists now, nothing here knows a rule.
 * - a turn: touch a card of the hand to play it (a Double Lemur then asks whose pile to swap with:
 *   touch that seat's row, unless there is only one other seat); touch the draw pile to draw; "Try
 *   your luck" is a button under the board (the draw pile itself tries your luck when drawing is
 *   not allowed). In observed mode the card drawn or revealed is then picked from pictures.
 * - a deal (observed mode): touch the draw pile (or the seat's hand, or the button), then pick the
 *   three cards from pictures, one at a time, each with how many of it may still be unseen.
 * - the Scorpion: touch the hand card that goes with it.
 * - a Double Lemur revealed by trying one's luck: touch the row of the seat to swap piles with.
 * - after losing a round: touch the cards to discard, in order, then confirm; "Keep every card" is
 *   the default, offered while none is chosen.
 * A move's words are the API's (Game.describe, domain/mada/display.py): none is said here.
 */
import { humanize, plural, svg, text, titled } from "../../lib/draw.js";

const CARD_W = 44;
const CARD_H = 60;
const SPECIAL_NAMES = { lemur: "Lemur", double_lemur: "Double Lemur", scorpion: "Scorpion" };

function cardName(card) {
  return typeof card === "number" ? `${card}` : SPECIAL_NAMES[card] || String(card);
}

function pearsOf(card, cards) {
  if (typeof card !== "number") return 0;
  const pears = (cards.pears || {})[String(card)];
  return typeof pears === "number" ? pears : 0;
}

/** A card face up: a Cactus card's value and its prickly pears, or a special card's name. */
function faceUp(card, x, y, cards) {
  const group = svg("g", { class: "card", "data-card": JSON.stringify(card) });
  if (typeof card === "number") {
    group.append(svg("rect", { x, y, width: CARD_W, height: CARD_H, rx: 5, class: "card-face", fill: "#fff", stroke: "#5b6068" }));
    group.append(text(x + CARD_W / 2, y + 30, card, { "text-anchor": "middle", "font-size": 22, "font-weight": 700 }));
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

function faceDown(x, y, what) {
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

function draw(board, state, ctx) {
  const cards = ctx.cards || {};
  const seats = state.hand_sizes.length;
  const narrow = ctx.narrow;
  const width = narrow ? 380 : 680;
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
  if (state.status === "finished") {
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
    if (current && state.status !== "finished") heading += " · to play";
    group.append(text(28, top + 21, heading, { class: "label" }));

    // Hand, pile, set aside: side by side, narrower (and overlapping more) on a phone.
    const handX = 10;
    const handY = top + (narrow ? 42 : 44);
    const asideX = narrow ? 302 : 474;
    const asideWidth = width - asideX - 10;
    const pileX = narrow ? 142 : 216;
    const pileY = handY;
    const pileWidth = narrow ? 150 : 246;
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

// Words for the touch targets ---------------------------------------------------------------------

/** A card with its article: "a 7", "an 8", "a Lemur". */
function aCard(card) {
  if (typeof card === "number") return `${card === 8 || card === 11 || card === 18 ? "an" : "a"} ${card}`;
  return `a ${cardName(card)}`;
}

function listWords(items) {
  if (items.length <= 1) return items.length ? items[0] : "nothing";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function seatWords(seat, players) {
  if (seat === null || seat === undefined) return "someone";
  return Number.isInteger(seat) && seat >= 0 && seat < players.length ? players[seat] : `seat ${seat}`;
}

// Recording by touch ----------------------------------------------------------------------------

const SPECIAL_ORDER = ["lemur", "double_lemur", "scorpion"];
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
// Touch targets: an outline on the card or row that records when touched.
const TOUCH = "#1565c0";
const CHOSEN = "#7a5800"; // white on it: a contrast above 4.5 to 1

/** Cards in the order the deck lists them (for showing choices only: Cactus by value, then the
 * specials). */
function inDeckOrder(cards) {
  const rank = (card) => (typeof card === "number" ? card : 100 + SPECIAL_ORDER.indexOf(card));
  return cards.slice().sort((a, b) => rank(a) - rank(b));
}

function distinct(cards) {
  const seen = new Map();
  for (const card of cards) seen.set(JSON.stringify(card), card);
  return [...seen.values()];
}

function countOf(cards, card) {
  return cards.filter((item) => same(item, card)).length;
}

/** Whether ``wanted`` (a multiset) lies within ``cards``. */
function within(wanted, cards) {
  const left = cards.slice();
  for (const card of wanted) {
    const at = left.findIndex((item) => same(item, card));
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

/** The box of an SVG element drawn with x/y/width/height rects (the drawing's own numbers). */
function boxOf(node) {
  if (!node) return null;
  const rects = node.tagName.toLowerCase() === "rect" ? [node] : [...node.querySelectorAll("rect")];
  if (!rects.length) return null;
  const num = (rect, name) => Number(rect.getAttribute(name));
  const left = Math.min(...rects.map((rect) => num(rect, "x")));
  const top = Math.min(...rects.map((rect) => num(rect, "y")));
  const right = Math.max(...rects.map((rect) => num(rect, "x") + num(rect, "width")));
  const bottom = Math.max(...rects.map((rect) => num(rect, "y") + num(rect, "height")));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

function cardPicture(card, cards) {
  return (drawing) => drawing.append(faceUp(card, 2, 2, cards));
}

function backPicture(mark) {
  return (drawing) => {
    drawing.append(faceDown(2, 2, "the draw pile"));
    if (mark) drawing.append(text(24, 40, mark, { "text-anchor": "middle", "font-size": 22, "font-weight": 700, fill: "#fff" }));
  };
}

function pilePicture(pile, cards) {
  return (drawing) => {
    if (pile.length) drawing.append(faceUp(pile[pile.length - 1], 2, 2, cards));
    else drawing.append(svg("rect", { x: 2, y: 2, width: CARD_W, height: CARD_H, rx: 5, fill: "none", stroke: "#6b7078", "stroke-dasharray": "4 3" }));
  };
}


function record(table) {
  const { state, moves } = table;
  if (!moves.length || state.status !== "active") return false;
  // A choice in progress (a Double Lemur's target, the cards discarded after a lost round), kept
  // across the page's refreshes of the same version of the game: in the page's memory for this
  // drawing (table.memory), nothing is kept here between calls.
  const memory = table.memory;
  if (!memory.progress || memory.progress.version !== state.version) memory.progress = { version: state.version };
  const types = new Set(moves.map((move) => move.type));
  const known = ["deal", "play", "draw", "try_luck", "scorpion_discard", "choose_target", "round_discard"];
  if (![...types].every((type) => known.includes(type))) return false;
  const seat = moves[0].player;
  if (!moves.every((move) => move.player === seat)) return false;
  const hand = state.hands ? state.hands[seat] : null;
  if (!hand && (types.has("play") || types.has("scorpion_discard") || types.has("round_discard"))) return false;
  layout(table, seat, types);
  return true;
}

/** The board's touch targets and the buttons under it, for the moves now and the choice in
 * progress; built again (without drawing the board again) when the choice moves on. */
function layout(table, seat, types) {
  const { board, actions } = table;
  for (const old of board.querySelectorAll("g.mada-touch")) old.remove();
  actions.replaceChildren();
  const layer = svg("g", { class: "mada-touch" });
  board.append(layer);
  const again = () => {
    layout(table, seat, types);
    table.focus();
  };
  const ctx = { table, seat, layer, again, name: seatWords(seat, table.players), progress: table.memory.progress };
  if (types.has("deal")) layDeal(ctx);
  else if (types.has("scorpion_discard")) layScorpion(ctx);
  else if (types.has("choose_target")) layTarget(ctx, table.moves, (move) => table.record(move));
  else if (types.has("round_discard")) layRoundDiscard(ctx);
  else layTurn(ctx);
}

/** A hint under the board: what to touch (not a control). */
function hint(table, words) {
  table.hint(words, null, "mada-hint");
}

/** A plain button under the board that records nothing (cancel a choice in progress). */
function plainButton(table, words, onActivate) {
  return table.plainButton(words, onActivate);
}

/** A touch target over ``box`` on the board; ``chosen`` marks a card already chosen. */
function touchBox(ctx, box, words, onTouch, options) {
  const { chosen = false, kind = "card", badge = null } = options || {};
  const pad = 2;
  const group = svg("g", { class: `mada-target ${kind}${chosen ? " chosen" : ""}` });
  group.append(svg("rect", {
    x: box.x - pad, y: box.y - pad, width: box.width + 2 * pad, height: box.height + 2 * pad, rx: 7,
    fill: chosen ? "rgba(184, 134, 11, 0.18)" : "rgba(21, 101, 192, 0.06)",
    stroke: chosen ? CHOSEN : TOUCH, "stroke-width": chosen ? 4 : 3,
  }));
  if (badge !== null) {
    // At the top middle: the next card of a fan covers the right-hand corner.
    const cx = box.x + Math.min(box.width / 2, 18);
    const cy = box.y + 2;
    group.append(svg("circle", { cx, cy, r: 9, fill: CHOSEN }));
    group.append(text(cx, cy + 4, badge, { "text-anchor": "middle", "font-size": 12, "font-weight": 700, fill: "#fff" }));
  }
  // The outline first, its title after it: the page's focus ring (and "chosen" mark) is drawn on
  // a target's first child, and target() adds a title only where there is none.
  group.append(svg("title", {}, words));
  ctx.table.target(group, words);
  group.addEventListener("click", onTouch);
  ctx.layer.append(group);
  return group;
}

/** A veil over a card that cannot be touched now. */
function veil(ctx, box) {
  ctx.layer.append(svg("rect", {
    x: box.x, y: box.y, width: box.width, height: box.height, rx: 5, fill: "#fff", "fill-opacity": 0.55,
    "pointer-events": "none", class: "mada-veil",
  }));
}

/** The hand's card groups of ``seat``, in the state's order, with their boxes. */
function handCards(table, seat) {
  const area = table.board.querySelector(`g.seat[data-seat="${seat}"] g.hand`);
  const hand = table.state.hands[seat] || [];
  const groups = area ? [...area.querySelectorAll("g.card")] : [];
  return hand.map((card, index) => ({ card, index, box: boxOf(groups[index]) })).filter((item) => item.box);
}

function rowBox(table, seat) {
  return boxOf(table.board.querySelector(`g.seat[data-seat="${seat}"] rect.panel`));
}

function drawPileBox(table) {
  return boxOf(table.board.querySelector("g.table g.draw-pile"));
}

/** The cards a draw may bring, with how many of each may come (where this page can tell). */
function drawOptions(table, cardsListed, seenAs) {
  const { state } = table;
  let pool = null;
  if (state.draw_pile_size > 0) pool = Array.isArray(state.unseen) ? state.unseen : null;
  else pool = [...state.discard, ...state.piles.flatMap((pile) => pile.slice(0, -1))];
  return inDeckOrder(distinct(cardsListed)).map((card) => ({
    label: seenAs(card),
    value: card,
    picture: cardPicture(card, table.cards),
    count: pool ? countOf(pool, card) : 1,
  }));
}

/** Record one of ``group`` (moves differing only by the card chance brought): at once when there
 * is one, else after picking the card from pictures. */
async function recordDrawn(table, group, title) {
  if (group.length === 1 && group[0].card === undefined) {
    table.record(group[0]);
    return;
  }
  const card = await table.pick({
    title,
    options: drawOptions(table, group.map((move) => move.card), (value) => cardName(value)),
  });
  if (card === null || card === undefined) {
    table.focus();
    return;
  }
  const move = group.find((item) => same(item.card, card));
  if (move) table.record(move);
}

// A turn: play a card, draw, try one's luck.
function layTurn(ctx) {
  const { table, seat, name } = ctx;
  const plays = table.moves.filter((move) => move.type === "play");
  const draws = table.moves.filter((move) => move.type === "draw");
  const tries = table.moves.filter((move) => move.type === "try_luck");
  if (ctx.progress.doubleLemur) {
    layDoubleLemur(ctx, plays.filter((move) => move.card === "double_lemur"));
    return;
  }
  for (const { card, box } of handCards(table, seat)) {
    const ways = plays.filter((move) => same(move.card, card));
    if (!ways.length) {
      veil(ctx, box);
      continue;
    }
    if (card === "double_lemur" && ways.length > 1) {
      touchBox(ctx, box, `Play the Double Lemur, then touch whose pile ${name} swaps with`, () => {
        ctx.progress.doubleLemur = true;
        ctx.again();
      });
    } else {
      const move = ways[0];
      touchBox(ctx, box, `Play ${aCard(card)}${card === "double_lemur" ? ` and swap piles with ${seatWords(move.target, table.players)}` : ""}`,
        () => table.record(move));
    }
  }
  const pile = drawPileBox(table);
  const tryWords = `Try your luck: the top card goes onto ${name}'s pile`;
  const tryLuck = () => recordDrawn(table, tries, `${name} tries their luck: which card came up?`);
  if (draws.length && pile) {
    touchBox(ctx, pile, `Draw a card into ${name}'s hand`,
      () => recordDrawn(table, draws, `${name} draws: which card?`), { kind: "draw-pile" });
  } else if (tries.length && pile) {
    touchBox(ctx, pile, tryWords, tryLuck, { kind: "draw-pile" });
  }
  if (tries.length) table.button("Try your luck", tryLuck, backPicture("?")).setAttribute("aria-label", tryWords);
  const parts = [];
  if (plays.length) parts.push(`a card in ${name}'s hand to play it`);
  if (draws.length) parts.push("the draw pile to draw");
  else if (tries.length) parts.push("the draw pile to try your luck");
  if (parts.length) hint(table, `Touch ${parts.join(", or ")}.`);
}

function layDoubleLemur(ctx, ways) {
  const { table, seat, name } = ctx;
  for (const { card, box } of handCards(table, seat)) {
    if (card === "double_lemur") {
      touchBox(ctx, box, "Keep the Double Lemur in hand (choose another move)", () => {
        ctx.progress.doubleLemur = false;
        ctx.again();
      }, { chosen: true });
      break;
    }
  }
  layTarget(ctx, ways, (move) => table.record(move));
  plainButton(table, "Cancel", () => {
    ctx.progress.doubleLemur = false;
    ctx.again();
  });
  hint(table, `${name} plays the Double Lemur: touch the row of the player whose pile ${name} swaps with.`);
}

/** Choosing whose pile to swap with: that seat's row, or its button. */
function layTarget(ctx, ways, onChoose) {
  const { table } = ctx;
  for (const move of ways) {
    const box = rowBox(table, move.target);
    const words = `Swap piles with ${seatWords(move.target, table.players)}`;
    if (box) touchBox(ctx, box, words, () => onChoose(move), { kind: "row" });
    table.button(words, () => onChoose(move), pilePicture(table.state.piles[move.target] || [], table.cards));
  }
  if (ways.length && ways[0].type === "choose_target") {
    hint(table, `${ctx.name}'s Double Lemur came up: touch the row of the player whose pile ${ctx.name} swaps with.`);
  }
}

// The Scorpion: the hand card that goes with it.
function layScorpion(ctx) {
  const { table, seat, name } = ctx;
  const moves = table.moves.filter((move) => move.type === "scorpion_discard");
  for (const { card, box } of handCards(table, seat)) {
    const move = moves.find((item) => same(item.card, card));
    if (!move) {
      veil(ctx, box);
      continue;
    }
    touchBox(ctx, box, `Discard ${aCard(card)} with the Scorpion`, () => table.record(move));
  }
  hint(table, `The Scorpion: touch the card of ${name}'s hand that goes with it to the discard.`);
}

// After losing a round: the cards discarded, touched in order, then confirmed.
function layRoundDiscard(ctx) {
  const { table, seat, name } = ctx;
  const moves = table.moves.filter((move) => move.type === "round_discard");
  const chosen = ctx.progress.discard || [];
  const chosenCards = chosen.map((index) => table.state.hands[seat][index]);
  const possible = (cards) => moves.some((move) => cards.length <= move.cards.length && within(cards, move.cards));
  for (const { card, index, box } of handCards(table, seat)) {
    const order = chosen.indexOf(index);
    if (order >= 0) {
      touchBox(ctx, box, `Keep ${aCard(card)} (discarded ${ordinal(order + 1)})`, () => {
        ctx.progress.discard = chosen.filter((item) => item !== index);
        ctx.again();
      }, { chosen: true, badge: String(order + 1) });
    } else if (possible([...chosenCards, card])) {
      touchBox(ctx, box, `Discard ${aCard(card)}${chosen.length ? ` ${ordinal(chosen.length + 1)}` : ""}`, () => {
        ctx.progress.discard = [...chosen, index];
        ctx.again();
      });
    } else {
      veil(ctx, box);
    }
  }
  if (!chosen.length) {
    const keep = moves.find((move) => move.cards.length === 0);
    if (keep) table.button("Keep every card", () => table.record(keep));
    hint(table, `${name} lost the round: touch the cards ${name} discards, in order, then confirm; or keep every card.`);
  } else {
    const move = moves.find((item) => item.cards.length === chosenCards.length && within(chosenCards, item.cards));
    if (move) {
      const body = { ...move, cards: chosenCards };
      table.button(`Discard ${listWords(chosenCards.map(aCard))}`, () => table.record(body),
        cardPicture(chosenCards[0], table.cards));
    }
    plainButton(table, "Clear the choice", () => {
      ctx.progress.discard = [];
      ctx.again();
    });
    hint(table, `Touch more cards to discard them too, or a chosen card to keep it; then confirm.`);
  }
}

function ordinal(n) {
  return ["first", "second", "third", "fourth", "fifth"][n - 1] || `number ${n}`;
}

// Observed mode: the three cards dealt to a seat, picked one at a time.
function layDeal(ctx) {
  const { table, seat, name } = ctx;
  const start = () => pickDeal(table, seat);
  const words = `Deal ${name}'s 3 cards: pick them from pictures`;
  const pile = drawPileBox(table);
  if (pile) touchBox(ctx, pile, words, start, { kind: "draw-pile" });
  const handArea = boxOf(table.board.querySelector(`g.seat[data-seat="${seat}"] g.hand`));
  if (handArea) touchBox(ctx, handArea, words, start, { kind: "hand" });
  table.button(`Deal ${name}'s 3 cards`, start, backPicture("3"));
  hint(table, `Touch the draw pile, then pick the 3 cards ${name} was dealt.`);
}

async function pickDeal(table, seat) {
  const name = seatWords(seat, table.players);
  const deals = table.moves.filter((move) => move.type === "deal");
  const pool = Array.isArray(table.state.unseen) ? table.state.unseen : null;
  const chosen = [];
  for (let step = 0; step < 3; step += 1) {
    const fits = deals.filter((move) => within(chosen, move.cards));
    const next = [];
    for (const move of fits) {
      const rest = move.cards.slice();
      for (const card of chosen) rest.splice(rest.findIndex((item) => same(item, card)), 1);
      next.push(...rest);
    }
    const options = inDeckOrder(distinct(next)).map((card) => ({
      label: cardName(card),
      value: card,
      picture: cardPicture(card, table.cards),
      count: pool ? countOf(pool, card) - countOf(chosen, card) : 1,
    }));
    const so = chosen.length ? ` (so far ${listWords(chosen.map(aCard))})` : "";
    const card = await table.pick({ title: `${name}'s ${ordinal(step + 1)} card of 3${so}`, options });
    if (card === null || card === undefined) {
      table.focus();
      return;
    }
    chosen.push(card);
  }
  const move = deals.find((item) => item.cards.length === chosen.length && within(chosen, item.cards));
  if (move) table.record(move);
}

export { draw, record };
