//! The README's hand-written scene file loads and behaves as it says: the ball
//! bounces and comes to rest on the ground, the CSG box lands beside it.

use fathom_physics::world::SceneFile;

fn readme_ron_block() -> String {
    let readme = include_str!("../README.md");
    let start = readme
        .find("```ron\n")
        .expect("the README shows a RON scene")
        + 7;
    let len = readme[start..].find("```").expect("the block is closed");
    readme[start..start + len].to_string()
}

#[test]
fn readme_scene_file_loads_and_settles() {
    let SceneFile::Scene3D(scene) = SceneFile::from_ron_str(&readme_ron_block()).unwrap() else {
        panic!("the README's scene is 3D");
    };
    assert_eq!(scene.bodies.len(), 3);
    let mut world = scene.build().unwrap();
    for _ in 0..600 {
        world.step();
    }
    let ys: Vec<f32> = world.bodies().map(|(_, b)| b.position().y).collect();
    // The ball (radius 0.5) rests on the plane y = 0; soft contacts sink it by under 1 cm.
    assert!((ys[1] - 0.5).abs() < 0.01, "ball at y = {}", ys[1]);
    // The hollowed box (half extent 0.5) comes to rest on the ground or on the ball:
    // its centre is above the plane and below its drop height.
    assert!(ys[2] > 0.3 && ys[2] < 4.0, "box at y = {}", ys[2]);
}
