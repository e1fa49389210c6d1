//! Into the games' own files: what the glTF import and the conversion of
//! the Sims 1998 prototype write beside the character files.

pub mod bmp;
