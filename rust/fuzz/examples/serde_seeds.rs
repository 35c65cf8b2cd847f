//! Seed helper for the `serde` target (run by seed_corpus.sh, an ordinary build): prints a few
//! typed messages (`fast_var_codec_fuzz::serde_message`) as hex, one per line, in each dialect:
//! coverage-guided mutation rarely builds a struct of fifteen named fields from nothing.
use std::collections::BTreeMap;
use std::io::{self, Write};

use fast_var_codec_core::serde_format::to_bytes;
use fast_var_codec_core::{Dialect, Options, Value};
use fast_var_codec_fuzz::serde_message::{Item, Message, State};

fn main() -> io::Result<()> {
    let items = [
        Item {
            kind: "sword",
            count: 1,
        },
        Item {
            kind: "potion",
            count: 3,
        },
    ];
    let states = || {
        [
            State::Idle,
            State::Moving { dx: 0.5, dy: -1.0 },
            State::Named("guard".into()),
        ]
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    for dialect in Dialect::ALL {
        let opts = Options::new(dialect);
        for (n, state) in states().into_iter().enumerate() {
            let message = Message {
                player: "player_one",
                tick: 1_000 + n as i64,
                small: 7,
                x: 1.5,
                y: -2.25,
                running: n % 2 == 0,
                tags: vec!["fast".into(), "red".into()],
                items: items.iter().take(n + 1).map(copy_item).collect(),
                scores: BTreeMap::from([("a".into(), 1), ("b".into(), 2)]),
                blob: &[1, 2, 3][..n],
                maybe: (n > 0).then_some(-3),
                pair: (9, "nine".into()),
                state,
                any: Value::array(vec![Value::Int(1), Value::String("x".into())]),
            };
            let Ok(bytes) = to_bytes(&message, &opts) else {
                continue;
            };
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            writeln!(out, "{hex}")?;
        }
    }
    out.flush()
}

fn copy_item<'a>(item: &Item<'a>) -> Item<'a> {
    Item {
        kind: item.kind,
        count: item.count,
    }
}
