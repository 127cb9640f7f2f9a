//! `multiexp._native`: the Python bindings of the multiexp library.
//!
//! The Python package (`python/multiexp/__init__.py`) turns whatever a caller holds (bytes,
//! hex text, numpy arrays, lists of ints, files) into the few shapes this module takes: raw
//! point records or hex text, scalar records, 64-bit integer records, or a list of ints. Every
//! curve/group of the library's catalogue is reachable by name; points are decoded and checked
//! once into a [`Bases`] object that keeps them resident, and each MSM releases the GIL while
//! it runs. Errors are the library's own, raised as the typed exceptions of the package with
//! the input's name, the index of the bad element and where it is.

// The methods Python calls take its keyword arguments one by one.
#![allow(clippy::too_many_arguments)]

use std::any::Any;
use std::time::Instant;

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{BigInteger, PrimeField, Zero};
use multiexp::curves::{CurveSpec, CurveVisitor};
use multiexp::input::{
    self, Endianness, InputErrorKind, Location, PointEncoding, PointOptions, ScalarOptions,
};
use multiexp::precomputed::PrecomputedBases;
use multiexp::{Config, Error};
use pyo3::create_exception;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

create_exception!(
    multiexp,
    MultiexpError,
    PyValueError,
    "Every error multiexp raises: a ValueError carrying the library's message."
);
create_exception!(
    multiexp,
    InputError,
    MultiexpError,
    "An input that cannot be used; `input`, `index`, `line`, `byte` and `kind` say where and what."
);
create_exception!(
    multiexp,
    PointError,
    InputError,
    "A point input that cannot be used: malformed, not canonical, not on the curve, not in the subgroup."
);
create_exception!(
    multiexp,
    ScalarError,
    InputError,
    "A scalar input that cannot be used: malformed, or not below the group order r."
);
create_exception!(
    multiexp,
    LengthMismatchError,
    MultiexpError,
    "Points and scalars of different lengths."
);
create_exception!(
    multiexp,
    UnknownCurveError,
    MultiexpError,
    "A curve/group name outside the catalogue (multiexp.curves())."
);
create_exception!(
    multiexp,
    TableFileError,
    MultiexpError,
    "A precomputed table that cannot be read back."
);

/// What went wrong, before it becomes a Python exception (built without the GIL).
enum Failure {
    /// The library's own error.
    Library(Error),
    /// A bad element of a point or scalar input; `width`: bytes per record of a raw input,
    /// which turns a byte offset into an index.
    Input {
        error: input::InputError,
        points: bool,
        width: Option<usize>,
    },
    /// A scalar given as a Python int outside (−r, r).
    ScalarInt { input: String, index: usize },
    /// An argument of the wrong value.
    Value(String),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Library(e)
    }
}

/// The name of an input error's kind, e.g. `NotInSubgroup`.
fn kind_name(kind: &InputErrorKind) -> String {
    let debug = format!("{kind:?}");
    debug
        .split([' ', '{', '('])
        .next()
        .unwrap_or_default()
        .to_string()
}

impl Failure {
    fn into_py(self, py: Python<'_>) -> PyErr {
        match self {
            Failure::Library(e) => {
                let message = e.to_string();
                match e {
                    Error::LengthMismatch { .. } | Error::PlanSize { .. } => {
                        LengthMismatchError::new_err(message)
                    }
                    Error::UnknownCurve { .. } => UnknownCurveError::new_err(message),
                    Error::TableFile { .. } => TableFileError::new_err(message),
                    _ => MultiexpError::new_err(message),
                }
            }
            Failure::Input {
                error,
                points,
                width,
            } => {
                let (line, byte) = match error.location {
                    Location::Line(l) => (Some(l), None),
                    Location::Byte(b) => (None, Some(b)),
                    _ => (None, None),
                };
                let index = match (byte, width) {
                    (Some(b), Some(w)) if w > 0 => Some(b as usize / w),
                    _ => None,
                };
                let mut message = error.to_string();
                if let Some(i) = index {
                    message.push_str(&format!(" (element {i}, counted from 0)"));
                }
                let err = if points {
                    PointError::new_err(message)
                } else {
                    ScalarError::new_err(message)
                };
                let value = err.value(py);
                let _ = value.setattr("input", error.input.as_str());
                let _ = value.setattr("index", index);
                let _ = value.setattr("line", line);
                let _ = value.setattr("byte", byte);
                let _ = value.setattr("kind", kind_name(&error.kind));
                err
            }
            Failure::ScalarInt { input, index } => {
                let err = ScalarError::new_err(format!(
                    "{input}: element {index} (counted from 0) is not in (-r, r): not a \
                     canonical scalar (pass reduce=True to reduce it mod r)"
                ));
                let value = err.value(py);
                let _ = value.setattr("input", input.as_str());
                let _ = value.setattr("index", Some(index));
                let _ = value.setattr("line", None::<usize>);
                let _ = value.setattr("byte", None::<u64>);
                let _ = value.setattr("kind", "ScalarOutOfRange");
                err
            }
            Failure::Value(m) => PyValueError::new_err(m),
        }
    }
}

type Outcome<T> = Result<T, Failure>;

