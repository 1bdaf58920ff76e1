/* Madcala, drawn from its state (domain/madcala/views.py): the circle of twelve plates (spaces
 * 0..11 clockwise; seat 0 owns the lower half, 0..5, seat 1 the upper, 6..11; the Homes are 0 and
 * 6), each with its effect and the Shards on it, and above and below it each seat's Guest, health,
 * reserve, Plus-One cards and Commoners. The Commoners in hand are hidden in the public view.
 *
 * Data attributes: on each plate data-space, data-effect, data-normal ([seat 0, seat 1]) and
 * data-doubler; on each seat's panel data-seat, data-health, data-max-health, data-reserve,
 * data-hand (when shown), data-hand-size; on each Plus-One card data-card, data-face-up and
 * data-shards.
 */
"use strict";

(function () {
  const T = window.Tabletape;
  const { svg, text, titled, plural, humanize } = T;

  // Two sizes: a phone's screen gets a narrower drawing, so that its text stays legible.
  const WIDE = { width: 500, radius: 160, plate: 38, card: 150, bar: 220, name: 22, label: 11 };
  const NARROW = { width: 400, radius: 136, plate: 33, card: 124, bar: 150, name: 18, label: 9.5 };
  const PANEL_H = 150;
  let L = WIDE;
  let WIDTH = L.width;
  let CENTRE_Y = PANEL_H + 30 + L.radius + 8;
  let RADIUS = L.radius;
  let PLATE_R = L.plate;
  const EFFECT_LABELS = {
    home: "Home",
    add_shard: "+1 Shard",
    heal: "Heal",
    draw_commoner: "Draw",
    damage: "Damage",
    refresh_plus_one: "Refresh",
  };
  const SIDE_TINT = ["#e8f0fa", "#fbeceb"];

  function platePosition(space) {
    // Clockwise on the screen: seat 0's side along the bottom from the right, seat 1's along the top.
    const angle = ((15 + 30 * space) * Math.PI) / 180;
    return { x: WIDTH / 2 + RADIUS * Math.cos(angle), y: CENTRE_Y + RADIUS * Math.sin(angle) };
  }

  function shardToken(x, y, count, colour, what) {
    return titled(svg("g", { class: "shards" },
      svg("circle", { cx: x, cy: y, r: 11, fill: colour, stroke: "#fff", "stroke-width": 1.5 }),
      text(x, y + 4.5, count, { "text-anchor": "middle", "font-size": 13, "font-weight": 700, class: "on-dark" })
    ), what);
  }

  function doublerToken(x, y, colour, what) {
    return titled(svg("g", { class: "doubler" },
      svg("rect", { x: x - 9, y: y - 9, width: 18, height: 18, fill: colour, stroke: "#fff", "stroke-width": 1.5, transform: `rotate(45 ${x} ${y})` }),
      text(x, y + 4, "×2", { "text-anchor": "middle", "font-size": 10, "font-weight": 700, class: "on-dark" })
    ), what);
  }

  function plate(state, space, ctx) {
    const { x, y } = platePosition(space);
    const owner = space < 6 ? 0 : 1;
    const effect = state.layout[space];
    const cell = state.spaces[space];
    const home = effect === "home";
    const group = svg("g", {
      class: "plate",
      "data-space": space,
      "data-effect": effect,
      "data-normal": JSON.stringify(cell.normal),
      "data-doubler": JSON.stringify(cell.doubler),
    });
    group.append(svg("circle", {
      cx: x, cy: y, r: PLATE_R, fill: SIDE_TINT[owner], stroke: ctx.colours[owner], "stroke-width": home ? 4 : 2,
    }));
    group.append(text(x, y - PLATE_R * 0.52, EFFECT_LABELS[effect] || humanize(effect), {
      "text-anchor": "middle", "font-size": L.label, "font-weight": home ? 700 : 600,
    }));
    group.append(text(x, y + PLATE_R * 0.82, `${space}`, { "text-anchor": "middle", class: "small" }));
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
    const words = [`space ${space} (${home ? "Home" : humanize(effect)}, ${ctx.players[owner]}'s side)`];
    const held = [0, 1].filter((seat) => cell.normal[seat] || cell.doubler[seat]).map((seat) =>
      `${ctx.players[seat]} ${cell.normal[seat]}${cell.doubler[seat] ? " and the Doubler" : ""}`);
    words.push(held.length ? held.join(", ") : "empty");
    return { node: group, words: words.join(": ") };
  }

  function plusOneCard(card, x, y, ctx, seat) {
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
      x, y, width: L.card, height: 40, rx: 5,
      fill: up ? (corrupted ? "#f5e9ff" : "#ffffff") : "#44505c",
      stroke: corrupted ? "#6a3fa0" : ctx.colours[seat], "stroke-width": 1.5,
    }));
    const ink = up ? null : "on-dark";
    group.append(text(x + 6, y + 15, name.length > L.name ? name.slice(0, L.name - 1) + "…" : name, { "font-size": 11, "font-weight": 600, class: ink }));
    let detail = corrupted ? `Corrupted · ${plural(card.shards, "Shard")}` : `Refreshable · cost ${info.cost ?? "?"}`;
    if (!up) detail = corrupted ? "spent" : "face down";
    group.append(text(x + 6, y + 31, detail, { "font-size": 10, class: ink || "small" }));
    const effects = (info.effects || []).map(humanize).join(", ");
    return titled(group, `${name}: ${corrupted ? "Corrupted" : "Refreshable"}, ${up ? "face up" : "face down"}${corrupted ? `, ${plural(card.shards, "Shard")} left` : ""}${effects ? `; ${effects}` : ""}`);
  }

  function panel(state, seat, top, ctx) {
    const name = ctx.players[seat];
    const guest = state.guests[seat];
    const hand = state.hands ? state.hands[seat] : null;
    const current = state.current_player === seat;
    const winner = (state.winners || []).includes(seat);
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
    group.append(svg("rect", { x: 2, y: top, width: WIDTH - 4, height: PANEL_H - 6, rx: 8, class: current ? "panel current" : "panel" }));
    group.append(svg("circle", { cx: 16, cy: top + 16, r: 7, fill: ctx.colours[seat] }));
    let heading = `${name} · ${guest.name}`;
    if (winner) heading += " · winner";
    else if (current && state.status !== "finished") heading += " · to play";
    group.append(text(28, top + 21, heading, { class: "label" }));

    // Health bar.
    const barX = 10;
    const barY = top + 32;
    const barW = L.bar;
    const share = state.max_health[seat] ? state.health[seat] / state.max_health[seat] : 0;
    group.append(svg("rect", { x: barX, y: barY, width: barW, height: 14, rx: 3, fill: "#e4e1da", stroke: "#8a8f96" }));
    group.append(svg("rect", { x: barX, y: barY, width: barW * share, height: 14, rx: 3, fill: share > 0.3 ? "#2e7d32" : "#b3261e" }));
    group.append(text(barX + barW + 8, barY + 12, `Health ${state.health[seat]} / ${state.max_health[seat]}`, { "font-size": 12, "font-weight": 600 }));
    group.append(text(WIDTH - 12, barY + 12, `Reserve ${state.reserves[seat]}`, { "font-size": 12, "text-anchor": "end" }));

    // Plus-One cards.
    const cards = state.plus_ones[seat];
    cards.forEach((card, index) => group.append(plusOneCard(card, 10 + index * (L.card + (WIDTH - 20 - 3 * L.card) / 2), top + 54, ctx, seat)));

    // Commoners in hand.
    const commonersY = top + 112;
    group.append(text(10, commonersY + 12, "Commoners:", { "font-size": 11, class: "small" }));
    const names = ctx.cards.commoners || {};
    if (hand) {
      let x = 82;
      if (!hand.length) group.append(text(x, commonersY + 12, "none", { "font-size": 11 }));
      hand.forEach((id) => {
        const label = (names[id] && names[id].name) || humanize(id);
        const width = Math.min(150, 10 + label.length * 6.2);
        group.append(titled(svg("g", { class: "commoner", "data-card": id },
          svg("rect", { x, y: commonersY, width, height: 18, rx: 4, fill: "#fff8e1", stroke: "#8a5a00" }),
          text(x + 5, commonersY + 13, label, { "font-size": 11 })
        ), `${label}: ${((names[id] && names[id].effects) || []).map(humanize).join(", ")}`));
        x += width + 6;
      });
    } else {
      const count = state.hand_sizes[seat];
      for (let index = 0; index < count; index += 1) {
        group.append(titled(svg("rect", { x: 82 + index * 20, y: commonersY, width: 16, height: 20, rx: 3, class: "card-back" }), "a Commoner in hand, hidden"));
      }
      group.append(text(82 + count * 20 + (count ? 4 : 0), commonersY + 13, count ? "(hidden)" : "none", { "font-size": 11, class: "small" }));
    }
    group.append(text(WIDTH - 12, commonersY + 13, `damage dealt ${state.damage_dealt[seat]}`, { "font-size": 11, "text-anchor": "end", class: "small" }));

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

  function draw(board, state, ctx) {
    L = ctx.narrow ? NARROW : WIDE;
    WIDTH = L.width;
    RADIUS = L.radius;
    PLATE_R = L.plate;
    CENTRE_Y = PANEL_H + 30 + RADIUS + 8;
    const height = CENTRE_Y + RADIUS + PLATE_R + 26 + PANEL_H;
    board.setAttribute("viewBox", `0 0 ${WIDTH} ${height}`);
    const lines = [];
    const top = panel(state, 1, 0, ctx);
    const bottom = panel(state, 0, height - PANEL_H + 6, ctx);
    board.append(top.node, bottom.node);

    // The centre: whose turn, the Commoner deck and discard.
    const centre = svg("g", { class: "centre", "data-turn": state.turn, "data-deck-size": state.commoner_deck_size });
    let turn;
    if (state.status === "finished") {
      const names = (state.winners || []).map((seat) => ctx.players[seat]);
      turn = state.draw ? "Game over: a draw" : `Game over: ${names.join(" and ")} won`;
    } else {
      turn = `${ctx.players[state.current_player]} to play`;
    }
    centre.append(text(WIDTH / 2, CENTRE_Y - 30, `Turn ${state.turn}`, { "text-anchor": "middle", class: "label" }));
    centre.append(text(WIDTH / 2, CENTRE_Y - 12, turn, { "text-anchor": "middle", "font-size": 13 }));
    if (state.status !== "finished") {
      const doing = state.moved ? "moved; may act, then end the turn" : "has not moved yet";
      centre.append(text(WIDTH / 2, CENTRE_Y + 6, doing, { "text-anchor": "middle", class: "small" }));
    }
    if (state.extra_turns) centre.append(text(WIDTH / 2, CENTRE_Y + 22, `${plural(state.extra_turns, "extra turn")} owed`, { "text-anchor": "middle", class: "small" }));
    centre.append(text(WIDTH / 2, CENTRE_Y + 42, `Commoner deck ${state.commoner_deck_size} · discard ${state.commoner_discard.length}`, { "text-anchor": "middle", class: "small" }));
    board.append(centre);
    lines.push(`Turn ${state.turn}. ${turn}.`);

    const plates = [];
    for (let space = 0; space < 12; space += 1) {
      const drawn = plate(state, space, ctx);
      board.append(drawn.node);
      plates.push(drawn.words);
    }
    lines.push(bottom.words, top.words, `The plates, clockwise: ${plates.join("; ")}.`);
    return { title: `Madcala after move ${ctx.at} of ${ctx.version}`, description: lines.join(" ") };
  }

  T.renderers.madcala = { draw };
})();
