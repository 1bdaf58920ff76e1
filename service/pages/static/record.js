/* The recorder (templates/record.html): the game as the viewer draws it (its package's <game>.js),
 * and below it the moves GET /games/{id}/legal lists now, as buttons grouped by type. No rule is
 * written here: every button is a body /legal gave. In observed mode the moves that differ only by
 * what chance brought (a card drawn, the cards dealt, a counter) are one button that opens a
 * picker offering only the values /legal lists, so only what can still be unseen.
 *
 * A tap appends with "Authorization: Bearer <token>", "If-Match: <version>" and an
 * Idempotency-Key made for that tap; a network failure, a timeout or a 429/502/503/504 retries the
 * same request with the same key, so a lost answer never appends twice. A 409 version_conflict
 * (a co-recorder was first) refreshes the page and says so. Undo appends {"type": "retract"};
 * on a game that is over it takes back the last move and the game goes on (asked first: its
 * result leaves the statistics until it ends again). "Abandon the game" appends {"type":
 * "abandon"}, asked first too: the game ends without a result and counts nowhere.
 *
 * The token comes only from the fragment (#token=...), which the browser never sends; it goes out
 * only in the Authorization header. It is the recorder's (every move, every hand, Undo) or a seat's
 * (GET /games/{id} says which): a seat's page shows that player's own hand (the state as the seat
 * sees it) and offers its own moves only, which /legal lists only while its decision is awaited;
 * the rest of the time it says whose decision is awaited and follows the game. A seat never
 * retracts nor abandons, so it has neither button. Moves recorded elsewhere arrive over the event stream.
 *
 * Recording by touch. A game's drawing (the module <game>.js of its package, which this module
 * imports) may lay out the moves itself: its record(table) is called after each draw while this
 * page may record, and returns true when it has made every move a touch on the board or a button
 * in the action area under it; the generic buttons are then hidden. `table` holds the game's id,
 * the state, the moves /legal lists and beside each whether it ends the game and its words, the
 * `free` types (GET /legal's: types this token may append with values no list holds, such as a
 * score sheet's points; a drawing that offers them is called even when no move is listed), the
 * players, colours, catalog pictures, the chance mode, whose page this is, what its draw drew where (`drawn`, as its
 * draw returned it), `memory` (an object the page keeps for the drawing: a choice in progress
 * lives there, not in the drawing's module), and the frame's tools:
 *   target(node, words)  make a drawn node a touch target that records (data-records-move,
 *                        role=button, tabindex, label; Enter and Space touch it)
 *   button(words, onActivate, picture)  a button in the action area, a picture on it if given
 *   plainButton(words, onActivate)  a button there that records nothing (cancel, go back)
 *   hint(words, picture, className)  a line there saying what to touch (not a control)
 *   pick({title, options: [{label, value, picture, count, features}]})  the picker sheet (a
 *                        modal dialog): a Promise of the value chosen, null if cancelled;
 *                        picture(svg) draws each option; features ({"Palms": "3 palms"}) narrow
 *                        a long list by what is seen on the component in hand
 *   pickMany({count, titleOf(chosen), optionsOf(chosen), noteOf(chosen)})  one sheet for several
 *                        components of one kind (a seat's cards dealt): a Promise of the list
 *   record(body, words, {result})  append the move (a move that ends the game is confirmed
 *                        first, saying `result` when given: what the end makes of the game); its
 *                        words are GET /legal's unless given
 *   follow(body)         the one move the rules leave after the touch being recorded (the end of a
 *                        turn with nothing left to do): recorded with that touch; ignored at
 *                        any other time
 *   wordsOf(body)        a legal move's words, as GET /legal said it
 *   baseWordsOf(body)    its words without what chance brought (GET /legal's base_words):
 *                        the words of a touch that then asks what chance brought
 *   focus()              focus the first control that records
 * Every control that records (a target, a button, a picker's option, a confirmation) carries
 * data-records-move. The page is not rebuilt while nothing changed, so a touch never lands on a
 * control being replaced; after each move the focus goes to the next thing to do.
 */
import { Client, catchingUp, errorOf, gameOfPage, inOrder, pageData, reloadOnNewToken, sleep } from "./lib/client.js";
import { drawBoard, element, humanize, loadDrawing, seatName, svg, text } from "./lib/draw.js";
import { followGame, showLive, showResult } from "./lib/follow.js";
import { Picker, pictureOf } from "./lib/picker.js";
import { BoardZoom } from "./lib/zoom.js";

