/* A score sheet, drawn from its state (domain/scoresheet/views.py): the title, then one column per
 * player with their running total and, once the game has ended, their rank. Nothing is hidden.
 *
 * Data attributes carry what is drawn, for tests and tools: data-totals and data-ranks (once
 * ended) on the sheet's group; data-seat and data-total on each player's column.
 */
import { svg, text, titled } from "../../lib/draw.js";

const COLUMN_MIN = 84;

function ordinal(rank) {
  const tens = rank % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[rank % 10] || "th");
  return `${rank}${suffix}`;
}

function draw(board, state, ctx) {
  const seats = state.totals.length;
  const width = Math.max(ctx.narrow ? 380 : 680, seats * COLUMN_MIN + 16);
  const column = (width - 16) / seats;
  const result = state.result || null;
  board.setAttribute("viewBox", `0 0 ${width} 150`);
  const sheet = svg("g", {
    class: "sheet",
    "data-totals": JSON.stringify(state.totals),
    "data-ranks": result ? JSON.stringify(result.ranks) : null,
  });
  const rounds = state.rounds === 1 ? "1 round" : `${state.rounds} rounds`;
  sheet.append(text(8, 20, `${state.title} · ${rounds}`, { class: "caption" }));
  const lines = [`${state.title}, after ${rounds}.`];
  for (let seat = 0; seat < seats; seat += 1) {
    const x = 8 + seat * column;
    const name = ctx.players[seat];
    const group = svg("g", { class: "seat", "data-seat": seat, "data-total": String(state.totals[seat]) });
    group.append(svg("rect", { x, y: 32, width: column - 6, height: 108, rx: 8, class: "panel" }));
    group.append(svg("circle", { cx: x + 14, cy: 50, r: 6, fill: ctx.colours[seat] }));
    group.append(text(x + 26, 55, name, { class: "label" }));
    if (state.scoring !== "none") {
      group.append(text(x + (column - 6) / 2, 100, String(state.totals[seat]), { "text-anchor": "middle", "font-size": 30, "font-weight": 700 }));
    }
    let said = state.scoring === "none" ? name : `${name}: ${state.totals[seat]}`;
    if (result) {
      const won = result.winners.includes(seat);
      const place = state.cooperative ? (won ? "won" : "lost") : ordinal(result.ranks[seat]);
      group.append(text(x + (column - 6) / 2, 128, place, { "text-anchor": "middle", class: "label" }));
      said += ` (${place})`;
    }
    sheet.append(titled(group, said));
    lines.push(`${said}.`);
  }
  board.append(sheet);
  return { title: `${state.title} after move ${ctx.at} of ${ctx.version}`, description: lines.join(" ") };
}

export { draw };
