// A retail Sim's wardrobe, grouped as the game groups it: one body, one
// head and one pair of hands worn at a time, a skin tone, and for each
// worn garment the images of that tone that fit it (the first is the one
// the command line would choose).

export const TONES = [
  ["lgt", "light"],
  ["med", "medium"],
  ["drk", "dark"],
];
const SLOTS = ["body", "head", "hands"];

/** The sets worn when the view names `meshes` (files). */
export function wornSets(wardrobe, meshes) {
  return wardrobe.filter((garment) => garment.files.some((file) => meshes.includes(file))).map((garment) => garment.set);
}

/** The files of the sets worn. */
export function wornFiles(wardrobe, sets) {
  return wardrobe.filter((garment) => sets.includes(garment.set)).flatMap((garment) => garment.files);
}

/** The images of `tone` that fit `garment`. */
export function imagesOf(garment, tone) {
  return garment.images.filter((image) => image.tone === tone).map((image) => image.file);
}

function select(label, options, chosen, onChange) {
  const element = document.createElement("select");
  element.dataset.slot = label;
  for (const [value, text] of options) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = text;
    option.selected = value === chosen;
    element.append(option);
  }
  element.addEventListener("change", () => onChange(element.value));
  const wrapper = document.createElement("label");
  wrapper.append(`${label} `, element);
  return wrapper;
}

/**
 * Draws the wardrobe: a choice per slot among the sets of `wardrobe`
 * (`worn` the sets worn), the tone, and an image choice per worn garment
 * with several images (`images`: the chosen image by set).
 * `onChange({worn, tone, images})` gets the new choice.
 */
export function showWardrobe(container, wardrobe, { worn, tone, images }, onChange) {
  container.hidden = wardrobe.length === 0;
  if (wardrobe.length === 0) {
    container.replaceChildren();
    return;
  }
  const controls = SLOTS.filter((slot) => wardrobe.some((garment) => garment.slot === slot)).map((slot) => {
    const garments = wardrobe.filter((garment) => garment.slot === slot);
    const current = garments.find((garment) => worn.includes(garment.set))?.set ?? "";
    return select(slot, [["", "none"], ...garments.map((garment) => [garment.set, garment.set])], current, (set) => {
      const others = worn.filter((one) => !garments.some((garment) => garment.set === one));
      onChange({ worn: set ? [...others, set] : others, tone, images: {} });
    });
  });
  controls.push(select("skin tone", TONES, tone, (chosen) => onChange({ worn, tone: chosen, images: {} })));
  for (const garment of wardrobe.filter((one) => worn.includes(one.set))) {
    const fitting = imagesOf(garment, tone);
    if (fitting.length < 2) continue;
    const names = fitting.map((file) => [file, file.split("/").pop()]);
    controls.push(
      select(`${garment.set} image`, names, images[garment.set] ?? fitting[0], (file) =>
        onChange({ worn, tone, images: { ...images, [garment.set]: file } })),
    );
  }
  const heading = document.createElement("span");
  heading.textContent = "Wardrobe";
  container.replaceChildren(heading, ...controls);
}
