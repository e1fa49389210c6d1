"""File > Export > Game character (ossuary): the scene's armature and
meshes through Blender's glTF exporter and ``ossuary convert --to``, into
a folder of the game's files."""

import tempfile
from pathlib import Path

import bpy
import ossuary
from bpy.props import BoolProperty, EnumProperty, StringProperty

from .reporting import run_and_report

# What ossuary writes back from glTF: the formats `convert --to` takes.
TARGETS = (
    ("sims-cmx", "The Sims (.cmx, .skn, .cfp)", "A character file with its skins and skills, as text"),
    ("sims-bcf", "The Sims binary (.bcf, .bmf, .cfp)", "The same in the game's binary formats"),
    ("swg-sat", "Star Wars Galaxies (.sat, .lmg, .mgn, .skt)", "An appearance with its meshes and skeleton"),
)


def character_objects(context):
    """The armature to export (the active object if it is one, else the
    scene's only armature) and the meshes it deforms."""
    armatures = [obj for obj in context.scene.objects if obj.type == "ARMATURE"]
    active = context.view_layer.objects.active
    if active is not None and active.type == "ARMATURE":
        armature = active
    elif len(armatures) == 1:
        armature = armatures[0]
    elif not armatures:
        raise ossuary.OssuaryError("the scene has no armature: a game character is a skeleton with its meshes")
    else:
        names = ", ".join(sorted(obj.name for obj in armatures))
        raise ossuary.OssuaryError(f"the scene has several armatures ({names}): make the one to export active")
    meshes = [
        obj
        for obj in context.scene.objects
        if obj.type == "MESH"
        and (
            obj.parent == armature
            or any(mod.type == "ARMATURE" and mod.object == armature for mod in obj.modifiers)
        )
    ]
    return armature, meshes


def export_character(context, folder, to, skeleton=None):
    """Writes the character (an armature and the meshes it deforms) into
    `folder` in the format `to`; returns the warnings ossuary gave. Custom
    properties go into the glTF (export_extras): ossuary keeps there what
    glTF cannot hold (the files' own names, their text style, data no mesh
    shows), so an unchanged character comes back byte for byte."""
    armature, meshes = character_objects(context)
    selected = [obj for obj in context.scene.objects if obj.select_get()]
    active = context.view_layer.objects.active
    for obj in selected:
        obj.select_set(False)
    for obj in (armature, *meshes):
        obj.select_set(True)
    try:
        with tempfile.TemporaryDirectory(prefix="ossuary-") as temporary:
            asset = Path(temporary) / "character.glb"
            bpy.ops.export_scene.gltf(
                filepath=str(asset),
                export_format="GLB",
                export_extras=True,
                use_selection=True,
                export_animations=True,
                # Keys where the action has them (not every bone at every
                # frame): a skill keeps the motions it had.
                export_force_sampling=False,
            )
            return ossuary.from_gltf(asset, to=to, out=folder, skeleton=skeleton or None)
    finally:
        for obj in (armature, *meshes):
            obj.select_set(False)
        for obj in selected:
            obj.select_set(True)
        context.view_layer.objects.active = active


class ExportCharacter(bpy.types.Operator):
    """Export the character (the active armature, or the scene's only one, with the meshes it deforms) as a game's files, into a folder"""

    bl_idname = "export_scene.ossuary"
    bl_label = "Export Game Character"
    bl_options = {"REGISTER", "PRESET"}

    directory: StringProperty(name="Folder", subtype="DIR_PATH")
    filter_folder: BoolProperty(default=True, options={"HIDDEN"})

    to: EnumProperty(name="Game format", items=TARGETS, default="sims-cmx")
    skeleton: StringProperty(
        name="Skeleton",
        description="The Sims: the skeleton file the suits are meant for (else the game's adult or child skeleton beside the files)",
        subtype="FILE_PATH",
        default="",
    )

    def invoke(self, context, event):
        context.window_manager.fileselect_add(self)
        return {"RUNNING_MODAL"}

    def execute(self, context):
        if not self.directory:
            self.report({"ERROR"}, "choose a folder to write the game's files into")
            return {"CANCELLED"}
        return run_and_report(
            self, lambda: export_character(context, self.directory, self.to, self.skeleton)
        )
