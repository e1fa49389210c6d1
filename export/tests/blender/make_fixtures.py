"""Writes the Blender-made glTF fixtures the import tests read, with
Blender's own glTF importer and exporter (Blender 4.2 as a Python module).

Run from the repository's root, after exporting the humanoid samples (the
Sims one with its wave, the Star Wars Galaxies one):

    python3.11 -m venv /tmp/bpy && /tmp/bpy/bin/pip install "bpy>=4.2,<4.3"
    cargo run -p ossuary -- convert tests/fixtures/humanoid.cmx \
        --anim tests/fixtures/humanoid.cmx -o /tmp/humanoid.glb
    cargo run -p ossuary -- convert tests/fixtures/humanoid.sat -o /tmp/swg-humanoid.glb
    cargo run -p ossuary -- joints tests/fixtures/humanoid.cmx > /tmp/humanoid-joints.json
    /tmp/bpy/bin/python export/tests/blender/make_fixtures.py /tmp/humanoid.glb \
        /tmp/swg-humanoid.glb /tmp/humanoid-joints.json ~/.cache/ossuary-peers/ts1-blender-io

(the last, ts1-blender-io's add-on as peers/README.md rebuilds it, only for
the rig of ts1-blender-io).

It writes into export/tests/fixtures/:

- humanoid-edited-in-blender.glb: ossuary's glTF of the humanoid (the
  project's synthetic sample), imported into Blender, one vertex of its arm
  moved 0.5 along Blender's x, a quarter of vertex 1 painted onto L_HAND,
  a new action "shrug" keyed (L_ARM turned about Blender's z and back),
  exported with "Include: Custom Properties" (export_extras), as a modder
  would; beside it humanoid-edited-in-blender.glb.poses.json, every
  joint's place at frames of the shrug as Blender shows it, in the Sims'
  axes;
- swg-humanoid-edited-in-blender.glb: the same for the Star Wars
  Galaxies humanoid sample, the first vertex of its body group moved;
- made-in-blender.glb: a character made in Blender alone: an armature of
  two bones (ROOT, SPINE), a box bound to both by vertex groups, a small
  image texture, and an action turning SPINE;
- humanoid-rig-made-in-blender.glb: an armature built in Blender with the
  Sims humanoid's bone names and joint places, bones pointing from head to
  child, a hat on HEAD and a sleeve blending L_ARM into L_HAND, an action
  keyed at frames 1, 13, 25, exported with Blender's defaults; beside it
  its .poses.json, every joint and vertex where Blender shows them at rest
  and at each keyed frame (see rig_made_in_blender);
- humanoid-rig-scaled-in-blender.glb: the same with the armature object
  scaled by 1.2 and the hat's object moved, neither applied;
- humanoid-rig-of-ts1-blender-io.glb: the same dress and action on the
  armature ts1-blender-io's importer makes of tests/fixtures/humanoid.cmx
  (a third of the game's size, its axes its own).
"""

import json
import os
import pathlib
import sys

import bpy
import mathutils

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "fixtures"


def empty_scene():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def export(name):
    bpy.ops.export_scene.gltf(
        filepath=str(FIXTURES / name),
        export_format="GLB",
        export_extras=True,
    )


def imported(source):
    empty_scene()
    bpy.ops.import_scene.gltf(filepath=source)
    # The importer's bone display shape is a mesh of its own; a modder's
    # export would not carry it.
    for obj in list(bpy.data.objects):
        if obj.type == "MESH" and obj.name.startswith("Icosphere"):
            bpy.data.objects.remove(obj)


def move_first_vertex(mesh):
    data = bpy.data.objects[mesh].data
    data.vertices[0].co.x += 0.5
    # With shape keys (blend targets), the basis holds the positions the
    # exporter writes; moving the vertex in every key keeps its offsets.
    if data.shape_keys:
        for block in data.shape_keys.key_blocks:
            block.data[0].co.x += 0.5


def edited(source, mesh, name):
    imported(source)
    move_first_vertex(mesh)
    export(name)


# The frames of the new action at which its poses are recorded (Blender
# counts frames from 1; the skill from 0).
SHRUG_FRAMES = [1, 7, 13, 19, 25]


