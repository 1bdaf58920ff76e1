/* Recording Mada by touch (mada.js puts it together with its drawing, mada-draw.js): every target
 * comes from the moves GET /legal lists now; see mada.js for what is touched. */
import { svg, text } from "../../lib/draw.js";
import {
  CARD_H,
  CARD_W,
  cardName,
  faceDown,
  faceUp,
} from "./mada-draw.js";

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
// The outline's margin around what a target covers, in the drawing's units.
const TARGET_PAD = 2;
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
  const pad = TARGET_PAD;
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

/** The hand's card groups of ``seat``, in the state's order, with the boxes a touch takes: where
 * the fan overlaps, each card's visible part (the next card covers the rest), so that every
 * part of a card that is seen is its own and no target lies under another (the board's zoom,
 * lib/zoom.js, then draws each at a finger's size). */
function handCards(table, seat) {
  const area = table.board.querySelector(`g.seat[data-seat="${seat}"] g.hand`);
  const hand = table.state.hands[seat] || [];
  const groups = area ? [...area.querySelectorAll("g.card")] : [];
  const boxes = hand.map((card, index) => boxOf(groups[index]));
  return hand
    .map((card, index) => ({ card, index, box: visiblePart(boxes[index], boxes[index + 1]) }))
    .filter((item) => item.box);
}

/** ``box`` less what ``next`` (the card drawn over it) covers, with room for both outlines. */
function visiblePart(box, next) {
  if (!box || !next || next.x >= box.x + box.width) return box;
  return { ...box, width: Math.max(next.x - box.x - 2 * TARGET_PAD, 1) };
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

/** The words of the touch that records one of ``group`` (moves differing only by the card chance
 * brought): the move's own (GET /legal's) when it is the only one and names no card, else the
 * words of the move without its card (GET /legal's base_words). */
function drawnWords(table, group) {
  if (group.length === 1 && group[0].card === undefined) return table.wordsOf(group[0]);
  return table.baseWordsOf(group[0]);
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
      touchBox(ctx, box, table.wordsOf(move), () => table.record(move));
    }
  }
  const pile = drawPileBox(table);
  // The API's words: the move's own where the touch records it, else the move without the card
  // chance brings (the picker then asks which card).
  const tryWords = tries.length ? drawnWords(table, tries) : "";
  const tryLuck = () => recordDrawn(table, tries, `${table.baseWordsOf(tries[0])}: which card came up?`);
  if (draws.length && pile) {
    touchBox(ctx, pile, drawnWords(table, draws),
      () => recordDrawn(table, draws, `${table.baseWordsOf(draws[0])}: which card?`), { kind: "draw-pile" });
  } else if (tries.length && pile) {
    touchBox(ctx, pile, tryWords, tryLuck, { kind: "draw-pile" });
  }
  if (tries.length) table.button(tryWords, tryLuck, backPicture("?"));
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
    const words = table.wordsOf(move);
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
    touchBox(ctx, box, table.wordsOf(move), () => table.record(move));
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
    if (keep) table.button(table.wordsOf(keep), () => table.record(keep));
    hint(table, `${name} lost the round: touch the cards ${name} discards, in order, then confirm; or keep every card.`);
  } else {
    const move = moves.find((item) => item.cards.length === chosenCards.length && within(chosenCards, item.cards));
    if (move) {
      const body = { ...move, cards: chosenCards };
      // GET /legal lists each set of cards once, in the deck's order: in that order the move is
      // one it listed, worded as it said it; in another (the order touched is the order they go
      // to the discard) no move it listed says that order, and the cards are named as touched.
      const listed = same(body, move);
      const words = listed ? table.wordsOf(move) : `Discard ${listWords(chosenCards.map(aCard))}`;
      table.button(words, () => table.record(body), cardPicture(chosenCards[0], table.cards));
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
  // The deal without its cards, in the API's words (GET /legal's base_words); the picker asks
  // which cards.
  const dealt = table.baseWordsOf(table.moves.find((move) => move.type === "deal"));
  const words = `${dealt}: pick them from pictures`;
  const pile = drawPileBox(table);
  if (pile) touchBox(ctx, pile, words, start, { kind: "draw-pile" });
  const handArea = boxOf(table.board.querySelector(`g.seat[data-seat="${seat}"] g.hand`));
  if (handArea) touchBox(ctx, handArea, words, start, { kind: "hand" });
  table.button(dealt, start, backPicture("3"));
  hint(table, `Touch the draw pile, then pick the 3 cards ${name} was dealt.`);
}

async function pickDeal(table, seat) {
  const name = seatWords(seat, table.players);
  const deals = table.moves.filter((move) => move.type === "deal");
  const pool = Array.isArray(table.state.unseen) ? table.state.unseen : null;
  // One sheet for the seat's three cards: each touch adds one (Back takes it back).
  const optionsOf = (chosen) => {
    const fits = deals.filter((move) => within(chosen, move.cards));
    const next = [];
    for (const move of fits) {
      const rest = move.cards.slice();
      for (const card of chosen) rest.splice(rest.findIndex((item) => same(item, card)), 1);
      next.push(...rest);
    }
    return inDeckOrder(distinct(next)).map((card) => ({
      label: cardName(card),
      value: card,
      picture: cardPicture(card, table.cards),
      count: pool ? countOf(pool, card) - countOf(chosen, card) : 1,
    }));
  };
  const chosen = await table.pickMany({
    count: 3,
    titleOf: (so) => `${name}'s cards: the ${ordinal(so.length + 1)} of 3`,
    noteOf: (so) => (so.length ? `So far: ${listWords(so.map(aCard))}.` : "Touch each card dealt, in any order."),
    optionsOf,
  });
  if (!chosen) {
    table.focus();
    return;
  }
  const move = deals.find((item) => item.cards.length === chosen.length && within(chosen, item.cards));
  if (move) table.record(move);
}

export { record };
