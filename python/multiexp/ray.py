"""MSMs beyond one process, on Ray: bases sharded across actors that keep them resident.

An MSM splits over its bases: shard k of the points computes the partial sum of its slice
of the scalars, and the partial sums add. :class:`ShardedBases` loads each shard into a Ray
actor once (from bytes it is handed, or from its own byte range of a file), optionally as a
precomputed table, and keeps it there; :meth:`ShardedBases.msm` ships each actor its slice
of the scalars, each actor runs the library's MSM on the threads it was given, and the driver
adds the partial sums.

How many shards: the same cost model that decides whether one MSM is split across cores
decides here whether it is split across actors. For every shard count k and threads per
shard t that the cluster's nodes can host, the modeled time is the library's makespan of an
MSM of n/k points on t threads plus a per-call overhead measured on this cluster (a Ray
round trip) and the transfer of the scalars; shards must also fit their nodes' memory. The
cheapest wins, and a split that only adds work is not taken. :meth:`ShardedBases.plan` says
what was weighed and why.

Faults: an actor that dies (its process killed, its node lost) is restarted by Ray, reloads
its shard from the same source, and the call is retried on it; after ``max_retries`` failed
attempts the call raises :class:`multiexp.MultiexpError`. A partial or wrong sum is never
returned.
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import multiexp
from multiexp import Bases, MultiexpError, PrecomputedBases, _native

try:
    import ray
    from ray.exceptions import GetTimeoutError, RayActorError, RayTaskError
except ImportError as e:  # pragma: no cover - ray is optional
    raise ImportError("multiexp.ray needs Ray: pip install 'multiexp[ray]'") from e

try:  # Ray >= 2.10 separates "temporarily unavailable" from "dead".
    from ray.exceptions import ActorUnavailableError
except ImportError:  # pragma: no cover
    ActorUnavailableError = RayActorError  # type: ignore[misc,assignment]

__all__ = ["ShardedBases", "ShardPlan", "plan_shards", "measure_overhead"]

# Bytes per second assumed for shipping scalars to an actor before any call has measured it
# (loopback object store; a network between nodes is slower, and the measured round trip
# covers the fixed part).
_TRANSFER_BYTES_PER_S = 1.0e9


class _ShardActor:
    """One shard of the bases, resident in a Ray actor."""

    def __init__(self, curve: str, source: Tuple, threads: int, budget: Optional[Union[int, str]], fault_file: Optional[str]):
        # A shard that cannot load (bad points in its file) keeps its error for `ping` to
        # raise: the driver gets the library's typed exception, not an actor death.
        self.error: Optional[BaseException] = None
        self.bases: Optional[Bases] = None
        self.table: Optional[PrecomputedBases] = None
        try:
            self._load(curve, source, threads, budget, fault_file)
        except multiexp.MultiexpError as e:
            self.error = e

    def _load(self, curve, source, threads, budget, fault_file) -> None:
        self.curve = curve
        self.threads = threads
        self.fault_file = fault_file
        kind = source[0]
        if kind == "bytes":
            _, data, fmt, encoding, compressed, checked, name, start, end = source
            # A ray.put reference arrives resolved; nested references are fetched here.
            if isinstance(data, ray.ObjectRef):
                data = ray.get(data)
            bases = Bases(curve, data, format=fmt, encoding=encoding, compressed=compressed, subgroup_check=not checked, name=name)
        elif kind == "file":
            _, path, fmt, encoding, compressed, width, start, end, base = source
            bases = _load_file_shard(curve, path, fmt, encoding, compressed, width, start, end, base)
        else:  # pragma: no cover
            raise ValueError(f"unknown shard source {kind!r}")
        self.start, self.end = start, end
        if len(bases) != end - start:
            raise MultiexpError(f"shard {start}..{end} holds {len(bases)} points, expected {end - start}")
        self.bases = bases
        self.table = PrecomputedBases(bases, budget, threads=threads) if budget is not None else None

    def msm_many(self, vectors: List[Any], kind: str, endianness: str, reduce: bool) -> List[bytes]:
        """The partial sums of this shard for each scalar slice (records or 8-byte words, as
        numpy uint8 views of the object store or bytes), checked here."""
        if self.fault_file is not None and os.path.exists(self.fault_file):
            # Test hook: die in the middle of a call, once per fault file: only the shard that
            # removes the file dies (two shards can both see it).
            try:
                os.remove(self.fault_file)
            except FileNotFoundError:
                pass
            else:
                os._exit(1)
        target: Any = self.table if self.table is not None else self.bases
        data = [v if isinstance(v, bytes) else v.tobytes() for v in vectors]
        return list(target._inner.msm_many(data, kind, endianness=endianness, reduce=reduce, threads=self.threads))

    def info(self) -> Dict[str, Any]:
        return {
            "start": self.start,
            "end": self.end,
            "points": len(self.bases) if self.bases is not None else 0,
            "threads": self.threads,
            "rayon_threads": os.environ.get("RAYON_NUM_THREADS"),
            "pid": os.getpid(),
            "node": ray.get_runtime_context().get_node_id(),
            "table": self.table.layout if self.table is not None else None,
        }

    def ping(self) -> int:
        if self.error is not None:
            raise self.error
        return os.getpid()


def _load_file_shard(curve, path, fmt, encoding, compressed, width, start, end, base=0) -> Bases:
    """Elements start..end of a file (records from byte `base`); an error names the file's
    own byte or line and the element's index in the whole file."""
    if fmt == "records":
        with open(path, "rb") as f:
            f.seek(base + start * width)
            data = f.read((end - start) * width)
        try:
            return Bases(curve, data, format="records", encoding=encoding, compressed=compressed, name=path)
        except multiexp.InputError as e:
            byte = None if e.byte is None else e.byte + base + start * width
            raise _relocated(e, path, start, byte=byte) from None
    if fmt == "hex":
        numbered = _element_lines(path)[start:end]
        try:
            return Bases(curve, "\n".join(text for _, text in numbered), format="hex", name=path)
        except multiexp.InputError as e:
            line = numbered[e.line - 1][0] if e.line else None
            index = start + e.line - 1 if e.line else None
            return_error = _relocated(e, path, start, line=line, index=index)
            raise return_error from None
    raise MultiexpError(f"shards load from raw records or hex lines, not {fmt!r} files")


