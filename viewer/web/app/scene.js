// The 3D view: a character from a glTF asset, lit, on a grid, with an
// orbit camera, front and side views framed on every frame of its
// animation, and its skeleton drawn on request (or always, when there is
// nothing else to draw).

import * as THREE from "three";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";

export const BACKGROUND = 0x3a3f45;

/** The most frames of an animation measured to frame the camera. */
const FRAMED_TIMES = 48;
/** How much of the view's height (or width) the framed figure fills. */
const FILL = 0.9;

/** Frees what a model shown before holds on the graphics card: its
 * geometry, materials and textures (a page looking at many characters
 * would otherwise keep them all). */
function release(model) {
  model.traverse((object) => {
    object.geometry?.dispose();
    for (const material of [].concat(object.material ?? [])) {
      for (const value of Object.values(material)) {
        if (value?.isTexture) value.dispose();
      }
      material.dispose();
    }
  });
}

export class Scene {
  constructor(container) {
    this.container = container;
    // Kept after drawing, so that a test (or a person) can read the pixels.
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio);
    container.append(this.renderer.domElement);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(BACKGROUND);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8a7f70, 2.2));
    const sun = new THREE.DirectionalLight(0xffffff, 2);
    sun.position.set(2, 4, 3);
    this.scene.add(sun);
    this.camera = new THREE.PerspectiveCamera(35, 1, 0.01, 1000);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.addEventListener("change", () => this.render());
    this.grid = null;
    this.model = null;
    this.mixer = null;
    // The joints (the asset's skin's nodes) and the lines between them.
    this.joints = [];
    this.bones = null;
    this.skeletonVisible = false;
    // The box the camera frames: what is drawn, over every frame.
    this.box = null;
    new ResizeObserver(() => this.resize()).observe(container);
    this.resize();
  }

  resize() {
    const { clientWidth: width, clientHeight: height } = this.container;
    if (width === 0 || height === 0) return;
    this.renderer.setSize(width, height);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.render();
  }

  /** Shows the asset in `bytes`; its animation clips come back. */
  async load(bytes) {
    const loader = new GLTFLoader();
    const gltf = await loader.parseAsync(bytes, "");
    this.clear();
    this.model = gltf.scene;
    this.scene.add(this.model);
    this.mixer = new THREE.AnimationMixer(this.model);
    this.joints = await jointsOf(gltf);
    this.bones = boneLines(this.joints);
    this.bones.visible = this.skeletonVisible;
    this.scene.add(this.bones);
    this.frame([null], [0]);
    return gltf.animations;
  }

  /** Takes the model away: an error is shown where it stood. */
  clear() {
    if (this.model) {
      this.scene.remove(this.model);
      release(this.model);
    }
    if (this.bones) {
      this.scene.remove(this.bones);
      this.bones.geometry.dispose();
      this.bones.material.dispose();
    }
    if (this.grid) this.scene.remove(this.grid);
    this.model = null;
    this.mixer = null;
    this.joints = [];
    this.bones = null;
    this.box = null;
    this.render();
  }

  /** Whether the asset has surfaces to draw (a mesh's vertices alone, as
   * BonesPro's structure gives them, show little without the skeleton). */
  hasMeshes() {
    let found = false;
    this.model?.traverse((object) => {
      if (object.isMesh) found = true;
    });
    return found;
  }

  /** Frames the camera and the floor on what `clip` draws at every time
   * of `times` (the rest pose for a null clip), looking from the front. */
  frame(clips, times) {
    const box = new THREE.Box3();
    // Enough frames to find the extremes of any motion, few enough to
    // measure a skinned mesh at each quickly; the last one always.
    const step = Math.max(1, Math.ceil(times.length / FRAMED_TIMES));
    const sampled = times.filter((_, index) => index % step === 0 || index === times.length - 1);
    for (const clip of clips) {
      for (const seconds of sampled) {
        this.pose(clip, seconds, false);
        box.union(this.drawnBox());
      }
    }
    this.box = box.isEmpty() ? new THREE.Box3(new THREE.Vector3(-1, 0, -1), new THREE.Vector3(1, 2, 1)) : box;
    this.placeGrid();
    this.view("front");
  }

  /** What is drawn now: the meshes and the joints. */
  drawnBox() {
    const box = new THREE.Box3();
    if (!this.model) return box;
    this.model.updateMatrixWorld(true);
    // Skinned vertices are measured where the bones put them now.
    this.model.traverse((object) => object.skeleton?.update());
    box.setFromObject(this.model, true);
    for (const joint of this.joints) box.expandByPoint(joint.getWorldPosition(new THREE.Vector3()));
    return box;
  }

  /** Meshes with morph targets, for the blend sliders. */
  morphing() {
    const meshes = [];
    this.model?.traverse((object) => {
      if (object.morphTargetDictionary) meshes.push(object);
    });
    return meshes;
  }

  /** The framed box: what is drawn over the whole animation. */
  bounds() {
    return this.box ?? new THREE.Box3(new THREE.Vector3(-1, 0, -1), new THREE.Vector3(1, 2, 1));
  }

  placeGrid() {
    if (this.grid) this.scene.remove(this.grid);
    const box = this.bounds();
    const size = box.getSize(new THREE.Vector3());
    const span = Math.max(size.x, size.y, size.z) * 2;
    this.grid = new THREE.GridHelper(span, 20, 0x8a9099, 0x565c63);
    this.grid.position.set((box.min.x + box.max.x) / 2, box.min.y, (box.min.z + box.max.z) / 2);
    this.scene.add(this.grid);
  }

  /** Looks at the model from the front (+z) or the side (+x), from as
   * near as lets the framed box fill FILL of the view's height or width,
   * whichever it reaches first. */
  view(from) {
    const box = this.bounds();
    const center = box.getCenter(new THREE.Vector3());
    const size = box.getSize(new THREE.Vector3());
    // The box as the camera sees it: its height, how wide it stands
    // across the view, and how deep it goes away from the camera.
    const [across, deep] = from === "side" ? [size.z, size.x] : [size.x, size.z];
    const tall = Math.tan((this.camera.fov * Math.PI) / 360);
    const wide = tall * this.camera.aspect;
    // The box's near face fills the view where it stands this far away.
    const near = Math.max(size.y / 2 / tall, across / 2 / wide) / FILL;
    const distance = near + deep / 2 || 1;
    const direction = from === "side" ? new THREE.Vector3(1, 0.15, 0) : new THREE.Vector3(0, 0.15, 1);
    this.camera.position.copy(center).addScaledVector(direction.normalize(), distance);
    this.camera.near = distance / 100;
    this.camera.far = distance * 100;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(center);
    this.controls.update();
    this.render();
  }

  /** The model's bounds on the canvas, in CSS pixels: [left, top, right, bottom]. */
  screenBox() {
    const box = this.bounds();
    const { clientWidth: width, clientHeight: height } = this.renderer.domElement;
    const xs = [];
    const ys = [];
    for (const x of [box.min.x, box.max.x]) {
      for (const y of [box.min.y, box.max.y]) {
        for (const z of [box.min.z, box.max.z]) {
          const point = new THREE.Vector3(x, y, z).project(this.camera);
          xs.push(((point.x + 1) / 2) * width);
          ys.push(((1 - point.y) / 2) * height);
        }
      }
    }
    const clamp = (value, limit) => Math.round(Math.min(Math.max(value, 0), limit));
    return [
      clamp(Math.min(...xs), width),
      clamp(Math.min(...ys), height),
      clamp(Math.max(...xs), width),
      clamp(Math.max(...ys), height),
    ];
  }

  showSkeleton(visible) {
    this.skeletonVisible = visible;
    if (this.bones) this.bones.visible = visible;
    this.render();
  }

  /** Poses the model as `clip` has it at `seconds`: the clip plays once
   * and holds its last frame, so the last time shows the last frame, not
   * the first (playing loops by wrapping the time itself). */
  pose(clip, seconds, draw = true) {
    if (!this.mixer) return;
    this.mixer.stopAllAction();
    if (clip) {
      const action = this.mixer.clipAction(clip);
      action.setLoop(THREE.LoopOnce, 1);
      action.clampWhenFinished = true;
      action.reset();
      action.play();
      this.mixer.setTime(seconds);
    }
    if (draw) this.render();
  }

  /** Joints' names and model-space positions, as glTF has them. */
  jointPositions() {
    this.model?.updateMatrixWorld(true);
    return this.joints.map((joint) => ({
      name: joint.name,
      position: joint.getWorldPosition(new THREE.Vector3()).toArray(),
    }));
  }

  render() {
    if (this.bones?.visible) updateBoneLines(this.bones, this.joints);
    this.renderer.render(this.scene, this.camera);
  }
}

