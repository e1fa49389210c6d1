// The page: the list on the side, the chosen character in the middle, and
// the URL holding what is shown.

import * as api from "./api.js";
import { Playback } from "./animation.js";
import { defaultMeshes, showBlends, showLevels, showMeshes } from "./controls.js";
import { showFacts, showProblems } from "./facts.js";
import { showList } from "./list.js";
import { Scene } from "./scene.js";
import * as state from "./state.js";

const $ = (id) => document.getElementById(id);

// Made by `start`: a browser without WebGL cannot have them.
let scene = null;
let playback = null;
const levels = { control: $("lod-control"), slider: $("lod"), value: $("lod-value") };

let view = state.fromUrl();
let listing = { characters: [], animations: [], meshes: [], problems: [] };
let redrawList = () => {};

/** Draws `view`, marking the page ready once its frame is on screen. */
async function show() {
  state.busy();
  state.toUrl(view);
  redrawList();
  const problems = [];
  try {
    const character = listing.characters.find((one) => one.open === view.open);
    // `mesh=` with no name asks for none: the bare skeleton.
    const named = view.mesh.filter((mesh) => mesh !== "");
    const offered = [...new Set([...(character?.meshes ?? []), ...named])];
    const meshes = view.mesh.length > 0 ? named : defaultMeshes(offered);
    showMeshes($("meshes"), offered, meshes, (chosen) => {
      playback?.pause();
      view = { ...view, mesh: chosen.length > 0 ? chosen : [""] };
      show();
    });
    const info = await api.info({ open: view.open, anim: view.anim });
    showFacts($("facts"), info.facts);
    problems.push(...info.warnings);
    showLevels(levels, info.lods, view.lod);
    const made = await api.gltf({
      open: view.open,
      mesh: meshes.length > 0 ? meshes : [""],
      anim: view.anim,
      skill: view.skill,
      lod: view.lod,
      blend: view.blend,
    });
    problems.push(...made.warnings);
    const clips = await scene.load(made.bytes);
    for (const skill of info.skills) {
      if (skill.problem) problems.push(`${skill.name}: ${skill.problem}`);
    }
    const weights = Object.fromEntries(view.blend.map((pair) => pair.split("=")).map(([name, weight]) => [name, Number(weight)]));
    showBlends($("blends"), info.blends, scene.morphing(), weights, (name, weight) => {
      weights[name] = weight;
      view.blend = Object.entries(weights).filter(([, value]) => value !== 0).map(([key, value]) => `${key}=${value}`);
      state.toUrl(view);
      scene.render();
    });
    playback.choose({
      files: character?.animations ?? (view.anim ? [view.anim] : []),
      file: view.anim,
      skills: info.skills,
      skill: view.skill,
      clips,
    });
    playback.show(view.frame);
    view.frame = playback.frame;
    state.toUrl(view);
    showProblems($("problems"), problems);
    document.body.dataset.figure = scene.screenBox().join(",");
    // The frame is drawn once the browser has painted it.
    requestAnimationFrame(() => {
      state.ready();
      if (view.autoplay) playback.play();
    });
  } catch (error) {
    problems.push(error.message);
    showProblems($("problems"), problems);
    state.failed(error.message);
  }
}

function choose(next) {
  playback?.pause();
  view = { ...next, frame: 0, lod: 0, blend: [] };
  show();
}

$("front").addEventListener("click", () => scene?.view("front"));
$("side-view").addEventListener("click", () => scene?.view("side"));
$("skeleton").addEventListener("change", (event) => scene?.showSkeleton(event.target.checked));
$("anim-file").addEventListener("change", (event) => {
  playback?.pause();
  view = { ...view, anim: event.target.value || undefined, skill: undefined, frame: 0, autoplay: true };
  show();
});
$("skill").addEventListener("change", (event) => {
  playback?.pause();
  view = { ...view, skill: event.target.value, frame: 0, autoplay: true };
  show();
});
$("lod").addEventListener("change", (event) => {
  view = { ...view, lod: Number(event.target.value) };
  show();
});

/** Lists the paths and shows the view the URL asks for (else the first
 * character). Not awaited at the top level: the page's load event must
 * not wait for the model, which waits for frames the browser draws only
 * once the page has loaded. */
async function start() {
  try {
    scene = new Scene($("viewport"));
  } catch (error) {
    const message = `this browser cannot draw in 3D (WebGL): ${error.message}`;
    showProblems($("problems"), [message]);
    state.failed(message);
    return;
  }
  // For the browser tests and the developer console.
  window.ossuary = { scene };
  playback = new Playback(
    {
      section: $("animation"),
      file: $("anim-file"),
      skill: $("skill"),
      play: $("play"),
      speed: $("speed"),
      frame: $("frame"),
      counter: $("counter"),
    },
    scene,
    () => {
      view.frame = playback.frame;
      view.autoplay = false;
      state.toUrl(view);
    },
  );
  try {
    listing = await api.list();
    redrawList = showList($("list"), $("filter"), listing, () => view, choose);
    if (!view.open && listing.characters.length > 0) view.open = listing.characters[0].open;
    if (view.open) {
      await show();
    } else {
      showProblems($("problems"), ["no character found under the paths given"]);
      state.ready();
    }
  } catch (error) {
    showProblems($("problems"), [error.message]);
    state.failed(error.message);
  }
}

start();
