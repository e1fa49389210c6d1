"""File > Import > Game character (ossuary): the chosen files as one
character, through the glTF asset ``ossuary convert`` makes."""

import tempfile
from pathlib import Path

import bpy
import ossuary
from bpy.props import BoolProperty, CollectionProperty, EnumProperty, IntProperty, StringProperty
from bpy_extras.io_utils import ImportHelper

from . import gltf_timing
from .reporting import run_and_report

# Formats whose files hold only animations: they go to `--anim`.
ANIMATION_FORMATS = {"tso-anim", "outcast-animation", "bonespro-animation"}
# Formats whose files may hold a skeleton, suits and skills at once.
CHARACTER_FORMATS = {"sims-cmx", "sims-bcf"}
# Key data a skill names (found beside it): never an input of its own.
KEY_FORMATS = {"sims-cfp", "sims-bin"}


def extensions_glob() -> str:
    """Every extension of a format that can be part of a character (object
    files are not characters)."""
    extensions = {ext for entry in ossuary.formats() for ext in entry["extensions"]}
    extensions -= {"iff", "spf", "wll", "flr"}
    return ";".join(f"*.{ext}" for ext in sorted(extensions))


def sort_inputs(paths):
    """The chosen files as `convert`'s inputs and `--anim` files: animation
    files to `--anim`; a Sims character file where what it holds belongs
    (its skills to `--anim`; its suits, or its skeleton, to the inputs; an
    animation's own skeleton only when no other file brings one); key data
    nowhere (the skills that name it find it beside them). `convert` poses
    every mesh with the first input that has a skeleton."""
    inputs, animations, own_skeletons = [], [], []
    for path in paths:
        format = ossuary.identify(path)
        if format in KEY_FORMATS:
            continue
        if format in ANIMATION_FORMATS:
            animations.append(path)
        elif format in CHARACTER_FORMATS:
            value = ossuary.read(path, format=format)
            if value.get("skills"):
                animations.append(path)
            if value.get("suits") or (value.get("skeletons") and not value.get("skills")):
                inputs.append(path)
            elif value.get("skeletons"):
                own_skeletons.append(path)
        else:
            inputs.append(path)
    if not inputs:
        inputs = own_skeletons[:1]
    return inputs, animations


def import_character(context, paths, lod=0, tone="lgt", skills=(), dress=True):
    """Imports the character of `paths` into the scene; returns the warnings
    ossuary gave. A character file chosen alone (with animations or not) is
    dressed as `ossuary view` dresses it when `dress` is on. The scene's
    frame rate becomes the game's, so each action keeps the game's frame
    count."""
    inputs, animations = sort_inputs(paths)
    if not inputs:
        raise ossuary.OssuaryError("none of the chosen files holds a skeleton or a mesh")
    if dress and len(inputs) == 1:
        inputs += [worn for worn in ossuary.dressing(inputs[0]) if Path(worn) != Path(inputs[0])]
    with tempfile.TemporaryDirectory(prefix="ossuary-") as folder:
        asset = Path(folder) / "character.glb"
        warnings = ossuary.to_gltf(inputs, asset, anim=animations, skill=skills, lod=lod, tone=tone)
        rate = gltf_timing.frame_rate(asset)
        if rate:
            context.scene.render.fps, context.scene.render.fps_base = rate
        bpy.ops.import_scene.gltf(filepath=str(asset))
    last = max((int(action.frame_range[1]) for action in bpy.data.actions), default=None)
    if last is not None:
        context.scene.frame_start = 0
        context.scene.frame_end = last
    return warnings


class ImportCharacter(bpy.types.Operator, ImportHelper):
    """Import a game character: a skeleton with its meshes, suits or
    appearance, and any animation files chosen with it"""

    bl_idname = "import_scene.ossuary"
    bl_label = "Import Game Character"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    files: CollectionProperty(type=bpy.types.OperatorFileListElement, options={"HIDDEN", "SKIP_SAVE"})
    directory: StringProperty(subtype="DIR_PATH", options={"HIDDEN", "SKIP_SAVE"})
    filter_glob: StringProperty(default=extensions_glob(), options={"HIDDEN"})

    lod: IntProperty(name="Level of detail", description="0 is the most detailed", default=0, min=0, max=9)
    tone: EnumProperty(
        name="Skin tone",
        description="The Sims: which of a retail suit's textures dresses it",
        items=(("lgt", "Light", ""), ("med", "Medium", ""), ("drk", "Dark", "")),
        default="lgt",
    )
    skills: StringProperty(
        name="Animations",
        description="Only the animations of these names (comma-separated); empty for every one",
        default="",
    )
    dress: BoolProperty(
        name="Dress as the viewer",
        description="A character file chosen alone wears what ossuary view dresses it in: "
        "a Sims skeleton a body, head and hands from its folder, a TSO skeleton its appearances",
        default=True,
    )

    def execute(self, context):
        folder = Path(self.directory) if self.directory else Path(self.filepath).parent
        names = [entry.name for entry in self.files if entry.name] or [Path(self.filepath).name]
        paths = [folder / name for name in names]
        skills = [name.strip() for name in self.skills.split(",") if name.strip()]
        return run_and_report(
            self, lambda: import_character(context, paths, self.lod, self.tone, skills, self.dress)
        )
