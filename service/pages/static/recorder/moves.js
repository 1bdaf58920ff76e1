/* The moves GET /legal lists now: grouped by what they are without what chance brought, worded as
 * /legal words them, shown as buttons (or laid out by the game's drawing: recorder/touch.js), the
 * page made busy while a tap is recorded, and its one Undo and Abandon kept in step. */
import { element, humanize } from "../lib/draw.js";

/** The moves now of the recorder page ``rec`` (recorder/page.js's context): its functions,
 * to be assigned to ``rec``. */
export function movesOf(rec) {
  const { root, board, legalBox, undo, abandon, actions, movesHeading, view, picker, zoom, chanceFields } = rec;
  function fieldsOf(move) {
    return chanceFields[move.type] || chanceFields["*"] || [];
  }

  /** The move without what chance brought: the moves with the same one are one button. */
  function baseOf(move) {
    const fields = fieldsOf(move);
    const rest = {};
    for (const [name, value] of Object.entries(move)) if (!fields.includes(name)) rest[name] = value;
    return rest;
  }

  /** The moves by type, then by what they are without what chance brought: each group with
   * its words (GET /legal's base_words) and each move's own (its words). */
  function groupMoves(moves) {
    const byType = new Map();
    moves.forEach((move, index) => {
      if (!byType.has(move.type)) byType.set(move.type, new Map());
      const groups = byType.get(move.type);
      const key = JSON.stringify(baseOf(move));
      if (!groups.has(key)) groups.set(key, { base: baseOf(move), words: view.baseWords[index], moves: [], said: [] });
      groups.get(key).moves.push(move);
      groups.get(key).said.push(view.words[index]);
    });
    return byType;
  }

  /** A move's words, as GET /legal said it (a body it did not list: its type). */
  function wordsOf(body) {
    const text = JSON.stringify(body);
    const index = view.legal.findIndex((move) => JSON.stringify(move) === text);
    return index >= 0 ? view.words[index] : humanize(body.type);
  }

  /** A legal move's words without what chance brought (GET /legal's base_words). */
  function baseWordsOf(body) {
    const text = JSON.stringify(body);
    const index = view.legal.findIndex((move) => JSON.stringify(move) === text);
    return index >= 0 ? view.baseWords[index] : humanize(body.type);
  }

  /** Whether ``body`` is a move /legal marked as ending the game. */
  function endsTheGame(body) {
    const text = JSON.stringify(body);
    return view.legal.some((move, index) => view.ending[index] && JSON.stringify(move) === text);
  }

  function setBusy(busy) {
    view.busy = busy;
    root.dataset.busy = String(busy);
    legalBox.setAttribute("aria-busy", String(busy));
    for (const button of legalBox.querySelectorAll("button")) button.disabled = busy || !view.token;
    for (const button of actions.querySelectorAll("button")) button.disabled = busy || !view.token;
    for (const node of board.querySelectorAll("[data-records-move]")) node.setAttribute("aria-disabled", String(busy));
    picker.setBusy(busy);
    updateUndo();
  }

  // A game that is over may still have its last move taken back (the recorder's only); an
  // abandoned one takes nothing more.
  function updateUndo() {
    const over = view.status === "finished" || view.status === "archived";
    undo.textContent = over ? "Take back the last move" : "Undo the last move";
    undo.disabled = view.busy || view.role !== "recorder" || !(view.status === "active" || over) || rec.standing().length === 0;
    // One Undo on the page: a game's drawing that offers its own (data-undo) stands in for it.
    undo.hidden = view.role === "seat" || Boolean(actions.querySelector("[data-undo]"));
    abandon.hidden = view.role !== "recorder" || view.status !== "active";
    abandon.disabled = view.busy;
  }

  function showLegal(legal, state) {
    const { moves, ending } = legal;
    // The same moves at the same version: nothing to rebuild (a touch may be on its way).
    const shown = JSON.stringify([state.version, view.status, view.role, moves, ending]);
    if (shown === view.shown) return false;
    view.shown = shown;
    view.legal = moves;
    view.ending = ending || moves.map(() => false);
    view.words = legal.words || [];
    view.baseWords = legal.base_words || view.words;
    view.free = legal.free || [];
    picker.close(false);
    // A field being typed in (named by its drawing with data-focus-key) keeps the focus across
    // this rebuild, when a move recorded elsewhere brings it: the phone's keypad stays open.
    const active = actions.contains(document.activeElement) ? document.activeElement : null;
    const focusKey = active && active.dataset ? active.dataset.focusKey : undefined;
    legalBox.replaceChildren();
    actions.replaceChildren();
    // A game may take moves no list can hold (a score sheet's points: GET /legal's `free` types),
    // which only its drawing's record knows how to ask for.
    const mayRecord = view.status === "active" && view.token && (moves.length || view.free.length);
    const touched = mayRecord && rec.recordByTouch(state);
    legalBox.hidden = Boolean(touched);
    movesHeading.hidden = Boolean(touched);
    zoom.fit(true);
    if (touched) {
      const again = focusKey && actions.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      if (again) again.focus({ preventScroll: true });
      updateUndo();
      return true;
    }
    if (view.status === "abandoned") {
      legalBox.append(element("p", { class: "note", text: "The game was abandoned: nothing more to record." }));
    } else if (view.status !== "active") {
      const more = view.role === "recorder" ? " A mistake in the last move? Take it back: the game goes on." : "";
      legalBox.append(element("p", { class: "note", text: `The game is over: nothing more to record.${more}` }));
    } else if (!view.token) {
      legalBox.append(element("p", { class: "note", text: "Moves are recorded from the recorder's link or a player's own link only." }));
    } else if (view.role === "seat" && view.awaited !== view.seat) {
      // The status line says whose decision is awaited; the page follows the game till then.
      legalBox.append(element("p", { class: "note waiting", text: `Not your turn, ${rec.nameOf(view.seat)}: your moves appear here when it is.` }));
    } else if (!moves.length) {
      legalBox.append(element("p", { class: "note", text: "No move is legal now." }));
    }
    for (const [type, groups] of groupMoves(moves)) {
      const section = element("section", { class: "move-group", "data-type": type });
      const heading = element("h3", { text: humanize(type) });
      const buttons = element("div", { class: "move-buttons" });
      for (const group of groups.values()) {
        const label = group.words;
        let button;
        if (group.moves.length === 1) {
          button = element("button", { type: "button", class: "move", "data-records-move": true, "data-move": JSON.stringify(group.moves[0]) },
            group.said[0]);
          button.addEventListener("click", () => rec.record(group.moves[0]));
        } else {
          button = element("button", { type: "button", class: "move pick", "data-records-move": true, "aria-haspopup": "dialog", "data-group": JSON.stringify(group.base) },
            `${label} …`);
          button.addEventListener("click", () => picker.open(group, button, (move) => rec.record(move)));
        }
        button.disabled = view.busy || !view.token;
        buttons.append(button);
      }
      section.append(heading, buttons);
      legalBox.append(section);
    }
    updateUndo();
    return true;
  }

  return { fieldsOf, baseOf, groupMoves, wordsOf, baseWordsOf, endsTheGame, setBusy, updateUndo, showLegal };
}
