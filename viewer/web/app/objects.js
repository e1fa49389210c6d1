// An object file of The Sims: a draw group's view by direction and zoom
// (turn and zoom buttons), its sprites frame by frame (with the z-buffer
// on request), and the 3D mesh FreeSO made of a draw group. What is shown
// is in the view (`show`, `group`, `direction`, `zoom`, `sprite`, `frame`,
// `depth`), which the page keeps in its address.

import * as api from "./api.js";

/** The directions in the order the object turns through them, right:
 * right back, right front, left front, left back. */
const DIRECTIONS = [1, 4, 16, 64];
const DIRECTION_NAMES = { 1: "right back", 4: "right front", 16: "left front", 64: "left back" };
const ZOOM_NAMES = { 1: "far", 2: "middle", 3: "near" };
/** The most an image is magnified to fill the view. */
const MOST_MAGNIFIED = 8;

function fill(select, options, chosen) {
  select.replaceChildren(
    ...options.map(([value, label]) => {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = label;
      option.selected = value === chosen;
      return option;
    }),
  );
}

/** The draw group the view names, else the first of the first object's,
 * else the file's first. */
function chosenGroup(facts, id) {
  const byId = (wanted) => facts.groups.find((group) => group.id === wanted);
  const first = facts.objects.flatMap((object) => object.groups)[0];
  return byId(Number(id)) ?? byId(first) ?? facts.groups[0];
}

/** The view of `group` the view names, else its right front near one as
 * the game's catalogue shows objects, else its first. */
function chosenView(group, direction, zoom) {
  const has = ([d, z]) => group.views.some((view) => view[0] === d && view[1] === z);
  for (const wanted of [[Number(direction), Number(zoom)], [Number(direction), 3], [4, 3]]) {
    if (has(wanted)) return wanted;
  }
  return group.views[0];
}

/** The view `step` quarter turns right of `direction` at `zoom`, among
 * those `group` has. */
function turned(group, [direction, zoom], step) {
  const turns = DIRECTIONS.filter((one) => group.views.some((view) => view[0] === one && view[1] === zoom));
  const at = turns.indexOf(direction);
  if (turns.length === 0 || at < 0) return [direction, zoom];
  return [turns[(at + step + turns.length) % turns.length], zoom];
}

/** The next zoom in (`step` 1) or out (-1) of `direction` that `group` has. */
function zoomed(group, [direction, zoom], step) {
  const zooms = group.views.filter((view) => view[0] === direction).map((view) => view[1]).sort();
  const next = step > 0 ? zooms.find((one) => one > zoom) : zooms.reverse().find((one) => one < zoom);
  return [direction, next ?? zoom];
}

/** Frames of `sprite` that have pixels, by index. */
function drawnFrames(sprite) {
  return sprite.frames.flatMap((frame, index) => (frame.width > 0 && frame.height > 0 ? [index] : []));
}

/** The sprite the view names, else the first with a frame to draw. */
function chosenSprite(facts, name) {
  return facts.sprites.find((sprite) => sprite.name === name && drawnFrames(sprite).length > 0)
    ?? facts.sprites.find((sprite) => drawnFrames(sprite).length > 0);
}

export class ObjectView {
  /** `elements`: the page's controls; `scene` the 3D view; `choose(view)`
   * is called with the view a control asks for. */
  constructor(elements, scene, choose) {
    this.elements = elements;
    this.scene = scene;
    this.choose = choose;
    this.current = null;
    // The picture's object URL, given back when another replaces it.
    this.url = null;
    const ask = (change) => () => this.current && this.choose({ ...this.current, ...change() });
    for (const button of elements.section.querySelectorAll("[data-show]")) {
      button.addEventListener("click", ask(() => ({ show: button.dataset.show })));
    }
    elements.group.addEventListener("change", ask(() => ({ group: elements.group.value })));
    const view = (make) => ask(() => {
      const [direction, zoom] = make();
      return { direction: String(direction), zoom: String(zoom) };
    });
    elements.rotateLeft.addEventListener("click", view(() => turned(this.group, this.view, -1)));
    elements.rotateRight.addEventListener("click", view(() => turned(this.group, this.view, 1)));
    elements.zoomIn.addEventListener("click", view(() => zoomed(this.group, this.view, 1)));
    elements.zoomOut.addEventListener("click", view(() => zoomed(this.group, this.view, -1)));
    elements.sprite.addEventListener("change", ask(() => ({ sprite: elements.sprite.value, frame: 0 })));
    const frame = (step) => ask(() => {
      const frames = drawnFrames(this.sprite);
      const at = frames.indexOf(this.frame);
      return { frame: frames[(at + step + frames.length) % frames.length] };
    });
    elements.frameBack.addEventListener("click", frame(-1));
    elements.frameNext.addEventListener("click", frame(1));
    elements.depth.addEventListener("change", ask(() => ({ depth: elements.depth.checked ? "1" : undefined })));
  }

