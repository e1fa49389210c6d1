// The meshes on a character, level of detail and blend target controls,
// where the files have them.

/** With more meshes than this beside a skeleton (a game's whole wardrobe),
 * only the first is put on until others are ticked. */
const MESHES_AT_ONCE = 6;

/** The meshes a character wears unless the view names some. */
export function defaultMeshes(meshes) {
  return meshes.length <= MESHES_AT_ONCE ? meshes : meshes.slice(0, 1);
}

/**
 * One checkbox per mesh that can go on the character, `chosen` ticked;
 * `onChange(chosen)` gets the ticked ones in the list's order. As a
 * `wardrobe` (The Sims Online's appearances, worn together) it is shown
 * for one mesh too, which can be taken off.
 */
export function showMeshes(container, meshes, chosen, onChange, wardrobe = false) {
  container.hidden = meshes.length < (wardrobe ? 1 : 2);
  container.dataset.kind = wardrobe ? "wardrobe" : "meshes";
  const boxes = meshes.map((mesh) => {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = mesh;
    box.checked = chosen.includes(mesh);
    box.addEventListener("change", () => onChange(boxes.filter((one) => one.checked).map((one) => one.value)));
    return box;
  });
  const heading = document.createElement("span");
  heading.textContent = wardrobe ? "Wardrobe" : "Meshes";
  container.replaceChildren(
    heading,
    ...boxes.map((box) => {
      const label = document.createElement("label");
      label.append(box, box.value);
      return label;
    }),
  );
}

/** The level of detail slider: `lods` levels, `lod` chosen. */
export function showLevels(elements, lods, lod) {
  elements.control.hidden = lods <= 1;
  elements.slider.max = String(Math.max(lods - 1, 0));
  elements.slider.value = String(lod);
  elements.value.textContent = String(lod);
}

/**
 * One slider per blend target name, driving the morph target of that name
 * on every mesh that has it; `weights` the chosen ones by name.
 */
export function showBlends(container, names, meshes, weights, onChange) {
  const set = (name, weight) => {
    for (const mesh of meshes) {
      const index = mesh.morphTargetDictionary[name];
      if (index !== undefined) mesh.morphTargetInfluences[index] = weight;
    }
  };
  container.replaceChildren(
    ...names.map((name) => {
      const label = document.createElement("label");
      const slider = document.createElement("input");
      slider.type = "range";
      slider.min = "0";
      slider.max = "1";
      slider.step = "0.05";
      slider.value = String(weights[name] ?? 0);
      set(name, Number(slider.value));
      slider.addEventListener("input", () => {
        set(name, Number(slider.value));
        onChange(name, Number(slider.value));
      });
      label.append(name, slider);
      return label;
    }),
  );
}
