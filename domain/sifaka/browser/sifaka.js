/* Sifaka, drawn from its state (domain/sifaka/views.py): the grid of visible boxes (x to the
 * east, y to the south) with their palms, arrows, mangos and huts, the Mango counters lying on the
 * board, the starting slots still free, and the four sifakas (one per seat) facing their way; then
 * a row per seat with its counters, its score and the card in hand, where the viewer sees them.
 *
 * Data attributes: on each box data-x, data-y, data-kind and data-palms, data-arrow, data-mango or
 * data-hut, data-counter and data-counter-value (where known); on each pawn data-seat, data-x,
 * data-y and data-facing; on each seat's row data-seat, data-counters (JSON), data-score (when
 * shown), data-hand (the card held, when shown).
 *
 * record(table) lays out the moves GET /legal lists as touches on this drawing (the recorder page,
 * service/pages/static/record.js); on each touch target data-anchor (a lit place for the tile,
 * with data-x, data-y), data-end (a lit box where the sifaka may end, with data-x, data-y and
 * data-ways), data-sifaka or data-deal (the seat). A move's words are the API's (its Python
 * describe, domain/sifaka/display.py).
 */
import { plural, svg, text, titled } from "../../lib/draw.js";

const CELL = 44;
const PAD = 12;
const ROW = 50;
const MANGO = { green: "#43a047", yellow: "#f2c200", red: "#e53935" };
// Counters: darker shades, so that their values keep a 4.5:1 contrast.
const TOKEN = { green: "#2e7d32", yellow: "#f2c200", red: "#c62828" };
const MANGO_INK = { green: "#ffffff", yellow: "#1f2328", red: "#ffffff" };
// The seat colours of service/pages/views.py (SIFAKA_COLOURS).
const PAWN = { red: "#c62828", blue: "#1565c0", yellow: "#b8860b", green: "#2e7d32" };
const TINT = { red: "#f9d9d6", blue: "#d6e4f6", yellow: "#fbefc2", green: "#d5ecd6" };
const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const ANGLE = { N: 0, E: 90, S: 180, W: 270 };
const DIRECTION = { N: "north", E: "east", S: "south", W: "west" };

function palm(x, y, size) {
  return svg("g", { class: "palm" },
    svg("line", { x1: x, y1: y, x2: x, y2: y + size * 1.2, stroke: "#6d4c2f", "stroke-width": 2 }),
    svg("circle", { cx: x, cy: y, r: size * 0.62, fill: "#1b7a2f" }));
}

/** One box at pixel (px, py), ``size`` wide: the board's and the card in hand's. */
function boxShape(box, px, py, size) {
  const group = svg("g", {});
  const mid = size / 2;
  let fill = "#efe6cf";
  if (box.kind === "palms") fill = "#dcefcf";
  else if (box.kind === "arrow") fill = "#e3ecf7";
  else if (box.kind === "hut") fill = TINT[box.hut] || "#eee";
  else if (box.kind === "mango") fill = "#fbf1dc";
  group.append(svg("rect", { x: px, y: py, width: size, height: size, fill, stroke: "#b9a983", "stroke-width": 1 }));
  if (box.kind === "palms") {
    const count = box.palms;
    const spots = { 1: [[0.5, 0.4]], 2: [[0.3, 0.35], [0.7, 0.5]], 3: [[0.25, 0.3], [0.72, 0.3], [0.5, 0.6]] }[count] || [];
    spots.forEach(([fx, fy]) => group.append(palm(px + fx * size, py + fy * size, size * 0.14)));
  } else if (box.kind === "arrow") {
    const s = size;
    const path = `M ${mid} ${0.16 * s} L ${0.8 * s} ${0.55 * s} L ${0.6 * s} ${0.55 * s} L ${0.6 * s} ${0.84 * s} L ${0.4 * s} ${0.84 * s} L ${0.4 * s} ${0.55 * s} L ${0.2 * s} ${0.55 * s} Z`;
    group.append(svg("path", { d: path, fill: "#1d4f91", transform: `translate(${px} ${py}) rotate(${ANGLE[box.arrow] || 0} ${mid} ${mid})` }));
  } else if (box.kind === "mango") {
    group.append(svg("ellipse", {
      cx: px + mid, cy: py + mid, rx: size * 0.28, ry: size * 0.2, fill: MANGO[box.mango] || "#999",
      stroke: "#5b4a1f", "stroke-width": 1, transform: `rotate(-30 ${px + mid} ${py + mid})`,
    }));
  } else if (box.kind === "hut") {
    const s = size;
    const hut = `M ${px + 0.2 * s} ${py + 0.5 * s} L ${px + mid} ${py + 0.18 * s} L ${px + 0.8 * s} ${py + 0.5 * s} L ${px + 0.8 * s} ${py + 0.82 * s} L ${px + 0.2 * s} ${py + 0.82 * s} Z`;
    group.append(svg("path", { d: hut, fill: PAWN[box.hut] || "#777", stroke: "#3b2f1a", "stroke-width": 1 }));
  }
  return group;
}

