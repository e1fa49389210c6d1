// The tree of the values read, a level at a time: a node's children are
// asked for when it is opened, a page at a time.

const NUMBER_TYPES = /^(u|i|f)(8|16|32|64)$/;

/** A value as its type says: a number, a string, anything else. */
function valueElement(value) {
  const element = document.createElement("span");
  const kind = NUMBER_TYPES.test(value.type) ? "number" : value.value.startsWith('"') ? "string" : "other";
  element.className = `value ${kind}`;
  element.textContent = value.value.length > 80 ? `${value.value.slice(0, 80)}…` : value.value;
  element.title = `${value.type}, bytes ${value.start} to ${value.end - 1}`;
  return element;
}

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

/**
 * The tree in `root` (a `<ul>`); `load(id, from)` fetches a level,
 * `onSelect(node)` is called with the node chosen.
 */
/** Where a node starts: a byte offset in hex, or for a text file its
 * line (from 1), as `explain` writes them. */
function place(start) {
  return document.body.dataset.encoding === "text" ? `line ${start}` : start.toString(16).padStart(8, "0");
}

export class Tree {
  constructor(root, level, load, onSelect, pictureUrl) {
    this.root = root;
    this.pictureUrl = pictureUrl;
    this.load = load;
    this.onSelect = onSelect;
    /** Node elements by id, as drawn. */
    this.elements = new Map();
    this.selected = null;
    this.fill(root, level);
  }

  /** Draws `level`'s children into `list` (after the node's own values, a
   * chunk's tag and size), with a button for more. */
  fill(list, level) {
    if (level.from === 0 && level.node.children > 0) {
      level.node.values.forEach((value, index) => list.append(this.valueElement(level.node, value, index)));
    }
    for (const child of level.children) list.append(this.nodeElement(child));
    const shown = level.from + level.children.length;
    if (shown < level.node.children) {
      const more = document.createElement("button");
      more.type = "button";
      more.className = "more";
      more.textContent = `${level.node.children - shown} more`;
      more.addEventListener("click", async () => {
        more.remove();
        this.fill(list, await this.load(level.node.id, shown));
      });
      list.append(more);
    }
  }

  /** A value read at a node's own path (a chunk's tag), as a leaf. */
  valueElement(parent, value, index) {
    const node = { id: `${parent.id}/${index}`, label: "", path: parent.path, start: value.start, end: value.end, children: 0, values: [value] };
    const item = this.nodeElement(node);
    item.classList.add("own-value");
    return item;
  }

  nodeElement(node) {
    const item = document.createElement("li");
    item.className = "node";
    item.role = "treeitem";
    item.dataset.id = node.id;
    if (node.error) item.classList.add("failing");
    if (node.error_below) item.classList.add("error-below");
    const row = document.createElement("div");
    row.className = "row";
    row.dataset.path = node.path;
    const opens = node.children > 0 && !node.list;
    const toggle = span("toggle", opens ? "▸" : "");
    row.append(toggle, span("place", `${place(node.start)} +${node.end - node.start}`));
    if (node.error) {
      row.append(span("message", `!! ${node.error}`));
    } else if (node.list) {
      row.append(span("label", node.label), span("value list", node.list));
    } else if (node.children === 0) {
      row.append(span("label", node.label));
      for (const value of node.values) row.append(span("type", value.type), valueElement(value));
    } else {
      row.append(span("label", node.label), span("type", `${node.children} ${node.children === 1 ? "child" : "children"}`));
    }
    if (node.picture) {
      // A sprite's frame: its picture, as the object view draws it.
      const picture = document.createElement("img");
      picture.className = "thumbnail";
      picture.alt = `${node.picture.sprite} frame ${node.picture.frame}`;
      picture.loading = "lazy";
      picture.src = this.pictureUrl(node.picture);
      row.append(picture);
    }
    item.append(row);
    item.node = node;
    this.elements.set(node.id, item);
    toggle.addEventListener("click", (event) => {
      event.stopPropagation();
      if (opens) this.toggle(item);
    });
    row.addEventListener("click", () => this.select(node.id));
    row.addEventListener("dblclick", () => opens && this.toggle(item));
    return item;
  }

  /** Opens `item` (its children fetched the first time), or closes it. */
  async toggle(item, open = !item.classList.contains("open")) {
    const toggle = item.querySelector(":scope > .row > .toggle");
    let list = item.querySelector(":scope > ul");
    if (open && !list) {
      list = document.createElement("ul");
      list.role = "group";
      item.append(list);
      this.fill(list, await this.load(item.dataset.id, 0));
    }
    if (list) list.hidden = !open;
    item.classList.toggle("open", open);
    toggle.textContent = open ? "▾" : "▸";
  }

  /** Marks node `id` chosen and tells `onSelect`. */
  select(id) {
    const item = this.elements.get(id);
    if (!item) return;
    if (this.selected) this.selected.querySelector(":scope > .row").setAttribute("aria-selected", "false");
    this.selected = item;
    const row = item.querySelector(":scope > .row");
    row.setAttribute("aria-selected", "true");
    row.scrollIntoView({ block: "nearest" });
    this.onSelect(item.node);
  }

  /** Opens the nodes of `way` (ids from the top down), then selects the
   * last; a node beyond the first page of its parent's children is
   * fetched with its page. */
  async reveal(way, at) {
    for (const [index, id] of way.entries()) {
      if (!this.elements.has(id)) {
        const parent = this.elements.get(way[index - 1]);
        const list = parent?.querySelector(":scope > ul");
        const wanted = Number(id.split(".").pop());
        if (!list) return;
        list.querySelector(":scope > .more")?.remove();
        this.fill(list, await this.load(parent.dataset.id, wanted));
      }
      const item = this.elements.get(id);
      if (!item) return;
      // A list of plain values is one row: it is as deep as the way goes.
      if (item.node.list) return this.select(id);
      if (index < way.length - 1) await this.toggle(item, true);
    }
    const last = way[way.length - 1];
    if (last === undefined) return;
    const item = this.elements.get(last);
    // A unit in one of the node's own values (a chunk's tag): that value.
    const own = item?.node.values.findIndex((value) => value.start <= at && at < value.end) ?? -1;
    if (item && item.node.children > 0 && own >= 0) {
      await this.toggle(item, true);
      return this.select(`${last}/${own}`);
    }
    this.select(last);
  }
}
