//! kete for Python: the extension module `kete._kete`, which the package
//! `kete` (python/kete/__init__.py) re-exports.
//!
//! It wraps the engine crate and implements no rule, search or drawing of
//! its own. A variant chosen at run time becomes a trait object
//! ([`position::DynPos`]) built once through the registry
//! ([`kete::variants::Variant::visit_board`], with what the solver can do
//! with the game from [`kete::variants::Variant::visit_solver`]); every
//! method of a position is then one call into the generic library code.
//!
//! Nothing panics across the boundary: bad input comes back as the
//! exceptions below, with kete's own message, and the long calls (search,
//! solve, perft, an external engine's `go`) run without the GIL in a thread
//! of their own while the calling thread watches for `Ctrl-C`
//! ([`interrupt::run`]).

mod bulk;
mod core;
mod engine;
mod interrupt;
mod pickle;
mod position;
mod records;
mod results;
mod ugi;
mod vector;

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

create_exception!(
    kete,
    KeteValueError,
    PyValueError,
    "Bad input to kete: the base of kete's ValueError subclasses."
);
create_exception!(
    kete,
    UnknownVariantError,
    KeteValueError,
    "A variant name kete does not know."
);
create_exception!(
    kete,
    OptionError,
    KeteValueError,
    "An unknown option, or a value an option does not take."
);
create_exception!(
    kete,
    NotationError,
    KeteValueError,
    "A position token that could not be read."
);
create_exception!(
    kete,
    MoveError,
    KeteValueError,
    "A move that cannot be played: the base of the three below."
);
create_exception!(
    kete,
    InvalidMoveError,
    MoveError,
    "A text that is not a move of the variant at all."
);
create_exception!(
    kete,
    IllegalMoveError,
    MoveError,
    "A move the rules forbid in the position."
);
create_exception!(
    kete,
    GameOverError,
    MoveError,
    "A move asked for after the game ended."
);
create_exception!(
    kete,
    UnsolvableError,
    KeteValueError,
    "A position the exact solver cannot take (its variant, or a finished game)."
);
create_exception!(
    kete,
    RecordError,
    KeteValueError,
    "A game record that cannot be read or replayed."
);
create_exception!(
    kete,
    EngineError,
    PyRuntimeError,
    "An external engine failed by the arena's rules: it did not start or answer its handshake, crashed, ran out of time or sent an illegal move (`termination` says which)."
);

/// `value` as a whole number in `min..=max`, or an `OptionError` naming
/// `what` (Python's ints are checked here rather than by their conversion,
/// so that a negative or huge one is a `ValueError` like any bad input).
pub fn whole(what: &str, value: i64, min: i64, max: i64) -> PyResult<i64> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(OptionError::new_err(format!(
            "{what} {value} is out of range {min}..{max}"
        )))
    }
}

/// A Python value as an option's text: `True` → `true`, `None` →
/// `<empty>`, a path → its text.
pub fn option_text(val: &Bound<'_, PyAny>) -> PyResult<String> {
    if val.is_none() {
        return Ok(kete::protocol::options::EMPTY.to_string());
    }
    if let Ok(b) = val.extract::<bool>() {
        return Ok(b.to_string());
    }
    Ok(val.str()?.to_string())
}

/// [`whole`] for an optional value.
pub fn whole_opt(what: &str, value: Option<i64>, min: i64, max: i64) -> PyResult<Option<i64>> {
    value.map(|v| whole(what, v, min, max)).transpose()
}

/// The extension module.
#[pymodule]
fn _kete(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add(
        "VARIANTS",
        kete::variants::variant_names()
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
    )?;
    for (name, ty) in [
        ("KeteValueError", py.get_type::<KeteValueError>()),
        ("UnknownVariantError", py.get_type::<UnknownVariantError>()),
        ("OptionError", py.get_type::<OptionError>()),
        ("NotationError", py.get_type::<NotationError>()),
        ("MoveError", py.get_type::<MoveError>()),
        ("InvalidMoveError", py.get_type::<InvalidMoveError>()),
        ("IllegalMoveError", py.get_type::<IllegalMoveError>()),
        ("GameOverError", py.get_type::<GameOverError>()),
        ("UnsolvableError", py.get_type::<UnsolvableError>()),
        ("RecordError", py.get_type::<RecordError>()),
        ("EngineError", py.get_type::<EngineError>()),
    ] {
        m.add(name, ty)?;
    }
    m.add_class::<position::Position>()?;
    m.add_class::<position::PyGame>()?;
    m.add_class::<position::Outcome>()?;
    m.add_class::<position::Cell>()?;
    m.add_class::<vector::VectorGames>()?;
    m.add_class::<results::Score>()?;
    m.add_class::<results::Line>()?;
    m.add_class::<results::Analysis>()?;
    m.add_class::<results::Solution>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<ugi::UgiEngine>()?;
    m.add_class::<records::RecordedGame>()?;
    m.add_class::<records::RecordedMove>()?;
    m.add_function(wrap_pyfunction!(records::read_games, m)?)?;
    m.add_class::<records::GameWriter>()?;
    m.add_function(wrap_pyfunction!(records::write_games, m)?)?;
    m.add_class::<bulk::MoveValues>()?;
    m.add_function(wrap_pyfunction!(bulk::analyse_many, m)?)?;
    m.add_function(wrap_pyfunction!(bulk::solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(pickle::_restore, m)?)?;
    m.add_function(wrap_pyfunction!(position::variant_options, m)?)?;
    Ok(())
}
