/* The service's WRITE_KEY as this device keeps it: asked once (by the new-game form, the /import
 * page) and kept in localStorage once the service took it; a kept key the service refuses is
 * forgotten. Storage may be refused (private modes, policies): the key is then asked again.
 * Both forms carry the same key field: #field-write_key, its input #write_key and its message
 * #error-write_key. */

const KEPT_KEY = "tabletape.writeKey";

/** The key this device keeps, or "". */
export function keptKey() {
  try {
    return window.localStorage.getItem(KEPT_KEY) || "";
  } catch (ignored) {
    return "";
  }
}

/** Keep `key` on this device ("" forgets it). */
export function keepKey(key) {
  try {
    if (key) window.localStorage.setItem(KEPT_KEY, key);
    else window.localStorage.removeItem(KEPT_KEY);
  } catch (ignored) {
    /* asked again next time */
  }
}

/** The service wants its write key, or `refused` the one sent: forget the kept key and ask for it
 * in the form's key field, saying what the form's button then does (`then`: "import"). */
export function askForKey(refused, then) {
  keepKey("");
  const field = document.getElementById("field-write_key");
  const input = document.getElementById("write_key");
  const message = document.getElementById("error-write_key");
  field.hidden = false;
  input.value = "";
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", "error-write_key");
  message.textContent = refused
    ? `The service refused this key. Type it again, then ${then}.`
    : `This service asks for its write key to add games. Type it, then ${then}: this device keeps it.`;
  message.hidden = false;
  input.focus();
}
