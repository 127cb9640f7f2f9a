"""The Python package against the double-and-add reference, on every curve/group."""

import threading
import time

import numpy as np
import pytest

import multiexp
from multiexp import _native

CURVES = multiexp.curves()


def reference(curve, points, scalars):
    """Σ sᵢ·Pᵢ by one double-and-add per term (no MSM machinery)."""
    bases = multiexp.Bases(curve, points)
    return _native.reference_msm(bases._inner, list(scalars), "ints", reduce=True)


def edge_scalars(curve, n, seed):
    r = multiexp.curve_info(curve)["order"]
    rng = np.random.default_rng(seed)
    pool = [0, 1, 2, r - 1, -1, -2, r - 2, (r - 1) // 2, (r + 1) // 2, 2**64 - 1, 2**64, 2**128 + 3]
    out = []
    for i in range(n):
        if i % 3 == 0:
            out.append(pool[(i // 3) % len(pool)])
        else:
            out.append(int.from_bytes(rng.bytes(64), "little") % r)
    return out


def test_catalogue_names_every_family():
    families = {c.rsplit("-", 1)[0] for c in CURVES}
    assert {
        "bn254", "bls12-381", "bls12-377", "bw6-761", "bls24-315", "bls24-317", "bw6-633",
        "grumpkin", "secp256k1", "secp256r1", "stark-curve",
    } <= families
    assert len(CURVES) == 18


@pytest.mark.parametrize("curve", CURVES)
def test_msm_equals_reference_on_every_curve(curve):
    for n in (1, 2, 7, 40):
        points, _ = multiexp.sample(curve, n, seed=n)
        scalars = edge_scalars(curve, n, n)
        want = reference(curve, points, scalars)
        assert multiexp.msm(curve, points, scalars) == want
        assert multiexp.msm(curve, points, scalars, threads=1) == want
        # Uncompressed records, and the same bases reused.
        upoints, _ = multiexp.sample(curve, n, seed=n, compressed=False)
        bases = multiexp.Bases(curve, upoints)
        assert len(bases) == n
        assert bases.msm(scalars) == want
        assert bases.to_bytes() == points


@pytest.mark.parametrize("curve", CURVES)
def test_empty_and_zero_give_the_identity(curve):
    ident = multiexp.msm(curve, b"", [])
    points, _ = multiexp.sample(curve, 5)
    assert multiexp.msm(curve, points, [0] * 5) == ident
    r = multiexp.curve_info(curve)["order"]
    # P and -P cancel: s and r - s on the same point.
    twice = points[: len(points) // 5] * 2
    assert multiexp.msm(curve, twice, [7, r - 7]) == ident


def test_point_inputs_of_every_form(tmp_path):
    curve = "bls12-381-g1"
    n = 33
    points, scalar_bytes = multiexp.sample(curve, n, seed=3)
    info = multiexp.curve_info(curve)
    w = info["compressed_size"]
    want = multiexp.msm(curve, points, scalar_bytes)
    records = [points[i * w : (i + 1) * w] for i in range(n)]
    assert multiexp.msm(curve, bytearray(points), scalar_bytes) == want
    assert multiexp.msm(curve, memoryview(points), scalar_bytes) == want
    assert multiexp.msm(curve, records, scalar_bytes) == want
    assert multiexp.msm(curve, np.frombuffer(points, dtype=np.uint8).reshape(n, w), scalar_bytes) == want
    hex_text = "# a comment\n" + "\n".join("0x" + r.hex() for r in records) + "\n\n"
    assert multiexp.msm(curve, hex_text, scalar_bytes) == want
    assert multiexp.msm(curve, [r.hex() for r in records], scalar_bytes) == want
    f = tmp_path / "points.hex"
    f.write_text(hex_text)
    assert multiexp.msm(curve, f, scalar_bytes) == want
    f = tmp_path / "points.bin"
    f.write_bytes(points)
    assert multiexp.msm(curve, f, scalar_bytes) == want
    # arkworks' length-prefixed binary.
    f = tmp_path / "points.ark"
    f.write_bytes(n.to_bytes(8, "little") + points)
    assert multiexp.msm(curve, f, scalar_bytes, format="arkworks") == want
    # A Bases object and a table.
    bases = multiexp.Bases(curve, points)
    assert multiexp.msm(curve, bases, scalar_bytes) == want


def test_arkworks_records_of_either_width():
    curve = "bn254-g1"
    points, scalars = multiexp.sample(curve, 4)  # 32-byte compressed; 64 divides 128 too
    want = multiexp.msm(curve, points, scalars, compressed=True)
    assert multiexp.msm(curve, points, scalars) == want
    upoints, _ = multiexp.sample(curve, 4, compressed=False)
    assert multiexp.msm(curve, upoints, scalars, compressed=False) == want
    assert multiexp.msm(curve, upoints, scalars) == want
    # The error of the reading that got further: a bad third compressed point.
    broken = bytearray(points)
    broken[2 * 32] ^= 0xFF
    with pytest.raises(multiexp.PointError) as e:
        multiexp.msm(curve, bytes(broken), scalars)
    assert e.value.index == 2
    # A numpy array's row width says which it is.
    assert multiexp.msm(curve, np.frombuffer(upoints, np.uint8).reshape(4, 64), scalars) == want


def test_scalar_inputs_of_every_form():
    curve = "bn254-g1"
    n = 50
    points, _ = multiexp.sample(curve, n, seed=9, compressed=False)
    r = multiexp.curve_info(curve)["order"]
    small = list(range(-25, 25))
    want = reference(curve, points, small)
    assert multiexp.msm(curve, points, small) == want
    assert multiexp.msm(curve, points, np.array(small, dtype=np.int64)) == want
    assert multiexp.msm(curve, points, np.array(small, dtype=np.int32)) == want
    assert multiexp.msm(curve, points, [s % r for s in small]) == want
    le = b"".join((s % r).to_bytes(32, "little") for s in small)
    be = b"".join((s % r).to_bytes(32, "big") for s in small)
    assert multiexp.msm(curve, points, le) == want
    assert multiexp.msm(curve, points, be, endianness="big") == want
    assert multiexp.msm(curve, points, np.frombuffer(le, np.uint8).reshape(n, 32)) == want
    unsigned = [abs(s) for s in small]
    assert multiexp.msm(curve, points, np.array(unsigned, dtype=np.uint64)) == reference(curve, points, unsigned)
    bools = [bool(i % 2) for i in range(n)]
    assert multiexp.msm(curve, points, np.array(bools)) == reference(curve, points, [int(b) for b in bools])
    assert multiexp.msm(curve, points, (s for s in small)) == want


def test_scalars_out_of_range_are_errors_with_the_index():
    curve = "bls12-381-g1"
    points, _ = multiexp.sample(curve, 4)
    r = multiexp.curve_info(curve)["order"]
    with pytest.raises(multiexp.ScalarError) as e:
        multiexp.msm(curve, points, [1, 2, r, 3])
    assert e.value.index == 2 and e.value.kind == "ScalarOutOfRange"
    with pytest.raises(multiexp.ScalarError) as e:
        multiexp.msm(curve, points, [1, -r, 2, 3])
    assert e.value.index == 1
    with pytest.raises(multiexp.ScalarError) as e:
        multiexp.msm(curve, points, [1, 2, 3, 2**600])
    assert e.value.index == 3
    # Reduction is there when asked for.
    assert multiexp.msm(curve, points, [1, 2, r + 5, 3], reduce=True) == multiexp.msm(curve, points, [1, 2, 5, 3])
    records = b"".join(s.to_bytes(32, "little") for s in [1, 2, 3, r])
    with pytest.raises(multiexp.ScalarError) as e:
        multiexp.msm(curve, points, records)
    assert (e.value.index, e.value.byte) == (3, 96)
    with pytest.raises(multiexp.ScalarError) as e:
        multiexp.msm(curve, points, records[:-1])
    assert e.value.kind == "WrongLength"
    with pytest.raises(TypeError):
        multiexp.msm(curve, points, [1, 2, 3, "4"])
    with pytest.raises(TypeError):
        multiexp.msm(curve, points, [1.0, 2, 3, 4])


def test_length_mismatch_and_unknown_curve():
    points, scalars = multiexp.sample("bn254-g1", 3, compressed=False)
    with pytest.raises(multiexp.LengthMismatchError):
        multiexp.msm("bn254-g1", points, [1, 2])
    with pytest.raises(multiexp.UnknownCurveError):
        multiexp.msm("bn999-g1", points, [1, 2, 3])
    assert issubclass(multiexp.LengthMismatchError, ValueError)


def _bls_point_not_in_subgroup():
    """A BLS12-381 G1 point on the curve but (almost surely) outside the subgroup, ZCash
    compressed: x with x^3 + 4 a square (p = 3 mod 4: sqrt by one power)."""
    p = int("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 16)
    x = 5
    while True:
        rhs = (x**3 + 4) % p
        y = pow(rhs, (p + 1) // 4, p)
        if y * y % p == rhs:
            break
        x += 1
    flag = 0x80 | (0x20 if y > p - y else 0)
    raw = bytearray(x.to_bytes(48, "big"))
    raw[0] |= flag
    return bytes(raw)


def test_bad_points_are_errors_with_index_and_kind():
    curve = "bls12-381-g1"
    points, scalars = multiexp.sample(curve, 6)
    bad = _bls_point_not_in_subgroup()
    data = points[: 4 * 48] + bad + points[5 * 48 :]
    with pytest.raises(multiexp.PointError) as e:
        multiexp.msm(curve, data, scalars)
    assert (e.value.index, e.value.byte, e.value.kind) == (4, 192, "NotInSubgroup")
    assert "element 4" in str(e.value)
    # Trusted input may skip the subgroup check (and then it runs).
    multiexp.msm(curve, data, scalars, subgroup_check=False)
    # Not on the curve: a coordinate changed in an uncompressed record.
    upoints, _ = multiexp.sample(curve, 6, compressed=False)
    broken = bytearray(upoints)
    broken[2 * 96 + 95] ^= 1
    with pytest.raises(multiexp.PointError) as e:
        multiexp.msm(curve, bytes(broken), scalars)
    assert (e.value.index, e.value.kind) == (2, "NotOnCurve")
    # Hex lines: the line number.
    lines = [points[i * 48 : (i + 1) * 48].hex() for i in range(6)]
    lines[3] = lines[3][:-2]
    with pytest.raises(multiexp.PointError) as e:
        multiexp.msm(curve, "\n".join(lines), scalars)
    assert e.value.line == 4 and e.value.kind == "WrongLength"
    # A truncated record.
    with pytest.raises(multiexp.PointError) as e:
        multiexp.msm(curve, points[:-1], scalars, compressed=True)
    assert e.value.kind == "WrongLength"
    with pytest.raises(TypeError):
        multiexp.msm(curve, 42, scalars)
    assert issubclass(multiexp.PointError, multiexp.InputError)


def test_msm_many_equals_separate_calls():
    curve = "bls12-381-g1"
    n = 300
    points, _ = multiexp.sample(curve, n, seed=4)
    bases = multiexp.Bases(curve, points)
    vectors = [multiexp.sample(curve, n, seed=10 + k)[1] for k in range(5)]
    vectors.append(list(range(n)))
    want = [bases.msm(v) for v in vectors]
    assert bases.msm_many(vectors) == want
    assert multiexp.msm_many(curve, points, vectors[:5]) == want[:5]
    assert bases.msm_many([]) == []


@pytest.mark.parametrize("curve", ["bn254-g1", "bls12-381-g1", "bls12-377-g2", "secp256k1-g1"])
def test_precomputed_equals_plain_and_round_trips(curve, tmp_path):
    n = 200
    points, scalars = multiexp.sample(curve, n, seed=5)
    bases = multiexp.Bases(curve, points, compressed=True)
    want = bases.msm(scalars)
    for budget in ("4x", "16x", 0, "1MiB"):
        table = bases.precompute(budget)
        assert len(table) == n
        assert table.msm(scalars) == want
        assert table.msm_many([scalars, scalars]) == [want, want]
        assert multiexp.msm(curve, table, scalars) == want
        assert isinstance(table.layout, str) and table.nbytes >= 0
    path = tmp_path / "table.bin"
    table.save(path)
    loaded = multiexp.PrecomputedBases.load(curve, path)
    assert loaded.msm(scalars) == want
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    with pytest.raises(multiexp.TableFileError):
        multiexp.PrecomputedBases.from_bytes(curve, bytes(data))


def test_plan_explains_itself():
    p = multiexp.plan("bn254-g1", 1 << 16, threads=2)
    assert p["n"] == 1 << 16 and p["threads"] <= 2
    assert p["window"] >= 1 and p["makespan_ms"] > 0 and p["plan"].startswith("c=")
    assert p["path"] in ("portable", "avx512-ifma")
    assert isinstance(p["reason"], str) and p["reason"]
    # Planning for a node with more cores than this one.
    wide = _native.plan("bn254-g1", 1 << 16, threads=16, oversubscribe=True)
    assert wide["threads"] == 16 and wide["makespan_ms"] < p["makespan_ms"]


def test_add_points():
    curve = "bn254-g1"
    points, _ = multiexp.sample(curve, 3, compressed=True)
    assert multiexp.add_points(curve, points, compressed=True) == multiexp.msm(curve, points, [1, 1, 1], compressed=True)


def test_the_gil_is_released_during_the_msm():
    curve = "bls12-381-g1"
    n = 1 << 15
    points, scalars = multiexp.sample(curve, n, compressed=False)
    bases = multiexp.Bases(curve, points)
    start = time.perf_counter()
    bases.msm(scalars, threads=1)
    alone = time.perf_counter() - start
    done = threading.Event()
    ticks = 0

    def run():
        bases.msm(scalars, threads=1)
        done.set()

    t = threading.Thread(target=run)
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    # With the GIL held for the whole MSM the main thread could not tick at all.
    assert ticks >= max(3, int(alone / 0.001) // 10)
