"""multiexp: fast, explainable multi-scalar multiplication (MSM) from Python.

``multiexp.msm(curve, points, scalars)`` computes s_1*P_1 + ... + s_n*P_n on any curve/group of
the catalogue (``multiexp.curves()``) and returns the sum in the curve's standard compressed
encoding (ZCash for BLS12-381/377, as c-kzg and py_ecc write it; arkworks' for the others).

Points may be given as

* raw records: ``bytes``/``bytearray``/``memoryview`` of n encodings back to back, compressed
  or uncompressed (the width is read from the length where it can be; pass ``compressed=``
  where both widths fit), or a numpy ``uint8`` array of shape (n, width);
* hex lines (``str``, one point per line, the library's hex format), or a list of bytes;
* a file (``pathlib.Path`` or ``os.PathLike``): hex lines, raw records, or arkworks'
  length-prefixed binary (``format="arkworks"``);
* a :class:`Bases` object: points decoded and checked once, for many MSMs.

Scalars may be Python ints (negative ones mean r - |s|; each must lie in (-r, r) unless
``reduce=True``), raw little-endian records of ``curve_info(curve)["scalar_size"]`` bytes
(``endianness="big"`` for big-endian), or numpy arrays: ``uint8`` records, or int64/uint64
values (small scalars, the common case in provers' witnesses).

Every point is checked (canonical encoding, on the curve, in the prime-order subgroup) and
every scalar is checked; bad input raises :class:`PointError` or :class:`ScalarError` with
the input's name, the element's index and the line or byte where it is. The GIL is released
while decoding and while the MSM runs.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

from . import _native
from ._native import (
    InputError,
    LengthMismatchError,
    MultiexpError,
    PointError,
    ScalarError,
    TableFileError,
    UnknownCurveError,
)

__version__ = _native.__version__

__all__ = [
    "Bases",
    "PrecomputedBases",
    "msm",
    "msm_many",
    "plan",
    "curves",
    "curve_info",
    "add_points",
    "sample",
    "ifma_available",
    "MultiexpError",
    "InputError",
    "PointError",
    "ScalarError",
    "LengthMismatchError",
    "UnknownCurveError",
    "TableFileError",
]

PointsLike = Any
ScalarsLike = Any


def curves() -> List[str]:
    """The catalogue's curve/group names, e.g. ``bn254-g1``, ``bls12-381-g2``."""
    return list(_native.curves())


def curve_info(curve: str) -> dict:
    """Facts about a curve/group: family, group, record sizes, scalar size and order ``r``."""
    info = dict(_native.curve_info(curve))
    info["order"] = int(info["order"])
    return info


def ifma_available() -> bool:
    """Whether this CPU has AVX-512 IFMA (``plan(...)["path"]`` says what an MSM uses)."""
    return bool(_native.ifma_available())


def _numpy():
    try:
        import numpy
    except ImportError:  # pragma: no cover - numpy is optional
        return None
    return numpy


def _is_array(x: Any) -> bool:
    np = _numpy()
    return np is not None and isinstance(x, np.ndarray)


def _looks_like_hex(head: bytes) -> bool:
    text = head.lstrip()
    if not text:
        return True
    try:
        text.decode("ascii")
    except UnicodeDecodeError:
        return False
    allowed = set(b"0123456789abcdefABCDEFxX#\r\n\t ")
    first_line = text.split(b"\n", 1)[0]
    if first_line.startswith(b"#"):
        return True
    return all(b in allowed for b in first_line)


