/* The recorder's board at a finger's size. A board drawn to fit the screen shrinks as it grows (a
 * grid of many boxes, five seats of cards): where the fitted board would draw a control that records
 * (data-records-move) smaller than a finger (44x44 CSS px), the board is drawn larger than its frame
 * instead, at the scale that keeps every such control at that size, and the frame scrolls: the
 * person moves the board with a finger, or pinches (or touches "Zoom out") to look at it
 * whole, and "Zoom in" (or a move recorded) brings the touch size back.
 *
 * The scale is read off the drawing: the smallest target's box in the drawing's own units (getBBox)
 * against the board's viewBox, so no game says anything about it. */

const FINGER = 46; // CSS px, a little over WCAG 2.5.5's 44 for the rounding of strokes
const MOST = 4; // the largest scale a pinch reaches

export class BoardZoom {
  /** `board` is the <svg>, `frame` the element around it that scrolls, `toggle` a button. */
  constructor(board, frame, toggle) {
    this.board = board;
    this.frame = frame;
    this.toggle = toggle;
    this.touchScale = null; // the scale that keeps the targets at a finger's size, when needed
    this.fitScale = null; // the scale of the board fitted to its frame
    this.chosen = null; // a scale the person chose (pinch, "Zoom out")
    this.toggle.addEventListener("click", () => {
      this.chosen = this.chosen === null ? this.fitScale : null;
      this.apply();
      if (this.chosen === null) this.showTarget();
    });
    this.pinching();
  }

  viewBox() {
    const box = this.board.viewBox && this.board.viewBox.baseVal;
    return box && box.width > 0 && box.height > 0 ? box : null;
  }

  /** The board as laid out now: fitted to the frame, or larger where a target would be small.
   * `fresh` (a new move to record) drops the scale the person chose. */
  fit(fresh) {
    if (fresh) this.chosen = null;
    const box = this.viewBox();
    const targets = [...this.board.querySelectorAll("[data-records-move]")];
    if (fresh || this.fitScale === null) {
      // The board fitted to its frame, measured once a drawing (a choice in progress keeps it).
      this.setSize(null);
      this.frame.classList.remove("zoomed");
      const shown = this.board.getBoundingClientRect();
      // The drawing keeps its proportions within the element (preserveAspectRatio meet).
      this.fitScale = box ? Math.min(shown.width / box.width, shown.height / box.height) : null;
    }
    let smallest = Infinity;
    for (const target of targets) {
      try {
        const area = target.getBBox();
        if (area.width > 0 && area.height > 0) smallest = Math.min(smallest, area.width, area.height);
      } catch (error) {
        /* not drawn: nothing to measure */
      }
    }
    const needed = smallest === Infinity || !box ? 0 : FINGER / smallest;
    const touchScale = needed > this.fitScale ? Math.min(needed, MOST) : null;
    if (!fresh && touchScale === this.touchScale) return;
    this.touchScale = touchScale;
    this.apply();
    if (this.touchScale !== null) this.showTarget();
  }

  setSize(scale) {
    const box = this.viewBox();
    if (scale === null || !box) {
      this.board.style.removeProperty("width");
      this.board.style.removeProperty("height");
      this.board.style.removeProperty("max-height");
      this.board.style.removeProperty("max-width");
      return;
    }
    this.board.style.width = `${box.width * scale}px`;
    this.board.style.height = `${box.height * scale}px`;
    this.board.style.maxHeight = "none";
    this.board.style.maxWidth = "none";
  }

  apply() {
    const zoomed = this.touchScale !== null;
    const scale = this.chosen !== null ? this.chosen : this.touchScale;
    this.setSize(zoomed && this.chosen !== this.fitScale ? scale : null);
    this.frame.classList.toggle("zoomed", zoomed);
    this.frame.dataset.scale = zoomed ? String(scale) : "";
    this.toggle.hidden = !zoomed;
    this.toggle.textContent = this.chosen === null ? "Zoom out" : "Zoom in";
  }

  /** The frame scrolled (not the page) so that the first control that records is in view. */
  showTarget() {
    const focused = document.activeElement;
    const target = focused && this.board.contains(focused) && focused.matches("[data-records-move]")
      ? focused : this.board.querySelector("[data-records-move]");
    if (!target) return;
    const frame = this.frame.getBoundingClientRect();
    const area = target.getBoundingClientRect();
    if (area.left < frame.left || area.right > frame.right) {
      this.frame.scrollLeft += area.left - frame.left - (frame.width - area.width) / 2;
    }
    if (area.top < frame.top || area.bottom > frame.bottom) {
      this.frame.scrollTop += area.top - frame.top - Math.max(8, (frame.height - area.height) / 3);
    }
  }

  /** Two fingers on the board zoom it (between the whole board and four times its units); one
   * moves it (the frame scrolls). */
  pinching() {
    const fingers = new Map();
    let start = null;
    const distance = () => {
      const [a, b] = [...fingers.values()];
      return Math.hypot(a.x - b.x, a.y - b.y) || 1;
    };
    this.frame.addEventListener("pointerdown", (event) => {
      if (event.pointerType !== "touch") return;
      fingers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (fingers.size === 2 && this.touchScale !== null) {
        const box = this.viewBox();
        const shown = this.board.getBoundingClientRect();
        const now = box ? Math.min(shown.width / box.width, shown.height / box.height) : 1;
        start = { distance: distance(), scale: now };
      }
    });
    this.frame.addEventListener("pointermove", (event) => {
      if (!fingers.has(event.pointerId)) return;
      fingers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (fingers.size !== 2 || !start) return;
      const scale = Math.min(MOST, Math.max(this.fitScale, (start.scale * distance()) / start.distance));
      this.chosen = scale;
      this.setSize(scale);
      this.toggle.textContent = "Zoom in";
    });
    const lift = (event) => {
      fingers.delete(event.pointerId);
      if (fingers.size < 2) start = null;
    };
    this.frame.addEventListener("pointerup", lift);
    this.frame.addEventListener("pointercancel", lift);
  }
}
