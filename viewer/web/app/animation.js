// The animation controls: which file and skill, play and pause, speed, and
// a frame slider whose counter counts frames from 0, as the command line
// does (frame N is at the time the file gives it).

export class Playback {
  constructor(elements, scene, onChange) {
    this.elements = elements;
    this.scene = scene;
    this.onChange = onChange;
    this.skill = null;
    this.clip = null;
    this.frame = 0;
    this.playing = false;
    this.seconds = 0;
    elements.frame.addEventListener("input", () => {
      this.pause();
      this.show(Number(elements.frame.value));
      this.onChange();
    });
    elements.play.addEventListener("click", () => (this.playing ? this.pause() : this.play()));
  }

  /** Fills the pickers: `files` the character's animation files, `skills`
   * those of the chosen one (`{name, times, problem}`), `clips` the asset's. */
  choose({ files, file, skills, skill, clips }) {
    const { elements } = this;
    elements.section.hidden = files.length === 0;
    fill(elements.file, [["", "none"], ...files.map((name) => [name, name])], file ?? "");
    const usable = skills.filter((one) => !one.problem);
    // A skill whose data is missing is shown, not offered: its problem is
    // listed with the others.
    fill(
      elements.skill,
      skills.map((one) => [one.name, one.problem ? `${one.name} (data missing)` : one.name, Boolean(one.problem)]),
      skill ?? usable[0]?.name ?? "",
    );
    this.skill = usable.find((one) => one.name === elements.skill.value) ?? null;
    this.clip = clips.find((clip) => clip.name === this.skill?.name) ?? null;
    const frames = this.skill ? this.skill.times.length : 0;
    elements.frame.max = String(Math.max(frames - 1, 0));
    elements.frame.disabled = frames === 0;
    elements.play.disabled = frames === 0;
  }

  /** Shows frame `frame` (clamped to the animation's frames). */
  show(frame) {
    const times = this.skill?.times ?? [];
    this.frame = Math.min(Math.max(frame, 0), Math.max(times.length - 1, 0));
    this.seconds = times[this.frame] ?? 0;
    this.elements.frame.value = String(this.frame);
    this.elements.counter.textContent = `frame ${this.frame} of ${times.length}`;
    this.scene.pose(this.clip, this.seconds);
  }

  play() {
    if (!this.clip || this.playing) return;
    this.playing = true;
    this.elements.play.textContent = "Pause";
    let last = performance.now();
    const step = (now) => {
      if (!this.playing) return;
      this.seconds += ((now - last) / 1000) * Number(this.elements.speed.value);
      last = now;
      const duration = this.clip.duration || 1;
      this.seconds %= duration;
      const times = this.skill.times;
      let frame = times.findIndex((time) => time > this.seconds) - 1;
      if (frame < 0) frame = times.length - 1;
      this.frame = frame;
      this.elements.frame.value = String(frame);
      this.elements.counter.textContent = `frame ${frame} of ${times.length}`;
      this.scene.pose(this.clip, this.seconds);
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }

  pause() {
    this.playing = false;
    this.elements.play.textContent = "Play";
  }
}

function fill(select, options, chosen) {
  select.replaceChildren(
    ...options.map(([value, label, disabled = false]) => {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = label;
      option.disabled = disabled;
      option.selected = value === chosen;
      return option;
    }),
  );
}
