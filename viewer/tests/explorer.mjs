// The byte explorer in headless Chromium: `ossuary view` serves a folder
// holding a SWG mesh (`.mgn`), an object file (`.iff`), a Sims text file
// (`.cmx`) and a broken (cut) mesh; for each the explorer page opens,
// choosing a field marks its bytes, and clicking a byte chooses the field
// holding it; on the broken mesh the failing field is marked with its
// message; a sprite frame shows its picture; a mesh of more than 1 MB
// opens like the others. The fixtures are used, the corpus's files instead when
// OSSUARY_CORPUS is set. Prints how long each page took to be ready.
//
// usage: node viewer/tests/explorer.mjs PLAYWRIGHT_DIR OSSUARY_BINARY

import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const [playwrightDir, binaryArgument] = process.argv.slice(2);
if (!playwrightDir || !binaryArgument) {
  console.error("usage: node viewer/tests/explorer.mjs PLAYWRIGHT_DIR OSSUARY_BINARY");
  process.exit(2);
}
const binary = resolve(binaryArgument);
const { chromium } = createRequire(join(resolve(playwrightDir), "package.json"))("playwright-core");

const corpus = process.env.OSSUARY_CORPUS;
const sources = corpus
  ? {
      "head.mgn": join(corpus, "swg/appearance/mesh/twk_f_head_l0.mgn"),
      "object.iff": join(corpus, "objects/sims1/robots_2x3_352636.iff"),
      "walk.cmx": join(corpus, "sims1/adult-walking-frantic-loop.cmx"),
    }
  : {
      "head.mgn": "tests/fixtures/humanoid.mgn",
      "object.iff": "tests/fixtures/chair.iff",
      "walk.cmx": "tests/fixtures/humanoid.cmx",
    };
const folder = mkdtempSync(join(tmpdir(), "ossuary-explorer-"));
for (const [name, source] of Object.entries(sources)) copyFileSync(source, join(folder, name));
// The fixtures' chair, whose sprite frame starts at byte 0x331.
copyFileSync("tests/fixtures/chair.iff", join(folder, "chair.iff"));
// Cut inside the mesh: the outer form promises more than is left.
const mesh = readFileSync(sources["head.mgn"]);
writeFileSync(join(folder, "cut.mgn"), mesh.subarray(0, Math.floor(mesh.length / 2)));

// A mesh of more than 1 MB, the mesh's shader groups and blend targets
// repeated (ossuary writes it from its JSON; every repeat is a valid
// mesh), for the time its page takes to be ready.
const dumped = JSON.parse(execFileSync(binary, ["dump", sources["head.mgn"]], { maxBuffer: 1 << 28 }));
const version = Object.values(dumped.version)[0];
const once = { shader_groups: version.shader_groups, blend_targets: version.blend_targets };
let bigSize = 0;
for (let repeats = 2; bigSize <= 1 << 20; repeats *= 2) {
  for (const [key, list] of Object.entries(once)) {
    version[key] = Array.from({ length: repeats }, () => list).flat();
  }
  writeFileSync(join(folder, "big.json"), JSON.stringify(dumped));
  execFileSync(binary, ["encode", join(folder, "big.json"), "--format", "swg-mgn", "-o", join(folder, "big.mgn")]);
  bigSize = readFileSync(join(folder, "big.mgn")).length;
}
rmSync(join(folder, "big.json"));

