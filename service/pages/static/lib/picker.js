/* The picker sheet (the recorder's #picker): a question with a few options, and the moves that
 * differ only by what chance brought, asked one chance field at a time (a list, such as the cards
 * dealt, one item at a time), offering only the values GET /legal lists.
 *
 * The sheet is a <dialog> opened with showModal(): while it asks, the rest of the page is inert
 * (no touch reaches the board behind it). It opens scrolled to its top, its question in view. A
 * long list of options whose options carry `features` ({"Mango": "green", "Palms": "3 palms"})
 * is narrowed by them: a row of chips per feature, what the person sees on the component in hand. */

import { element, humanize, svg } from "./draw.js";

// The sheet's way out, unless a question words it its own way.
const CANCEL = "Cancel";

/** A value chosen, in words: "none", "7, 8", "lemur". */
function shown(value) {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.map(shown).join(", ") || "none";
  if (typeof value === "object") return JSON.stringify(value);
  return humanize(value);
}

/** A small picture for a button or a picker's option: picture(svg) draws into 48x64. */
export function pictureOf(picture) {
  const drawing = svg("svg", { class: "picture", viewBox: "0 0 48 64", width: 36, height: 48, "aria-hidden": "true", focusable: "false" });
  picture(drawing);
  return drawing;
}

function listOf(move, field) {
  const value = move[field];
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
}

