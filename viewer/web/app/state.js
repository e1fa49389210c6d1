// What the page shows, kept in its URL so that a view can be shared and
// tests can open one directly; and the `data-state` marker tests wait for.

// An object file's view: what is shown (`show`), the draw group, its
// direction and zoom, the sprite and the z-buffer (`frame` counts the
// sprite's frames).
const KEYS = ["open", "anim", "skill", "frame", "lod", "tone", "show", "group", "direction", "zoom", "sprite", "depth"];

/** The view the URL asks for. */
export function fromUrl() {
  const params = new URLSearchParams(location.search);
  const state = {};
  for (const key of KEYS) {
    if (params.has(key)) state[key] = params.get(key);
  }
  state.mesh = params.getAll("mesh");
  state.blend = params.getAll("blend");
  state.texture = params.getAll("texture");
  state.custom = params.getAll("custom");
  // A view without a frame plays its animation; one with a frame shows it.
  state.autoplay = !params.has("frame");
  state.frame = Number.parseInt(state.frame ?? "0", 10) || 0;
  state.lod = Number.parseInt(state.lod ?? "0", 10) || 0;
  return state;
}

/** Puts the view in the URL without reloading. */
export function toUrl(state) {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = state[key];
    if (value !== undefined && value !== null && value !== "" && !(key !== "open" && value === 0)) {
      params.set(key, value);
    }
  }
  for (const mesh of state.mesh ?? []) params.append("mesh", mesh);
  for (const blend of state.blend ?? []) params.append("blend", blend);
  for (const texture of state.texture ?? []) params.append("texture", texture);
  for (const custom of state.custom ?? []) params.append("custom", custom);
  history.replaceState(null, "", `?${params}`);
}

export function busy() {
  document.body.dataset.state = "loading";
  delete document.body.dataset.message;
}

/** The requested frame is drawn. */
export function ready() {
  document.body.dataset.state = "ready";
}

/** The view cannot be drawn; the message is on the page too. */
export function failed(message) {
  document.body.dataset.state = "error";
  document.body.dataset.message = message;
}