def _point_source(
    curve: str,
    points: PointsLike,
    format: Optional[str],
    encoding: Optional[str],
    compressed: Optional[bool],
    name: Optional[str],
) -> Tuple[Any, str, Optional[str], Optional[bool], str]:
    """(data, kind, encoding, compressed, name) for the native decoder."""
    if isinstance(points, (str, bytes, bytearray, memoryview)) and format is None:
        if isinstance(points, str):
            return points, "hex", encoding, compressed, name or "points"
        return bytes(points), "records", encoding, compressed, name or "points"
    if isinstance(points, (str, bytes, bytearray, memoryview)) and format is not None:
        data = points if isinstance(points, str) else bytes(points)
        return data, _kind(format), encoding, compressed, name or "points"
    if isinstance(points, os.PathLike):
        path = os.fspath(points)
        with open(path, "rb") as f:
            data = f.read()
        kind = _kind(format) if format else ("hex" if _looks_like_hex(data[:4096]) else "records")
        return data, kind, encoding, compressed, name or path
    if _is_array(points):
        np = _numpy()
        if points.dtype != np.uint8:
            raise TypeError(f"a point array must have dtype uint8, not {points.dtype}")
        if points.ndim == 2 and compressed is None and points.shape[0] > 0:
            info = curve_info(curve)
            width = points.shape[1]
            sizes = _sizes(info, encoding)
            if width == sizes[0]:
                compressed = True
            elif width == sizes[1]:
                compressed = False
            else:
                raise PointError(
                    f"{name or 'points'}: rows of {width} bytes are neither compressed "
                    f"({sizes[0]}) nor uncompressed ({sizes[1]}) {curve} points"
                )
        data = np.ascontiguousarray(points).tobytes()
        return data, "records", encoding, compressed, name or "points"
    if isinstance(points, (list, tuple)):
        if all(isinstance(p, str) for p in points):
            return "\n".join(points), "hex", encoding, compressed, name or "points"
        if all(isinstance(p, (bytes, bytearray, memoryview)) for p in points):
            return b"".join(bytes(p) for p in points), "records", encoding, compressed, name or "points"
    raise TypeError(
        "points must be bytes, a hex str, a list of bytes or str, a numpy uint8 array, a path "
        f"or multiexp.Bases, not {type(points).__name__}"
    )


def _kind(format: str) -> str:
    kinds = {"records": "records", "raw": "records", "hex": "hex", "arkworks": "arkworks", "binary": "arkworks"}
    if format not in kinds:
        raise ValueError(f"unknown point format {format!r}: expected 'records', 'hex' or 'arkworks'")
    return kinds[format]


def _sizes(info: dict, encoding: Optional[str]) -> Tuple[int, int]:
    if encoding in (None, "standard", info["encoding"]):
        return info["compressed_size"], info["uncompressed_size"]
    return info["other_compressed_size"], info["other_uncompressed_size"]


def _scalar_source(scalars: ScalarsLike) -> Tuple[Any, str]:
    """(data, kind) for the native scalar decoder."""
    if isinstance(scalars, (bytes, bytearray, memoryview)):
        return bytes(scalars), "records"
    if _is_array(scalars):
        np = _numpy()
        dt = scalars.dtype
        if dt == np.uint8:
            return np.ascontiguousarray(scalars).tobytes(), "records"
        if dt.kind == "u":
            return np.ascontiguousarray(scalars, dtype="<u8").tobytes(), "u64"
        if dt.kind == "i":
            return np.ascontiguousarray(scalars, dtype="<i8").tobytes(), "i64"
        if dt.kind == "b":
            return np.ascontiguousarray(scalars, dtype="<u8").tobytes(), "u64"
        if dt.kind == "O":
            return list(scalars.ravel()), "ints"
        raise TypeError(f"a scalar array must have an integer dtype, not {dt}")
    if isinstance(scalars, str):
        raise TypeError("scalars must be ints, bytes records or a numpy array, not str")
    if isinstance(scalars, (list, tuple)):
        return scalars, "ints"
    if isinstance(scalars, Iterable):
        return list(scalars), "ints"
    raise TypeError(f"scalars must be a sequence of ints, bytes or a numpy array, not {type(scalars).__name__}")


class _Msm:
    """msm and msm_many over whatever `_inner` holds (resident points or a table)."""

    __slots__ = ()
    _inner: Any

    def msm(
        self,
        scalars: ScalarsLike,
        *,
        threads: Optional[int] = None,
        endianness: str = "little",
        reduce: bool = False,
        compressed: bool = True,
    ) -> bytes:
        """s_1*P_1 + ... + s_n*P_n, encoded (standard encoding, compressed by default)."""
        data, kind = _scalar_source(scalars)
        (q,) = self._inner.msm_many(
            [data], kind, endianness=endianness, reduce=reduce, threads=threads, compressed=compressed
        )
        return q

    def msm_many(
        self,
        vectors: Sequence[ScalarsLike],
        *,
        threads: Optional[int] = None,
        endianness: str = "little",
        reduce: bool = False,
        compressed: bool = True,
    ) -> List[bytes]:
        """One MSM per scalar vector over the same bases, planned and run as one job."""
        if not vectors:
            return []
        sources = [_scalar_source(v) for v in vectors]
        kinds = {k for _, k in sources}
        if len(kinds) != 1:
            return [
                self.msm(v, threads=threads, endianness=endianness, reduce=reduce, compressed=compressed)
                for v in vectors
            ]
        return list(
            self._inner.msm_many(
                [d for d, _ in sources],
                kinds.pop(),
                endianness=endianness,
                reduce=reduce,
                threads=threads,
                compressed=compressed,
            )
        )


