/* The score pad: a score sheet recorded with one hand on a phone (record(table), called by the
 * recorder page, service/pages/static/record.js, which draws the totals above it).
 *
 * The players in columns (up to 4 a row on a phone, 8 on a wider screen: every player on the
 * first screen), each in their own colour: their name, a number field (the phone's number
 * keypad) for the next round, and a "+" that writes that player's points alone (a `score`);
 * "Write round N" writes the row (a `round`: a blank field is no points, null); "±" changes the
 * sign being typed; "Undo the last entry" retracts the last thing written (the page's one Undo
 * while the pad is shown); "End the game" shows the result it will record and asks first.
 * Below, the sheet: a row per entry, newest first, with the totals.
 *
 * A seat's page (a player's own link) has a field in its own column only, and "Add my points":
 * a seat may write its own `score` and nothing else (GET /legal's `free`).
 *
 * What may be written comes from GET /legal: its `free` types (score, round: they take numbers
 * a list cannot hold) and its moves (the ends). The words of every move are the API's (the
 * events' words, /legal's): none is made here.
 */
import { element } from "../../lib/draw.js";
import { eventsUpTo, hasNumber, lastStanding, NO_NUMBER, ordinal, parsePoints, ranksNow, rowsOf, shownTotal, written } from "./scoresheet-sheet.js";

