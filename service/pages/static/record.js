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
 *
 * The page's concerns, one module each (recorder/): page.js (its elements, what it knows of the
 * game, its words), history.js (the moves standing and the latest ones), who.js (whose link),
 * moves.js (the moves now, as buttons; busy; Undo), touch.js (the game's drawing recording by
 * touch, the `table` above), sending.js (one tap, one append; Undo, Abandon), following.js
 * (loading the game now and following it to its end).
 */
import { followingOf } from "./recorder/following.js";
import { historyOf } from "./recorder/history.js";
import { movesOf } from "./recorder/moves.js";
import { recorderPage } from "./recorder/page.js";
import { sendingOf } from "./recorder/sending.js";
import { touchOf } from "./recorder/touch.js";
import { whoOf } from "./recorder/who.js";

async function openRecorder() {
  const rec = await recorderPage();
  if (!rec) return;
  Object.assign(rec, historyOf(rec), whoOf(rec), movesOf(rec), touchOf(rec), sendingOf(rec), followingOf(rec));
  const { view, client } = rec;
  rec.standing();
  rec.showRecent();
  rec.setBusy(false);
  // Whose token first: the state, the moves offered and Undo all depend on it.
  client.identify({ retry: true, onError: (error) => rec.showError(`Could not load the game: ${error.message}`) }).then(() => {
    rec.showError("");
    rec.showWho();
    rec.setBusy(false);
    rec.refresh();
    rec.followElsewhere();
    if (view.token && view.status === "active" && view.moves.length) rec.rewordAll();
  });
  // For tests and tools: the page's view of the game, and how it records.
  window.Tabletape = Object.assign(window.Tabletape || {}, { recorder: { view, refresh: rec.refresh, record: rec.record } });
}

// A module runs once the page is parsed.
openRecorder();
