//! Where the password or key of an encrypted file comes from: the command line (seen by anyone
//! who can list processes), an environment variable, a file, or a prompt on the terminal that
//! echoes nothing.

use std::io::IsTerminal;

use clap::Args;
use fast_var_codec_core::save::FileKey;

use crate::Fail;

/// The secret options of the input (and of `convert --encrypt`'s output, unless the `--out-`
/// ones are given).
#[derive(Args, Debug, Default)]
pub struct SecretArgs {
    /// Open an encrypted file (open_encrypted_with_pass, Godot 3's or Godot 4's container: the
    /// dialect's, or either with auto) with this password. Visible to other users in `ps` and
    /// kept in shell history: prefer --password-env, --password-file or the prompt.
    #[arg(long, value_name = "PW", group = "secret")]
    pub password: Option<String>,
    /// The password is the value of this environment variable.
    #[arg(long, value_name = "VAR", group = "secret")]
    pub password_env: Option<String>,
    /// The password is the first line of this file (- for standard input).
    #[arg(long, value_name = "PATH", group = "secret")]
    pub password_file: Option<String>,
    /// Ask for the password on the terminal, without echo. Without any password or key option,
    /// an encrypted input asks for it anyway when standard input is a terminal.
    #[arg(long, group = "secret")]
    pub password_prompt: bool,
    /// Open an encrypted file (open_encrypted) with this 32-byte key (64 hex digits). Visible
    /// in `ps`: prefer --key-file.
    #[arg(long, value_name = "HEX", group = "secret")]
    pub key_hex: Option<String>,
    /// The key is the 64 hex digits of this file.
    #[arg(long, value_name = "PATH", group = "secret")]
    pub key_file: Option<String>,
}

/// The secret options of `convert --encrypt`'s output, when it takes another secret than the
/// input's.
#[derive(Args, Debug, Default)]
pub struct OutSecretArgs {
    /// Encrypt the output with the password in this environment variable.
    #[arg(long, value_name = "VAR", group = "out_secret", requires = "encrypt")]
    pub out_password_env: Option<String>,
    /// Encrypt the output with the password on the first line of this file.
    #[arg(long, value_name = "PATH", group = "out_secret", requires = "encrypt")]
    pub out_password_file: Option<String>,
    /// Ask on the terminal, without echo, for the output's password.
    #[arg(long, group = "out_secret", requires = "encrypt")]
    pub out_password_prompt: bool,
    /// Encrypt the output with the 32-byte key (64 hex digits) of this file.
    #[arg(long, value_name = "PATH", group = "out_secret", requires = "encrypt")]
    pub out_key_file: Option<String>,
}

impl SecretArgs {
    /// The key the options give, `None` when none is given.
    pub fn key(&self) -> Result<Option<FileKey>, Fail> {
        if let Some(p) = &self.password {
            return Ok(Some(FileKey::from_password(p)));
        }
        if let Some(var) = &self.password_env {
            return password_env(var).map(Some);
        }
        if let Some(path) = &self.password_file {
            return password_file(path).map(Some);
        }
        if self.password_prompt {
            return prompt("Password: ").map(Some);
        }
        if let Some(hex) = &self.key_hex {
            return parse_key(hex).map(Some).map_err(Fail::Usage);
        }
        if let Some(path) = &self.key_file {
            return key_file(path).map(Some);
        }
        Ok(None)
    }
}

impl OutSecretArgs {
    /// The output's own key, `None` when none is given.
    pub fn key(&self) -> Result<Option<FileKey>, Fail> {
        if let Some(var) = &self.out_password_env {
            return password_env(var).map(Some);
        }
        if let Some(path) = &self.out_password_file {
            return password_file(path).map(Some);
        }
        if self.out_password_prompt {
            return prompt("Password for the output: ").map(Some);
        }
        if let Some(path) = &self.out_key_file {
            return key_file(path).map(Some);
        }
        Ok(None)
    }
}

/// Asks for the password of an encrypted input when no option gave one and someone is at a
/// terminal to answer; `None` otherwise.
pub fn prompt_if_terminal(path: &str) -> Result<Option<FileKey>, Fail> {
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        prompt(&format!("Password for {path}: ")).map(Some)
    } else {
        Ok(None)
    }
}

fn prompt(text: &str) -> Result<FileKey, Fail> {
    rpassword::prompt_password(text)
        .map(|p| FileKey::from_password(&p))
        .map_err(|e| Fail::Usage(format!("cannot ask for the password (no terminal?): {e}")))
}

fn password_env(var: &str) -> Result<FileKey, Fail> {
    match std::env::var(var) {
        Ok(p) => Ok(FileKey::from_password(&p)),
        Err(e) => Err(Fail::Usage(format!(
            "the password's environment variable {var}: {e}"
        ))),
    }
}

/// The first line of a file (without its line ending), or of standard input for `-`.
fn first_line(path: &str) -> Result<String, Fail> {
    let text = if path == "-" {
        std::io::read_to_string(std::io::stdin().lock())
    } else {
        std::fs::read_to_string(path)
    }
    .map_err(|e| Fail::Usage(format!("cannot read {path}: {e}")))?;
    Ok(text.lines().next().unwrap_or_default().to_string())
}

fn password_file(path: &str) -> Result<FileKey, Fail> {
    first_line(path).map(|p| FileKey::from_password(&p))
}

fn key_file(path: &str) -> Result<FileKey, Fail> {
    let text = if path == "-" {
        first_line(path)?
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| Fail::Usage(format!("cannot read {path}: {e}")))?
    };
    parse_key(&text).map_err(|e| Fail::Usage(format!("{path}: {e}")))
}

/// A 32-byte key from 64 hex digits (whitespace between them ignored).
fn parse_key(s: &str) -> Result<FileKey, String> {
    let digits: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.len() != 64 {
        return Err(format!(
            "a key is 32 bytes, 64 hex digits; got {} digits",
            digits.len()
        ));
    }
    let mut key = [0u8; 32];
    for (byte, pair) in key.iter_mut().zip(digits.chunks(2)) {
        let text: String = pair.iter().collect();
        *byte = u8::from_str_radix(&text, 16).map_err(|_| format!("{text:?} is not hex"))?;
    }
    Ok(FileKey::from_bytes(key))
}
