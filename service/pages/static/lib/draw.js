/* Drawing helpers, for the pages and the games' drawings (domain/<game>/browser/): SVG and HTML
 * elements, and a few words that are not a move's (a move's words come from the API). */

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element: svg("rect", {x: 1, class: "card"}, child, "text", ...). Null or false
 * attributes are left out; strings become text. */
export function svg(tag, attributes, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

export function text(x, y, content, attributes) {
  return svg("text", { x, y, ...(attributes || {}) }, String(content));
}

/** A tooltip for the element, read by pointer users (screen readers get the board's desc). */
export function titled(node, title) {
  node.prepend(svg("title", {}, title));
  return node;
}

/** An HTML element: element("button", {type: "button", text: "Go"}, child, ...). Null or false
 * attributes are left out, true ones are set empty; "text" is the text content. */
export function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children);
  return node;
}

export function plural(count, noun, many) {
  return `${count} ${count === 1 ? noun : many || noun + "s"}`;
}

export function humanize(id) {
  return String(id).replace(/_/g, " ");
}

/** A seat's name: the player's, else "seat N" counted from 1. */
export function seatName(seat, players) {
  return Number.isInteger(seat) && seat >= 0 && seat < players.length ? players[seat] : `seat ${seat + 1}`;
}

/** Draw ``state`` on the page's ``board`` with the game's drawing (its module's draw, if the game
 * has one), then give the board its title and description. ``frame`` is what the drawing is told
 * (players, colours, cards, at, version, status); the helpers above go with it. Returns what the
 * drawing returned: {title, description} and, for its record (the recorder's touches), `drawn`,
 * what it drew where. */
export function drawBoard(board, drawing, state, frame, title) {
  board.replaceChildren();
  let drawn = { title, description: "" };
  if (drawing && typeof drawing.draw === "function") {
    try {
      drawn = drawing.draw(board, state, {
        ...frame,
        // A phone's width: a drawing may lay the board out taller and narrower.
        narrow: board.parentElement.clientWidth < 560,
        svg,
        text,
        titled,
        plural,
        humanize,
      }) || drawn;
    } catch (error) {
      board.replaceChildren(text(20, 40, `Cannot draw this state: ${error.message}`, { class: "label" }));
      console.error(error);
    }
  }
  board.prepend(svg("title", { id: "board-title" }, drawn.title), svg("desc", { id: "board-desc" }, drawn.description));
  return drawn;
}

/** The game's drawing, a module of its package (null without one, or if it does not load). */
export async function loadDrawing(address) {
  if (!address) return null;
  try {
    return await import(address);
  } catch (error) {
    console.error("could not load the game's drawing:", error);
    return null;
  }
}