function record(table) {
  const { state, players } = table;
  const seats = state.totals.length;
  const free = table.free || [];
  const own = table.role === "seat" ? table.seat : null;
  const mayRound = free.includes("round");
  const mayScore = free.includes("score");
  const writable = (seat) => (own === null ? mayScore : mayScore && seat === own);
  const typed = (table.memory.typed = table.memory.typed || {});
  const next = state.rounds + 1;

  const pad = element("div", { class: "pad", "data-round": String(next) });
  pad.style.setProperty("--seats", String(seats));
  const message = element("p", { class: "hint pad-message", role: "status" });
  const hint = element("p", { class: "hint pad-hint" });
  if (!mayScore) hint.textContent = "No points in this game: touch “End the game” to say who won.";
  else if (own !== null) hint.textContent = `${players[own]}: type your points, then touch “Add my points”.`;
  else hint.textContent = `Type each player's points (a blank is none), then “Write round ${next}”; + writes one player's points alone.`;
  pad.append(hint);

  // The next round's fields: a cell per player (their name in their colour, their field, their
  // "+"), as many a row as the screen holds at a finger's size (4 on a phone, 8 on a wider one),
  // so that every player's column is on the first screen: no sideways swipe.
  const inputs = [];
  let ownAdd = null;
  const entry = element("div", { class: "pad-grid pad-entry", role: "group", "aria-label": `Round ${next}: each player's points` });
  entry.style.setProperty("--per-row-narrow", String(Math.min(seats, 4)));
  entry.style.setProperty("--per-row-wide", String(Math.min(seats, 8)));
  for (let seat = 0; seat < seats; seat += 1) {
    const dot = element("span", { class: "dot", "aria-hidden": "true" });
    dot.style.background = table.colours[seat];
    const cell = element("div", { class: "pad-player", "data-seat": seat }, element("span", { class: "pad-name", "data-seat": seat, title: players[seat] }, dot, players[seat]));
    cell.style.setProperty("--colour", table.colours[seat]);
    if (writable(seat)) {
      const input = element("input", {
        type: "text",
        inputmode: "decimal",
        autocomplete: "off",
        enterkeyhint: "next",
        class: "pad-input",
        "data-seat": seat,
        // Part of recording (the keypad of a round): the page's focus goes back to it after
        // each entry, ready for the next.
        "data-records-move": true,
        // Drawn again while typed in (points written on another phone), it keeps the focus.
        "data-focus-key": `points-${seat}`,
        "aria-label": `${players[seat]}'s points`,
        placeholder: "0",
      });
      input.value = typed[seat] || "";
      input.addEventListener("focus", () => {
        table.memory.lastSeat = seat;
      });
      input.addEventListener("input", () => {
        typed[seat] = input.value;
        message.textContent = "";
      });
      input.addEventListener("keydown", (event) => {
        if (event.key !== "Enter") return;
        event.preventDefault();
        const later = inputs.find((other) => Number(other.dataset.seat) > seat);
        if (later) later.focus();
        else if (mayRound) writeRound();
        else writeScore(seat);
      });
      inputs.push(input);
      cell.append(input);
      // The recorder's "+" sits under each player's field; a seat's one button is wide, with
      // the others.
      const add = table.button(own === null ? `+ ${players[seat]}` : "Add my points", () => writeScore(seat));
      add.classList.add("pad-add");
      add.dataset.seat = String(seat);
      if (own === null) {
        add.setAttribute("aria-label", `Write ${players[seat]}'s points alone`);
        cell.append(add);
      } else ownAdd = add;
    }
    entry.append(cell);
  }
  pad.append(entry, message);

  const buttons = element("div", { class: "pad-buttons" });
  if (ownAdd) {
    ownAdd.classList.add("pad-own");
    buttons.append(ownAdd);
  }
  if (inputs.length) buttons.append(signButton());
  if (mayRound) {
    const write = table.button(`Write round ${next}`, writeRound);
    write.classList.add("pad-write");
    buttons.append(write);
  }
  if (own === null && table.role === "recorder") {
    // The page's one Undo while the pad is shown (the page hides its own: data-undo).
    const takeBack = table.button("Undo the last entry", takeBackLast);
    takeBack.classList.add("pad-take-back");
    takeBack.dataset.undo = "";
    takeBack.disabled = takeBack.disabled || state.version === 0;
    const end = table.button("End the game", endTheGame);
    end.classList.add("pad-end");
    buttons.append(takeBack, end);
  }
  pad.append(buttons);

  // The sheet so far, newest first, once the record is read.
  const sheet = element("table", { class: "pad-table pad-sheet", "aria-label": "The sheet, newest entry first" });
  const sheetScroll = element("div", { class: "pad-scroll" }, sheet);
  pad.append(sheetScroll);

  table.actions.replaceChildren(pad);
  let events = null;
  eventsUpTo(table.id, state.version)
    .then((read) => {
      events = read;
      fillSheet(sheet, rowsOf(read, seats), players, state);
    })
    .catch((error) => {
      sheet.replaceChildren(element("caption", { text: "The sheet could not be read; the totals above are the game's." }));
      console.warn(error);
    });

  /** "±": the sign of the field being typed in (a phone's decimal keypad often has no minus).
   * Touching it leaves the focus, and the keypad, in the field. */
  function signButton() {
    const button = element("button", { type: "button", class: "pad-sign", "aria-label": "Change the sign of the points being typed", text: "±" });
    const keep = (event) => event.preventDefault();
    button.addEventListener("pointerdown", keep);
    button.addEventListener("mousedown", keep);
    button.addEventListener("click", () => {
      const field = inputs.find((input) => input === document.activeElement)
        || inputs.find((input) => Number(input.dataset.seat) === table.memory.lastSeat) || inputs[0];
      const value = field.value.trim();
      field.value = value.startsWith("-") || value.startsWith("\u2212") ? value.slice(1) : `-${value}`;
      typed[field.dataset.seat] = field.value;
      field.focus();
    });
    return button;
  }

  /** Each field's number (null: blank), or false when one is not a number. */
  function readFields() {
    const row = new Array(seats).fill(null);
    for (const input of inputs) {
      if (!input.value.trim()) continue;
      const points = parsePoints(input.value);
      if (points === null) {
        say(`“${input.value}” is not a number for ${players[input.dataset.seat]}: a whole number or one with up to 3 decimals (4.5, -2, 0.125).`);
        input.focus();
        return false;
      }
      row[Number(input.dataset.seat)] = points;
    }
    return row;
  }

  function say(words) {
    message.textContent = words;
  }

  async function writeRound() {
    const row = readFields();
    if (!row) return;
    if (row.every((points) => points === null)) {
      say("Type at least one player's points first.");
      if (inputs[0]) inputs[0].focus();
      return;
    }
    await recordTyped({ type: "round", points: row }, Object.keys(typed));
  }

  /** Record a move made of the typed points: the fields are emptied first (the pad is drawn
   * again as soon as it is recorded), and filled again if it was not. */
  async function recordTyped(body, seatsTyped) {
    const kept = {};
    for (const seat of seatsTyped) {
      kept[seat] = typed[seat];
      delete typed[seat];
    }
    if (await table.record(body)) return;
    Object.assign(typed, kept);
    for (const field of table.actions.querySelectorAll(".pad-input")) {
      if (kept[field.dataset.seat] && !field.value) field.value = kept[field.dataset.seat];
    }
  }

  async function writeScore(seat) {
    const input = inputs.find((field) => Number(field.dataset.seat) === seat);
    const points = input && input.value.trim() ? parsePoints(input.value) : null;
    if (points === null) {
      say(input && input.value.trim()
        ? `“${input.value}” is not a number: a whole number or one with up to 3 decimals (4.5, -2, 0.125).`
        : `Type ${own === null ? `${players[seat]}'s` : "your"} points first.`);
      if (input) input.focus();
      return;
    }
    await recordTyped({ type: "score", player: seat, points }, [String(seat)]);
  }

  async function takeBackLast() {
    const last = lastStanding(events || (await eventsUpTo(table.id, state.version)));
    if (!last) return;
    await table.record({ type: "retract" }, `take back “${last.words || last.type}”`);
  }

  /** The end: the totals decide (shown, then confirmed), or the table's outcome, or who won. */
  async function endTheGame() {
    const ends = table.moves.map((move, index) => ({ move, index })).filter(({ move }) => move.type === "end");
    if (!ends.length) return;
    if (ends.length === 1) {
      await table.record(ends[0].move, undefined, { result: resultNow(state, players) });
      return;
    }
    const chosen = await table.pick({
      title: state.cooperative ? "How did the game end?" : "Who won?",
      options: ends.map(({ move, index }) => ({ label: table.words[index], value: move })),
    });
    if (chosen) await table.record(chosen, undefined, { result: state.cooperative && mayScore ? resultNow(state, players) : "" });
  }

  return true;
}

/** The sheet's rows, newest first, then the totals. */
function fillSheet(sheet, rows, players, state) {
  const head = element("tr", {}, element("th", { scope: "col", class: "pad-label", text: "" }));
  players.forEach((name, seat) => head.append(element("th", { scope: "col", "data-seat": seat, text: name })));
  const body = element("tbody", {});
  for (const row of rows.slice().reverse()) {
    const label = row.kind === "round" ? String(row.round) : "+";
    const line = element("tr", { class: `pad-row ${row.kind}`, "data-seq": row.seq }, element("th", { scope: "row", class: "pad-label", text: label, title: row.words || "" }));
    row.points.forEach((points, seat) => line.append(element("td", { "data-seat": seat, text: points === null ? (row.kind === "round" ? "—" : "") : String(points) })));
    body.append(line);
  }
  if (!rows.length) body.append(element("tr", {}, element("td", { colspan: players.length + 1, class: "hint", text: "Nothing written yet." })));
  const totals = element("tr", { class: "pad-totals" }, element("th", { scope: "row", class: "pad-label", text: "Σ" }));
  // "—" for a player no number was ever written for: no score, not a 0.
  state.totals.forEach((total, seat) => totals.append(element("td", { "data-seat": seat, text: shownTotal(state, seat) })));
  sheet.replaceChildren(element("caption", { text: "The sheet, newest first" }), element("thead", {}, head), body, element("tfoot", {}, totals));
}

/** What ending now records, in words: who wins, then each player (or team) by rank with their
 * total ("Ben wins. 1st Ben 24.5 · 2nd Ana 15.125"); the rules rank the totals the same way
 * (state.py's standings). */
function resultNow(state, players) {
  if (state.cooperative) return `Totals: ${players.map((name, seat) => `${name} ${shownTotal(state, seat)}`).join(" · ")}.`;
  const ranks = ranksNow(state);
  const units = state.teams || players.map((name, seat) => [seat]);
  const listed = units
    .map((seats) => ({
      seats,
      rank: ranks[seats[0]],
      names: seats.map((seat) => players[seat]).join(" & "),
      total: seats.some((seat) => hasNumber(state, seat)) ? written(seats.reduce((sum, seat) => sum + Math.round(state.totals[seat] * 1000), 0)) : NO_NUMBER,
    }))
    .sort((a, b) => a.rank - b.rank || a.seats[0] - b.seats[0]);
  const first = listed.filter((unit) => unit.rank === 1);
  const names = first.map((unit) => unit.names);
  const one = first.length === 1 && first[0].seats.length === 1;
  const wins = `${names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`} ${one ? "wins" : "win"}`;
  return `${wins}. ${listed.map((unit) => `${ordinal(unit.rank)} ${unit.names} ${unit.total}`).join(" · ")}.`;
}

export { record };
