// The viewer in headless Chromium: `ossuary view tests/fixtures` serves
// the page; it opens a Sims character with an animation at two frames and
// a Star Wars Galaxies character, waits until each view says it is ready,
// saves screenshots under target/viewer-screenshots/, and checks that a
// figure is drawn (in the figure's box on the canvas, pixels change when
// the figure is hidden) and that the two frames differ.
//
// usage: node viewer/tests/browser.mjs PLAYWRIGHT_DIR OSSUARY_BINARY
// (PLAYWRIGHT_DIR holds node_modules/playwright-core; .ci/run installs it.)

import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { inflateSync } from "node:zlib";

const [playwrightDir, binary] = process.argv.slice(2);
if (!playwrightDir || !binary) {
  console.error("usage: node viewer/tests/browser.mjs PLAYWRIGHT_DIR OSSUARY_BINARY");
  process.exit(2);
}
const { chromium } = createRequire(join(resolve(playwrightDir), "package.json"))("playwright-core");
const shots = resolve("target/viewer-screenshots");
mkdirSync(shots, { recursive: true });

function startServer() {
  const server = spawn(binary, ["view", "tests/fixtures", "--port", "0"], {
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
  const [left, top, right, bottom] = box;
  let count = 0;
  for (let y = top; y < Math.min(bottom, first.height); y++) {
    for (let x = left; x < Math.min(right, first.width); x++) {
      const at = (y * first.width + x) * first.channels;
      for (let channel = 0; channel < 3; channel++) {
        if (Math.abs(first.pixels[at + channel] - second.pixels[at + channel]) > 8) {
          count++;
          break;
        }
      }
    }
  }
  return count;
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
  console.log(`ok: screenshots in ${shots}`);
} catch (error) {
  console.error(`browser test failed: ${error.message}`);
  failed = true;
} finally {
  await browser.close();
  server.kill("SIGINT");
}
process.exit(failed ? 1 : 0);
