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
 * Recording by touch. A game's drawing (Tabletape.renderers[game], from its package) may lay out
 * the moves itself: renderer.record(table) is called after each draw while this page may record,
 * and returns true when it has made every move a touch on the board or a button in the action
 * area under it; the generic buttons are then hidden. `table` holds the state, the moves /legal
 * lists and beside each whether it ends the game, the players, colours, catalog pictures, the
 * chance mode, whose page this is, and the frame's tools:
 *   target(node, words)  make a drawn node a touch target that records (data-records-move,
 *                        role=button, tabindex, label; Enter and Space touch it)
 *   button(words, onActivate, picture)  a button in the action area, a picture on it if given
 *   plainButton(words, onActivate)  a button there that records nothing (cancel, go back)
 *   hint(words, picture, className)  a line there saying what to touch (not a control)
 *   pick({title, options: [{label, value, picture, count}]})  the picker sheet: a Promise of
 *                        the value chosen, null if cancelled; picture(svg) draws each option
 *   record(body, words)  append the move (a move that ends the game is confirmed first)
 *   focus()              focus the first control that records
 * Every control that records (a target, a button, a picker's option, a confirmation) carries
 * data-records-move. The page is not rebuilt while nothing changed, so a touch never lands on a
 * control being replaced; after each move the focus goes to the next thing to do.
 */
"use strict";

(function () {
  const T = window.Tabletape;

  const RETRIES = 6;
  const TIMEOUT_MS = 10000;
  const RECENT = 12;
  // A game that is over may have its last move taken back by the recorder (on another phone):
  // its page looks this often, since the stream ends with the game.
  const REOPEN_POLL_MS = 5000;
  const PAGE = 1000; // events asked for per GET /events

  function newKey() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") return window.crypto.randomUUID();
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  function shown(value) {
    if (value === null || value === undefined) return "none";
    if (Array.isArray(value)) return value.map(shown).join(", ") || "none";
    if (typeof value === "object") return JSON.stringify(value);
    return T.humanize(value);
  }

  function element(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    node.append(...children);
    return node;
  }

  function start() {
    const dataNode = document.getElementById("record-data");
    if (!dataNode) return;
    const data = JSON.parse(dataNode.textContent);
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
    const picker = {
      box: document.getElementById("picker"),
      title: document.getElementById("picker-title"),
      chosen: document.getElementById("picker-chosen"),
      options: document.getElementById("picker-options"),
      back: document.getElementById("picker-back"),
      cancel: document.getElementById("picker-cancel"),
      group: null,
      steps: [],
      opener: null,
      answer: null, // the pending pick()'s resolve
    };

    const view = {
      id: data.id,
      game: data.game,
      players: data.players,
      colours: data.colours,
      cards: data.cards || {},
      status: data.status,
      version: data.version,
      moves: data.moves.slice(),
      types: data.types.slice(),
      void: data.void.slice(),
      token: T.tokenFromFragment(),
      // Whose token: "recorder", "seat" (with `seat`) or "public" (none); null until known.
      role: null,
      seat: null,
      refused: false, // the fragment's token was not one of the game's
      awaited: null, // the seat whose decision is awaited, as the state last said
      legal: [],
      ending: [],
      words: [], // beside each legal move, its words (GET /legal's)
      baseWords: [], // and its words without what chance brought
      shown: null, // what the moves now were last built from: unchanged, nothing is rebuilt
      busy: false,
    };
    const base = `/games/${encodeURIComponent(view.id)}`;
    T.reloadOnNewToken(view.token);
    // The fields that name what chance brought, per event type ("*": every type): the game's own
    // (Game.chance_fields), sent with the page.
    const chanceFields = data.chance_fields || {};

    function authHeaders() {
      return view.token ? { Authorization: `Bearer ${view.token}` } : {};
    }

    async function errorOf(response) {
      try {
        const body = await response.json();
        if (body && body.error) return body.error;
      } catch (ignored) {
        /* not the API's error body */
      }
      return { code: "http", message: `the service answered ${response.status} ${response.statusText}`, details: {} };
    }

    async function getJSON(path) {
      const response = await fetch(path, { headers: authHeaders(), cache: "no-store" });
      if (!response.ok) {
        const error = new Error((await errorOf(response)).message);
        error.status = response.status;
        throw error;
      }
      return { body: await response.json(), etag: response.headers.get("ETag") };
    }

    function nameOf(seat) {
      return Number.isInteger(seat) && seat >= 0 && seat < view.players.length ? view.players[seat] : `seat ${seat}`;
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
    }

    /** Add stored events (from an append, the stream or GET /events); true if any was new. */
    function addEvents(events) {
      let added = false;
      for (const event of events) {
        if (event.seq <= view.types.length) continue;
        if (event.seq !== view.types.length + 1) {
          catchUp();
          break;
        }
        view.moves.push(String(event.words));
        view.types.push(event.type);
        added = true;
      }
      if (added) {
        standing();
        showRecent();
      }
      return added;
    }

    let catching = null;
    let catchAgain = false;
    function catchUp() {
      // A move announced while a fetch is under way may have been stored after that fetch was
      // answered: fetch once more when it is done.
      if (catching) {
        catchAgain = true;
        return catching;
      }
      catching = (async () => {
        try {
          do {
            catchAgain = false;
            for (;;) {
              const { body } = await getJSON(`${base}/events?from=${view.types.length + 1}&limit=${PAGE}`);
              addEvents(T.wordedEvents(body));
              if (body.events.length < PAGE) break;
            }
          } while (catchAgain);
        } catch (error) {
          console.warn("could not fetch the moves:", error);
        } finally {
          catching = null;
        }
      })();
      return catching;
    }

    /** Word again the moves listed so far, from GET /events as this page's token reads it: the
     * server rendered them for the public, and a token (or the game's end) may show more, such as
     * a seat's own cards dealt. */
    async function describeAgain() {
      try {
        for (let from = 1; from <= view.moves.length; from += PAGE) {
          const { body } = await getJSON(`${base}/events?from=${from}&limit=${PAGE}`);
          for (const event of T.wordedEvents(body)) {
            if (event.seq <= view.moves.length) view.moves[event.seq - 1] = event.words;
          }
          if (body.events.length < PAGE) break;
        }
        showRecent();
      } catch (error) {
        console.warn("could not fetch the moves:", error);
      }
    }

    // Whose link this is ----------------------------------------------------------------------

    /** Learn whose token the page holds (GET /games/{id}'s "viewer"), retrying while the service
     * cannot be reached. A token that is not the game's is refused (401) on every request: it is
     * dropped, and the page shows the public view. */
    async function identify() {
      if (!view.token) {
        view.role = "public";
        return;
      }
      for (let attempt = 0; ; attempt += 1) {
        try {
          const { body: game } = await getJSON(base);
          view.role = game.viewer.role;
          view.seat = game.viewer.seat;
          showError("");
          return;
        } catch (error) {
          if (error.status === 401) {
            view.token = null;
            view.refused = true;
            view.role = "public";
            return;
          }
          showError(`Could not load the game: ${error.message}`);
          await sleep(Math.min(1000 * 2 ** attempt, 8000));
        }
      }
    }

    function showWho() {
      if (view.role === "recorder") {
        recordingAs.textContent = "Recorder (all seats): every move, every hand.";
      } else if (view.role === "seat") {
        recordingAs.textContent = `Recording as ${nameOf(view.seat)} (seat ${view.seat}): ${nameOf(view.seat)}'s hand and moves only.`;
      } else if (view.refused) {
        recordingAs.textContent = "Not recording: this link's token is not this game's.";
      } else {
        recordingAs.textContent = "Not recording: this link has no token (#token=…).";
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

    function draw(state) {
      board.replaceChildren();
      let drawn = { title: `${view.game}: the game now`, description: "" };
      const renderer = T.renderers[view.game];
      if (renderer) {
        try {
          drawn = renderer.draw(board, state, {
            players: view.players,
            colours: view.colours,
            cards: view.cards,
            at: state.version,
            version: state.version,
            status: state.status,
            narrow: board.parentElement.clientWidth < 560,
            svg: T.svg,
            text: T.text,
          }) || drawn;
        } catch (error) {
          board.replaceChildren(T.text(20, 40, `Cannot draw this state: ${error.message}`, { class: "label" }));
          console.error(error);
        }
      }
      board.prepend(T.svg("title", { id: "board-title" }, drawn.title), T.svg("desc", { id: "board-desc" }, drawn.description));
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
      return index >= 0 ? view.words[index] : T.humanize(body.type);
    }

    function setBusy(busy) {
      view.busy = busy;
      root.dataset.busy = String(busy);
      legalBox.setAttribute("aria-busy", String(busy));
      for (const button of legalBox.querySelectorAll("button")) button.disabled = busy || !view.token;
      for (const button of actions.querySelectorAll("button")) button.disabled = busy || !view.token;
      for (const node of board.querySelectorAll("[data-records-move]")) node.setAttribute("aria-disabled", String(busy));
      for (const button of picker.box.querySelectorAll("button")) button.disabled = busy;
      updateUndo();
    }

    // A game that is over may still have its last move taken back (the recorder's only); an
    // abandoned one takes nothing more.
    function updateUndo() {
      const over = view.status === "finished" || view.status === "archived";
      undo.textContent = over ? "Take back the last move" : "Undo the last move";
      undo.disabled = view.busy || view.role !== "recorder" || !(view.status === "active" || over) || standing().length === 0;
      abandon.hidden = view.role !== "recorder" || view.status !== "active";
      abandon.disabled = view.busy;
    }

    /** A seat's page while another seat's decision is awaited: whose, and what it is. */
    function waiting(state) {
      if (!Number.isInteger(state.current_player)) return "Waiting for the next decision.";
      const what = state.pending && state.pending.kind ? ` (${T.humanize(state.pending.kind)})` : "";
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
      closePicker(false);
      legalBox.replaceChildren();
      actions.replaceChildren();
      const mayRecord = view.status === "active" && view.token && moves.length;
      const touched = mayRecord && recordByTouch(state);
      legalBox.hidden = Boolean(touched);
      movesHeading.hidden = Boolean(touched);
      if (touched) {
        updateUndo();
        return true;
      }
      if (view.status === "abandoned") {
        legalBox.append(element("p", { class: "note", text: "The game was abandoned: nothing more to record." }));
      } else if (view.status !== "active") {
        const more = view.role === "recorder" ? " A mistake in the last move? Take it back: the game goes on." : "";
        legalBox.append(element("p", { class: "note", text: `The game is over: nothing more to record.${more}` }));
      } else if (!view.token) {
        legalBox.append(element("p", { class: "note", text: "Moves are offered to a link with a token only." }));
      } else if (view.role === "seat" && view.awaited !== view.seat) {
        // The status line says whose decision is awaited; the page follows the game till then.
        legalBox.append(element("p", { class: "note waiting", text: `Not your turn, ${nameOf(view.seat)}: your moves appear here when it is.` }));
      } else if (!moves.length) {
        legalBox.append(element("p", { class: "note", text: "No move is legal now." }));
      }
      for (const [type, groups] of groupMoves(moves)) {
        const section = element("section", { class: "move-group", "data-type": type });
        const heading = element("h3", { text: T.humanize(type) });
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
            button.addEventListener("click", () => openPicker(group, button));
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
      if (asList.checked) return false;
      const renderer = T.renderers[view.game];
      if (!renderer || typeof renderer.record !== "function") return false;
      const table = {
        board,
        actions,
        state,
        moves: view.legal,
        ending: view.ending,
        words: view.words,
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
        record,
        wordsOf,
        focus: focusNext,
        humanize: T.humanize,
        svg: T.svg,
        text: T.text,
      };
      try {
        return Boolean(renderer.record(table));
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
        node.append(T.svg("title", {}, words));
      }
      node.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
        }
      });
      return node;
    }

    /** A small picture for a button or a picker's option: picture(svg) draws into 48x64. */
    function pictureOf(picture) {
      const drawing = T.svg("svg", { class: "picture", viewBox: "0 0 48 64", width: 36, height: 48, "aria-hidden": "true", focusable: "false" });
      picture(drawing);
      return drawing;
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
      const next = actions.querySelector("[data-records-move]:not(:disabled)") || board.querySelector("[data-records-move]");
      if (next) next.focus({ preventScroll: true });
    }

    /** The picker sheet as a question: a Promise of the value chosen (null: cancelled). */
    function pick({ title, options, note }) {
      closePicker(false);
      return new Promise((resolve) => {
        picker.title.textContent = title;
        picker.chosen.textContent = note || "";
        picker.chosen.hidden = !note;
        picker.options.replaceChildren();
        picker.back.hidden = true;
        picker.answer = resolve;
        for (const option of options) {
          const button = element("button", { type: "button", class: "option", "data-records-move": true, "data-value": JSON.stringify(option.value ?? null) });
          if (option.picture) button.append(pictureOf(option.picture));
          button.append(element("span", { class: "option-label", text: option.label }));
          if (option.count > 1) button.append(element("span", { class: "count", text: `×${option.count}` }));
          button.addEventListener("click", () => {
            picker.answer = null;
            closePicker(false);
            resolve(option.value);
          });
          picker.options.append(button);
        }
        picker.box.hidden = false;
        root.dataset.picking = "true";
        const first = picker.options.querySelector("button");
        if (first) first.focus({ preventScroll: true });
      });
    }

    /** Whether ``body`` is a move /legal marked as ending the game. */
    function endsTheGame(body) {
      const text = JSON.stringify(body);
      return view.legal.some((move, index) => view.ending[index] && JSON.stringify(move) === text);
    }

    // The picker: one chance field at a time; a list (cards dealt) one card at a time ----------

    function listOf(move, field) {
      const value = move[field];
      return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
    }

    function containsAll(list, wanted) {
      const left = list.map((item) => JSON.stringify(item));
      for (const item of wanted) {
        const at = left.indexOf(JSON.stringify(item));
        if (at < 0) return false;
        left.splice(at, 1);
      }
      return true;
    }

    /** Where the picker stands: the candidates left, the field asked, the choices offered. */
    function pickerStep() {
      let candidates = picker.group.moves;
      const fields = [...new Set(candidates.flatMap((move) => fieldsOf(move)))];
      const chosen = [];
      for (const field of fields) {
        const isList = candidates.some((move) => Array.isArray(move[field]));
        const picks = picker.steps.filter((step) => step.field === field).map((step) => step.value);
        if (isList) {
          candidates = candidates.filter((move) => containsAll(listOf(move, field), picks));
          if (picks.length) chosen.push(`${T.humanize(field)}: ${picks.map(shown).join(", ")}`);
          const exact = candidates.filter((move) => listOf(move, field).length === picks.length);
          const longer = candidates.filter((move) => listOf(move, field).length > picks.length);
          if (!longer.length) continue;
          const values = new Map();
          for (const move of longer) {
            const rest = listOf(move, field).slice();
            for (const pick of picks) rest.splice(rest.findIndex((item) => JSON.stringify(item) === JSON.stringify(pick)), 1);
            for (const item of rest) values.set(JSON.stringify(item), item);
          }
          const size = Math.max(...longer.map((move) => listOf(move, field).length));
          return { field, isList, candidates, chosen, exact, values: [...values.values()], question: `${T.humanize(field)}: ${picks.length + 1} of ${size}` };
        }
        if (picks.length) {
          candidates = candidates.filter((move) => JSON.stringify(move[field] ?? null) === JSON.stringify(picks[0]));
          chosen.push(`${T.humanize(field)}: ${shown(picks[0])}`);
          continue;
        }
        const values = new Map();
        for (const move of candidates) values.set(JSON.stringify(move[field] ?? null), move[field] ?? null);
        if (values.size <= 1) continue;
        return { field, isList, candidates, chosen, exact: [], values: [...values.values()], question: T.humanize(field) };
      }
      return { done: true, candidates, chosen };
    }

    function renderPicker() {
      const step = pickerStep();
      if (step.done) {
        const [move] = step.candidates;
        const opener = picker.opener;
        closePicker(false);
        if (opener) opener.focus();
        if (move) record(move);
        return;
      }
      picker.title.textContent = `${picker.group.words} · ${step.question}`;
      picker.chosen.textContent = step.chosen.length ? `So far: ${step.chosen.join("; ")}` : "Pick what came up.";
      picker.options.replaceChildren();
      const sorted = step.values.slice().sort((a, b) => {
        if (typeof a === "number" && typeof b === "number") return a - b;
        return String(a).localeCompare(String(b));
      });
      for (const value of sorted) {
        const button = element("button", { type: "button", class: "option", "data-records-move": true, "data-field": step.field, "data-value": JSON.stringify(value) }, shown(value));
        button.addEventListener("click", () => {
          picker.steps.push({ field: step.field, value });
          renderPicker();
        });
        picker.options.append(button);
      }
      if (step.exact.length) {
        const button = element("button", { type: "button", class: "option done", "data-records-move": true, "data-field": step.field, "data-value": "done" }, "No more");
        button.addEventListener("click", () => {
          closePicker(true);
          record(step.exact[0]);
        });
        picker.options.append(button);
      }
      picker.back.disabled = !picker.steps.length || view.busy;
      const first = picker.options.querySelector("button");
      if (first) first.focus();
    }

    function openPicker(group, opener) {
      picker.group = group;
      picker.steps = [];
      picker.opener = opener;
      picker.box.hidden = false;
      root.dataset.picking = "true";
      renderPicker();
      picker.box.scrollIntoView({ block: "nearest" });
    }

    function closePicker(refocus) {
      const opener = picker.opener;
      if (picker.answer) {
        const answer = picker.answer;
        picker.answer = null;
        answer(null);
      }
      picker.back.hidden = false;
      picker.chosen.hidden = false;
      picker.box.hidden = true;
      // Its options go with it: a control that records is never left hidden in the page.
      picker.options.replaceChildren();
      picker.group = null;
      picker.steps = [];
      picker.opener = null;
      root.dataset.picking = "false";
      if (refocus && opener && opener.isConnected) opener.focus();
    }

    picker.back.addEventListener("click", () => {
      picker.steps.pop();
      renderPicker();
    });
    picker.cancel.addEventListener("click", () => closePicker(true));
    picker.box.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        closePicker(true);
      }
    });

    // Loading the game now --------------------------------------------------------------------

    let loading = 0;
    /** The state and the legal moves at one version (asked again if a move came in between).
     * /legal needs a token: a page without one offers nothing. */
    async function refresh() {
      const ticket = ++loading;
      for (let attempt = 0; attempt < 4; attempt += 1) {
        try {
          const [state, legal] = await Promise.all([
            getJSON(`${base}/state`),
            view.token ? getJSON(`${base}/legal`) : Promise.resolve(null),
          ]);
          if (ticket !== loading) return;
          const legalVersion = legal && Number(String(legal.etag || "").replace(/\D/g, ""));
          if (legal && legal.etag && legalVersion !== state.body.version) continue;
          if (state.body.version > view.types.length) await catchUp();
          if (ticket !== loading) return;
          apply(state.body, legal ? legal.body : { moves: [], ending: [], words: [], base_words: [] });
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
        draw(state);
        showLegal(legal, state);
      }
      const mine = view.role !== "seat" || view.awaited === view.seat;
      if (view.status === "abandoned") say("The game was abandoned.");
      else if (view.status !== "active") say("The game is over.");
      else if (view.refused) say("This link's token is not this game's: the moves are shown, not recorded.");
      else if (!view.token) say("This link has no token (#token=…): the moves are shown, not recorded.");
      else if (statusLine.dataset.keep) {
        // The answer to a tap stays; on a seat's page, followed by whose turn it now is.
        if (!mine) say(`${statusLine.textContent} ${waiting(state)}`);
      } else if (!mine) say(waiting(state));
      else if (view.role === "seat") say(`Your turn, ${nameOf(view.seat)}: touch the move you make.`);
      else say(`Version ${state.version}: touch the move that was made.`);
      delete statusLine.dataset.keep;
      root.dataset.ready = "true";
      if (view.status !== "active") finish();
      else if (finished) goOn();
    }

    // Recording -------------------------------------------------------------------------------

    async function post(body, key, expected) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
      try {
        return await fetch(`${base}/events`, {
          method: "POST",
          headers: {
            ...authHeaders(),
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
     * whether it was recorded (a game's drawing may offer another choice when it was not). */
    async function record(body, what) {
      if (view.busy || !view.token) return false;
      const words = what || wordsOf(body);
      if (endsTheGame(body)) {
        const sure = await pick({
          title: "This move ends the game",
          note: `Record “${words}” and end the game?`,
          options: [
            { label: "Yes: record it and end the game", value: true },
            { label: "No, not yet", value: false },
          ],
        });
        if (!sure) {
          focusNext();
          return false;
        }
      }
      showError("");
      setBusy(true);
      const key = newKey();
      const expected = view.version;
      say(`Recording ${words}…`);
      try {
        for (let attempt = 1; ; attempt += 1) {
          let response = null;
          try {
            response = await post(body, key, expected);
          } catch (error) {
            response = null;
          }
          if (response && response.status === 201) {
            const answer = await response.json();
            addEvents([{ ...answer.event, seq: answer.seq, words: answer.words || words }]);
            statusLine.dataset.keep = "true";
            say(`Recorded: ${words} (version ${answer.version}).`);
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
              showError(`Not recorded: another move was recorded first (the game is now at version ${now}). The page now shows it; tap again if your move is still to be made.`);
            } else {
              showError(`Not recorded: ${error.message}`);
            }
          }
          statusLine.dataset.keep = "true";
          say(`Not recorded: ${words}.`);
          await refresh();
          return false;
        }
      } finally {
        setBusy(false);
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
          options: [
            { label: "Yes: take it back, the game goes on", value: true },
            { label: "No, the game is over", value: false },
          ],
        });
        if (!sure) return;
      }
      record({ type: "retract" }, `undo of “${last}”`);
    });

    abandon.addEventListener("click", async () => {
      const sure = await pick({
        title: "Abandon this game?",
        note: "It ends here without a result: it counts in no statistics and no rating, and nothing more can be recorded. The moves stay in its record.",
        options: [
          { label: "Yes: abandon the game", value: true },
          { label: "No, go on recording", value: false },
        ],
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

    let stopFollowing = () => {};
    let finished = false;

    function setLive(mode) {
      liveNote.hidden = !mode;
      liveNote.dataset.mode = mode || "off";
    }

    let reopenWatch = null;

    async function finish() {
      if (finished) return;
      finished = true;
      stopFollowing();
      if (view.status !== "abandoned") {
        reopenWatch = setInterval(async () => {
          if (view.busy) return;
          try {
            const { body: game } = await getJSON(base);
            if (game.version > view.version) refresh();
          } catch (error) {
            console.warn("looking for a reopening failed:", error);
          }
        }, REOPEN_POLL_MS);
      }
      describeAgain(); // the game is over: every move may now be read whole
      try {
        const { body: game } = await getJSON(base);
        const badge = document.getElementById("game-status");
        badge.textContent = game.status;
        badge.className = `badge status-${game.status}`;
        if (game.result) {
          const result = document.getElementById("result");
          const names = game.result.winners.map((seat) => view.players[seat]);
          const scores = game.result.scores.map((score, seat) => `${view.players[seat]} ${score}`);
          result.textContent = `Result: ${game.result.draw ? "a draw" : `won by ${names.join(" and ")}`}; scores ${scores.join(", ")}.`;
          result.hidden = false;
        }
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
      const badge = document.getElementById("game-status");
      badge.textContent = "active";
      badge.className = "badge status-active";
      document.getElementById("result").hidden = true;
      follow();
    }

    function moveArrived() {
      if (view.busy) return; // the tap's own refresh follows
      refresh();
    }

    function follow() {
      if (view.status !== "active") return;
      stopFollowing = T.followGame(base, view.version + 1, {
        setLive,
        onMove: (event) => {
          try {
            if (!event || addEvents([event]) || event.seq > view.version) moveArrived();
          } catch (error) {
            moveArrived();
          }
        },
        onEnd: () => {
          if (!view.busy) refresh();
        },
        onPoll: async () => {
          try {
            const { body: game } = await getJSON(base);
            if (game.version > view.version && !view.busy) refresh();
          } catch (error) {
            console.warn("polling the game failed:", error);
          }
        },
      }, view.token);
    }

    standing();
    showRecent();
    setBusy(false);
    // Whose token first: the state, the moves offered and Undo all depend on it.
    identify().then(() => {
      showWho();
      setBusy(false);
      refresh();
      follow();
      if (view.token && view.status === "active" && view.moves.length) describeAgain();
    });
    T.recorder = { view, refresh, record };
  }

  if (document.readyState === "complete") start();
  else document.addEventListener("DOMContentLoaded", start);
})();
