//! The crate README's tokio server is `examples/game_server.rs`, word for word, so that the
//! server the README shows is one that is built (and was run against Godot clients).

mod corpus;

#[test]
fn the_readme_server_is_the_game_server_example() {
    let readme = std::fs::read_to_string(corpus::package_path("README.md")).expect("README");
    let example =
        std::fs::read_to_string(corpus::package_path("examples/game_server.rs")).expect("example");
    let start = readme.find("```rust,no_run\n").expect("the server's block") + 15;
    let len = readme[start..].find("```").expect("its end");
    let code = &readme[start..start + len];
    let body = example
        .lines()
        .skip_while(|l| l.starts_with("//!") || l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect::<String>();
    assert_eq!(code, body, "README.md and examples/game_server.rs differ");
}