/** The nodes of the asset's skin, in its order: the skeleton's joints
 * (with or without meshes, which three.js would otherwise need to find
 * the bones). */
async function jointsOf(gltf) {
  const skin = gltf.parser.json.skins?.[0];
  if (!skin) return [];
  return Promise.all(skin.joints.map((index) => gltf.parser.getDependency("node", index)));
}

/** Lines from each joint to its parent joint, drawn over the meshes. */
function boneLines(joints) {
  const pairs = joints.filter((joint) => joints.includes(joint.parent)).length;
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute("position", new THREE.BufferAttribute(new Float32Array(Math.max(pairs, 1) * 6), 3));
  const material = new THREE.LineBasicMaterial({ color: 0xff5533, depthTest: false });
  const lines = new THREE.LineSegments(geometry, material);
  lines.renderOrder = 1;
  lines.frustumCulled = false;
  return lines;
}

function updateBoneLines(lines, joints) {
  const positions = lines.geometry.attributes.position;
  let at = 0;
  const point = new THREE.Vector3();
  for (const joint of joints) {
    if (!joints.includes(joint.parent)) continue;
    joint.parent.getWorldPosition(point);
    positions.setXYZ(at++, point.x, point.y, point.z);
    joint.getWorldPosition(point);
    positions.setXYZ(at++, point.x, point.y, point.z);
  }
  positions.needsUpdate = true;
}