/// Runs `f` on the curve/group called `name` (a [`CurveVisitor`]).
fn visit<V: CurveVisitor<Output = Outcome<T>>, T>(name: &str, v: V) -> Outcome<T> {
    multiexp::curves::visit(name, v)?
}

// ---------------------------------------------------------------------------------------------
// Inputs as the package hands them over.

/// A point input: raw records of one encoding, hex lines, or arkworks' length-prefixed binary.
enum PointData {
    Records {
        bytes: PyBackedBytes,
        encoding: Option<PointEncoding>,
        compressed: Option<bool>,
    },
    Hex(String),
    Arkworks {
        bytes: PyBackedBytes,
        compressed: Option<bool>,
    },
}

/// One scalar given as a Python int: its magnitude and sign.
enum IntScalar {
    Small(u64, bool),
    /// Little-endian magnitude of 64 bytes (ints of up to 512 bits; larger ones are out of
    /// range on every curve).
    Big(Vec<u8>, bool),
    /// Beyond 512 bits.
    Huge,
}

/// A scalar input.
enum ScalarData {
    Records(PyBackedBytes, Endianness),
    /// 8-byte little-endian integers, signed or not (numpy int64/uint64 arrays).
    Words(PyBackedBytes, bool),
    Ints(Vec<IntScalar>),
}

fn encoding_of(name: Option<&str>) -> Outcome<Option<PointEncoding>> {
    match name {
        None | Some("standard") => Ok(None),
        Some("zcash") => Ok(Some(PointEncoding::Zcash)),
        Some("arkworks") => Ok(Some(PointEncoding::Arkworks)),
        Some(other) => Err(Failure::Value(format!(
            "unknown point encoding {other:?}: expected 'standard', 'zcash' or 'arkworks'"
        ))),
    }
}

fn endianness_of(name: &str) -> Outcome<Endianness> {
    match name {
        "little" => Ok(Endianness::Little),
        "big" => Ok(Endianness::Big),
        other => Err(Failure::Value(format!(
            "unknown byte order {other:?}: expected 'little' or 'big'"
        ))),
    }
}

