/* Tabletape's replay viewer: stepping through a game, and following one being recorded.
 *
 * The page (templates/viewer.html) carries the game's header, players and move list; this script
 * fetches the state after move N from the API (GET /games/{id}/state?at=N) and hands it to the
 * game's renderer (<game>.js from its package, registered in Tabletape.renderers), which draws
 * it as SVG.
 *
 * A token comes from the address's fragment (#token=..., never sent to the server by the browser)
 * and goes on every fetch as "Authorization: Bearer". GET /games/{id} says whose it is (its
 * "viewer"): the recorder's shows everything, a seat's that player's own hand besides the public
 * information; without a token the public view. Once the game is over, everyone sees everything.
 * A token that is not one of the game's is refused (401): the page then shows the public view.
 *
 * The move list is rendered by the server for the public (the token stays in the fragment); with
 * a token, the moves are worded again from GET /events, which then shows what the token may see.
 *
 * A game being recorded is followed live: an EventSource on /games/{id}/stream ("move" messages
 * carry the stored event and its version, "end" says the game is over); where the stream is not
 * to be had, GET /games/{id} every 2 seconds. A new move is drawn when the viewer was at the last.
 */
"use strict";

(function () {
  const SVG_NS = "http://www.w3.org/2000/svg";
  const PAGE = 1000; // events asked for per GET /events
  const Tabletape = (window.Tabletape = window.Tabletape || {});
  Tabletape.renderers = Tabletape.renderers || {};

  // Helpers for the renderers ---------------------------------------------------------------------

  /** An SVG element: svg("rect", {x: 1, class: "card"}, child, "text", ...). Null or false
   * attributes are left out; strings become text. */
  function svg(tag, attributes, ...children) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      node.setAttribute(name, String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
    }
    return node;
  }

  function text(x, y, content, attributes) {
    return svg("text", { x, y, ...(attributes || {}) }, String(content));
  }

  /** A tooltip for the element, read by pointer users (screen readers get the board's desc). */
  function titled(node, title) {
    node.prepend(svg("title", {}, title));
    return node;
  }

  function plural(count, noun, many) {
    return `${count} ${count === 1 ? noun : many || noun + "s"}`;
  }

  function humanize(id) {
    return String(id).replace(/_/g, " ");
  }

  Tabletape.svg = svg;
  Tabletape.text = text;
  Tabletape.titled = titled;
  Tabletape.plural = plural;
  Tabletape.humanize = humanize;

  // Describing a move: the same words as domain/words.py's describe_fields(), unless the game's
  // drawing says its moves in words of its own (its renderer's describe, as its Game.describe).

  const NOT_DESCRIBED = new Set(["seq", "type", "player", "at", "hash", "version", "void"]);
  const SEAT_FIELDS = new Set(["target"]);

  function shownValue(value) {
    if (value === null || value === undefined) return "none";
    if (typeof value === "boolean") return value ? "yes" : "no";
    if (Array.isArray(value)) return "[" + value.map(shownValue).join(", ") + "]";
    if (typeof value === "object") {
      return "{" + Object.entries(value).map(([k, v]) => `${k}: ${shownValue(v)}`).join(", ") + "}";
    }
    if (typeof value === "string") return value.replace(/_/g, " ");
    return String(value);
  }

  function seatName(seat, players) {
    if (Number.isInteger(seat) && seat >= 0 && seat < players.length) return players[seat];
    return seat === null || seat === undefined ? "" : shownValue(seat);
  }

  // Corrections in words, the same for every game (domain/corrections.py's CORRECTION_WORDS).
  const CORRECTION_WORDS = { retract: "the last move taken back", abandon: "the game abandoned" };

  function describe(event, players, game) {
    if (Object.hasOwn(CORRECTION_WORDS, event.type)) return CORRECTION_WORDS[event.type];
    const renderer = game && Tabletape.renderers[game];
    if (renderer && renderer.describe) return renderer.describe(event, players);
    const who = seatName(event.player, players);
    const kind = String(event.type === undefined ? "?" : event.type);
    const parts = [];
    const at = event.x !== null && event.x !== undefined && event.y !== null && event.y !== undefined;
    if (at) parts.push(`at (${shownValue(event.x)}, ${shownValue(event.y)})`);
    for (const [name, value] of Object.entries(event)) {
      if (NOT_DESCRIBED.has(name) || value === null || (Array.isArray(value) && !value.length)) continue;
      if (at && (name === "x" || name === "y")) continue;
      const shown = SEAT_FIELDS.has(name) ? seatName(value, players) : shownValue(value);
      const label = kind.endsWith(`_${name}`) ? "" : `${name.replace(/_/g, " ")} `;
      parts.push(`${label}${shown}`);
    }
    let line = kind.replace(/_/g, " ");
    if (parts.length) line += " " + parts.join(", ");
    return who ? `${who}: ${line}` : line;
  }

  Tabletape.describe = describe;

  // The viewer ------------------------------------------------------------------------------------

  /** The page's token (the recorder's or a seat's): only ever in the URL's fragment, which the
   * browser never sends. */
  function tokenFromFragment() {
    const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ""));
    return fragment.get("token") || null;
  }

  /** Follow a game being recorded: its event stream from move `fromSeq`, or, where no stream is to
   * be had (no EventSource, a 404, three failed connections in a row), a poll every 2 seconds.
   * hooks: onMove(event, or null for a message to fetch yourself), onOpen(), onEnd(), onPoll(),
   * and setLive("stream" | "polling" | null). Returns the function that stops following.
   *
   * An EventSource cannot send the Authorization header, so the stream is always the public one.
   * With a `token`, its events may say less than the token may see (another seat's draw is hidden
   * from the public, not from the recorder): each "move" message is then only a notice, handed to
   * onMove as null, and the page fetches GET /events with its token. */
  function followGame(base, fromSeq, hooks, token) {
    let source = null;
    let pollTimer = null;
    let failures = 0;
    function poll() {
      if (pollTimer) return;
      hooks.setLive("polling");
      pollTimer = setInterval(hooks.onPoll, 2000);
    }
    function stop() {
      if (source) source.close();
      if (pollTimer) clearInterval(pollTimer);
      source = null;
      pollTimer = null;
      hooks.setLive(null);
    }
    if (!("EventSource" in window)) {
      poll();
      return stop;
    }
    // On a reconnection, the browser's Last-Event-ID says where the stream stopped.
    source = new EventSource(`${base}/stream?from=${fromSeq}`);
    hooks.setLive("stream");
    source.addEventListener("open", () => {
      failures = 0;
      if (hooks.onOpen) hooks.onOpen();
    });
    source.addEventListener("move", (message) => {
      failures = 0;
      let event = null;
      if (!token) {
        try {
          event = JSON.parse(message.data);
        } catch (error) {
          console.warn("a stream message that is not an event:", error);
        }
      }
      hooks.onMove(event);
    });
    source.addEventListener("end", () => hooks.onEnd());
    source.addEventListener("error", () => {
      failures += 1;
      // Closed: no stream here (a 404, or not an event stream). Retrying over and over: the
      // stream is not to be had now. Either way, polling takes over.
      if (source && (source.readyState === EventSource.CLOSED || failures >= 3)) {
        source.close();
        source = null;
        poll();
      }
    });
    return stop;
  }

  /** Another token in the fragment (a link pasted into the tab already open) loads no page: the
   * browser only moves within it. So the page starts again, as the new token's holder sees it. */
  function reloadOnNewToken(token) {
    window.addEventListener("hashchange", () => {
      if (tokenFromFragment() !== token) window.location.reload();
    });
  }

  Tabletape.tokenFromFragment = tokenFromFragment;
  Tabletape.reloadOnNewToken = reloadOnNewToken;
  Tabletape.followGame = followGame;

  /** Check the seed commitment again in this browser, where crypto.subtle is to be had: SHA-256
   * of the canonical JSON {"salt": "<salt>", "seed": <seed>}, as service/store/chain.py makes it. The
   * page's data carries the seed as a string of digits (once the game is over): a JS Number
   * would round a seed above 2**53, so the digits go into the JSON text as they are. */
  async function checkCommitment(data, paragraph) {
    const seed = data.seed;
    if (!paragraph || typeof seed !== "string" || !/^\d+$/.test(seed)) return;
    if (typeof data.seed_salt !== "string" || typeof data.seed_commitment !== "string") return;
    if (!(window.crypto && window.crypto.subtle)) return;
    const canonical = `{"salt":${JSON.stringify(data.seed_salt)},"seed":${seed}}`;
    try {
      const digest = await window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical));
      const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
      const matches = hex === data.seed_commitment.toLowerCase();
      const note = document.createElement("span");
      note.className = matches ? "checked" : "error";
      note.textContent = matches
        ? " Checked again in this browser: it matches."
        : ` Checked again in this browser: it does NOT match (${hex}).`;
      paragraph.append(note);
      paragraph.dataset.browserCheck = matches ? "pass" : "fail";
    } catch (error) {
      console.warn("could not check the commitment here:", error);
    }
  }

  function start() {
    const dataNode = document.getElementById("viewer-data");
    if (!dataNode) return;
    const data = JSON.parse(dataNode.textContent);
    const board = document.getElementById("board");
    const slider = document.getElementById("slider");
    const position = document.getElementById("position");
    const status = document.getElementById("status");
    const moveList = document.getElementById("moves");
    const liveNote = document.getElementById("live");
    const access = document.getElementById("access");
    const buttons = {
      first: document.getElementById("first"),
      prev: document.getElementById("prev"),
      next: document.getElementById("next"),
      last: document.getElementById("last"),
    };

    const view = {
      id: data.id,
      game: data.game,
      players: data.players,
      colours: data.colours,
      cards: data.cards || {},
      version: data.version,
      status: data.status,
      result: data.result,
      moves: data.moves.slice(),
      types: (data.types || []).slice(),
      void: (data.void || []).slice(),
      at: data.at,
      token: tokenFromFragment(),
      // Whose eyes the page shows the game through (GET /games/{id}'s "viewer"): "recorder",
      // "seat" (with `seat`) or "public"; null until known.
      role: null,
      seat: null,
      refused: false, // the fragment's token was not one of the game's
    };
    const base = `/games/${encodeURIComponent(view.id)}`;
    reloadOnNewToken(view.token);
    const states = new Map(); // at -> state: a state after move N never changes (but see finish)
    let request = 0; // the latest step asked for: only its answer is drawn
    let shown = null; // the state drawn, and after which move
    let inFlight = null;

    function headers() {
      return view.token ? { Authorization: `Bearer ${view.token}` } : {};
    }

    async function getJSON(path, signal) {
      const response = await fetch(path, { headers: headers(), signal, cache: "no-store" });
      if (!response.ok) {
        let message = `${response.status} ${response.statusText}`;
        try {
          message = (await response.json()).error.message || message;
        } catch (ignored) {
          /* not the API's error body */
        }
        const error = new Error(message);
        error.status = response.status;
        throw error;
      }
      return response.json();
    }

    /** Learn whose token the page holds. Every request with a token that is not the game's is
     * refused (401), so such a token is dropped, and the page goes on as the public. */
    async function identify() {
      if (!view.token) {
        view.role = "public";
        return;
      }
      try {
        const game = await getJSON(base);
        view.role = game.viewer.role;
        view.seat = game.viewer.seat;
      } catch (error) {
        if (error.status !== 401) {
          console.warn("could not tell whose token this is:", error);
          return; // role unknown: the token still goes out, and the API answers for it
        }
        view.token = null;
        view.refused = true;
        view.role = "public";
      }
    }

    /** Whether the states shown are whole: the recorder's, or anyone's once the game is over. */
    function seesAll() {
      return view.role === "recorder" || view.status !== "active";
    }

    function statusLine(at) {
      const what = at === 0 ? "the start" : view.moves[at - 1] + (view.void[at - 1] ? " (voided)" : "");
      return `move ${at} of ${view.version}: ${what}`;
    }

    function keepAddress(at) {
      // At the last move of a game being recorded the address carries no ?at, so that a reload
      // or a shared link follows the game; anywhere else it names the move shown.
      const url = new URL(window.location.href);
      if (view.status === "active" && at === view.version) url.searchParams.delete("at");
      else url.searchParams.set("at", String(at));
      if (url.href !== window.location.href) window.history.replaceState(null, "", url);
    }

    function markCurrent(at) {
      const previous = moveList.querySelector("a[aria-current]");
      if (previous) previous.removeAttribute("aria-current");
      const item = moveList.querySelector(`li[data-at="${at}"]`);
      if (!item) return;
      const link = item.querySelector("a");
      link.setAttribute("aria-current", "step");
      // Scroll the list, never the page: on a phone the list is below the board.
      const top = item.offsetTop;
      const bottom = top + item.offsetHeight;
      if (top < moveList.scrollTop) moveList.scrollTop = top;
      else if (bottom > moveList.scrollTop + moveList.clientHeight) {
        moveList.scrollTop = bottom - moveList.clientHeight;
      }
    }

    function updateControls() {
      const at = view.at;
      slider.max = String(view.version);
      slider.value = String(at);
      slider.setAttribute("aria-valuetext", `move ${at} of ${view.version}`);
      position.textContent = `${at} / ${view.version}`;
      buttons.first.disabled = buttons.prev.disabled = at === 0;
      buttons.next.disabled = buttons.last.disabled = at === view.version;
      status.textContent = statusLine(at);
      markCurrent(at);
    }

    function showAccess() {
      const active = view.status === "active";
      access.classList.toggle("full", active && (view.role === "recorder" || view.role === "seat"));
      if (!active) {
        access.textContent = "The game is over: everything is shown.";
      } else if (view.role === "recorder") {
        access.textContent = "Recorder's view: the token in this link shows every hidden card.";
      } else if (view.role === "seat") {
        access.textContent = `Seat view: ${seatName(view.seat, view.players)}'s hand shown, the others hidden.`;
      } else if (view.refused) {
        access.textContent = "The token in this link is not this game's: public view, hidden cards stay hidden.";
      } else if (view.token) {
        access.textContent = "Could not check this link's token: the board shows what the service allows it.";
      } else {
        access.textContent = "Public view: hidden cards stay hidden. A player's link (ending in #token=…) shows that player's hand; the recorder's shows them all.";
      }
    }

    function draw(state, at) {
      board.replaceChildren();
      let drawn = { title: `${view.game}: move ${at}`, description: "" };
      // Looked up here: the game's script may run after this one.
      const renderer = Tabletape.renderers[view.game];
      if (renderer) {
        try {
          drawn = renderer.draw(board, state, {
            players: view.players,
            colours: view.colours,
            cards: view.cards,
            at,
            version: view.version,
            status: view.status,
            // A phone's width: renderers may lay the board out taller and narrower.
            narrow: board.parentElement.clientWidth < 560,
            svg,
            text,
          }) || drawn;
        } catch (error) {
          board.replaceChildren(text(20, 40, `Cannot draw this state: ${error.message}`, { class: "label" }));
          console.error(error);
        }
      }
      board.prepend(
        svg("title", { id: "board-title" }, drawn.title),
        svg("desc", { id: "board-desc" }, drawn.description)
      );
      shown = { state, at };
      board.dataset.at = String(at);
      board.dataset.version = String(view.version);
      board.dataset.full = String(seesAll());
      board.dataset.viewer = view.role || "unknown";
      showAccess();
    }

    /** Show the state after move ``at``: at once from the cache, else once fetched. */
    async function go(at, options) {
      const settings = options || {};
      at = Math.max(0, Math.min(view.version, Math.trunc(Number(at)) || 0));
      view.at = at;
      updateControls();
      if (!settings.initial) keepAddress(at);
      const ticket = ++request;
      let state = states.get(at);
      if (state === undefined) {
        if (inFlight) inFlight.abort();
        const controller = (inFlight = new AbortController());
        try {
          state = await getJSON(`${base}/state?at=${at}`, controller.signal);
        } catch (error) {
          if (error.name === "AbortError") return;
          if (ticket === request) status.textContent = `move ${at}: could not load the state (${error.message})`;
          return;
        } finally {
          if (inFlight === controller) inFlight = null;
        }
        states.set(at, state);
      }
      if (ticket === request) draw(state, at);
    }

    // Stepping ---------------------------------------------------------------------------------
    buttons.first.addEventListener("click", () => go(0));
    buttons.prev.addEventListener("click", () => go(view.at - 1));
    buttons.next.addEventListener("click", () => go(view.at + 1));
    buttons.last.addEventListener("click", () => go(view.version));
    slider.addEventListener("input", () => go(Number(slider.value)));

    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      const target = event.target;
      // The slider steps by itself (its input event); text fields keep their keys.
      if (target instanceof HTMLElement && target.closest("input, textarea, select, [contenteditable]")) return;
      const moves = { ArrowLeft: view.at - 1, ArrowRight: view.at + 1, Home: 0, End: view.version };
      if (!(event.key in moves)) return;
      event.preventDefault();
      go(moves[event.key]);
    });

    moveList.addEventListener("click", (event) => {
      const link = event.target instanceof Element ? event.target.closest("a") : null;
      if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      const item = link.closest("li[data-at]");
      if (!item) return;
      event.preventDefault();
      go(Number(item.dataset.at));
    });

    // Following a game being recorded ----------------------------------------------------------
    let catching = null;
    let stopFollowing = () => {};

    /** Which moves are void: a retraction voids the latest move still standing (the rule of
     * domain/corrections.py, which depends on the types of the events alone). */
    function markVoided() {
      const standing = [];
      const voided = view.types.map(() => false);
      view.types.forEach((type, index) => {
        if (type !== "retract") standing.push(index);
        else if (standing.length) voided[standing.pop()] = true;
      });
      view.void = voided;
      view.void.forEach((isVoid, index) => {
        const item = moveList.querySelector(`li[data-at="${index + 1}"]`);
        if (!isVoid || !item || item.classList.contains("void")) return;
        item.classList.add("void");
        const note = document.createElement("span");
        note.className = "voided";
        note.textContent = "(voided)";
        item.querySelector("a").append(" ", note);
      });
    }

    function addMoveItem(seq, line, type) {
      const item = document.createElement("li");
      item.dataset.at = String(seq);
      item.dataset.type = String(type);
      const link = document.createElement("a");
      link.href = `?at=${seq}`;
      const number = document.createElement("span");
      number.className = "seq";
      number.textContent = String(seq);
      const words = document.createElement("span");
      words.className = "text";
      words.textContent = line;
      link.append(number, " ", words);
      item.append(link);
      moveList.append(item);
    }

    /** Add the events that follow the last one known; a gap is filled from GET /events. */
    function addEvents(events) {
      const following = view.at === view.version;
      let added = false;
      for (const event of events) {
        if (event.seq <= view.version) continue;
        if (event.seq !== view.version + 1) {
          catchUp();
          break;
        }
        const line = describe(event, view.players, view.game);
        view.moves.push(line);
        view.types.push(event.type);
        view.void.push(Boolean(event.void));
        view.version = event.seq;
        addMoveItem(event.seq, line, event.type);
        added = true;
      }
      if (!added) return;
      markVoided();
      if (following) go(view.version);
      else updateControls();
    }

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
              const body = await getJSON(`${base}/events?from=${view.version + 1}&limit=${PAGE}`);
              addEvents(body.events);
              if (body.events.length < PAGE) break;
            }
          } while (catchAgain);
        } catch (error) {
          console.warn("could not fetch the new moves:", error);
        } finally {
          catching = null;
        }
      })();
      return catching;
    }

    /** Word again the moves listed so far, from GET /events as this page may read it: the server
     * rendered the public list, and a token (or the game's end) may show more, such as a seat's
     * own cards. Only the moves that now read differently change. */
    async function describeAgain() {
      try {
        for (let from = 1; from <= view.moves.length; from += PAGE) {
          const body = await getJSON(`${base}/events?from=${from}&limit=${PAGE}`);
          body.events.forEach(relabel);
          if (body.events.length < PAGE) break;
        }
      } catch (error) {
        console.warn("could not fetch the moves:", error);
      }
    }

    function relabel(event) {
      const index = event.seq - 1;
      if (!(index >= 0 && index < view.moves.length)) return;
      const line = describe(event, view.players, view.game);
      if (line === view.moves[index]) return;
      view.moves[index] = line;
      const words = moveList.querySelector(`li[data-at="${event.seq}"] .text`);
      if (words) words.textContent = line;
      if (view.at === event.seq) status.textContent = statusLine(view.at);
    }

    function setLive(mode) {
      liveNote.hidden = !mode;
      liveNote.classList.toggle("polling", mode === "polling");
      liveNote.dataset.mode = mode || "off";
      liveNote.lastElementChild.textContent = mode === "polling"
        ? "Live: checking for new moves every 2 seconds."
        : "Live: new moves appear as they are recorded.";
    }

    function showResult(game) {
      const badge = document.getElementById("game-status");
      badge.textContent = game.status;
      badge.className = `badge status-${game.status}`;
      const result = document.getElementById("result");
      if (!game.result) return;
      const names = game.result.winners.map((seat) => view.players[seat]);
      const scores = game.result.scores.map((score, seat) => `${view.players[seat]} ${score}`);
      const outcome = game.result.draw ? "a draw" : `won by ${names.join(" and ")}`;
      result.textContent = `Result: ${outcome}; scores ${scores.join(", ")}.`;
      result.hidden = false;
      for (const item of document.querySelectorAll(".players li[data-seat]")) {
        item.classList.toggle("winner", game.result.winners.includes(Number(item.dataset.seat)));
      }
    }

    /** The game is over: every state and move may now be shown whole, so the cache starts again
     * and the moves are worded again. */
    async function finish() {
      stopFollowing();
      try {
        await catchUp();
        const game = await getJSON(base);
        view.status = game.status;
        view.result = game.result;
        showResult(game);
        states.clear();
        go(view.at, { initial: true });
        await describeAgain();
      } catch (error) {
        console.warn("could not read the finished game:", error);
      }
    }

    function follow() {
      if (view.status !== "active") return;
      stopFollowing = followGame(base, view.version + 1, {
        setLive,
        onOpen: () => catchUp(), // whatever was recorded between the page and the stream
        onMove: (event) => (event ? addEvents([event]) : catchUp()),
        onEnd: () => finish(),
        onPoll: async () => {
          try {
            const game = await getJSON(base);
            if (game.version > view.version) await catchUp();
            if (game.status !== "active") finish();
          } catch (error) {
            console.warn("polling the game failed:", error);
          }
        },
      }, view.token);
    }

    // A change of width may call for the other layout.
    let resizeTimer = null;
    let lastWidth = board.parentElement.clientWidth;
    window.addEventListener("resize", () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(() => {
        const width = board.parentElement.clientWidth;
        if (shown && width !== lastWidth && shown.at === view.at) draw(shown.state, shown.at);
        lastWidth = width;
      }, 150);
    });

    updateControls();
    // Whose token first: a refused one would make every request below fail.
    identify().then(() => {
      go(view.at, { initial: true });
      follow();
      if (view.token && view.status === "active") describeAgain();
      checkCommitment(data, document.getElementById("commitment"));
    });
    Tabletape.viewer = { view, go, states };
  }

  // Deferred scripts run before DOMContentLoaded: by then the game's renderer is registered.
  if (document.readyState === "complete") start();
  else document.addEventListener("DOMContentLoaded", start);
})();
