/* Madcala's drawing (madcala.js puts it together with its touches, madcala-touch.js): the circle
 * of twelve plates, each seat's panel, the pictures and the words of the touch targets. */
import { humanize, plural, svg, text } from "../../lib/draw.js";

// Two sizes: a phone's screen gets a narrower, more compact drawing (the plates on an ellipse,
// the seats' panels short), so that it is drawn large enough to touch.
const WIDE = {
  width: 500, rx: 160, ry: 160, plate: 38, card: 150, cardH: 40, name: 25, label: 11, panel: 150,
  headingY: 21, barY: 32, barH: 14, bar: 220, cardsY: 54, handY: 112, handH: 18, gap: 30,
};
// On a phone every card and plate is at least 52 units each way: drawn to the screen's width (about
// 0.9 CSS px a unit), each stays at a finger's size (44x44 px); the board is then taller than the
// screen and its frame scrolls (lib/zoom.js).
const NARROW = {
  width: 400, rx: 166, ry: 128, plate: 31, card: 124, cardH: 54, name: 18, label: 9.5, panel: 156,
  headingY: 17, barY: 24, barH: 6, bar: 150, cardsY: 35, handY: 95, handH: 54, gap: 10,
};
const EFFECT_LABELS = {
  home: "Home",
  add_shard: "+1 Shard",
  heal: "Heal",
  draw_commoner: "Draw",
  damage: "Damage",
  refresh_plus_one: "Refresh",
};
// The effects in the rulebook's words.
export const EFFECT_WORDS = {
  add_shard: "Add a Shard",
  heal: "Heal",
  draw_commoner: "Draw a Commoner",
  damage: "Damage",
  refresh_plus_one: "Refresh a Plus-One",
  gather_shards: "Gather your Shards",
  extra_turn: "Extra turn",
  strike_shard: "Strike a Shard",
  strike_plus_one: "Strike a Plus-One",
};
const SIDE_TINT = ["#e8f0fa", "#fbeceb"];
export const TOUCH = "#0b57d0";

function titledLast(node, title) {
  // The title last: the frame's focus ring outlines a touch target's first child, its shape.
  node.append(svg("title", {}, title));
  return node;
}

function platePosition(space, ctx) {
  // Clockwise on the screen: seat 0's side along the bottom from the right, seat 1's along the top.
  const { L, centreY } = ctx;
  const angle = ((15 + 30 * space) * Math.PI) / 180;
  return { x: L.width / 2 + L.rx * Math.cos(angle), y: centreY + L.ry * Math.sin(angle) };
}

function shardToken(x, y, count, colour, what) {
  return titledLast(svg("g", { class: "shards" },
    svg("circle", { cx: x, cy: y, r: 11, fill: colour, stroke: "#fff", "stroke-width": 1.5 }),
    text(x, y + 4.5, count, { "text-anchor": "middle", "font-size": 13, "font-weight": 700, class: "on-dark" })
  ), what);
}

function doublerToken(x, y, colour, what) {
  return titledLast(svg("g", { class: "doubler" },
    svg("rect", { x: x - 9, y: y - 9, width: 18, height: 18, fill: colour, stroke: "#fff", "stroke-width": 1.5, transform: `rotate(45 ${x} ${y})` }),
    text(x, y + 4, "×2", { "text-anchor": "middle", "font-size": 10, "font-weight": 700, class: "on-dark" })
  ), what);
}

