/* Loading the game now and following it: the state and the legal moves at one version, drawn and
 * said (whose decision is awaited); moves recorded elsewhere (another phone, a seat's page) over
 * the stream; a game that is over shown with its result, and watched for its last move taken
 * back, when it goes on. */
import { sleep } from "../lib/client.js";
import { humanize } from "../lib/draw.js";
import { followGame, showLive, showResult } from "../lib/follow.js";

// A game that is over may have its last move taken back by the recorder (on another phone):
// its page looks this often, since the stream ends with the game.
const REOPEN_POLL_MS = 5000;

/** Loading and following the game on the recorder page ``rec`` (recorder/page.js's context): its functions,
 * to be assigned to ``rec``. */
export function followingOf(rec) {
  const { root, statusLine, versionText, liveNote, view, client, drawing } = rec;
  let loading = 0;
  let stopElsewhere = () => {};
  let finished = false;
  let reopenWatch = null;

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
        if (state.body.version > view.types.length) await rec.catchUp();
        if (ticket !== loading) return;
        apply(state.body, legal ? legal.body : { moves: [], ending: [], words: [], base_words: [], free: [] });
        return;
      } catch (error) {
        if (ticket !== loading) return;
        rec.showError(`Could not load the game: ${error.message}`);
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
      rec.drawNow(state);
      rec.showLegal(legal, state);
    }
    // A refresh that finds nothing new leaves what is said alone (the answer to the last tap).
    if (changed || statusLine.dataset.keep) sayWhatIsAwaited(state);
    delete statusLine.dataset.keep;
    root.dataset.ready = "true";
    if (view.status !== "active") whenOver();
    else if (finished) goOn();
  }

  /** A seat's page while another seat's decision is awaited: whose, and what it is. */
  function waiting(state) {
    if (!Number.isInteger(state.current_player)) return "Waiting for the next decision.";
    const what = state.pending && state.pending.kind ? ` (${humanize(state.pending.kind)})` : "";
    return `Waiting for ${rec.nameOf(state.current_player)}${what}: ${rec.nameOf(state.current_player)}'s decision is awaited.`;
  }

  /** The status line: what the page awaits (whose turn, the move to touch), after the answer to
   * the last tap where there was one. */
  function sayWhatIsAwaited(state) {
    // A seat with a free type (a score sheet's own points) may record at any time: no turn awaited.
    const mine = view.role !== "seat" || view.awaited === view.seat || view.free.length > 0;
    if (view.status === "abandoned") rec.say("The game was abandoned.");
    else if (view.status !== "active") rec.say("The game is over.");
    else if (view.refused) rec.say("This link is not this game's: the moves are shown, not recorded.");
    else if (!view.token) rec.say("This is the link for spectators: the moves are shown, not recorded.");
    else if (statusLine.dataset.keep) {
      // The answer to a tap stays; on a seat's page, followed by whose turn it now is.
      if (!mine) rec.say(`${statusLine.textContent} ${waiting(state)}`);
    } else if (!mine) rec.say(waiting(state));
    else if (drawing && drawing.words && drawing.words.awaited) rec.say(drawing.words.awaited(state, view.role, rec.nameOf(view.seat)));
    else if (view.role === "seat") rec.say(`Your turn, ${rec.nameOf(view.seat)}: touch the move you make.`);
    else rec.say(`Move ${state.version + 1}: touch the move that was made.`);
  }

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
    rec.rewordAll(); // the game is over: every move may now be read whole
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
          if (!event || rec.addRecorded([event]) || event.seq > view.version) moveArrived();
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

  return { refresh, apply, waiting, sayWhatIsAwaited, whenOver, goOn, moveArrived, followElsewhere };
}
