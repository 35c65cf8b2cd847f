//! Files as peers: values framed as `FileAccess.store_var` frames them (the core's framing),
//! Godot 3's encrypted container (the core's `encrypted` module), and Godot 3 save files of any
//! container in one call (the core's `save` module: detection, layouts, records; the engine's
//! own codecs decompress each compressed block), and ConfigFiles read by the core (never making
//! an object).

use fast_var_codec_core::save::ConfigFile as CoreConfigFile;
use fast_var_codec_core::save::{self, records, Compression, OpenOptions};
use fast_var_codec_core::save::{decrypt_godot3, encrypt_godot3, FileError, FileKey};
use fast_var_codec_core::stream::{check_message_len, prefix_len, ByteOrder, PREFIX_LEN};
use fast_var_codec_core::{Dialect, Options};
use godot::builtin::{GString, PackedByteArray, VarArray, Variant};
use godot::classes::file_access::CompressionMode;
use godot::classes::{ConfigFile, FileAccess};
use godot::global::Error;
use godot::obj::{Gd, NewGd};

use crate::call_state::godot_error;
use crate::codec_state::CodecState;
use crate::engine_bytes::ByteSource;
use crate::value_calls::{decode_record_variant, encode_into_buffer, variant_of_value};

/// The key a caller gives: a password, or 32 raw bytes.
pub(crate) enum KeySource<'a> {
    Password(&'a GString),
    Bytes(&'a PackedByteArray),
}

impl KeySource<'_> {
    fn key(&self) -> Result<FileKey, FileError> {
        match self {
            KeySource::Password(p) => Ok(FileKey::from_password(&p.to_string())),
            KeySource::Bytes(b) => FileKey::from_slice(b.as_slice()),
        }
    }
}

/// The engine's mode of a compression (`FileAccess.CompressionMode`, numbered as Godot 3's
/// `File.COMPRESSION_*`).
pub(crate) fn engine_mode(mode: Compression) -> CompressionMode {
    match mode {
        Compression::FastLz => CompressionMode::FASTLZ,
        Compression::Deflate => CompressionMode::DEFLATE,
        Compression::Zstd => CompressionMode::ZSTD,
        Compression::Gzip => CompressionMode::GZIP,
    }
}

/// One compressed block decompressed by the engine (`PackedByteArray.decompress`, the codecs its
/// `FileAccess.open_compressed` uses), to `len` bytes. The engine cannot make an empty buffer:
/// a block holding nothing gives nothing without being looked at.
fn engine_block(data: &[u8], mode: Compression, len: usize) -> Result<Vec<u8>, &'static str> {
    if len == 0 {
        return Ok(Vec::new());
    }
    PackedByteArray::from(data)
        .decompress(len, engine_mode(mode))
        .map(|b| b.to_vec())
        .map_err(|()| "the engine's decompression failed")
}

impl CodecState {
    /// `FastVarCodec.read_godot3_save`: every value of a Godot 3 save file, whatever its
    /// container. A failure of the container (the file, the key, a block) gives no values; a
    /// failure of a record keeps the values before it.
    pub(crate) fn read_godot3_save(
        &self,
        path: &GString,
        password: &GString,
        key: &PackedByteArray,
    ) -> VarArray {
        self.open_file(path, password, key, Some(Dialect::Godot3), |opened| {
            self.godot3_records(path, &opened.payload)
        })
        .unwrap_or_default()
    }

    /// Every `store_var` record of `payload` decoded in the Godot 3 dialect, those before a
    /// failing one when one fails (the failure recorded).
    fn godot3_records(&self, path: &GString, payload: &[u8]) -> VarArray {
        let mut values = VarArray::new();
        let mut opts = (*self.options()).clone();
        opts.dialect = Dialect::Godot3;
        let max_message = self.settings().max_message;
        for (index, record) in records(payload).enumerate() {
            let failed = match record {
                Ok(r) => match check_message_len(r.bytes.len(), max_message, r.offset)
                    .and_then(|()| decode_record_variant(r.bytes, None, &opts))
                {
                    Ok(v) => {
                        values.push(&v);
                        continue;
                    }
                    Err(e) => (
                        godot_error(e.code()),
                        format!("value {index} (payload offset {}): {e}", r.offset),
                    ),
                },
                Err(e) => (godot_error(e.code()), format!("value {index}: {e}")),
            };
            self.calls
                .fail_with(failed.0, format!("{path}: {}", failed.1));
            return values;
        }
        self.calls.ok();
        values
    }

