/* A tournament's page (templates/tournament_view.html): its standings and its current round's
 * tables, drawn from GET /tournaments/<id> and asked again every few seconds, so that a phone or a
 * projector follows the games as they finish. Results are said in words.
 *
 * Opened with the organiser's token in the fragment (#token=..., never sent to a server: it goes
 * out only in the Authorization header), the page also shows each table's links (the
 * scorekeeper's, one per player), each with its QR code drawn by the service (POST /qr), and a
 * button that pairs the next round (POST /tournaments/<id>/rounds) once every table is over. */
import { errorOf, tokenFromFragment } from "./lib/client.js";

(function () {
  const root = document.getElementById("tournament");
  if (!root) return;
  const id = root.dataset.tournament;
  const token = tokenFromFragment();
  const EVERY_MS = 4000;
  const FORMATS = { swiss: "Swiss", round_robin: "Round robin" };
  const FRACTIONS = { 0.25: "¼", 0.5: "½", 0.75: "¾" };
  const ORDINALS = ["1st", "2nd", "3rd"];

  let shown = null; // the tournament as last drawn
  let links = null; // the organiser's links, per round, once asked
  let linksOfRounds = 0;

  /** Points in words: 1½, ¾, 2.33. */
  function points(value) {
    const whole = Math.floor(value + 1e-9);
    const part = Math.round((value - whole) * 100) / 100;
    if (part === 0) return String(whole);
    if (FRACTIONS[part]) return `${whole || ""}${FRACTIONS[part]}`;
    return value.toFixed(2);
  }

  const ordinal = (rank) => ORDINALS[rank - 1] || `${rank}th`;
  const joined = (names) => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`);

  /** A table's result in words. */
  function resultWords(table) {
    const result = table.result;
    if (!result) return "being played";
    const players = table.players;
    if (result.abandoned) return players.length === 2 ? "abandoned: both lose" : "abandoned: everyone loses";
    if (!result.ranks) return "no winner: a half point each";
    const firsts = players.filter((_, seat) => result.ranks[seat] === 1);
    if (players.length === 2) return firsts.length === 2 ? `${joined(players)} drew` : `${firsts[0]} won`;
    const places = [...new Set(result.ranks)].sort((a, b) => a - b);
    return places.map((rank) => `${ordinal(rank)} ${joined(players.filter((_, seat) => result.ranks[seat] === rank))}`).join(", ");
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function drawStandings(tournament) {
    const body = document.querySelector("#standings tbody");
    body.replaceChildren(
      ...tournament.standings.map((row) => {
        const line = element("tr");
        line.append(element("td", "place", String(row.rank)), element("th", "player", row.player));
        line.lastChild.scope = "row";
        line.append(element("td", "", points(row.points)), element("td", "", points(row.opponents_points)), element("td", "", String(row.wins)));
        if (tournament.withdrawn.includes(row.player)) line.classList.add("withdrawn");
        return line;
      }),
    );
  }

  function statusWords(tournament) {
    const played = tournament.rounds.length;
    if (tournament.status === "finished") {
      const first = tournament.standings[0];
      return `Finished: ${first.player} won the tournament with ${points(first.points)} points.`;
    }
    if (!played) return "No round is paired yet.";
    const waiting = tournament.rounds[played - 1].tables.filter((table) => !table.result).length;
    const of = `Round ${played} of ${tournament.rounds_planned}`;
    if (waiting) return `${of}: ${waiting} ${waiting === 1 ? "table is" : "tables are"} still playing.`;
    return `${of} is over: the next round can be paired.`;
  }

  /** A table's links for the organiser: the scorekeeper's and each player's, QR codes drawn when
   * the list is opened. */
  function tableLinks(table, tableLinks) {
    const box = element("details", "table-links");
    box.append(element("summary", "", `Links for table ${table.table}`));
    const list = element("ul", "links");
    const path = `/games/${encodeURIComponent(table.game)}/record`;
    const rows = [["Scorekeeper", tableLinks.token], ...table.players.map((name, seat) => [name, tableLinks.seat_tokens[seat]])];
    const { drawQr, linkTo } = window.Tabletape.links; // links.js: the game's links page's own
    for (const [name, secret] of rows) {
      if (!secret) continue;
      const item = element("li", "link-row");
      const anchor = element("a", "link-name button", `${name}'s link`);
      anchor.href = linkTo(path, secret);
      const qr = element("img", "qr");
      qr.width = 164;
      qr.height = 164;
      qr.alt = `QR code of ${name}'s link`;
      qr.dataset.url = anchor.href;
      item.append(anchor, qr);
      list.append(item);
    }
    box.append(list);
    box.addEventListener("toggle", () => {
      if (!box.open) return;
      for (const image of box.querySelectorAll("img.qr:not([src])")) drawQr(image, image.dataset.url);
    });
    return box;
  }

  function drawTables(tournament) {
    const list = document.getElementById("tables");
    const title = document.getElementById("round-title");
    const byes = document.getElementById("byes");
    const current = tournament.rounds[tournament.rounds.length - 1];
    if (!current) {
      title.textContent = "Tables";
      list.replaceChildren(element("li", "table-row", "The first round is not paired yet."));
      byes.hidden = true;
      return;
    }
    title.textContent = `Round ${current.round} of ${tournament.rounds_planned}`;
    const roundLinks = links && links[current.round - 1];
    list.replaceChildren(
      ...current.tables.map((table, index) => {
        const item = element("li", `table-row${table.result ? " over" : ""}`);
        const heading = element("p", "table-players");
        heading.append(element("span", "table-number", `Table ${table.table}`), document.createTextNode(` ${table.players.join(table.players.length === 2 ? " against " : ", ")}`));
        const result = element("p", "table-result", resultWords(table));
        const watch = element("a", "watch button", "Watch");
        watch.href = `/games/${encodeURIComponent(table.game)}/view`;
        watch.setAttribute("aria-label", `Watch table ${table.table}`);
        item.append(heading, result, watch);
        if (roundLinks && roundLinks[index] && !table.result) item.append(tableLinks(table, roundLinks[index]));
        return item;
      }),
    );
    byes.hidden = current.byes.length === 0;
    byes.textContent = current.byes.length ? `Sitting out this round (a point each): ${joined(current.byes)}.` : "";
  }

  function draw(tournament) {
    const format = tournament.table_size ? `Tables of ${tournament.table_size[0]} to ${tournament.table_size[1]}` : FORMATS[tournament.format];
    document.getElementById("tournament-lede").textContent = `${format}, ${tournament.players.length} players, ${tournament.rounds_planned} ${tournament.rounds_planned === 1 ? "round" : "rounds"}.`;
    document.getElementById("tournament-status").textContent = statusWords(tournament);
    drawStandings(tournament);
    drawTables(tournament);
    if (token) {
      const current = tournament.rounds[tournament.rounds.length - 1];
      const over = !current || current.tables.every((table) => table.result);
      const button = document.getElementById("pair");
      // Once over, nothing is left to pair or hand out.
      document.getElementById("organiser").hidden = tournament.status === "finished";
      button.disabled = !over;
      button.textContent = `Pair round ${tournament.rounds.length + 1}`;
    }
    shown = tournament;
  }

  async function fetchLinks(tournament) {
    if (!token || tournament.rounds.length === linksOfRounds) return;
    const response = await fetch(`/tournaments/${encodeURIComponent(id)}/links`, { headers: { Authorization: `Bearer ${token}` }, cache: "no-store" });
    if (!response.ok) {
      organiserMessage((await errorOf(response)).message);
      return;
    }
    links = (await response.json()).rounds;
    linksOfRounds = tournament.rounds.length;
  }

  function organiserMessage(text) {
    const message = document.getElementById("organiser-message");
    message.textContent = text || "";
    message.hidden = !text;
  }

  async function refresh() {
    try {
      const response = await fetch(`/tournaments/${encodeURIComponent(id)}`, { cache: "no-store" });
      if (!response.ok) return;
      const tournament = await response.json();
      await fetchLinks(tournament);
      // Redrawn only when something changed: an open list of links stays open.
      if (!shown || JSON.stringify(shown) !== JSON.stringify(tournament)) draw(tournament);
    } catch (error) {
      /* asked again at the next turn */
    }
  }

  async function pairNext() {
    const button = document.getElementById("pair");
    button.disabled = true;
    organiserMessage("");
    const response = await fetch(`/tournaments/${encodeURIComponent(id)}/rounds`, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
    if (!response.ok) organiserMessage((await errorOf(response)).message);
    shown = null;
    await refresh();
  }

  if (token) {
    document.getElementById("organiser").hidden = false;
    document.getElementById("pair").addEventListener("click", pairNext);
  }
  refresh();
  setInterval(refresh, EVERY_MS);
})();
