// The facts `ossuary info` gives, and the problems met, with their files:
// listed below, and the one that stops a view shown in the viewport.

export function showFacts(pre, facts) {
  pre.textContent = facts.join("\n");
}

/** `problems` are messages as the command line prints them; each is
 * listed once. */
export function showProblems(container, problems) {
  container.replaceChildren(
    ...[...new Set(problems)].map((message) => {
      const line = document.createElement("p");
      line.textContent = message;
      return line;
    }),
  );
}

/** A message in the viewport, where the character would stand (`null`
 * takes it away). */
export function showMessage(element, message) {
  element.hidden = !message;
  element.textContent = message ?? "";
}