/// Reads a list of Python ints (or anything `int()` accepts without loss: bools, numpy
/// integers) into magnitudes and signs, with the GIL held.
fn int_scalars(list: &Bound<'_, PyAny>) -> PyResult<Vec<IntScalar>> {
    let py = list.py();
    let zero = 0i64.into_pyobject(py)?;
    let mut out = Vec::with_capacity(list.len().unwrap_or(0));
    for (i, item) in list.try_iter()?.enumerate() {
        let item = item?;
        if let Ok(v) = item.extract::<u64>() {
            out.push(IntScalar::Small(v, false));
            continue;
        }
        if let Ok(v) = item.extract::<i64>() {
            out.push(IntScalar::Small(v.unsigned_abs(), v < 0));
            continue;
        }
        let int = match item.call_method0("__index__") {
            Ok(int) => int,
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "scalar {i} (counted from 0) is a {}, not an int",
                    item.get_type().name()?
                )))
            }
        };
        let negative = int.lt(&zero)?;
        let magnitude = int.call_method0("__abs__")?;
        match magnitude.call_method1("to_bytes", (64, "little")) {
            Ok(bytes) => out.push(IntScalar::Big(bytes.extract::<Vec<u8>>()?, negative)),
            Err(e) if e.is_instance_of::<PyOverflowError>(py) => out.push(IntScalar::Huge),
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

fn point_data(
    data: &Bound<'_, PyAny>,
    kind: &str,
    encoding: Option<&str>,
    compressed: Option<bool>,
) -> PyResult<PointData> {
    let encoding = encoding_of(encoding).map_err(|f| f.into_py(data.py()))?;
    match kind {
        "records" => Ok(PointData::Records {
            bytes: data.extract()?,
            encoding,
            compressed,
        }),
        "hex" => {
            if let Ok(s) = data.cast::<PyString>() {
                Ok(PointData::Hex(s.to_str()?.to_string()))
            } else {
                let bytes: PyBackedBytes = data.extract()?;
                Ok(PointData::Hex(String::from_utf8_lossy(&bytes).into_owned()))
            }
        }
        "arkworks" => Ok(PointData::Arkworks {
            bytes: data.extract()?,
            compressed,
        }),
        other => Err(PyValueError::new_err(format!(
            "unknown point format {other:?}: expected 'records', 'hex' or 'arkworks'"
        ))),
    }
}

fn scalar_data(data: &Bound<'_, PyAny>, kind: &str, endianness: &str) -> PyResult<ScalarData> {
    let py = data.py();
    match kind {
        "records" => Ok(ScalarData::Records(
            data.extract()?,
            endianness_of(endianness).map_err(|f| f.into_py(py))?,
        )),
        "i64" => Ok(ScalarData::Words(data.extract()?, true)),
        "u64" => Ok(ScalarData::Words(data.extract()?, false)),
        "ints" => Ok(ScalarData::Ints(int_scalars(data)?)),
        other => Err(PyValueError::new_err(format!(
            "unknown scalar format {other:?}: expected 'records', 'i64', 'u64' or 'ints'"
        ))),
    }
}

fn decode_points<P: SWCurveConfig>(
    name: &str,
    data: &PointData,
    subgroup_check: bool,
) -> Outcome<Vec<Affine<P>>> {
    let options = PointOptions {
        subgroup_check,
        ..PointOptions::default()
    };
    let fail = |error, width| Failure::Input {
        error,
        points: true,
        width,
    };
    match data {
        PointData::Records {
            bytes,
            encoding,
            compressed,
        } => {
            let encoding = encoding.unwrap_or_else(PointEncoding::standard::<P>);
            let small = input::point_size::<P>(encoding, true);
            let large = input::point_size::<P>(encoding, false);
            let decode = |c: bool| {
                input::points_from_records::<P>(name, bytes, encoding, Some(c), &options)
                    .map_err(|e| (e, if c { small } else { large }))
            };
            let len = bytes.len();
            if len == 0 {
                return Ok(Vec::new());
            }
            let result = match compressed {
                Some(c) => decode(*c),
                None => match (len.is_multiple_of(small), len.is_multiple_of(large)) {
                    (true, false) => decode(true),
                    (false, true) => decode(false),
                    (false, false) => decode(true),
                    (true, true) if encoding == PointEncoding::Zcash => {
                        decode(bytes[0] & 0x80 != 0)
                    }
                    // arkworks' encoding has no compression bit: records read with the wrong
                    // width fail at once (an uncompressed x, y pair is almost never a valid
                    // compressed point twice; two compressed x's never satisfy the curve
                    // equation), so try uncompressed, then compressed, and report the error
                    // of the reading that got further.
                    (true, true) => decode(false).or_else(|(e_large, w_large)| {
                        decode(true).map_err(|(e_small, w_small)| {
                            let at = |e: &input::InputError| match e.location {
                                Location::Byte(b) => b,
                                _ => 0,
                            };
                            if at(&e_large) > at(&e_small) {
                                (e_large, w_large)
                            } else {
                                (e_small, w_small)
                            }
                        })
                    }),
                },
            };
            result.map_err(|(e, width)| fail(e, Some(width)))
        }
        PointData::Hex(text) => {
            if text.trim().is_empty() {
                return Ok(Vec::new());
            }
            input::points_from_hex::<P>(name, text.as_bytes(), &options).map_err(|e| fail(e, None))
        }
        PointData::Arkworks { bytes, compressed } => {
            input::points_from_binary::<P>(name, bytes, *compressed, &options)
                .map_err(|e| fail(e, None))
        }
    }
}

fn decode_scalars<F: PrimeField>(name: &str, data: &ScalarData, reduce: bool) -> Outcome<Vec<F>> {
    match data {
        ScalarData::Records(bytes, endianness) => {
            let options = ScalarOptions {
                reduce,
                ..ScalarOptions::default()
            };
            input::scalars_from_records::<F>(name, bytes, *endianness, &options).map_err(|error| {
                Failure::Input {
                    error,
                    points: false,
                    width: Some(input::scalar_size::<F>()),
                }
            })
        }
        ScalarData::Words(bytes, signed) => {
            if !bytes.len().is_multiple_of(8) {
                return Err(Failure::Value(format!(
                    "{name}: {} bytes is not a whole number of 8-byte integers",
                    bytes.len()
                )));
            }
            Ok(bytes
                .chunks_exact(8)
                .map(|w| {
                    let w: [u8; 8] = w.try_into().expect("8 bytes");
                    if *signed {
                        let v = i64::from_le_bytes(w);
                        let m = F::from(v.unsigned_abs());
                        if v < 0 {
                            -m
                        } else {
                            m
                        }
                    } else {
                        F::from(u64::from_le_bytes(w))
                    }
                })
                .collect())
        }
        ScalarData::Ints(ints) => ints
            .iter()
            .enumerate()
            .map(|(index, s)| {
                let value = match s {
                    IntScalar::Small(v, negative) => {
                        let m = F::from(*v);
                        Some(if *negative { -m } else { m })
                    }
                    IntScalar::Big(le, negative) => input::scalar_from_le::<F>(le, reduce)
                        .ok()
                        .map(|v| if *negative { -v } else { v }),
                    IntScalar::Huge => None,
                };
                value.ok_or(Failure::ScalarInt {
                    input: name.to_string(),
                    index,
                })
            })
            .collect(),
    }
}

fn config(threads: Option<usize>) -> Config {
    Config {
        threads,
        ..Config::default()
    }
}

fn encode<P: SWCurveConfig>(q: &Projective<P>, compressed: bool) -> Vec<u8> {
    input::encode_point(&q.into_affine(), PointEncoding::standard::<P>(), compressed)
}

// ---------------------------------------------------------------------------------------------
// Bases: points decoded and checked once, resident.

/// Points of one curve/group, decoded and checked once and kept for any number of MSMs.
#[pyclass(module = "multiexp._native", frozen)]
struct Bases {
    curve: &'static str,
    n: usize,
    /// `Vec<Affine<P>>` of the curve's config `P`.
    points: Box<dyn Any + Send + Sync>,
}

impl Bases {
    fn points<P: SWCurveConfig>(&self) -> &[Affine<P>] {
        self.points
            .downcast_ref::<Vec<Affine<P>>>()
            .expect("the curve name selects the type the points were stored as")
    }
}

struct Decode<'a> {
    name: &'a str,
    data: &'a PointData,
    subgroup_check: bool,
}

