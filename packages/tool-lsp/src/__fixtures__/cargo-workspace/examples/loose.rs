// Not in any member crate: its nearest Cargo.toml is the workspace's.
fn main() {}
