/* Recording Madcala by touch (madcala.js puts it together with its drawing, madcala-draw.js):
 * every target comes from the moves GET /legal lists now; see madcala.js for what is touched. */
import { humanize, plural, svg, text } from "../../lib/draw.js";
import {
  EFFECT_WORDS,
  TOUCH,
  cardBackPicture,
  commonerName,
  commonerPicture,
  draw,
  effectsPicture,
  effectsWords,
  payWords,
  plateWords,
  plusOneName,
  plusOnePicture,
  shardsOfSowing,
  shardsPicture,
  sowingWords,
} from "./madcala-draw.js";

// Recording by touch ----------------------------------------------------------------------------

// The choices of each kind of move, in the order they are made: "sowing" is the order of the
// Shards sown (order and last_doubler together), "pay" and "discard" are sets of spaces or cards.
const PLANS = {
  move: ["sowing", "home_space", "refresh", "drawn"],
  plus_one: ["pay", "effects", "place", "strike", "strike_card", "refresh", "drawn"],
  buy_commoner: ["pay", "drawn"],
  commoner: ["effects", "strike", "strike_card", "refresh", "drawn"],
  end_turn: ["discard"],
};
const LISTS = new Set(["strike", "strike_card", "refresh", "drawn"]);
// Left at their defaults (the first listed) unless the person asks for another.
const DEFAULTED = new Set(["sowing", "effects"]);