def edited_sims(source, mesh, name):
    """The Sims humanoid: a vertex moved, a weight painted, a new action
    keyed; the joints' places at some of the new action's frames, as
    Blender shows them, written beside the fixture."""
    imported(source)
    move_first_vertex(mesh)
    skin = bpy.data.objects[mesh]
    # Vertex 1 follows L_ARM alone: paint a quarter of it onto L_HAND.
    skin.vertex_groups["L_ARM"].add([1], 0.75, "REPLACE")
    skin.vertex_groups["L_HAND"].add([1], 0.25, "REPLACE")
    rig = next(obj for obj in bpy.data.objects if obj.type == "ARMATURE")
    rig.animation_data_create()
    action = bpy.data.actions.new("shrug")
    rig.animation_data.action = action
    bone = rig.pose.bones["L_ARM"]
    bone.rotation_mode = "QUATERNION"
    rest = bone.rotation_quaternion.copy()
    for frame, angle in [(1, 0.0), (13, 0.6), (25, 0.0)]:
        turned = rest.copy()
        turned.rotate(mathutils.Euler((0, 0, angle)))
        bone.rotation_quaternion = turned
        bone.keyframe_insert("rotation_quaternion", frame=frame)
    # Each action is one glTF animation: the wave stays, the shrug is new.
    if not rig.animation_data.nla_tracks:
        for other in bpy.data.actions:
            if other != action:
                track = rig.animation_data.nla_tracks.new()
                track.strips.new(other.name, 1, other)
    poses = {}
    for frame in SHRUG_FRAMES:
        bpy.context.scene.frame_set(frame)
        joints = {}
        for pose_bone in rig.pose.bones:
            x, y, z = rig.matrix_world @ pose_bone.head
            # Blender's z up is glTF's y; glTF's x is the Sims' -x.
            joints[pose_bone.name] = [-x, z, -y]
        poses[str(frame - 1)] = joints
    bpy.context.scene.frame_set(1)
    export(name)
    with open(FIXTURES / (name + ".poses.json"), "w") as out:
        json.dump({"action": "shrug", "frames": poses}, out, indent=1, sort_keys=True)


def made():
    empty_scene()
    armature = bpy.data.armatures.new("figure")
    rig = bpy.data.objects.new("figure", armature)
    bpy.context.scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    root = armature.edit_bones.new("ROOT")
    root.head, root.tail = (0, 0, 0), (0, 0, 1)
    spine = armature.edit_bones.new("SPINE")
    spine.head, spine.tail = (0, 0, 1), (0, 0, 2)
    spine.parent = root
    bpy.ops.object.mode_set(mode="OBJECT")

    bpy.ops.mesh.primitive_cube_add(size=0.5, location=(0, 0, 1.25))
    box = bpy.context.active_object
    box.name = "box"
    bpy.ops.object.transform_apply(location=True, rotation=True, scale=True)
    lower = box.vertex_groups.new(name="ROOT")
    upper = box.vertex_groups.new(name="SPINE")
    for vertex in box.data.vertices:
        if vertex.co.z < 1.25:
            # Three joints' worth of pull on the lower half: two kept.
            lower.add([vertex.index], 0.7, "REPLACE")
            upper.add([vertex.index], 0.3, "REPLACE")
        else:
            upper.add([vertex.index], 1.0, "REPLACE")
    box.parent = rig
    box.modifiers.new("Armature", "ARMATURE").object = rig

    image = bpy.data.images.new("box-colours", 4, 4)
    pixels = []
    for y in range(4):
        for x in range(4):
            pixels += [x / 3, y / 3, 0.5, 1.0]
    image.pixels = pixels
    image.file_format = "PNG"
    image.pack()
    material = bpy.data.materials.new("box")
    material.use_nodes = True
    texture = material.node_tree.nodes.new("ShaderNodeTexImage")
    texture.image = image
    shader = material.node_tree.nodes["Principled BSDF"]
    material.node_tree.links.new(texture.outputs["Color"], shader.inputs["Base Color"])
    box.data.materials.append(material)

    rig.animation_data_create()
    rig.animation_data.action = bpy.data.actions.new("nod")
    bone = rig.pose.bones["SPINE"]
    bone.rotation_mode = "QUATERNION"
    for frame, angle in [(1, 0.0), (13, 0.4), (25, 0.0)]:
        bone.rotation_quaternion = (1.0, 0.0, 0.0, 0.0)
        bone.rotation_quaternion.rotate(mathutils.Euler((angle, 0, 0)))
        bone.keyframe_insert("rotation_quaternion", frame=frame)
    export("made-in-blender.glb")