impl CurveVisitor for Decode<'_> {
    type Output = Outcome<Bases>;
    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> Self::Output {
        let points = decode_points::<P>(self.name, self.data, self.subgroup_check)?;
        Ok(Bases {
            curve: spec.name,
            n: points.len(),
            points: Box::new(points),
        })
    }
}

/// What an MSM runs over: resident points or a table of their multiples.
#[derive(Clone, Copy)]
enum Target<'a> {
    Bases(&'a Bases),
    Table(&'a Precomputed),
}

impl Target<'_> {
    fn curve(&self) -> &'static str {
        match self {
            Target::Bases(b) => b.curve,
            Target::Table(t) => t.curve,
        }
    }
}

struct Msm<'a> {
    target: Target<'a>,
    scalars: &'a [ScalarData],
    names: &'a [String],
    reduce: bool,
    threads: Option<usize>,
    compressed: bool,
}

impl CurveVisitor for Msm<'_> {
    type Output = Outcome<Vec<Vec<u8>>>;
    fn visit<P: SWCurveConfig>(self, _: &CurveSpec) -> Self::Output {
        let vectors = self
            .scalars
            .iter()
            .zip(self.names)
            .map(|(s, name)| decode_scalars::<P::ScalarField>(name, s, self.reduce))
            .collect::<Outcome<Vec<_>>>()?;
        let refs: Vec<&[P::ScalarField]> = vectors.iter().map(Vec::as_slice).collect();
        let config = config(self.threads);
        let sums = match (self.target, refs.as_slice()) {
            (Target::Bases(b), [one]) => vec![multiexp::msm_with(b.points::<P>(), one, &config)?],
            (Target::Bases(b), _) => multiexp::msm_many_with(b.points::<P>(), &refs, &config)?,
            (Target::Table(t), [one]) => vec![t.table::<P>().msm_with(one, &config)?],
            (Target::Table(t), _) => t.table::<P>().msm_many_with(&refs, &config)?,
        };
        Ok(sums.iter().map(|q| encode(q, self.compressed)).collect())
    }
}

/// Σ sᵢ·Pᵢ over `target` for each scalar vector, encoded; the GIL released while the
/// scalars are decoded and the MSMs run.
fn run_msm<'py>(
    py: Python<'py>,
    target: Target<'_>,
    vectors: &Bound<'py, PyList>,
    kind: &str,
    endianness: &str,
    reduce: bool,
    threads: Option<usize>,
    compressed: bool,
) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    let (data, names) = scalar_inputs(vectors, kind, endianness)?;
    if data.is_empty() {
        return Ok(Vec::new());
    }
    let visitor = Msm {
        target,
        scalars: &data,
        names: &names,
        reduce,
        threads,
        compressed,
    };
    let sums = py
        .detach(|| visit(target.curve(), visitor))
        .map_err(|f| f.into_py(py))?;
    Ok(sums.iter().map(|s| PyBytes::new(py, s)).collect())
}

struct Encode<'a> {
    bases: &'a Bases,
    compressed: bool,
    start: usize,
    end: usize,
}

impl CurveVisitor for Encode<'_> {
    type Output = Outcome<Vec<u8>>;
    fn visit<P: SWCurveConfig>(self, _: &CurveSpec) -> Self::Output {
        let points = &self.bases.points::<P>()[self.start..self.end];
        let encoding = PointEncoding::standard::<P>();
        let size = input::point_size::<P>(encoding, self.compressed);
        let mut out = Vec::with_capacity(size * points.len());
        for p in points {
            out.extend(input::encode_point(p, encoding, self.compressed));
        }
        Ok(out)
    }
}

struct Slice<'a> {
    bases: &'a Bases,
    start: usize,
    end: usize,
}

impl CurveVisitor for Slice<'_> {
    type Output = Outcome<Bases>;
    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> Self::Output {
        let points = self.bases.points::<P>()[self.start..self.end].to_vec();
        Ok(Bases {
            curve: spec.name,
            n: points.len(),
            points: Box::new(points),
        })
    }
}

fn scalar_inputs(
    vectors: &Bound<'_, PyList>,
    kind: &str,
    endianness: &str,
) -> PyResult<(Vec<ScalarData>, Vec<String>)> {
    let mut data = Vec::with_capacity(vectors.len());
    let mut names = Vec::with_capacity(vectors.len());
    let many = vectors.len() > 1;
    for (k, v) in vectors.iter().enumerate() {
        data.push(scalar_data(&v, kind, endianness)?);
        names.push(if many {
            format!("scalars[{k}]")
        } else {
            "scalars".to_string()
        });
    }
    Ok((data, names))
}

