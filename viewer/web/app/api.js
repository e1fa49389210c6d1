// The server's endpoints: the listing, a file's facts, a glTF asset.

/** A failure the server explained: the file at fault and the message the
 * command line would print. */
export class Problem extends Error {
  constructor(file, message) {
    // The command line's message names the file already, as a rule.
    super(file && !message.startsWith(file) ? `${file}: ${message}` : message);
    this.file = file;
  }
}

async function failure(response) {
  try {
    const body = await response.json();
    return new Problem(body.file, body.message);
  } catch {
    return new Problem(null, `${response.status} ${response.statusText}`);
  }
}

function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const one of [].concat(value ?? [])) {
      search.append(key, one);
    }
  }
  return search.toString();
}

export async function list() {
  const response = await fetch("/api/list");
  if (!response.ok) throw await failure(response);
  return response.json();
}

/** `{facts, lods, blends, skills, warnings, axes, variables}` of `open`
 * (its blend targets at level `lod`; the skills of `anim`; the
 * customization variables of its meshes and of `mesh`). */
export async function info({ open, mesh, anim, lod }) {
  const response = await fetch(`/api/info?${query({ open, mesh, anim, lod })}`);
  if (!response.ok) throw await failure(response);
  return response.json();
}

/** The `.glb` bytes and the warnings made with them. */
export async function gltf({ open, mesh, anim, skill, lod, blend, tone, texture, custom }) {
  const response = await fetch(`/api/gltf?${query({ open, mesh, anim, skill, lod, blend, tone, texture, custom })}`);
  if (!response.ok) throw await failure(response);
  const warnings = JSON.parse(response.headers.get("X-Ossuary-Warnings") || "[]");
  return { bytes: await response.arrayBuffer(), warnings };
}

/** What the object file `open` holds: `{facts, objects, groups, sprites,
 * warnings}`. */
export async function object(open) {
  const response = await fetch(`/api/object?${query({ open })}`);
  if (!response.ok) throw await failure(response);
  return response.json();
}

/** An object's picture as a PNG blob: `view` (a draw group's view:
 * `{open, group, direction, zoom}`) or `frame` (a sprite's frame: `{open,
 * sprite, frame, depth}`). */
export async function objectPicture(kind, params) {
  const response = await fetch(`/api/object/${kind}?${query(params)}`);
  if (!response.ok) throw await failure(response);
  return response.blob();
}

/** The `.glb` of a draw group's 3D mesh, and the warnings made with it. */
export async function objectMesh({ open, group }) {
  const response = await fetch(`/api/object/mesh?${query({ open, group })}`);
  if (!response.ok) throw await failure(response);
  const warnings = JSON.parse(response.headers.get("X-Ossuary-Warnings") || "[]");
  return { bytes: await response.arrayBuffer(), warnings };
}
