//! dbcore's serde values as plain Python data, built straight from the Rust values: the same
//! dicts, lists, numbers, strings and None that `json.loads` of dbcore's JSON gives (a tuple is a
//! list, a map key a string, an enum spelled as serde's JSON spells it), in the order of dbcore's
//! fields, without writing JSON text and parsing it back (#41: that was 62 % of a Python loop).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use serde::ser::{self, Serialize};

/// Why a value could not be made.
#[derive(Debug)]
pub struct ToPyError(String);

impl std::fmt::Display for ToPyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ToPyError {}

impl ser::Error for ToPyError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        ToPyError(msg.to_string())
    }
}

impl From<std::convert::Infallible> for ToPyError {
    fn from(e: std::convert::Infallible) -> Self {
        match e {}
    }
}

impl From<PyErr> for ToPyError {
    fn from(e: PyErr) -> Self {
        ToPyError(e.to_string())
    }
}

type Out<'py> = Result<Bound<'py, PyAny>, ToPyError>;

/// `v` as plain Python data.
pub fn to_python<'py, T: Serialize + ?Sized>(py: Python<'py>, v: &T) -> Out<'py> {
    v.serialize(ToPy { py })
}

#[derive(Clone, Copy)]
struct ToPy<'py> {
    py: Python<'py>,
}

/// A list being filled (a sequence, tuple or tuple struct), maybe inside a one-key dict (a tuple
/// variant).
struct Seq<'py> {
    py: Python<'py>,
    items: Vec<Bound<'py, PyAny>>,
    variant: Option<&'static str>,
}

/// A dict being filled (a map or struct), maybe inside a one-key dict (a struct variant).
struct Map<'py> {
    py: Python<'py>,
    dict: Bound<'py, PyDict>,
    key: Option<Bound<'py, PyAny>>,
    variant: Option<&'static str>,
}

fn tagged<'py>(py: Python<'py>, variant: &'static str, inner: Bound<'py, PyAny>) -> Out<'py> {
    let d = PyDict::new(py);
    d.set_item(variant, inner)?;
    Ok(d.into_any())
}

impl<'py> ser::Serializer for ToPy<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ToPyError;
    type SerializeSeq = Seq<'py>;
    type SerializeTuple = Seq<'py>;
    type SerializeTupleStruct = Seq<'py>;
    type SerializeTupleVariant = Seq<'py>;
    type SerializeMap = Map<'py>;
    type SerializeStruct = Map<'py>;
    type SerializeStructVariant = Map<'py>;

    fn serialize_bool(self, v: bool) -> Out<'py> {
        Ok(v.into_pyobject(self.py)?.to_owned().into_any())
    }
    fn serialize_i8(self, v: i8) -> Out<'py> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Out<'py> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Out<'py> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Out<'py> {
        Ok(v.into_pyobject(self.py)?.into_any())
    }
    fn serialize_u8(self, v: u8) -> Out<'py> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Out<'py> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Out<'py> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Out<'py> {
        Ok(v.into_pyobject(self.py)?.into_any())
    }
    fn serialize_f32(self, v: f32) -> Out<'py> {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Out<'py> {
        // JSON has no NaN or infinity: serde_json writes them as null, and so does this.
        if v.is_finite() {
            Ok(v.into_pyobject(self.py)?.into_any())
        } else {
            Ok(self.py.None().into_bound(self.py))
        }
    }
    fn serialize_char(self, v: char) -> Out<'py> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Out<'py> {
        Ok(PyString::new(self.py, v).into_any())
    }
    fn serialize_bytes(self, v: &[u8]) -> Out<'py> {
        // As serde_json: a list of numbers.
        Ok(PyList::new(self.py, v)?.into_any())
    }
    fn serialize_none(self) -> Out<'py> {
        Ok(self.py.None().into_bound(self.py))
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Out<'py> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Out<'py> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _: &'static str) -> Out<'py> {
        self.serialize_none()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Out<'py> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, v: &T) -> Out<'py> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Out<'py> {
        let inner = v.serialize(self)?;
        tagged(self.py, variant, inner)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq<'py>, ToPyError> {
        Ok(Seq {
            py: self.py,
            items: Vec::with_capacity(len.unwrap_or(0)),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq<'py>, ToPyError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Seq<'py>, ToPyError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Seq<'py>, ToPyError> {
        let mut s = self.serialize_seq(Some(len))?;
        s.variant = Some(variant);
        Ok(s)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Map<'py>, ToPyError> {
        Ok(Map {
            py: self.py,
            dict: PyDict::new(self.py),
            key: None,
            variant: None,
        })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Map<'py>, ToPyError> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Map<'py>, ToPyError> {
        let mut m = self.serialize_map(None)?;
        m.variant = Some(variant);
        Ok(m)
    }
}

impl<'py> Seq<'py> {
    fn push<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), ToPyError> {
        self.items.push(v.serialize(ToPy { py: self.py })?);
        Ok(())
    }
    fn finish(self) -> Out<'py> {
        let list = PyList::new(self.py, self.items)?.into_any();
        match self.variant {
            Some(v) => tagged(self.py, v, list),
            None => Ok(list),
        }
    }
}

impl<'py> ser::SerializeSeq for Seq<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ToPyError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), ToPyError> {
        self.push(v)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeTuple for Seq<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ToPyError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), ToPyError> {
        self.push(v)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeTupleStruct for Seq<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ToPyError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), ToPyError> {
        self.push(v)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeTupleVariant for Seq<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ToPyError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), ToPyError> {
        self.push(v)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> Map<'py> {
    fn finish(self) -> Out<'py> {
        let d = self.dict.into_any();
        match self.variant {
            Some(v) => tagged(self.py, v, d),
            None => Ok(d),
        }
    }
    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, v: &T) -> Result<(), ToPyError> {
        let value = v.serialize(ToPy { py: self.py })?;
        self.dict.set_item(key, value)?;
        Ok(())
    }
}

impl<'py> ser::SerializeMap for Map<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ToPyError;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), ToPyError> {
        let k = key.serialize(ToPy { py: self.py })?;
        // JSON keys are strings: serde_json writes a number key as its digits.
        let k = if k.is_instance_of::<PyString>() {
            k
        } else {
            k.str()?.into_any()
        };
        self.key = Some(k);
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, v: &T) -> Result<(), ToPyError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| ToPyError("a map value without its key".into()))?;
        let value = v.serialize(ToPy { py: self.py })?;
        self.dict.set_item(key, value)?;
        Ok(())
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeStruct for Map<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ToPyError;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), ToPyError> {
        self.field(key, v)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeStructVariant for Map<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = ToPyError;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), ToPyError> {
        self.field(key, v)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}