class Bases(_Msm):
    """Points of one curve/group, decoded and checked once, kept for any number of MSMs.

    ``Bases(curve, points)`` takes any of the point inputs the module describes; ``format``
    (``"records"``, ``"hex"``, ``"arkworks"``) overrides the guess, ``encoding``
    (``"standard"``, ``"zcash"``, ``"arkworks"``) selects the byte encoding of records,
    ``compressed`` their width, and ``subgroup_check=False`` skips the subgroup test (trusted
    input only).
    """

    __slots__ = ("_inner",)
    _inner: "_native.Bases"

    def __init__(
        self,
        curve: str,
        points: PointsLike,
        *,
        format: Optional[str] = None,
        encoding: Optional[str] = None,
        compressed: Optional[bool] = None,
        subgroup_check: bool = True,
        name: Optional[str] = None,
    ) -> None:
        if isinstance(points, Bases):
            if points.curve != curve.lower():
                raise MultiexpError(f"these bases are on {points.curve}, not {curve}")
            self._inner = points._inner
            return
        data, kind, encoding, compressed, name = _point_source(curve, points, format, encoding, compressed, name)
        self._inner = _native.Bases(
            curve,
            data,
            kind=kind,
            encoding=encoding,
            compressed=compressed,
            subgroup_check=subgroup_check,
            name=name,
        )

    @classmethod
    def _wrap(cls, inner: "_native.Bases") -> "Bases":
        self = cls.__new__(cls)
        self._inner = inner
        return self

    @property
    def curve(self) -> str:
        """The catalogue name of the curve/group."""
        return self._inner.curve

    def __len__(self) -> int:
        return len(self._inner)

    def __repr__(self) -> str:
        return f"multiexp.Bases({self.curve!r}, {len(self)} points)"

    def to_bytes(self, compressed: bool = True, start: int = 0, end: Optional[int] = None) -> bytes:
        """The points as raw records of the standard encoding."""
        return self._inner.to_bytes(compressed=compressed, start=start, end=end)

    def slice(self, start: int, end: int) -> "Bases":
        """Points ``start`` to ``end`` as new bases (already checked: no re-validation)."""
        return Bases._wrap(self._inner.slice(start, end))

    def precompute(self, budget: Union[int, str], *, threads: Optional[int] = None) -> "PrecomputedBases":
        """A table of precomputed multiples within ``budget`` bytes (see PrecomputedBases)."""
        return PrecomputedBases(self, budget, threads=threads)