function boxWords(box) {
  if (box.kind === "palms") return plural(box.palms, "palm");
  if (box.kind === "arrow") return `arrow ${DIRECTION[box.arrow] || box.arrow}`;
  if (box.kind === "mango") return `${box.mango} mango`;
  if (box.kind === "hut") return `${box.hut} hut`;
  return "blank";
}

function counterToken(cx, cy, colour, value, r) {
  return svg("g", { class: "counter" },
    svg("circle", { cx, cy, r, fill: TOKEN[colour] || "#999", stroke: "#1f2328", "stroke-width": 1.5 }),
    text(cx, cy + r * 0.42, value === undefined || value === null ? "?" : value, {
      "text-anchor": "middle", "font-size": r * 1.15, "font-weight": 700, fill: MANGO_INK[colour] || "#000",
    }));
}

function pawnShape(cx, cy, colour, facing, current) {
  const [dx, dy] = STEP[facing] || [0, -1];
  const r = 10;
  const tip = `${cx + dx * (r + 8)},${cy + dy * (r + 8)}`;
  const left = `${cx + dx * (r - 2) - dy * 6},${cy + dy * (r - 2) + dx * 6}`;
  const right = `${cx + dx * (r - 2) + dy * 6},${cy + dy * (r - 2) - dx * 6}`;
  return svg("g", {},
    current ? svg("circle", { cx, cy, r: r + 4, fill: "none", stroke: "#1f2328", "stroke-width": 2, "stroke-dasharray": "3 2" }) : null,
    svg("polygon", { points: `${tip} ${left} ${right}`, fill: colour, stroke: "#fff", "stroke-width": 1 }),
    svg("circle", { cx, cy, r, fill: colour, stroke: "#fff", "stroke-width": 2 }),
    svg("circle", { cx: cx + dx * 4 - dy * 3, cy: cy + dy * 4 + dx * 3, r: 1.8, fill: "#fff" }),
    svg("circle", { cx: cx + dx * 4 + dy * 3, cy: cy + dy * 4 - dx * 3, r: 1.8, fill: "#fff" }));
}


