//! A protocol message's JSON text made into Python values (dicts, lists, texts, numbers, `None`)
//! as `json.loads` makes them, but read by serde_json straight into Python's objects: no Python
//! code runs. With `json.loads` the reading was two thirds of an in-process decision of a trivial
//! hold'em bot (4.5 µs of a 7 µs median; 27 µs for a gomoku message of 225 legal moves).
//!
//! Short texts (keys, action texts, cards, a board's rows) come from a cache of the process
//! instead of being made anew each message: a message is mostly the same few texts over again.
//! They are interned, as the names in a bot's code are, so `message["legal"]` finds its key by
//! identity.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

/// Texts up to this many bytes are cached.
const SHORT: usize = 24;
/// At most this many texts are cached (hold'em's raise sizes alone are thousands of texts): past
/// it a text is made anew.
const ENTRIES: usize = 16_384;

/// Texts by their value.
type Texts = HashMap<Box<str>, Py<PyString>, foldhash::fast::RandomState>;

thread_local! {
    /// The cached texts of the thread's messages. One per thread, not one behind a lock: making
    /// a Python object may run a finalizer that lets another thread take the GIL, and that thread
    /// would then wait for the lock held by this one, which waits for the GIL.
    static TEXTS: RefCell<Texts> = RefCell::new(Texts::default());
}

/// The message's Python value (a dict, for the protocol's messages).
pub fn read(py: Python<'_>, text: &str) -> PyResult<PyObject> {
    TEXTS.with(|texts| {
        // A finalizer run on this thread while it reads (it calls no bot of a run) finds the
        // cache in use: its message is read without it.
        let mut none = Texts::default();
        let mut cached = texts.try_borrow_mut();
        let texts = cached.as_deref_mut().unwrap_or(&mut none);
        let mut reader = serde_json::Deserializer::from_str(text);
        let value = Value { py, texts }
            .deserialize(&mut reader)
            .and_then(|value| reader.end().map(|()| value))
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("a message that is not JSON: {e}")))?;
        Ok(value.unbind())
    })
}

/// A text: the cached one, or a new one.
fn text<'py>(py: Python<'py>, texts: &mut Texts, s: &str) -> Bound<'py, PyString> {
    if s.len() > SHORT {
        return PyString::new(py, s);
    }
    if let Some(cached) = texts.get(s) {
        return cached.bind(py).clone();
    }
    if texts.len() >= ENTRIES {
        return PyString::new(py, s);
    }
    let made = PyString::intern(py, s);
    texts.insert(s.into(), made.clone().unbind());
    made
}

/// Reads one JSON value into a Python value.
struct Value<'py, 'c> {
    py: Python<'py>,
    texts: &'c mut Texts,
}

fn failed<E: de::Error>(e: PyErr) -> E {
    E::custom(e)
}

impl<'de, 'py> DeserializeSeed<'de> for Value<'py, '_> {
    type Value = Bound<'py, PyAny>;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, 'py> Visitor<'de> for Value<'py, '_> {
    type Value = Bound<'py, PyAny>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(self.py.None().into_bound(self.py))
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Self::Value, E> {
        Ok(pyo3::types::PyBool::new(self.py, b).to_owned().into_any())
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Self::Value, E> {
        let Ok(n) = n.into_pyobject(self.py);
        Ok(n.into_any())
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Self::Value, E> {
        let Ok(n) = n.into_pyobject(self.py);
        Ok(n.into_any())
    }

    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Self::Value, E> {
        Ok(pyo3::types::PyFloat::new(self.py, x).into_any())
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        Ok(text(self.py, self.texts, s).into_any())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(Value { py: self.py, texts: &mut *self.texts })? {
            items.push(item);
        }
        PyList::new(self.py, items).map(Bound::into_any).map_err(failed)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let dict = PyDict::new(self.py);
        while let Some(key) = map.next_key_seed(Value { py: self.py, texts: &mut *self.texts })? {
            let value = map.next_value_seed(Value { py: self.py, texts: &mut *self.texts })?;
            dict.set_item(key, value).map_err(failed)?;
        }
        Ok(dict.into_any())
    }
}
