//! Outcast: skeletons (`.osk`) and animations (`.oan`).
//!
//! Each field of these files is known but not its byte width, so these
//! layouts are ossuary's own (little-endian), as written in the types'
//! docs. A joint's parent is implied by its depth index: the nearest
//! earlier joint one level up. An animation's records carry the depth
//! indices of the skeleton they were made for (up to a constant offset),
//! which is how an animation binds to a skeleton.

pub mod animation;
pub mod skeleton;