def _relocated(e, path, start, *, byte=None, line=None, index=None):
    """The error `e` of a shard, restated in the whole file's terms."""
    message = str(e)
    prefix, _, rest = message.partition(": ")
    if e.byte is not None and rest.startswith(f"byte {e.byte}: "):
        rest = rest[len(f"byte {e.byte}: ") :]
    if e.index is not None:
        index = start + e.index
        rest = rest.replace(f"(element {e.index}, counted from 0)", "").rstrip()
    where = f":{line}" if line is not None else (f": byte {byte}" if byte is not None else "")
    text = f"{path}{where}: {rest}" + (f" (element {index}, counted from 0)" if index is not None else "")
    new = type(e)(text)
    new.input, new.index, new.line, new.byte, new.kind = str(path), index, line, byte, e.kind
    return new


def _element_lines(path) -> List[Tuple[int, str]]:
    """(line number, text) of every element line: not blank, not a comment."""
    with open(path, "r", encoding="ascii", errors="replace") as f:
        return [(k, ln.strip()) for k, ln in enumerate(f, 1) if ln.strip() and not ln.lstrip().startswith("#")]


@ray.remote
def _noop(x: bytes) -> int:
    return len(x)


def measure_overhead(samples: int = 7) -> Tuple[float, float]:
    """Ray's costs on this cluster, medians of `samples`: seconds of one task's round trip
    (the per-call overhead), and the seconds each further task submitted with it adds (the
    driver's per-shard cost)."""
    ray.get([_noop.remote(b"") for _ in range(4)])  # warm the workers
    one, four = [], []
    for _ in range(samples):
        t = time.perf_counter()
        ray.get(_noop.remote(b""))
        one.append(time.perf_counter() - t)
        t = time.perf_counter()
        ray.get([_noop.remote(b"") for _ in range(4)])
        four.append(time.perf_counter() - t)
    t1, t4 = statistics.median(one), statistics.median(four)
    return t1, max((t4 - t1) / 3, 0.0)


class ShardPlan(dict):
    """The shard count and threads per shard chosen, every candidate priced, and why."""

    @property
    def shards(self) -> int:
        return self["shards"]

    @property
    def threads(self) -> int:
        return self["threads_per_shard"]


