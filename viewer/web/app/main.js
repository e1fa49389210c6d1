// The page: the list on the side, the chosen character (or object file)
// in the middle, and the URL holding what is shown.

import * as api from "./api.js";
import { Playback } from "./animation.js";
import { defaultMeshes, showBlends, showLevels, showMeshes } from "./controls.js";
import { showFacts, showMessage, showProblems } from "./facts.js";
import { jointsInFileAxes } from "./joints.js";
import { chosenValues, customPairs, showCustomization } from "./customization.js";
import { showList } from "./list.js";
import { ObjectView } from "./objects.js";
import { Scene } from "./scene.js";
import * as state from "./state.js";
import { showWardrobe, wornFiles, wornSets } from "./wardrobe.js";

const $ = (id) => document.getElementById(id);

// Made by `start`: a browser without WebGL cannot have them.
let scene = null;
let playback = null;
let objects = null;
const levels = { control: $("lod-control"), slider: $("lod"), value: $("lod-value") };

let view = state.fromUrl();
let listing = { characters: [], animations: [], meshes: [], objects: [], problems: [] };
let redrawList = () => {};
// How the shown skeleton's file lays its axes, for `window.ossuary.joints`.
let axes = "";

/** The chosen image by set, from the view's `texture=SET=IMAGE` pairs. */
function chosenImages(texture) {
  return Object.fromEntries(texture.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
}

/** Draws `view`, marking the page ready once its frame is on screen; an
 * error takes the character's place in the viewport. */
async function show() {
  state.busy();
  state.toUrl(view);
  redrawList();
  showMessage($("message"), null);
  if (listing.objects.some((object) => object.file === view.open)) return showObjectFile();
  objects.hide();
  $("views").hidden = false;
  $("skeleton").parentElement.hidden = false;
  const problems = [];
  try {
    const character = listing.characters.find((one) => one.open === view.open);
    const wardrobe = character?.wardrobe ?? [];
    const inWardrobe = new Set(wardrobe.flatMap((garment) => garment.files));
    // `mesh=` with no name asks for none: the bare skeleton.
    const named = view.mesh.filter((mesh) => mesh !== "");
    const plainNamed = named.filter((mesh) => !inWardrobe.has(mesh));
    const offered = [...new Set([...(character?.meshes ?? []), ...plainNamed])];
    const plain = view.mesh.length > 0 ? plainNamed : defaultMeshes(offered);
    const worn = view.mesh.length > 0 ? wornSets(wardrobe, named) : (character?.dressed ?? []);
    const meshes = [...plain, ...wornFiles(wardrobe, worn)];
    const wear = (chosen) => (chosen.length > 0 ? chosen : [""]);
    showMeshes($("meshes"), offered, plain, (chosen) => {
      playback?.pause();
      view = { ...view, mesh: wear([...chosen, ...wornFiles(wardrobe, worn)]) };
      show();
    }, character?.family === "tso");
    const tone = view.tone ?? "lgt";
    showWardrobe($("wardrobe"), wardrobe, { worn, tone, images: chosenImages(view.texture) }, (choice) => {
      playback?.pause();
      view = {
        ...view,
        mesh: wear([...plain, ...wornFiles(wardrobe, choice.worn)]),
        tone: choice.tone === "lgt" ? undefined : choice.tone,
        texture: Object.entries(choice.images).map(([set, file]) => `${set}=${file}`),
      };
      show();
    });
    const info = await api.info({ open: view.open, mesh: meshes, anim: view.anim, lod: view.lod });
    // Values for variables these meshes lack are dropped, not asked for.
    view.custom = customPairs(info.variables, chosenValues(view.custom));
    state.toUrl(view);
    showCustomization($("customization"), info.variables, chosenValues(view.custom), (values) => {
      playback?.pause();
      view = { ...view, custom: customPairs(info.variables, values) };
      show();
    });
    showFacts($("facts"), info.facts);
    problems.push(...info.warnings);
    showLevels(levels, info.lods, view.lod);
    // A skill whose data is missing is said once, here, and not asked for.
    for (const skill of info.skills) {
      if (skill.problem) problems.push(`${skill.name}: ${skill.problem}`);
    }
    const usable = info.skills.filter((skill) => !skill.problem);
    const skill = usable.some((one) => one.name === view.skill) ? view.skill : usable[0]?.name;
    const made = await api.gltf({
      open: view.open,
      mesh: wear(meshes),
      anim: skill ? view.anim : undefined,
      skill: view.anim ? skill : undefined,
      lod: view.lod,
      blend: view.blend,
      tone: view.tone,
      // Images chosen for the wardrobe's sets, by the set's name.
      texture: view.texture,
      custom: view.custom,
    });
    problems.push(...made.warnings);
    const clips = await scene.load(made.bytes);
    axes = info.axes;
    // With nothing but a skeleton to draw, the skeleton is drawn.
    const skeletonBox = $("skeleton");
    if (!scene.hasMeshes()) skeletonBox.checked = true;
    scene.showSkeleton(skeletonBox.checked);
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
      skill,
      clips,
    });
    // The camera frames every frame of the animation, not the rest pose only.
    scene.frame([playback.clip], playback.clip ? playback.skill.times : [0]);
    playback.show(view.frame);
    view.frame = playback.frame;
    state.toUrl(view);
    showProblems($("problems"), problems);
    // The frame is drawn once the browser has painted it; the controls
    // filled above may have changed the viewport's size since it was drawn.
    requestAnimationFrame(() => {
      scene.resize();
      document.body.dataset.figure = scene.screenBox().join(",");
      state.ready();
      if (view.autoplay) playback.play();
    });
  } catch (error) {
    // The previous character goes: the error stands where it stood.
    scene.clear();
    playback.choose({ files: [], skills: [], clips: [] });
    $("blends").replaceChildren();
    showCustomization($("customization"), [], {}, () => {});
    showMessage($("message"), error.message);
    problems.push(error.message);
    showProblems($("problems"), problems);
    state.failed(error.message);
  }
}

