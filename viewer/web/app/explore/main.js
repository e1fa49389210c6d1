// The byte explorer: `explore.html?open=FILE` shows FILE's bytes beside
// the tree of the values read from them. Choosing a node marks its bytes;
// clicking a byte chooses the deepest field holding it.

import * as api from "./api.js";
import { HexView } from "./hex.js";
import { Tree } from "./tree.js";

const open = new URLSearchParams(location.search).get("open");

function describe(node, unit) {
  const size = node.end - node.start;
  return `${node.path || "(file)"}: ${unit} ${node.start}${size > 1 ? ` to ${node.end - 1}` : ""}`;
}

async function start() {
  document.getElementById("file").textContent = open ?? "";
  if (!open) throw new Error("no file: the address names one with ?open=");
  const [first, data] = await Promise.all([api.opened(open), api.bytes(open)]);
  const unit = first.encoding === "text" ? "line" : "byte";
  document.body.dataset.encoding = first.encoding;
  document.getElementById("format").textContent = `${first.format}, ${first.len} ${unit}s`;
  const selected = document.getElementById("selected");
  let tree = null;
  const hex = new HexView(document.getElementById("hex"), document.getElementById("hex-rows"), data, first.encoding, async (at) => {
    const way = await api.wayTo(open, at);
    await tree.reveal(way, at);
    document.body.dataset.picked = String(at);
  });
  tree = new Tree(
    document.getElementById("tree-root"),
    first.root,
    (id, from) => api.level(open, id, from),
    (node) => {
      hex.select(node.start, node.end, tokenColumns(node));
      selected.textContent = describe(node, unit);
      document.body.dataset.selected = node.id;
    },
    ({ sprite, frame }) => `/api/object/frame?${new URLSearchParams({ open, sprite, frame })}`,
  );
  if (first.error) {
    const error = document.getElementById("error");
    error.textContent = first.error;
    error.hidden = false;
    await revealFailing(first, tree, hex);
  }
  document.body.dataset.state = "ready";
}

/** A text node's columns on its one line, when its values are tokens
 * (`version 300`'s `300`): from the first token's first column to the
 * last one's end. */
function tokenColumns(node) {
  const columns = node.values.map((value) => value.columns).filter(Boolean);
  if (columns.length === 0 || node.end !== node.start + 1) return null;
  return [Math.min(...columns.map(([first]) => first)), Math.max(...columns.map(([, after]) => after))];
}

/** Opens the way to the failing field and marks its bytes. */
async function revealFailing(first, tree, hex) {
  let level = first.root;
  const way = [];
  for (;;) {
    const next = level.children.find((child) => child.error_below);
    if (!next) break;
    way.push(next.id);
    if (next.error) {
      hex.fail(next.start, next.end);
      break;
    }
    level = await api.level(open, next.id, 0);
  }
  await tree.reveal(way, -1);
}

start().catch((error) => {
  const shown = document.getElementById("error");
  shown.textContent = error.message;
  shown.hidden = false;
  document.body.dataset.state = "error";
});
