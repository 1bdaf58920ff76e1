/* The service's WRITE_KEY as this device keeps it: asked once (by the new-game form, the /import
 * page) and kept in localStorage once the service took it; a kept key the service refuses is
 * forgotten. Storage may be refused (private modes, policies): the key is then asked again. */

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