function draw(board, state, ctx) {
  const colours = state.colours;
  const cards = (ctx.cards && ctx.cards.cards) || {};
  const xs = [];
  const ys = [];
  state.boxes.forEach((box) => { xs.push(box.x); ys.push(box.y); });
  const freeSlots = (state.starting_slots || []).filter((slot) => !slot.filled);
  freeSlots.forEach((slot) => { xs.push(slot.x, slot.x + 1); ys.push(slot.y, slot.y + 1); });
  state.pawns.forEach((pawn) => { xs.push(pawn.x); ys.push(pawn.y); });
  // A ring of one box around the landscape: where a card laid at its edge would reach (and the
  // recorder lights the places the card in hand may go).
  const minX = Math.min(...xs) - 1;
  const maxX = Math.max(...xs) + 1;
  const minY = Math.min(...ys) - 1;
  const maxY = Math.max(...ys) + 1;
  const gridW = (maxX - minX + 1) * CELL;
  const gridH = (maxY - minY + 1) * CELL;
  const seats = colours.length;
  const narrow = ctx.narrow;
  const width = Math.max(gridW + 2 * PAD, narrow ? 380 : 460);
  // The header and the seats' rows are drawn at one size (``design`` wide) and scaled up with
  // a wide grid, so that their text stays legible however far the grid spreads.
  const design = narrow ? 380 : 640;
  const k = Math.max(1, width / design);
  const inner = width / k;
  const headerH = (narrow ? 46 : 30) * k;
  const offsetX = (width - gridW) / 2;
  const offsetY = headerH + PAD;
  const rowsTop = offsetY + gridH + PAD + 8;
  const height = rowsTop + k * seats * (ROW + 6) + 4;
  board.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const px = (x) => offsetX + (x - minX) * CELL;
  const py = (y) => offsetY + (y - minY) * CELL;
  const lines = [];

  // Header: whose turn, what is left.
  let turn;
  if (state.status === "finished") {
    const names = (state.winners || []).map((seat) => ctx.players[seat]);
    turn = `Game over: ${names.join(" and ")} won`;
  } else {
    turn = `${ctx.players[state.current_player]} to ${state.phase}`;
  }
  const left = state.counters_left;
  const header = svg("g", { class: "header", transform: `scale(${k})` });
  header.append(text(PAD, 20, `${turn} · draw pile ${state.draw_pile_size}`, { class: "label" }));
  const counting = `counters left: ${left.green} green, ${left.yellow} yellow, ${left.red} red`;
  if (narrow) header.append(text(PAD, 38, counting, { class: "small" }));
  else header.append(text(inner - PAD, 20, counting, { class: "small", "text-anchor": "end" }));
  board.append(header);
  lines.push(`${turn}. Draw pile: ${plural(state.draw_pile_size, "card")}. Counters left to lay: ${left.green} green, ${left.yellow} yellow, ${left.red} red.`);

  const grid = svg("g", { class: "grid" });
  freeSlots.forEach((slot) => grid.append(titled(svg("rect", {
    x: px(slot.x) + 2, y: py(slot.y) + 2, width: 2 * CELL - 4, height: 2 * CELL - 4, rx: 4, class: "slot", "data-slot": `${slot.x},${slot.y}`,
  }), `starting slot at (${slot.x}, ${slot.y}), free`)));
  const boxWordsList = [];
  state.boxes.forEach((box) => {
    const group = svg("g", {
      class: "box",
      "data-x": box.x,
      "data-y": box.y,
      "data-kind": box.kind,
      "data-palms": box.palms,
      "data-arrow": box.arrow,
      "data-mango": box.mango,
      "data-hut": box.hut,
      "data-counter": box.counter ? "true" : null,
      "data-counter-value": box.counter_value,
    });
    group.append(boxShape(box, px(box.x), py(box.y), CELL));
    let words = `(${box.x}, ${box.y}) ${boxWords(box)}`;
    if (box.counter) {
      group.append(counterToken(px(box.x) + CELL - 12, py(box.y) + CELL - 12, box.mango, box.counter_value, 9));
      words += `, a ${box.mango} counter${box.counter_value ? ` worth ${box.counter_value}` : ""}`;
    }
    grid.append(titled(group, words));
    if (box.kind !== "blank") boxWordsList.push(words);
  });
  board.append(grid);
  lines.push(`${plural(state.boxes.length, "box", "boxes")} on the board, x east, y south; all others blank: ${boxWordsList.join("; ")}.`);

  // The sifakas: pawns sharing a box sit side by side.
  const sharing = new Map();
  state.pawns.forEach((pawn, seat) => {
    const key = `${pawn.x},${pawn.y}`;
    sharing.set(key, [...(sharing.get(key) || []), seat]);
  });
  const pawnCentres = [];
  state.pawns.forEach((pawn, seat) => {
    const together = sharing.get(`${pawn.x},${pawn.y}`);
    const index = together.indexOf(seat);
    const shift = together.length > 1 ? (index - (together.length - 1) / 2) * 12 : 0;
    const colour = PAWN[colours[seat]] || ctx.colours[seat];
    pawnCentres[seat] = [px(pawn.x) + CELL / 2 + shift, py(pawn.y) + CELL / 2 + (together.length > 1 ? shift / 2 : 0)];
    const node = svg("g", { class: "pawn", "data-seat": seat, "data-x": pawn.x, "data-y": pawn.y, "data-facing": pawn.facing },
      pawnShape(px(pawn.x) + CELL / 2 + shift, py(pawn.y) + CELL / 2 + (together.length > 1 ? shift / 2 : 0), colour, pawn.facing,
        state.current_player === seat && state.status !== "finished"));
    board.append(titled(node, `${ctx.players[seat]}'s ${colours[seat]} sifaka at (${pawn.x}, ${pawn.y}) facing ${DIRECTION[pawn.facing]}`));
    lines.push(`${ctx.players[seat]}'s ${colours[seat]} sifaka is at (${pawn.x}, ${pawn.y}) facing ${DIRECTION[pawn.facing]}.`);
  });

  // One row per seat.
  const rows = svg("g", { class: "seats", transform: `translate(0 ${rowsTop}) scale(${k})` });
  board.append(rows);
  for (let seat = 0; seat < seats; seat += 1) {
    const top = seat * (ROW + 6);
    const counters = state.counters[seat];
    const score = state.scores ? state.scores[seat] : null;
    // A null hand is either no card or a card this viewer may not see: hand_sizes tells which.
    const hand = state.hands ? state.hands[seat] : null;
    const held = hand !== null && hand !== undefined;
    const current = state.current_player === seat;
    const winner = (state.winners || []).includes(seat);
    const row = svg("g", {
      class: "seat",
      "data-seat": seat,
      "data-counters": JSON.stringify(counters),
      "data-score": score === null ? null : score,
      "data-hand": held ? JSON.stringify(hand) : null,
      "data-hand-size": state.hand_sizes[seat],
      "data-current": current ? "true" : null,
    });
    row.append(svg("rect", { x: 2, y: top, width: inner - 4, height: ROW, rx: 8, class: current ? "panel current" : "panel" }));
    row.append(svg("circle", { cx: 16, cy: top + 16, r: 7, fill: PAWN[colours[seat]] || ctx.colours[seat] }));
    let heading = ctx.players[seat];
    if (winner) heading += " · winner";
    row.append(text(28, top + 21, heading, { class: "label" }));
    // (On a phone the colour goes without saying: the swatch shows it.)
    let detail = `${narrow ? "" : `${colours[seat]} · `}moved ${state.boxes_moved[seat]}`;
    if (score !== null) detail = `score ${score} · ` + detail;
    row.append(text(28, top + 39, detail, { class: "small" }));
    // The counters taken, their values when shown; closer together when they are many.
    const countersX = narrow ? 160 : 190;
    const handX = inner - PAD - 2 * 17 - 40;
    const step = Math.min(22, (handX - 14 - countersX) / Math.max(counters.length - 1, 1));
    counters.forEach((counter, index) => {
      row.append(titled(counterToken(countersX + index * step, top + ROW / 2, counter.colour, counter.value, 9),
        `${counter.colour} counter${counter.value ? ` worth ${counter.value}` : ", value hidden"}`));
    });
    if (!counters.length) row.append(text(countersX - 8, top + ROW / 2 + 4, "no counter", { class: "small" }));
    // The card in hand: its four boxes at rotation 0.
    if (held && cards[String(hand)]) {
      const mini = 17;
      const x0 = handX;
      const handGroup = svg("g", { class: "hand-card", "data-card": hand });
      cards[String(hand)].forEach((box, index) => {
        handGroup.append(boxShape(box, x0 + (index % 2) * mini, top + 8 + Math.floor(index / 2) * mini, mini));
      });
      handGroup.append(text(x0 + 2 * mini + 6, top + 30, `#${hand}`, { class: "small" }));
      row.append(titled(handGroup, `card ${hand} in hand: ${cards[String(hand)].map(boxWords).join(", ")}`));
    } else if (state.hand_sizes[seat]) {
      row.append(titled(svg("rect", { x: inner - PAD - 40, y: top + 8, width: 34, height: 34, rx: 3, class: "card-back" }), "a card in hand, hidden"));
    }
    rows.append(row);
    const taken = counters.map((counter) => `${counter.colour}${counter.value ? ` ${counter.value}` : ""}`);
    let words = `${ctx.players[seat]} (${colours[seat]}${winner ? ", winner" : ""}): ${counters.length ? `counters ${taken.join(", ")}` : "no counter"}`;
    if (score !== null) words += `; score ${score}`;
    if (held) words += `; card ${hand} in hand`;
    else words += state.hand_sizes[seat] ? "; a card in hand, hidden" : "; no card in hand";
    lines.push(words + ".");
  }
  // Where things were drawn, for the recorder's touch targets (record, below): the frame hands
  // it back as table.drawn; nothing is kept here between calls.
  const drawn = {
    px, py, width, height, narrow, k, inner, rowsTop,
    gridBottom: offsetY + gridH, handX: inner - PAD - 2 * 17 - 40, pawnCentres,
  };
  return { title: `Sifaka after move ${ctx.at} of ${ctx.version}`, description: lines.join(" "), drawn };
}

