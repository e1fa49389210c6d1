//! The object definition (`OBJD`) and the object's event handlers (`OBJf`).

use serde::{Deserialize, Serialize};

use crate::Schema;

/// An object definition (`OBJD`): the first chunk the game loads for an
/// object, naming its routines, sprites, strings, price and catalogue
/// place. One file may define several objects (a multi-tile object has a
/// lead and one definition per tile).
///
/// A u32 version, then u16 fields. Every version holds the 78 fields the
/// first known one (136) has; later versions append more (138, the base
/// game's: 93 or, in the expansions' objects, 106; 139 to 142, The Sims
/// Online's: 94 to 103): from version 138 on the game reads 92 fields,
/// then as many of the expansions' eleven as the chunk holds. Real files
/// hold more than their version says (a version 142 definition has 105
/// or 106), kept as found.
#[derive(Debug, Clone, Default, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct ObjectDefinition {
    /// 136 to 142 in known files (138 in The Sims', 142 in The Sims
    /// Online's).
    pub version: u32,
    /// How many of the object stack on one tile.
    pub stack_size: u16,
    /// The first draw group (`DGRP`) id of the object's graphics.
    pub base_graphic: u16,
    /// How many draw groups from `base_graphic` on.
    pub graphic_count: u16,
    /// The main routine (`BHAV` id), run every tick.
    pub main_routine: u16,
    /// The gardening routine.
    pub gardening_routine: u16,
    /// The interaction table (`TTAB`/`TTAs` id).
    pub interaction_table: u16,
    /// The interaction group the object shares interactions with.
    pub interaction_group: i16,
    /// What the object is: 2 a person, 4 a buyable object, 7 a system
    /// object, 8 a portal (doors, stairs), 9 a cursor, 10 a prize token,
    /// 11 internal, 12 a gift token, 34 food.
    pub object_type: u16,
    /// The id of the lead object of a multi-tile object (0 for a single
    /// tile).
    pub master_id: u16,
    /// The tile's place in a multi-tile object: -1 for the lead, else
    /// the tile's index (high byte y, low byte x).
    pub sub_index: i16,
    /// The hand-washing routine.
    pub wash_hands_routine: u16,
    /// The animation table (a `STR#` of animation names).
    pub animation_table: u16,
    /// The object's 32-bit GUID, which lots and saves refer to it by.
    pub guid: u32,
    /// Non-zero when the object is disabled.
    pub disabled: u16,
    /// The routine a portal runs.
    pub portal_routine: u16,
    /// The price in simoleons.
    pub price: u16,
    /// The body strings (`STR#` id) of the object.
    pub body_strings: u16,
    /// The slots (`SLOT` id).
    pub slots: u16,
    /// The routine asked whether a Sim may walk through.
    pub allow_intersection_routine: u16,
    /// Non-zero when the event handlers (`OBJf`) replace these routine
    /// fields.
    pub uses_function_table: u16,
    /// A field of flags.
    pub flags: u16,
    /// The food-preparing routine.
    pub prepare_food_routine: u16,
    /// The cooking routine.
    pub cook_food_routine: u16,
    /// The routine run when placed on a surface.
    pub place_surface_routine: u16,
    /// The disposal routine.
    pub dispose_routine: u16,
    /// The eating routine.
    pub eat_routine: u16,
    /// The routine run when picked up from a slot.
    pub pickup_from_slot_routine: u16,
    /// The dish-washing routine.
    pub wash_dish_routine: u16,
    /// The routine run when eaten from on a surface.
    pub eat_surface_routine: u16,
    /// The sitting routine.
    pub sit_routine: u16,
    /// The standing routine.
    pub stand_routine: u16,
    /// The price it sells back for.
    pub sale_price: u16,
    /// The depreciation when bought.
    pub initial_depreciation: u16,
    /// The depreciation each day.
    pub daily_depreciation: u16,
    /// Non-zero when the object depreciates by itself.
    pub self_depreciating: u16,
    /// The value it depreciates no lower than.
    pub depreciation_limit: u16,
    /// The catalogue's room categories.
    pub room_flags: u16,
    /// The catalogue's function categories.
    pub function_flags: u16,
    /// The catalogue strings (`CTSS` id): the object's name and
    /// description.
    pub catalog_strings: u16,
    /// Non-zero for an object that holds global routines.
    pub global: u16,
    /// The routine run when the object is created.
    pub init_routine: u16,
    /// The routine run when placed.
    pub place_routine: u16,
    /// The routine run when the player picks it up.
    pub user_pickup_routine: u16,
    /// The wall style it puts up.
    pub wall_style: u16,
    /// The routine run when a lot loads.
    pub load_routine: u16,
    /// The routine run when the player places it.
    pub user_place_routine: u16,
    /// The object's version number.
    pub object_version: u16,
    /// The routine run when its room changes.
    pub room_change_routine: u16,
    /// The motive effects table.
    pub motive_effects: u16,
    /// The clean-up routine.
    pub cleanup_routine: u16,
    /// The level information routine.
    pub level_info_routine: u16,
    /// The catalogue id.
    pub catalog_id: u16,
    /// The serving-surface routine.
    pub serving_surface_routine: u16,
    /// The level offset.
    pub level_offset: u16,
    /// The shadow type.
    pub shadow: u16,
    /// How many attributes the object has.
    pub attribute_count: u16,
    /// The cleaning routine.
    pub clean_routine: u16,
    /// The routine run when a queued interaction is skipped.
    pub queue_skipped_routine: u16,
    /// The front's direction.
    pub front_direction: u16,
    /// The routine run when the walls beside it change.
    pub wall_adjacency_changed_routine: u16,
    /// The lead object.
    pub lead_object: u16,
    /// The first dynamic sprite's id.
    pub dynamic_sprite_base: u16,
    /// How many dynamic sprites.
    pub dynamic_sprite_count: u16,
    /// The directions a chair may be entered from.
    pub chair_entry_flags: u16,
    /// The tile width.
    pub tile_width: u16,
    /// The lot categories it suits.
    pub lot_categories: u16,
    /// What it is in build mode.
    pub build_mode_type: u16,
    /// The low half of the GUID of the object it was cloned from.
    pub original_guid_low: u16,
    /// The high half of that GUID.
    pub original_guid_high: u16,
    /// The low half of the GUID of the suit it dresses a Sim in.
    pub suit_guid_low: u16,
    /// The high half of that GUID.
    pub suit_guid_high: u16,
    /// The pickup routine.
    pub pickup_routine: u16,
    /// The graphic the catalogue shows.
    pub thumbnail_graphic: u16,
    /// Shadow flags.
    pub shadow_flags: u16,
    /// The footprint: four bits each for north, east, south and west,
    /// from the low bits.
    pub footprint_mask: u16,
    /// The routine updating a dynamic multi-tile object.
    pub dynamic_multi_tile_update_routine: u16,
    /// The shadow's brightness.
    pub shadow_brightness: u16,
    /// Version 138 on (fields 78 to 87): the repair routine, the wall
    /// style's sprite and the catalogue's ratings.
    #[schema(present_if = version >= 138)]
    pub ratings: Option<Ratings>,
    /// Version 138 on (fields 88 to 91).
    #[schema(present_if = version >= 138)]
    pub type_attributes: Option<TypeAttributes>,
    /// The fields after, as many as the chunk holds: in the expansions'
    /// definitions function subsort, downtown subsort, keep buying,
    /// vacation subsort, reset lot action, community subsort, dream
    /// flags, render flags, Vitaboy flags, studio town subsort, magic
    /// town subsort (fields 92 to 102, [`ObjectDefinition::expansion`]),
    /// then any later ones.
    #[schema(to_end)]
    pub later_fields: Vec<u16>,
}

