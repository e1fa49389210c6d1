// The file's bytes (a text file: its lines), drawn a screenful at a time
// so a big file paints at once: only the rows in view are elements.

const ROW_HEIGHT = 18;
const PER_ROW = 16;
/** Rows drawn beyond the view's edges, so a short scroll shows no gap. */
const MARGIN = 20;

function hex2(byte) {
  return byte.toString(16).padStart(2, "0");
}

/**
 * The bytes of a binary file, or the lines of a text file, in `box`
 * (scrolling) and `rows` (inside it). `onPick(at)` is called with the
 * byte (or line, from 1) clicked.
 */
export class HexView {
  constructor(box, rows, data, encoding, onPick) {
    this.box = box;
    this.rows = rows;
    this.text = encoding === "text";
    if (this.text) {
      const lines = new TextDecoder().decode(data).split("\n");
      if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
      this.lines = lines.map((line) => line.replace(/\r$/, ""));
    }
    this.data = data;
    this.count = this.text ? this.lines.length : Math.ceil(data.length / PER_ROW);
    this.selected = [0, 0];
    this.columns = null;
    this.failing = [0, 0];
    rows.style.height = `${this.count * ROW_HEIGHT}px`;
    rows.style.width = this.text ? "60em" : `${10 + PER_ROW * 3 + 2 + PER_ROW}ch`;
    box.addEventListener("scroll", () => this.draw());
    rows.addEventListener("click", (event) => {
      const unit = event.target.closest("[data-at]");
      if (unit) onPick(Number(unit.dataset.at));
    });
    this.draw();
  }

  /** The row holding unit `at`. */
  rowOf(at) {
    return this.text ? at - 1 : Math.floor(at / PER_ROW);
  }

  /** Marks units `start` up to `end` (not included), scrolled into view;
   * in a text's line, only `columns` (from 1, the last not included) when
   * given. */
  select(start, end, columns = null) {
    this.selected = [start, end];
    this.columns = columns;
    const row = this.rowOf(start);
    const top = row * ROW_HEIGHT;
    if (top < this.box.scrollTop || top > this.box.scrollTop + this.box.clientHeight - ROW_HEIGHT) {
      this.box.scrollTop = Math.max(0, top - this.box.clientHeight / 3);
    }
    this.draw();
  }

  /** Marks the failing field's units. */
  fail(start, end) {
    this.failing = [start, Math.max(end, start + 1)];
    this.draw();
  }

  classOf(at) {
    const [start, end] = this.selected;
    const [failStart, failEnd] = this.failing;
    const marks = [];
    if (at >= start && at < end) marks.push("sel");
    if (at >= failStart && at < failEnd) marks.push("err");
    return marks.join(" ");
  }

  /** Scrolls unit `at` into view. */
  show(at) {
    this.box.scrollTop = Math.max(0, this.rowOf(at) * ROW_HEIGHT - this.box.clientHeight / 3);
    this.draw();
  }

  draw() {
    const first = Math.max(0, Math.floor(this.box.scrollTop / ROW_HEIGHT) - MARGIN);
    const last = Math.min(this.count, Math.ceil((this.box.scrollTop + this.box.clientHeight) / ROW_HEIGHT) + MARGIN);
    const drawn = [];
    for (let row = first; row < last; row += 1) {
      drawn.push(this.text ? this.lineRow(row) : this.byteRow(row));
    }
    this.rows.replaceChildren(...drawn);
  }

  byteRow(row) {
    const element = document.createElement("div");
    element.className = "hex-row";
    element.style.top = `${row * ROW_HEIGHT}px`;
    const offset = row * PER_ROW;
    const at = document.createElement("span");
    at.className = "at";
    at.textContent = offset.toString(16).padStart(8, "0");
    element.append(at);
    let ascii = "";
    for (let index = 0; index < PER_ROW; index += 1) {
      const position = offset + index;
      if (position >= this.data.length) break;
      const byte = this.data[position];
      const unit = document.createElement("span");
      unit.dataset.at = String(position);
      unit.textContent = hex2(byte);
      const mark = this.classOf(position);
      if (mark) unit.className = mark;
      element.append(unit, " ");
      ascii += byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : ".";
    }
    const text = document.createElement("span");
    text.className = "ascii";
    text.textContent = ascii;
    element.append(text);
    return element;
  }

  lineRow(row) {
    const element = document.createElement("div");
    element.className = "hex-row";
    element.style.top = `${row * ROW_HEIGHT}px`;
    const number = row + 1;
    const at = document.createElement("span");
    at.className = "at";
    at.textContent = String(number).padStart(6, " ");
    const line = document.createElement("span");
    line.dataset.at = String(number);
    const text = this.lines[row];
    const mark = this.classOf(number);
    if (mark === "sel" && this.columns) {
      // A token chosen: its columns marked, the rest of the line not.
      const [first, after] = this.columns;
      const token = document.createElement("span");
      token.className = "sel";
      token.textContent = text.slice(first - 1, after - 1);
      line.append(text.slice(0, first - 1), token, text.slice(after - 1));
    } else {
      line.textContent = text;
      if (mark) line.className = mark;
    }
    element.append(at, line);
    return element;
  }
}
