// The explorer's endpoints: the file's first level, a node's children, the
// way to the field holding a byte, and the bytes.

async function answer(response) {
  if (response.ok) return response;
  let message = `${response.status} ${response.statusText}`;
  try {
    message = (await response.json()).message;
  } catch {
    // Not JSON: the status says enough.
  }
  throw new Error(message);
}

function url(path, params) {
  return `${path}?${new URLSearchParams(params)}`;
}

/** `{format, encoding, len, error, root: {node, from, children}}` of `open`. */
export async function opened(open) {
  return (await answer(await fetch(url("/api/explore", { open })))).json();
}

/** `{node, from, children}`: node `id` and its children from `from`. */
export async function level(open, id, from = 0) {
  return (await answer(await fetch(url("/api/explore/node", { open, node: id, from })))).json();
}

/** The ids of the nodes from the top down to the field holding unit `at`. */
export async function wayTo(open, at) {
  return (await answer(await fetch(url("/api/explore/at", { open, at })))).json();
}

/** The file's bytes. */
export async function bytes(open) {
  const response = await answer(await fetch(url("/api/explore/bytes", { open })));
  return new Uint8Array(await response.arrayBuffer());
}
