pub mod skel;
