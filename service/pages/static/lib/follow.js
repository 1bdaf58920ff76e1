/* Following a game being recorded, for the viewer and the recorder: its event stream, else a poll,
 * and what both pages show of it (the live note, the game's status and result). */

/** Follow a game from move `fromSeq`: its event stream, or, where no stream is to be had (no
 * EventSource, a 404, three failed connections in a row), GET /games/{id} every 2 seconds.
 * hooks: onMove(event, or null for a message to fetch yourself; then the message's seq), onOpen(),
 * onEnd(), onGame(game) (each poll's answer), and setLive("stream" | "polling" | null). Returns
 * the function that stops following.
 *
 * An EventSource cannot send the Authorization header, so the stream is always the public one.
 * With a token, its events may say less than the token may see (another seat's draw is hidden
 * from the public, not from the recorder): each "move" message is then only a notice, handed to
 * onMove as null, and the page fetches GET /events with its token. */
export function followGame(client, fromSeq, hooks) {
  let source = null;
  let pollTimer = null;
  let failures = 0;
  async function onPoll() {
    try {
      const { body: game } = await client.read("");
      hooks.onGame(game);
    } catch (error) {
      console.warn("polling the game failed:", error);
    }
  }
  function poll() {
    if (pollTimer) return;
    hooks.setLive("polling");
    pollTimer = setInterval(onPoll, 2000);
  }
  function stop() {
    if (source) source.close();
    if (pollTimer) clearInterval(pollTimer);
    source = null;
    pollTimer = null;
    hooks.setLive(null);
  }
  if (!("EventSource" in window)) {
    poll();
    return stop;
  }
  // On a reconnection, the browser's Last-Event-ID says where the stream stopped.
  source = new EventSource(`${client.base}/stream?from=${fromSeq}`);
  hooks.setLive("stream");
  source.addEventListener("open", () => {
    failures = 0;
    if (hooks.onOpen) hooks.onOpen();
  });
  source.addEventListener("move", (message) => {
    failures = 0;
    let event = null;
    if (!client.token) {
      try {
        event = JSON.parse(message.data);
      } catch (error) {
        console.warn("a stream message that is not an event:", error);
      }
    }
    // The message's id is its event's seq: a page that already holds that move need fetch nothing.
    hooks.onMove(event, Number(message.lastEventId) || null);
  });
  source.addEventListener("end", () => hooks.onEnd());
  source.addEventListener("error", () => {
    failures += 1;
    // Closed: no stream here (a 404, or not an event stream). Retrying over and over: the
    // stream is not to be had now. Either way, polling takes over.
    if (source && (source.readyState === EventSource.CLOSED || failures >= 3)) {
      source.close();
      source = null;
      poll();
    }
  });
  return stop;
}

/** The page's live note (#live): shown while following, saying how. */
export function showLive(note, mode) {
  note.hidden = !mode;
  note.classList.toggle("polling", mode === "polling");
  note.dataset.mode = mode || "off";
}

/** A game's status in words (templates/words.html's status_words): a finished game is
 * "finished", whether or not its archive is written yet. */
export function statusWords(status) {
  return status === "archived" ? "finished" : status;
}

/** The game's status badge and, once over, its result (the winners marked in the players' list).
 * `game` is GET /games/{id}'s answer. */
export function showResult(game, players) {
  const badge = document.getElementById("game-status");
  badge.textContent = statusWords(game.status);
  badge.className = `badge status-${game.status}`;
  const result = document.getElementById("result");
  const winners = game.result ? game.result.winners : [];
  for (const item of document.querySelectorAll(".players li[data-seat]")) {
    item.classList.toggle("winner", winners.includes(Number(item.dataset.seat)));
  }
  if (!game.result) {
    result.hidden = true;
    return;
  }
  // Said as the server says it (service/pages/results.py): "—" for a score never written, and no
  // scores at all in a game without points.
  const scores = game.result.scores || [];
  const said = scores.some((score) => score !== null)
    ? `; scores ${scores.map((score, seat) => `${players[seat]} ${score === null ? "—" : score}`).join(", ")}`
    : "";
  result.textContent = `Result: ${outcomeWords(game.result, players, game.options)}${said}.`;
  result.hidden = false;
}

/** Who won, in words (service/pages/results.py's outcome_words): "Chloé won", "Alice and Bruno
 * shared the win", a named team's "Blue won (Bruno and Dev)", a cooperative game's "the table
 * won" or "the table lost", "a draw", or "no winner", never "won by" nobody. */
export function outcomeWords(result, players, options) {
  if (result.outcome === "won" || result.outcome === "lost") return `the table ${result.outcome}`;
  if (result.draw) return "a draw";
  const names = (result.winners || []).map((seat) => players[seat]);
  if (!names.length) return "no winner";
  const listed = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  // A named team (a score sheet's team_names): "Blue won (Bruno and Dev)".
  const { teams, team_names: teamNames } = options || {};
  const same = (team) => team.length === result.winners.length && team.every((seat) => result.winners.includes(seat));
  const won = teams && teamNames ? teams.findIndex(same) : -1;
  if (won >= 0 && teamNames[won]) return `${teamNames[won]} won (${listed})`;
  if (names.length === 1) return `${names[0]} won`;
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} shared the win`;
}
