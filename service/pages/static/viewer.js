/* Tabletape's replay viewer: stepping through a game, and following one being recorded.
 *
 * The page (templates/viewer.html) carries the game's header, players and move list; this script
 * fetches the state after move N from the API (GET /games/{id}/state?at=N) and hands it to the
 * game's drawing (<game>.js, a module of its package, imported by this one), which draws
 * it as SVG.
 *
 * A token comes from the address's fragment (#token=..., never sent to the server by the browser)
 * and goes on every fetch as "Authorization: Bearer". GET /games/{id} says whose it is (its
 * "viewer"): the recorder's shows everything, a seat's that player's own hand besides the public
 * information; without a token the public view. Once the game is over, everyone sees everything.
 * A token that is not one of the game's is refused (401): the page then shows the public view.
 *
 * The move list is rendered by the server for the public (the token stays in the fragment); with
 * a token, the moves are worded again from GET /events' words, which say what the token may see.
 * A long game's page carries only the moves around the one it opens at: the others are fetched
 * from GET /events, a hundred at a time, as the list is scrolled or the game stepped through, so
 * the page of a game of 5,000 moves is as light as one of 50 (the board comes from
 * GET /state?at=N either way).
 *
 * A game being recorded is followed live: an EventSource on /games/{id}/stream ("move" messages
 * carry the stored event and its version, "end" says the game is over); where the stream is not
 * to be had, GET /games/{id} every 2 seconds. A new move is drawn when the viewer was at the last.
 */
import { Client, catchingUp, gameOfPage, inOrder, pageData, reloadOnNewToken } from "./lib/client.js";
import { drawBoard, loadDrawing, seatName } from "./lib/draw.js";
import { followGame, showLive, showResult } from "./lib/follow.js";

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

