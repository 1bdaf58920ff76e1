/* Whose link the recorder page was opened with (the recorder's, a seat's, none: a spectator's), said
 * in the page's words or its game's own (a score pad has no hands), and sharing this page's link
 * with a co-recorder. */

/** Whose link opened the recorder page ``rec`` (recorder/page.js's context): its functions,
 * to be assigned to ``rec``. */
export function whoOf(rec) {
  const { root, undo, recordingAs, view, drawing } = rec;
  function showWho() {
    // A game's package may word whose page this is its own way (a score pad has no hands).
    const own = (drawing && drawing.words) || {};
    if (view.role === "recorder") {
      recordingAs.textContent = own.recorder || "Recorder (all seats): every move, every hand.";
    } else if (view.role === "seat") {
      const name = rec.nameOf(view.seat);
      recordingAs.textContent = own.seat ? own.seat(name) : `Recording as ${name}: ${name}'s hand and moves only.`;
    } else if (view.refused) {
      recordingAs.textContent = "Not recording: this link is not this game's.";
    } else {
      recordingAs.textContent = "Not recording: this is the link for spectators; a player's own link records.";
    }
    recordingAs.hidden = false;
    recordingAs.dataset.role = view.role;
    if (view.role === "recorder") {
      // The links page takes the recorder's token in its fragment too.
      const links = document.getElementById("links-page-link");
      links.href = `${links.getAttribute("href")}#${new URLSearchParams({ token: view.token })}`;
      links.hidden = false;
    }
    root.dataset.role = view.role;
    if (view.role === "seat") {
      // A seat's link is that player's: it is not for a co-recorder, and it cannot undo.
      root.dataset.seat = String(view.seat);
      undo.hidden = true;
      const name = rec.nameOf(view.seat);
      document.getElementById("share-summary").textContent = `${name}'s link`;
      document.getElementById("share-hint").textContent =
        `Whoever has this link sees ${name}'s hand and records ${name}'s moves: keep it to ${name} (to open this page on another device).`;
      document.getElementById("share-label").textContent = `${name}'s link`;
    }
  }

  const shareLink = document.getElementById("share-link");
  const shareNote = document.getElementById("share-note");
  shareLink.value = window.location.href;
  shareLink.addEventListener("focus", () => shareLink.select());
  document.getElementById("share-copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      shareNote.textContent = "Link copied.";
    } catch (error) {
      shareLink.focus();
      shareLink.select();
      shareNote.textContent = "Copy the selected link (the clipboard is not available here).";
    }
  });

  return { showWho };
}
