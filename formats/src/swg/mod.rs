//! Star Wars Galaxies: IFF files with little-endian payloads. A character
//! is an appearance (`.sat`) naming mesh lists (`.lmg`) of skinned meshes
//! (`.mgn`) and skeletons (`.skt`).

pub mod lmg;
pub mod mgn;
pub mod sat;
pub mod skt;
