// The viewer in headless Chromium: `ossuary view tests/fixtures` serves
// the page; it opens a Sims character with an animation at two frames and
// a Star Wars Galaxies character, waits until each view says it is ready,
// saves screenshots under target/viewer-screenshots/, and checks that a
// figure is drawn (in the figure's box on the canvas, pixels change when
// the figure is hidden) and that the two frames differ. Then one check per
// promise of the page:
// - everything the list offers reaches `ready` and draws;
// - a skeleton-only file draws its skeleton;
// - a character with a missing part draws the rest and lists one problem;
// - an error stands in the viewport;
// - the last frame's joints are `ossuary joints --frame N`'s (Outcast,
//   BonesPro);
// - a loose `.mgn` clicked alone draws;
// - with OSSUARY_CORPUS set, everything offered for each corpus folder
//   draws, and for the retail files laid out in a game's `Skins` and
//   `Skills` folders (the child offered only what fits it), a retail Sim opens dressed in its textures' colours,
//   filling most of the view's height, a real SWG
//   `.mgn` draws on the skeleton it names, the Twi'lek shows a control per
//   customization variable and a skin colour chosen goes into the address
//   and the asset's request and changes its colour, and The Sims Online's cape, given a skeleton
//   in FreeSO's `Skeletons` folder, is in that skeleton's wardrobe (with a
//   second appearance, to wear two at once) and draws animated;
// - each object file (the fixtures' chair, the six corpus objects) draws
//   every view of every draw group, reached by the zoom and turn buttons
//   with its direction and zoom in the address, its sprites' frames and
//   z-buffer, and each draw group FreeSO rebuilt in 3D as a textured mesh.
//
// usage: node viewer/tests/browser.mjs PLAYWRIGHT_DIR OSSUARY_BINARY
// (PLAYWRIGHT_DIR holds node_modules/playwright-core; .ci/run installs it.)

import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { inflateSync } from "node:zlib";

const [playwrightDir, binaryArgument] = process.argv.slice(2);
if (!playwrightDir || !binaryArgument) {
  console.error("usage: node viewer/tests/browser.mjs PLAYWRIGHT_DIR OSSUARY_BINARY");
  process.exit(2);
}
// Absolute: `ossuary joints` runs from the fixtures folder.
const binary = resolve(binaryArgument);
const { chromium } = createRequire(join(resolve(playwrightDir), "package.json"))("playwright-core");
const shots = resolve("target/viewer-screenshots");
mkdirSync(shots, { recursive: true });

function startServer(folder = "tests/fixtures") {
  const server = spawn(binary, ["view", folder, "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = new Promise((found, failed) => {
    let output = "";
    server.stdout.on("data", (chunk) => {
      output += chunk;
      const line = output.split("\n")[0];
      if (output.includes("\n")) found(line.trim());
    });
    server.on("exit", (code) => failed(new Error(`ossuary view exited with ${code}`)));
  });
  return { server, url };
}