/** Draws the object file `view.open` as `view` asks ([`ObjectView`]),
 * the character's controls put away, marking the page ready once drawn;
 * an error takes the object's place in the viewport. */
async function showObjectFile() {
  playback.pause();
  playback.choose({ files: [], skills: [], clips: [] });
  for (const id of ["wardrobe", "customization", "meshes", "lod-control"]) $(id).hidden = true;
  $("blends").replaceChildren();
  $("views").hidden = true;
  try {
    const shown = await objects.show(view);
    view = shown.view;
    state.toUrl(view);
    showFacts($("facts"), shown.facts);
    showProblems($("problems"), shown.problems);
    // The 3D mesh turns and is seen from the front or the side; a
    // picture is drawn as the game draws it.
    $("views").hidden = view.show !== "mesh";
    $("skeleton").parentElement.hidden = true;
    requestAnimationFrame(() => {
      objects.fit();
      if (view.show === "mesh") {
        scene.resize();
        document.body.dataset.figure = scene.screenBox().join(",");
      } else {
        const frame = $("viewport").getBoundingClientRect();
        const box = $("picture").getBoundingClientRect();
        document.body.dataset.figure = [box.left - frame.left, box.top - frame.top, box.right - frame.left, box.bottom - frame.top]
          .map(Math.round)
          .join(",");
      }
      state.ready();
    });
  } catch (error) {
    scene.clear();
    objects.hide();
    showMessage($("message"), error.message);
    showProblems($("problems"), [error.message]);
    state.failed(error.message);
  }
}

function choose(next) {
  playback?.pause();
  // Another character: its skeleton is drawn only if it has nothing else.
  $("skeleton").checked = false;
  view = { ...next, frame: 0, lod: 0, blend: [], texture: [], custom: [], tone: undefined };
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
    showMessage($("message"), message);
    showProblems($("problems"), [message]);
    state.failed(message);
    return;
  }
  // For the browser tests and the developer console: the scene, and the
  // joints of the frame shown as `ossuary joints` gives them.
  window.ossuary = { scene, joints: () => jointsInFileAxes(scene, axes) };
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
  window.addEventListener("resize", () => objects.fit());
  objects = new ObjectView(
    {
      section: $("object"),
      picture: $("picture"),
      groupControls: $("group-controls"),
      spriteControls: $("sprite-controls"),
      group: $("group"),
      rotateLeft: $("rotate-left"),
      rotateRight: $("rotate-right"),
      zoomIn: $("zoom-in"),
      zoomOut: $("zoom-out"),
      viewName: $("view-name"),
      sprite: $("sprite"),
      frameBack: $("frame-back"),
      frameNext: $("frame-next"),
      frameName: $("frame-name"),
      depth: $("depth"),
    },
    scene,
    (next) => {
      view = next;
      show();
    },
  );
  try {
    listing = await api.list();
    redrawList = showList($("list"), $("filter"), listing, () => view, choose);
    view.open ??= listing.characters[0]?.open ?? listing.objects[0]?.file;
    if (view.open) {
      await show();
    } else {
      showProblems($("problems"), ["no character or object file found under the paths given"]);
      state.ready();
    }
  } catch (error) {
    showMessage($("message"), error.message);
    showProblems($("problems"), [error.message]);
    state.failed(error.message);
  }
}

start();
