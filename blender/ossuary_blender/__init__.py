"""File > Import and File > Export of late-1990s game characters through
ossuary: The Sims (retail and the 1998 prototype), The Sims Online, Star
Wars Galaxies, BonesPro exports and Outcast. A character goes through a
glTF asset, as ``ossuary convert`` makes it, and Blender's own glTF
importer; the way back is Blender's glTF exporter and ``convert --to``."""

import bpy

from . import exporter, importer

classes = (importer.ImportCharacter, exporter.ExportCharacter)


def menu_import(self, context):
    self.layout.operator(importer.ImportCharacter.bl_idname, text="Game character (ossuary)")


def menu_export(self, context):
    self.layout.operator(exporter.ExportCharacter.bl_idname, text="Game character (ossuary)")


def register():
    for cls in classes:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_import.append(menu_import)
    bpy.types.TOPBAR_MT_file_export.append(menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(menu_import)
    for cls in reversed(classes):
        bpy.utils.unregister_class(cls)
