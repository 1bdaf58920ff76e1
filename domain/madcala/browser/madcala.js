/* Madcala, drawn from its state (domain/madcala/views.py): the circle of twelve plates (spaces
 * 0..11 clockwise; seat 0 owns the lower half, 0..5, seat 1 the upper, 6..11; the Homes are 0 and
 * 6), each with its effect and the Shards on it, and above and below it each seat's Guest, health,
 * reserve, Plus-One cards and Commoners. The Commoners in hand are hidden in the public view.
 *
 * Data attributes: on each plate data-space, data-effect, data-normal ([seat 0, seat 1]) and
 * data-doubler; on each seat's panel data-seat, data-health, data-max-health, data-reserve,
 * data-hand (when shown), data-hand-size; on each Plus-One card data-card, data-face-up and
 * data-shards; on each Commoner in hand data-card.
 *
 * On a phone (ctx.narrow) the plates lie on an ellipse and the panels are short, so that the
 * drawing is large enough to touch.
 *
 * Recording by touch (record(table), see service/pages/static/record.js): every move is a touch
 * on the game, driven by the moves GET /legal lists and nothing else (no rule is written here):
 * - a plate of the mover's side sows from it; when the last Shard lands on the Home, the plate
 *   whose effect the Home performs is touched next; "Sow in another order…" first, to choose the
 *   order of mixed Shards and Doublers (by default the mover's own first, own Doubler last);
 * - a face-up Plus-One card uses it; the plates that pay are proposed ("Pay with these"), or
 *   touched one Shard at a time among the payments /legal lists;
 * - a Commoner in hand plays it (all its effects; "Choose a card's effects…" first for others);
 * - "Buy a Commoner" pays 3 Shards the same way; "End the turn", touching the Commoners to
 *   discard when the hand must come down to 2;
 * - what an effect chooses is touched where it is: a plate (a Shard struck, where a Shard goes),
 *   a Plus-One card (struck, refreshed); a Commoner drawn in observed mode is picked from the
 *   pictures of the cards that can still be drawn.
 * A choice left out of the moves listed (one option only) is not asked. A move's words are the
 * API's (Game.describe, domain/madcala/display.py): none is said here.
 */
export { draw } from "./madcala-draw.js";
export { record } from "./madcala-touch.js";