def sims_to_blender(point):
    """A point of the Sims' axes (left-handed, y up) in Blender's, as
    ossuary's glTF and Blender's importer put it: glTF's x is the Sims'
    -x, Blender's z is glTF's y and its y glTF's -z."""
    x, y, z = point
    return mathutils.Vector((-x, -z, y))


def blender_to_sims(point):
    x, y, z = point
    return [-x, z, -y]


# The keyed frames of the rig's action (Blender counts from 1).
RIG_FRAMES = [1, 13, 25]


def rig_made_in_blender(joints_file, name, armature_scale=1.0, hat_offset=(0.0, 0.0, 0.0)):
    """An armature built in Blender with the Sims humanoid's bone names and
    joint places (`ossuary joints tests/fixtures/humanoid.cmx`), each bone
    pointing from its head to its first child (as anyone builds one; the
    game's bones are turned otherwise), dressed and keyed (see
    dress_key_and_export); the armature object may be scaled (the scale not
    applied) and the hat's object moved (not applied)."""
    empty_scene()
    with open(joints_file) as source:
        joints = json.load(source)
    armature = bpy.data.armatures.new("humanoid")
    rig = bpy.data.objects.new("humanoid", armature)
    bpy.context.scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    heads = {joint["name"]: sims_to_blender(joint["position"]) for joint in joints}
    children = {}
    for joint in joints:
        children.setdefault(joint["parent"], []).append(joint["name"])
    for joint in joints:
        bone = armature.edit_bones.new(joint["name"])
        head = heads[joint["name"]]
        bone.head = head
        ahead = [heads[child] for child in children.get(joint["name"], []) if (heads[child] - head).length > 1e-4]
        if ahead:
            bone.tail = ahead[0]
        elif joint["parent"] is not None and (head - heads[joint["parent"]]).length > 1e-4:
            bone.tail = head + (head - heads[joint["parent"]]).normalized() * 0.3
        else:
            bone.tail = head + mathutils.Vector((0.0, 0.0, 0.3))
    for joint in joints:
        if joint["parent"] is not None:
            armature.edit_bones[joint["name"]].parent = armature.edit_bones[joint["parent"]]
    bpy.ops.object.mode_set(mode="OBJECT")
    rig.scale = (armature_scale,) * 3
    dress_key_and_export(rig, name, blender_to_sims, size=1.0, hat_offset=hat_offset)


# ts1-blender-io puts the Sims' (x, y, z) at Blender's (x, z, y) / 3.
TS1_BONE_SCALE = 3.0


def ts1_to_sims(point):
    x, y, z = point
    return [x * TS1_BONE_SCALE, z * TS1_BONE_SCALE, y * TS1_BONE_SCALE]


def rig_of_ts1_blender_io(addon_root, skeleton_file, name):
    """The armature ts1-blender-io's importer makes of the humanoid's
    skeleton (its bones a third of the game's size, its axes its own),
    dressed and keyed as the rig built in Blender is."""
    empty_scene()
    sys.path.insert(0, addon_root)
    import addon_utils  # noqa: PLC0415 -- Blender's own, on the path once bpy is imported

    addon_utils.enable("io_scene_ts1", default_set=True, persistent=True)
    folder, file_name = os.path.split(os.path.abspath(skeleton_file))
    getattr(bpy.ops, "import").bcf(
        directory=folder + "/", files=[{"name": file_name}], import_meshes=False, import_animations=False
    )
    rig = next(obj for obj in bpy.data.objects if obj.type == "ARMATURE")
    dress_key_and_export(rig, name, ts1_to_sims, size=1.0 / TS1_BONE_SCALE)


