use std::env;
use std::thread;
use std::time::Duration;

struct Point {
    x: i32,
    y: i32,
}

fn total(points: &[Point]) -> i32 {
    let sum: i32 = points.iter().map(|point| point.x + point.y).sum();
    sum
}

fn main() {
    let origin = Point { x: 2, y: 3 };
    let values = vec![10, 20, 30];
    let points = vec![Point { x: 1, y: 2 }, Point { x: origin.x, y: origin.y }];
    let result = total(&points) + values.len() as i32;
    println!("result {}", result);
    if env::args().len() > 1 {
        loop {
            thread::sleep(Duration::from_secs(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_adds_coordinates() {
        let points = vec![Point { x: 1, y: 2 }];
        assert_eq!(total(&points), 3);
    }
}
