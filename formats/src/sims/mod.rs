pub mod bcf;
pub mod bmf;
pub mod cmx;
pub mod skel;
pub mod skn;
