"""The distributed MSM on a local Ray cluster: equal to the single-process MSM, plans its
shards with the cost model, and survives an actor dying mid-call."""

import os
import threading
import time

import pytest

ray = pytest.importorskip("ray")

import multiexp  # noqa: E402
from multiexp.ray import ShardedBases, plan_shards  # noqa: E402

# One group per family, and the G2 of the pairing families.
FAMILY_CURVES = [
    "bn254-g1", "bn254-g2", "bls12-381-g1", "bls12-381-g2", "bls12-377-g1", "bw6-761-g1",
    "grumpkin-g1", "secp256k1-g1", "secp256r1-g1", "bls24-315-g1", "bls24-317-g2", "bw6-633-g1",
    "stark-curve-g1",
]


@pytest.fixture(scope="module", autouse=True)
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


@pytest.mark.parametrize("curve", FAMILY_CURVES)
def test_sharded_equals_single_process(curve):
    n = 37
    points, scalars = multiexp.sample(curve, n, seed=2)
    want = multiexp.msm(curve, points, scalars, compressed=True)
    with ShardedBases(curve, points, shards=2, threads_per_shard=1, compressed=True) as sharded:
        assert sharded.shards == 2 and len(sharded) == n
        assert sharded.msm(scalars) == want
        small = list(range(-18, 19))
        assert sharded.msm(small) == multiexp.msm(curve, points, small, compressed=True)


def test_shards_from_files_and_tables(tmp_path):
    curve = "bls12-381-g1"
    n = 101
    points, scalars = multiexp.sample(curve, n, seed=6)
    want = multiexp.msm(curve, points, scalars)
    raw = tmp_path / "points.bin"
    raw.write_bytes(points)
    hexf = tmp_path / "points.hex"
    hexf.write_text("# setup\n" + "\n".join(points[i * 48 : (i + 1) * 48].hex() for i in range(n)) + "\n")
    ark = tmp_path / "points.ark"
    ark.write_bytes(n.to_bytes(8, "little") + points)
    for path in (raw, hexf, ark):
        fmt = "arkworks" if path == ark else None
        with ShardedBases(curve, path=path, format=fmt, shards=2, threads_per_shard=1) as sharded:
            assert sharded.msm(scalars) == want
            ranges = sorted((s["start"], s["end"]) for s in sharded.info())
            assert ranges == [(0, 50), (50, 101)]
            assert all(s["rayon_threads"] == "1" for s in sharded.info())
    with ShardedBases(curve, points, shards=2, threads_per_shard=1, precompute="4x") as sharded:
        assert sharded.msm(scalars) == want
        assert all(s["table"] for s in sharded.info())
        vectors = [scalars, multiexp.sample(curve, n, seed=7)[1]]
        assert sharded.msm_many(vectors) == multiexp.msm_many(curve, points, vectors)


def test_arkworks_encoded_files_of_either_width(tmp_path):
    curve = "bn254-g1"
    n = 40
    for compressed in (True, False):
        points, scalars = multiexp.sample(curve, n, seed=11, compressed=compressed)
        want = multiexp.msm(curve, points, scalars)
        f = tmp_path / f"points-{compressed}.bin"
        f.write_bytes(points)
        with ShardedBases(curve, path=f, shards=2, threads_per_shard=1) as sharded:
            assert sharded.msm(scalars) == want
        f = tmp_path / f"points-{compressed}.ark"
        f.write_bytes(n.to_bytes(8, "little") + points)
        with ShardedBases(curve, path=f, format="arkworks", shards=2, threads_per_shard=1) as sharded:
            assert sharded.msm(scalars) == want
    f.write_bytes((n + 1).to_bytes(8, "little") + points)
    with pytest.raises(multiexp.PointError):
        ShardedBases(curve, path=f, format="arkworks", shards=2, threads_per_shard=1)


def test_errors_cross_the_cluster(tmp_path):
    curve = "bn254-g1"
    points, scalars = multiexp.sample(curve, 10, compressed=False)
    with ShardedBases(curve, points, shards=2, threads_per_shard=1) as sharded:
        with pytest.raises(multiexp.LengthMismatchError):
            sharded.msm([1, 2, 3])
        r = multiexp.curve_info(curve)["order"]
        with pytest.raises(multiexp.ScalarError) as e:
            sharded.msm([1] * 9 + [r])
        assert e.value.index == 9
        # Records are checked by the shard that holds them; the error is the whole input's.
        records = b"".join(x.to_bytes(32, "little") for x in [1] * 8 + [r, 2])
        with pytest.raises(multiexp.ScalarError) as e:
            sharded.msm(records)
        assert (e.value.index, e.value.byte, e.value.kind) == (8, 8 * 32, "ScalarOutOfRange")
        assert "element 8" in str(e.value)
        with pytest.raises(multiexp.ScalarError):
            sharded.msm(records[:-1])
        import numpy as np

        small = np.arange(-5, 5, dtype=np.int64)
        assert sharded.msm(small) == multiexp.msm(curve, points, small)
    # A bad point in a file is found by the shard that loads it.
    broken = bytearray(points)
    broken[7 * 64 + 3] ^= 1
    f = tmp_path / "broken.bin"
    f.write_bytes(bytes(broken))
    with pytest.raises(multiexp.PointError) as e:
        ShardedBases(curve, path=f, compressed=False, shards=2, threads_per_shard=1)
    assert "broken.bin" in str(e.value)
    assert (e.value.index, e.value.byte, e.value.kind) == (7, 7 * 64, "NotOnCurve")
    # The shards of a failed load are stopped: their CPUs come back.
    deadline = time.time() + 20
    while ray.available_resources().get("CPU", 0) < 2 and time.time() < deadline:
        time.sleep(0.2)
    assert ray.available_resources().get("CPU", 0) == 2
    # In a hex file: the file's own line number.
    cpoints, _ = multiexp.sample(curve, 10, compressed=True)
    lines = ["# header", ""] + [cpoints[i * 32 : (i + 1) * 32].hex() for i in range(10)]
    lines[2 + 8] = lines[2 + 8][:-2] + "zz"
    f = tmp_path / "broken.hex"
    f.write_text("\n".join(lines) + "\n")
    with pytest.raises(multiexp.PointError) as e:
        ShardedBases(curve, path=f, format="hex", shards=2, threads_per_shard=1)
    assert (e.value.index, e.value.line) == (8, 11)


