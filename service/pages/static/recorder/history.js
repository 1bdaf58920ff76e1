/* The recorder page's record of the game: which moves stand (a retraction voids the last standing
 * one), the latest moves listed under the board, the stored events added as they come (from an
 * append, the stream or GET /events), and the moves worded again as this page's token reads
 * them. */
import { catchingUp, inOrder } from "../lib/client.js";
import { element } from "../lib/draw.js";

const RECENT = 12;
const PAGE = 1000; // events asked for per GET /events, when the moves are worded again

/** The record of the recorder page ``rec`` (recorder/page.js's context): its functions,
 * to be assigned to ``rec``. */
export function historyOf(rec) {
  const { recent, view, client } = rec;
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

  /** Word again the moves listed so far, from GET /events as this page's token reads it: the
   * server rendered them for the public, and a token (or the game's end) may show more, such as
   * a seat's own cards dealt. */
  /** Fetch the events missed (GET /events from the last one held) and add them. */
  const catchUp = catchingUp(client, () => view.types.length, addRecorded);

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

  return { standing, showRecent, addRecorded, rewordAll, catchUp };
}
