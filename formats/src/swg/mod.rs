//! Star Wars Galaxies: IFF files with little-endian payloads.

pub mod skt;
