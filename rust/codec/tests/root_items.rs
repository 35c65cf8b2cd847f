//! The crate's root stays small enough to read: at most `ROOT_BUDGET` items a user sees
//! (modules, functions, types, traits, constants, re-exported names and exported macros; items
//! under `#[doc(hidden)]` or built only for tests or doctests do not count; a feature's items
//! do: the count is that of every feature on, as docs.rs documents the crate). Read from `src/lib.rs` itself, the one file that declares
//! the root, so the test needs no rustdoc run; a `pub use …::*` it cannot count fails it.
//!
//! No root name, hidden or not, is that of a crate users commonly import beside this one:
//! `use fast_var_codec_core::*;` brings hidden names too, and a module named like a crate makes
//! that crate's paths ambiguous (E0659).

mod corpus;

/// Visible root items at most: about what serde_json's root holds.
const ROOT_BUDGET: usize = 25;

/// Crates that a module of the same name at the root would shadow under a glob import. The
/// `json` module stays: the crate of that name has had no release since 2020, and Rust code
/// reads JSON with serde_json; the module is named as the feature and the other surfaces name
/// the projection (`to-json`, `toJSON`).
const CRATE_NAMES: &[&str] = &[
    "serde",
    "serde_json",
    "bytes",
    "tokio",
    "tokio_util",
    "futures",
    "log",
    "tracing",
    "anyhow",
    "thiserror",
    "godot",
    "std",
    "core",
    "alloc",
];

/// One item at the root of a Rust source: its names (a `use` may give several), and whether
/// it is visible (public, not `#[doc(hidden)]`).
#[derive(Debug)]
struct RootItem {
    names: Vec<String>,
    visible: bool,
}

/// The source without comments and with string and char literals emptied, so that braces and
/// keywords are only the code's.
fn code_only(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && next == Some('\\') {
            // An escaped char literal: up to its closing quote.
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            i += 3;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The names a `use` tree gives: `a::{b, c::{self, d as e}}` gives `b`, `c` and `e`; a glob
/// gives `*`. `parent` is the last segment of the path before the tree (what `self` names).
fn use_names(tree: &str, parent: &str) -> Vec<String> {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let prefix = tree[..open].trim_end_matches("::");
        let parent = prefix.rsplit("::").next().unwrap_or(parent).trim();
        let inner = &tree[open + 1..tree.rfind('}').expect("a use tree's closing brace")];
        let mut names = Vec::new();
        let (mut depth, mut start) = (0, 0);
        for (at, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    names.extend(use_names(&inner[start..at], parent));
                    start = at + 1;
                }
                _ => {}
            }
        }
        names.extend(use_names(&inner[start..], parent));
        return names;
    }
    if tree.is_empty() {
        return Vec::new();
    }
    let last = tree.rsplit(" as ").next().unwrap_or(tree);
    let name = last.rsplit("::").next().unwrap_or(last).trim();
    vec![if name == "self" { parent } else { name }.to_string()]
}

/// The items at the root of `src` (a crate root's source).
fn root_items(src: &str) -> Vec<RootItem> {
    let code = code_only(src);
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut stmt = String::new();
    for c in code.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth == 0 && (c == ';' || c == '}') {
            stmt.push(c);
            if let Some(item) = parse_item(&stmt) {
                items.push(item);
            }
            stmt.clear();
        } else if depth == 0 || c != '\n' {
            stmt.push(c);
        }
        if depth == 0 && c == ']' && stmt.trim_start().starts_with("#!") {
            // An inner attribute of the crate, not of an item.
            stmt.clear();
        }
    }
    items
}

