/* Mada, drawn from its state (domain/mada/views.py): the draw pile and the discard, then one row
 * per seat with its hand, its personal pile (bottom to top, left to right) and the cards it set
 * aside, with its score. Hidden cards (hands, cards set aside while the game is on) are drawn face
 * down: the public view gives only their number. On a phone's width a row holds its hand, pile and
 * cards set aside side by side, so that the cards stay big enough to touch.
 *
 * Data attributes carry what is drawn, as JSON, for tests and tools: on each seat's group
 * data-hand (when shown), data-hand-size, data-pile, data-set-aside (when shown),
 * data-set-aside-count and data-score (when shown); data-discard and data-draw-pile-size on the
 * table's group.
 *
 * Recording by touch (record(table), called by the recorder page, service/pages/static/record.js):
 * every target comes from the moves GET /legal lists now, nothing here knows a rule.
 * - a turn: touch a card of the hand to play it (a Double Lemur then asks whose pile to swap with:
 *   touch that seat's row, unless there is only one other seat); touch the draw pile to draw; "Try
 *   your luck" is a button under the board (the draw pile itself tries your luck when drawing is
 *   not allowed). In observed mode the card drawn or revealed is then picked from pictures.
 * - a deal (observed mode): touch the draw pile (or the seat's hand, or the button), then pick the
 *   three cards from pictures, one at a time, each with how many of it may still be unseen.
 * - the Scorpion: touch the hand card that goes with it.
 * - a Double Lemur revealed by trying one's luck: touch the row of the seat to swap piles with.
 * - after losing a round: touch the cards to discard, in order, then confirm; "Keep every card" is
 *   the default, offered while none is chosen.
 * A move's words are the API's (Game.describe, domain/mada/display.py): none is said here.
 */
export { draw } from "./mada-draw.js";
export { record } from "./mada-touch.js";