// Recording by touch (the recorder page's renderer.record, service/pages/static/record.js) ------
//
// Every target comes from the moves GET /legal lists now (table.moves):
// - deal (observed): the seat's hand on the board, or a button, opens a picker of the Terrain
//   cards that can still be unseen (equal cards, the same tile however turned, as one picture
//   with a count);
// - place: the boxes where the card in hand may have its top-left box light up (one per anchor
//   listed); a touch lays it, or, with several facings listed, asks which way it faces, each
//   facing drawn as the card turned; a discard (a place without position, listed only when the
//   card fits nowhere) is a button;
// - move: the sifaka (or a button) and the boxes where it may end, lit; where the listed moves
//   differ by where it turns, the end boxes tell them apart (and the sifaka asks, with a picture
//   of each way). In observed mode the counter taken and the card drawn are then picked from
//   pictures of those the moves listed.
// Where each listed move ends is shown by following its turns over the boxes drawn: a move
// whose walk cannot be followed here is still offered from the sifaka, only not lit.

const ORDINAL = ["", "1st", "2nd", "3rd", "4th", "5th", "6th", "7th"];
const WAYS = ["N", "E", "S", "W"];
const MANGO_WORDS = { green: "green", yellow: "yellow", red: "red" };

function facingWords(rotation) {
  return `Facing ${DIRECTION[WAYS[(rotation / 90) % 4]]}`;
}

/** A card's boxes (rotation 0, as the catalog lists them) as laid turned ``rotation``
 * degrees clockwise: a quarter turn takes a b / c d to c a / d b and turns every arrow. */
function turnedBoxes(boxes, rotation) {
  const quarters = Math.round(rotation / 90) % 4;
  let items = boxes.map((box) => (box.kind === "arrow" ? { ...box, arrow: WAYS[(WAYS.indexOf(box.arrow) + quarters) % 4] } : box));
  for (let turn = 0; turn < quarters; turn += 1) {
    const [a, b, c, d] = items;
    items = [c, a, d, b];
  }
  return items;
}

/** The same tile, however turned: cards equal at the table share this key. */
function tileKey(boxes) {
  return [0, 90, 180, 270].map((rotation) => JSON.stringify(turnedBoxes(boxes, rotation))).sort()[0];
}

/** A Terrain card in a few words, what tells it apart first: "green mango, arrows north and
 * west, 3 palms" (its picture shows where each box lies). */
function cardWords(boxes) {
  const parts = [];
  boxes.filter((box) => box.kind === "mango").forEach((box) => parts.push(`${box.mango} mango`));
  const arrows = boxes.filter((box) => box.kind === "arrow").map((box) => DIRECTION[box.arrow] || box.arrow);
  if (arrows.length === 1) parts.push(`arrow ${arrows[0]}`);
  else if (arrows.length) parts.push(`arrows ${arrows.slice(0, -1).join(", ")} and ${arrows[arrows.length - 1]}`);
  const palms = boxes.reduce((sum, box) => sum + (box.kind === "palms" ? box.palms : 0), 0);
  if (palms) parts.push(plural(palms, "palm"));
  return parts.length ? parts.join(", ") : "blank";
}