const server = spawn(binary, ["view", folder, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const url = await new Promise((found, failed) => {
  let output = "";
  server.stdout.on("data", (chunk) => {
    output += chunk;
    if (output.includes("\n")) found(output.split("\n")[0].trim());
  });
  server.on("exit", (code) => failed(new Error(`ossuary view exited with ${code}`)));
});

function check(condition, message) {
  if (!condition) throw new Error(message);
}

async function openExplorer(page, name) {
  const started = Date.now();
  await page.goto(`${url}explore.html?open=${encodeURIComponent(name)}`);
  await page.waitForFunction(() => ["ready", "error"].includes(document.body.dataset.state), null, { timeout: 60000 });
  const state = await page.evaluate(() => document.body.dataset.state);
  const message = await page.textContent("#error");
  check(state === "ready", `${name}: the explorer did not open: ${message}`);
  console.log(`${name}: ready in ${Date.now() - started} ms`);
}

/** Clicks unit `at` in the byte view; the field chosen must hold it. */
async function pickUnit(page, name, at) {
  await page.evaluate((at) => {
    const box = document.getElementById("hex");
    box.scrollTop = Math.max(0, (document.body.dataset.encoding === "text" ? at - 1 : Math.floor(at / 16)) * 18 - 100);
  }, at);
  await page.waitForSelector(`#hex-rows [data-at="${at}"]`);
  await page.click(`#hex-rows [data-at="${at}"]`);
  await page.waitForFunction((at) => document.body.dataset.picked === String(at), at);
  const chosen = await page.evaluate(() => {
    const row = document.querySelector('#tree .row[aria-selected="true"]');
    const node = row?.closest(".node")?.node;
    return node && { path: node.path, start: node.start, end: node.end, children: node.children, list: node.list };
  });
  check(chosen, `${name}: clicking unit ${at} chose no field`);
  check(chosen.start <= at && at < chosen.end, `${name}: unit ${at} chose ${JSON.stringify(chosen)}`);
  check(chosen.children === 0 || chosen.list, `${name}: unit ${at} chose ${chosen.path}, which has fields below`);
  console.log(`${name}: unit ${at} is in ${chosen.path}`);
}

/** Opens the first node with fields below and chooses its last child (a
 * file of one field: that field); its first unit must be marked. */
async function chooseField(page, name) {
  const tops = page.locator("#tree-root > .node");
  let field = tops.first();
  for (const top of await tops.all()) {
    const opens = await top.evaluate((element) => element.node.children > 0 && !element.node.list);
    if (opens) {
      await top.locator(":scope > .row .toggle").click();
      field = top.locator(":scope > ul > .node").last();
      break;
    }
  }
  await field.locator(":scope > .row").click();
  const node = await field.evaluate((element) => element.node);
  await page.waitForFunction((start) => document.querySelector(`#hex-rows [data-at="${start}"]`)?.classList.contains("sel"), node.start);
  const marked = await page.$$eval("#hex-rows .sel", (units) => units.map((unit) => Number(unit.dataset.at)));
  check(marked.every((at) => at >= node.start && at < node.end), `${name}: ${node.path} marked units outside it`);
  console.log(`${name}: ${node.path} marks its ${marked.length} units in view`);
}

let failed = false;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless=new", "--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  for (const [name, at] of [["head.mgn", 300], ["object.iff", 100], ["walk.cmx", 3], ["big.mgn", 1 << 20]]) {
    try {
      await openExplorer(page, name);
      await chooseField(page, name);
      await pickUnit(page, name, at);
    } catch (error) {
      failed = true;
      console.error(`FAIL ${error.message}`);
    }
  }
  try {
    // A text file's token: choosing the version marks `300`, not its line.
    await openExplorer(page, "walk.cmx");
    const labels = await page.$$eval("#tree-root > .node", (nodes) => nodes.map((node) => node.node.label));
    const index = labels.indexOf("version");
    check(index >= 0, `walk.cmx: no \`version\` node at the top of the tree: ${labels}`);
    await page.locator("#tree-root > .node").nth(index).locator(":scope > .row").click();
    await page.waitForFunction(() => document.querySelector("#hex-rows .sel"));
    const marked = await page.$$eval("#hex-rows .sel", (units) => units.map((unit) => unit.textContent));
    check(marked.length === 1 && marked[0] === "300", `walk.cmx: choosing the version marked ${JSON.stringify(marked)}`);
    const place = await page.textContent('#tree .row[aria-selected="true"] .place');
    check(place.startsWith("line 2 "), `walk.cmx: the version's row says ${place}, not its line`);
    console.log("walk.cmx: the version marks its token 300");
  } catch (error) {
    failed = true;
    console.error(`FAIL ${error.message}`);
  }
  try {
    // A sprite frame's node shows the frame's picture.
    await openExplorer(page, "chair.iff");
    await pickUnit(page, "chair.iff", 0x335);
    const picture = page.locator("#tree img.thumbnail").first();
    await picture.waitFor();
    await page.waitForFunction(() => document.querySelector("#tree img.thumbnail")?.naturalWidth > 0);
    console.log(`chair.iff: ${await picture.getAttribute("alt")} shown as a picture`);
  } catch (error) {
    failed = true;
    console.error(`FAIL ${error.message}`);
  }
  try {
    await openExplorer(page, "cut.mgn");
    check(await page.isVisible("#error"), "cut.mgn: no error shown");
    const failing = page.locator(".node.failing");
    await failing.first().waitFor();
    const text = await failing.first().textContent();
    check(text.includes("!!"), `cut.mgn: the failing field says ${text}`);
    check((await page.$$("#hex-rows .err")).length > 0, "cut.mgn: the failing bytes are not marked");
    console.log(`cut.mgn: failing field ${text.trim()}`);
  } catch (error) {
    failed = true;
    console.error(`FAIL ${error.message}`);
  }
} finally {
  await browser.close();
  server.kill("SIGINT");
  rmSync(folder, { recursive: true, force: true });
}
if (failed) process.exit(1);
console.log("explorer: every check passed");
