// Joints as `ossuary joints` gives them: model-space positions in the
// file's own axes, turned back from glTF's right-handed y-up ones (the
// exporter mirrors left-handed files in x and turns z-up files by
// (x, y, z) -> (x, z, -y)).

const BACK = {
  "left-handed-y-up": ([x, y, z]) => [-x, y, z],
  "right-handed-z-up": ([x, y, z]) => [x, -z, y],
  "right-handed-y-up": (point) => point,
};

/** `{name, position}` of each joint of `scene` in the file's axes (`axes`
 * as the server names them). */
export function jointsInFileAxes(scene, axes) {
  const back = BACK[axes] ?? BACK["right-handed-y-up"];
  return scene.jointPositions().map(({ name, position }) => ({ name, position: back(position) }));
}