  /** Shows what `view` asks of the object file `view.open`, its choices
   * made definite (a draw group and view, a sprite and frame); comes back
   * with the view as shown, the file's facts and the problems met, once
   * it is drawn. */
  async show(view) {
    const { elements } = this;
    const facts = await api.object(view.open);
    this.group = chosenGroup(facts, view.group);
    this.view = this.group ? chosenView(this.group, view.direction, view.zoom) : null;
    this.sprite = chosenSprite(facts, view.sprite);
    const frames = this.sprite ? drawnFrames(this.sprite) : [];
    this.frame = frames.includes(view.frame) ? view.frame : (frames[0] ?? 0);
    const hasDepth = Boolean(this.sprite?.frames[this.frame]?.depth);
    const can = { group: Boolean(this.view), sprite: frames.length > 0, mesh: Boolean(this.group?.mesh) };
    const show = can[view.show] ? view.show : ["group", "sprite"].find((one) => can[one]);
    if (!show) throw new Error(`${view.open} has no draw group or sprite frame to draw`);
    this.current = {
      ...view,
      show,
      group: this.group ? String(this.group.id) : undefined,
      direction: this.view ? String(this.view[0]) : undefined,
      zoom: this.view ? String(this.view[1]) : undefined,
      sprite: this.sprite?.name,
      frame: this.frame,
      depth: view.depth === "1" && hasDepth ? "1" : undefined,
    };

    elements.section.hidden = false;
    for (const button of elements.section.querySelectorAll("[data-show]")) {
      button.hidden = !can[button.dataset.show];
      button.setAttribute("aria-pressed", String(button.dataset.show === show));
    }
    elements.groupControls.hidden = show === "sprite";
    elements.spriteControls.hidden = show !== "sprite";
    const labelled = (id, label) => (label ? `${id} ${label}` : String(id));
    const owner = (group) => facts.objects.find((object) => object.groups.includes(group.id));
    fill(
      elements.group,
      facts.groups.map((group) => [String(group.id), `${labelled(group.id, group.label)}${owner(group) ? ` (${owner(group).name})` : ""}`]),
      this.current.group,
    );
    // The mesh turns in 3D: the draw group's directions and zooms are for
    // its pictures.
    for (const control of [elements.rotateLeft, elements.rotateRight, elements.zoomIn, elements.zoomOut, elements.viewName]) {
      control.hidden = show === "mesh" || !this.view;
    }
    elements.viewName.textContent = this.view
      ? `${DIRECTION_NAMES[this.view[0]] ?? `direction ${this.view[0]}`}, ${ZOOM_NAMES[this.view[1]] ?? `zoom ${this.view[1]}`}`
      : "";
    fill(
      elements.sprite,
      facts.sprites.filter((sprite) => drawnFrames(sprite).length > 0).map((sprite) => [sprite.name, labelled(sprite.name, sprite.label)]),
      this.current.sprite,
    );
    elements.frameName.textContent = this.sprite ? `frame ${this.frame} of ${this.sprite.frames.length}` : "";
    elements.depth.disabled = !hasDepth;
    elements.depth.checked = this.current.depth === "1";

    const problems = [...facts.warnings];
    const { open } = view;
    if (show === "mesh") {
      const made = await api.objectMesh({ open, group: this.current.group });
      problems.push(...made.warnings);
      await this.scene.load(made.bytes);
      this.picture(null);
    } else {
      const blob = show === "group"
        ? await api.objectPicture("view", { open, group: this.current.group, direction: this.current.direction, zoom: this.current.zoom })
        : await api.objectPicture("frame", { open, sprite: this.current.sprite, frame: this.frame, depth: this.current.depth });
      await this.picture(blob);
    }
    return { view: this.current, facts: facts.facts, problems };
  }

  /** Shows `blob`, a PNG, in place of the 3D view (see [`fit`]); `null`
   * shows the 3D view again. */
  async picture(blob) {
    const { picture } = this.elements;
    const canvas = this.scene.renderer.domElement;
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = null;
    picture.hidden = !blob;
    canvas.hidden = Boolean(blob);
    if (!blob) {
      picture.removeAttribute("src");
      return;
    }
    this.url = URL.createObjectURL(blob);
    picture.src = this.url;
    await picture.decode();
  }

  /** Sizes the picture to fill the view in whole pixels (each drawn as a
   * square of 1 to MOST_MAGNIFIED), or as large as fits where it is
   * larger than the view. */
  fit() {
    const { picture } = this.elements;
    if (picture.hidden || !picture.naturalWidth) return;
    const { clientWidth, clientHeight } = picture.parentElement;
    const fits = Math.min(clientWidth / picture.naturalWidth, clientHeight / picture.naturalHeight);
    const scale = fits >= 1 ? Math.min(MOST_MAGNIFIED, Math.floor(fits)) : fits;
    picture.style.width = `${picture.naturalWidth * scale}px`;
    picture.style.height = `${picture.naturalHeight * scale}px`;
  }

  /** Leaves the object: its controls and picture go. */
  hide() {
    this.current = null;
    this.elements.section.hidden = true;
    this.picture(null);
  }
}