// Pictures, each into the 48x64 box of a button or a picker's option.
function cardPicture(boxes) {
  return (drawing) => {
    const size = 22;
    drawing.append(svg("rect", { x: 1, y: 9, width: 2 * size + 2, height: 2 * size + 2, rx: 2, fill: "#6d4c2f" }));
    boxes.forEach((box, index) => drawing.append(boxShape(box, 2 + (index % 2) * size, 10 + Math.floor(index / 2) * size, size)));
  };
}

function cardBackPicture(drawing) {
  drawing.append(svg("rect", { x: 4, y: 10, width: 40, height: 44, rx: 4, fill: "#5b7f3a", stroke: "#2f4a1a", "stroke-width": 2 }));
  drawing.append(svg("rect", { x: 10, y: 16, width: 28, height: 32, rx: 3, fill: "none", stroke: "#dcefcf", "stroke-width": 2 }));
}

function counterPicture(colour, value) {
  return (drawing) => drawing.append(counterToken(24, 32, colour, value, 18));
}

function pawnPicture(colour, facing) {
  return (drawing) => drawing.append(pawnShape(24, 32, colour, facing, false));
}

/** The way a sifaka goes: the boxes it crosses, and itself where it ends. */
function walkPicture(walk, colour) {
  return (drawing) => {
    const xs = walk.path.map((at) => at.x);
    const ys = walk.path.map((at) => at.y);
    const minX = Math.min(...xs);
    const minY = Math.min(...ys);
    const columns = Math.max(...xs) - minX + 1;
    const rows = Math.max(...ys) - minY + 1;
    const size = Math.min(44 / columns, 60 / rows, 16);
    const left = (48 - columns * size) / 2;
    const top = (64 - rows * size) / 2;
    const centre = (at) => [left + (at.x - minX + 0.5) * size, top + (at.y - minY + 0.5) * size];
    walk.path.forEach((at, index) => drawing.append(svg("rect", {
      x: left + (at.x - minX) * size, y: top + (at.y - minY) * size, width: size, height: size,
      fill: index === 0 ? "#e8e0c8" : "#dcefcf", stroke: "#b9a983", "stroke-width": 0.6,
    })));
    drawing.append(svg("polyline", {
      points: walk.path.map((at) => centre(at).join(",")).join(" "), fill: "none", stroke: "#1d4f91", "stroke-width": 2,
      "stroke-dasharray": "3 2",
    }));
    const [cx, cy] = centre(walk.path[walk.path.length - 1]);
    const scale = size / 28;
    drawing.append(svg("g", { transform: `translate(${cx} ${cy}) scale(${scale}) translate(${-cx} ${-cy})` }, pawnShape(cx, cy, colour, walk.facing, false)));
  };
}

/** Where a move with ``turns`` takes the sifaka at ``pawn`` over the boxes drawn: its path, end,
 * facing, and the boxes gone; null where the walk cannot be followed. The rulebook's walk (a
 * hop; n more boxes after n palm trees, turning on the arrows the move names; an arrow turns it
 * and stops it; anything else stops it), followed only to show where a listed move ends. */
function walkOf(boxes, pawn, turns) {
  const at = (x, y) => boxes.get(`${x},${y}`);
  let { x, y, facing } = pawn;
  const path = [{ x, y }];
  const turned = [];
  let [dx, dy] = STEP[facing];
  const first = at(x + dx, y + dy);
  if (!first) return turns.length ? null : { x, y, facing, gone: 0, path, turned, box: at(x, y) };
  x += dx;
  y += dy;
  path.push({ x, y });
  if (first.kind !== "palms") {
    if (turns.length) return null;
    return { x, y, facing: first.kind === "arrow" ? first.arrow : facing, gone: 1, path, turned, box: first, hopTurn: first.kind === "arrow" && first.arrow !== facing };
  }
  let box = first;
  for (let step = 1; step <= first.palms; step += 1) {
    [dx, dy] = STEP[facing];
    const entered = at(x + dx, y + dy);
    if (!entered) break;
    x += dx;
    y += dy;
    box = entered;
    path.push({ x, y });
    if (turns.includes(step)) {
      if (entered.kind !== "arrow" || entered.arrow === facing) return null;
      facing = entered.arrow;
      turned.push({ step, facing });
    }
  }
  if (turned.length !== turns.length) return null;
  return { x, y, facing, gone: path.length - 1, path, turned, box };
}

function boxesWord(count) {
  return plural(count, "box", "boxes");
}

/** A way to move, in words: "Move 4 boxes, turning east at the 2nd step" (the rulebook's steps:
 * the boxes gone after the hop, where the palm trees send the sifaka on). */
