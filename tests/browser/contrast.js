/* The WCAG contrast ratio of each visible piece of HTML text against the background behind it:
   [[what, ratio], ...]. Evaluated in the page by test_viewer.py. */
() => {
  const channel = (c) => {
    c /= 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const rgba = (css) => (css.match(/[\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const background = (node) => {
    for (let at = node; at; at = at.parentElement) {
      const colour = rgba(getComputedStyle(at).backgroundColor);
      if (colour.length === 3 || (colour.length === 4 && colour[3] > 0.9)) return colour;
    }
    return [255, 255, 255];
  };
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode.parentElement;
    if (!walker.currentNode.textContent.trim() || !node || node.closest("svg, script, noscript, [hidden]")) continue;
    const box = node.getBoundingClientRect();
    if (!box.width || !box.height || node.closest(".skip-link")) continue;
    if (node.closest("button:disabled")) continue;
    const fore = luminance(rgba(getComputedStyle(node).color));
    const back = luminance(background(node));
    const ratio = (Math.max(fore, back) + 0.05) / (Math.min(fore, back) + 0.05);
    found.push([node.tagName + " " + walker.currentNode.textContent.trim().slice(0, 30), ratio]);
  }
  return found;
}
