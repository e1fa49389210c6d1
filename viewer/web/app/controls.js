// Level of detail and blend target controls, where the files have them.

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