def test_plan_uses_the_cost_model():
    # A tiny MSM stays in one shard: the overhead dwarfs any gain.
    small = plan_shards("bn254-g1", 64, nodes=[{"cpus": 2, "memory": 8e9}], overhead_s=1e-3)
    assert small.shards == 1
    assert "one shard" in small["reason"]
    # A large one on 8 nodes of 16 cores is worth spreading, and the plan says why.
    big = plan_shards("bn254-g1", 1 << 24, nodes=[{"cpus": 16, "memory": 64e9}] * 8, overhead_s=2e-3)
    assert big.shards > 1
    assert big["modeled_s"] < min(c["total_s"] for c in big["candidates"] if c["shards"] == 1)
    # Memory forces a split: one node cannot hold the whole input.
    need = multiexp.plan("bn254-g1", 1 << 20)["input_bytes"]
    tight = plan_shards("bn254-g1", 1 << 20, nodes=[{"cpus": 2, "memory": need * 0.6}] * 2, overhead_s=1e-3)
    assert tight.shards == 2
    with pytest.raises(multiexp.MultiexpError):
        plan_shards("bn254-g1", 1 << 20, nodes=[{"cpus": 1, "memory": need * 0.1}], overhead_s=1e-3)
    # On the live cluster: measured overhead, candidates priced.
    live = plan_shards("bn254-g1", 1 << 12)
    assert live["overhead_s"] > 0 and len(live["candidates"]) >= 2


def test_an_actor_killed_mid_call_is_restarted_and_the_call_retried(tmp_path):
    curve = "bn254-g1"
    n = 1 << 14
    points, scalars = multiexp.sample(curve, n, seed=8, compressed=False)
    want = multiexp.msm(curve, points, scalars)
    fault = tmp_path / "die-once"
    with ShardedBases(curve, points, shards=2, threads_per_shard=1, _fault_file=str(fault)) as sharded:
        pids = {s["pid"] for s in sharded.info()}
        assert sharded.msm(scalars) == want
        fault.write_text("die")  # the next msm on a shard exits its process mid-call
        assert sharded.msm(scalars) == want
        assert not fault.exists() and sharded.retries >= 1
        assert {s["pid"] for s in sharded.info()} != pids  # a new process holds the shard
        # Killed from outside while the call runs.
        before = sharded.retries

        def kill_soon():
            time.sleep(0.05)
            ray.kill(sharded._actors[0], no_restart=False)

        t = threading.Thread(target=kill_soon)
        t.start()
        big = multiexp.sample(curve, n, seed=9)[1]
        assert sharded.msm(big) == multiexp.msm(curve, points, big)
        t.join()
        assert sharded.retries >= before
        assert sharded.msm(scalars) == want


def test_a_shard_that_keeps_dying_is_an_error_not_a_partial_sum(tmp_path):
    curve = "bn254-g1"
    points, scalars = multiexp.sample(curve, 64, compressed=False)
    with ShardedBases(curve, points, shards=2, threads_per_shard=1, max_retries=2) as sharded:
        a = sharded._actors[1]
        ray.kill(a, no_restart=True)
        with pytest.raises(multiexp.MultiexpError) as e:
            sharded.msm(scalars)
        assert "failed" in str(e.value) and "no result" in str(e.value)


@pytest.mark.skipif(os.environ.get("MULTIEXP_SKIP_2_22") == "1", reason="MULTIEXP_SKIP_2_22=1")
def test_bn254_2_22_on_two_actors():
    curve = "bn254-g1"
    n = 1 << 22
    points, scalars = multiexp.sample(curve, n, seed=22, compressed=False)
    bases = multiexp.Bases(curve, points, subgroup_check=False)
    want = bases.msm(scalars, threads=2)
    with ShardedBases(curve, bases, shards=2, threads_per_shard=1) as sharded:
        assert sharded.msm(scalars) == want