def _budget(budget: Union[int, str], n_bytes: int) -> int:
    if isinstance(budget, int):
        return budget
    text = budget.strip().lower()
    if text.endswith("x"):
        return int(float(text[:-1]) * n_bytes)
    units = {"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "kb": 1000, "mb": 10**6, "gb": 10**9, "b": 1}
    for unit, scale in units.items():
        if text.endswith(unit):
            return int(float(text[: -len(unit)]) * scale)
    return int(text)


class PrecomputedBases(_Msm):
    """Precomputed multiples of fixed bases (an SRS, a proving key, KZG setup points).

    Built once within a memory budget (bytes, ``"16MiB"``, or ``"4x"`` the points' size);
    the planner picks the table's layout and keeps the plain MSM where no table within the
    budget is priced faster, so a small budget never loses. ``msm`` takes scalars only.
    """

    __slots__ = ("_inner",)
    _inner: "_native.Precomputed"

    def __init__(self, bases: Union[Bases, Tuple[str, PointsLike]], budget: Union[int, str], *, threads: Optional[int] = None) -> None:
        if not isinstance(bases, Bases):
            curve, points = bases
            bases = Bases(curve, points)
        info = curve_info(bases.curve)
        nbytes = len(bases) * info["uncompressed_size"]
        self._inner = _native.Precomputed(bases._inner, _budget(budget, nbytes), threads=threads)

    @classmethod
    def from_bytes(cls, curve: str, data: bytes, *, threads: Optional[int] = None) -> "PrecomputedBases":
        """A table written by :meth:`to_bytes`, :meth:`save` or ``multiexp table``."""
        self = cls.__new__(cls)
        self._inner = _native.Precomputed.from_bytes(curve, bytes(data), threads=threads)
        return self

    @classmethod
    def load(cls, curve: str, path: Union[str, os.PathLike], *, threads: Optional[int] = None) -> "PrecomputedBases":
        """A table file (versioned and checked on load)."""
        with open(path, "rb") as f:
            return cls.from_bytes(curve, f.read(), threads=threads)

    def to_bytes(self) -> bytes:
        """The table in the library's versioned file format."""
        return self._inner.to_bytes()

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Writes the table to ``path``."""
        with open(path, "wb") as f:
            f.write(self.to_bytes())

    @property
    def curve(self) -> str:
        return self._inner.curve

    @property
    def layout(self) -> str:
        """The layout the planner chose, in words."""
        return self._inner.info()[0]

    @property
    def nbytes(self) -> int:
        """The table's size in bytes."""
        return self._inner.info()[1]

    def __len__(self) -> int:
        return len(self._inner)

    def __repr__(self) -> str:
        return f"multiexp.PrecomputedBases({self.curve!r}, {len(self)} points, {self.layout})"


def msm(
    curve: str,
    points: PointsLike,
    scalars: ScalarsLike,
    *,
    threads: Optional[int] = None,
    format: Optional[str] = None,
    encoding: Optional[str] = None,
    compressed: Optional[bool] = None,
    endianness: str = "little",
    reduce: bool = False,
    subgroup_check: bool = True,
    compressed_result: bool = True,
) -> bytes:
    """s_1*P_1 + ... + s_n*P_n on ``curve``, in its standard encoding (compressed).

    ``points`` and ``scalars`` take any of the forms the module describes; a
    :class:`Bases` or :class:`PrecomputedBases` skips decoding. Raises
    :class:`LengthMismatchError` when the lengths differ, :class:`PointError` or
    :class:`ScalarError` on bad input, :class:`UnknownCurveError` for a name outside
    ``curves()``.
    """
    if isinstance(points, PrecomputedBases):
        return points.msm(scalars, threads=threads, endianness=endianness, reduce=reduce, compressed=compressed_result)
    bases = Bases(curve, points, format=format, encoding=encoding, compressed=compressed, subgroup_check=subgroup_check)
    return bases.msm(scalars, threads=threads, endianness=endianness, reduce=reduce, compressed=compressed_result)


def msm_many(
    curve: str,
    points: PointsLike,
    vectors: Sequence[ScalarsLike],
    *,
    threads: Optional[int] = None,
    reduce: bool = False,
    **point_options: Any,
) -> List[bytes]:
    """One MSM per scalar vector over the same points, planned and run as one job."""
    if isinstance(points, PrecomputedBases):
        return points.msm_many(vectors, threads=threads, reduce=reduce)
    return Bases(curve, points, **point_options).msm_many(vectors, threads=threads, reduce=reduce)


def plan(curve: str, n: int, *, threads: Optional[int] = None) -> dict:
    """The plan of an MSM of ``n`` points: window, chunks, split, processor path, why, and
    the modeled time (``makespan_ms``) on ``threads`` threads (default: all cores)."""
    return dict(_native.plan(curve, n, threads=threads))


def add_points(curve: str, points: PointsLike, *, compressed: Optional[bool] = None) -> bytes:
    """The sum of encoded points (each checked), compressed: how partial MSMs combine."""
    data, kind, encoding, compressed, _ = _point_source(curve, points, None, None, compressed, None)
    if kind != "records":
        bases = Bases(curve, points)
        return bases.msm([1] * len(bases))
    if not data:
        return Bases(curve, b"").msm([])
    return _native.add_points(curve, data, encoding=encoding, compressed=compressed)


def sample(curve: str, n: int, *, seed: int = 1, compressed: bool = True) -> Tuple[bytes, bytes]:
    """``n`` pseudo-random subgroup points (raw records) and ``n`` uniform scalars
    (little-endian records), determined by ``seed``: inputs for tests and benchmarks."""
    return _native.sample(curve, n, seed=seed, compressed=compressed)
