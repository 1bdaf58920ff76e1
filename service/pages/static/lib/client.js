/* The API's client for the pages: the token from the address's fragment, reads with it (GET, one
 * answer shape), whose token it is, and catching up with the moves recorded since the page last
 * knew (GET /events, with the words the API sends beside the events).
 *
 * The token comes only from the fragment (#token=...), which the browser never sends; it goes out
 * only in the Authorization header. A token that is not one of the game's is refused (401) on
 * every request: it is dropped, and the page goes on as the public. */

export const PAGE = 1000; // events asked for per GET /events

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The page's token (the recorder's or a seat's): only ever in the URL's fragment. */
export function tokenFromFragment() {
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  return fragment.get("token") || null;
}

/** Another token in the fragment (a link pasted into the tab already open) loads no page: the
 * browser only moves within it. So the page starts again, as the new token's holder sees it. */
export function reloadOnNewToken(token) {
  window.addEventListener("hashchange", () => {
    if (tokenFromFragment() !== token) window.location.reload();
  });
}

/** The API's error body of a response ({code, message, details}), or one made up. */
export async function errorOf(response) {
  try {
    const body = await response.json();
    if (body && body.error) return body.error;
  } catch (ignored) {
    /* not the API's error body */
  }
  return { code: "http", message: `the service answered ${response.status} ${response.statusText}`, details: {} };
}

/** The data a page carries for its script (a <script type="application/json"> by id), or null. */
export function pageData(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

/** The game as a game's page (the recorder's, the viewer's) carries it in its data, before any
 * request: the start of each page's view, which adds what that page follows. */
export function gameOfPage(data) {
  return {
    id: data.id,
    game: data.game,
    players: data.players,
    colours: data.colours,
    cards: data.cards || {},
    status: data.status,
    version: data.version,
  };
}

/** GET /events' events, each with its words (sent beside them, never in the event). */
export function wordedEvents(body) {
  const words = body.words || [];
  return body.events.map((event, index) => ({ ...event, words: words[index] }));
}

/** One game's API, as the holder of the page's token reads it. */
export class Client {
  constructor(gameId) {
    this.base = `/games/${encodeURIComponent(gameId)}`;
    this.token = tokenFromFragment();
    // Whose eyes: "recorder", "seat" (with `seat`) or "public"; null until known.
    this.role = null;
    this.seat = null;
    this.refused = false; // the fragment's token was not one of the game's
  }

  /** Let `view` read whose token it is (token, role, seat, refused) from this client. */
  lendTo(view) {
    for (const name of ["token", "role", "seat", "refused"]) {
      Object.defineProperty(view, name, { get: () => this[name], enumerable: true });
    }
    return view;
  }

  headers() {
    return this.token ? { Authorization: `Bearer ${this.token}` } : {};
  }

  /** GET a path of the game ("" for the game itself): {body, etag}; an Error with the API's
   * message and its `status` when refused. */
  async read(path, signal) {
    const response = await fetch(`${this.base}${path}`, { headers: this.headers(), signal, cache: "no-store" });
    if (!response.ok) {
      const error = new Error((await errorOf(response)).message);
      error.status = response.status;
      throw error;
    }
    return { body: await response.json(), etag: response.headers.get("ETag") };
  }

  /** Learn whose token the page holds (GET /games/{id}'s "viewer"). A refused token is dropped.
   * Other failures: with `retry`, asked again (onError told each time) until answered; else the
   * role stays unknown, the token still goes out, and the API answers for it. */
  async identify({ retry = false, onError = () => {} } = {}) {
    if (!this.token) {
      this.role = "public";
      return;
    }
    for (let attempt = 0; ; attempt += 1) {
      try {
        const { body: game } = await this.read("");
        this.role = game.viewer.role;
        this.seat = game.viewer.seat;
        return;
      } catch (error) {
        if (error.status === 401) {
          this.token = null;
          this.refused = true;
          this.role = "public";
          return;
        }
        onError(error);
        if (!retry) return;
        await sleep(Math.min(1000 * 2 ** attempt, 8000));
      }
    }
  }

  /** The events from seq `from`, `limit` of them at most, with their words. */
  async events(from, limit = PAGE) {
    const { body } = await this.read(`/events?from=${from}&limit=${limit}`);
    return wordedEvents(body);
  }
}

/** Catching up: a function that fetches the events after the last one known (`known()`) and hands
 * them to `add`, page by page, till there are no more. Called while at work, it fetches once more
 * when done: a move announced meanwhile may have been stored after that fetch was answered. */
export function catchingUp(client, known, add) {
  let catching = null;
  let again = false;
  return function catchUp() {
    if (catching) {
      again = true;
      return catching;
    }
    catching = (async () => {
      try {
        do {
          again = false;
          for (;;) {
            const events = await client.events(known() + 1);
            add(events);
            if (events.length < PAGE) break;
          }
        } while (again);
      } catch (error) {
        console.warn("could not fetch the new moves:", error);
      } finally {
        catching = null;
      }
    })();
    return catching;
  };
}

/** Stored events taken in order: each that follows the last one known goes to `add`; one that
 * leaves a gap stops there and calls `gap` (the page then catches up). Whether any was added. */
export function inOrder(events, known, add, gap) {
  let added = false;
  for (const event of events) {
    if (event.seq <= known()) continue;
    if (event.seq !== known() + 1) {
      gap();
      break;
    }
    add(event);
    added = true;
  }
  return added;
}