async function openViewer() {
  const data = pageData("viewer-data");
  if (!data) return;
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
    ...gameOfPage(data),
    result: data.result,
    // The moves known so far, by number (1 is the first): {text, type, void}. The page
    // carries those around the move it opens at; the others are fetched as they are needed.
    moves: new Map(),
    at: data.at,
  };
  const client = new Client(view.id);
  // Whose eyes the page shows the game through (the client knows, from GET /games/{id}'s
  // "viewer"): "recorder", "seat" (with `seat`) or "public"; null until known; `refused` when
  // the fragment's token was not one of the game's.
  client.lendTo(view);
  const drawing = await loadDrawing(data.drawing);
  data.moves.forEach((line, index) => {
    view.moves.set(data.first + index, { text: line, type: data.types[index], void: Boolean(data.void[index]) });
  });
  // The moves the list shows: lo to hi (0 is the start), with a link to more at either end.
  let lo = data.first <= 1 ? 0 : data.first;
  let hi = data.first + data.moves.length - 1;
  const earlier = document.getElementById("earlier-moves");
  const later = document.getElementById("later-moves");
  reloadOnNewToken(client.token);
  let identified = Promise.resolve(); // whose token it is, known (client.identify)
  const states = new Map(); // at -> state: a state after move N never changes (but see showOver)
  let request = 0; // the latest step asked for: only its answer is drawn
  let shown = null; // the state drawn, and after which move
  let inFlight = null;

  /** Whether the states shown are whole: the recorder's, or anyone's once the game is over. */
  function seesAll() {
    return view.role === "recorder" || view.status !== "active";
  }

  function statusLine(at) {
    if (at === 0) return `move 0 of ${view.version}: the start`;
    const move = view.moves.get(at);
    // A move not fetched yet is worded once it is (see learn).
    if (!move) return `move ${at} of ${view.version}`;
    return `move ${at} of ${view.version}: ${move.text}${move.void ? " (voided)" : ""}`;
  }

  // The moves, fetched as they are needed -----------------------------------------------------
  const CHUNK = 100; // moves fetched at a time, and added to the list at a time
  const AROUND = 50; // moves listed either side of one jumped to (as the server does)
  const AHEAD = 30; // moves known ahead and behind the one shown, for stepping at once
  const loading = new Map(); // chunk number -> its fetch under way

  function chunkOf(seq) {
    return Math.floor((seq - 1) / CHUNK);
  }

  /** Fetch moves index * CHUNK + 1 to (index + 1) * CHUNK, as this page's token may read them. */
  function loadChunk(index) {
    let under = loading.get(index);
    if (!under) {
      under = (async () => {
        await identified; // never with a token the game refuses
        (await client.events(index * CHUNK + 1, CHUNK)).forEach(learn);
      })().finally(() => loading.delete(index));
      loading.set(index, under);
    }
    return under;
  }

  /** Know moves from to to (clipped to the game): those not known are fetched. */
  async function ensureMoves(from, to) {
    const wanted = new Set();
    for (let seq = Math.max(1, from); seq <= Math.min(view.version, to); seq += 1) {
      if (!view.moves.has(seq)) wanted.add(chunkOf(seq));
    }
    await Promise.all([...wanted].map(loadChunk));
  }

  /** A move as fetched: known from now on, worded (and struck through) in the list as fetched. */
  function learn(event) {
    if (!(event.seq >= 1 && event.seq <= view.version)) return; // a new one comes by listNewMoves
    const move = { text: String(event.words), type: event.type, void: Boolean(event.void) };
    const before = view.moves.get(event.seq);
    view.moves.set(event.seq, move);
    if (before && before.text === move.text && before.void === move.void) return;
    const item = moveList.querySelector(`li[data-at="${event.seq}"]`);
    if (item) wordItem(item, move);
    if (view.at === event.seq) status.textContent = statusLine(view.at);
  }

  function moveItem(seq) {
    const item = document.createElement("li");
    item.dataset.at = String(seq);
    const link = document.createElement("a");
    link.href = `?at=${seq}`;
    const number = document.createElement("span");
    number.className = "seq";
    number.textContent = String(seq);
    const words = document.createElement("span");
    words.className = "text";
    link.append(number, " ", words);
    item.append(link);
    if (seq === 0) words.textContent = "the start";
    else wordItem(item, view.moves.get(seq));
    return item;
  }

  function wordItem(item, move) {
    item.dataset.type = String(move.type);
    item.classList.toggle("void", move.void);
    item.querySelector(".text").textContent = move.text;
    const note = item.querySelector(".voided");
    if (move.void && !note) {
      const added = document.createElement("span");
      added.className = "voided";
      added.textContent = "(voided)";
      item.querySelector("a").append(" ", added);
    } else if (!move.void && note) {
      note.remove();
    }
  }

  /** The links to the moves before and after those listed (plain links to ?at= without this
   * script, which loads the moves into the list instead). */
  function showMore() {
    earlier.hidden = lo <= 0;
    if (lo > 0) {
      earlier.firstElementChild.href = `?at=${lo - 1}`;
      earlier.firstElementChild.textContent = `Earlier moves (0 to ${lo - 1})`;
    }
    later.hidden = hi >= view.version;
    if (hi < view.version) {
      later.firstElementChild.href = `?at=${hi + 1}`;
      later.firstElementChild.textContent = `Later moves (${hi + 1} to ${view.version})`;
    }
  }

  // What changes the list is done in turn, each step on the list as the last left it.
  let listWork = Promise.resolve();
  function inTurn(task) {
    listWork = listWork.then(task).catch((error) => console.warn("could not list the moves:", error));
    return listWork;
  }

  /** List moves from to to (0 is the start), once known: a range that meets the one listed
   * extends it (the moves in sight stay in sight), another replaces it. */
  async function listMoves(from, to) {
    from = Math.max(0, from);
    to = Math.min(view.version, to);
    await ensureMoves(from, to);
    if (to < lo - 1 || from > hi + 1) {
      moveList.replaceChildren();
      lo = from;
      hi = from - 1;
    }
    if (from < lo) {
      const added = document.createDocumentFragment();
      for (let seq = from; seq < lo; seq += 1) added.append(moveItem(seq));
      const height = moveList.scrollHeight;
      moveList.prepend(added);
      moveList.scrollTop += moveList.scrollHeight - height;
      lo = from;
    }
    if (to > hi) {
      const added = document.createDocumentFragment();
      for (let seq = hi + 1; seq <= to; seq += 1) added.append(moveItem(seq));
      moveList.append(added);
      hi = to;
    }
    showMore();
    markCurrent(view.at);
  }

  /** Bring the move shown into the list: the list grows to it when it is near, else lists the
   * moves around it. Asked again while at work, it places the latest move shown. */
  let placing = false;
  function placeInList() {
    if (placing) return;
    placing = true;
    inTurn(async () => {
      placing = false;
      const at = view.at;
      if (at >= lo && at <= hi) markCurrent(at);
      else if (at >= lo - CHUNK && at <= hi + CHUNK) await listMoves(Math.min(lo, at - 10), Math.max(hi, at + 10));
      else await listMoves(at - AROUND, at + AROUND);
    });
  }

  // Scrolled near either end, the list loads the moves beyond it.
  let scrolling = false;
  moveList.addEventListener("scroll", () => {
    if (scrolling) return;
    scrolling = true;
    inTurn(async () => {
      scrolling = false;
      const margin = moveList.clientHeight;
      if (lo > 0 && moveList.scrollTop < margin) await listMoves(lo - CHUNK, hi);
      else if (hi < view.version && moveList.scrollTop + 2 * margin > moveList.scrollHeight) {
        await listMoves(lo, hi + CHUNK);
      }
    });
  }, { passive: true });

  for (const [more, extend] of [[earlier, () => listMoves(lo - CHUNK, hi)], [later, () => listMoves(lo, hi + CHUNK)]]) {
    more.firstElementChild.addEventListener("click", (event) => {
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      inTurn(extend);
    });
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
      access.textContent = "Recorder's view: this link shows every hidden card.";
    } else if (view.role === "seat") {
      access.textContent = `Seat view: ${seatName(view.seat, view.players)}'s hand shown, the others hidden.`;
    } else if (view.refused) {
      access.textContent = "This link is not this game's: public view, hidden cards stay hidden.";
    } else if (view.token) {
      access.textContent = "Could not check this link: the board shows what the service allows it.";
    } else {
      access.textContent = "Public view: hidden cards stay hidden. A player's own link shows that player's hand; the recorder's shows them all.";
    }
  }

  function drawAt(state, at) {
    const frame = { id: view.id, players: view.players, colours: view.colours, cards: view.cards, at, version: view.version, status: view.status };
    drawBoard(board, drawing, state, frame, `${view.game}: move ${at}`);
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
    placeInList();
    ensureMoves(at - AHEAD, at + AHEAD).catch((error) => console.warn("could not fetch the moves:", error));
    const ticket = ++request;
    let state = states.get(at);
    if (state === undefined) {
      if (inFlight) inFlight.abort();
      const controller = (inFlight = new AbortController());
      try {
        state = (await client.read(`/state?at=${at}`, controller.signal)).body;
      } catch (error) {
        if (error.name === "AbortError") return;
        if (ticket === request) status.textContent = `move ${at}: could not load the state (${error.message})`;
        return;
      } finally {
        if (inFlight === controller) inFlight = null;
      }
      states.set(at, state);
    }
    if (ticket === request) drawAt(state, at);
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
  let stopLive = () => {};

  /** A retraction voids the latest move still standing before it (the rule of
   * domain/corrections.py, which depends on the types of the events alone): walking back from
   * it, each retraction met stands for one more move voided. Moves not known are fetched. */
  async function voidRetracted(retractions) {
    try {
      for (const retraction of retractions) {
        let owed = 1;
        for (let seq = retraction - 1; seq >= 1 && owed > 0; seq -= 1) {
          if (!view.moves.has(seq)) await ensureMoves(seq - CHUNK + 1, seq);
          const move = view.moves.get(seq);
          if (!move) return;
          if (move.type === "retract") owed += 1;
          else if ((owed -= 1) === 0 && !move.void) {
            move.void = true;
            const item = moveList.querySelector(`li[data-at="${seq}"]`);
            if (item) wordItem(item, move);
            if (view.at === seq) status.textContent = statusLine(seq);
          }
        }
      }
    } catch (error) {
      console.warn("could not tell which move was voided:", error);
    }
  }

  /** Add the events that follow the last one known; a gap is filled from GET /events. */
  function listNewMoves(events) {
    const following = view.at === view.version;
    const listedToTheEnd = hi === view.version;
    const retractions = [];
    const added = inOrder(events, () => view.version, (event) => {
      view.moves.set(event.seq, { text: String(event.words), type: event.type, void: Boolean(event.void) });
      view.version = event.seq;
      if (listedToTheEnd) {
        moveList.append(moveItem(event.seq));
        hi = event.seq;
      }
      if (event.type === "retract") retractions.push(event.seq);
    }, catchUp);
    if (!added) return;
    showMore();
    if (retractions.length) voidRetracted(retractions);
    if (following) go(view.version);
    else updateControls();
  }

  const catchUp = catchingUp(client, () => view.version, listNewMoves);

  /** Word again the moves known so far, from GET /events as this page may read it: the server
   * rendered the public list, and a token (or the game's end) may show more, such as a seat's
   * own cards. Only the moves that now read differently change. */
  async function rewordKnown() {
    const chunks = [...new Set([...view.moves.keys()].map(chunkOf))].sort((a, b) => a - b);
    try {
      for (const index of chunks) await loadChunk(index);
    } catch (error) {
      console.warn("could not fetch the moves:", error);
    }
  }

  /** The game is over: every state and move may now be shown whole, so the cache starts again
   * and the moves are worded again. */
  async function showOver() {
    stopLive();
    try {
      await catchUp();
      const { body: game } = await client.read("");
      view.status = game.status;
      view.result = game.result;
      showResult(game, view.players);
      states.clear();
      go(view.at, { initial: true });
      await rewordKnown();
    } catch (error) {
      console.warn("could not read the finished game:", error);
    }
  }

  /** Follow the game while it is recorded: new moves are listed, and drawn when the page
   * was at the last. */
  function followLive() {
    if (view.status !== "active") return;
    stopLive = followGame(client, view.version + 1, {
      setLive: (mode) => {
        showLive(liveNote, mode);
        liveNote.lastElementChild.textContent = mode === "polling"
          ? "Live: checking for new moves every 2 seconds."
          : "Live: new moves appear as they are recorded.";
      },
      onOpen: () => catchUp(), // whatever was recorded between the page and the stream
      onMove: (event) => (event ? listNewMoves([event]) : catchUp()),
      onEnd: () => showOver(),
      onGame: async (game) => {
        if (game.version > view.version) await catchUp();
        if (game.status !== "active") showOver();
      },
    });
  }

  // A change of width may call for the other layout.
  let resizeTimer = null;
  let lastWidth = board.parentElement.clientWidth;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      const width = board.parentElement.clientWidth;
      if (shown && width !== lastWidth && shown.at === view.at) drawAt(shown.state, shown.at);
      lastWidth = width;
    }, 150);
  });

  updateControls();
  // Whose token first: a refused one would make every request below fail.
  identified = client.identify({ onError: (error) => console.warn("could not tell whose token this is:", error) });
  identified.then(() => {
    go(view.at, { initial: true });
    followLive();
    if (view.token && view.status === "active") rewordKnown();
    checkCommitment(data, document.getElementById("commitment"));
  });
  // For tests and tools (bench/viewer_page.py steps with go).
  window.Tabletape = Object.assign(window.Tabletape || {}, { viewer: { view, go, states } });
}

// A module runs once the page is parsed.
openViewer();
