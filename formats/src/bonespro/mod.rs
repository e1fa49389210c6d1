//! BonesPro exports from 3ds Max: structure files (bones and the mesh bound
//! to them) and animation files (per frame, bones or vertices), both text.

pub mod animation;
mod samples;
pub mod structure;
pub mod transform;

#[cfg(test)]
mod tests;
