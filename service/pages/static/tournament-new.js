/* The new-tournament form (templates/tournament_new.html): shows the fields the choices need (a
 * title for a game recorded as its scores, the rounds for a Swiss or tables of several, the
 * tables' size for tables of several), POSTs /tournaments, shows the API's message next to the
 * field it names, and on 201 opens the tournament's page as its organiser
 * (/tournaments/<id>/view#token=<token>: the fragment is never sent to a server).
 *
 * A service that sets WRITE_KEY answers without it 401: the form asks for the key once and keeps
 * it on this device, as the new-game form does (lib/write-key.js). */
import { askForKey, keepKey, keptKey } from "./lib/write-key.js";

(function () {
  const form = document.getElementById("new-tournament");
  if (!form) return;
  const formError = document.getElementById("form-error");
  const keyField = document.getElementById("field-write_key");
  const keyInput = document.getElementById("write_key");
  const submit = document.getElementById("start");

  const chosen = (name) => form.querySelector(`input[name="${name}"]:checked`);

  /** Show the fields this game and format take. */
  function showFields() {
    const game = chosen("game");
    const takes = (game.dataset.takes || "").split(" ");
    document.getElementById("field-title").hidden = !takes.includes("title");
    const format = chosen("format").value;
    document.getElementById("field-rounds").hidden = format === "round_robin";
    document.getElementById("field-table_size").hidden = format !== "pods";
    if (format === "pods") {
      const least = Math.max(2, Number(game.dataset.min));
      const most = Number(game.dataset.max);
      for (const id of ["least", "most"]) {
        const input = document.getElementById(id);
        input.min = String(least);
        input.max = String(most);
      }
      const leastInput = document.getElementById("least");
      const mostInput = document.getElementById("most");
      if (Number(leastInput.value) < least || Number(leastInput.value) > most) leastInput.value = String(Math.min(3, most));
      if (Number(mostInput.value) > most || Number(mostInput.value) < least) mostInput.value = String(Math.min(5, most));
    }
  }

  function clearErrors() {
    formError.hidden = true;
    for (const message of form.querySelectorAll(".field-error")) {
      message.hidden = true;
      message.textContent = "";
    }
    for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  }

  /** The API's message, beside the field it names where it names one. */
  function showError(error) {
    const fields = Object.keys(error.details || {});
    const named = fields.map((field) => document.getElementById(`error-${field === "options" ? "title" : field}`)).find(Boolean);
    if (named) {
      named.textContent = error.message;
      named.hidden = false;
      named.closest(".field").hidden = false;
      const input = named.closest(".field").querySelector("input, textarea");
      if (input) {
        input.setAttribute("aria-invalid", "true");
        input.focus();
      }
      return;
    }
    formError.textContent = error.message;
    formError.hidden = false;
    formError.focus();
  }

  function body() {
    const game = chosen("game");
    const format = chosen("format").value;
    const players = document.getElementById("players").value.split("\n").map((name) => name.trim()).filter(Boolean);
    const request = { name: document.getElementById("name").value.trim(), game: game.value, format, players, options: {} };
    if (!document.getElementById("field-title").hidden) request.options.title = document.getElementById("title").value.trim();
    if (format !== "round_robin") request.rounds = Number(document.getElementById("rounds").value);
    if (format === "pods") request.table_size = [Number(document.getElementById("least").value), Number(document.getElementById("most").value)];
    return request;
  }

  async function start(event) {
    event.preventDefault();
    clearErrors();
    const typed = keyField.hidden ? "" : keyInput.value.trim();
    const key = typed || keptKey();
    const headers = { "Content-Type": "application/json" };
    if (key) headers.Authorization = `Bearer ${key}`;
    submit.disabled = true;
    try {
      const response = await fetch("/tournaments", { method: "POST", headers, body: JSON.stringify(body()) });
      const answer = await response.json().catch(() => ({}));
      if (response.status === 401) {
        askForKey(Boolean(key), "start the tournament");
        return;
      }
      if (!response.ok) {
        showError(answer.error || { message: "The service could not start the tournament: try again." });
        return;
      }
      if (key) keepKey(key);
      const address = new URL(`/tournaments/${encodeURIComponent(answer.id)}/view`, window.location.origin);
      address.hash = new URLSearchParams({ token: answer.token }).toString();
      window.location.assign(address.href);
    } catch (error) {
      showError({ message: "The service cannot be reached: check the connection and try again." });
    } finally {
      submit.disabled = false;
    }
  }

  form.addEventListener("change", showFields);
  form.addEventListener("submit", start);
  showFields();
})();