function plate(state, space, ctx) {
  const { L } = ctx;
  const { x, y } = platePosition(space, ctx);
  const owner = space < 6 ? 0 : 1;
  const effect = state.layout[space];
  const cell = state.spaces[space];
  const home = effect === "home";
  const r = L.plate;
  const group = svg("g", {
    class: "plate",
    "data-space": space,
    "data-effect": effect,
    "data-normal": JSON.stringify(cell.normal),
    "data-doubler": JSON.stringify(cell.doubler),
  });
  group.append(svg("circle", {
    cx: x, cy: y, r, fill: SIDE_TINT[owner], stroke: ctx.colours[owner], "stroke-width": home ? 4 : 2,
  }));
  group.append(text(x, y - r * 0.52, EFFECT_LABELS[effect] || humanize(effect), {
    "text-anchor": "middle", "font-size": L.label, "font-weight": home ? 700 : 600,
  }));
  // One numbering with the moves' words: each side's plates from its Home, the 1st ("the 3rd
  // plate" is the plate drawn 3); the Home is named, not numbered.
  const place = space % 6;
  if (!home) group.append(text(x, y + r * 0.82, `${place + 1}`, { "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#4a5058" }));
  const tokens = [];
  [0, 1].forEach((seat) => {
    if (cell.normal[seat] > 0) {
      tokens.push((tx) => shardToken(tx, y + 2, cell.normal[seat], ctx.colours[seat],
        `${plural(cell.normal[seat], "Shard")} of ${ctx.players[seat]}`));
    }
    if (cell.doubler[seat]) {
      tokens.push((tx) => doublerToken(tx, y + 2, ctx.colours[seat], `${ctx.players[seat]}'s Doubler`));
    }
  });
  const step = tokens.length > 2 ? 20 : 24;
  tokens.forEach((make, index) => group.append(make(x + (index - (tokens.length - 1) / 2) * step)));
  const ordinal = ["1st", "2nd", "3rd", "4th", "5th", "6th"][place];
  const words = [home ? `${ctx.players[owner]}'s Home` : `${ctx.players[owner]}'s ${ordinal} plate (${EFFECT_WORDS[effect] || humanize(effect)})`];
  const held = [0, 1].filter((seat) => cell.normal[seat] || cell.doubler[seat]).map((seat) =>
    `${ctx.players[seat]} ${cell.normal[seat]}${cell.doubler[seat] ? " and the Doubler" : ""}`);
  words.push(held.length ? held.join(", ") : "empty");
  return { node: group, words: words.join(": "), x, y, r: L.plate };
}

function plusOneCard(card, x, y, ctx, seat) {
  const { L } = ctx;
  const info = (ctx.cards.plus_ones || {})[card.id] || {};
  const name = info.name || humanize(card.id);
  const corrupted = card.kind === "corrupted";
  const group = svg("g", {
    class: "plus-one",
    "data-card": card.id,
    "data-face-up": String(card.face_up),
    "data-shards": card.shards,
  });
  const up = card.face_up;
  group.append(svg("rect", {
    x, y, width: L.card, height: L.cardH, rx: 5,
    fill: up ? (corrupted ? "#f5e9ff" : "#ffffff") : "#44505c",
    stroke: corrupted ? "#6a3fa0" : ctx.colours[seat], "stroke-width": 1.5,
  }));
  const ink = up ? null : "on-dark";
  // The whole name: on two lines where the card is tall enough, else cut short.
  const lines = L.cardH >= 50 ? wrap(name, L.name, 2) : [name.length > L.name ? name.slice(0, L.name - 1) + "…" : name];
  lines.forEach((line, index) => group.append(text(x + 6, y + 15 + index * 13, line, { "font-size": 11, "font-weight": 600, class: ink })));
  let detail = corrupted ? `Corrupted · ${plural(card.shards, "Shard")}` : `Refreshable · cost ${info.cost ?? "?"}`;
  if (!up) detail = corrupted ? "spent" : "face down";
  group.append(text(x + 6, y + L.cardH - 9, detail, { "font-size": 10, class: ink || "small" }));
  const effects = (info.effects || []).map(humanize).join(", ");
  return titledLast(group, `${name}: ${corrupted ? "Corrupted" : "Refreshable"}, ${up ? "face up" : "face down"}${corrupted ? `, ${plural(card.shards, "Shard")} left` : ""}${effects ? `; ${effects}` : ""}`);
}