function containsAll(list, wanted) {
  const left = list.map((item) => JSON.stringify(item));
  for (const item of wanted) {
    const at = left.indexOf(JSON.stringify(item));
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

/** Where a pick among `moves` stands after the `steps` chosen ({field, value}): the candidates
 * left, the field asked, the choices offered; or {done} once one move is left. */
export function pickerStep(moves, steps, fieldsOf) {
  let candidates = moves;
  const fields = [...new Set(candidates.flatMap((move) => fieldsOf(move)))];
  const chosen = [];
  for (const field of fields) {
    const isList = candidates.some((move) => Array.isArray(move[field]));
    const picks = steps.filter((step) => step.field === field).map((step) => step.value);
    if (isList) {
      candidates = candidates.filter((move) => containsAll(listOf(move, field), picks));
      if (picks.length) chosen.push(`${humanize(field)}: ${picks.map(shown).join(", ")}`);
      const exact = candidates.filter((move) => listOf(move, field).length === picks.length);
      const longer = candidates.filter((move) => listOf(move, field).length > picks.length);
      if (!longer.length) continue;
      const values = new Map();
      for (const move of longer) {
        const rest = listOf(move, field).slice();
        for (const pick of picks) rest.splice(rest.findIndex((item) => JSON.stringify(item) === JSON.stringify(pick)), 1);
        for (const item of rest) values.set(JSON.stringify(item), item);
      }
      const size = Math.max(...longer.map((move) => listOf(move, field).length));
      return { field, isList, candidates, chosen, exact, values: [...values.values()], question: `${humanize(field)}: ${picks.length + 1} of ${size}` };
    }
    if (picks.length) {
      candidates = candidates.filter((move) => JSON.stringify(move[field] ?? null) === JSON.stringify(picks[0]));
      chosen.push(`${humanize(field)}: ${shown(picks[0])}`);
      continue;
    }
    const values = new Map();
    for (const move of candidates) values.set(JSON.stringify(move[field] ?? null), move[field] ?? null);
    if (values.size <= 1) continue;
    return { field, isList, candidates, chosen, exact: [], values: [...values.values()], question: humanize(field) };
  }
  return { done: true, candidates, chosen };
}

/** A picker's option: its picture, its words, the count of equal ones. */
function optionButton(option) {
  const button = element("button", { type: "button", class: "option", "data-records-move": true, "data-value": JSON.stringify(option.value ?? null) });
  if (option.picture) button.append(pictureOf(option.picture));
  button.append(element("span", { class: "option-label", text: option.label }));
  if (option.count > 1) button.append(element("span", { class: "count", text: `×${option.count}` }));
  return button;
}

export class Picker {
  /** `root` carries data-picking; `fieldsOf(move)` names a move's chance fields. */
  constructor(root, fieldsOf) {
    this.root = root;
    this.fieldsOf = fieldsOf;
    this.box = document.getElementById("picker");
    this.title = document.getElementById("picker-title");
    this.chosen = document.getElementById("picker-chosen");
    this.options = document.getElementById("picker-options");
    this.filters = document.getElementById("picker-filters");
    this.back = document.getElementById("picker-back");
    this.cancel = document.getElementById("picker-cancel");
    this.group = null; // the moves being picked among: {moves, words}
    this.steps = [];
    this.opener = null;
    this.onMove = null; // what the move picked goes to
    this.answer = null; // the pending ask()'s resolve
    this.busy = false;
    this.stepBack = null; // Back in a sheet of several picks (askMany)
    this.back.addEventListener("click", () => {
      if (this.stepBack) {
        this.stepBack();
        return;
      }
      this.steps.pop();
      this.render();
    });
    this.cancel.addEventListener("click", () => this.close(true));
    // Escape (the dialog's own cancel) closes the sheet as Cancel does.
    this.box.addEventListener("cancel", (event) => {
      event.preventDefault();
      this.close(true);
    });
  }

  /** Open the sheet as a modal dialog, scrolled to its top with its question in view. */
  show() {
    this.box.hidden = false;
    if (typeof this.box.showModal === "function" && !this.box.open) this.box.showModal();
    this.root.dataset.picking = "true";
    this.toTop();
  }

  toTop() {
    this.box.scrollTop = 0;
    this.options.scrollTop = 0;
  }

  /** Focus the first option, the sheet still at its top (the focus must not scroll it). */
  focusFirst() {
    const first = this.options.querySelector("button");
    if (first) first.focus({ preventScroll: true });
    this.toTop();
  }

  /** Show `options` in the sheet, a button each (narrowed by their features), the first
   * focused: a touch hands its option to `onChoose`. */
  offer(options, onChoose) {
    this.options.replaceChildren();
    const buttons = options.map((option) => {
      const button = optionButton(option);
      button.addEventListener("click", () => onChoose(option));
      this.options.append(button);
      return button;
    });
    this.narrow(options, buttons);
    this.show();
    this.focusFirst();
  }

  /** The options narrowed by the features chosen; a row of chips per feature when there are
   * many options and they carry features. */
  narrow(options, buttons) {
    this.filters.replaceChildren();
    const keys = [...new Set(options.flatMap((option) => Object.keys(option.features || {})))];
    this.filters.hidden = !(keys.length && options.length > 8);
    if (this.filters.hidden) return;
    const wanted = {};
    const apply = () => {
      options.forEach((option, index) => {
        const features = option.features || {};
        buttons[index].hidden = !keys.every((key) => wanted[key] === undefined || features[key] === wanted[key]);
      });
      for (const chip of this.filters.querySelectorAll("button")) {
        chip.setAttribute("aria-pressed", String(wanted[chip.dataset.key] === (chip.dataset.any ? undefined : chip.dataset.value)));
      }
      this.toTop();
    };
    for (const key of keys) {
      const values = [...new Set(options.map((option) => (option.features || {})[key]).filter((value) => value !== undefined))]
        .sort((a, b) => String(a).localeCompare(String(b), undefined, { numeric: true }));
      if (values.length < 2) continue;
      const row = element("div", { class: "filter-row", role: "group", "aria-label": key });
      row.append(element("span", { class: "filter-name", text: key }));
      const any = element("button", { type: "button", class: "chip", "data-key": key, "data-any": "true", text: "any" });
      any.addEventListener("click", () => {
        delete wanted[key];
        apply();
      });
      row.append(any);
      for (const value of values) {
        const chip = element("button", { type: "button", class: "chip", "data-key": key, "data-value": value, text: value });
        chip.addEventListener("click", () => {
          wanted[key] = value;
          apply();
        });
        row.append(chip);
      }
      this.filters.append(row);
    }
    apply();
  }

  setBusy(busy) {
    this.busy = busy;
    for (const button of this.box.querySelectorAll("button")) button.disabled = busy;
  }

  /** The sheet as a question: a Promise of the value chosen (null: cancelled). `cancel` words
   * the sheet's one way out for this question ("No, not yet"): a question has no "No" option
   * beside a Cancel. */
  ask({ title, options, note, cancel }) {
    this.close(false);
    return new Promise((resolve) => {
      this.title.textContent = title;
      this.cancel.textContent = cancel || CANCEL;
      this.chosen.textContent = note || "";
      this.chosen.hidden = !note;
      this.back.hidden = true;
      this.answer = resolve;
      this.offer(options, (option) => {
        this.answer = null;
        this.close(false);
        resolve(option.value);
      });
    });
  }

  /** One sheet for several components of one kind (the cards dealt to a seat): each touch adds
   * one, Back takes the last back; a Promise of the list once `count` are chosen (null:
   * cancelled). `titleOf(chosen)` and `optionsOf(chosen)` say the question and what may come. */
  askMany({ titleOf, optionsOf, count, noteOf }) {
    this.close(false);
    return new Promise((resolve) => {
      const chosen = [];
      this.answer = resolve;
      const render = () => {
        if (chosen.length >= count) {
          this.answer = null;
          this.close(false);
          resolve(chosen.slice());
          return;
        }
        this.title.textContent = titleOf(chosen);
        const note = noteOf ? noteOf(chosen) : "";
        this.chosen.textContent = note;
        this.chosen.hidden = !note;
        this.back.hidden = false;
        this.back.disabled = !chosen.length || this.busy;
        this.offer(optionsOf(chosen), (option) => {
          chosen.push(option.value);
          render();
        });
      };
      this.stepBack = () => {
        chosen.pop();
        render();
      };
      render();
    });
  }

  /** Pick one of `group.moves` (they differ by their chance fields only), field by field; the
   * move picked goes to onMove. */
  open(group, opener, onMove) {
    this.group = group;
    this.steps = [];
    this.opener = opener;
    this.onMove = onMove;
    this.show();
    this.render();
  }

  render() {
    const step = pickerStep(this.group.moves, this.steps, this.fieldsOf);
    if (step.done) {
      const [move] = step.candidates;
      const { opener, onMove } = this;
      this.close(false);
      if (opener) opener.focus();
      if (move) onMove(move);
      return;
    }
    this.title.textContent = `${this.group.words} · ${step.question}`;
    this.chosen.textContent = step.chosen.length ? `So far: ${step.chosen.join("; ")}` : "Pick what came up.";
    this.options.replaceChildren();
    const sorted = step.values.slice().sort((a, b) => {
      if (typeof a === "number" && typeof b === "number") return a - b;
      return String(a).localeCompare(String(b));
    });
    for (const value of sorted) {
      const button = element("button", { type: "button", class: "option", "data-records-move": true, "data-field": step.field, "data-value": JSON.stringify(value) }, shown(value));
      button.addEventListener("click", () => {
        this.steps.push({ field: step.field, value });
        this.render();
      });
      this.options.append(button);
    }
    if (step.exact.length) {
      const button = element("button", { type: "button", class: "option done", "data-records-move": true, "data-field": step.field, "data-value": "done" }, "No more");
      button.addEventListener("click", () => {
        const { onMove } = this;
        this.close(true);
        onMove(step.exact[0]);
      });
      this.options.append(button);
    }
    this.back.disabled = !this.steps.length || this.busy;
    this.narrow([], []);
    this.focusFirst();
  }

  close(refocus) {
    const opener = this.opener;
    if (this.answer) {
      const answer = this.answer;
      this.answer = null;
      answer(null);
    }
    this.back.hidden = false;
    this.chosen.hidden = false;
    this.cancel.textContent = CANCEL;
    if (this.box.open) this.box.close();
    this.box.hidden = true;
    this.stepBack = null;
    // Its options go with it: a control that records is never left hidden in the page.
    this.options.replaceChildren();
    this.filters.replaceChildren();
    this.filters.hidden = true;
    this.group = null;
    this.steps = [];
    this.opener = null;
    this.root.dataset.picking = "false";
    if (refocus && opener && opener.isConnected) opener.focus();
  }
}