/** The RGBA rows of a PNG screenshot (8-bit RGB or RGBA, as Chromium writes). */
function decodePng(png) {
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 4;
  const data = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString("ascii", at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      channels = body[9] === 6 ? 4 : 3;
    } else if (type === "IDAT") {
      data.push(body);
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? pixels[y * stride + x - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const upLeft = y > 0 && x >= channels ? pixels[(y - 1) * stride + x - channels] : 0;
      let value = line[x];
      if (filter === 1) value += left;
      else if (filter === 2) value += up;
      else if (filter === 3) value += Math.floor((left + up) / 2);
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        value += pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      pixels[y * stride + x] = value & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** How many pixels inside `box` ([left, top, right, bottom]) differ between two images. */
function differing(first, second, box) {
  return differingRows(first, second, box).reduce((sum, row) => sum + row, 0);
}

/** How many pixels differ in each row of `box`, from its top. */
function differingRows(first, second, box) {
  const [left, top, right, bottom] = box;
  const rows = [];
  for (let y = top; y < Math.min(bottom, first.height); y++) {
    let count = 0;
    for (let x = left; x < Math.min(right, first.width); x++) {
      const at = (y * first.width + x) * first.channels;
      for (let channel = 0; channel < 3; channel++) {
        if (Math.abs(first.pixels[at + channel] - second.pixels[at + channel]) > 8) {
          count++;
          break;
        }
      }
    }
    rows.push(count);
  }
  return rows;
}

/** The share of the canvas's height from the figure's highest pixel to its
 * lowest (`drawn` against `empty`, the canvas without it). */
function figureHeight(drawn, empty) {
  const rows = differingRows(drawn, empty, [0, 0, drawn.width, drawn.height]);
  const first = rows.findIndex((count) => count > 0);
  const last = rows.findLastIndex((count) => count > 0);
  return first < 0 ? 0 : (last - first + 1) / drawn.height;
}

/** The view at `query`, once ready: its canvas with and without the figure, and the figure's box. */
async function capture(page, base, query, name) {
  // A loaded machine takes a while to hand out three.js (a debug build).
  await page.goto(`${base}?${query}`, { timeout: 60_000 });
  await page.waitForFunction(() => ["ready", "error"].includes(document.body.dataset.state), null, {
    timeout: 60_000,
  });
  const [state, message, figure] = await page.evaluate(() => [
    document.body.dataset.state,
    document.body.dataset.message,
    document.body.dataset.figure,
  ]);
  if (state !== "ready") throw new Error(`${query}: the page says ${state}: ${message}`);
  const canvas = page.locator("#viewport canvas");
  const drawn = decodePng(await canvas.screenshot({ path: join(shots, `${name}.png`) }));
  await page.screenshot({ path: join(shots, `${name}-page.png`) });
  await page.evaluate(() => {
    window.ossuary.scene.model.visible = false;
    window.ossuary.scene.render();
  });
  const empty = decodePng(await canvas.screenshot());
  return { drawn, empty, box: figure.split(",").map(Number) };
}

/** Everything the list at `base` offers draws: each character as it
 * opens and in each garment of its wardrobe, each loose mesh as a click on
 * it opens it, and each of these with every skill of every animation
 * offered with it (those whose data is there). */
async function everythingOfferedDraws(page, base, label) {
  const listing = await (await fetch(`${base}api/list`)).json();
  const views = [];
  const counts = { characters: 0, garments: 0, meshes: 0, skills: 0 };
  const withSkills = async (view, animations) => {
    views.push(view);
    for (const anim of animations) {
      const info = await (await fetch(`${base}api/info?${new URLSearchParams({ open: view.open, anim })}`)).json();
      for (const skill of info.skills.filter((one) => !one.problem)) {
        views.push({ ...view, anim, skill: skill.name });
        counts.skills++;
      }
    }
  };
  for (const character of listing.characters) {
    await withSkills({ open: character.open, mesh: [] }, character.animations);
    counts.characters++;
    for (const garment of character.wardrobe) {
      views.push({ open: character.open, mesh: garment.files });
      counts.garments++;
    }
  }
  for (const mesh of listing.meshes) {
    const skeleton = listing.characters.find((character) => character.open === mesh.skeleton);
    await withSkills({ open: mesh.skeleton, mesh: [mesh.file] }, skeleton?.animations ?? []);
    counts.meshes++;
  }
  for (const view of views) {
    const query = new URLSearchParams(Object.entries(view).filter(([key]) => key !== "mesh"));
    for (const mesh of view.mesh) query.append("mesh", mesh);
    await mustDraw(page, base, query.toString(), null, 10);
  }
  const offered = Object.entries(counts).map(([what, count]) => `${count} ${what}`).join(", ");
  console.log(`${label}: ${offered} (${views.length} views) offered by the list, each ready and drawn; ${listing.problems.length} files listed as not shown`);
  return listing;
}

/** Waits until the page says it is ready (or failed); its state, message and figure box. */
async function settle(page) {
  await page.waitForFunction(() => ["ready", "error"].includes(document.body.dataset.state), null, {
    timeout: 60_000,
  });
  return page.evaluate(() => ({
    state: document.body.dataset.state,
    message: document.body.dataset.message,
    box: (document.body.dataset.figure ?? "0,0,0,0").split(",").map(Number),
    problems: [...document.querySelectorAll("#problems p")].map((line) => line.textContent),
  }));
}

/** Pixels of the figure drawn now: in its box, those that change when the
 * model and the skeleton lines are hidden. */
async function figurePixels(page, box, name) {
  const canvas = page.locator("#viewport canvas");
  const drawn = decodePng(await canvas.screenshot(name ? { path: join(shots, `${name}.png`) } : {}));
  await page.evaluate(() => {
    const { scene } = window.ossuary;
    if (scene.model) scene.model.visible = false;
    if (scene.bones) scene.bones.visible = false;
    scene.render();
  });
  const empty = decodePng(await canvas.screenshot());
  await page.evaluate(() => {
    const { scene } = window.ossuary;
    if (scene.model) scene.model.visible = true;
    scene.showSkeleton(scene.skeletonVisible);
  });
  return { count: differing(drawn, empty, box), drawn, height: figureHeight(drawn, empty) };
}

/** Opens `query`, which must become ready and draw at least `least` figure pixels. */
async function mustDraw(page, base, query, name, least = 50) {
  await page.goto(`${base}?${query}`, { timeout: 60_000 });
  const view = await settle(page);
  if (view.state !== "ready") throw new Error(`${query}: the page says ${view.state}: ${view.message}`);
  const { count, drawn, height } = await figurePixels(page, view.box, name);
  if (name) console.log(`${name}: ${count} pixels of the figure, ${Math.round(height * 100)}% of the view's height`);
  if (count < least) throw new Error(`${name ?? query}: no figure drawn`);
  return { ...view, drawn, height };
}

/** The viewport's background (scene.js's BACKGROUND), behind an object's picture. */
const BACKGROUND = [0x3a, 0x3f, 0x45];

/** Pixels of `image` inside `box` that are not the viewport's background. */
function notBackground(image, box) {
  const [left, top, right, bottom] = box;
  let count = 0;
  for (let y = Math.max(top, 0); y < Math.min(bottom, image.height); y++) {
    for (let x = Math.max(left, 0); x < Math.min(right, image.width); x++) {
      const at = (y * image.width + x) * image.channels;
      if (BACKGROUND.some((value, channel) => Math.abs(image.pixels[at + channel] - value) > 8)) count++;
    }
  }
  return count;
}

/** What `act` (a click) asks the page to show, once it is ready: the view
 * as the address holds it and the picture's pixels in the viewport. */
async function pictureAfter(page, act, name) {
  await act();
  const view = await settle(page);
  if (view.state !== "ready") throw new Error(`${page.url()}: the page says ${view.state}: ${view.message}`);
  const shot = decodePng(await page.locator("#viewport").screenshot(name ? { path: join(shots, `${name}.png`) } : {}));
  const address = Object.fromEntries(new URL(page.url()).searchParams);
  return { address, count: notBackground(shot, view.box), pixels: shot.pixels };
}

/** Every object file the list at `base` offers draws: each draw group's
 * every view, reached by the zoom and turn buttons and each drawn (its
 * direction and zoom in the address), a sprite's frames and its
 * z-buffer, and each draw group FreeSO rebuilt in 3D as its textured
 * mesh. */
async function objectsDraw(page, base, label) {
  const listing = await (await fetch(`${base}api/list`)).json();
  const counts = { files: 0, groups: 0, views: 0, frames: 0, meshes: 0 };
  for (const object of listing.objects) {
    const facts = await (await fetch(`${base}api/object?${new URLSearchParams({ open: object.file })}`)).json();
    const click = (id) => () => page.locator(`#${id}`).click();
    for (const group of facts.groups) {
      const open = () => page.goto(`${base}?${new URLSearchParams({ open: object.file, group: group.id })}`, { timeout: 60_000 });
      let shown = await pictureAfter(page, open);
      const zooms = [...new Set(group.views.map(([, zoom]) => zoom))].sort();
      while (Number(shown.address.zoom) > zooms[0]) shown = await pictureAfter(page, click("zoom-out"));
      const seen = new Map();
      for (const [step, zoom] of zooms.entries()) {
        if (step > 0) shown = await pictureAfter(page, click("zoom-in"));
        const turns = group.views.filter((view) => view[1] === zoom).length;
        const pictures = new Set();
        for (let turn = 0; turn < turns; turn++) {
          if (turn > 0) shown = await pictureAfter(page, click("rotate-right"));
          const key = `${shown.address.direction},${shown.address.zoom}`;
          if (Number(shown.address.zoom) !== zoom || seen.has(key)) {
            throw new Error(`${object.file}: DGRP ${group.id}: the buttons reached ${key} again, not the next view of zoom ${zoom}`);
          }
          if (shown.count < 20) throw new Error(`${object.file}: DGRP ${group.id} ${key}: nothing drawn (${shown.count} pixels)`);
          seen.set(key, shown.count);
          pictures.add(shown.pixels.toString("base64"));
        }
        if (turns > 1 && pictures.size < 2) throw new Error(`${object.file}: DGRP ${group.id} looks the same from every direction at zoom ${zoom}`);
      }
      if (seen.size !== group.views.length) {
        throw new Error(`${object.file}: DGRP ${group.id}: ${seen.size} of its ${group.views.length} views reached`);
      }
      counts.groups++;
      counts.views += seen.size;
      if (group.mesh) {
        await pictureAfter(page, click("show-mesh"));
        const view = await settle(page);
        const name = `object-mesh-${object.file.replace(/\W+/g, "-")}-${group.id}`;
        const { count, drawn } = await figurePixels(page, view.box, name);
        const textured = await page.evaluate(() => {
          const found = [];
          window.ossuary.scene.model.traverse((part) => {
            if (part.isMesh) found.push(Boolean(part.material.map?.image?.width));
          });
          return found;
        });
        if (count < 200) throw new Error(`${name}: no mesh drawn (${count} pixels)`);
        if (textured.length === 0 || !textured.every(Boolean)) throw new Error(`${name}: a piece of the mesh has no texture (${textured})`);
        counts.meshes++;
        if (group === facts.groups[0]) console.log(`${name}: ${count} pixels, ${textured.length} textured piece(s), ${colourful(drawn, view.box)} coloured`);
      }
    }
    const sprite = facts.sprites.find((one) => one.frames.some((frame) => frame.width > 0 && frame.height > 0));
    if (sprite) {
      const open = () => page.goto(`${base}?${new URLSearchParams({ open: object.file, show: "sprite", sprite: sprite.name })}`, { timeout: 60_000 });
      const first = await pictureAfter(page, open);
      const next = await pictureAfter(page, click("frame-next"));
      for (const shown of [first, next]) {
        if (shown.count < 10) throw new Error(`${object.file}: ${sprite.name} frame ${shown.address.frame ?? 0}: nothing drawn`);
      }
      counts.frames += 2;
      if (sprite.frames[Number(next.address.frame ?? 0)]?.depth) {
        const depth = await pictureAfter(page, click("depth"));
        if (depth.address.depth !== "1" || depth.count < 10 || depth.pixels.equals(next.pixels)) {
          throw new Error(`${object.file}: ${sprite.name}'s z-buffer is not drawn`);
        }
        counts.frames++;
      }
    }
    counts.files++;
  }
  const shown = Object.entries(counts).map(([what, count]) => `${count} ${what}`).join(", ");
  console.log(`${label}: objects: ${shown}, each drawn`);
  return counts;
}

/** The joints `ossuary joints` gives for a frame, from the fixtures folder. */
function commandLineJoints(folder, skeleton, anim, frame) {
  const output = execFileSync(binary, ["joints", skeleton, "--anim", anim, "--frame", String(frame)], {
    cwd: folder,
    encoding: "utf8",
  });
  return JSON.parse(output);
}

/** The largest distance between the same joints' positions. */
function largestGap(page, file) {
  let gap = 0;
  if (page.length !== file.length) return Infinity;
  for (let index = 0; index < file.length; index++) {
    const [a, b] = [page[index].position, file[index].position];
    gap = Math.max(gap, Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
  }
  return gap;
}

/** The page's joints at the last frame of `anim` on `skeleton` equal the
 * command line's, and differ from frame 0's. */
async function lastFrameIsTheFilesFrame(page, base, skeleton, anim) {
  await page.goto(`${base}?${new URLSearchParams({ open: skeleton, anim, frame: "100000" })}`, { timeout: 60_000 });
  const view = await settle(page);
  if (view.state !== "ready") throw new Error(`${anim}: the page says ${view.state}: ${view.message}`);
  const last = await page.evaluate(() => Number(document.getElementById("frame").value));
  const shown = await page.evaluate(() => window.ossuary.joints());
  const expected = commandLineJoints("tests/fixtures", skeleton, anim, last);
  const first = commandLineJoints("tests/fixtures", skeleton, anim, 0);
  const gap = largestGap(shown, expected);
  const moved = largestGap(first, expected);
  console.log(`${anim}: frame ${last} (the last): the page's joints are ${gap} from ossuary joints'; frame 0's ${moved}`);
  if (!(last > 0)) throw new Error(`${anim}: no last frame past 0`);
  if (!(moved > 1e-3)) throw new Error(`${anim}: the last frame is frame 0's pose; the check would show nothing`);
  if (!(gap < 1e-3 * Math.max(1, moved))) throw new Error(`${anim}: frame ${last}'s joints are not ossuary joints'`);
}

/** A folder with a character and a suit beside it naming a skin that is missing. */
function missingPartFolder() {
  const folder = mkdtempSync(join(tmpdir(), "ossuary-missing-"));
  for (const name of ["humanoid.cmx", "xskin-humanoid-L_ARM-ARM.skn", "xskill-humanoid-wave.cfp"]) {
    copyFileSync(join("tests/fixtures", name), join(folder, name));
  }
  const suit = [
    "// Character File. Copyright 1997, Maxis Inc.",
    "version 300",
    "0",
    "1",
    "hat",
    "0",
    "0",
    "1",
    "HEAD",
    "xskin-hat-HEAD-HAT",
    "0",
    "0",
    "0",
    "",
  ].join("\r\n");
  writeFileSync(join(folder, "hat.cmx"), suit);
  return folder;
}

/** The real cape's appearance, and a copy of it under another id. */
const CAPE = "FSO-Accessory-CapeBlack.97d3e3ee0000000c.apr";
const SECOND_APPEARANCE = "FSO-Accessory-CapeCopy.97d3e3ef0000000c.apr";

/** The retail Sims files laid out as the game lays them out: the skins,
 * suits, images and both skeletons (the child's is the adult's under the
 * child's name) in `GameData/Skins`, the animations with their keys in
 * `GameData/Skills` beside it, a child's animation among them. */
function retailGameFolder(corpus) {
  const folder = mkdtempSync(join(tmpdir(), "ossuary-retail-"));
  const [skins, skills] = [join(folder, "GameData", "Skins"), join(folder, "GameData", "Skills")];
  mkdirSync(skins, { recursive: true });
  mkdirSync(skills, { recursive: true });
  const sims = join(corpus, "sims1");
  for (const name of readdirSync(sims)) {
    const animation = /^(adult-(?!skeleton)|xskill-)/.test(name);
    copyFileSync(join(sims, name), join(animation ? skills : skins, name));
  }
  copyFileSync(join(sims, "adult-skeleton.cmx"), join(skins, "child-skeleton.cmx"));
  copyFileSync(join(sims, "adult-idle1.cmx"), join(skills, "child-idle1.cmx"));
  return folder;
}

/** A bone's step from its parent in the made-up TSO skeleton: legs down,
 * arms out to their side, the rest up. */
function step(name) {
  const side = name.startsWith("L_") ? 1 : name.startsWith("R_") ? -1 : 0;
  if (/_(LEG|FOOT|TOE)/.test(name)) return [0.1 * side, -0.4, 0];
  return [0.15 * side, 0.3, 0];
}

/** The Sims Online's real files in FreeSO's folders, with a skeleton of
 * the adult's bones in `Skeletons` (the game's own is not public): each
 * bone a small step from its parent, the animations' keys replacing the
 * steps, and the other bones the animations move hung from the root. */
function tsoFolder(corpus) {
  const folder = mkdtempSync(join(tmpdir(), "ossuary-tso-"));
  cpSync(join(corpus, "tso"), folder, { recursive: true });
  const chain = [
    ["ROOT", "NULL"], ["PELVIS", "ROOT"], ["SPINE", "PELVIS"], ["SPINE1", "SPINE"], ["SPINE2", "SPINE1"],
    ["NECK", "SPINE2"], ["HEAD", "NECK"], ["L_ARM", "SPINE2"], ["L_ARM1", "L_ARM"], ["L_ARM2", "L_ARM1"],
    ["L_HAND", "L_ARM2"], ["L_FINGER0", "L_HAND"], ["R_ARM", "SPINE2"], ["R_ARM1", "R_ARM"], ["R_ARM2", "R_ARM1"],
    ["R_HAND", "R_ARM2"], ["R_FINGER0", "R_HAND"], ["L_LEG", "PELVIS"], ["L_LEG1", "L_LEG"], ["L_FOOT", "L_LEG1"],
    ["L_TOE0", "L_FOOT"], ["L_TOE01", "L_TOE0"], ["L_TOE02", "L_TOE01"], ["R_LEG", "PELVIS"], ["R_LEG1", "R_LEG"],
    ["R_FOOT", "R_LEG1"], ["R_TOE0", "R_FOOT"], ["R_TOE01", "R_TOE0"], ["R_TOE02", "R_TOE01"],
  ];
  const names = new Set(chain.map(([name]) => name));
  for (const anim of readdirSync(join(folder, "Animations"))) {
    const dumped = JSON.parse(execFileSync(binary, ["dump", join(folder, "Animations", anim)], { encoding: "utf8", maxBuffer: 1 << 28 }));
    for (const motion of dumped.motions) {
      if (!names.has(motion.bone)) {
        names.add(motion.bone);
        chain.push([motion.bone, "ROOT"]);
      }
    }
  }
  const skeleton = {
    version: 1,
    name: "adult",
    bones: chain.map(([name, parent]) => ({
      unknown: 1,
      name,
      parent,
      has_properties: 0,
      translation: step(name),
      rotation: [0, 0, 0, 1],
      can_translate: 1,
      can_rotate: 1,
      can_blend: 1,
      wiggle_value: 0,
      wiggle_power: 0,
    })),
  };
  // A second appearance, to wear two at once: the cape's bindings under
  // another file id.
  const appearances = join(folder, "Appearances");
  copyFileSync(join(appearances, CAPE), join(appearances, SECOND_APPEARANCE));
  mkdirSync(join(folder, "Skeletons"));
  writeFileSync(join(folder, "adult.json"), JSON.stringify(skeleton));
  execFileSync(binary, ["encode", join(folder, "adult.json"), "--format", "tso-skel", "-o", join(folder, "Skeletons", "adult.skel")]);
  rmSync(join(folder, "adult.json"));
  return folder;
}

/** Pixels of the canvas coloured (not grey, white or the background). */
function colourful(image, box) {
  const [left, top, right, bottom] = box;
  let count = 0;
  for (let y = top; y < Math.min(bottom, image.height); y++) {
    for (let x = left; x < Math.min(right, image.width); x++) {
      const at = (y * image.width + x) * image.channels;
      const [r, g, b] = [image.pixels[at], image.pixels[at + 1], image.pixels[at + 2]];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 40) count++;
    }
  }
  return count;
}

/** The query of the next glTF asset the page asks for while `act` runs,
 * once the page has drawn it. */
async function assetAsked(page, act) {
  const asked = page.waitForRequest((request) => request.url().includes("/api/gltf?"), { timeout: 60_000 });
  await act();
  const query = new URL((await asked).url()).searchParams;
  const view = await settle(page);
  if (view.state !== "ready") throw new Error(`the page says ${view.state}: ${view.message}`);
  return { query, view };
}

/** The Twi'lek shows one control per customization variable of its
 * shaders; a skin colour or head-tail pattern chosen goes into the
 * address and into the asset's request, and stays there on reload. */
async function twilekCustomization(page, base) {
  const open = "swg/appearance/twk_f.sat";
  const first = await mustDraw(page, base, `open=${open}`, "swg-twilek");
  const controls = await page.evaluate(() =>
    [...document.querySelectorAll("#customization fieldset")].map((control) => ({
      name: control.dataset.variable,
      kind: control.dataset.kind,
      choices: control.querySelectorAll("button, option").length,
    })));
  console.log(`the Twi'lek's customization: ${controls.map((one) => `${one.name} (${one.kind}, ${one.choices})`).join(", ")}`);
  const control = (name) => controls.find((one) => one.name === name);
  if (control("index_color_skin")?.kind !== "palette" || control("index_color_skin").choices !== 256) {
    throw new Error("the Twi'lek has no swatch per entry of its skin palette");
  }
  if (control("index_texture_1")?.kind !== "texture" || control("index_texture_1").choices !== 21) {
    throw new Error("the Twi'lek has no choice among its 21 head-tail patterns");
  }
  if (control("index_age")?.choices !== 4) throw new Error("the Twi'lek has no choice among its 4 wrinkle maps");
  const skin = await assetAsked(page, () =>
    page.locator('#customization fieldset[data-variable="index_color_skin"] button[data-index="5"]').click());
  if (!skin.query.getAll("custom").includes("index_color_skin:5")) {
    throw new Error(`choosing skin colour 5 asks for ${skin.query}`);
  }
  const address = new URL(page.url()).searchParams.getAll("custom");
  if (!address.includes("index_color_skin:5")) throw new Error(`the address keeps ${address}, not skin colour 5`);
  const pattern = await assetAsked(page, () =>
    page.locator('#customization fieldset[data-variable="index_texture_1"] select').selectOption("3"));
  const both = pattern.query.getAll("custom");
  console.log(`the Twi'lek customized: the asset asked with custom=${both.join(", custom=")}`);
  if (!both.includes("index_color_skin:5") || !both.includes("index_texture_1:3")) {
    throw new Error(`choosing head-tail pattern 3 after skin colour 5 asks for ${pattern.query}`);
  }
  // The address alone gives the same view: the choices are kept in it.
  await page.goto(page.url(), { timeout: 60_000 });
  await settle(page);
  const chosen = await page.evaluate(() => [
    document.querySelector('#customization fieldset[data-variable="index_color_skin"] button[aria-checked="true"]')?.dataset.index,
    document.querySelector('#customization fieldset[data-variable="index_texture_1"] select').value,
  ]);
  if (chosen.join(",") !== "5,3") throw new Error(`the address reloaded shows skin ${chosen[0]} and pattern ${chosen[1]}`);
  // Export tints the materials: the figure changes colour.
  const { drawn } = await figurePixels(page, pattern.view.box, "swg-twilek-customized");
  const changed = differing(first.drawn, drawn, pattern.view.box);
  console.log(`the Twi'lek customized: ${changed} pixels changed`);
  if (changed < 100) throw new Error("the Twi'lek looks the same in another skin colour and pattern");
}

/** The Sims Online skeleton's wardrobe: a tick box per appearance, every
 * one worn when the view names none; taking one off and putting another
 * on changes the address and the asset asked for. */
async function tsoWardrobe(page, base, skeleton, wardrobe) {
  await mustDraw(page, base, new URLSearchParams({ open: skeleton }).toString(), "tso-wardrobe");
  const boxes = () => page.evaluate(() => {
    const container = document.getElementById("meshes");
    return {
      shown: !container.hidden && container.dataset.kind === "wardrobe",
      ticked: [...container.querySelectorAll("input[type=checkbox]")].filter((box) => box.checked).map((box) => box.value),
    };
  });
  const opened = await boxes();
  if (!opened.shown || JSON.stringify(opened.ticked) !== JSON.stringify(wardrobe)) {
    throw new Error(`the wardrobe opens with ${JSON.stringify(opened)}, not every appearance worn`);
  }
  const off = await assetAsked(page, () => page.locator(`#meshes input[value="${wardrobe[0]}"]`).uncheck());
  if (JSON.stringify(off.query.getAll("mesh")) !== JSON.stringify([wardrobe[1]])) {
    throw new Error(`taking ${wardrobe[0]} off asks for ${off.query}`);
  }
  const on = await assetAsked(page, () => page.locator(`#meshes input[value="${wardrobe[0]}"]`).check());
  const worn = new URL(page.url()).searchParams.getAll("mesh");
  console.log(`The Sims Online wardrobe: wearing ${worn.join(" and ")}`);
  if (JSON.stringify(on.query.getAll("mesh")) !== JSON.stringify(wardrobe) || JSON.stringify(worn) !== JSON.stringify(wardrobe)) {
    throw new Error(`putting ${wardrobe[0]} back on asks for ${on.query}, the address ${worn}`);
  }
}

const { server, url } = startServer();
let failed = false;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: [
    "--headless=new",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
try {
  const base = await url;
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  const views = [
    ["sims-wave-frame-0", "open=humanoid.cmx&anim=humanoid.cmx&frame=0"],
    ["sims-wave-frame-1", "open=humanoid.cmx&anim=humanoid.cmx&frame=1"],
    ["swg-humanoid", "open=humanoid.sat"],
  ];
  const drawnViews = {};
  for (const [name, query] of views) {
    const { drawn, empty, box } = await capture(page, base, query, name);
    const figure = differing(drawn, empty, box);
    console.log(`${name}: ${figure} pixels of the figure in its box ${box.join(",")}`);
    if (figure < 50) throw new Error(`${name}: no figure drawn in its box`);
    drawnViews[name] = drawn;
  }
  const whole = [0, 0, drawnViews["sims-wave-frame-0"].width, drawnViews["sims-wave-frame-0"].height];
  const moved = differing(drawnViews["sims-wave-frame-0"], drawnViews["sims-wave-frame-1"], whole);
  console.log(`frames 0 and 1 differ in ${moved} pixels`);
  if (moved < 50) throw new Error("frames 0 and 1 of the wave look the same");

  await everythingOfferedDraws(page, base, "tests/fixtures");
  await objectsDraw(page, base, "tests/fixtures");

  // A skeleton-only file shows its skeleton, on by default (the TSO
  // skeleton's wardrobe, the arm, taken off: `mesh=` names none).
  for (const file of ["humanoid.skel", "biped.osk", "humanoid.skt"]) {
    await mustDraw(page, base, `open=${file}&mesh=`, `skeleton-only-${file}`);
    const on = await page.evaluate(() => document.getElementById("skeleton").checked);
    if (!on) throw new Error(`${file}: the skeleton is not on with nothing else to draw`);
  }

  // An error stands where the character would, and the previous one goes.
  await page.goto(`${base}?open=humanoid.cmx`, { timeout: 60_000 });
  await settle(page);
  await page.goto(`${base}?open=humanoid.mgn`, { timeout: 60_000 });
  const failedView = await settle(page);
  const shownMessage = await page.evaluate(() => {
    const message = document.getElementById("message");
    return message.hidden ? null : message.textContent;
  });
  console.log(`an error in the viewport: ${shownMessage}`);
  if (failedView.state !== "error" || !shownMessage) throw new Error("an error is not shown in the viewport");
  if (shownMessage.split("humanoid.mgn").length > 2) throw new Error(`the error names its file twice: ${shownMessage}`);
  if (await page.evaluate(() => window.ossuary.scene.model !== null)) throw new Error("the previous character stays under an error");

  // Frame N is `ossuary joints --frame N`, the last one included.
  await lastFrameIsTheFilesFrame(page, base, "biped.osk", "biped-wave.oan");
  await lastFrameIsTheFilesFrame(page, base, "bonespro-biped.txt", "bonespro-walk-euler-xyz.txt");

  // A loose `.mgn` clicked in the list draws.
  await page.goto(base, { timeout: 60_000 });
  await settle(page);
  await page.getByRole("button", { name: "humanoid.mgn", exact: true }).click();
  const clicked = await settle(page);
  if (clicked.state !== "ready") throw new Error(`humanoid.mgn clicked: ${clicked.message}`);
  const mgnPixels = (await figurePixels(page, clicked.box, "loose-mgn")).count;
  console.log(`humanoid.mgn clicked: ${mgnPixels} pixels of the figure`);
  if (mgnPixels < 50) throw new Error("humanoid.mgn clicked draws nothing");

  // A character with a missing part draws the rest and lists one problem.
  const folder = missingPartFolder();
  const missing = startServer(folder);
  try {
    const missingBase = await missing.url;
    const view = await mustDraw(page, missingBase, "open=humanoid.cmx&mesh=hat.cmx", "missing-part");
    console.log(`a missing part: ${JSON.stringify(view.problems)}`);
    if (view.problems.length !== 1 || !view.problems[0].includes("hat.cmx")) {
      throw new Error(`a missing part is not one problem naming it: ${JSON.stringify(view.problems)}`);
    }
    if (view.problems[0].includes(folder)) throw new Error("a problem names the server's own path");
  } finally {
    missing.server.kill("SIGINT");
    rmSync(folder, { recursive: true, force: true });
  }

  // Real files, when there are.
  const corpus = process.env.OSSUARY_CORPUS;
  if (corpus) {
    // Each game's folder served alone, as a user serves one.
    for (const game of ["sims1", "sims1-prototype", "swg", "tso"]) {
      const alone = startServer(join(corpus, game));
      try {
        const listing = await everythingOfferedDraws(page, await alone.url, game);
        // The Sims Online's files with no skeleton are listed with the reason, not offered.
        const unposed = listing.problems.filter((problem) => problem.message.includes("no skeleton"));
        if (game === "tso" && (listing.meshes.length > 0 || unposed.length !== 3)) {
          throw new Error(`tso without a skeleton: ${JSON.stringify(listing)}`);
        }
      } finally {
        alone.server.kill("SIGINT");
      }
    }
    // The object files: every draw group by direction and zoom, the
    // FreeSO ones' meshes textured.
    const objectsServer = startServer(join(corpus, "objects"));
    try {
      const counts = await objectsDraw(page, await objectsServer.url, "objects");
      if (counts.files !== 6 || counts.meshes !== 7) throw new Error(`the corpus objects: ${JSON.stringify(counts)}, not 6 files with 7 meshes`);
    } finally {
      objectsServer.server.kill("SIGINT");
    }
    const tso = tsoFolder(corpus);
    const tsoServer = startServer(tso);
    try {
      const tsoBase = await tsoServer.url;
      await everythingOfferedDraws(page, tsoBase, "tso with a skeleton in Skeletons");
      const listing = await (await fetch(`${tsoBase}api/list`)).json();
      const adult = listing.characters.find((character) => character.open === "Skeletons/adult.skel");
      const wardrobe = [`Appearances/${CAPE}`, `Appearances/${SECOND_APPEARANCE}`];
      if (JSON.stringify(adult?.meshes) !== JSON.stringify(wardrobe)) {
        throw new Error(`the appearances are not the adult skeleton's wardrobe: ${JSON.stringify(listing)}`);
      }
      if (listing.meshes.some((mesh) => mesh.file.endsWith(".apr"))) throw new Error("an appearance in a wardrobe is also loose");
      console.log(`The Sims Online: animations offered on ${adult.open}: ${adult.animations.join(", ")}`);
      if (adult.animations.length !== 3) throw new Error("the real animations are not all offered on the adult skeleton");
      await tsoWardrobe(page, tsoBase, adult.open, wardrobe);
      const cape = { file: wardrobe[0], skeleton: adult.open };
      const anim = adult.animations.find((file) => file.includes("kart-ride"));
      const capeView = await mustDraw(page, tsoBase, new URLSearchParams({ open: cape.skeleton, mesh: cape.file, anim, frame: "0" }).toString(), "tso-cape-animated");
      // Its binding, mesh and texture are found by their ids.
      if (capeView.problems.length > 0) throw new Error(`the cape has problems: ${JSON.stringify(capeView.problems)}`);
      if (colourful(capeView.drawn, capeView.box) < 200) throw new Error("the cape is drawn without its texture's red");
    } finally {
      tsoServer.server.kill("SIGINT");
      rmSync(tso, { recursive: true, force: true });
    }
    const retail = retailGameFolder(corpus);
    const retailServer = startServer(join(retail, "GameData"));
    try {
      const listing = await everythingOfferedDraws(page, await retailServer.url, "a retail game's Skins and Skills");
      const child = listing.characters.find((character) => character.open === "Skins/child-skeleton.cmx");
      const sets = child?.wardrobe.map((garment) => garment.set) ?? [];
      if (JSON.stringify(child?.animations) !== JSON.stringify(["Skills/child-idle1.cmx"]) || sets.some((set) => /^[bc]\d{3}.a/.test(set))) {
        throw new Error(`the child is offered what does not fit it: ${JSON.stringify(child)}`);
      }
    } finally {
      retailServer.server.kill("SIGINT");
      rmSync(retail, { recursive: true, force: true });
    }
    const real = startServer(corpus);
    try {
      const realBase = await real.url;
      await everythingOfferedDraws(page, realBase, "the corpus");
      const sim = await mustDraw(page, realBase, "open=sims1/adult-skeleton.cmx", "retail-sim");
      const coloured = colourful(sim.drawn, sim.box);
      console.log(`a retail Sim: ${coloured} pixels in its textures' colours; problems ${JSON.stringify(sim.problems)}`);
      if (coloured < 500) throw new Error("a retail Sim is drawn without its textures' colours");
      // A standing figure is framed to fill most of the view's height.
      if (sim.height < 0.8) throw new Error(`a retail Sim fills ${Math.round(sim.height * 100)}% of the view's height`);
      const wearing = await page.evaluate(() =>
        [...document.querySelectorAll("#wardrobe select")].map((select) => `${select.dataset.slot}=${select.value}`));
      console.log(`wearing ${wearing.join(", ")}`);
      if (wearing.slice(0, 3).some((worn) => worn.endsWith("="))) throw new Error("a retail Sim opens undressed");
      const noControls = await page.evaluate(() => document.getElementById("customization").hidden);
      if (!noControls) throw new Error("a retail Sim, which has no customization variables, shows their controls");
      await mustDraw(page, realBase, new URLSearchParams({
        open: "swg/appearance/skeleton/all_b.skt",
        mesh: "swg/appearance/mesh/twk_f_body_l0.mgn",
      }).toString(), "swg-real-mgn");
      await twilekCustomization(page, realBase);
    } finally {
      real.server.kill("SIGINT");
    }
  }
  console.log(`ok: screenshots in ${shots}`);
} catch (error) {
  console.error(`browser test failed: ${error.message}`);
  failed = true;
} finally {
  await browser.close();
  server.kill("SIGINT");
}
process.exit(failed ? 1 : 0);
