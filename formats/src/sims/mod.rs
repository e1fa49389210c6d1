pub mod bcf;
pub mod bmf;
mod bones;
pub mod cfp;
pub mod cmx;
pub mod skel;
mod skill;
pub mod skn;
mod suit;
