/* Sifaka's drawing (sifaka.js puts it together with its touches, sifaka-touch.js): the grid, the
 * counters and pawns, the seats' rows; draw returns where it drew them, for the touches. */
import { plural, svg, text, titled } from "../../lib/draw.js";

export const CELL = 44;
export const PAD = 12;
export const ROW = 50;
const MANGO = { green: "#43a047", yellow: "#f2c200", red: "#e53935" };
// Counters: darker shades, so that their values keep a 4.5:1 contrast.
const TOKEN = { green: "#2e7d32", yellow: "#f2c200", red: "#c62828" };
const MANGO_INK = { green: "#ffffff", yellow: "#1f2328", red: "#ffffff" };
// The seat colours of service/pages/views.py (SIFAKA_COLOURS).
export const PAWN = { red: "#c62828", blue: "#1565c0", yellow: "#b8860b", green: "#2e7d32" };
const TINT = { red: "#f9d9d6", blue: "#d6e4f6", yellow: "#fbefc2", green: "#d5ecd6" };
export const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const ANGLE = { N: 0, E: 90, S: 180, W: 270 };
export const DIRECTION = { N: "north", E: "east", S: "south", W: "west" };
// The huts at the board's centre (domain/sifaka/state.py HUTS), the landmark the labels say where
// things lie from: no label gives a coordinate. Fixed here, not read from the state's boxes: a
// tile may be laid over the huts, and the places are still said from where they stand.
const HUTS = { red: [1, 1], blue: [2, 1], yellow: [2, 2], green: [1, 2] };
const HUTS_LEFT = 1;
const HUTS_TOP = 1;

/** A slide north or south, then east or west, in squares: "1 square south and 3 east"; "" for
 * none (display.py's _slid). */
function slid(south, east) {
  const said = [];
  [[Math.abs(south), south > 0 ? "south" : "north"], [Math.abs(east), east > 0 ? "east" : "west"]].forEach(([squares, way]) => {
    if (!squares) return;
    const unit = said.length ? "" : squares === 1 ? " square" : " squares";
    said.push(`${squares}${unit} ${way}`);
  });
  return said.join(" and ");
}

/** Where a tile (or a starting slot) anchored at (x, y) lies, from the huts' 2x2 block, a tile's
 * size: "2 squares north of the huts" (display.py's from_huts, which a move's words use). */
export function tileFromHuts(x, y) {
  const said = slid(y - HUTS_TOP, x - HUTS_LEFT);
  return said ? `${said} of the huts` : "on the huts";
}

/** Where one box lies, from the nearest hut (the box brought into the huts' block): "2 squares
 * north and 1 west of the red hut", "at the blue hut" (display.py's square_from_huts). */
export function squareFromHuts(x, y) {
  const hx = Math.min(Math.max(x, HUTS_LEFT), HUTS_LEFT + 1);
  const hy = Math.min(Math.max(y, HUTS_TOP), HUTS_TOP + 1);
  const colour = Object.keys(HUTS).find((name) => HUTS[name][0] === hx && HUTS[name][1] === hy);
  const said = slid(y - hy, x - hx);
  return said ? `${said} of the ${colour} hut` : `at the ${colour} hut`;
}

export function palm(x, y, size) {
  return svg("g", { class: "palm" },
    svg("line", { x1: x, y1: y, x2: x, y2: y + size * 1.2, stroke: "#6d4c2f", "stroke-width": 2 }),
    svg("circle", { cx: x, cy: y, r: size * 0.62, fill: "#1b7a2f" }));
}

/** One box at pixel (px, py), ``size`` wide: the board's and the card in hand's. */
export function boxShape(box, px, py, size) {
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

export function boxWords(box) {
  if (box.kind === "palms") return plural(box.palms, "palm");
  if (box.kind === "arrow") return `arrow ${DIRECTION[box.arrow] || box.arrow}`;
  if (box.kind === "mango") return `${box.mango} mango`;
  if (box.kind === "hut") return `${box.hut} hut`;
  return "blank";
}

export function counterToken(cx, cy, colour, value, r) {
  return svg("g", { class: "counter" },
    svg("circle", { cx, cy, r, fill: TOKEN[colour] || "#999", stroke: "#1f2328", "stroke-width": 1.5 }),
    text(cx, cy + r * 0.42, value === undefined || value === null ? "?" : value, {
      "text-anchor": "middle", "font-size": r * 1.15, "font-weight": 700, fill: MANGO_INK[colour] || "#000",
    }));
}

export function pawnShape(cx, cy, colour, facing, current) {
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


export function draw(board, state, ctx) {
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
  if (state.status === "abandoned") {
    turn = "Game abandoned";
  } else if (state.status === "finished") {
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
  }), `starting slot ${tileFromHuts(slot.x, slot.y)}, free`)));
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
    // A hut says itself; any other box where it lies, from the huts.
    let words = box.kind === "hut" ? boxWords(box) : `${squareFromHuts(box.x, box.y)}: ${boxWords(box)}`;
    if (box.counter) {
      group.append(counterToken(px(box.x) + CELL - 12, py(box.y) + CELL - 12, box.mango, box.counter_value, 9));
      words += `, a ${box.mango} counter${box.counter_value ? ` worth ${box.counter_value}` : ""}`;
    }
    grid.append(titled(group, words));
    if (box.kind !== "blank") boxWordsList.push(words);
  });
  board.append(grid);
  lines.push(`${plural(state.boxes.length, "box", "boxes")} on the board, north up, around the four huts at its centre; all others blank: ${boxWordsList.join("; ")}.`);

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
        state.current_player === seat && state.status === "active"));
    const where = squareFromHuts(pawn.x, pawn.y);
    board.append(titled(node, `${ctx.players[seat]}'s ${colours[seat]} sifaka ${where}, facing ${DIRECTION[pawn.facing]}`));
    lines.push(`${ctx.players[seat]}'s ${colours[seat]} sifaka is ${where}, facing ${DIRECTION[pawn.facing]}.`);
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
      // The tile shown by its picture, as at the table: no number of the catalog's beside it.
      row.append(titled(handGroup, `the Terrain card in hand: ${cards[String(hand)].map(boxWords).join(", ")}`));
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
