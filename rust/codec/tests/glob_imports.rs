//! Both glob imports a user may write compile beside serde's derive imports: the prelude's and
//! the whole root's (a root module named `serde` made `use serde::…` ambiguous, E0659). This
//! file compiling is the test; the tests in it check the names mean what they say.
#![cfg(feature = "serde")]

mod with_the_prelude {
    use fast_var_codec_core::prelude::*;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Hit {
        target: String,
        damage: i64,
    }

    #[test]
    // The prelude's `Result` takes an error type too, as std's does.
    fn prelude_and_serde_derive_compose() -> Result<(), Box<dyn std::error::Error>> {
        let opts = Options::new(Dialect::Godot4);
        let hit = Hit {
            target: "slime".into(),
            damage: 3,
        };
        let bytes = fast_var_codec_core::serde_format::to_bytes(&hit, &opts)?;
        let (value, used) = decode(&bytes, &opts)?;
        assert_eq!(used, bytes.len());
        assert_eq!(value["target"], "slime");
        assert_eq!(value["damage"], 3);
        assert_eq!(encode(&value, &opts)?, bytes);
        Ok(())
    }
}

mod with_the_root {
    use fast_var_codec_core::*;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Hit {
        target: String,
        damage: i64,
    }

    #[test]
    fn root_glob_and_serde_derive_compose() -> std::result::Result<(), serde_format::Error> {
        let opts = Options::new(Dialect::Godot3);
        let hit = Hit {
            target: "slime".into(),
            damage: 3,
        };
        let bytes = serde_format::to_bytes(&hit, &opts)?;
        assert_eq!(serde_format::from_bytes::<Hit>(&bytes, &opts)?, hit);
        let value: Value = serde_format::from_bytes(&bytes, &opts)?;
        assert_eq!(value["damage"], 3);
        Ok(())
    }
}