function walkWords(walk, turns) {
  if (!walk) {
    if (!turns.length) return "Move straight ahead";
    return `Move, turning at the ${turns.map((step) => ORDINAL[step] || `${step}th`).join(" and ")} ${turns.length > 1 ? "steps" : "step"}`;
  }
  if (walk.gone === 0) return "Stay: no box ahead";
  let words = `Move ${boxesWord(walk.gone)}`;
  if (walk.turned.length) {
    words += ", " + walk.turned.map((turn) => `turning ${DIRECTION[turn.facing]} at the ${ORDINAL[turn.step] || `${turn.step}th`} step`).join(", then ");
  } else if (walk.hopTurn) {
    words += `, turning ${DIRECTION[walk.facing]} on its arrow`;
  } else {
    words += " straight ahead";
  }
  return words;
}

/** Options for the picker from card ids: equal tiles one picture, with a count. */
function cardOptions(ids, cards) {
  const groups = new Map();
  ids.forEach((id) => {
    const boxes = cards[String(id)];
    const key = boxes ? tileKey(boxes) : `?${id}`;
    if (!groups.has(key)) groups.set(key, { value: id, ids: [], boxes });
    groups.get(key).ids.push(id);
  });
  return [...groups.values()].map((group) => ({
    label: group.boxes ? cardWords(group.boxes) : "a Terrain card",
    value: group.value,
    ids: group.ids,
    picture: group.boxes ? cardPicture(group.boxes) : cardBackPicture,
    count: group.ids.length,
  }));
}


/** The card that came up, picked from pictures (no question when only one tile can be it). */
async function pickCard(table, title, ids) {
  const options = cardOptions(ids, (table.cards && table.cards.cards) || {});
  const chosen = options.length === 1 ? options[0].value : await table.pick({ title, options });
  const group = options.find((option) => option.value === chosen);
  if (!group) return null;
  // The cards of a group of equal tiles already sent at this version (kept in the page's memory
  // for this drawing). A seat's list names the cards it cannot rule out, other seats' hands
  // included, and the service refuses a card another seat holds: where equal tiles are one
  // picture, picking it again after such a refusal sends the next of them.
  const memory = table.memory;
  if (!memory.tried || memory.tried.version !== table.state.version) memory.tried = { version: table.state.version, ids: new Set() };
  const tried = memory.tried;
  const id = group.ids.find((one) => !tried.ids.has(one));
  if (id === undefined) {
    tried.ids.clear();
    return group.value;
  }
  if (group.ids.length > 1) tried.ids.add(id);
  return id;
}

/** Whether the page still records the version it laid the touches out for (after a question). */
function still(table) {
  return table.memory.version === table.state.version;
}

/** A target on the board: the shape first (the frame outlines a target's first child when it
 * has the focus or is chosen), then what marks it, and its own title last. */
function boardTarget(table, layer, attributes, words, shape, onTouch, ...marks) {
  const node = svg("g", { class: "target", ...attributes }, shape, ...marks, svg("title", {}, words));
  layer.append(node);
  table.target(node, words);
  node.addEventListener("click", (event) => {
    event.stopPropagation();
    if (node.getAttribute("aria-disabled") === "true") return;
    onTouch(node);
  });
  return node;
}

function hint(table, words, picture) {
  table.hint(words, picture, "sifaka-hint");
}

/** On a phone, while the grid holds the targets, the board shows the grid only (the seats' rows
 * are left out of view), so that the boxes are as large as the screen allows. */
function showGridOnly(table, layout) {
  if (layout.narrow) table.board.setAttribute("viewBox", `0 0 ${layout.width} ${layout.gridBottom + PAD}`);
}

function recordDeal(table, layout, layer) {
  const moves = table.moves;
  const seat = moves[0].player;
  const name = table.players[seat];
  const open = async () => {
    const id = await pickCard(table, `Which Terrain card was dealt to ${name}?`, moves.map((move) => move.card));
    if (id === null || id === undefined || !still(table)) return;
    const body = moves.find((move) => move.card === id);
    if (body) table.record(body, `${name} is dealt a Terrain card`);
  };
  const rows = svg("g", { transform: `translate(0 ${layout.rowsTop}) scale(${layout.k})` });
  layer.append(rows);
  const top = seat * (ROW + 6);
  boardTarget(table, rows, { "data-deal": seat }, `The card dealt to ${name}`,
    svg("rect", { x: layout.handX - 4, y: top + 4, width: 2 * 17 + 8, height: 2 * 17 + 8, rx: 4, fill: "rgba(255, 214, 0, 0.35)", stroke: "#8a6d00", "stroke-width": 1.5, "stroke-dasharray": "4 2" }),
    open, text(layout.handX + 17, top + 31, "?", { "text-anchor": "middle", "font-size": 18, "font-weight": 700, fill: "#5b4a1f" }));
  table.button(`Pick the card dealt to ${name}`, open, cardBackPicture);
  return true;
}

