/* The /import page (templates/import.html): bring a group's history in.
 *
 * The file chosen is read here, in the browser, to show what it holds: its plays (ignored ones
 * left out, as the service leaves them), their games and their players. Each player of the file
 * is given a name here, suggested from the names the service knows (the same name whatever its
 * case or accents, or one a letter or two away, or the same first name). The file then goes to
 * POST /imports/bgstats ({export, names}) or POST /imports/bgg (its XML, the names written in),
 * and the answer says what was imported, already there and not imported, each play not imported
 * named by its game, day and players, with the reason.
 *
 * Before that, as soon as the file is read, the same body goes to the import's preview
 * (/imports/bgstats/preview, /imports/bgg/preview), which writes nothing: the page says how many
 * of the plays are here already, and which cannot be imported, and why.
 *
 * A service that sets WRITE_KEY answers 401 without it: the page asks for the key once and keeps
 * it on this device (localStorage, as the new-game form does); a kept key refused is forgotten.
 */

import { askForKey, keepKey, keptKey } from "./lib/write-key.js";

/** A name as compared: lower case, accents and extra spaces gone. */
export function folded(name) {
  return name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/\s+/g, " ").trim();
}

function distance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/** The known name closest to ``name``, or "" when none is close. */
export function suggestion(name, known) {
  if (known.includes(name)) return name;
  const mine = folded(name);
  let best = "";
  let bestScore = Infinity;
  for (const other of known) {
    const theirs = folded(other);
    let score;
    if (theirs === mine) score = 0;
    else if (theirs.split(" ")[0] === mine || mine.split(" ")[0] === theirs) score = 1;
    else {
      const apart = distance(mine, theirs);
      score = apart <= Math.max(1, Math.floor(Math.min(mine.length, theirs.length) / 4)) ? 1 + apart : Infinity;
    }
    if (score < bestScore) {
      best = other;
      bestScore = score;
    }
  }
  return best;
}

/** A day as people write it ("4 January 2021"), from the file's "2021-01-04...". */
function day(text) {
  const found = /^(\d{4})-(\d{2})-(\d{2})/.exec(text || "");
  if (!found) return "";
  const date = new Date(Date.UTC(Number(found[1]), Number(found[2]) - 1, Number(found[3])));
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

/** A play in words: its game, its day, its players ("Azul, 4 January 2021, Ann and Ben"). */
function inWords(title, date, names) {
  const who = names.filter(Boolean);
  const players = who.length > 1 ? `${who.slice(0, -1).join(", ")} and ${who[who.length - 1]}` : who.join("");
  return [title || "a game not named", day(date), players].filter(Boolean).join(", ");
}

/** Count one more play of `key` in the map `counts`. */
function countIn(counts, key) {
  if (typeof key === "string" && key) counts.set(key, (counts.get(key) || 0) + 1);
}

/** What a BG Stats backup holds: its plays not ignored, their games and players' names. */
function readBackup(text) {
  const backup = JSON.parse(text);
  const lists = ["players", "games", "plays"].every((field) => Array.isArray(backup && backup[field]));
  if (!lists) throw new Error("This is not a BG Stats backup: it has no players, games and plays.");
  const players = new Map(backup.players.map((player) => [player.id, player.name]));
  const games = new Map(backup.games.map((game) => [game.id, game.name]));
  const plays = backup.plays.filter((play) => play && play.ignored !== true);
  const counts = new Map();
  const titles = new Map();
  const described = new Map();
  for (const play of plays) {
    countIn(titles, games.get(play.gameRefId));
    const names = (Array.isArray(play.playerScores) ? play.playerScores : []).map((score) => players.get(score && score.playerRefId));
    for (const name of names) countIn(counts, name);
    if (typeof play.uuid === "string") described.set(play.uuid, inWords(games.get(play.gameRefId), play.playDate, names));
  }
  return { kind: "bgstats", document: backup, plays: plays.length, titles, counts, described };
}

/** What BoardGameGeek's XML holds: its plays, their games and players' names. */
function readPlays(text) {
  const document = new DOMParser().parseFromString(text, "application/xml");
  if (document.querySelector("parsererror") || document.documentElement.nodeName !== "plays") {
    throw new Error("This is not BoardGameGeek's plays: an XML file whose root is <plays>.");
  }
  const plays = [...document.documentElement.getElementsByTagName("play")];
  const counts = new Map();
  const titles = new Map();
  const described = new Map();
  for (const play of plays) {
    const item = play.getElementsByTagName("item")[0];
    const title = item ? item.getAttribute("name") : "";
    countIn(titles, title);
    const names = [...play.getElementsByTagName("player")].map(
      (player) => (player.getAttribute("name") || "").trim() || (player.getAttribute("username") || "").trim(),
    );
    for (const name of names) countIn(counts, name);
    described.set((play.getAttribute("id") || "").trim(), inWords(title, play.getAttribute("date"), names));
  }
  return { kind: "bgg", document, text, plays: plays.length, titles, counts, described };
}

function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}

