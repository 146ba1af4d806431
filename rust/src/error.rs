//! The one error type of the compute modules: input that a kernel refuses, with a message
//! naming the argument. The Python binding turns it into a `ValueError`.

use std::fmt;

/// Input a kernel cannot work on (a bad offset, an id out of range, a size mismatch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError(pub String);

impl InputError {
    pub fn new(msg: impl Into<String>) -> Self {
        InputError(msg.into())
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// The result of a checked kernel call.
pub type Checked<T> = Result<T, InputError>;

/// `Err(InputError(msg))` unless `ok`.
pub fn ensure(ok: bool, msg: impl FnOnce() -> String) -> Checked<()> {
    if ok {
        Ok(())
    } else {
        Err(InputError(msg()))
    }
}