function sorted(values) {
  return values.slice().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A move's value for one choice, as a key (JSON). */
function valueOf(move, field, index) {
  if (field === "sowing") return JSON.stringify([move.order ?? null, move.last_doubler ?? null]);
  if (LISTS.has(field)) {
    const list = move[field];
    return JSON.stringify(Array.isArray(list) && index < list.length ? list[index] : null);
  }
  if (field === "pay" || field === "discard") return JSON.stringify(sorted(move[field] || []));
  return JSON.stringify(move[field] ?? null);
}

function distinct(values) {
  return [...new Set(values)];
}

/** Whether the multiset `want` is inside the multiset `have`. */
function within(want, have) {
  const left = have.slice();
  for (const item of want) {
    const at = left.indexOf(item);
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

/** Where an action in progress stands: the next choice to make, or done. */
function stepOf(action) {
  let moves = action.moves;
  const passed = [];
  for (const field of PLANS[action.kind]) {
    for (let index = 0; ; index += 1) {
      if (LISTS.has(field) && !moves.some((move) => Array.isArray(move[field]) && move[field].length > index)) break;
      const key = LISTS.has(field) ? `${field}#${index}` : field;
      if (action.fixed.has(key)) {
        moves = moves.filter((move) => valueOf(move, field, index) === action.fixed.get(key));
      } else {
        const values = distinct(moves.map((move) => valueOf(move, field, index)));
        if (values.length > 1) {
          if (!DEFAULTED.has(field) || action.ask) return { field, index, key, moves, values, passed };
          const first = valueOf(moves[0], field, index);
          passed.push(field);
          moves = moves.filter((move) => valueOf(move, field, index) === first);
        }
      }
      if (!LISTS.has(field)) break;
    }
  }
  return { done: true, moves, passed };
}

/** The touches of one call of record(): over the table the frame handed over, with the choice in
 * progress (`session`, which the frame keeps in table.memory between calls, for one version's
 * moves) and the nodes drawn (table.drawn, drawn again as the choice moves on). Returns render. */
function recording(table, session) {
  let drawn = table.drawn;

  /** An action as start() makes it, to see where a touch leads before it is made. */
  function trial(kind, moves, ask) {
    return { kind, words: "", moves, fixed: new Map(), ask: Boolean(ask), picks: [] };
  }

  /** ``action`` with one more choice fixed, to see where that touch leads. */
  function fixedTo(action, key, value) {
    return { ...action, fixed: new Map([...action.fixed, [key, value]]), picks: [] };
  }

  /** The words of a touch that leads to ``action``: where nothing is then left to ask, the touch
   * records a move, said in the API's words (GET /legal's, table.wordsOf); where only the
   * Commoners chance brings are then asked, the move without them (GET /legal's base_words);
   * else ``words``, the step's own, which further touches complete. */
  function touchWords(t, action, words) {
    const step = stepOf(action);
    if (step.done) return t.wordsOf(step.moves[0]);
    if (step.field === "drawn") {
      const base = distinct(step.moves.map((move) => t.baseWordsOf(move)));
      if (base.length === 1) return base[0];
    }
    return words;
  }

  function start(kind, words, moves, ask) {
    session.mode = null;
    session.action = { kind, words, moves, fixed: new Map(), ask: Boolean(ask), picks: [] };
    render();
  }

  function fix(key, value) {
    session.action.fixed.set(key, value);
    session.action.picks = [];
    render();
  }

  /** Ask a choice left at its default after all, forgetting the choices made after it. */
  function reopen(action, field) {
    const plan = PLANS[action.kind];
    const at = plan.indexOf(field);
    for (const key of [...action.fixed.keys()]) {
      if (plan.indexOf(key.split("#")[0]) > at) action.fixed.delete(key);
    }
    action.ask = true;
    action.picks = [];
    render();
  }

  function cancel() {
    session.action = null;
    session.mode = null;
    render();
  }

  function commit(body) {
    const t = table;
    session.action = null;
    session.mode = null;
    render();
    // Idle already: if the move is refused, or its confirmation declined, the page is as before.
    t.record(body);
  }

  function redraw(t) {
    const board = t.board;
    const keep = [...board.children].filter((node) => node.id === "board-title" || node.id === "board-desc");
    board.replaceChildren(...keep);
    drawn = draw(board, t.state, drawn.frame).drawn;
  }

  /** A touch ring over a drawn node (the plate, the card), not taking the touch itself. */
  function ringPlate(plateDrawn, colour) {
    plateDrawn.node.append(svg("circle", {
      cx: plateDrawn.x, cy: plateDrawn.y, r: plateDrawn.r + 3, fill: "none", stroke: colour || TOUCH,
      "stroke-width": 2.5, "stroke-dasharray": "6 3", "pointer-events": "none", class: "touch-ring",
    }));
  }

  function ringRect(node, colour) {
    const shape = node.querySelector("rect");
    if (!shape) return;
    const x = Number(shape.getAttribute("x"));
    const y = Number(shape.getAttribute("y"));
    node.append(svg("rect", {
      x: x - 2.5, y: y - 2.5, width: Number(shape.getAttribute("width")) + 5, height: Number(shape.getAttribute("height")) + 5,
      rx: 6, fill: "none", stroke: colour || TOUCH, "stroke-width": 2.5, "stroke-dasharray": "6 3", "pointer-events": "none", class: "touch-ring",
    }));
  }

  function badge(plateDrawn, words) {
    const x = plateDrawn.x + plateDrawn.r * 0.72;
    const y = plateDrawn.y - plateDrawn.r * 0.72;
    plateDrawn.node.append(svg("g", { class: "pay-badge", "pointer-events": "none" },
      svg("circle", { cx: x, cy: y, r: 10, fill: "#b3261e", stroke: "#fff", "stroke-width": 1.5 }),
      text(x, y + 4, words, { "text-anchor": "middle", "font-size": 11, "font-weight": 700, class: "on-dark" })));
  }

  function touchPlate(t, space, words, onTouch) {
    const made = drawn.plates[space];
    t.target(made.node, words);
    ringPlate(made);
    made.node.addEventListener("click", onTouch);
  }

  function touchCard(t, entry, words, onTouch) {
    t.target(entry.node, words);
    ringRect(entry.node);
    entry.node.addEventListener("click", onTouch);
  }

  /** What an action in progress has chosen so far, in words. */
  function chosenSoFar(t, action) {
    const state = t.state;
    const seat = state.current_player;
    const plateOf = (space) => plateWords(state, space, seat, t.players);
    const said = [];
    for (const [key, raw] of action.fixed) {
      const field = key.split("#")[0];
      const value = JSON.parse(raw);
      if (value === null) continue;
      if (field === "pay") said.push(`paying ${payWords(state, value, seat, t.players)}`);
      else if (field === "place") said.push(`its Shard to ${plateOf(value)}`);
      else if (field === "home_space") said.push(`the Home performs ${plateOf(value)}`);
      else if (field === "strike") said.push(`striking a Shard of ${t.players[value.seat]}'s from ${plateOf(value.space)}`);
      else if (field === "strike_card") said.push(`striking ${plusOneName(t.cards, value)}`);
      else if (field === "refresh") said.push(`refreshing ${plusOneName(t.cards, value)}`);
      else if (field === "drawn") said.push(`drawing ${commonerName(t.cards, value)}`);
    }
    return said.length ? ` (${said.join("; ")})` : "";
  }

  function prompt(t, words) {
    return t.hint(words, null, "madcala-prompt");
  }

  /** A button that takes no part in recording (going back): no data-records-move. */
  function plainButton(t, words, onActivate) {
    return t.plainButton(words, onActivate);
  }

  function render() {
    const t = table;
    session.renders += 1;
    redraw(t);
    t.actions.replaceChildren();
    const action = session.action;
    if (!action) {
      renderIdle(t);
      return;
    }
    const step = stepOf(action);
    if (step.done) {
      commit(step.moves[0]);
      return;
    }
    renderStep(t, action, step, session.renders);
    t.focus();
  }

  function groupBy(moves, keyOf) {
    const groups = new Map();
    for (const move of moves) {
      const key = keyOf(move);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(move);
    }
    return groups;
  }

  function hasChoice(moves, field) {
    return distinct(moves.map((move) => valueOf(move, field, 0))).length > 1;
  }

  function renderIdle(t) {
    const state = t.state;
    const seat = state.current_player;
    const mode = session.mode;
    const byType = groupBy(t.moves, (move) => move.type);
    const sows = groupBy(byType.get("move") || [], (move) => JSON.stringify(move.space ?? null));
    const plusOnes = groupBy(byType.get("plus_one") || [], (move) => move.card);
    const commoners = groupBy(byType.get("commoner") || [], (move) => move.card);
    const buys = byType.get("buy_commoner") || [];
    const ends = byType.get("end_turn") || [];

    // What to touch now, in the rulebook's words (the line the other games have too).
    if (!mode) {
      const name = t.players[seat];
      const may = [];
      if (plusOnes.size) may.push("use a Plus-One card");
      if (commoners.size) may.push("play a Commoner");
      if (buys.length) may.push("buy a Commoner");
      let words;
      if (sows.has("null")) words = `${name} has no Shard to move: add Shards from the reserve.`;
      else if (sows.size) words = `${name}'s turn: touch a plate of ${name}'s side to move its Shards${may.length ? ` (or first ${listWords(may, "or")})` : ""}.`;
      else if (may.length) words = `${name} has moved: ${listWords(may, "or")}, or end the turn.`;
      else words = `${name} has nothing left to do: end the turn.`;
      t.hint(words, null, "madcala-hint");
    }

    // Sowing: a plate of the mover's side.
    for (const [key, moves] of sows) {
      const space = JSON.parse(key);
      if (space === null) {
        if (!mode) {
          t.button(touchWords(t, trial("move", moves, false), "No Shard on your side: add Shards from the reserve"),
            () => start("move", "Add Shards from the reserve", moves, false),
            shardsPicture([0, 1, 2].map(() => ({ colour: t.colours[seat] }))));
        }
        continue;
      }
      if (mode && (mode !== "sowing" || !hasChoice(moves, "sowing"))) continue;
      const words = `Sow from ${plateWords(state, space, seat, t.players)}`;
      const said = mode ? `${words}: choose the order` : touchWords(t, trial("move", moves, false), words);
      touchPlate(t, space, said, () => start("move", words, moves, mode === "sowing"));
    }

    // Plus-One cards, face up.
    for (const [id, moves] of plusOnes) {
      if (mode && (mode !== "effects" || !hasChoice(moves, "effects"))) continue;
      const info = (t.cards.plus_ones || {})[id] || {};
      let words = `Use ${plusOneName(t.cards, id)}`;
      if (info.kind === "corrupted") {
        const where = info.to === "reserve" ? "the reserve" : info.to === "home" ? "the Home" : "a plate of your side";
        words += ` (one of its Shards goes to ${where})`;
      } else {
        words += ` (pay ${plural(info.cost ?? moves[0].pay.length, "Shard")})`;
      }
      if (mode) words += ": choose the effects";
      else words = touchWords(t, trial("plus_one", moves, false), words);
      const entry = drawn.cards[seat].find((card) => card.id === id);
      const go = () => start("plus_one", `Use ${plusOneName(t.cards, id)}`, moves, mode === "effects");
      if (entry) touchCard(t, entry, words, go);
      else t.button(words, go, plusOnePicture(id, t.cards, t.colours[seat]));
    }

    // Commoners in hand.
    const handEntries = drawn.hand[seat] || [];
    for (const [id, moves] of commoners) {
      if (mode && (mode !== "effects" || !hasChoice(moves, "effects"))) continue;
      const name = commonerName(t.cards, id);
      const words = mode ? `Play ${name}: choose the effects` : touchWords(t, trial("commoner", moves, false), `Play ${name}`);
      const go = () => start("commoner", `Play ${name}`, moves, mode === "effects");
      const entries = handEntries.filter((entry) => entry.id === id);
      if (entries.length) entries.forEach((entry) => touchCard(t, entry, words, go));
      else t.button(words, go, commonerPicture(id, t.cards));
    }

    if (mode) {
      prompt(t, mode === "sowing" ? "Touch the plate to sow from, then choose the order of its Shards." : "Touch the card, then choose which of its effects are performed.").dataset.step = `mode-${mode}`;
      plainButton(t, "Back", cancel);
      return;
    }
    if (buys.length) {
      t.button(touchWords(t, trial("buy_commoner", buys, false), "Buy a Commoner (pay 3 Shards)"),
        () => start("buy_commoner", "Buy a Commoner", buys, false), cardBackPicture);
    }
    if (ends.length) {
      const excess = (ends[0].discard || []).length;
      const words = excess ? `End the turn (discard ${plural(excess, "Commoner")})` : "End the turn";
      t.button(touchWords(t, trial("end_turn", ends, false), words), () => start("end_turn", "End the turn", ends, false));
    }
    if ([...sows.values()].some((moves) => hasChoice(moves, "sowing"))) {
      t.button("Sow in another order…", () => { session.mode = "sowing"; render(); });
    }
    if ([...plusOnes.values(), ...commoners.values()].some((moves) => hasChoice(moves, "effects"))) {
      t.button("Choose a card's effects…", () => { session.mode = "effects"; render(); });
    }
  }

  function renderStep(t, action, step, token) {
    const state = t.state;
    const seat = state.current_player;
    const players = t.players;
    const { field, key, values } = step;
    const parsed = values.map((value) => JSON.parse(value));
    const plateOf = (space) => plateWords(state, space, seat, players);
    const stale = () => token !== session.renders || !session.action;
    const named = `${action.words}${chosenSoFar(t, action)}`;
    const answered = (value) => {
      if (stale()) return;
      if (value === null || value === undefined) cancel();
      else fix(key, value);
    };

    if (field === "pay" || field === "discard") {
      const sets = parsed; // each a sorted list
      const size = sets[0].length;
      const picks = action.picks;
      const fits = (item) => sets.some((set) => within([...picks, item], set));
      // The touch that completes the set: where it then records the move, the move's words.
      const lastPick = (item, words) => {
        if (picks.length + 1 !== size) return words;
        const value = JSON.stringify(sorted([...picks, item]));
        return values.includes(value) ? touchWords(t, fixedTo(action, key, value), words) : words;
      };
      const complete = (chosen) => {
        const value = JSON.stringify(sorted(chosen));
        if (values.includes(value)) fix(key, value);
        else render();
      };
      if (field === "pay") {
        const proposal = picks.length ? picks : JSON.parse(valueOf(step.moves[0], "pay", 0));
        const counts = new Map();
        for (const space of proposal) counts.set(space, (counts.get(space) || 0) + 1);
        for (const [space, count] of counts) badge(drawn.plates[space], `−${count}`);
        for (const space of distinct(sets.flat())) {
          if (!fits(space)) continue;
          touchPlate(t, space, lastPick(space, `Pay a Shard from ${plateOf(space)}`), () => {
            if (stale()) return;
            action.picks.push(space);
            if (action.picks.length === size) complete(action.picks);
            else render();
          });
        }
        if (picks.length) {
          prompt(t, `${named}: ${picks.length} of ${size} Shards touched; touch the plates that pay the rest.`);
          plainButton(t, "Start the payment again", () => { action.picks = []; render(); });
        } else {
          prompt(t, `${named}: pay ${plural(size, "Shard")}. Accept these, or touch the plates that pay.`);
          const value = valueOf(step.moves[0], "pay", 0);
          t.button(touchWords(t, fixedTo(action, key, value), `Pay with these: ${payWords(state, JSON.parse(value), seat, players)}`), () => fix(key, value),
            shardsPicture(JSON.parse(value).map(() => ({ colour: t.colours[seat] })))).dataset.pay = value;
        }
      } else {
        const hand = drawn.hand[seat] || [];
        const left = picks.slice();
        for (const entry of hand) {
          const at = left.indexOf(entry.id);
          if (at >= 0) {
            left.splice(at, 1);
            entry.node.classList.add("chosen");
            ringRect(entry.node, "#b3261e");
            continue;
          }
          if (!fits(entry.id)) continue;
          touchCard(t, entry, lastPick(entry.id, `Discard ${commonerName(t.cards, entry.id)}`), () => {
            if (stale()) return;
            action.picks.push(entry.id);
            if (action.picks.length === size) complete(action.picks);
            else render();
          });
        }
        prompt(t, `${named}: the hand must come down to 2. Touch ${size - picks.length === 1 ? "the Commoner" : `${size - picks.length} Commoners`} to discard.`);
        if (picks.length) plainButton(t, "Choose again", () => { action.picks = []; render(); });
      }
    } else if (field === "home_space" || field === "place") {
      prompt(t, field === "home_space"
        ? `${named}: the last Shard lands on the Home. Touch the plate whose effect it performs.`
        : `${named}: touch the plate of your side where its Shard goes.`);
      parsed.forEach((space, index) => {
        if (space === null) return;
        const effect = state.layout[space];
        const words = field === "home_space"
          ? `Perform the effect of ${plateOf(space)}: ${EFFECT_WORDS[effect] || humanize(effect)}`
          : `Put the Shard on ${plateOf(space)}`;
        touchPlate(t, space, touchWords(t, fixedTo(action, key, values[index]), words), () => fix(key, values[index]));
      });
    } else if (field === "strike") {
      prompt(t, `${named}: strike a Shard. Touch the plate it leaves.`);
      const bySpace = groupBy(parsed.filter((value) => value), (value) => value.space);
      for (const [space, options] of bySpace) {
        const seats = options.map((option) => option.seat);
        const only = seats.length === 1 ? ` of ${players[seats[0]]}'s` : "";
        const strikeWords = `Strike a Shard${only} from ${plateOf(space)}`;
        const said = seats.length === 1 ? touchWords(t, fixedTo(action, key, JSON.stringify(options[0])), strikeWords) : strikeWords;
        touchPlate(t, space, said, async () => {
          if (stale()) return;
          if (seats.length === 1) {
            fix(key, JSON.stringify(options[0]));
            return;
          }
          const chosen = await t.pick({
            title: `Whose Shard leaves ${plateOf(space)}?`,
            options: options.map((option) => ({
              label: `A Shard of ${players[option.seat]}'s`,
              value: JSON.stringify(option),
              picture: shardsPicture([{ colour: t.colours[option.seat] }]),
            })),
          });
          if (stale()) return;
          if (chosen === null || chosen === undefined) render();
          else fix(key, chosen);
        });
      }
    } else if (field === "strike_card" || field === "refresh") {
      const owner = field === "strike_card" ? 1 - seat : seat;
      prompt(t, field === "strike_card"
        ? `${named}: touch the Plus-One card of ${players[owner]}'s to turn face down.`
        : `${named}: touch the face-down Plus-One card to refresh.`);
      parsed.forEach((id, index) => {
        if (id === null) return;
        const entry = drawn.cards[owner].find((card) => card.id === id);
        const own = field === "strike_card" ? `Strike ${plusOneName(t.cards, id)} (turn it face down)` : `Refresh ${plusOneName(t.cards, id)} (turn it face up)`;
        const words = touchWords(t, fixedTo(action, key, values[index]), own);
        const go = () => fix(key, values[index]);
        if (entry) touchCard(t, entry, words, go);
        else t.button(words, go, plusOnePicture(id, t.cards, t.colours[owner]));
      });
    } else if (field === "drawn") {
      prompt(t, `${named}: which Commoner was drawn?`);
      const unseen = state.commoner_unseen || [];
      const options = parsed.map((id, index) => ({
        label: commonerName(t.cards, id),
        value: values[index],
        picture: commonerPicture(id, t.cards),
        count: unseen.filter((card) => card === id).length,
      }));
      t.pick({ title: step.index ? "Which Commoner was drawn next?" : "Which Commoner was drawn?", options }).then(answered);
    } else if (field === "sowing") {
      const cell = state.spaces[action.moves[0].space];
      prompt(t, `${named}: in which order are the Shards sown?`);
      const options = parsed.map(([order, last], index) => ({
        label: `${sowingWords(order, last, cell, seat, players)}${index === 0 ? " (usual)" : ""}`,
        value: values[index],
        picture: shardsPicture(shardsOfSowing(order, last, cell, seat, t.colours)),
      }));
      t.pick({ title: `${named}: the order of the Shards`, options }).then(answered);
    } else if (field === "effects") {
      const id = action.moves[0].card;
      const catalog = (action.kind === "commoner" ? t.cards.commoners : t.cards.plus_ones) || {};
      const printed = (catalog[id] || {}).effects || [];
      prompt(t, `${named}: which effects are performed?`);
      const options = parsed.map((value, index) => ({
        label: effectsWords(value, printed),
        value: values[index],
        picture: effectsPicture(value === null ? printed : value),
      }));
      t.pick({ title: `${named}: the effects`, options }).then(answered);
    }
    if (values.includes("null") && !["drawn", "sowing", "effects"].includes(field)) {
      t.button(touchWords(t, fixedTo(action, key, "null"), "Go on: nothing to choose here"), () => fix(key, "null"));
    }
    for (const passed of step.passed) {
      const words = passed === "effects" ? "Choose the effects…" : "Sow in another order…";
      t.button(words, () => reopen(action, passed));
    }
    plainButton(t, "Cancel", cancel);
    // What is asked, for the tests (and styles): the choice's field, and its place in a list.
    const asked = t.actions.querySelector(".madcala-prompt");
    if (asked) {
      asked.dataset.step = field;
      asked.dataset.index = String(step.index);
    }
  }

  return render;
}

/** Lay the moves out as touches (see madcala.js); nothing is kept here between calls. */
function record(t) {
  const key = JSON.stringify([t.state.version, t.moves]);
  const memory = t.memory || {};
  if (!memory.session || memory.session.key !== key) memory.session = { key, mode: null, action: null, renders: 0 };
  if (!t.drawn || !t.drawn.plates) return false;
  recording(t, memory.session)();
  // A turn with nothing left to do but its end: the end goes with the touch just recorded (the
  // page records it only then, never on its own, so an Undo is not undone).
  const [only] = t.moves;
  if (t.moves.length === 1 && only.type === "end_turn" && !(t.ending && t.ending[0]) && typeof t.follow === "function") {
    t.follow(only);
  }
  return true;
}

/** "a, b or c" */
function listWords(items, last) {
  return items.length > 1 ? `${items.slice(0, -1).join(", ")} ${last} ${items[items.length - 1]}` : items.join("");
}

export { record };
