fn answer() -> u32 { util::forty_two() }

fn main() {
    println!("{}", answer());
}
