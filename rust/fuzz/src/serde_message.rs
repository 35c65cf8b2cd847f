//! The typed message the `serde` target reads and writes, and `examples/serde_seeds.rs` seeds
//! its corpus with.

use std::collections::BTreeMap;

use fast_var_codec_core::Value;
use serde::{Deserialize, Serialize};

/// A part of a message.
#[derive(Serialize, Deserialize, Debug)]
pub struct Item<'a> {
    pub kind: &'a str,
    pub count: i32,
}

/// Something of every shape serde has: borrowed and owned text, numbers of each width, options,
/// sequences, maps, bytes, enums, tuples, and a value of any type.
#[derive(Serialize, Deserialize, Debug)]
pub struct Message<'a> {
    #[serde(borrow)]
    pub player: &'a str,
    pub tick: i64,
    pub small: u8,
    pub x: f32,
    pub y: f64,
    pub running: bool,
    pub tags: Vec<String>,
    #[serde(borrow)]
    pub items: Vec<Item<'a>>,
    pub scores: BTreeMap<String, i64>,
    #[serde(with = "serde_bytes")]
    pub blob: &'a [u8],
    pub maybe: Option<i16>,
    pub pair: (u32, String),
    pub state: State,
    pub any: Value,
}

/// Each kind of enum variant.
#[derive(Serialize, Deserialize, Debug)]
pub enum State {
    Idle,
    Moving { dx: f64, dy: f64 },
    Named(String),
}
