//! Star Wars Galaxies: IFF files with little-endian payloads. A character
//! is an appearance (`.sat`) naming mesh lists (`.lmg`) of skinned meshes
//! (`.mgn`) and skeletons (`.skt`); the meshes name shaders (`.sht`),
//! which name textures and palettes (`.pal`, RIFF files).

pub mod lmg;
pub mod mgn;
pub mod pal;
pub mod sat;
pub mod sht;
pub mod skt;