#[pymethods]
impl Bases {
    /// Decodes and checks `data` as points of `curve`. `kind`: `records` (raw records, no
    /// prefix), `hex` (hex lines) or `arkworks` (length-prefixed binary).
    #[new]
    #[pyo3(signature = (curve, data, kind = "records", encoding = None, compressed = None, subgroup_check = true, name = "points"))]
    fn new(
        py: Python<'_>,
        curve: &str,
        data: &Bound<'_, PyAny>,
        kind: &str,
        encoding: Option<&str>,
        compressed: Option<bool>,
        subgroup_check: bool,
        name: &str,
    ) -> PyResult<Self> {
        let data = point_data(data, kind, encoding, compressed)?;
        let visitor = Decode {
            name,
            data: &data,
            subgroup_check,
        };
        py.detach(|| visit(curve, visitor))
            .map_err(|f| f.into_py(py))
    }

    /// The catalogue name of the curve/group.
    #[getter]
    fn curve(&self) -> &'static str {
        self.curve
    }

    fn __len__(&self) -> usize {
        self.n
    }

    fn __repr__(&self) -> String {
        format!("Bases({}, {} points)", self.curve, self.n)
    }

    /// Σ sᵢ·Pᵢ for each scalar vector in `vectors` (one list entry per MSM), as encoded
    /// points. The GIL is released while the MSMs run.
    #[pyo3(signature = (vectors, kind, endianness = "little", reduce = false, threads = None, compressed = true))]
    fn msm_many<'py>(
        &self,
        py: Python<'py>,
        vectors: &Bound<'py, PyList>,
        kind: &str,
        endianness: &str,
        reduce: bool,
        threads: Option<usize>,
        compressed: bool,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        run_msm(
            py,
            Target::Bases(self),
            vectors,
            kind,
            endianness,
            reduce,
            threads,
            compressed,
        )
    }

    /// The points, encoded in the curve's standard encoding, from `start` to `end`.
    #[pyo3(signature = (compressed = true, start = 0, end = None))]
    fn to_bytes<'py>(
        &self,
        py: Python<'py>,
        compressed: bool,
        start: usize,
        end: Option<usize>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let end = end.unwrap_or(self.n).min(self.n);
        let start = start.min(end);
        let visitor = Encode {
            bases: self,
            compressed,
            start,
            end,
        };
        let bytes = py
            .detach(|| visit(self.curve, visitor))
            .map_err(|f| f.into_py(py))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// The points from `start` to `end` as new bases (no re-validation).
    fn slice(&self, py: Python<'_>, start: usize, end: usize) -> PyResult<Bases> {
        let end = end.min(self.n);
        let start = start.min(end);
        let visitor = Slice {
            bases: self,
            start,
            end,
        };
        py.detach(|| visit(self.curve, visitor))
            .map_err(|f| f.into_py(py))
    }
}

// ---------------------------------------------------------------------------------------------
// Precomputed bases.

/// A table of precomputed multiples of fixed bases (the library's `PrecomputedBases`).
#[pyclass(module = "multiexp._native", frozen)]
struct Precomputed {
    curve: &'static str,
    n: usize,
    /// `PrecomputedBases<P>`.
    table: Box<dyn Any + Send + Sync>,
}

impl Precomputed {
    fn table<P: SWCurveConfig>(&self) -> &PrecomputedBases<P> {
        self.table
            .downcast_ref::<PrecomputedBases<P>>()
            .expect("the curve name selects the type the table was stored as")
    }
}

struct Build<'a> {
    bases: &'a Bases,
    budget: u64,
    threads: Option<usize>,
}

impl CurveVisitor for Build<'_> {
    type Output = Outcome<Precomputed>;
    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> Self::Output {
        let points = self.bases.points::<P>();
        let table = PrecomputedBases::with_config(points, self.budget, &config(self.threads))?;
        Ok(Precomputed {
            curve: spec.name,
            n: points.len(),
            table: Box::new(table),
        })
    }
}

struct Load<'a> {
    bytes: &'a [u8],
    threads: Option<usize>,
}

impl CurveVisitor for Load<'_> {
    type Output = Outcome<Precomputed>;
    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> Self::Output {
        let table = PrecomputedBases::<P>::from_bytes(self.bytes, &config(self.threads))?;
        Ok(Precomputed {
            curve: spec.name,
            n: table.len(),
            table: Box::new(table),
        })
    }
}

struct TableInfo<'a> {
    table: &'a Precomputed,
}

impl CurveVisitor for TableInfo<'_> {
    type Output = Outcome<(String, u64, Vec<u8>)>;
    fn visit<P: SWCurveConfig>(self, _: &CurveSpec) -> Self::Output {
        let t = self.table.table::<P>();
        let layout = match (t.layout(), t.form()) {
            (Some(l), Some(f)) => format!(
                "window {} with {} multiples per base ({} windows per MSM), {}",
                l.window,
                l.copies,
                l.groups,
                f.name()
            ),
            _ => "none: the plain MSM was priced faster for this budget".to_string(),
        };
        Ok((layout, t.bytes(), Vec::new()))
    }
}

struct TableBytes<'a> {
    table: &'a Precomputed,
}

impl CurveVisitor for TableBytes<'_> {
    type Output = Outcome<Vec<u8>>;
    fn visit<P: SWCurveConfig>(self, _: &CurveSpec) -> Self::Output {
        Ok(self.table.table::<P>().to_bytes())
    }
}