/** A play the service did not (or would not) import, in words: the play, then why. */
function notImported(read, id, why) {
  const item = document.createElement("li");
  // BoardGameGeek's play logged N times at once: its k-th is known as "<id>/k".
  const [base, again] = (id || "").split("/");
  const play = read && id ? read.described.get(id) || read.described.get(base) : "";
  if (play) {
    const name = document.createElement("strong");
    name.textContent = again ? `${play} (logged ${again === "2" ? "twice" : "several times"} at once: number ${again})` : play;
    item.append(name, ": ");
  }
  const reason = document.createElement("span");
  reason.className = "why";
  reason.textContent = why;
  item.append(reason);
  return item;
}

/** The titles of the file, most played first, with their plays: a dozen, then how many more. */
function titleItems(titles) {
  const sorted = [...titles.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const items = sorted.slice(0, 12).map(([title, plays]) => {
    const item = document.createElement("li");
    const count = document.createElement("span");
    count.className = "plays";
    count.textContent = ` · ${plural(plays, "play", "plays")}`;
    item.append(title, count);
    return item;
  });
  if (sorted.length > 12) {
    const more = document.createElement("li");
    more.textContent = `and ${plural(sorted.length - 12, "other game", "other games")}`;
    items.push(more);
  }
  return items;
}

function start() {
  const root = document.getElementById("import-history");
  if (!root) return;
  const known = JSON.parse(root.dataset.known || "[]");
  const form = document.getElementById("import-form");
  const fileInput = document.getElementById("file");
  const fileError = document.getElementById("error-file");
  const formError = document.getElementById("form-error");
  const found = document.getElementById("found");
  const namesBox = document.getElementById("names");
  const submit = document.getElementById("import");
  const keyField = document.getElementById("field-write_key");
  const keyInput = document.getElementById("write_key");
  let read = null;
  let importing = false;
  let previewing = Promise.resolve();

  function showError(slot, message) {
    slot.textContent = message;
    slot.hidden = !message;
  }

  function source() {
    return form.querySelector('input[name="source"]:checked').value;
  }

  function nameRow(name, plays, index) {
    const row = document.createElement("div");
    row.className = "name-row";
    const label = document.createElement("label");
    label.className = "there";
    label.htmlFor = `name-${index}`;
    label.textContent = name;
    const count = document.createElement("span");
    count.className = "plays";
    count.textContent = plural(plays, "play", "plays");
    label.append(count);
    const input = document.createElement("input");
    input.type = "text";
    input.id = `name-${index}`;
    input.maxLength = 64;
    input.autocomplete = "off";
    input.setAttribute("list", "known-names");
    input.dataset.there = name;
    input.value = suggestion(name, known) || name;
    const note = document.createElement("p");
    note.className = "known";
    note.id = `known-${index}`;
    input.setAttribute("aria-describedby", note.id);
    const noteName = () => {
      const here = input.value.trim();
      note.textContent = known.includes(here) ? "known here" : "a new player here";
    };
    input.addEventListener("input", noteName);
    noteName();
    row.append(label, input, note);
    return row;
  }

  async function chooseFile() {
    showError(fileError, "");
    showError(formError, "");
    found.hidden = true;
    submit.disabled = true;
    read = null;
    const file = fileInput.files[0];
    if (!file) return;
    try {
      const text = await file.text();
      read = source() === "bgstats" ? readBackup(text) : readPlays(text);
    } catch (error) {
      showError(fileError, error instanceof SyntaxError ? "This file is not JSON: choose the backup BG Stats made." : error.message);
      return;
    }
    document.getElementById("found-summary").textContent =
      `${plural(read.plays, "play", "plays")} of ${plural(read.titles.size, "game", "games")}, ${plural(read.counts.size, "player", "players")}.`;
    document.getElementById("found-titles").replaceChildren(...titleItems(read.titles));
    namesBox.replaceChildren(
      ...[...read.counts.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([name, plays], index) => nameRow(name, plays, index)),
    );
    found.hidden = false;
    submit.disabled = read.plays === 0;
    preview();
  }

  /** Ask the service what the import would bring (it writes nothing), unless the import is on
   * its way: the import waits for it (each holds one of the service's import slots). */
  function preview() {
    if (!importing) previewing = askWhatIsHere().catch(() => {});
    return previewing;
  }

  /** How many of the file's plays are here already, which cannot be imported and why. Without
   * the write key it asks for it. */
  async function askWhatIsHere() {
    const here = document.getElementById("found-here");
    const list = document.getElementById("found-skipped");
    const box = document.getElementById("found-skipped-list");
    here.hidden = true;
    box.hidden = true;
    if (!read || read.plays === 0) return;
    const asked = read;
    const typed = keyField.hidden ? "" : keyInput.value.trim();
    const key = typed || keptKey();
    const sent = request(mapping());
    const headers = { "Content-Type": sent.type };
    if (key) headers.Authorization = `Bearer ${key}`;
    let response;
    let answer;
    try {
      response = await fetch(`${sent.path}/preview`, { method: "POST", headers, body: sent.body });
      answer = await response.json().catch(() => null);
    } catch (error) {
      return; // The import says so, if the service is still out of reach then.
    }
    if (asked !== read) return; // Another file was chosen meanwhile.
    if (response.status === 401) {
      askForKey(Boolean(key), "import");
      here.textContent = "How many of these plays are here already shows once the write key is given.";
      here.hidden = false;
      return;
    }
    if (!response.ok || !answer) return;
    if (typed) keepKey(typed);
    here.textContent = answer.already === 0
      ? "None of these plays is here yet."
      : `${plural(answer.already, "of these plays is", "of these plays are")} here already: ${answer.already === 1 ? "it is" : "they are"} not imported twice.`;
    here.hidden = false;
    list.replaceChildren(...answer.skipped.map((one) => notImported(read, one.uuid, one.reason)));
    box.hidden = answer.skipped.length === 0;
  }

  /** The names changed: {"name in the file": "name here"}. */
  function mapping() {
    const names = {};
    for (const input of namesBox.querySelectorAll("input")) {
      const here = input.value.trim();
      if (here && here !== input.dataset.there) names[input.dataset.there] = here;
    }
    return names;
  }

  function request(names) {
    if (read.kind === "bgstats") {
      return { path: "/imports/bgstats", type: "application/json", body: JSON.stringify({ export: read.document, names }) };
    }
    // BoardGameGeek's XML carries the names itself: the names here are written into it.
    const copy = read.document.cloneNode(true);
    for (const player of copy.getElementsByTagName("player")) {
      const there = (player.getAttribute("name") || "").trim() || (player.getAttribute("username") || "").trim();
      if (names[there]) player.setAttribute("name", names[there]);
    }
    return { path: "/imports/bgg", type: "application/xml", body: new XMLSerializer().serializeToString(copy) };
  }

  function showImported(answer) {
    document.getElementById("count-imported").textContent = answer.imported;
    document.getElementById("count-already").textContent = answer.already;
    const differs = answer.differs || [];
    document.getElementById("count-skipped").textContent = answer.skipped.length + differs.length;
    const list = document.getElementById("skipped");
    list.replaceChildren(
      ...answer.skipped.map((one) => notImported(read, one.uuid, one.reason)),
      ...differs.map((one) =>
        notImported(read, one.uuid, "a different play was imported before under the same id (was it changed in the app since?): this one is left out"),
      ),
    );
    document.getElementById("skipped-list").hidden = answer.skipped.length + differs.length === 0;
    form.hidden = true;
    const section = document.getElementById("imported");
    section.hidden = false;
    section.focus();
  }

  async function send(event) {
    event.preventDefault();
    if (!read) return;
    showError(formError, "");
    const typed = keyField.hidden ? "" : keyInput.value.trim();
    const key = typed || keptKey();
    const sent = request(mapping());
    const headers = { "Content-Type": sent.type };
    if (key) headers.Authorization = `Bearer ${key}`;
    submit.disabled = true;
    submit.textContent = `Importing ${plural(read.plays, "play", "plays")}…`;
    importing = true;
    await previewing;
    try {
      const response = await fetch(sent.path, { method: "POST", headers, body: sent.body });
      const answer = await response.json().catch(() => null);
      if (response.status === 401) {
        askForKey(Boolean(key), "import");
        return;
      }
      if (!response.ok) {
        showError(formError, (answer && answer.error && answer.error.message) || `The service answered ${response.status}.`);
        formError.focus();
        return;
      }
      if (typed) keepKey(typed);
      showImported(answer);
    } catch (error) {
      showError(formError, "The service could not be reached: check the connection and import again (nothing is imported twice).");
      formError.focus();
    } finally {
      importing = false;
      submit.disabled = false;
      submit.textContent = "Import";
    }
  }

  fileInput.addEventListener("change", chooseFile);
  // The key given: what is here already can be told now.
  keyInput.addEventListener("change", preview);
  for (const radio of form.querySelectorAll('input[name="source"]')) radio.addEventListener("change", chooseFile);
  form.addEventListener("submit", send);
}

start();