/// The names of the fields after field 91, in order.
pub const EXPANSION_FIELDS: [&str; 11] = [
    "function subsort",
    "downtown subsort",
    "keep buying",
    "vacation subsort",
    "reset lot action",
    "community subsort",
    "dream flags",
    "render flags",
    "Vitaboy flags",
    "studio town subsort",
    "magic town subsort",
];

impl ObjectDefinition {
    /// The expansions' fields the chunk holds, by name.
    pub fn expansion(&self) -> impl Iterator<Item = (&'static str, u16)> + '_ {
        EXPANSION_FIELDS
            .iter()
            .copied()
            .zip(self.later_fields.iter().copied())
    }
}

/// Fields 78 to 87 of a definition (version 138 on).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Ratings {
    /// The repair routine.
    pub repair_routine: u16,
    /// The sprite of the wall style it puts up.
    pub wall_style_sprite: u16,
    /// The catalogue's rating of what it does for hunger.
    pub hunger: i16,
    /// For comfort.
    pub comfort: i16,
    /// For hygiene.
    pub hygiene: i16,
    /// For the bladder.
    pub bladder: i16,
    /// For energy.
    pub energy: i16,
    /// For fun.
    pub fun: i16,
    /// For the room.
    pub room: i16,
    /// The skills it builds, one bit each.
    pub skill_flags: u16,
}

/// Fields 88 to 91 of a definition.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct TypeAttributes {
    /// How many type attributes.
    pub count: u16,
    /// Miscellaneous flags.
    pub misc_flags: u16,
    /// The GUID of the object holding the type attributes (0: the
    /// object's own).
    pub guid: u32,
}

/// The object's event handlers (`OBJf`): for each event the game raises
/// (described in the global behaviours), a guard routine and an action
/// routine (`BHAV` ids; 0 for none). Used in place of the definition's
/// routine fields when its `uses_function_table` is set.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct EventHandlers {
    /// 0 in every known file.
    pub reserved: u32,
    /// The version: 0 in known files.
    pub version: u32,
    /// `fJBO` (`OBJf` backwards) in known files; kept as found.
    pub signature: [u8; 4],
    /// A u32 count, then the handlers.
    #[schema(prefix = u32)]
    pub handlers: Vec<EventHandler>,
}

/// One event's routines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct EventHandler {
    /// The routine deciding whether the action runs (0: always).
    pub guard: u16,
    /// The routine run on the event (0: none).
    pub action: u16,
}
