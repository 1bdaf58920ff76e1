/* The recorder page's context (templates/record.html): its elements, what it knows of the game
 * (`view`), its client (with the token from the address's fragment), the picker sheet, the board's
 * zoom and the game's drawing, and the words it says. The page's concerns (recorder/*.js) each
 * add their functions to it, and call one another's through it. */
import { Client, gameOfPage, pageData, reloadOnNewToken } from "../lib/client.js";
import { loadDrawing, seatName } from "../lib/draw.js";
import { Picker } from "../lib/picker.js";
import { BoardZoom } from "../lib/zoom.js";

/** The context of the recorder page, or null on a page that is not one. */
export async function recorderPage() {
  const data = pageData("record-data");
  if (!data) return null;
  const root = document.getElementById("recorder");
  const board = document.getElementById("board");
  const legalBox = document.getElementById("legal");
  const statusLine = document.getElementById("record-status");
  const errorLine = document.getElementById("record-error");
  const undo = document.getElementById("undo");
  const abandon = document.getElementById("abandon");
  const versionText = document.getElementById("version");
  const recent = document.getElementById("recent");
  const liveNote = document.getElementById("live");
  const recordingAs = document.getElementById("recording-as");
  const actions = document.getElementById("actions");
  const movesHeading = document.getElementById("moves-now");

  const view = {
    ...gameOfPage(data),
    moves: data.moves.slice(),
    types: data.types.slice(),
    void: data.void.slice(),
    awaited: null, // the seat whose decision is awaited, as the state last said
    legal: [],
    ending: [],
    words: [], // beside each legal move, its words (GET /legal's)
    free: [], // the types this token may append with any fields the rules take (GET /legal's)
    baseWords: [], // and its words without what chance brought
    shown: null, // what the moves now were last built from: unchanged, nothing is rebuilt
    busy: false,
    follow: null, // the one move left after the touch being recorded (table.follow)
    said: [], // the moves the touch being recorded recorded, in words
  };
  const client = new Client(view.id);
  // Whose token (the client knows): "recorder", "seat" (with `seat`) or "public" (none); null
  // until known; `refused` when the fragment's token was not one of the game's.
  client.lendTo(view);
  reloadOnNewToken(client.token);
  const rec = {
    data, root, board, legalBox, statusLine, errorLine, undo, abandon, versionText, recent,
    liveNote, recordingAs, actions, movesHeading, view, client,
  };
  // The picker asks the fields that name what chance brought (recorder/moves.js's fieldsOf).
  rec.picker = new Picker(root, (move) => rec.fieldsOf(move));
  // The board at a finger's size: larger than the screen where it must be, moved and pinched.
  rec.zoom = new BoardZoom(board, board.parentElement, document.getElementById("zoom-toggle"));
  rec.drawing = await loadDrawing(data.drawing);
  // The fields that name what chance brought, per event type ("*": every type): the game's own
  // (Game.chance_fields), sent with the page.
  rec.chanceFields = data.chance_fields || {};

  rec.nameOf = (seat) => seatName(seat, view.players);
  rec.say = (message) => {
    statusLine.textContent = message;
  };
  rec.showError = (message) => {
    errorLine.textContent = message;
    errorLine.hidden = !message;
  };
  return rec;
}
