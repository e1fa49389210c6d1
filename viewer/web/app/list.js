// The side list: characters, animations, loose meshes and object files as
// the server groups them, narrowed by the filter box.

function button(label, title, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  element.title = title;
  element.addEventListener("click", onClick);
  return element;
}

/** A link to the byte explorer on `file`, shown after its entry. */
function exploreLink(file) {
  const link = document.createElement("a");
  link.className = "explore";
  link.href = `/explore.html?${new URLSearchParams({ open: file })}`;
  link.textContent = "bytes";
  link.title = `${file}'s bytes and the values read from them`;
  return link;
}

function section(title, items) {
  const fragment = document.createDocumentFragment();
  if (items.length === 0) return fragment;
  const heading = document.createElement("h2");
  heading.textContent = title;
  fragment.append(heading, ...items);
  return fragment;
}

/**
 * Draws `listing` into `nav`; `choose(view)` is called with the view a
 * click asks for (`{open, mesh}`), `current` marks the one shown.
 */
export function showList(nav, filter, listing, current, choose) {
  const draw = () => {
    const needle = filter.value.trim().toLowerCase();
    const matches = (...names) => !needle || names.some((name) => name && name.toLowerCase().includes(needle));
    const characters = listing.characters
      .filter((character) => matches(character.open, ...character.meshes, ...character.wardrobe.flatMap((garment) => garment.files)))
      .flatMap((character) => {
        const element = button(character.open, `${character.format}: ${character.meshes.length} meshes`, () =>
          choose({ open: character.open, mesh: [] }));
        element.setAttribute("aria-current", String(character.open === current().open));
        return [element, exploreLink(character.open)];
      });
    const meshes = listing.meshes
      .filter((mesh) => matches(mesh.file))
      .flatMap((mesh) => [
        button(mesh.file, `on ${mesh.skeleton}`, () => choose({ open: mesh.skeleton, mesh: [mesh.file] })),
        exploreLink(mesh.file),
      ]);
    const objects = listing.objects
      .filter((object) => matches(object.file, ...object.objects))
      .flatMap((object) => {
        const element = button(object.file, object.objects.join("\n") || "an object file", () => choose({ open: object.file }));
        if (object.objects.length > 0) {
          const names = document.createElement("small");
          names.textContent = [...new Set(object.objects)].join(", ");
          element.append(names);
        }
        element.setAttribute("aria-current", String(object.file === current().open));
        return [element, exploreLink(object.file)];
      });
    const animations = listing.animations
      .filter((animation) => matches(animation.file))
      .flatMap((animation) => {
        const element = document.createElement("div");
        element.textContent = animation.file;
        element.title = "an animation: choose a character, then it in the animation list";
        return [element, exploreLink(animation.file)];
      });
    const problems = listing.problems
      .filter((problem) => matches(problem.file))
      .map((problem) => {
        const element = document.createElement("p");
        element.textContent = `${problem.file}: ${problem.message}`;
        return element;
      });
    nav.replaceChildren(
      section("Characters", characters),
      section("Loose meshes", meshes),
      section("Objects", objects),
      section("Animations", animations),
      section("Files that cannot be shown", problems),
    );
  };
  filter.addEventListener("input", draw);
  draw();
  return draw;
}