function recordPlace(table, layout, layer) {
  const moves = table.moves;
  const seat = moves[0].player;
  const name = table.players[seat];
  const cards = (table.cards && table.cards.cards) || {};
  const hand = table.state.hands ? table.state.hands[seat] : null;
  const boxes = hand !== null && hand !== undefined ? cards[String(hand)] : null;
  const anchors = new Map();
  let discard = null;
  moves.forEach((move) => {
    if (move.x === undefined || move.x === null) {
      discard = move;
      return;
    }
    const key = `${move.x},${move.y}`;
    if (!anchors.has(key)) anchors.set(key, { x: move.x, y: move.y, moves: [] });
    anchors.get(key).moves.push(move);
  });
  const preview = svg("g", { class: "preview", "pointer-events": "none" });
  const facingOptions = (choice) => choice.moves.map((move) => ({
    label: facingWords(move.rotation || 0),
    value: move,
    picture: boxes ? cardPicture(turnedBoxes(boxes, move.rotation || 0)) : null,
  }));
  const place = async (choice, node) => {
    layer.querySelectorAll(".target.chosen").forEach((other) => other.classList.remove("chosen"));
    node.classList.add("chosen");
    preview.replaceChildren(svg("rect", {
      x: layout.px(choice.x) + 1, y: layout.py(choice.y) + 1, width: 2 * CELL - 2, height: 2 * CELL - 2, rx: 3,
      fill: "rgba(255, 214, 0, 0.25)", stroke: "#1f2328", "stroke-width": 3, "stroke-dasharray": "6 3",
    }));
    let body = choice.moves[0];
    if (choice.moves.length > 1) {
      body = await table.pick({ title: `${name}'s tile: which way does it face?`, options: facingOptions(choice) });
    }
    if (!still(table)) return;
    if (!body) {
      node.classList.remove("chosen");
      preview.replaceChildren();
      return;
    }
    const facing = choice.moves.length > 1 ? `, ${facingWords(body.rotation || 0).toLowerCase()}` : "";
    table.record(body, `${name} places the tile${facing}`);
  };
  if (anchors.size) {
    showGridOnly(table, layout);
    hint(table, `${name}'s tile: touch a lit box for its top-left corner.`, boxes ? cardPicture(boxes) : null);
  }
  const shown = new Map(table.state.boxes.map((box) => [`${box.x},${box.y}`, box]));
  for (const choice of anchors.values()) {
    const x = layout.px(choice.x);
    const y = layout.py(choice.y);
    // Said too: the boxes it would cover (for who does not see the board).
    const under = [[0, 0], [1, 0], [0, 1], [1, 1]]
      .map(([dx, dy]) => shown.get(`${choice.x + dx},${choice.y + dy}`))
      .filter(Boolean);
    const blanks = under.filter((box) => box.kind === "blank").length;
    const covered = under.filter((box) => box.kind !== "blank").map(boxWords);
    if (blanks) covered.push(plural(blanks, "blank box", "blank boxes"));
    const words = `Place the tile here${covered.length ? `, over ${listed(covered)}` : ""}`;
    boardTarget(table, layer, { "data-anchor": "", "data-x": choice.x, "data-y": choice.y }, words,
      svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 5, fill: "rgba(255, 214, 0, 0.12)", stroke: "#8a6d00", "stroke-width": 1, "stroke-dasharray": "3 3" }),
      (node) => place(choice, node),
      // The tile's top-left corner, where it goes.
      svg("path", { d: `M ${x + 7} ${y + 20} L ${x + 7} ${y + 7} L ${x + 20} ${y + 7}`, fill: "none", stroke: "#8a6d00", "stroke-width": 3.5, "stroke-linecap": "round", "stroke-linejoin": "round" }));
  }
  layer.append(preview);
  if (discard) {
    const body = discard;
    hint(table, `${name}'s tile fits nowhere on the board.`, boxes ? cardPicture(boxes) : null);
    table.button("Discard the tile (it fits nowhere)", () => table.record(body, `${name} discards the tile (it fits nowhere)`),
      boxes ? cardPicture(boxes) : cardBackPicture);
  }
  return true;
}

