pub mod bcf;
pub mod bmf;
mod bones;
pub mod cmx;
pub mod skel;
pub mod skn;
