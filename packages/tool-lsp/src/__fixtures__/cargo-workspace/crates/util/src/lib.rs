/// The answer.
pub fn forty_two() -> u32 {
    42
}