#[pymethods]
impl Precomputed {
    /// Builds the table of `bases` within `budget` bytes; the planner keeps the plain MSM
    /// where no table within the budget is priced faster.
    #[new]
    #[pyo3(signature = (bases, budget, threads = None))]
    fn new(py: Python<'_>, bases: &Bases, budget: u64, threads: Option<usize>) -> PyResult<Self> {
        let visitor = Build {
            bases,
            budget,
            threads,
        };
        py.detach(|| visit(bases.curve, visitor))
            .map_err(|f| f.into_py(py))
    }

    /// A table written by `to_bytes` (or `multiexp table`), checked on load.
    #[staticmethod]
    #[pyo3(signature = (curve, data, threads = None))]
    fn from_bytes(
        py: Python<'_>,
        curve: &str,
        data: PyBackedBytes,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let visitor = Load {
            bytes: &data,
            threads,
        };
        py.detach(|| visit(curve, visitor))
            .map_err(|f| f.into_py(py))
    }

    /// The table in the library's versioned file format.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let visitor = TableBytes { table: self };
        let bytes = py
            .detach(|| visit(self.curve, visitor))
            .map_err(|f| f.into_py(py))?;
        Ok(PyBytes::new(py, &bytes))
    }

    #[getter]
    fn curve(&self) -> &'static str {
        self.curve
    }

    fn __len__(&self) -> usize {
        self.n
    }

    /// The layout the planner chose, in words, and the table's size in bytes.
    fn info(&self, py: Python<'_>) -> PyResult<(String, u64)> {
        let (layout, bytes, _) =
            visit(self.curve, TableInfo { table: self }).map_err(|f| f.into_py(py))?;
        Ok((layout, bytes))
    }

    /// Σ sᵢ·Pᵢ over the table for each scalar vector, as encoded points (GIL released).
    #[pyo3(signature = (vectors, kind, endianness = "little", reduce = false, threads = None, compressed = true))]
    fn msm_many<'py>(
        &self,
        py: Python<'py>,
        vectors: &Bound<'py, PyList>,
        kind: &str,
        endianness: &str,
        reduce: bool,
        threads: Option<usize>,
        compressed: bool,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        run_msm(
            py,
            Target::Table(self),
            vectors,
            kind,
            endianness,
            reduce,
            threads,
            compressed,
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Module functions.

/// The catalogue's curve/group names.
#[pyfunction]
fn curves() -> Vec<&'static str> {
    multiexp::curves::NAMES.to_vec()
}

struct Info;

impl CurveVisitor for Info {
    type Output = Outcome<(CurveSpec, [usize; 4], usize, String)>;
    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> Self::Output {
        let std = PointEncoding::standard::<P>();
        let other = match std {
            PointEncoding::Zcash => PointEncoding::Arkworks,
            PointEncoding::Arkworks => PointEncoding::Zcash,
        };
        let sizes = [
            input::point_size::<P>(std, true),
            input::point_size::<P>(std, false),
            input::point_size::<P>(other, true),
            input::point_size::<P>(other, false),
        ];
        let r = <P::ScalarField as PrimeField>::MODULUS.to_string();
        Ok((
            spec.clone(),
            sizes,
            input::scalar_size::<P::ScalarField>(),
            r,
        ))
    }
}

/// Facts about a curve/group: its family, group, record sizes, scalar size and order r.
#[pyfunction]
fn curve_info<'py>(py: Python<'py>, curve: &str) -> PyResult<Bound<'py, PyDict>> {
    let (spec, sizes, scalar, r) = visit(curve, Info).map_err(|f| f.into_py(py))?;
    let d = PyDict::new(py);
    d.set_item("name", spec.name)?;
    d.set_item("curve", spec.curve)?;
    d.set_item("group", spec.group.name())?;
    d.set_item(
        "encoding",
        if spec.name.starts_with("bls12-") {
            "zcash"
        } else {
            "arkworks"
        },
    )?;
    d.set_item("compressed_size", sizes[0])?;
    d.set_item("uncompressed_size", sizes[1])?;
    d.set_item("other_compressed_size", sizes[2])?;
    d.set_item("other_uncompressed_size", sizes[3])?;
    d.set_item("scalar_size", scalar)?;
    d.set_item("order", r)?;
    Ok(d)
}

struct PlanVisit {
    n: usize,
    threads: Option<usize>,
    oversubscribe: bool,
}

impl CurveVisitor for PlanVisit {
    type Output = Outcome<(
        String,
        String,
        String,
        u32,
        usize,
        String,
        f64,
        f64,
        usize,
        u64,
    )>;
    fn visit<P: SWCurveConfig>(self, _: &CurveSpec) -> Self::Output {
        let config = Config {
            oversubscribe: self.oversubscribe,
            ..config(self.threads)
        };
        let report = multiexp::plan_for::<P>(self.n.max(1), &config)?;
        let p = report.chosen();
        Ok((
            p.describe(),
            report.reason().to_string(),
            p.path().to_string(),
            p.window(),
            p.chunks(),
            p.split().name(),
            p.work() / 1e6,
            p.makespan() / 1e6,
            p.workers(),
            multiexp::input_bytes::<P>(self.n),
        ))
    }
}

