/* A player's page (templates/player.html): "Same person as…" and "Count … apart".
 *
 * The person picked is sent to POST /players/{name}/same-as ({"player": picked}); a name counted
 * apart to DELETE /players/{name}/same-as. A service that sets WRITE_KEY answers 401 without it:
 * the form asks for the key once and keeps it on this device, as the new-game form does
 * (lib/write-key.js). Once the service took the change, the page of the person is opened: the
 * names are theirs at once, and the figures follow within seconds (counted again by the service's
 * worker), so the page says so and opens again when they are.
 */

import { askForKey, keepKey, keptKey } from "./lib/write-key.js";

const form = document.getElementById("same-as-form");
const status = document.getElementById("same-as-status");

function say(words) {
  status.textContent = words;
  status.focus();
}

/** Send a change of who counts as whom; the answer's person, or null (said why). */
async function send(method, name, body, then) {
  const input = document.getElementById("write_key");
  const typed = input ? input.value.trim() : "";
  const key = typed || keptKey();
  const headers = { Accept: "application/json" };
  if (body) headers["Content-Type"] = "application/json";
  if (key) headers.Authorization = `Bearer ${key}`;
  let response;
  try {
    response = await fetch(`/players/${encodeURIComponent(name)}/same-as`, {
      method, headers, body: body ? JSON.stringify(body) : undefined,
    });
  } catch (ignored) {
    say("The service cannot be reached: try again in a moment.");
    return null;
  }
  if (response.status === 401 && input) {
    document.getElementById("same-as").open = true;
    askForKey(Boolean(key), then);
    return null;
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    say(answer.error ? answer.error.message : "The service refused this change.");
    return null;
  }
  if (typed) keepKey(typed);
  return answer;
}

/** Open the person's page once the change is made: a moment later, when the figures are. */
function openPerson(answer, words) {
  say(`${words} The figures are being counted again: this page opens again in a moment.`);
  window.setTimeout(() => {
    window.location.assign(`/players/${encodeURIComponent(answer.player)}/view`);
  }, 1500);
}

if (form) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const picked = form.querySelector('input[name="player"]:checked');
    if (!picked) {
      say("Pick the name of the same person first.");
      return;
    }
    const name = form.dataset.name;
    const answer = await send("POST", name, { player: picked.value }, "count them as one player");
    if (answer) openPerson(answer, `${name} and ${picked.value} now count as one player, ${answer.player}.`);
  });
}

for (const button of document.querySelectorAll("button[data-part]")) {
  button.addEventListener("click", async () => {
    const name = button.dataset.part;
    const answer = await send("DELETE", name, null, `count ${name} apart`);
    if (answer && form) {
      say(`${name} counts as a player of their own again. The figures are being counted again: this page opens again in a moment.`);
      window.setTimeout(() => window.location.reload(), 1500);
    }
  });
}
