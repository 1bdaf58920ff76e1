/* A score sheet: any game, recorded as its scores. Nothing is hidden.
 *
 * Drawn (scoresheet-draw.js) from its state (domain/scoresheet/views.py): one column per player
 * with their running total and rank; in the viewer, under them, a plot of each player's total
 * after each round, read from the record (scoresheet-sheet.js).
 *
 * Recorded (scoresheet-pad.js, record(table), called by the recorder page,
 * service/pages/static/record.js) on a score pad for one hand on a phone: a field per player for
 * the next round, "Write round N", "+" for one player's points alone, "Take back the last entry"
 * and "End the game", which shows the result it will record before asking. A seat's own link
 * adds that player's points only. A move's words are the API's (Game.describe,
 * domain/scoresheet/display.py): none is said here.
 */
export { draw } from "./scoresheet-draw.js";

// The recorder page's words for a score pad (record.js asks a game's package first): points
// written down, no hand to see, no turn to wait for.
export const words = {
  recorder: "Recorder: every player's points.",
  seat: (name) => `Recording as ${name}: ${name}'s own points only.`,
  awaited: (state, role, name) => (role === "seat" ? `${name}: add your points when you score them.` : `Round ${state.rounds + 1}: write the points as they are scored.`),
};
export { record } from "./scoresheet-pad.js";

// The pad's look, from the game's own package (the pages' CSS knows no game). A link, not a
// style attribute: the pages' Content-Security-Policy allows styles from the service only.
if (!document.querySelector("link[data-scoresheet]")) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./scoresheet.css", import.meta.url).href;
  link.dataset.scoresheet = "";
  document.head.append(link);
}
