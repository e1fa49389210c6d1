// The facts `ossuary info` gives, and the problems met, with their files.

export function showFacts(pre, facts) {
  pre.textContent = facts.join("\n");
}

/** `problems` are messages as the command line prints them. */
export function showProblems(container, problems) {
  container.replaceChildren(
    ...problems.map((message) => {
      const line = document.createElement("p");
      line.textContent = message;
      return line;
    }),
  );
}
