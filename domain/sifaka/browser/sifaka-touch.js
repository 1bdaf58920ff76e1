/* Recording Sifaka by touch (sifaka.js puts it together with its drawing, sifaka-draw.js): every
 * target comes from the moves GET /legal lists now; see sifaka.js for what is touched. */
import { plural, svg, text } from "../../lib/draw.js";
import {
  CELL,
  DIRECTION,
  PAD,
  PAWN,
  ROW,
  STEP,
  boxShape,
  boxWords,
  counterToken,
  palm,
  pawnShape,
} from "./sifaka-draw.js";

// Recording by touch (the recorder page calls record, service/pages/static/record.js) ---------
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

/** Options for the picker from card ids: equal tiles one picture, with a count. A tile is
 * pictured as the deck's card of that tile with the smallest id, whichever of its cards are
 * listed: a move's words say a card as that one too (display.py, pictured_faces). */
function cardOptions(ids, cards) {
  const pictured = new Map();
  Object.keys(cards).map(Number).sort((a, b) => a - b).forEach((id) => {
    const key = tileKey(cards[String(id)]);
    if (!pictured.has(key)) pictured.set(key, cards[String(id)]);
  });
  const groups = new Map();
  ids.forEach((id) => {
    const boxes = cards[String(id)];
    const key = boxes ? tileKey(boxes) : `?${id}`;
    if (!groups.has(key)) groups.set(key, { value: id, ids: [], boxes: boxes ? pictured.get(key) : null });
    groups.get(key).ids.push(id);
  });
  return [...groups.values()].map((group) => ({
    label: group.boxes ? cardWords(group.boxes) : "a Terrain card",
    value: group.value,
    ids: group.ids,
    picture: group.boxes ? cardPicture(group.boxes) : cardBackPicture,
    count: group.ids.length,
    features: group.boxes ? cardFeatures(group.boxes) : {},
  }));
}

/** What a person sees on a Terrain card in hand, to narrow the picker's many cards: its mango's
 * colour, how many palm trees, how many arrows. */
function cardFeatures(boxes) {
  const mangoes = boxes.filter((box) => box.kind === "mango").map((box) => MANGO_WORDS[box.mango] || box.mango);
  const palms = boxes.reduce((sum, box) => sum + (box.kind === "palms" ? box.palms : 0), 0);
  const arrows = boxes.filter((box) => box.kind === "arrow").length;
  return {
    Mango: mangoes.length ? mangoes.join(" and ") : "none",
    Palms: String(palms),
    Arrows: String(arrows),
  };
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
    // Said without the card (its number is no word of the rulebook's): GET /legal's base_words.
    if (body) table.record(body, table.baseWordsOf(body));
  };
  const rows = svg("g", { transform: `translate(0 ${layout.rowsTop}) scale(${layout.k})` });
  layer.append(rows);
  const top = seat * (ROW + 6);
  // The deal without its card, in the API's words (GET /legal's base_words); the picker asks which.
  const dealt = table.baseWordsOf(moves[0]);
  boardTarget(table, rows, { "data-deal": seat }, `${dealt}: pick it from pictures`,
    svg("rect", { x: layout.handX - 4, y: top + 4, width: 2 * 17 + 8, height: 2 * 17 + 8, rx: 4, fill: "rgba(255, 214, 0, 0.35)", stroke: "#8a6d00", "stroke-width": 1.5, "stroke-dasharray": "4 2" }),
    open, text(layout.handX + 17, top + 31, "?", { "text-anchor": "middle", "font-size": 18, "font-weight": 700, fill: "#5b4a1f" }));
  table.button(`${dealt}: pick it from pictures`, open, cardBackPicture);
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
    table.record(body);
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
    table.button(table.wordsOf(body), () => table.record(body),
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
  // A way in the API's words: the move's own where the way is one move naming nothing chance
  // brings (a touch records it), else the move without the counter and card (GET /legal's
  // base_words), which the picker then asks.
  const chanceFields = (table.chanceFields && (table.chanceFields.move || table.chanceFields["*"])) || [];
  options.forEach((way) => {
    const whole = way.moves.length === 1 && !chanceFields.some((field) => way.moves[0][field] !== undefined);
    way.words = whole ? table.wordsOf(way.moves[0]) : table.baseWordsOf(way.moves[0]);
  });

  const finish = async (way) => {
    let candidates = way.moves;
    const end = way.walk && way.walk.box;
    const counterColour = end && end.kind === "mango" ? end.mango : null;
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
    }
    const draws = [...new Set(candidates.filter((move) => move.draw !== undefined).map((move) => move.draw))];
    if (draws.length) {
      const id = await pickCard(table, `Which Terrain card did ${name} draw?`, draws);
      if (id === null || id === undefined || !still(table)) return;
      candidates = candidates.filter((move) => move.draw === id);
    }
    if (!candidates.length || !still(table)) return;
    table.record(candidates[0]);
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

export { record };