/// One root statement (attributes, then the item up to its `;` or closing brace).
fn parse_item(stmt: &str) -> Option<RootItem> {
    let mut rest = stmt.trim();
    let mut hidden = false;
    let mut exported_macro = false;
    let mut test_only = false;
    while let Some(attr) = rest.strip_prefix("#[") {
        let end = matching_bracket(attr)?;
        let body: String = attr[..end].chars().filter(|c| !c.is_whitespace()).collect();
        hidden |= body == "doc(hidden)";
        exported_macro |= body == "macro_export";
        // Items that exist only when tests or doctests are built are no part of the API.
        test_only |= body.starts_with("cfg(") && (body.contains("doctest") || body == "cfg(test)");
        rest = attr[end + 1..].trim_start();
    }
    if let Some(m) = rest.strip_prefix("macro_rules!") {
        let name = m
            .trim_start()
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .next()?;
        return Some(RootItem {
            names: vec![name.to_string()],
            visible: exported_macro && !hidden,
        });
    }
    let public = rest.starts_with("pub ");
    let body = rest.strip_prefix("pub ").unwrap_or(rest).trim_start();
    let words: Vec<&str> = body.split_whitespace().collect();
    let (&kind, more) = words.split_first()?;
    let names = match kind {
        "use" => use_names(body.trim_start_matches("use").trim_end_matches(';'), ""),
        "mod" | "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "union" => {
            let name = more.first()?;
            vec![name
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .next()?
                .to_string()]
        }
        "unsafe" | "async" | "extern" if more.contains(&"fn") => {
            let at = more.iter().position(|w| *w == "fn")?;
            let name = more.get(at + 1)?;
            vec![name
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .next()?
                .to_string()]
        }
        _ => return None, // impl blocks and the like: no names of their own
    };
    Some(RootItem {
        names,
        visible: public && !hidden && !test_only,
    })
}

/// Where the `]` closing an attribute opened just before `s` is.
fn matching_bracket(s: &str) -> Option<usize> {
    let mut depth = 1;
    for (at, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
    }
    None
}

fn visible_names(items: &[RootItem]) -> Vec<String> {
    items
        .iter()
        .filter(|i| i.visible)
        .flat_map(|i| i.names.clone())
        .collect()
}

fn lib_rs() -> String {
    let path = corpus::package_path("src/lib.rs");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_root_holds_at_most_its_budget_of_visible_items() {
    let names = visible_names(&root_items(&lib_rs()));
    assert!(
        !names.iter().any(|n| n == "*"),
        "src/lib.rs re-exports a glob without #[doc(hidden)]: name its items, so they count"
    );
    assert!(
        names.len() <= ROOT_BUDGET,
        "the crate's root shows {} items, above its budget of {ROOT_BUDGET}: {names:?}. Put the \
         new ones in a module (and the prelude, if every user needs them)",
        names.len()
    );
    // What every user needs is there.
    for needed in [
        "encode",
        "decode",
        "Value",
        "Options",
        "Dialect",
        "CodecError",
        "prelude",
    ] {
        assert!(
            names.iter().any(|n| n == needed),
            "{needed} is not at the root: {names:?}"
        );
    }
}

#[test]
fn no_root_name_is_a_crate_users_import_beside_this_one() {
    let all: Vec<String> = root_items(&lib_rs())
        .into_iter()
        .flat_map(|i| i.names)
        .collect();
    for name in &all {
        assert!(
            !CRATE_NAMES.contains(&name.as_str()),
            "the root has an item named `{name}`: beside `use fast_var_codec_core::*;`, the crate \
             `{name}`'s paths become ambiguous (E0659)"
        );
    }
}

/// The counter itself, on a root it must refuse and one it must let through.
#[test]
fn the_counter_counts_what_a_user_sees() {
    let src = r#"
        //! Docs with a { brace and pub fn not_an_item() in a comment.
        #![warn(missing_docs)]
        pub mod a;
        #[cfg(feature = "x")]
        pub mod b;
        mod private;
        #[doc(hidden)]
        pub mod hidden;
        pub use a::{One, Two as Deux, inner::{Three, self}};
        #[doc(hidden)]
        pub use a::*;
        pub(crate) use a::Four;
        /// A function whose body has braces and "strings with { and //".
        pub fn f(x: &str) -> usize { if x == "}" { 1 } else { '{'.len_utf8() } }
        pub struct S<'a> { s: &'a str }
        impl S<'_> { pub fn g(&self) {} }
        #[macro_export]
        macro_rules! m { () => {} }
        macro_rules! local { () => {} }
        #[cfg(all(doctest, feature = "x"))]
        pub struct Snippets;
    "#;
    let names = visible_names(&root_items(src));
    assert_eq!(
        names,
        ["a", "b", "One", "Deux", "Three", "inner", "f", "S", "m"]
    );
    let glob = visible_names(&root_items("pub use a::*;"));
    assert_eq!(glob, ["*"]);
}