def _nodes() -> List[Dict[str, float]]:
    nodes = []
    for node in ray.nodes():
        if not node.get("Alive", False):
            continue
        res = node.get("Resources", {})
        cpus = int(res.get("CPU", 0))
        if cpus <= 0:
            continue
        nodes.append({"cpus": cpus, "memory": float(res.get("memory", 0)) or float("inf")})
    return nodes


def plan_shards(
    curve: str,
    n: int,
    *,
    nodes: Optional[List[Dict[str, float]]] = None,
    overhead_s: Optional[float] = None,
    per_shard_s: Optional[float] = None,
    shards: Optional[int] = None,
    threads_per_shard: Optional[int] = None,
    transfer_bytes_per_s: float = _TRANSFER_BYTES_PER_S,
) -> ShardPlan:
    """Chooses the shard count k and threads per shard t for an MSM of ``n`` points.

    Each candidate (k, t) that the nodes can host (⌊cpus/t⌋ actors per node, each holding
    its shard's inputs within the node's memory) is priced as the library's modeled makespan
    of an MSM of ⌈n/k⌉ points on t threads, plus the per-call overhead (a Ray round trip),
    plus k−1 times the per-shard cost (submitting, fetching and adding one more partial),
    plus the scalars' transfer; the fewest shards within 3% of the cheapest win (a split that
    only adds work is not taken). `overhead_s` and `per_shard_s` are measured on the live
    cluster unless given (a given overhead without a per-shard cost takes half of it).
    """
    if nodes is None:
        nodes = _nodes()
    if not nodes:
        raise MultiexpError("the Ray cluster has no alive node with CPUs")
    if overhead_s is None:
        overhead_s, measured_per_shard = measure_overhead()
        per_shard_s = measured_per_shard if per_shard_s is None else per_shard_s
    if per_shard_s is None:
        per_shard_s = overhead_s / 2
    info = multiexp.curve_info(curve)
    total_cpus = sum(int(nd["cpus"]) for nd in nodes)
    max_cpus = max(int(nd["cpus"]) for nd in nodes)
    thread_options = [threads_per_shard] if threads_per_shard else sorted({t for t in range(1, max_cpus + 1)})
    candidates = []
    for t in thread_options:
        hostable = sum(int(nd["cpus"]) // t for nd in nodes)
        if hostable == 0:
            continue
        ks = [shards] if shards else range(1, hostable + 1)
        for k in ks:
            per = -(-max(n, 1) // k)
            p = _native.plan(curve, per, threads=t, oversubscribe=True)
            fits = _fits(nodes, k, t, p["input_bytes"])
            compute = p["makespan_ms"] / 1e3
            transfer = n * info["scalar_size"] / transfer_bytes_per_s
            per_shard = per_shard_s * (k - 1)
            total = compute + overhead_s + transfer + per_shard
            candidates.append(
                {
                    "shards": k,
                    "threads_per_shard": t,
                    "points_per_shard": per,
                    "shard_plan": p["plan"],
                    "compute_s": compute,
                    "overhead_s": overhead_s,
                    "per_shard_s": per_shard,
                    "transfer_s": transfer,
                    "total_s": total,
                    "fits_memory": fits,
                    "cpus_used": k * t,
                }
            )
    feasible = [c for c in candidates if c["fits_memory"]]
    if not feasible:
        raise MultiexpError(
            f"no shard count fits an MSM of {n} points on this cluster's memory "
            f"({len(nodes)} nodes, {total_cpus} CPUs)"
        )
    # Cheapest by a margin of 3%: fewer shards and fewer CPUs win ties.
    feasible.sort(key=lambda c: (c["total_s"], c["shards"], c["cpus_used"]))
    best = feasible[0]
    for c in sorted(feasible, key=lambda c: (c["shards"], c["cpus_used"])):
        if c["total_s"] <= best["total_s"] * 1.03:
            best = c
            break
    if shards:
        reason = f"{shards} shards as asked"
    elif best["shards"] == 1:
        reason = "one shard: splitting adds overhead and work without a modeled gain"
    else:
        one = min((c["total_s"] for c in feasible if c["shards"] == 1), default=float("inf"))
        reason = (
            f"{best['shards']} shards of {best['threads_per_shard']} threads: modeled "
            f"{best['total_s'] * 1e3:.1f} ms against {one * 1e3:.1f} ms for one shard"
            if one != float("inf")
            else f"{best['shards']} shards: one shard does not fit a node's memory"
        )
    return ShardPlan(
        curve=curve,
        n=n,
        shards=best["shards"],
        threads_per_shard=best["threads_per_shard"],
        modeled_s=best["total_s"],
        overhead_s=overhead_s,
        per_shard_s=per_shard_s,
        nodes=nodes,
        reason=reason,
        candidates=candidates,
    )


def _fits(nodes, k, t, shard_bytes) -> bool:
    """Whether k actors of t CPUs, each holding shard_bytes, can be placed on the nodes."""
    left = k
    for nd in sorted(nodes, key=lambda d: -d["cpus"]):
        by_cpu = int(nd["cpus"]) // t
        by_mem = int(nd["memory"] // max(shard_bytes, 1)) if nd["memory"] != float("inf") else by_cpu
        left -= min(by_cpu, by_mem)
        if left <= 0:
            return True
    return False


def _cause(e: "RayTaskError") -> BaseException:
    """The exception an actor raised (the library's typed error, with its attributes)."""
    cause = getattr(e, "cause", None)
    return cause if isinstance(cause, BaseException) else e


class ShardedBases:
    """Bases sharded across Ray actors, each keeping its shard resident.

    ``ShardedBases(curve, points)`` takes any point input ``multiexp.Bases`` takes (the
    driver validates it once and ships each actor its records); ``ShardedBases(curve,
    path=..., format="records"|"hex")`` lets each actor read its own range of a file visible
    on its node. ``shards`` and ``threads_per_shard`` default to the cost model's choice
    (:func:`plan_shards`); ``precompute`` gives each actor a table within that budget (bytes,
    ``"16MiB"``, ``"4x"``). ``max_retries``: attempts per call (and restarts per actor).
    """

    def __init__(
        self,
        curve: str,
        points: Any = None,
        *,
        path: Optional[Union[str, os.PathLike]] = None,
        format: Optional[str] = None,
        encoding: Optional[str] = None,
        compressed: Optional[bool] = None,
        shards: Optional[int] = None,
        threads_per_shard: Optional[int] = None,
        precompute: Optional[Union[int, str]] = None,
        max_retries: int = 3,
        timeout_s: Optional[float] = None,
        actor_options: Optional[Dict[str, Any]] = None,
        _fault_file: Optional[str] = None,
    ) -> None:
        if not ray.is_initialized():
            ray.init()
        if (points is None) == (path is None):
            raise ValueError("give either points or path")
        self.curve = curve.lower()
        self.max_retries = max(1, int(max_retries))
        self.timeout_s = timeout_s
        self.retries = 0  # calls retried after an actor died, over this object's life
        self._info = multiexp.curve_info(curve)
        sources, n = self._sources(points, path, format, encoding, compressed)
        self.n = n
        self._plan = plan_shards(curve, n, shards=shards, threads_per_shard=threads_per_shard)
        k, t = self._plan.shards, self._plan.threads
        bounds = [(i * n // k, (i + 1) * n // k) for i in range(k)]
        self._bounds = bounds
        # RAYON_NUM_THREADS: the library's decoding, like its MSM (threads=t), stays on the
        # actor's t CPUs instead of every core of the node.
        options = {
            "num_cpus": t,
            "max_restarts": self.max_retries,
            "max_task_retries": 0,
            "runtime_env": {"env_vars": {"RAYON_NUM_THREADS": str(t)}},
        }
        options.update(actor_options or {})
        remote: Any = ray.remote(_ShardActor).options(**options)
        self._actors: List[Any] = []
        self._sources_kept: List[Any] = []
        for start, end in bounds:
            source = sources(start, end)
            self._sources_kept.append(source)
            self._actors.append(remote.remote(self.curve, source, t, precompute, _fault_file))
        # Wait for every shard to load; a load error (bad points in a file) surfaces here,
        # and then no actor is left behind.
        try:
            self._get([a.ping.remote() for a in self._actors], what="loading shards")
        except BaseException:
            self.close()
            raise

    def _sources(self, points, path, fmt, encoding, compressed):
        if points is not None:
            bases = points if isinstance(points, Bases) else Bases(self.curve, points, format=fmt, encoding=encoding, compressed=compressed)
            n = len(bases)
            width = self._info["uncompressed_size"]
            records = bases.to_bytes(compressed=False)

            def source(start, end):
                ref = ray.put(records[start * width : end * width])
                # The actor is handed the reference itself (kept alive here), so a restart
                # reloads the same bytes; the driver has checked these points already.
                return ("bytes", ref, "records", None, False, True, f"points[{start}:{end}]", start, end)

            return source, n
        path = os.fspath(path)
        fmt = fmt or ("hex" if multiexp._looks_like_hex(open(path, "rb").read(4096)) else "records")
        base = 0
        if fmt == "hex":
            n = len(_element_lines(path))
            width = 0
        elif fmt in ("records", "raw"):
            fmt = "records"
            size = os.path.getsize(path)
            small, large = multiexp._sizes(self._info, encoding)
            if compressed is None:
                compressed = self._width_of(path, size, small, large, encoding)
            width = small if compressed else large
            if size % width:
                raise multiexp.PointError(f"{path}: {size} bytes is not a whole number of {width}-byte records")
            n = size // width
        elif fmt in ("arkworks", "binary"):
            # arkworks' CanonicalSerialize of Vec<Affine>: a u64 count, then the records in
            # its binary encoding (ZCash's for BLS12-381, arkworks' own for the others).
            fmt, base = "records", 8
            encoding = "zcash" if self.curve.startswith("bls12-381") else "arkworks"
            small, large = multiexp._sizes(self._info, encoding)
            size = os.path.getsize(path)
            with open(path, "rb") as f:
                prefix = f.read(8)
            if len(prefix) < 8:
                raise multiexp.PointError(f"{path}: {size} bytes: shorter than the 8-byte length prefix")
            n = int.from_bytes(prefix, "little")
            body = size - 8
            if n and body == n * small:
                compressed, width = True, small
            elif n and body == n * large:
                compressed, width = False, large
            elif n == 0 and body == 0:
                compressed, width = True, small
            else:
                raise multiexp.PointError(
                    f"{path}: the length prefix announces {n} points, but {body} bytes follow "
                    f"(records of {small} or {large} bytes)"
                )
        else:
            raise ValueError(f"shards load from hex lines, raw records or arkworks binary, not {fmt!r}")

        def source(start, end):
            return ("file", path, fmt, encoding, compressed, width, start, end, base)

        return source, n

    def _width_of(self, path, size, small, large, encoding) -> bool:
        """Whether a file of raw records is compressed, where its length does not say: the
        ZCash compression bit, else its first records read both ways (as the package does)."""
        if size % large == 0 and size % small != 0:
            return False
        if size % small == 0 and size % large != 0:
            return True
        with open(path, "rb") as f:
            head = f.read(64 * large)
        if not head:
            return True
        if self._info["encoding"] == "zcash" and encoding in (None, "standard", "zcash"):
            return bool(head[0] & 0x80)
        try:
            Bases(self.curve, head[: (len(head) // large) * large], compressed=False, encoding=encoding, name=path)
            return False
        except multiexp.PointError:
            return True

    def plan(self) -> ShardPlan:
        """The shard plan: shards, threads per shard, modeled time, overhead, candidates."""
        return self._plan

    @property
    def shards(self) -> int:
        return len(self._actors)

    def __len__(self) -> int:
        return self.n

    def info(self) -> List[Dict[str, Any]]:
        """Per shard: its range, threads, actor pid and node, table layout."""
        return self._get([a.info.remote() for a in self._actors], what="info")

    def msm(self, scalars: Any, *, reduce: bool = False, endianness: str = "little") -> bytes:
        """s_1*P_1 + ... + s_n*P_n over every shard, compressed (standard encoding)."""
        return self.msm_many([scalars], reduce=reduce, endianness=endianness)[0]

    def msm_many(self, vectors: Sequence[Any], *, reduce: bool = False, endianness: str = "little") -> List[bytes]:
        """One distributed MSM per scalar vector; each shard runs its slices as one job."""
        if not vectors:
            return []
        np = multiexp._numpy()
        sources = [self._scalar_slices(v, reduce, endianness) for v in vectors]
        kinds = {k for _, k, _ in sources}
        if len(kinds) > 1:
            return [self.msm_many([v], reduce=reduce, endianness=endianness)[0] for v in vectors]
        kind = kinds.pop()
        width = sources[0][2]
        endianness = "little" if kind != "records" else endianness
        arrays = [np.frombuffer(data, dtype=np.uint8) for data, _, _ in sources]
        # Each shard gets its slices of every vector: one copy into the object store, read
        # there without another; the shard checks and converts its own scalars.
        parts = [ray.put([a[s * width : e * width] for a in arrays]) for s, e in self._bounds]
        partials = self._run(
            lambda i: self._actors[i].msm_many.remote(parts[i], kind, endianness, reduce),
            width,
        )
        return [
            multiexp.add_points(self.curve, b"".join(p[j] for p in partials), compressed=True)
            for j in range(len(vectors))
        ]

    def _scalar_slices(self, scalars, reduce, endianness) -> Tuple[bytes, str, int]:
        """(bytes, kind, width) of a scalar vector, sliceable per shard: records and 8-byte
        words as given (the shards check them), Python ints converted and checked here."""
        data, kind = multiexp._scalar_source(scalars)
        if kind == "ints":
            data = _native.scalar_records(self.curve, data, kind, endianness=endianness, reduce=reduce)
            kind = "records"
        width = self._info["scalar_size"] if kind == "records" else 8
        if len(data) % width:
            raise multiexp.ScalarError(f"scalars: {len(data)} bytes is not a whole number of {width}-byte records")
        count = len(data) // width
        if count != self.n:
            raise multiexp.LengthMismatchError(f"length mismatch: {self.n} points but {count} scalars")
        return data, kind, width

    def _run(self, submit, width: int) -> List[Any]:
        """Runs submit(i) on every shard; retries a shard whose actor died, up to max_retries
        attempts; raises rather than return anything partial. A shard's input error is
        restated with the whole input's index and byte (`width` bytes per scalar)."""
        k = len(self._actors)
        results: List[Any] = [None] * k
        attempts = [0] * k
        pending = {i: submit(i) for i in range(k)}
        for i in range(k):
            attempts[i] = 1
        errors: Dict[int, str] = {}
        while pending:
            refs = list(pending.values())
            ready, _ = ray.wait(refs, num_returns=1, timeout=self.timeout_s)
            if not ready:
                raise MultiexpError(f"timed out after {self.timeout_s} s waiting for {len(pending)} shard(s)")
            ref = ready[0]
            i = next(j for j, r in pending.items() if r == ref)
            try:
                results[i] = ray.get(ref)
                del pending[i]
            except (RayActorError, ActorUnavailableError) as e:
                errors[i] = str(e).splitlines()[0] if str(e) else type(e).__name__
                if attempts[i] >= self.max_retries:
                    raise MultiexpError(
                        f"shard {i} of {k} (points {self._bounds[i][0]}..{self._bounds[i][1]}) failed "
                        f"{attempts[i]} times; no result returned. Last error: {errors[i]}"
                    ) from e
                attempts[i] += 1
                self.retries += 1
                time.sleep(min(0.05 * attempts[i], 1.0))
                pending[i] = submit(i)
            except RayTaskError as e:
                cause = _cause(e)
                start = self._bounds[i][0]
                if isinstance(cause, multiexp.InputError) and cause.index is not None:
                    byte = None if cause.byte is None else cause.byte + start * width
                    cause = _relocated(cause, "scalars", start, byte=byte)
                raise cause from None
        return results

    def _get(self, refs, what: str):
        try:
            return ray.get(refs, timeout=self.timeout_s)
        except GetTimeoutError as e:
            raise MultiexpError(f"timed out {what}") from e
        except RayActorError as e:
            raise MultiexpError(f"a shard actor died {what}: {e}") from e
        except RayTaskError as e:
            raise _cause(e) from None

    def close(self) -> None:
        """Stops the actors."""
        for a in self._actors:
            ray.kill(a, no_restart=True)
        self._actors = []

    def __enter__(self) -> "ShardedBases":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