/** ``words`` in at most ``most`` lines of ``fits`` characters, the last cut short if it must. */
function wrap(words, fits, most) {
  const lines = [];
  let line = "";
  for (const word of String(words).split(" ")) {
    if (line && (line + " " + word).length > fits) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  if (lines.length > most) {
    const rest = lines.slice(most - 1).join(" ");
    lines.splice(most - 1, lines.length, rest.length > fits ? rest.slice(0, fits - 1) + "…" : rest);
  }
  return lines.map((item) => (item.length > fits ? item.slice(0, fits - 1) + "…" : item));
}

function commonerChip(id, x, y, width, ctx) {
  const { L } = ctx;
  const names = ctx.cards.commoners || {};
  const label = (names[id] && names[id].name) || humanize(id);
  const fits = Math.max(4, Math.floor((width - 10) / 6.2));
  // A tall chip holds the name on up to three lines; a short one cuts it.
  const most = Math.max(1, Math.floor((L.handH - 6) / 14));
  const lines = wrap(label, fits, most);
  const first = y + L.handH / 2 + 4 - ((lines.length - 1) * 14) / 2;
  return titledLast(svg("g", { class: "commoner", "data-card": id },
    svg("rect", { x, y, width, height: L.handH, rx: 4, fill: "#fff8e1", stroke: "#8a5a00" }),
    ...lines.map((line, index) => text(x + 5, first + index * 14, line, { "font-size": 11 }))
  ), `${label}: ${((names[id] && names[id].effects) || []).map(humanize).join(", ")}`);
}

function panel(state, seat, top, ctx) {
  const { L, drawn } = ctx;
  const name = ctx.players[seat];
  const guest = state.guests[seat];
  const hand = state.hands ? state.hands[seat] : null;
  const current = state.current_player === seat;
  const winner = (state.winners || []).includes(seat);
  const narrow = L === NARROW;
  const WIDTH = L.width;
  const group = svg("g", {
    class: "seat",
    "data-seat": seat,
    "data-health": state.health[seat],
    "data-max-health": state.max_health[seat],
    "data-reserve": state.reserves[seat],
    "data-hand": hand ? JSON.stringify(hand) : null,
    "data-hand-size": state.hand_sizes[seat],
    "data-current": current ? "true" : null,
  });
  group.append(svg("rect", { x: 2, y: top, width: WIDTH - 4, height: L.panel - 6, rx: 8, class: current ? "panel current" : "panel" }));
  group.append(svg("circle", { cx: 16, cy: top + L.headingY - 5, r: 7, fill: ctx.colours[seat] }));
  let heading = `${name} · ${guest.name}`;
  if (winner) heading += " · winner";
  else if (current && state.status === "active") heading += " · to play";
  group.append(text(28, top + L.headingY, heading, { class: "label" }));

  // Health bar.
  const barX = 10;
  const barY = top + L.barY;
  const share = state.max_health[seat] ? state.health[seat] / state.max_health[seat] : 0;
  group.append(svg("rect", { x: barX, y: barY, width: L.bar, height: L.barH, rx: 3, fill: "#e4e1da", stroke: "#8a8f96" }));
  group.append(svg("rect", { x: barX, y: barY, width: L.bar * share, height: L.barH, rx: 3, fill: share > 0.3 ? "#2e7d32" : "#b3261e" }));
  const health = `Health ${state.health[seat]} / ${state.max_health[seat]}`;
  const dealt = `damage dealt ${state.damage_dealt[seat]}`;
  if (narrow) {
    // Health and reserve beside the bar, the short "damage dealt" across from the heading: a
    // long name and guest ("Caro · The Mock Turtle · to play") never runs into them.
    group.append(text(barX + L.bar + 8, barY + L.barH + 1, `${health} · Reserve ${state.reserves[seat]}`, { "font-size": 11, "font-weight": 600 }));
    group.append(text(WIDTH - 12, top + L.headingY, dealt, { "font-size": 10, "text-anchor": "end", class: "small" }));
  } else {
    group.append(text(barX + L.bar + 8, barY + 12, health, { "font-size": 12, "font-weight": 600 }));
    group.append(text(WIDTH - 12, barY + 12, `Reserve ${state.reserves[seat]}`, { "font-size": 12, "text-anchor": "end" }));
  }

  // Plus-One cards.
  const cards = state.plus_ones[seat];
  cards.forEach((card, index) => {
    const node = plusOneCard(card, 10 + index * (L.card + (WIDTH - 20 - 3 * L.card) / 2), top + L.cardsY, ctx, seat);
    drawn.cards[seat].push({ id: card.id, card, node });
    group.append(node);
  });

  // Commoners in hand.
  const commonersY = top + L.handY;
  const names = ctx.cards.commoners || {};
  if (hand) {
    let x = narrow ? 10 : 82;
    if (!narrow) group.append(text(10, commonersY + 12, "Commoners:", { "font-size": 11, class: "small" }));
    if (!hand.length) group.append(text(x, commonersY + L.handH / 2 + 4, narrow ? "No Commoner in hand" : "none", { "font-size": 11, class: narrow ? "small" : null }));
    const room = WIDTH - 20;
    hand.forEach((id) => {
      const label = (names[id] && names[id].name) || humanize(id);
      let width = narrow ? 118 : Math.min(150, 10 + label.length * 6.2);
      if (narrow) width = Math.min(118, (room - (hand.length - 1) * 6) / hand.length);
      const node = commonerChip(id, x, commonersY, width, ctx);
      drawn.hand[seat].push({ id, node });
      group.append(node);
      x += width + 6;
    });
  } else {
    const count = state.hand_sizes[seat];
    const x0 = narrow ? 10 : 82;
    for (let index = 0; index < count; index += 1) {
      group.append(titledLast(svg("rect", { x: x0 + index * 20, y: commonersY, width: 16, height: Math.max(20, L.handH), rx: 3, class: "card-back" }), "a Commoner in hand, hidden"));
    }
    const words = count ? `${plural(count, "Commoner")} (hidden)` : narrow ? "No Commoner in hand" : "none";
    group.append(text(x0 + count * 20 + (count ? 4 : 0), commonersY + L.handH / 2 + 4, words, { "font-size": 11, class: "small" }));
  }
  if (!narrow) group.append(text(WIDTH - 12, commonersY + L.handH / 2 + 4, dealt, { "font-size": 11, "text-anchor": "end", class: "small" }));

  const plusOnes = cards.map((card) => {
    const info = (ctx.cards.plus_ones || {})[card.id] || {};
    const label = info.name || humanize(card.id);
    if (card.kind === "corrupted") return `${label} (Corrupted, ${plural(card.shards, "Shard")})`;
    return `${label} (${card.face_up ? "face up" : "face down"})`;
  });
  const commoners = hand
    ? `Commoners in hand: ${hand.length ? hand.map((id) => (names[id] && names[id].name) || humanize(id)).join(", ") : "none"}`
    : `${plural(state.hand_sizes[seat], "Commoner")} in hand, hidden`;
  const words = `${name}${winner ? " (winner)" : ""}, ${guest.name}: health ${state.health[seat]} of ${state.max_health[seat]}; reserve ${state.reserves[seat]}; Plus-One cards ${plusOnes.join(", ")}; ${commoners}.`;
  return { node: group, words };
}

/** Draw the state; the result's `drawn` names the nodes drawn (the plates, each seat's cards and
 * hand) for the touches (madcala-touch.js), and the frame to draw with again. Nothing is kept
 * here between calls. */
export function draw(board, state, frame) {
  const L = frame.narrow ? NARROW : WIDE;
  const ringHalf = L.ry * Math.sin((75 * Math.PI) / 180) + L.plate;
  const centreY = L.panel + L.gap + ringHalf;
  const drawn = { plates: [], cards: [[], []], hand: [[], []], frame };
  const ctx = { ...frame, L, centreY, drawn };
  const height = Math.round(centreY + ringHalf + L.gap + L.panel - (L === WIDE ? 4 : 0));
  const WIDTH = L.width;
  board.setAttribute("viewBox", `0 0 ${WIDTH} ${height}`);
  const lines = [];
  const top = panel(state, 1, 0, ctx);
  const bottom = panel(state, 0, height - L.panel + 6, ctx);
  board.append(top.node, bottom.node);

  // The centre: whose turn, the Commoner deck and discard.
  const centre = svg("g", { class: "centre", "data-turn": state.turn, "data-deck-size": state.commoner_deck_size });
  let turn;
  if (state.status === "abandoned") {
    turn = "Game abandoned";
  } else if (state.status === "finished") {
    const names = (state.winners || []).map((seat) => ctx.players[seat]);
    turn = state.draw ? "Game over: a draw" : `Game over: ${names.join(" and ")} won`;
  } else {
    turn = `${ctx.players[state.current_player]} to play`;
  }
  centre.append(text(WIDTH / 2, centreY - 30, `Turn ${state.turn}`, { "text-anchor": "middle", class: "label" }));
  centre.append(text(WIDTH / 2, centreY - 12, turn, { "text-anchor": "middle", "font-size": 13 }));
  if (state.status === "active") {
    const doing = state.moved ? "moved; may act, then end the turn" : "has not moved yet";
    centre.append(text(WIDTH / 2, centreY + 6, doing, { "text-anchor": "middle", class: "small" }));
  }
  if (state.extra_turns) centre.append(text(WIDTH / 2, centreY + 22, `${plural(state.extra_turns, "extra turn")} owed`, { "text-anchor": "middle", class: "small" }));
  centre.append(text(WIDTH / 2, centreY + 40, `Commoner deck ${state.commoner_deck_size} · discard ${state.commoner_discard.length}`, { "text-anchor": "middle", class: "small" }));
  board.append(centre);
  lines.push(`Turn ${state.turn}. ${turn}.`);

  const plates = [];
  for (let space = 0; space < 12; space += 1) {
    const made = plate(state, space, ctx);
    board.append(made.node);
    drawn.plates.push(made);
    plates.push(made.words);
  }
  lines.push(bottom.words, top.words, `The plates, clockwise: ${plates.join("; ")}.`);
  return { title: `Madcala after move ${ctx.at} of ${ctx.version}`, description: lines.join(" "), drawn };
}

// Pictures (48x64, for the action buttons and the picker) ---------------------------------------

function effectIcon(effect, x, y) {
  // A 14x14 sign for each of the rulebook's effects, its top left corner at (x, y).
  const c = { x: x + 7, y: y + 7 };
  const g = svg("g", { class: `effect-icon ${effect}` });
  const card = (fill) => svg("rect", { x: x + 2, y, width: 10, height: 14, rx: 1.5, fill, stroke: "#5b6068", "stroke-width": 1 });
  const cross = () => svg("path", { d: `M${x + 1} ${y + 1} L${x + 13} ${y + 13} M${x + 13} ${y + 1} L${x + 1} ${y + 13}`, stroke: "#b3261e", "stroke-width": 2 });
  switch (effect) {
    case "heal":
      g.append(svg("path", { d: `M${c.x} ${y + 13} C${x - 3} ${y + 5} ${x + 3} ${y - 2} ${c.x} ${y + 4} C${x + 11} ${y - 2} ${x + 17} ${y + 5} ${c.x} ${y + 13} Z`, fill: "#c62828" }));
      break;
    case "damage":
      g.append(svg("polygon", { points: [0, 1, 2, 3, 4, 5, 6, 7].map((k) => { const a = (k * Math.PI) / 4; const r = k % 2 ? 3 : 7; return `${c.x + r * Math.cos(a)},${c.y + r * Math.sin(a)}`; }).join(" "), fill: "#6d1b1b" }));
      break;
    case "add_shard":
      g.append(svg("circle", { cx: c.x, cy: c.y, r: 6, fill: "#5b7fa6" }), svg("path", { d: `M${c.x - 3.5} ${c.y} H${c.x + 3.5} M${c.x} ${c.y - 3.5} V${c.y + 3.5}`, stroke: "#fff", "stroke-width": 2 }));
      break;
    case "draw_commoner":
      g.append(card("#fff8e1"), svg("path", { d: `M${c.x - 3} ${c.y} H${c.x + 3} M${c.x} ${c.y - 3} V${c.y + 3}`, stroke: "#8a5a00", "stroke-width": 2 }));
      break;
    case "refresh_plus_one":
      g.append(card("#ffffff"), svg("path", { d: `M${c.x - 3} ${c.y + 3} L${c.x} ${c.y - 3} L${c.x + 3} ${c.y + 3}`, fill: "none", stroke: "#2e7d32", "stroke-width": 2 }));
      break;
    case "strike_plus_one":
      g.append(card("#ffffff"), cross());
      break;
    case "strike_shard":
      g.append(svg("circle", { cx: c.x, cy: c.y, r: 6, fill: "#5b7fa6" }), cross());
      break;
    case "gather_shards":
      g.append(svg("circle", { cx: x + 3, cy: y + 3, r: 2.5, fill: "#5b7fa6" }), svg("circle", { cx: x + 11, cy: y + 3, r: 2.5, fill: "#5b7fa6" }), svg("circle", { cx: c.x, cy: y + 11, r: 3.5, fill: "#5b7fa6" }));
      break;
    case "extra_turn":
      g.append(svg("path", { d: `M${x + 12} ${c.y} A5 5 0 1 1 ${c.x} ${y + 2}`, fill: "none", stroke: "#0b57d0", "stroke-width": 2 }), svg("path", { d: `M${c.x - 1} ${y - 1} L${c.x + 3} ${y + 2} L${c.x - 1} ${y + 5} Z`, fill: "#0b57d0" }));
      break;
    default:
      g.append(svg("circle", { cx: c.x, cy: c.y, r: 6, fill: "#8a8f96" }));
  }
  return g;
}

function effectsGrid(drawing, effects, top) {
  effects.slice(0, 6).forEach((effect, index) => {
    drawing.append(effectIcon(effect, index % 2 ? 26 : 8, top + Math.floor(index / 2) * 17));
  });
}

function shortName(name, size) {
  const words = String(name).replace(/^The /, "").split(/\s+/);
  const lines = [""];
  for (const word of words) {
    const line = lines[lines.length - 1];
    if (line && (line + " " + word).length > size) lines.push(word);
    else lines[lines.length - 1] = line ? `${line} ${word}` : word;
  }
  return lines.slice(0, 2).map((line) => (line.length > size ? line.slice(0, size - 1) + "…" : line));
}

export function commonerPicture(id, cards) {
  const info = (cards.commoners || {})[id] || {};
  return (drawing) => {
    drawing.append(svg("rect", { x: 2, y: 2, width: 44, height: 60, rx: 4, fill: "#fff8e1", stroke: "#8a5a00", "stroke-width": 1.5 }));
    shortName(info.name || humanize(id), 9).forEach((line, index) => {
      drawing.append(svg("text", { x: 24, y: 13 + index * 8, "text-anchor": "middle", "font-size": 7, "font-weight": 700, fill: "#3b2a00" }, line));
    });
    effectsGrid(drawing, info.effects || [], 25);
  };
}

export function plusOnePicture(id, cards, colour) {
  const info = (cards.plus_ones || {})[id] || {};
  return (drawing) => {
    const corrupted = info.kind === "corrupted";
    drawing.append(svg("rect", { x: 2, y: 2, width: 44, height: 60, rx: 4, fill: corrupted ? "#f5e9ff" : "#ffffff", stroke: corrupted ? "#6a3fa0" : colour, "stroke-width": 2 }));
    shortName(info.name || humanize(id), 9).forEach((line, index) => {
      drawing.append(svg("text", { x: 24, y: 13 + index * 8, "text-anchor": "middle", "font-size": 7, "font-weight": 700, fill: "#1f2328" }, line));
    });
    effectsGrid(drawing, info.effects || [], 25);
  };
}

export function cardBackPicture(drawing) {
  drawing.append(svg("rect", { x: 6, y: 4, width: 36, height: 56, rx: 4, fill: "#2f4f6f", stroke: "#1b2e40" }));
  drawing.append(svg("rect", { x: 11, y: 9, width: 26, height: 46, rx: 3, fill: "none", stroke: "#8fb0cf" }));
}

/** Shards in a row, wrapping: each {colour, doubler}. */
export function shardsPicture(shards) {
  return (drawing) => {
    const perRow = 4;
    shards.slice(0, 20).forEach((shard, index) => {
      const x = 7 + (index % perRow) * 11.3;
      const y = 9 + Math.floor(index / perRow) * 11.5;
      if (shard.doubler) {
        drawing.append(svg("rect", { x: x - 3.8, y: y - 3.8, width: 7.6, height: 7.6, fill: shard.colour, transform: `rotate(45 ${x} ${y})` }));
      } else {
        drawing.append(svg("circle", { cx: x, cy: y, r: 4.8, fill: shard.colour, stroke: "#fff" }));
      }
    });
  };
}

export function effectsPicture(effects) {
  return (drawing) => {
    drawing.append(svg("rect", { x: 2, y: 2, width: 44, height: 60, rx: 4, fill: "#ffffff", stroke: "#8a8f96" }));
    if (!effects.length) {
      drawing.append(svg("path", { d: "M14 22 L34 42 M34 22 L14 42", stroke: "#8a8f96", "stroke-width": 3 }));
      return;
    }
    effects.slice(0, 3).forEach((effect, index) => drawing.append(effectIcon(effect, 17, 8 + index * 18)));
  };
}

// Words: the rulebook's, never raw data ---------------------------------------------------------

function ordinal(n) {
  return n === 1 ? "1st" : n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`;
}

/** A plate as the seat acting says it: "the Home", "the 3rd plate (Heal)", "Ben's Home"... */
export function plateWords(state, space, seat, players) {
  const owner = space < 6 ? 0 : 1;
  const effect = state.layout[space];
  const whose = owner === seat ? "the" : `${players[owner]}'s`;
  if (effect === "home") return `${whose} Home`;
  return `${whose} ${ordinal((space % 6) + 1)} plate (${EFFECT_LABELS[effect] || humanize(effect)})`;
}

export function plusOneName(cards, id) {
  const info = (cards.plus_ones || {})[id];
  return (info && info.name) || humanize(id);
}

export function commonerName(cards, id) {
  const info = (cards.commoners || {})[id];
  return (info && info.name) || humanize(id);
}

function effectList(effects) {
  const words = effects.map((effect) => EFFECT_WORDS[effect] || humanize(effect));
  if (words.length < 2) return words.join("");
  return `${words.slice(0, -1).join(", ")} then ${words[words.length - 1]}`;
}

/** How a Refreshable card is paid: "2 Shards from the Home and 1 from the 2nd plate (+1 Shard)". */
export function payWords(state, pay, seat, players) {
  const counts = new Map();
  for (const space of pay) counts.set(space, (counts.get(space) || 0) + 1);
  const parts = [...counts].map(([space, count], index) =>
    `${index ? count : plural(count, "Shard")} from ${plateWords(state, space, seat, players)}`);
  if (parts.length < 2) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

function runsOf(order) {
  const runs = [];
  for (const seat of order) {
    if (runs.length && runs[runs.length - 1][0] === seat) runs[runs.length - 1][1] += 1;
    else runs.push([seat, 1]);
  }
  return runs;
}

/** The order of a sowing: the normal Shards' colours as placed, and the Doubler that lands last. */
export function sowingWords(order, last, cell, mover, players) {
  const parts = [];
  const own = cell.normal[mover];
  const other = cell.normal[1 - mover];
  if (own && other) {
    const placed = order || [...Array(own).fill(mover), ...Array(other).fill(1 - mover)];
    parts.push(runsOf(placed).map(([seat, count], index) => `${count} of ${players[seat]}'s${index ? "" : " first"}`).join(", then "));
  }
  if (cell.doubler[0] && cell.doubler[1]) {
    const lands = last === null || last === undefined ? mover : last;
    parts.push(`${players[lands]}'s Doubler last`);
  }
  return parts.join("; ");
}

export function shardsOfSowing(order, last, cell, mover, colours) {
  const own = cell.normal[mover];
  const other = cell.normal[1 - mover];
  const placed = order || [...Array(own).fill(mover), ...Array(other).fill(1 - mover)];
  const shards = placed.map((seat) => ({ colour: colours[seat] }));
  const doublers = [0, 1].filter((seat) => cell.doubler[seat]);
  if (doublers.length === 2) {
    const lands = last === null || last === undefined ? mover : last;
    doublers.sort((a, b) => (a === lands) - (b === lands));
  }
  for (const seat of doublers) shards.push({ colour: colours[seat], doubler: true });
  return shards;
}

export function effectsWords(value, printed) {
  if (value === null) return printed.length > 1 ? `All: ${effectList(printed)}` : `${effectList(printed)}`;
  if (!value.length) return "No effect: just discard it";
  if (value.length < printed.length) return `Only ${effectList(value)}`;
  return effectList(value);
}