    /// The file at `path` opened in whatever container it is (the core's `save::open`, with the
    /// key of `password` or `key`; encrypted in `dialect`'s container, or either engine's
    /// without one), handed to `read`; `None` when it could not be opened, the failure
    /// recorded.
    pub(crate) fn open_file<R>(
        &self,
        path: &GString,
        password: &GString,
        key: &PackedByteArray,
        dialect: Option<Dialect>,
        read: impl FnOnce(save::Opened<'_>) -> R,
    ) -> Option<R> {
        let key = self.file_key(password, key)?;
        let file = self.file_bytes(path)?;
        let open_opts = OpenOptions::new()
            .with_key(key.as_ref())
            .with_max_payload(self.settings().max_payload);
        match save::open(file.as_slice(), dialect, &open_opts, engine_block) {
            Ok(opened) => Some(read(opened)),
            Err(e) => {
                self.calls
                    .fail_with(godot_error(e.code()), format!("{path}: {e}"));
                None
            }
        }
    }

    /// The key of a password or 32 raw bytes (`None` inside for neither); `None` when the call
    /// failed (both given, a key of the wrong length), the failure recorded.
    pub(crate) fn file_key(
        &self,
        password: &GString,
        key: &PackedByteArray,
    ) -> Option<Option<FileKey>> {
        match (password.is_empty(), key.is_empty()) {
            (true, true) => Some(None),
            (false, true) => Some(Some(FileKey::from_password(&password.to_string()))),
            (true, false) => match FileKey::from_slice(key.as_slice()) {
                Ok(k) => Some(Some(k)),
                Err(e) => {
                    self.calls.fail_with(godot_error(e.code()), e.to_string());
                    None
                }
            },
            (false, false) => {
                self.calls.fail_with(
                    Error::ERR_INVALID_PARAMETER,
                    "give a password or a key, not both".into(),
                );
                None
            }
        }
    }

    /// The bytes of the file at `path`; `None` when it cannot be opened, the engine's open error
    /// recorded.
    pub(crate) fn file_bytes(&self, path: &GString) -> Option<PackedByteArray> {
        let file = FileAccess::get_file_as_bytes(path);
        let open = FileAccess::get_open_error();
        if open != Error::OK {
            self.calls
                .fail_with(open, format!("{path}: cannot open it ({open:?})"));
            return None;
        }
        Some(file)
    }

    /// `FastVarCodec.load_config_file`: a ConfigFile read by the core (plain, or either engine's
    /// encrypted container), its objects made as a decode makes them (none unless the codec
    /// admits them); `None` on failure, recorded.
    pub(crate) fn load_config_file(
        &self,
        path: &GString,
        password: &GString,
        key: &PackedByteArray,
    ) -> Option<Gd<ConfigFile>> {
        let key = self.file_key(password, key)?;
        let file = self.file_bytes(path)?;
        let opts = self.config_options();
        match CoreConfigFile::from_file(file.as_slice(), key.as_ref(), &opts) {
            Ok(cfg) => self.engine_config_file(&cfg, &opts),
            Err(e) => {
                self.calls
                    .fail_with(godot_error(e.code()), format!("{path}: {e}"));
                None
            }
        }
    }

    /// `FastVarCodec.parse_config_file`: [`CodecState::load_config_file`] for a text.
    pub(crate) fn parse_config_file(&self, text: &str) -> Option<Gd<ConfigFile>> {
        let opts = self.config_options();
        match CoreConfigFile::parse(text, &opts) {
            Ok(cfg) => self.engine_config_file(&cfg, &opts),
            Err(e) => {
                self.calls.fail(&e);
                None
            }
        }
    }

    /// The options a ConfigFile is read with: the codec's limits, its object settings (as a
    /// decode's: objects of the admitted classes, scripts only when admitted) and its dialect's
    /// grammar (Godot 3 ends a section's name at its first `]`).
    fn config_options(&self) -> Options {
        (*self.options()).clone()
    }

    /// The engine's ConfigFile holding `cfg`'s values, each built as a decode builds it (through
    /// the value's Godot 4 bytes); `None` when one does not convert, recorded.
    fn engine_config_file(&self, cfg: &CoreConfigFile, opts: &Options) -> Option<Gd<ConfigFile>> {
        let mut godot4 = opts.clone().with_full_objects(true);
        godot4.dialect = Dialect::Godot4;
        let mut out = ConfigFile::new_gd();
        for (section, key, value) in cfg.iter() {
            match variant_of_value(value, &godot4) {
                Ok(v) => out.set_value(section, key, &v),
                Err(e) => {
                    self.calls
                        .fail_with(godot_error(e.code()), format!("[{section}] {key}: {e}"));
                    return None;
                }
            }
        }
        self.calls.ok();
        Some(out)
    }

    /// `FastVarCodec.store_var`: the framing of `FileAccess.store_var` (a 32-bit length in the
    /// file's byte order, then the encoding), at the file's position.
    pub(crate) fn store_var(&self, mut file: Gd<FileAccess>, value: &Variant) -> Error {
        let framed = match encode_into_buffer(
            &self.options(),
            value,
            Some(self.framing(file.is_big_endian())),
        ) {
            Ok(b) => b,
            Err(e) => return self.calls.fail_write(&e),
        };
        let at = file.get_position();
        if !file.store_buffer(&framed) {
            let err = file.get_error();
            return self.calls.fail_with(
                if err == Error::OK { Error::FAILED } else { err },
                format!(
                    "writing {} bytes at file offset {at} failed ({err:?})",
                    framed.len()
                ),
            );
        }
        self.calls.ok()
    }

    /// `FastVarCodec.read_var`: the value framed at the file's position. On failure the
    /// position goes back to where the value starts, so nothing after it is lost or skipped.
    pub(crate) fn read_var(&self, mut file: Gd<FileAccess>) -> Variant {
        let start = file.get_position();
        let left = file.get_length().saturating_sub(start);
        let fail = |file: &mut Gd<FileAccess>, error: Error, message: String| {
            file.seek(start);
            self.calls.fail_with(error, message);
            Variant::nil()
        };
        if left < PREFIX_LEN as u64 {
            let message = if left == 0 {
                format!("end of file at offset {start}: no value left")
            } else {
                format!("{left} bytes at file offset {start}: a value's 4-byte length cut short")
            };
            return fail(&mut file, Error::ERR_FILE_EOF, message);
        }
        let head = file.get_buffer(PREFIX_LEN as i64);
        let Ok(head) = <[u8; PREFIX_LEN]>::try_from(head.as_slice()) else {
            return fail(
                &mut file,
                Error::ERR_FILE_CANT_READ,
                format!("cannot read the length at file offset {start}"),
            );
        };
        let len = prefix_len(head, ByteOrder::from_big_endian(file.is_big_endian()));
        if let Err(e) = check_message_len(len, self.settings().max_message, 0) {
            return fail(
                &mut file,
                godot_error(e.code()),
                format!("the value at file offset {start}: {e}"),
            );
        }
        let body_left = left - PREFIX_LEN as u64;
        if len as u64 > body_left {
            return fail(
                &mut file,
                Error::ERR_FILE_EOF,
                format!(
                    "the value at file offset {start} announces {len} bytes, the file has {body_left} more: cut short or not this format"
                ),
            );
        }
        let body = file.get_buffer(len as i64);
        if body.len() != len {
            return fail(
                &mut file,
                Error::ERR_FILE_CANT_READ,
                format!(
                    "read {} of the {len} bytes at file offset {start}",
                    body.len()
                ),
            );
        }
        let source = Some(ByteSource::Array(&body));
        match decode_record_variant(body.as_slice(), source, &self.options()) {
            Ok(v) => {
                self.calls.ok_with_size(len as i64);
                v
            }
            Err(e) => fail(
                &mut file,
                godot_error(e.code()),
                format!("the value at file offset {start}: {e}"),
            ),
        }
    }

    /// `FastVarCodec.decrypt_godot3*`: the plaintext of a Godot 3 encrypted file's bytes.
    pub(crate) fn decrypt_godot3(&self, file: &PackedByteArray, key: KeySource) -> PackedByteArray {
        match key.key().and_then(|k| decrypt_godot3(file.as_slice(), &k)) {
            Ok(plain) => {
                self.calls.ok();
                PackedByteArray::from(plain.as_slice())
            }
            Err(e) => {
                self.calls.fail_with(godot_error(e.code()), e.to_string());
                PackedByteArray::new()
            }
        }
    }

    /// `FastVarCodec.encrypt_godot3*`: a Godot 3 encrypted file holding `plaintext`.
    pub(crate) fn encrypt_godot3(
        &self,
        plaintext: &PackedByteArray,
        key: KeySource,
    ) -> PackedByteArray {
        match key.key() {
            Ok(k) => {
                self.calls.ok();
                PackedByteArray::from(encrypt_godot3(plaintext.as_slice(), &k).as_slice())
            }
            Err(e) => {
                self.calls.fail_with(godot_error(e.code()), e.to_string());
                PackedByteArray::new()
            }
        }
    }
}
