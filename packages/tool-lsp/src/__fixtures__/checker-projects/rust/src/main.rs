fn main() {
    let unused = 1;
    let total: u32 = "three";
    println!("{}", total);
}
