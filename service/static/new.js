/* The new-game form (templates/new.html): shows the fields of the game chosen, POSTs /games, shows
 * the API's validation message next to the field it names (error.details), and on 201 opens the
 * recorder page with the token in the fragment: /games/<id>/record#token=<token>. The fragment is
 * never sent to the server; the recorder page sends the token as an Authorization header only.
 */
"use strict";

(function () {
  // Sifaka's default facing by seat colour (red N, blue E, yellow S, green W; two players sit red
  // and yellow): what an unchosen seat is sent as once another seat's facing is chosen.
  const DEFAULT_FACING = { 2: ["N", "S"], 3: ["N", "E", "S"], 4: ["N", "E", "S", "W"] };

  function start() {
    const form = document.getElementById("new-game");
    if (!form) return;
    const formError = document.getElementById("form-error");
    const submit = document.getElementById("start");

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

    /** Show the fields the chosen game has: its seats, its options. */
    function showFields() {
      const game = chosenGame();
      const name = game.value;
      const most = Number(game.dataset.max);
      for (const row of form.querySelectorAll("#field-players .player-row")) {
        row.hidden = Number(row.dataset.seat) >= most;
      }
      for (const node of form.querySelectorAll("[data-games]")) {
        node.hidden = !node.dataset.games.split(" ").includes(name);
      }
      for (const option of form.querySelectorAll("#first_player option[value]")) {
        if (option.value !== "") option.hidden = option.disabled = Number(option.value) >= most;
      }
      const seats = Math.max(players().length, Number(game.dataset.min));
      for (const row of form.querySelectorAll("#field-facing .player-row")) {
        row.hidden = Number(row.dataset.seat) >= Math.max(seats, 2);
      }
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

    /** The body of POST /games, or null (with the message shown) if the form cannot say it. */
    function body() {
      const game = chosenGame().value;
      const request = { game, players: players(), options: {} };
      const options = request.options;
      const seed = form.seed.value.trim();
      if (seed !== "") request.seed = /^-?\d+$/.test(seed) ? Number(seed) : seed;
      options.chance = form.querySelector('input[name="chance"]:checked').value;
      if (form.first_player.value !== "") options.first_player = Number(form.first_player.value);
      const catalog = form.catalog.value.trim();
      if (catalog) {
        try {
          options.catalog = JSON.parse(catalog);
        } catch (error) {
          showErrors({ message: "The catalog is not valid JSON.", details: { catalog: error.message } });
          return null;
        }
      }
      if (game === "madcala") {
        const guests = [...form.querySelectorAll('select[name="guest"]')].map((select) => select.value);
        if (guests.some(Boolean)) options.guests = guests;
        const layout = [...form.querySelectorAll('select[name="layout"]')].map((select) => select.value);
        if (layout.join(",") !== document.getElementById("field-layout").dataset.default) options.layout = layout;
        const health = form.health.value.trim();
        if (health !== "") options.health = /^-?\d+$/.test(health) ? Number(health) : health;
      }
      if (game === "sifaka") {
        const seats = request.players.length;
        const chosen = [...form.querySelectorAll('select[name="facing"]')].slice(0, seats).map((s) => s.value);
        if (chosen.some(Boolean)) {
          const defaults = DEFAULT_FACING[seats] || [];
          options.facing = chosen.map((way, seat) => way || defaults[seat] || "");
        }
      }
      return request;
    }

    form.addEventListener("change", (event) => {
      if (event.target.name === "game") showFields();
    });
    form.addEventListener("input", (event) => {
      if (event.target.name === "player") showFields();
    });

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearErrors();
      const request = body();
      if (!request) return;
      submit.disabled = true;
      submit.textContent = "Starting…";
      try {
        const response = await fetch("/games", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(request),
          cache: "no-store",
        });
        let answer = null;
        try {
          answer = await response.json();
        } catch (ignored) {
          /* not JSON */
        }
        if (response.status === 201 && answer) {
          const fragment = new URLSearchParams({ token: answer.token });
          window.location.assign(`/games/${encodeURIComponent(answer.id)}/record#${fragment}`);
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

    showFields();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
