// A Star Wars Galaxies character's customization: one control per
// variable its shaders declare, a swatch grid for a palette entry, a
// numbered choice for a texture. The values are kept in the view as
// `custom=NAME:INDEX`; the server's glTF export applies them.

/** The chosen value of each variable, by name, from `NAME:INDEX` pairs. */
export function chosenValues(custom) {
  const values = {};
  for (const pair of custom) {
    const at = pair.lastIndexOf(":");
    const value = Number.parseInt(pair.slice(at + 1), 10);
    if (at > 0 && Number.isInteger(value)) values[pair.slice(0, at)] = value;
  }
  return values;
}

/** The `NAME:INDEX` pairs of `values` that name one of `variables` within
 * its choices and differ from its default (which the asset shows without
 * being told). */
export function customPairs(variables, values) {
  return variables
    .filter((variable) => {
      const value = values[variable.name];
      return Number.isInteger(value) && value >= 0 && value < variable.choices && value !== variable.default;
    })
    .map((variable) => `${variable.name}:${values[variable.name]}`);
}

function swatches(variable, value, choose) {
  const grid = document.createElement("div");
  grid.className = "swatches";
  grid.setAttribute("role", "radiogroup");
  grid.setAttribute("aria-label", variable.name);
  variable.chooses.colours.forEach((colour, index) => {
    const swatch = document.createElement("button");
    swatch.type = "button";
    swatch.dataset.index = String(index);
    swatch.style.background = colour;
    swatch.title = `${index}: ${colour}`;
    swatch.setAttribute("role", "radio");
    swatch.setAttribute("aria-checked", String(index === value));
    swatch.addEventListener("click", () => choose(index));
    grid.append(swatch);
  });
  return grid;
}

function textureChoice(variable, value, choose) {
  const select = document.createElement("select");
  variable.chooses.textures.forEach((texture, index) => {
    const option = document.createElement("option");
    option.value = String(index);
    option.textContent = `${index}: ${texture.split(/[\\/]/).pop()}`;
    option.selected = index === value;
    select.append(option);
  });
  select.addEventListener("change", () => choose(Number(select.value)));
  return select;
}

/**
 * Draws a control per variable of `variables` (`values`: the chosen value
 * by name; a variable not chosen shows its default); `onChange(values)`
 * gets the new choice. Hidden when there are no variables.
 */
export function showCustomization(container, variables, values, onChange) {
  container.hidden = variables.length === 0;
  const controls = variables.map((variable) => {
    const value = values[variable.name] ?? variable.default;
    const choose = (index) => onChange({ ...values, [variable.name]: index });
    const control = document.createElement("fieldset");
    control.dataset.variable = variable.name;
    control.dataset.kind = variable.chooses.kind;
    const legend = document.createElement("legend");
    const what = variable.chooses.kind === "palette"
      ? variable.chooses.palette
      : `${variable.chooses.tag} texture`;
    legend.textContent = `${variable.name} (${what}): ${value}`;
    control.append(
      legend,
      variable.chooses.kind === "palette" ? swatches(variable, value, choose) : textureChoice(variable, value, choose),
    );
    return control;
  });
  const heading = document.createElement("span");
  heading.textContent = "Customization";
  container.replaceChildren(...(controls.length > 0 ? [heading, ...controls] : []));
}
