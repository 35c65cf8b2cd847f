//! `store_var` files of any container and dialect, read and written whole: what a save editor
//! needs to open a file and write it back the way it was (the core's `save::open`,
//! `locate::locate_records` and `save::store`; the engine's own
//! codecs compress and decompress each block).

use fast_var_codec_core::locate::{locate_records, Framing as PayloadFraming};
use fast_var_codec_core::options::Precision;
use fast_var_codec_core::save::RecordError;
use fast_var_codec_core::save::{self, Compression, EncryptedFormat};
use fast_var_codec_core::{Dialect, Options};
use godot::builtin::{GString, PackedByteArray, VarArray, VarDictionary};
use godot::classes::file_access::ModeFlags;
use godot::classes::{DirAccess, FileAccess};
use godot::global::Error;

use crate::call_state::{godot_error, CallState};
use crate::codec_state::CodecState;
use crate::files::engine_mode;
use crate::settings::{by_value, value_of, DIALECTS};
use crate::value_calls::{decode_record_variant, encode_frames_into_buffer, Framing};

/// One block compressed by the engine (`PackedByteArray.compress`, the codecs its
/// `FileAccess.open_compressed` uses).
fn engine_compress(block: &[u8], mode: Compression) -> Result<Vec<u8>, &'static str> {
    PackedByteArray::from(block)
        .compress(engine_mode(mode))
        .map(|b| b.to_vec())
        .map_err(|()| "the engine's compression failed")
}

/// `opts` for reading in `dialect`: a dialect without double precision reads single.
fn options_for(opts: &Options, dialect: Dialect) -> Options {
    let mut o = opts.clone();
    o.dialect = dialect;
    if !dialect.has_double_precision() {
        o.precision = Precision::Single;
    }
    o
}

impl CodecState {
    /// `FastVarCodec.inspect_file`: a `store_var` file of any container opened, its values read
    /// in the dialect given or the one its records tell, and how it is kept, so that
    /// `write_file` can write it back the same way. `{}` when the container cannot be opened;
    /// the values before a failing record otherwise, the failure recorded.
    pub(crate) fn inspect_file(
        &self,
        path: &GString,
        password: &GString,
        key: &PackedByteArray,
        dialect: i64,
    ) -> VarDictionary {
        let named = match dialect {
            -1 => None,
            d => match by_value(&DIALECTS, d) {
                Some(d) => Some(d),
                None => {
                    self.calls.fail_with(
                        Error::ERR_INVALID_PARAMETER,
                        format!("unknown dialect {d} (-1: the one the file's records tell)"),
                    );
                    return VarDictionary::new();
                }
            },
        };
        self.open_file(path, password, key, named, |opened| {
            self.inspect_payload(path, &opened, named)
        })
        .unwrap_or_default()
    }

    /// What `inspect_file` returns for an opened file: its payload's values read as far as they
    /// go (the failure recorded) and how the file is kept.
    fn inspect_payload(
        &self,
        path: &GString,
        opened: &save::Opened<'_>,
        named: Option<Dialect>,
    ) -> VarDictionary {
        let mut found = VarDictionary::new();
        let opts = self.options();
        let read = locate_records(&opened.payload, named, &opts);
        let read_opts = options_for(&opts, read.dialect);
        let raw = read.framing == PayloadFraming::Raw;
        let max_message = self.settings().max_message;
        let mut values = VarArray::new();
        let mut failure = read
            .error
            .as_ref()
            .map(|e: &RecordError| (godot_error(e.code()), format!("{path}: {e}")));
        for (index, r) in read.records.iter().enumerate() {
            // The value's own bytes: where its first span starts, as long as its encoding.
            let bytes = r
                .spans
                .first()
                .and_then(|s| opened.payload.get(s.start..s.start + r.len))
                .unwrap_or_default();
            let made = if raw {
                Ok(())
            } else {
                fast_var_codec_core::stream::check_message_len(r.len, max_message, r.offset)
            }
            .and_then(|()| decode_record_variant(bytes, None, &read_opts));
            match made {
                Ok(v) => values.push(&v),
                Err(e) => {
                    failure = Some((
                        godot_error(e.code()),
                        format!("{path}: value {index} (payload offset {}): {e}", r.offset),
                    ));
                    break;
                }
            }
        }
        found.set("container", opened.container.name());
        found.set(
            "compression",
            opened.compression.map_or(-1, |c| i64::from(c.mode())),
        );
        found.set(
            "encryption",
            opened.encryption.map_or("", EncryptedFormat::name),
        );
        found.set("dialect", value_of(&DIALECTS, read.dialect));
        found.set("raw", raw);
        found.set("values", &values);
        match failure {
            Some((error, message)) => {
                self.calls.fail_with(error, message);
            }
            None => {
                self.calls.ok();
            }
        }
        found
    }

