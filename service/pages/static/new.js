/* The new-game form (templates/new.html): shows the fields of the game chosen, POSTs /games, shows
 * the API's validation message next to the field it names (error.details), and on 201 shows the
 * game's links, each with a copy button: the recorder's (/games/<id>/record#token=<token>), one
 * per seat (the same page with that seat's token) and the viewer's (no token). The fragment is
 * never sent to the server; the pages send the token as an Authorization header only.
 *
 * The shared fields (seed, chance, first player, catalog) are shown and sent only for a game that
 * takes them (data-takes, its options schema's names: any other option is refused); a game's own
 * fields are those its package declares (Game.option_fields, their kinds in domain/words.py). A
 * title field with suggestions offers the titles played before (GET /titles), if the service
 * answers it: without it, the field is a plain one.
 *
 * A service that sets WRITE_KEY answers a creation without it 401: the page then asks for the key
 * (a password field), sends it as the Bearer token, and keeps it in localStorage once the service
 * took it, so that it is asked once per device. A kept key the service refuses is forgotten.
 */
import { askForKey, keepKey, keptKey } from "./lib/write-key.js";

(function () {
  /** What the form itself finds wrong before sending, said as the API says it. */
  class FormError extends Error {
    constructor(message, details) {
      super(message);
      this.details = details;
    }
  }

  function start() {
    const form = document.getElementById("new-game");
    if (!form) return;
    const formError = document.getElementById("form-error");
    const submit = document.getElementById("start");
    const keyField = document.getElementById("field-write_key");
    const keyInput = document.getElementById("write_key");

    /** The key to send: the one typed, else the one kept, else none. */
    function writeKey() {
      const typed = keyField.hidden ? "" : keyInput.value.trim();
      return typed || keptKey();
    }

    function chosenGame() {
      return form.querySelector('input[name="game"]:checked');
    }

    function players() {
      const names = [];
      for (const row of form.querySelectorAll("#field-players .player-row")) {
        if (row.hidden) continue;
        const name = row.querySelector("input").value.trim();
        if (name) names.push(name);
      }
      return names;
    }

    // The shared fields, each shown for a game that takes the option named (the seed goes with
    // chance: a game without chance has nothing for it to decide).
    const SHARED = { "field-seed": "chance", "field-chance": "chance", "field-first_player": "first_player", "field-catalog": "catalog" };
    // Player rows shown at least (more appear as they are filled, up to the game's most).
    const ROWS_SHOWN = 5;

    function takes(option) {
      return (chosenGame().dataset.takes || "").split(" ").includes(option);
    }

    /** Show the fields the chosen game has: its seats, its options. */
    function showFields() {
      const game = chosenGame();
      const name = game.value;
      const most = Number(game.dataset.max);
      const rows = [...form.querySelectorAll("#field-players .player-row")];
      let lastFilled = -1;
      rows.forEach((row, seat) => {
        if (row.querySelector("input").value.trim()) lastFilled = seat;
      });
      for (const row of rows) {
        const seat = Number(row.dataset.seat);
        row.hidden = seat >= most || (seat >= ROWS_SHOWN && seat > lastFilled + 1);
      }
      for (const [id, option] of Object.entries(SHARED)) {
        document.getElementById(id).hidden = !takes(option);
      }
      for (const node of form.querySelectorAll("[data-games]")) {
        node.hidden = !node.dataset.games.split(" ").includes(name);
      }
      for (const option of form.querySelectorAll("#first_player option[value]")) {
        if (option.value !== "") option.hidden = option.disabled = Number(option.value) >= most;
      }
      const seats = Math.max(players().length, Number(game.dataset.min));
      for (const row of form.querySelectorAll('.game-option[data-kind="per_seat"] .player-row, .game-option[data-kind="teams"] .player-row')) {
        row.hidden = Number(row.dataset.seat) >= seats;
      }
      // A team is chosen per player: each row is named by the player's name typed above.
      const names = rows.map((row) => row.querySelector("input").value.trim());
      for (const row of form.querySelectorAll('.game-option[data-kind="teams"] .player-row')) {
        const seat = Number(row.dataset.seat);
        row.querySelector("label").textContent = names[seat] || `Player ${seat + 1}`;
      }
      // A name field for each team in use.
      for (const teams of form.querySelectorAll('.game-option[data-kind="teams"]')) {
        const used = new Set([...teams.querySelectorAll(".player-row:not([hidden]) select")].map((select) => select.value));
        for (const named of teams.querySelectorAll(".team-name")) named.hidden = !used.has(named.dataset.team);
      }
      // "More options" only where the game takes one of them.
      const more = document.getElementById("more-options");
      more.hidden = [...more.querySelectorAll(".field")].every((field) => field.hidden);
    }

    function clearErrors() {
      formError.hidden = true;
      formError.textContent = "";
      for (const node of form.querySelectorAll(".field-error")) {
        node.hidden = true;
        node.textContent = "";
      }
      for (const node of form.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
    }

    function words(value) {
      if (Array.isArray(value)) return value.map(words).join("; ");
      if (value && typeof value === "object") {
        return Object.entries(value).map(([key, item]) => `${key}: ${words(item)}`).join("; ");
      }
      return String(value);
    }

    /** The API's message on top; each details entry beside its field (or under the form). */
    function showErrors(error) {
      formError.textContent = error.message || "The game could not be created.";
      formError.hidden = false;
      let first = null;
      for (const [field, detail] of Object.entries(error.details || {})) {
        const slot = document.getElementById(`error-${field}`) || document.getElementById("error-options");
        slot.textContent = (slot.textContent ? slot.textContent + " " : "") +
          (slot.id === "error-options" ? `${field}: ` : "") + words(detail);
        slot.hidden = false;
        // A refused option behind "More options" is shown, not left closed.
        const closed = slot.closest("details");
        if (closed) closed.open = true;
        const container = slot.closest(".field");
        const input = container && container.querySelector("input, select, textarea");
        if (input) {
          input.setAttribute("aria-invalid", "true");
          input.setAttribute("aria-describedby", slot.id);
          first = first || input;
        }
      }
      (first || formError).focus();
    }

    /** The value a game's own option field sends (domain/words.py says the kinds), or undefined
     * to send nothing and let the game's default stand. */
    function gameOption(field, seats) {
      const kind = field.dataset.kind;
      if (kind === "text") {
        const text = field.querySelector("input").value.trim();
        return text === "" && !("required" in field.dataset) ? undefined : text;
      }
      if (kind === "choice") {
        const chosen = field.querySelector("input:checked");
        return chosen ? chosen.value : undefined;
      }
      if (kind === "boolean") return field.querySelector("input").checked;
      if (kind === "teams") return teamsOf(field, seats);
      if (kind === "integer") {
        const text = field.querySelector("input").value.trim();
        if (text === "") return undefined;
        return /^-?\d+$/.test(text) ? Number(text) : text;
      }
      const chosen = [...field.querySelectorAll("select")].map((select) => select.value);
      if (kind === "sequence") {
        return chosen.join(",") === field.dataset.default ? undefined : chosen;
      }
      // per_seat: once any seat is chosen, the seats left at "default" take the game's defaults.
      const seatChoices = chosen.slice(0, seats);
      if (!seatChoices.some(Boolean)) return undefined;
      const defaults = JSON.parse(field.dataset.defaults || "{}")[String(seats)] || [];
      return seatChoices.map((value, seat) => value || defaults[seat] || "");
    }

    /** The teams chosen (the seats of each, teams in their number's order), undefined when no
     * player has one. A player left without a team while others have one is a mistake the form
     * names (a FormError) rather than guess a team for. */
    function teamsOf(field, seats) {
      const chosen = [...field.querySelectorAll("select")].slice(0, seats).map((select) => select.value);
      if (!chosen.some(Boolean)) return undefined;
      if (!chosen.every(Boolean)) {
        throw new FormError("Put every player in a team, or leave them all without one.", { [field.dataset.option]: "a team for every player, or none" });
      }
      const teams = new Map();
      chosen.forEach((team, seat) => {
        if (!teams.has(team)) teams.set(team, []);
        teams.get(team).push(seat);
      });
      return [...teams.keys()].sort((a, b) => Number(a) - Number(b)).map((key) => teams.get(key));
    }

    /** The names typed for the teams chosen, in the teams' order ("Team N" where one is left
     * blank), or undefined when none is typed. */
    function teamNamesOf(seats) {
      const field = form.querySelector('.game-option[data-kind="teams"]:not([hidden])');
      if (!field) return undefined;
      const chosen = [...field.querySelectorAll("select")].slice(0, seats).map((select) => select.value);
      const numbers = [...new Set(chosen)].sort((a, b) => Number(a) - Number(b));
      const typed = numbers.map((team) => field.querySelector(`#team_names-${team}`).value.trim());
      if (!typed.some(Boolean)) return undefined;
      return typed.map((name, index) => name || `Team ${numbers[index]}`);
    }

    /** The body of POST /games as JSON text, or null (with the message shown) if the form cannot
     * say it. */
    function body() {
      const game = chosenGame().value;
      const request = { game, players: players(), options: {} };
      const options = request.options;
      const seed = form.seed.value.trim();
      // A whole number goes into the JSON text as the digits typed (less leading zeros, which
      // JSON forbids): as a JS Number, a seed above 2**53 would become another seed. Anything
      // else goes as a string, for the API to say what is wrong with it.
      let seedDigits = null;
      if (/^-?\d+$/.test(seed)) seedDigits = seed.replace(/^(-?)0+(?=\d)/, "$1");
      else if (seed !== "") request.seed = seed;
      if (takes("chance")) options.chance = form.querySelector('input[name="chance"]:checked').value;
      else seedDigits = null; // hidden: a seed typed for another game is not this one's
      if (takes("first_player") && form.first_player.value !== "") options.first_player = Number(form.first_player.value);
      const catalog = takes("catalog") ? form.catalog.value.trim() : "";
      if (catalog) {
        try {
          options.catalog = JSON.parse(catalog);
        } catch (error) {
          showErrors({ message: "The catalog is not valid JSON.", details: { catalog: error.message } });
          return null;
        }
      }
      try {
        for (const field of form.querySelectorAll(".game-option")) {
          if (field.hidden) continue;
          const value = gameOption(field, request.players.length);
          if (value !== undefined) options[field.dataset.option] = value;
        }
        const named = options.teams && teamNamesOf(request.players.length);
        if (named) options.team_names = named;
      } catch (error) {
        if (!(error instanceof FormError)) throw error;
        showErrors({ message: error.message, details: error.details });
        return null;
      }
      const text = JSON.stringify(request);
      // The request object is never empty ("game" comes first), so the seed opens the object.
      return seedDigits === null ? text : `{"seed":${seedDigits},${text.slice(1)}`;
    }

    // The game's links, with their QR codes (links.js) ------------------------------------------

    function showLinks(game) {
      const created = document.getElementById("created");
      window.Tabletape.links.show(created, game, game.token, game.seat_tokens || [], false);
      const again = document.getElementById("links-again");
      again.href = window.Tabletape.links.linkTo(`/games/${encodeURIComponent(game.id)}/share`, game.token);
      form.hidden = true;
      document.getElementById("new-lede").hidden = true;
      created.hidden = false;
      // The first screen holds the way to the recorder's page: the page at its top, not where
      // the long form's button was.
      created.focus({ preventScroll: true });
      window.scrollTo(0, 0);
    }

    form.addEventListener("change", (event) => {
      if (event.target.name !== "game") return;
      showFields();
      suggestTitles();
    });
    form.addEventListener("input", (event) => {
      if (event.target.name === "player") showFields();
      // A team chosen shows its name's field.
      if (event.target.name === "teams") showFields();
    });

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearErrors();
      const json = body();
      if (!json) return;
      submit.disabled = true;
      submit.textContent = "Starting…";
      const key = writeKey();
      const headers = { "Content-Type": "application/json" };
      if (key) headers.Authorization = `Bearer ${key}`;
      try {
        const response = await fetch("/games", {
          method: "POST",
          headers,
          body: json,
          cache: "no-store",
        });
        if (response.status === 401) {
          askForKey(Boolean(key), "start recording");
          return;
        }
        let answer = null;
        try {
          answer = await response.json();
        } catch (ignored) {
          /* not JSON */
        }
        if (response.status === 201 && answer) {
          if (key) keepKey(key);
          keyField.hidden = true;
          showLinks(answer);
          return;
        }
        showErrors((answer && answer.error) || { message: `The service answered ${response.status} ${response.statusText}.` });
      } catch (error) {
        showErrors({ message: `The service could not be reached (${error.message}). Nothing was created; try again.` });
      } finally {
        submit.disabled = false;
        submit.textContent = "Start recording";
      }
    });

    /** Fill the suggestions of a title field with the titles played before, most played first
     * (GET /titles); a service without it, or that fails, leaves the field without any. */
    async function suggestTitles() {
      // Asked once, when a game with such a field is chosen.
      for (const input of form.querySelectorAll("input[data-suggest]:not([data-asked])")) {
        if (input.closest("[hidden]")) continue;
        input.dataset.asked = "";
        const list = document.getElementById(input.getAttribute("list"));
        try {
          const response = await fetch(input.dataset.suggest, { headers: { Accept: "application/json" }, cache: "no-store" });
          if (!response.ok) continue;
          const body = await response.json();
          const titles = Array.isArray(body.titles) ? body.titles : [];
          list.replaceChildren(...titles.filter((entry) => entry && entry.title).map((entry) => {
            const option = document.createElement("option");
            option.value = entry.title;
            if (entry.games) option.label = `${entry.title} (played ${entry.games} ${entry.games === 1 ? "time" : "times"})`;
            return option;
          }));
        } catch (ignored) {
          /* no suggestions: the title is typed */
        }
      }
    }

    showFields();
    suggestTitles();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