def dress_key_and_export(rig, name, to_sims, size, hat_offset=(0.0, 0.0, 0.0)):
    """Puts a hat on HEAD and a sleeve blending L_ARM into L_HAND on `rig`
    (`size` the rig's scale of the game's units), keys an action at
    RIG_FRAMES turning HEAD and L_ARM and moving PELVIS, exports it with
    Blender's defaults as NAME, and writes beside it NAME.poses.json: every
    joint and vertex where Blender shows them, at rest and at each keyed
    frame, in the Sims' axes (`to_sims`)."""
    heads = {bone.name: rig.matrix_world @ bone.head_local for bone in rig.data.bones}

    def skinned(mesh_name, location, cube, groups):
        bpy.ops.mesh.primitive_cube_add(size=cube * size, location=location)
        obj = bpy.context.active_object
        obj.name = mesh_name
        obj.data.name = mesh_name
        bpy.ops.object.transform_apply(location=True, rotation=True, scale=True)
        for group_name, weight_of in groups:
            group = obj.vertex_groups.new(name=group_name)
            for vertex in obj.data.vertices:
                weight = weight_of(vertex.co)
                if weight > 0.0:
                    group.add([vertex.index], weight, "REPLACE")
        obj.parent = rig
        obj.matrix_parent_inverse = rig.matrix_world.inverted()
        obj.modifiers.new("Armature", "ARMATURE").object = rig
        return obj

    hat = skinned("hat", heads["HEAD"] + mathutils.Vector((0.0, 0.0, 0.4 * size)), 0.5, [("HEAD", lambda co: 1.0)])
    hat.location = hat_offset
    arm, hand = heads["L_ARM"], heads["L_HAND"]

    def along(co):
        return max(0.0, min(1.0, (arm.z - co.z) / (arm.z - hand.z)))

    sleeve = skinned("sleeve", (arm + hand) / 2, 0.3, [
        ("L_ARM", lambda co: 1.0 - 0.5 * along(co)),
        ("L_HAND", lambda co: 0.5 * along(co)),
    ])
    sleeve.scale = (1.0, 1.0, 4.0)
    bpy.context.view_layer.objects.active = sleeve
    bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)

    rig.animation_data_create()
    rig.animation_data.action = bpy.data.actions.new("wave2")
    for bone_name, axis, angle in [("HEAD", 2, 0.5), ("L_ARM", 1, 0.8)]:
        bone = rig.pose.bones[bone_name]
        bone.rotation_mode = "QUATERNION"
        for frame, share in zip(RIG_FRAMES, [0.0, 1.0, 0.0]):
            euler = [0.0, 0.0, 0.0]
            euler[axis] = angle * share
            bone.rotation_quaternion = mathutils.Euler(euler).to_quaternion()
            bone.keyframe_insert("rotation_quaternion", frame=frame)
    pelvis = rig.pose.bones["PELVIS"]
    for frame, share in zip(RIG_FRAMES, [0.0, 1.0, 0.0]):
        pelvis.location = (0.0, 0.3 * size * share, 0.0)
        pelvis.keyframe_insert("location", frame=frame)

    def shown():
        depsgraph = bpy.context.evaluated_depsgraph_get()
        vertices = {}
        for obj in (hat, sleeve):
            evaluated = obj.evaluated_get(depsgraph)
            mesh = evaluated.to_mesh()
            vertices[obj.name] = [to_sims(evaluated.matrix_world @ v.co) for v in mesh.vertices]
            evaluated.to_mesh_clear()
        joints_shown = {bone.name: to_sims(rig.matrix_world @ bone.head) for bone in rig.pose.bones}
        return {"joints": joints_shown, "vertices": vertices}

    poses = {"frames": {}}
    rig.data.pose_position = "REST"
    bpy.context.scene.frame_set(RIG_FRAMES[0])
    poses["rest"] = shown()
    rig.data.pose_position = "POSE"
    for frame in RIG_FRAMES:
        bpy.context.scene.frame_set(frame)
        poses["frames"][str(frame - RIG_FRAMES[0])] = shown()
    bpy.context.scene.frame_set(RIG_FRAMES[0])
    bpy.ops.export_scene.gltf(filepath=str(FIXTURES / name), export_format="GLB")
    with open(FIXTURES / (name + ".poses.json"), "w") as out:
        json.dump(poses, out, indent=1, sort_keys=True)


if __name__ == "__main__":
    edited_sims(sys.argv[1], "xskin-humanoid-L_ARM-ARM", "humanoid-edited-in-blender.glb")
    edited(sys.argv[2], "shader/humanoid_body.sht", "swg-humanoid-edited-in-blender.glb")
    made()
    rig_made_in_blender(sys.argv[3], "humanoid-rig-made-in-blender.glb")
    rig_made_in_blender(
        sys.argv[3], "humanoid-rig-scaled-in-blender.glb", armature_scale=1.2, hat_offset=(0.0, 0.3, 0.0)
    )
    if len(sys.argv) > 4:
        rig_of_ts1_blender_io(sys.argv[4], "tests/fixtures/humanoid.cmx", "humanoid-rig-of-ts1-blender-io.glb")
    # bpy 4.2 can crash tearing itself down after the files are written;
    # leave before it does.
    sys.stdout.flush()
    os._exit(0)