    /// `FastVarCodec.write_file`: `values` as `store_var` records in the codec's dialect, in a
    /// plain, compressed or encrypted container, written whole or not at all (a file beside
    /// `path`, renamed over it once complete).
    pub(crate) fn write_file(
        &self,
        path: &GString,
        values: &VarArray,
        compression: i64,
        password: &GString,
        key: &PackedByteArray,
    ) -> Error {
        let compression = match compression {
            -1 => None,
            m => match u32::try_from(m).ok().and_then(Compression::from_mode) {
                Some(c) => Some(c),
                None => {
                    return self.calls.fail_with(
                        Error::ERR_INVALID_PARAMETER,
                        format!(
                            "compression mode {m}: FileAccess.COMPRESSION_FASTLZ, _DEFLATE, _ZSTD \
                             or _GZIP, or -1 for none (the engine writes no Brotli)"
                        ),
                    )
                }
            },
        };
        let Some(key) = self.file_key(password, key) else {
            return self.calls.error();
        };
        let container = save::StoreOptions::new()
            .with_compression(compression)
            .with_key(key.as_ref());
        let opts = self.options();
        let framing = Framing {
            big_endian: false,
            max_message: self.settings().max_message,
        };
        let payload = match encode_frames_into_buffer(&opts, values, framing) {
            Ok(p) => p,
            Err((index, e)) => {
                self.calls.fail_write(&e);
                return self.calls.fail_with(
                    self.calls.error(),
                    format!("{path}: value {index}: {}", self.calls.message()),
                );
            }
        };
        match save::store(
            payload.as_slice(),
            opts.dialect,
            &container,
            engine_compress,
        ) {
            Ok(bytes) => self.write_whole(path, &bytes),
            Err(e) => self
                .calls
                .fail_with(godot_error(e.code()), format!("{path}: {e}")),
        }
    }

    /// Writes `bytes` to a file beside `path`, then renames it over `path` ([`write_whole`]).
    pub(crate) fn write_whole(&self, path: &GString, bytes: &[u8]) -> Error {
        write_whole(&self.calls, path, bytes)
    }
}

/// Writes `bytes` to a file beside `path`, then renames it over `path`: a failure part way
/// leaves the file that was there. The outcome is recorded in `calls`.
pub(crate) fn write_whole(calls: &CallState, path: &GString, bytes: &[u8]) -> Error {
    let beside = GString::from(&format!("{path}.fvc-writing"));
    let Some(mut file) = FileAccess::open(&beside, ModeFlags::WRITE) else {
        let open = FileAccess::get_open_error();
        return calls.fail_with(open, format!("{beside}: cannot write it ({open:?})"));
    };
    let stored = file.store_buffer(&PackedByteArray::from(bytes));
    let error = file.get_error();
    file.close();
    if !stored || error != Error::OK {
        DirAccess::remove_absolute(&beside);
        let error = if error == Error::OK {
            Error::FAILED
        } else {
            error
        };
        return calls.fail_with(
            error,
            format!(
                "{beside}: writing {} bytes failed ({error:?}); {path} is as it was",
                bytes.len()
            ),
        );
    }
    let renamed = DirAccess::rename_absolute(&beside, path);
    if renamed != Error::OK {
        DirAccess::remove_absolute(&beside);
        return calls.fail_with(
            renamed,
            format!("{path}: cannot replace it with {beside} ({renamed:?}); {path} is as it was"),
        );
    }
    calls.ok()
}