const RETRIES = 6;
const TIMEOUT_MS = 10000;
const RECENT = 12;
// A game that is over may have its last move taken back by the recorder (on another phone):
// its page looks this often, since the stream ends with the game.
const REOPEN_POLL_MS = 5000;
const PAGE = 1000; // events asked for per GET /events, when the moves are worded again

function newKey() {
  if (window.crypto && typeof window.crypto.randomUUID === "function") return window.crypto.randomUUID();
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function openRecorder() {
  const data = pageData("record-data");
  if (!data) return;
  const root = document.getElementById("recorder");
  const board = document.getElementById("board");
  const legalBox = document.getElementById("legal");
  const statusLine = document.getElementById("record-status");
  const errorLine = document.getElementById("record-error");
  const undo = document.getElementById("undo");
  const abandon = document.getElementById("abandon");
  const versionText = document.getElementById("version");
  const recent = document.getElementById("recent");
  const liveNote = document.getElementById("live");
  const recordingAs = document.getElementById("recording-as");
  const actions = document.getElementById("actions");
  const movesHeading = document.getElementById("moves-now");

  const view = {
    ...gameOfPage(data),
    moves: data.moves.slice(),
    types: data.types.slice(),
    void: data.void.slice(),
    awaited: null, // the seat whose decision is awaited, as the state last said
    legal: [],
    ending: [],
    words: [], // beside each legal move, its words (GET /legal's)
    free: [], // the types this token may append with any fields the rules take (GET /legal's)
    baseWords: [], // and its words without what chance brought
    shown: null, // what the moves now were last built from: unchanged, nothing is rebuilt
    busy: false,
    follow: null, // the one move left after the touch being recorded (table.follow)
    said: [], // the moves the touch being recorded recorded, in words
  };
  const client = new Client(view.id);
  // Whose token (the client knows): "recorder", "seat" (with `seat`) or "public" (none); null
  // until known; `refused` when the fragment's token was not one of the game's.
  client.lendTo(view);
  reloadOnNewToken(client.token);
  const picker = new Picker(root, fieldsOf);
  // The board at a finger's size: larger than the screen where it must be, moved and pinched.
  const zoom = new BoardZoom(board, board.parentElement, document.getElementById("zoom-toggle"));
  const drawing = await loadDrawing(data.drawing);
  // The fields that name what chance brought, per event type ("*": every type): the game's own
  // (Game.chance_fields), sent with the page.
  const chanceFields = data.chance_fields || {};

  function nameOf(seat) {
    return seatName(seat, view.players);
  }

  function say(message) {
    statusLine.textContent = message;
  }

  function showError(message) {
    errorLine.textContent = message;
    errorLine.hidden = !message;
  }

  // The record: which moves stand, the latest ones -------------------------------------------

  function standing() {
    const stack = [];
    const voided = view.types.map(() => false);
    view.types.forEach((type, index) => {
      if (type === "retract") {
        if (stack.length) voided[stack.pop()] = true;
      } else if (type !== "abandon") stack.push(index);
    });
    view.void = voided;
    return stack;
  }

  function showRecent() {
    const first = Math.max(0, view.moves.length - RECENT);
    recent.replaceChildren();
    for (let index = first; index < view.moves.length; index += 1) {
      const item = element("li", { "data-at": index + 1, "data-type": view.types[index], class: view.void[index] ? "void" : null });
      const line = element("span", { class: "text", text: view.moves[index] });
      item.append(element("span", { class: "seq", text: String(index + 1) }), " ", line);
      if (view.void[index]) item.append(" ", element("span", { class: "voided", text: "(voided)" }));
      recent.append(item);
    }
    if (!view.moves.length) recent.append(element("li", { class: "empty", text: "No move yet." }));
    // Opened at its foot: the last move in view.
    recent.scrollTop = recent.scrollHeight;
  }

  /** Add stored events (from an append, the stream or GET /events); true if any was new. */
  function addRecorded(events) {
    const added = inOrder(events, () => view.types.length, (event) => {
      view.moves.push(String(event.words));
      view.types.push(event.type);
    }, catchUp);
    if (added) {
      standing();
      showRecent();
    }
    return added;
  }

  const catchUp = catchingUp(client, () => view.types.length, addRecorded);

  /** Word again the moves listed so far, from GET /events as this page's token reads it: the
   * server rendered them for the public, and a token (or the game's end) may show more, such as
   * a seat's own cards dealt. */
  async function rewordAll() {
    try {
      for (let from = 1; from <= view.moves.length; from += PAGE) {
        const events = await client.events(from, PAGE);
        for (const event of events) {
          if (event.seq <= view.moves.length) view.moves[event.seq - 1] = event.words;
        }
        if (events.length < PAGE) break;
      }
      showRecent();
    } catch (error) {
      console.warn("could not fetch the moves:", error);
    }
  }

  // Whose link this is ----------------------------------------------------------------------

  function showWho() {
    // A game's package may word whose page this is its own way (a score pad has no hands).
    const own = (drawing && drawing.words) || {};
    if (view.role === "recorder") {
      recordingAs.textContent = own.recorder || "Recorder (all seats): every move, every hand.";
    } else if (view.role === "seat") {
      const name = nameOf(view.seat);
      recordingAs.textContent = own.seat ? own.seat(name) : `Recording as ${name}: ${name}'s hand and moves only.`;
    } else if (view.refused) {
      recordingAs.textContent = "Not recording: this link is not this game's.";
    } else {
      recordingAs.textContent = "Not recording: this is the link for spectators; a player's own link records.";
    }
    recordingAs.hidden = false;
    recordingAs.dataset.role = view.role;
    if (view.role === "recorder") {
      // The links page takes the recorder's token in its fragment too.
      const links = document.getElementById("links-page-link");
      links.href = `${links.getAttribute("href")}#${new URLSearchParams({ token: view.token })}`;
      links.hidden = false;
    }
    root.dataset.role = view.role;
    if (view.role === "seat") {
      // A seat's link is that player's: it is not for a co-recorder, and it cannot undo.
      root.dataset.seat = String(view.seat);
      undo.hidden = true;
      const name = nameOf(view.seat);
      document.getElementById("share-summary").textContent = `${name}'s link`;
      document.getElementById("share-hint").textContent =
        `Whoever has this link sees ${name}'s hand and records ${name}'s moves: keep it to ${name} (to open this page on another device).`;
      document.getElementById("share-label").textContent = `${name}'s link`;
    }
  }

  // Drawing ---------------------------------------------------------------------------------

  // What the game's drawing last drew where (its draw's `drawn`), and the page's memory for it (a
  // choice in progress, kept across the redraws of one version): handed to its record, so that
  // the drawing itself keeps nothing between calls.
  let drawnNow = null;
  const memory = {};

  function drawNow(state) {
    // `recording`: a drawing may draw less here than in the viewer, to leave room for recording.
    const frame = { id: view.id, players: view.players, colours: view.colours, cards: view.cards, at: state.version, version: state.version, status: state.status, recording: true };
    drawnNow = drawBoard(board, drawing, state, frame, `${view.game}: the game now`).drawn || null;
    board.dataset.version = String(state.version);
    // Whole: the recorder's view, or anyone's once the game is over; a seat sees its own hand.
    board.dataset.full = String(view.role === "recorder" || state.status !== "active");
    board.dataset.viewer = view.role || "unknown";
  }

  // The moves now ---------------------------------------------------------------------------

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
    undo.disabled = view.busy || view.role !== "recorder" || !(view.status === "active" || over) || standing().length === 0;
    // One Undo on the page: a game's drawing that offers its own (data-undo) stands in for it.
    undo.hidden = view.role === "seat" || Boolean(actions.querySelector("[data-undo]"));
    abandon.hidden = view.role !== "recorder" || view.status !== "active";
    abandon.disabled = view.busy;
  }

  /** A seat's page while another seat's decision is awaited: whose, and what it is. */
  function waiting(state) {
    if (!Number.isInteger(state.current_player)) return "Waiting for the next decision.";
    const what = state.pending && state.pending.kind ? ` (${humanize(state.pending.kind)})` : "";
    return `Waiting for ${nameOf(state.current_player)}${what}: ${nameOf(state.current_player)}'s decision is awaited.`;
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
    const touched = mayRecord && recordByTouch(state);
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
      legalBox.append(element("p", { class: "note waiting", text: `Not your turn, ${nameOf(view.seat)}: your moves appear here when it is.` }));
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
          button.addEventListener("click", () => record(group.moves[0]));
        } else {
          button = element("button", { type: "button", class: "move pick", "data-records-move": true, "aria-haspopup": "dialog", "data-group": JSON.stringify(group.base) },
            `${label} …`);
          button.addEventListener("click", () => picker.open(group, button, (move) => record(move)));
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

  // Recording by touch: the game's drawing lays out the moves (see the top of this file) ------

  // "Moves as a list": the buttons of every move instead of touches on the drawing, for who
  // prefers a list (a screen reader, say); remembered on this device.
  const LIST_KEY = "tabletape.moves-as-list";
  const asList = document.getElementById("as-list");
  function listPreferred() {
    try {
      return window.localStorage.getItem(LIST_KEY) === "1";
    } catch (error) {
      return false;
    }
  }
  asList.checked = listPreferred();
  asList.addEventListener("change", () => {
    try {
      window.localStorage.setItem(LIST_KEY, asList.checked ? "1" : "0");
    } catch (error) {
      /* storage refused: the choice holds for this page only */
    }
    view.shown = null;
    refresh();
  });

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
      record,
      follow,
      wordsOf,
      baseWordsOf,
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

  /** Whether ``body`` is a move /legal marked as ending the game. */
  function endsTheGame(body) {
    const text = JSON.stringify(body);
    return view.legal.some((move, index) => view.ending[index] && JSON.stringify(move) === text);
  }

  // Loading the game now --------------------------------------------------------------------

  let loading = 0;
  /** The state and the legal moves at one version (asked again if a move came in between).
   * /legal needs a token: a page without one offers nothing. */
  async function refresh() {
    const ticket = ++loading;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      try {
        const [state, legal] = await Promise.all([
          client.read("/state"),
          view.token ? client.read("/legal") : Promise.resolve(null),
        ]);
        if (ticket !== loading) return;
        const legalVersion = legal && Number(String(legal.etag || "").replace(/\D/g, ""));
        if (legal && legal.etag && legalVersion !== state.body.version) continue;
        if (state.body.version > view.types.length) await catchUp();
        if (ticket !== loading) return;
        apply(state.body, legal ? legal.body : { moves: [], ending: [], words: [], base_words: [], free: [] });
        return;
      } catch (error) {
        if (ticket !== loading) return;
        showError(`Could not load the game: ${error.message}`);
        await sleep(1000);
      }
    }
  }

  function apply(state, legal) {
    const { moves, ending } = legal;
    view.version = state.version;
    view.status = state.status;
    view.awaited = state.status === "active" ? state.current_player : null;
    versionText.textContent = String(state.version);
    root.dataset.version = String(state.version);
    root.dataset.awaited = view.awaited === null || view.awaited === undefined ? "" : String(view.awaited);
    // Drawn again only with the moves: the drawing holds the touch targets.
    const changed = JSON.stringify([state.version, view.status, view.role, moves, ending]) !== view.shown;
    if (changed) {
      drawNow(state);
      showLegal(legal, state);
    }
    // A refresh that finds nothing new leaves what is said alone (the answer to the last tap).
    if (changed || statusLine.dataset.keep) sayWhatIsAwaited(state);
    delete statusLine.dataset.keep;
    root.dataset.ready = "true";
    if (view.status !== "active") whenOver();
    else if (finished) goOn();
  }

  /** The status line: what the page awaits (whose turn, the move to touch), after the answer to
   * the last tap where there was one. */
  function sayWhatIsAwaited(state) {
    // A seat with a free type (a score sheet's own points) may record at any time: no turn awaited.
    const mine = view.role !== "seat" || view.awaited === view.seat || view.free.length > 0;
    if (view.status === "abandoned") say("The game was abandoned.");
    else if (view.status !== "active") say("The game is over.");
    else if (view.refused) say("This link is not this game's: the moves are shown, not recorded.");
    else if (!view.token) say("This is the link for spectators: the moves are shown, not recorded.");
    else if (statusLine.dataset.keep) {
      // The answer to a tap stays; on a seat's page, followed by whose turn it now is.
      if (!mine) say(`${statusLine.textContent} ${waiting(state)}`);
    } else if (!mine) say(waiting(state));
    else if (drawing && drawing.words && drawing.words.awaited) say(drawing.words.awaited(state, view.role, nameOf(view.seat)));
    else if (view.role === "seat") say(`Your turn, ${nameOf(view.seat)}: touch the move you make.`);
    else say(`Move ${state.version + 1}: touch the move that was made.`);
  }

  // Recording -------------------------------------------------------------------------------

  async function post(body, key, expected) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
    try {
      return await fetch(`${client.base}/events`, {
        method: "POST",
        headers: {
          ...client.headers(),
          "Content-Type": "application/json",
          "If-Match": String(expected),
          "Idempotency-Key": key,
        },
        body: JSON.stringify(body),
        cache: "no-store",
        signal: controller.signal,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Append one move (one tap): one key, reused by every retry of this tap. A Promise of
   * whether it was recorded (a game's drawing may offer another choice when it was not).
   * `options.result`: what the end will make of the game (who wins), said by the drawing in its
   * confirmation, for a move whose words cannot say it ("the totals decide"). */
  async function record(body, what, options = {}) {
    if (view.busy || !view.token) return false;
    const words = what || wordsOf(body);
    if (endsTheGame(body)) {
      const result = options.result ? `${options.result} ` : "";
      const sure = await pick({
        title: "This move ends the game",
        note: `${result}Record “${words}” and end the game?`,
        options: [{ label: "Yes: record it and end the game", value: true }],
        cancel: "No, not yet",
      });
      if (!sure) {
        focusNext();
        return false;
      }
    }
    showError("");
    setBusy(true);
    view.said = [];
    try {
      let recorded = await appendOnce(body, words);
      // Where the rules leave nothing to decide after it (a turn with nothing left but
      // its end), the game's drawing asked, while the page refreshed, for the one move left: it
      // goes with the same touch.
      // Never after an Undo: the move taken back would come straight back.
      const mayFollow = body.type !== "retract" && body.type !== "abandon";
      while (mayFollow && recorded && view.follow && view.follow.version === view.version) {
        const next = view.follow;
        view.follow = null;
        recorded = await appendOnce(next.body, next.words);
      }
      view.follow = null;
      if (view.said.length > 1) {
        say(`Recorded ${view.said.join("; then ")}.`);
        statusLine.dataset.keep = "true";
      }
      return recorded;
    } finally {
      setBusy(false);
    }
  }

  /** The one move left, recorded with the touch that was being recorded (see record): only while
   * a touch of this page is being recorded, never on its own. */
  function follow(body) {
    if (!view.busy) return false;
    view.follow = { version: view.version, body, words: wordsOf(body) };
    return true;
  }

  /** One append, retried with its key; whether it was recorded. */
  async function appendOnce(body, words) {
    const key = newKey();
    const expected = view.version;
    say(`Recording ${words}…`);
    {
      for (let attempt = 1; ; attempt += 1) {
        let response = null;
        try {
          response = await post(body, key, expected);
        } catch (error) {
          response = null;
        }
        if (response && response.status === 201) {
          const answer = await response.json();
          addRecorded([{ ...answer.event, seq: answer.seq, words: answer.words || words }]);
          statusLine.dataset.keep = "true";
          say(`Recorded move ${answer.version}: ${answer.words || words}.`);
          view.said.push(`move ${answer.version}: ${answer.words || words}`);
          view.version = answer.version;
          await refresh();
          focusNext();
          return true;
        }
        const transient = !response || [429, 502, 503, 504].includes(response.status);
        if (transient && attempt < RETRIES) {
          say(`No answer from the service yet; trying again (${attempt} of ${RETRIES - 1}). The move is recorded once, however many tries.`);
          await sleep(Math.min(400 * 2 ** (attempt - 1), 4000));
          continue;
        }
        if (!response) {
          showError("The service cannot be reached. The move may not have been recorded: the page shows the game as the service last had it. Try again when the connection is back.");
        } else {
          const error = await errorOf(response);
          if (error.code === "version_conflict") {
            const now = error.details && error.details.current_version;
            showError(`Not recorded: another move was recorded first (the game now has ${now} moves). The page now shows it; tap again if your move is still to be made.`);
          } else {
            showError(`Not recorded: ${error.message}`);
          }
        }
        statusLine.dataset.keep = "true";
        say(`Not recorded: ${words}.`);
        await refresh();
        return false;
      }
    }
  }

  undo.addEventListener("click", async () => {
    const stack = standing();
    if (!stack.length) return;
    const last = view.moves[stack[stack.length - 1]];
    if (view.status !== "active") {
      const sure = await pick({
        title: "Take back the last move?",
        note: `“${last}” ended the game. Taken back, the game goes on, and its result leaves the statistics and ratings until it ends again.`,
        options: [{ label: "Yes: take it back, the game goes on", value: true }],
        cancel: "No, the game is over",
      });
      if (!sure) return;
    }
    record({ type: "retract" }, `undo of “${last}”`);
  });

  abandon.addEventListener("click", async () => {
    const sure = await pick({
      title: "Abandon this game?",
      note: "It ends here without a result: it counts in no statistics and no rating, and nothing more can be recorded. The moves stay in its record.",
      options: [{ label: "Yes: abandon the game", value: true }],
      cancel: "No, go on recording",
    });
    if (sure) record({ type: "abandon" }, "the game abandoned");
  });

  // Sharing ---------------------------------------------------------------------------------

  const shareLink = document.getElementById("share-link");
  const shareNote = document.getElementById("share-note");
  shareLink.value = window.location.href;
  shareLink.addEventListener("focus", () => shareLink.select());
  document.getElementById("share-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      shareNote.textContent = "Link copied.";
    } catch (error) {
      shareLink.focus();
      shareLink.select();
      shareNote.textContent = "Copy the selected link (the clipboard is not available here).";
    }
  });

  // Following moves recorded elsewhere ------------------------------------------------------

  let stopElsewhere = () => {};
  let finished = false;

  let reopenWatch = null;

  async function whenOver() {
    if (finished) return;
    finished = true;
    stopElsewhere();
    if (view.status !== "abandoned") {
      reopenWatch = setInterval(async () => {
        if (view.busy) return;
        try {
          const { body: game } = await client.read("");
          if (game.version > view.version) refresh();
        } catch (error) {
          console.warn("looking for a reopening failed:", error);
        }
      }, REOPEN_POLL_MS);
    }
    rewordAll(); // the game is over: every move may now be read whole
    try {
      const { body: game } = await client.read("");
      showResult(game, view.players);
      root.dataset.finished = "true";
    } catch (error) {
      console.warn("could not read the finished game:", error);
    }
  }

  /** The last move of a game that was over was taken back (here or on another phone): the
   * result goes, and the page records and follows the game again. */
  function goOn() {
    finished = false;
    clearInterval(reopenWatch);
    root.dataset.finished = "false";
    showResult({ status: "active", result: null }, view.players);
    followElsewhere();
  }

  function moveArrived() {
    if (view.busy) return; // the tap's own refresh follows
    refresh();
  }

  /** Follow the moves recorded elsewhere (another phone, a seat's page). */
  function followElsewhere() {
    if (view.status !== "active") return;
    stopElsewhere = followGame(client, view.version + 1, {
      setLive: (mode) => showLive(liveNote, mode),
      onMove: (event, seq) => {
        // The news of a move this page has (its own tap's, told back by the stream): nothing new.
        if (!event && seq && seq <= view.version) return;
        try {
          if (!event || addRecorded([event]) || event.seq > view.version) moveArrived();
        } catch (error) {
          moveArrived();
        }
      },
      onEnd: () => {
        if (!view.busy) refresh();
      },
      onGame: (game) => {
        if (game.version > view.version && !view.busy) refresh();
      },
    });
  }

  standing();
  showRecent();
  setBusy(false);
  // Whose token first: the state, the moves offered and Undo all depend on it.
  client.identify({ retry: true, onError: (error) => showError(`Could not load the game: ${error.message}`) }).then(() => {
    showError("");
    showWho();
    setBusy(false);
    refresh();
    followElsewhere();
    if (view.token && view.status === "active" && view.moves.length) rewordAll();
  });
  // For tests and tools: the page's view of the game, and how it records.
  window.Tabletape = Object.assign(window.Tabletape || {}, { recorder: { view, refresh, record } });
}

// A module runs once the page is parsed.
openRecorder();
