//! The 2D tunnel demo (`fathom_app::tunnels`): a digger carves a tunnel through a terrain
//! slab at run time while balls fall on it; prints, every second, how many carves were made
//! and how many balls have fallen through the tunnel to the floor below.
//!
//! `cargo run --release --example tunnels`

use fathom_app::tunnels::TunnelDemo;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut demo = TunnelDemo::new(30)?;
    for second in 1..=12 {
        for _ in 0..60 {
            demo.step()?;
        }
        println!(
            "t {second:>2} s  carves {:>3}  balls through the tunnel {:>2} of 30",
            demo.carves(),
            demo.balls_through()
        );
    }
    Ok(())
}
