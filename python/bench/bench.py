"""Benchmarks of the Python package, every contender interleaved (A B A B ...) in one run.

    python python/bench/bench.py overhead   # Python call vs the same work timed in Rust
    python python/bench/bench.py arkworks   # vs py-arkworks-bls12381 multiexp_unchecked
    python python/bench/bench.py ray        # 2 Ray actors of 1 thread vs 1 process of 2
    python python/bench/bench.py all --out docs/bench/python.md

Reports min and median per contender and the median of the per-round ratios; say which CPU,
path and profile ran (printed in the header).
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import subprocess
import sys
import time

import multiexp
from multiexp import _native


def header() -> str:
    cpu = "unknown CPU"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name"):
                cpu = line.split(":", 1)[1].strip()
        fam = [ln.split(":", 1)[1].strip() for ln in out.splitlines() if ln.startswith(("CPU family", "Model:"))]
        if fam:
            cpu += f" (family {fam[0]}, model {fam[1] if len(fam) > 1 else '?'})"
    except OSError:
        pass
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    path = multiexp.plan("bls12-381-g1", 1 << 16)["path"]
    return (
        f"CPU: {cpu}, {os.cpu_count()} logical CPUs; AVX-512 IFMA: {'yes' if multiexp.ifma_available() else 'no'}; "
        f"MSM path: {path} (MULTIEXP_NO_IFMA={os.environ.get('MULTIEXP_NO_IFMA', 'unset')}); "
        f"profile: built-in (no calibration); commit {commit or '?'}; "
        f"{datetime.date.today().isoformat()}; Python {sys.version.split()[0]}"
    )


def interleave(contenders, reps):
    """Runs each contender once per round, in order, for `reps` rounds; returns the times
    (seconds) per contender. A contender returns its own time when it measures itself."""
    times = {name: [] for name, _ in contenders}
    for _ in range(reps):
        for name, run in contenders:
            t = time.perf_counter()
            own = run()
            wall = time.perf_counter() - t
            times[name].append(own if isinstance(own, float) else wall)
    return times


def row(label, times, base, other):
    a, b = times[base], times[other]
    ratios = [x / y for x, y in zip(a, b)]
    return (
        f"| {label} | {min(a) * 1e3:.1f} / {statistics.median(a) * 1e3:.1f} | "
        f"{min(b) * 1e3:.1f} / {statistics.median(b) * 1e3:.1f} | {statistics.median(ratios):.3f} |"
    )


def bench_overhead(reps, threads):
    lines = [
        "### Binding overhead: `multiexp.msm(curve, points_bytes, scalar_bytes)` against the same "
        f"work (decode, check, MSM, encode) timed inside Rust, {threads} threads",
        "",
        "| curve, n | Python call ms (min / median) | Rust ms (min / median) | Python / Rust (median of rounds) |",
        "|---|---|---|---|",
    ]
    for curve in ("bn254-g1", "bls12-381-g1"):
        for logn in (12, 16):
            n = 1 << logn
            points, scalars = multiexp.sample(curve, n, seed=logn, compressed=False)
            contenders = [
                ("python", lambda: multiexp.msm(curve, points, scalars, threads=threads, compressed=False)),
                ("rust", lambda: _native.rust_msm_timed(curve, points, scalars, threads=threads, compressed=False)[1]),
            ]
            interleave(contenders, 1)  # warm
            times = interleave(contenders, reps)
            lines.append(row(f"{curve}, 2^{logn}", times, "python", "rust"))
    return "\n".join(lines)


def bench_arkworks(reps, threads):
    try:
        from py_arkworks_bls12381 import G1Point, Scalar
    except ImportError:
        return "### py-arkworks-bls12381: not installed (pip install py-arkworks-bls12381)"
    curve = "bls12-381-g1"
    lines = [
        "### Against py-arkworks-bls12381 `G1Point.multiexp_unchecked` (BLS12-381 G1, same inputs, "
        f"{threads} threads; its points and scalars built as objects before timing)",
        "",
        "| comparison, n | multiexp ms (min / median) | py-arkworks ms (min / median) | multiexp / py-arkworks (median of rounds) |",
        "|---|---|---|---|",
    ]
    for logn in (12, 16):
        n = 1 << logn
        points, scalars = multiexp.sample(curve, n, seed=logn)
        ark_points = [G1Point.from_compressed_bytes_unchecked(points[i * 48 : (i + 1) * 48]) for i in range(n)]
        ark_scalars = [Scalar.from_le_bytes(scalars[i * 32 : (i + 1) * 32]) for i in range(n)]
        bases = multiexp.Bases(curve, points)
        want = bases.msm(scalars)
        got = bytes(G1Point.multiexp_unchecked(ark_points, ark_scalars).to_compressed_bytes())
        assert got == want, "py-arkworks and multiexp disagree"
        def ark_from_bytes():
            # py-arkworks from the same bytes: each point decoded and checked, each scalar read.
            ps = [G1Point.from_compressed_bytes(points[i * 48 : (i + 1) * 48]) for i in range(n)]
            ss = [Scalar.from_le_bytes(scalars[i * 32 : (i + 1) * 32]) for i in range(n)]
            return G1Point.multiexp_unchecked(ps, ss)

        contenders = [
            ("bases", lambda: bases.msm(scalars, threads=threads)),
            ("ark", lambda: G1Point.multiexp_unchecked(ark_points, ark_scalars)),
            ("bytes", lambda: multiexp.msm(curve, points, scalars, threads=threads)),
            ("ark_bytes", ark_from_bytes),
        ]
        interleave(contenders, 1)
        times = interleave(contenders, reps)
        lines.append(row(f"`Bases.msm` (points decoded once) vs its prebuilt objects, 2^{logn}", times, "bases", "ark"))
        lines.append(row(f"`multiexp.msm` on compressed bytes (decode + check each call) vs its prebuilt objects, 2^{logn}", times, "bytes", "ark"))
        lines.append(row(f"both from the same compressed bytes, decoded and checked in the call, 2^{logn}", times, "bytes", "ark_bytes"))
    return "\n".join(lines)


def bench_ray(reps, sizes):
    import ray

    from multiexp.ray import ShardedBases, plan_shards

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    lines = [
        "### Ray: 2 local actors of 1 thread each against one process of 2 threads",
        "",
        "| curve, n | 1 process, 2 threads ms (min / median) | Ray 2x1 ms (min / median) | Ray / process (median of rounds) |",
        "|---|---|---|---|",
    ]
    for curve in ("bn254-g1", "bls12-381-g1"):
        for logn in sizes:
            n = 1 << logn
            points, scalars = multiexp.sample(curve, n, seed=logn, compressed=False)
            bases = multiexp.Bases(curve, points, subgroup_check=False)
            with ShardedBases(curve, bases, shards=2, threads_per_shard=1) as sharded:
                want = bases.msm(scalars, threads=2)
                assert sharded.msm(scalars) == want
                contenders = [
                    ("ray", lambda: sharded.msm(scalars)),
                    ("local", lambda: bases.msm(scalars, threads=2)),
                ]
                times = interleave(contenders, reps)
                ratios = [r / l for r, l in zip(times["ray"], times["local"])]
                lines.append(
                    f"| {curve}, 2^{logn} | {min(times['local']) * 1e3:.0f} / {statistics.median(times['local']) * 1e3:.0f} | "
                    f"{min(times['ray']) * 1e3:.0f} / {statistics.median(times['ray']) * 1e3:.0f} | {statistics.median(ratios):.3f} |"
                )
            plan = plan_shards(curve, n)
            lines.append(
                f"| (the model's own choice for 2^{logn} on this cluster: {plan.shards} shard(s) x "
                f"{plan.threads} thread(s): {plan['reason']}) | | | |"
            )
    ray.shutdown()
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["overhead", "arkworks", "ray", "all"])
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--ray-sizes", default="20,22", help="log2 sizes for the Ray comparison")
    ap.add_argument("--out", help="also write the report (markdown) here")
    args = ap.parse_args()
    parts = [f"## multiexp Python benchmarks\n\n{header()}\n\nCommand: `python python/bench/bench.py {' '.join(sys.argv[1:])}`"]
    if args.what in ("overhead", "all"):
        parts.append(bench_overhead(args.reps, args.threads))
        print(parts[-1], flush=True)
    if args.what in ("arkworks", "all"):
        parts.append(bench_arkworks(args.reps, args.threads))
        print(parts[-1], flush=True)
    if args.what in ("ray", "all"):
        sizes = [int(s) for s in args.ray_sizes.split(",")]
        parts.append(bench_ray(max(3, args.reps // 2), sizes))
        print(parts[-1], flush=True)
    report = "\n\n".join(parts) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
    print(report)


if __name__ == "__main__":
    main()
