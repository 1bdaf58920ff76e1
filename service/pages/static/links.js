/* A game's links, each with a copy button and its QR code: the recorder's
 * (/games/<id>/record#token=<token>), one per seat (the same page with that seat's token) and the
 * viewer's (no token). Shown by the new-game form once the game is made (new.js), and again on
 * the recorder's page of links (/games/<id>/share#token=<recorder's token>, templates/links.html),
 * where a seat's link can be replaced when a phone is lost: the old link then stops working.
 *
 * The tokens travel only in the links' fragments, which browsers never send; the QR code of a
 * link is drawn by the service from a POST body (POST /qr), never from an address.
 */
"use strict";

(function () {
  const Tabletape = (window.Tabletape = window.Tabletape || {});

  /** Where the links handed out point: an address the other phones at the table reach (the
   * page's data-share-origin, from the server: service/pages/addresses.py), else this page's. */
  function shareOrigin() {
    const marked = document.querySelector("[data-share-origin]");
    return (marked && marked.dataset.shareOrigin) || window.location.origin;
  }

  function linkTo(path, token, origin = window.location.origin) {
    const url = new URL(path, origin);
    if (token) url.hash = new URLSearchParams({ token }).toString();
    return url.href;
  }

  async function copy(url, field, what, note) {
    try {
      await navigator.clipboard.writeText(url);
      note.textContent = `${what} copied.`;
    } catch (error) {
      // No clipboard here (an address that is not https, say): select it for the user to copy.
      field.focus();
      field.select();
      note.textContent = "Copy the selected link (the clipboard is not available here).";
    }
  }

  async function drawQr(image, url) {
    try {
      const response = await fetch("/qr", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ text: url }),
        cache: "no-store",
      });
      if (response.ok) image.src = (await response.json()).svg;
    } catch (error) {
      image.alt = "The QR code could not be drawn; copy the link instead.";
    }
  }

  /** One link: its name (itself a link), its QR code, the address to select, a copy button. */
  function linkRow(list, { name, url, kind, seat, note, replace }) {
    const what = `${name}'s link`;
    const item = document.createElement("li");
    item.className = "link-row";
    item.dataset.kind = kind;
    if (seat !== undefined) item.dataset.seat = String(seat);
    const anchor = document.createElement("a");
    anchor.className = "link-name";
    anchor.textContent = name;
    const qr = document.createElement("img");
    qr.className = "qr";
    qr.width = 164;
    qr.height = 164;
    qr.alt = `QR code of ${what}: point a phone's camera at it`;
    const row = document.createElement("div");
    row.className = "share-row";
    const field = document.createElement("input");
    field.type = "text";
    field.readOnly = true;
    field.setAttribute("aria-label", what);
    field.addEventListener("focus", () => field.select());
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.setAttribute("aria-label", `Copy ${what}`);
    row.append(field, button);
    item.append(anchor, qr, row);
    function show(address) {
      anchor.href = address;
      field.value = address;
      drawQr(qr, address);
    }
    button.addEventListener("click", () => copy(field.value, field, what, note));
    if (url) show(url);
    else {
      anchor.removeAttribute("href");
      field.value = "";
      qr.hidden = true;
      field.placeholder = "made before links could be shown again: replace it";
    }
    if (replace) {
      const again = document.createElement("button");
      again.type = "button";
      again.className = "copy replace";
      again.textContent = "Replace this link";
      again.setAttribute("aria-label", `Replace ${what} (a lost phone): the old link stops working`);
      again.addEventListener("click", async () => {
        if (!window.confirm(`Replace ${what}? The old link stops working at once; send the new one to ${name}.`)) return;
        again.disabled = true;
        try {
          const address = await replace();
          qr.hidden = false;
          show(address);
          note.textContent = `${what} replaced: the old one no longer works.`;
        } catch (error) {
          note.textContent = `${what} was not replaced: ${error.message}`;
        } finally {
          again.disabled = false;
        }
      });
      item.append(again);
    }
    list.append(item);
  }

  /** Fill the recorder's, the seats' and the viewer's lists of `section` for `game` (its id and
   * players), with the recorder's token and the seats' (null: not to be shown again). */
  function show(section, game, recorderToken, seatTokens, replaceable) {
    const note = section.querySelector(".copy-note");
    const page = `/games/${encodeURIComponent(game.id)}`;
    // The links handed out, on the other phones' address; the way on, on this page's own.
    const shared = (path, token) => linkTo(path, token, shareOrigin());
    const recorder = shared(`${page}/record`, recorderToken);
    const open = section.querySelector(".open-recorder");
    if (open) open.href = linkTo(`${page}/record`, recorderToken);
    const lists = {
      recorder: section.querySelector(".recorder-links"),
      seat: section.querySelector(".seat-links"),
      viewer: section.querySelector(".viewer-links"),
    };
    Object.values(lists).forEach((list) => list.replaceChildren());
    linkRow(lists.recorder, { name: "Recorder", url: recorder, kind: "recorder", note });
    game.players.forEach((name, seat) => {
      const token = seatTokens[seat];
      const replace = replaceable
        ? async () => {
            const response = await fetch(`${page}/seats/${seat}/token`, {
              method: "POST",
              headers: { Authorization: `Bearer ${recorderToken}` },
              cache: "no-store",
            });
            const body = await response.json();
            if (response.status !== 201) throw new Error((body.error && body.error.message) || response.statusText);
            return shared(`${page}/record`, body.token);
          }
        : null;
      linkRow(lists.seat, { name, url: token ? shared(`${page}/record`, token) : null, kind: "seat", seat, note, replace });
    });
    linkRow(lists.viewer, { name: "Viewer", url: shared(`${page}/view`), kind: "viewer", note });
    section.dataset.gameId = game.id;
  }

  Tabletape.links = { show, linkTo, drawQr };

  /** The recorder's page of links: the token from the fragment, the seats' from the API. */
  async function linksPage() {
    const section = document.getElementById("links-page");
    if (!section) return;
    const token = new URLSearchParams(window.location.hash.replace(/^#/, "")).get("token");
    const message = document.getElementById("links-message");
    const base = `/games/${encodeURIComponent(section.dataset.gameId)}`;
    if (!token) {
      message.textContent = "Open this page from the recorder's page: only the recorder's own link can show the players' links.";
      message.hidden = false;
      return;
    }
    const headers = { Authorization: `Bearer ${token}` };
    try {
      const [game, seats] = await Promise.all([
        fetch(base, { headers, cache: "no-store" }).then((r) => r.json().then((body) => ({ ok: r.ok, body }))),
        fetch(`${base}/links`, { headers, cache: "no-store" }).then((r) => r.json().then((body) => ({ ok: r.ok, body }))),
      ]);
      if (!seats.ok || !game.ok) {
        message.textContent = ((seats.body.error || game.body.error) || {}).message || "The links cannot be shown.";
        message.hidden = false;
        return;
      }
      show(section, game.body, token, seats.body.seat_tokens, true);
      section.querySelectorAll(".link-group").forEach((group) => (group.hidden = false));
    } catch (error) {
      message.textContent = `The service could not be reached (${error.message}).`;
      message.hidden = false;
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", linksPage);
  else linksPage();
})();