/// The plan of an MSM of `n` points on `threads` threads (default: all cores): what runs,
/// why, its modeled time and the memory its inputs take. `oversubscribe`: model exactly
/// `threads` workers even where this host has fewer cores (planning for another node).
#[pyfunction]
#[pyo3(signature = (curve, n, threads = None, oversubscribe = false))]
fn plan<'py>(
    py: Python<'py>,
    curve: &str,
    n: usize,
    threads: Option<usize>,
    oversubscribe: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let visitor = PlanVisit {
        n,
        threads,
        oversubscribe,
    };
    let (describe, reason, path, window, chunks, split, work, makespan, workers, memory) =
        visit(curve, visitor).map_err(|f| f.into_py(py))?;
    let d = PyDict::new(py);
    d.set_item("curve", curve)?;
    d.set_item("n", n)?;
    d.set_item("threads", workers)?;
    d.set_item("plan", describe)?;
    d.set_item("reason", reason)?;
    d.set_item("path", path)?;
    d.set_item("window", window)?;
    d.set_item("chunks", chunks)?;
    d.set_item("split", split)?;
    d.set_item("work_ms", work)?;
    d.set_item("makespan_ms", makespan)?;
    d.set_item("input_bytes", memory)?;
    Ok(d)
}

struct Sample {
    n: usize,
    seed: u64,
    compressed: bool,
}

impl CurveVisitor for Sample {
    type Output = Outcome<(Vec<u8>, Vec<u8>)>;
    fn visit<P: SWCurveConfig>(self, _: &CurveSpec) -> Self::Output {
        let points = multiexp::unstable::sample::points::<P>(self.n, self.seed);
        let scalars = multiexp::unstable::sample::scalars::<P::ScalarField>(self.n, self.seed);
        let encoding = PointEncoding::standard::<P>();
        let mut p = Vec::with_capacity(self.n * input::point_size::<P>(encoding, self.compressed));
        for q in &points {
            p.extend(input::encode_point(q, encoding, self.compressed));
        }
        let mut s = Vec::with_capacity(self.n * input::scalar_size::<P::ScalarField>());
        let size = input::scalar_size::<P::ScalarField>();
        for x in &scalars {
            s.extend_from_slice(&x.into_bigint().to_bytes_le()[..size]);
        }
        Ok((p, s))
    }
}

/// `n` pseudo-random subgroup points (standard encoding) and `n` uniform scalars
/// (little-endian records), determined by `seed`: inputs for tests and benchmarks.
#[pyfunction]
#[pyo3(signature = (curve, n, seed = 1, compressed = true))]
fn sample<'py>(
    py: Python<'py>,
    curve: &str,
    n: usize,
    seed: u64,
    compressed: bool,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let (p, s) = py
        .detach(|| {
            visit(
                curve,
                Sample {
                    n,
                    seed,
                    compressed,
                },
            )
        })
        .map_err(|f| f.into_py(py))?;
    Ok((PyBytes::new(py, &p), PyBytes::new(py, &s)))
}

struct Sum<'a> {
    data: &'a PointData,
}

impl CurveVisitor for Sum<'_> {
    type Output = Outcome<Vec<u8>>;
    fn visit<P: SWCurveConfig>(self, _: &CurveSpec) -> Self::Output {
        let points = decode_points::<P>("partial sums", self.data, true)?;
        let sum: Projective<P> = points.iter().map(|p| p.into_group()).sum();
        Ok(encode(&sum, true))
    }
}

/// The sum of points given as records (each checked): how partial MSMs are combined.
#[pyfunction]
#[pyo3(signature = (curve, data, encoding = None, compressed = None))]
fn add_points<'py>(
    py: Python<'py>,
    curve: &str,
    data: &Bound<'py, PyAny>,
    encoding: Option<&str>,
    compressed: Option<bool>,
) -> PyResult<Bound<'py, PyBytes>> {
    let data = point_data(data, "records", encoding, compressed)?;
    let bytes = py
        .detach(|| visit(curve, Sum { data: &data }))
        .map_err(|f| f.into_py(py))?;
    Ok(PyBytes::new(py, &bytes))
}

struct Reference<'a> {
    bases: &'a Bases,
    scalars: &'a ScalarData,
    reduce: bool,
}

impl CurveVisitor for Reference<'_> {
    type Output = Outcome<Vec<u8>>;
    fn visit<P: SWCurveConfig>(self, _: &CurveSpec) -> Self::Output {
        let points = self.bases.points::<P>();
        let scalars = decode_scalars::<P::ScalarField>("scalars", self.scalars, self.reduce)?;
        if points.len() != scalars.len() {
            return Err(Error::LengthMismatch {
                points: points.len(),
                scalars: scalars.len(),
            }
            .into());
        }
        // Double-and-add per term (arkworks' scalar multiplication), no MSM machinery.
        let mut sum = Projective::<P>::zero();
        for (p, s) in points.iter().zip(&scalars) {
            sum += p.mul_bigint(s.into_bigint());
        }
        Ok(encode(&sum, true))
    }
}

