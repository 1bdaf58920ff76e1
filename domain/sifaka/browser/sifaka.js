/* Sifaka, drawn from its state (domain/sifaka/views.py): the grid of visible boxes (x to the
 * east, y to the south) with their palms, arrows, mangos and huts, the Mango counters lying on the
 * board, the starting slots still free, and the four sifakas (one per seat) facing their way; then
 * a row per seat with its counters, its score and the card in hand, where the viewer sees them.
 *
 * Data attributes: on each box data-x, data-y, data-kind and data-palms, data-arrow, data-mango or
 * data-hut, data-counter and data-counter-value (where known); on each pawn data-seat, data-x,
 * data-y and data-facing; on each seat's row data-seat, data-counters (JSON), data-score (when
 * shown), data-hand (the card held, when shown).
 *
 * record(table) lays out the moves GET /legal lists as touches on this drawing (the recorder page,
 * service/pages/static/record.js); on each touch target data-anchor (a lit place for the tile,
 * with data-x, data-y), data-end (a lit box where the sifaka may end, with data-x, data-y and
 * data-ways), data-sifaka or data-deal (the seat). A move's words are the API's (its Python
 * describe, domain/sifaka/display.py).
 */
export { draw } from "./sifaka-draw.js";
export { record } from "./sifaka-touch.js";