function recordMove(table, layout, layer) {
  const state = table.state;
  const moves = table.moves;
  const seat = moves[0].player;
  const name = table.players[seat];
  const colour = PAWN[state.colours[seat]] || table.colours[seat];
  const pawn = state.pawns[seat];
  const boxes = new Map(state.boxes.map((box) => [`${box.x},${box.y}`, box]));
  const ways = new Map();
  moves.forEach((move) => {
    const turns = move.turns || [];
    const key = JSON.stringify(turns);
    if (!ways.has(key)) ways.set(key, { turns, moves: [], walk: walkOf(boxes, pawn, turns) });
    ways.get(key).moves.push(move);
  });
  const options = [...ways.values()];
  options.forEach((way) => { way.words = walkWords(way.walk, way.turns); });

  const finish = async (way) => {
    let candidates = way.moves;
    const end = way.walk && way.walk.box;
    const counterColour = end && end.kind === "mango" ? end.mango : null;
    let taken = "";
    const values = [...new Set(candidates.filter((move) => move.counter !== undefined).map((move) => move.counter))];
    if (values.length) {
      let value = values[0];
      if (values.length > 1) {
        const unseen = state.unseen_counters && counterColour ? state.unseen_counters[counterColour] : null;
        value = await table.pick({
          title: `Which counter did ${name} take?`,
          options: values.map((shown) => ({
            label: `${counterColour ? `${MANGO_WORDS[counterColour]} counter` : "Counter"} worth ${shown}`,
            value: shown,
            picture: counterPicture(counterColour, shown),
            count: unseen ? unseen.filter((one) => one === shown).length : undefined,
          })),
        });
        if (value === null || value === undefined || !still(table)) return;
      }
      candidates = candidates.filter((move) => move.counter === value);
      taken = ` and takes a ${counterColour ? `${counterColour} ` : ""}counter worth ${value}`;
    }
    const draws = [...new Set(candidates.filter((move) => move.draw !== undefined).map((move) => move.draw))];
    let drawn = "";
    if (draws.length) {
      const id = await pickCard(table, `Which Terrain card did ${name} draw?`, draws);
      if (id === null || id === undefined || !still(table)) return;
      candidates = candidates.filter((move) => move.draw === id);
      drawn = ", then draws a Terrain card";
    }
    if (!candidates.length || !still(table)) return;
    table.record(candidates[0], `${name}'s sifaka ${way.words.replace(/^Move/, "moves").replace(/^Stay/, "stays")}${taken}${drawn}`);
  };
  const choose = async (among) => {
    if (among.length === 1) return finish(among[0]);
    const index = await table.pick({
      title: `Which way does ${name}'s sifaka go?`,
      options: among.map((one, at) => ({
        label: one.words,
        value: at,
        picture: one.walk ? walkPicture(one.walk, colour) : pawnPicture(colour, pawn.facing),
      })),
    });
    if (index !== null && index !== undefined && still(table)) finish(among[index]);
    return null;
  };

  showGridOnly(table, layout);
  // The ways each end box stands for; the sifaka's own box is its own target.
  const ends = new Map();
  options.forEach((way) => {
    if (!way.walk || way.walk.gone === 0 || (way.walk.x === pawn.x && way.walk.y === pawn.y)) return;
    const key = `${way.walk.x},${way.walk.y}`;
    if (!ends.has(key)) ends.set(key, { x: way.walk.x, y: way.walk.y, ways: [] });
    ends.get(key).ways.push(way);
  });
  const paths = svg("g", { class: "paths", "pointer-events": "none" });
  layer.append(paths);
  options.forEach((way) => {
    if (!way.walk || way.walk.gone === 0) return;
    paths.append(svg("polyline", {
      points: way.walk.path.map((at) => `${layout.px(at.x) + CELL / 2},${layout.py(at.y) + CELL / 2}`).join(" "),
      fill: "none", stroke: colour, "stroke-width": 3, "stroke-dasharray": "6 4", opacity: 0.8,
    }));
  });
  if (!ends.size) hint(table, `${name}'s sifaka: touch it to record its move.`);
  else if (options.length > 1) hint(table, `${name}'s sifaka: touch the lit box where it ends (or the sifaka, to choose its way).`);
  else hint(table, `${name}'s sifaka: touch it, or the lit box where it ends.`);
  for (const end of ends.values()) {
    const x = layout.px(end.x);
    const y = layout.py(end.y);
    const words = end.ways.length === 1 ? end.ways[0].words : `Move the sifaka here (${end.ways.length} ways)`;
    boardTarget(table, layer, { "data-end": "", "data-x": end.x, "data-y": end.y, "data-ways": end.ways.length }, words,
      svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 8, fill: "rgba(255, 214, 0, 0.3)", stroke: colour, "stroke-width": 2.5 }),
      () => choose(end.ways),
      svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 6, fill: colour, stroke: "#fff", "stroke-width": 1.5 }));
  }
  const [cx, cy] = layout.pawnCentres[seat] || [layout.px(pawn.x) + CELL / 2, layout.py(pawn.y) + CELL / 2];
  const moveWords = options.length === 1 ? options[0].words : "Move the sifaka";
  boardTarget(table, layer, { "data-sifaka": seat }, moveWords,
    svg("circle", { cx, cy, r: 19, fill: "rgba(255, 255, 255, 0.01)", stroke: colour, "stroke-width": 2, "stroke-dasharray": "4 3" }),
    () => choose(options));
  table.button(options.length === 1 ? moveWords : "Move the sifaka", () => choose(options),
    options.length === 1 && options[0].walk ? walkPicture(options[0].walk, colour) : pawnPicture(colour, pawn.facing));
  return true;
}

function record(table) {
  const layout = table.drawn;
  const moves = table.moves || [];
  if (!layout || !moves.length) return false;
  const type = moves[0].type;
  if (moves.some((move) => move.type !== type)) return false;
  table.memory.version = table.state.version;
  const layer = svg("g", { class: "targets" });
  table.board.append(layer);
  if (type === "deal") return recordDeal(table, layout, layer);
  if (type === "place") return recordPlace(table, layout, layer);
  if (type === "move") return recordMove(table, layout, layer);
  layer.remove();
  return false;
}

/** "a, b and c". */
function listed(items) {
  if (items.length <= 1) return items.length ? items[0] : "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export { draw, record };