/// Σ sᵢ·Pᵢ by one double-and-add per term: the reference the tests compare with.
#[pyfunction]
#[pyo3(signature = (bases, scalars, kind, endianness = "little", reduce = false))]
fn reference_msm<'py>(
    py: Python<'py>,
    bases: &Bases,
    scalars: &Bound<'py, PyAny>,
    kind: &str,
    endianness: &str,
    reduce: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let data = scalar_data(scalars, kind, endianness)?;
    let visitor = Reference {
        bases,
        scalars: &data,
        reduce,
    };
    let bytes = py
        .detach(|| visit(bases.curve, visitor))
        .map_err(|f| f.into_py(py))?;
    Ok(PyBytes::new(py, &bytes))
}

struct Timed<'a> {
    points: &'a PointData,
    scalars: &'a ScalarData,
    threads: Option<usize>,
}

impl CurveVisitor for Timed<'_> {
    type Output = Outcome<(Vec<u8>, f64)>;
    fn visit<P: SWCurveConfig>(self, _: &CurveSpec) -> Self::Output {
        let start = Instant::now();
        let points = decode_points::<P>("points", self.points, true)?;
        let scalars = decode_scalars::<P::ScalarField>("scalars", self.scalars, false)?;
        let q = multiexp::msm_with(&points, &scalars, &config(self.threads))?;
        let out = encode(&q, true);
        Ok((out, start.elapsed().as_secs_f64()))
    }
}

/// The same work as `multiexp.msm(curve, points, scalars)` on record bytes (decode, check,
/// MSM, encode), timed inside Rust: the baseline of the binding-overhead benchmark.
#[pyfunction]
#[pyo3(signature = (curve, points, scalars, threads = None, compressed = None))]
fn rust_msm_timed<'py>(
    py: Python<'py>,
    curve: &str,
    points: &Bound<'py, PyAny>,
    scalars: &Bound<'py, PyAny>,
    threads: Option<usize>,
    compressed: Option<bool>,
) -> PyResult<(Bound<'py, PyBytes>, f64)> {
    let points = point_data(points, "records", None, compressed)?;
    let scalars = scalar_data(scalars, "records", "little")?;
    let visitor = Timed {
        points: &points,
        scalars: &scalars,
        threads,
    };
    let (bytes, seconds) = py
        .detach(|| visit(curve, visitor))
        .map_err(|f| f.into_py(py))?;
    Ok((PyBytes::new(py, &bytes), seconds))
}

struct Normalise<'a> {
    scalars: &'a ScalarData,
    reduce: bool,
}

impl CurveVisitor for Normalise<'_> {
    type Output = Outcome<Vec<u8>>;
    fn visit<P: SWCurveConfig>(self, _: &CurveSpec) -> Self::Output {
        let scalars = decode_scalars::<P::ScalarField>("scalars", self.scalars, self.reduce)?;
        let size = input::scalar_size::<P::ScalarField>();
        let mut out = Vec::with_capacity(size * scalars.len());
        for x in &scalars {
            let le = x.into_bigint().to_bytes_le();
            out.extend_from_slice(&le[..size]);
        }
        Ok(out)
    }
}

/// Scalars in any accepted form, checked, as canonical little-endian records: what a
/// distributed MSM slices and ships to its shards.
#[pyfunction]
#[pyo3(signature = (curve, scalars, kind, endianness = "little", reduce = false))]
fn scalar_records<'py>(
    py: Python<'py>,
    curve: &str,
    scalars: &Bound<'py, PyAny>,
    kind: &str,
    endianness: &str,
    reduce: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let data = scalar_data(scalars, kind, endianness)?;
    let visitor = Normalise {
        scalars: &data,
        reduce,
    };
    let bytes = py
        .detach(|| visit(curve, visitor))
        .map_err(|f| f.into_py(py))?;
    Ok(PyBytes::new(py, &bytes))
}

/// Whether this CPU has AVX-512 IFMA (`plan()["path"]` says whether an MSM uses it).
#[pyfunction]
fn ifma_available() -> bool {
    multiexp::unstable::ifma_available()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("MultiexpError", py.get_type::<MultiexpError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("PointError", py.get_type::<PointError>())?;
    m.add("ScalarError", py.get_type::<ScalarError>())?;
    m.add("LengthMismatchError", py.get_type::<LengthMismatchError>())?;
    m.add("UnknownCurveError", py.get_type::<UnknownCurveError>())?;
    m.add("TableFileError", py.get_type::<TableFileError>())?;
    m.add_class::<Bases>()?;
    m.add_class::<Precomputed>()?;
    m.add_function(wrap_pyfunction!(curves, m)?)?;
    m.add_function(wrap_pyfunction!(curve_info, m)?)?;
    m.add_function(wrap_pyfunction!(plan, m)?)?;
    m.add_function(wrap_pyfunction!(sample, m)?)?;
    m.add_function(wrap_pyfunction!(add_points, m)?)?;
    m.add_function(wrap_pyfunction!(reference_msm, m)?)?;
    m.add_function(wrap_pyfunction!(rust_msm_timed, m)?)?;
    m.add_function(wrap_pyfunction!(ifma_available, m)?)?;
    m.add_function(wrap_pyfunction!(scalar_records, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
