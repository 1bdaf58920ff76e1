/* Sending a move: one tap, one append with "If-Match" and an Idempotency-Key made for that tap,
 * retried with the same key on a network failure, a timeout or a 429/502/503/504 (so a lost answer
 * never appends twice); a move that ends the game asked first; a 409 said and the page refreshed;
 * the one move the rules leave after a touch sent with it; Undo and Abandon, asked first. */
import { errorOf, sleep } from "../lib/client.js";

const RETRIES = 6;
const TIMEOUT_MS = 10000;

function newKey() {
  if (window.crypto && typeof window.crypto.randomUUID === "function") return window.crypto.randomUUID();
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Sending the moves of the recorder page ``rec`` (recorder/page.js's context): its functions,
 * to be assigned to ``rec``. */
export function sendingOf(rec) {
  const { statusLine, undo, abandon, view, client } = rec;
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
    const words = what || rec.wordsOf(body);
    if (rec.endsTheGame(body)) {
      const result = options.result ? `${options.result} ` : "";
      const sure = await rec.pick({
        title: "This move ends the game",
        note: `${result}Record “${words}” and end the game?`,
        options: [{ label: "Yes: record it and end the game", value: true }],
        cancel: "No, not yet",
      });
      if (!sure) {
        rec.focusNext();
        return false;
      }
    }
    rec.showError("");
    rec.setBusy(true);
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
        rec.say(`Recorded ${view.said.join("; then ")}.`);
        statusLine.dataset.keep = "true";
      }
      return recorded;
    } finally {
      rec.setBusy(false);
    }
  }

  /** The one move left, recorded with the touch that was being recorded (see record): only while
   * a touch of this page is being recorded, never on its own. */
  function follow(body) {
    if (!view.busy) return false;
    view.follow = { version: view.version, body, words: rec.wordsOf(body) };
    return true;
  }

  /** One append, retried with its key; whether it was recorded. */
  async function appendOnce(body, words) {
    const key = newKey();
    const expected = view.version;
    rec.say(`Recording ${words}…`);
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
          rec.addRecorded([{ ...answer.event, seq: answer.seq, words: answer.words || words }]);
          statusLine.dataset.keep = "true";
          rec.say(`Recorded move ${answer.version}: ${answer.words || words}.`);
          view.said.push(`move ${answer.version}: ${answer.words || words}`);
          view.version = answer.version;
          await rec.refresh();
          rec.focusNext();
          return true;
        }
        const transient = !response || [429, 502, 503, 504].includes(response.status);
        if (transient && attempt < RETRIES) {
          rec.say(`No answer from the service yet; trying again (${attempt} of ${RETRIES - 1}). The move is recorded once, however many tries.`);
          await sleep(Math.min(400 * 2 ** (attempt - 1), 4000));
          continue;
        }
        if (!response) {
          rec.showError("The service cannot be reached. The move may not have been recorded: the page shows the game as the service last had it. Try again when the connection is back.");
        } else {
          const error = await errorOf(response);
          if (error.code === "version_conflict") {
            const now = error.details && error.details.current_version;
            rec.showError(`Not recorded: another move was recorded first (the game now has ${now} moves). The page now shows it; tap again if your move is still to be made.`);
          } else {
            rec.showError(`Not recorded: ${error.message}`);
          }
        }
        statusLine.dataset.keep = "true";
        rec.say(`Not recorded: ${words}.`);
        await rec.refresh();
        return false;
      }
    }
  }

  undo.addEventListener("click", async () => {
    const stack = rec.standing();
    if (!stack.length) return;
    const last = view.moves[stack[stack.length - 1]];
    if (view.status !== "active") {
      const sure = await rec.pick({
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
    const sure = await rec.pick({
      title: "Abandon this game?",
      note: "It ends here without a result: it counts in no statistics and no rating, and nothing more can be recorded. The moves stay in its record.",
      options: [{ label: "Yes: abandon the game", value: true }],
      cancel: "No, go on recording",
    });
    if (sure) record({ type: "abandon" }, "the game abandoned");
  });

  return { post, record, follow, appendOnce };
}
