// The 3D view: a character from a glTF asset, lit, on a grid, with an
// orbit camera, front and side views, and its skeleton drawn on request.

import * as THREE from "three";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";

export const BACKGROUND = 0x3a3f45;

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
    this.skeletonHelper = null;
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
    const gltf = await new GLTFLoader().parseAsync(bytes, "");
    if (this.model) {
      this.scene.remove(this.model);
      release(this.model);
    }
    if (this.skeletonHelper) {
      this.scene.remove(this.skeletonHelper);
      this.skeletonHelper.dispose();
    }
    this.model = gltf.scene;
    this.scene.add(this.model);
    this.mixer = new THREE.AnimationMixer(this.model);
    this.skeletonHelper = new THREE.SkeletonHelper(this.model);
    this.skeletonHelper.visible = false;
    this.scene.add(this.skeletonHelper);
    this.placeGrid();
    this.view("front");
    return gltf.animations;
  }

  /** Meshes with morph targets, for the blend sliders. */
  morphing() {
    const meshes = [];
    this.model?.traverse((object) => {
      if (object.morphTargetDictionary) meshes.push(object);
    });
    return meshes;
  }

  bounds() {
    const box = new THREE.Box3();
    if (this.model) box.setFromObject(this.model, true);
    if (box.isEmpty()) box.set(new THREE.Vector3(-1, 0, -1), new THREE.Vector3(1, 2, 1));
    return box;
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

  /** Looks at the model from the front (+z) or the side (+x). */
  view(from) {
    const box = this.bounds();
    const center = box.getCenter(new THREE.Vector3());
    const size = box.getSize(new THREE.Vector3());
    const distance = (Math.max(size.x, size.y, size.z) / 2 / Math.tan((this.camera.fov * Math.PI) / 360)) * 1.3;
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
    if (this.skeletonHelper) this.skeletonHelper.visible = visible;
    this.render();
  }

  /** Poses the model as `clip` has it at `seconds`. */
  pose(clip, seconds) {
    if (!this.mixer) return;
    this.mixer.stopAllAction();
    if (clip) {
      const action = this.mixer.clipAction(clip);
      action.play();
      this.mixer.setTime(seconds);
    }
    this.render();
  }

  render() {
    this.renderer.render(this.scene, this.camera);
  }
}
