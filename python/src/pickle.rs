//! Pickling and copying the package's plain values (scores, analyses,
//! solutions, outcomes, cells, recorded games, move values): each is written as JSON with
//! its type's name and read back by `kete._restore`, so that results travel
//! to worker processes and copies are equal to their originals.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::bulk::MoveValues;
use crate::position::{Cell, Outcome};
use crate::records::{RecordedGame, RecordedMove};
use crate::results::{Analysis, Line, Score, Solution};

/// `(kete._restore, (name, json))`: what `__reduce__` returns for `value`.
pub fn reduce<'py, T: Serialize>(
    py: Python<'py>,
    name: &str,
    value: &T,
) -> PyResult<Bound<'py, PyTuple>> {
    let text = serde_json::to_string(value)
        .map_err(|e| PyValueError::new_err(format!("cannot pickle a kete.{name}: {e}")))?;
    let restore = py.import("kete")?.getattr("_restore")?;
    PyTuple::new(
        py,
        [
            restore.into_any(),
            (name, text).into_pyobject(py)?.into_any(),
        ],
    )
}

fn read<T: DeserializeOwned>(name: &str, text: &str) -> PyResult<T> {
    serde_json::from_str(text)
        .map_err(|e| PyValueError::new_err(format!("cannot unpickle a kete.{name}: {e}")))
}

/// Reads back a value that `__reduce__` wrote (`name`: its type).
#[pyfunction]
pub fn _restore(py: Python<'_>, name: &str, text: &str) -> PyResult<Py<PyAny>> {
    Ok(match name {
        "Score" => Py::new(py, read::<Score>(name, text)?)?.into_any(),
        "Line" => Py::new(py, read::<Line>(name, text)?)?.into_any(),
        "Analysis" => Py::new(py, read::<Analysis>(name, text)?)?.into_any(),
        "Solution" => Py::new(py, read::<Solution>(name, text)?)?.into_any(),
        "Outcome" => Py::new(py, read::<Outcome>(name, text)?)?.into_any(),
        "Cell" => Py::new(py, read::<Cell>(name, text)?)?.into_any(),
        "RecordedMove" => Py::new(py, read::<RecordedMove>(name, text)?)?.into_any(),
        "RecordedGame" => Py::new(py, read::<RecordedGame>(name, text)?)?.into_any(),
        "VectorGames" => Py::new(
            py,
            crate::vector::restore(text).map_err(|e| {
                PyValueError::new_err(format!("cannot unpickle a kete.VectorGames: {e}"))
            })?,
        )?
        .into_any(),
        "MoveValues" => Py::new(py, read::<MoveValues>(name, text)?)?.into_any(),
        other => {
            return Err(PyValueError::new_err(format!(
                "cannot unpickle a kete.{other}: no such value type"
            )));
        }
    })
}
