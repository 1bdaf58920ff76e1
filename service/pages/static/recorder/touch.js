/* Recording by touch: the game's drawing (its package's <game>.js) lays out the moves on the board
 * and under it through the `table` handed to its record(table) (record.js says what it holds),
 * unless the person prefers the moves as a list (remembered on this device); the controls it
 * makes, the picker's questions, and where the focus goes after each move. */
import { drawBoard, element, humanize, svg, text } from "../lib/draw.js";
import { pictureOf } from "../lib/picker.js";

// "Moves as a list": the buttons of every move instead of touches on the drawing, for who
// prefers a list (a screen reader, say); remembered on this device.
const LIST_KEY = "tabletape.moves-as-list";

/** Recording by touch on the recorder page ``rec`` (recorder/page.js's context): its functions,
 * to be assigned to ``rec``. */
export function touchOf(rec) {
  const { data, board, actions, view, picker, zoom, drawing, chanceFields } = rec;
  // What the game's drawing last drew where (its draw's `drawn`), and the page's memory for it (a
  // choice in progress, kept across the redraws of one version): handed to its record, so that
  // the drawing itself keeps nothing between calls.
  let drawnNow = null;
  const memory = {};
  const asList = document.getElementById("as-list");

  function drawNow(state) {
    // `recording`: a drawing may draw less here than in the viewer, to leave room for recording.
    const frame = { id: view.id, players: view.players, colours: view.colours, cards: view.cards, at: state.version, version: state.version, status: state.status, recording: true };
    drawnNow = drawBoard(board, drawing, state, frame, `${view.game}: the game now`).drawn || null;
    board.dataset.version = String(state.version);
    // Whole: the recorder's view, or anyone's once the game is over; a seat sees its own hand.
    board.dataset.full = String(view.role === "recorder" || state.status !== "active");
    board.dataset.viewer = view.role || "unknown";
  }

  function listPreferred() {
    try {
      return window.localStorage.getItem(LIST_KEY) === "1";
    } catch (error) {
      return false;
    }
  }

  function recordByTouch(state) {
    // A list cannot hold the free types' moves (numbers typed): their drawing records them.
    if (asList.checked && !view.free.length) return false;
    if (!drawing || typeof drawing.record !== "function") return false;
    const table = {
      id: view.id,
      board,
      actions,
      state,
      moves: view.legal,
      free: view.free,
      ending: view.ending,
      words: view.words,
      drawn: drawnNow,
      memory,
      players: view.players,
      colours: view.colours,
      cards: view.cards,
      chance: data.chance,
      role: view.role,
      seat: view.seat,
      chanceFields,
      target,
      button: actionButton,
      plainButton,
      hint,
      pick,
      pickMany,
      record: rec.record,
      follow: rec.follow,
      wordsOf: rec.wordsOf,
      baseWordsOf: rec.baseWordsOf,
      focus: focusNext,
      humanize,
      svg,
      text,
    };
    try {
      return Boolean(drawing.record(table));
    } catch (error) {
      console.error(error);
      actions.replaceChildren();
      return false;
    }
  }

  /** A drawn node (SVG or HTML) made a control that records: touch, Enter or Space. */
  function target(node, words) {
    node.setAttribute("data-records-move", "");
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", "0");
    node.setAttribute("aria-label", words);
    node.classList.add("touch");
    // Last, so that the node's first child stays its shape (the focus ring outlines it).
    if (node instanceof SVGElement && !node.querySelector(":scope > title")) {
      node.append(svg("title", {}, words));
    }
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      }
    });
    return node;
  }

  function actionButton(words, onActivate, picture) {
    const button = element("button", { type: "button", class: "action", "data-records-move": true });
    if (picture) button.append(pictureOf(picture));
    button.append(element("span", { text: words }));
    button.disabled = view.busy || !view.token;
    button.addEventListener("click", () => {
      if (!view.busy) onActivate();
    });
    actions.append(button);
    return button;
  }

  /** A button under the board that records nothing (going back, cancelling a choice). */
  function plainButton(words, onActivate) {
    const button = element("button", { type: "button", class: "secondary", text: words });
    button.addEventListener("click", onActivate);
    actions.append(button);
    return button;
  }

  /** A line under the board saying what to touch (not a control), a picture before it if
   * given; ``className`` names it for the game's own tests and styles. */
  function hint(words, picture, className) {
    const line = element("p", { class: className ? `hint ${className}` : "hint" });
    if (picture) line.append(pictureOf(picture));
    line.append(words);
    actions.append(line);
    return line;
  }

  function focusNext() {
    // A choice in progress may have laid out other targets: the board keeps them at touch size.
    zoom.fit(false);
    const next = actions.querySelector("[data-records-move]:not(:disabled)") || board.querySelector("[data-records-move]");
    if (next) next.focus({ preventScroll: true });
  }

  /** The picker sheet as a question: a Promise of the value chosen (null: cancelled). */
  function pick(question) {
    return picker.ask(question);
  }

  /** One sheet for several picks of one kind ({count, titleOf, optionsOf, noteOf}): a Promise
   * of the values chosen, null if cancelled. */
  function pickMany(question) {
    return picker.askMany(question);
  }

  asList.checked = listPreferred();
  asList.addEventListener("change", () => {
    try {
      window.localStorage.setItem(LIST_KEY, asList.checked ? "1" : "0");
    } catch (error) {
      /* storage refused: the choice holds for this page only */
    }
    view.shown = null;
    rec.refresh();
  });

  return { drawNow, listPreferred, recordByTouch, target, actionButton, plainButton, hint, focusNext, pick, pickMany };
}
