"""Side by side with the anchors' own code: Su, Cheng, Wang's FFT bounds (IEEE S&P 2026; repository
Optimal-amplification-bound/Decomposition-Based-Optimal-Bounds-for-Shuffle-DP) and Wang et al.'s unified
bounds (VLDB 2024; wangsw/PrivacyAmplification), run on the same points as this project's certified bracket
(`tightest`): k-RR with k in {10, 100}, eps0 in {1, 4, 8}, n in {1e3, 1e4, 1e5}; the Laplace mechanism on
[0, 1] with eps0 in {1, 4}, n in {1e3, 1e4}; delta = 1e-6. Writes a Markdown table (docs/audits/side_by_side.md):
mechanism, point, their upper / lower, ours, who is tighter, whose is certified.

    nice python3 benchmarks/anchors.py --wang /path/to/PrivacyAmplification --su /path/to/Decomposition-Based-Optimal-Bounds-for-Shuffle-DP \\
        [--cache docs/audits/recorded/side_by_side_runs.jsonl] [--time-limit 1800] [--max-log2 27] \\
        [--points krr:10:1:1000,laplace:-:4:1000] [--out docs/audits/side_by_side.md]
    python3 benchmarks/anchors.py --cached-only --cache docs/audits/recorded/side_by_side_runs.jsonl --out docs/audits/side_by_side.md

Their code is never copied here: it is run from the clones given (or SHUFFLE_SPEC_AUDIT_WANG_GENERAL /
SHUFFLE_SPEC_AUDIT_SU_FFT_KRR; without either, `git clone` of the public repository into a temporary folder
is tried). Each call runs in its own child process (their code on PYTHONPATH; for Su et al., also the CuPy
stand-in of `shuffle_spec.interface.audit.adapters`, which re-exports NumPy) with a time limit; a call that
does not finish is "not run (time limit)". `--cache FILE` keeps every finished call as a JSON line and reuses
it (a run of hours can be resumed); the committed cache is docs/audits/recorded/side_by_side_runs.jsonl, so
the table is rebuilt from it with `--cached-only` (our side is recomputed). `--points` runs only the points
named (mech:k:eps0:n, k = "-" for Laplace), in the order given (the table still has every point).

Su et al.'s cost is their FFT length, 2^bit_length(n (N - 1)) with N the number of grid cells of width
(e^eps0 - 1)/1200 that their privacy-amplification random variable spans at the bisection's eps: at
eps0 = 8 it is 2^26 points at n = 1e3 and beyond 2^30 at n = 1e4 (16 GB per complex array). Before each of
their calls a child process asks their own code (`discretize_distribution` at the larger of the bisection's
first midpoint and our certified upper end, which the bisection's later midpoints stay near) for that
length; above 2^`--max-log2` the call is not made and the cell says so. The calls are those of the audit adapters (`python_codes`): Wang et al.
`amplificationUB/LB(e^eps0, beta, e^eps0, e^eps0, n, delta, T = 20)` with the README's beta (k-RR:
(e^eps0 - 1)/(e^eps0 + k - 1); Laplace: 1 - e^(-eps0/2)); Su et al. `FFTbound(RRMechanism(eps0, k))`,
`FFTLowerBound(RRMechanism_lowerbound(eps0, k))`, `FFTbound(LaplaceMechanism(eps0))`,
`FFTLowerBound(LaplaceLowerBound(eps0))`, `.get_eps(eps0, n, delta)`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from shuffle_spec.interface.audit.adapters.python_codes import CUPY_STANDIN
from shuffle_spec.interface.tightest import tightest

DELTA = 1e-6
POINTS = [("krr", k, eps0, n) for k in (10, 100) for eps0 in (1.0, 4.0, 8.0) for n in (1000, 10_000, 100_000)]
POINTS += [("laplace", None, eps0, n) for eps0 in (1.0, 4.0) for n in (1000, 10_000)]
REPOSITORIES = {"wang": "https://github.com/wangsw/PrivacyAmplification", "su": "https://github.com/Optimal-amplification-bound/Decomposition-Based-Optimal-Bounds-for-Shuffle-DP"}
ENVIRONMENT = {"wang": "SHUFFLE_SPEC_AUDIT_WANG_GENERAL", "su": "SHUFFLE_SPEC_AUDIT_SU_FFT_KRR"}

DRIVER = {
    "wang": """
import json, math, sys
from unifiedamplification import amplificationUB, amplificationLB
mech, k, eps0, n, delta, side = json.loads(sys.argv[1])
p = math.exp(eps0)
beta = 1 - math.exp(-eps0 / 2) if mech == "laplace" else (p - 1) / (p + k - 1)
print(json.dumps(float((amplificationUB if side == "upper" else amplificationLB)(p, beta, p, p, n, delta, 20))))
""",
    "su": """
import json, sys
from amplification_bounds import FFTbound, FFTLowerBound
from mechanisms import RRMechanism, RRMechanism_lowerbound, LaplaceMechanism, LaplaceLowerBound
mech, k, eps0, n, delta, side = json.loads(sys.argv[1])
if mech == "krr":
    bound = FFTbound(RRMechanism(eps0, k)) if side == "upper" else FFTLowerBound(RRMechanism_lowerbound(eps0, k))
else:
    bound = FFTbound(LaplaceMechanism(eps0)) if side == "upper" else FFTLowerBound(LaplaceLowerBound(eps0))
value = bound.get_eps(eps0, n, delta)
print(json.dumps(float(value)))
""",
    "su-size": """
import json, math, sys
from amplification_bounds import FFTbound, FFTLowerBound
from mechanisms import RRMechanism, RRMechanism_lowerbound, LaplaceMechanism, LaplaceLowerBound
mech, k, eps0, n, delta, side, probe = json.loads(sys.argv[1])
if mech == "krr":
    bound = FFTbound(RRMechanism(eps0, k)) if side == "upper" else FFTLowerBound(RRMechanism_lowerbound(eps0, k))
else:
    bound = FFTbound(LaplaceMechanism(eps0)) if side == "upper" else FFTLowerBound(LaplaceLowerBound(eps0))
eps = max((1e-6 + bound.closedformanalysis(n, eps0, delta)) / 2, min(probe, bound.closedformanalysis(n, eps0, delta)))
support, prob = bound.mechanism.get_gparv_distribution(eps)
grid, start = bound.discretize_distribution(support, prob, (math.exp(eps0) - 1) / 1200)
print(json.dumps(int(n * (len(grid) - 1)).bit_length()))
""",
}


def _locate(code: str, given: str | None) -> Path | None:
    folder = given or os.environ.get(ENVIRONMENT[code])
    if folder:
        return Path(folder)
    target = Path(tempfile.mkdtemp(prefix=f"anchors-{code}-"))
    done = subprocess.run(["git", "clone", "--depth", "1", REPOSITORIES[code], str(target)], capture_output=True, text=True)
    return target if done.returncode == 0 else None


def _key(code: str, mech: str, k: int | None, eps0: float, n: int, side: str) -> str:
    return json.dumps([code, mech, k, eps0, n, DELTA, side])


def _su_log2_length(folder: Path, mech: str, k: int | None, eps0: float, n: int, side: str, probe: float) -> int | None:
    """log2 of the FFT length of Su et al.'s call near the end of its bisection (their own discretisation)."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), CUPY_STANDIN])}
    done = subprocess.run([sys.executable, "-c", DRIVER["su-size"], json.dumps([mech, k, eps0, n, DELTA, side, probe])], cwd=folder, env=environment, capture_output=True, text=True, timeout=600)
    lines = done.stdout.strip().splitlines()
    return int(json.loads(lines[-1])) if done.returncode == 0 and lines else None


def _run(code: str, folder: Path, mech: str, k: int | None, eps0: float, n: int, side: str, time_limit: float) -> dict[str, Any]:
    path = [str(folder)] + ([CUPY_STANDIN] if code == "su" else [])
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    start = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", DRIVER[code], json.dumps([mech, k, eps0, n, DELTA, side])], cwd=folder, env=environment, capture_output=True, text=True, timeout=time_limit)
    except subprocess.TimeoutExpired:
        return {"value": None, "error": f"not run (time limit {time_limit:g} s)", "seconds": round(time.monotonic() - start, 1)}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"value": None, "error": (done.stderr.strip().splitlines() or ["failed"])[-1][:200], "seconds": round(time.monotonic() - start, 1)}
    return {"value": float(json.loads(lines[-1])), "error": None, "seconds": round(time.monotonic() - start, 1)}


def _ours(mech: str, k: int | None, eps0: float, n: int) -> tuple[float | None, float | None]:
    gap = tightest(randomizer=mech, eps0=eps0, n=n, delta=DELTA, k=k)
    return gap.upper_eps, gap.lower_eps


def _cell(value: float | None, error: str | None) -> str:
    return f"{value:.6g}" if value is not None else (error or "not run")


def _verdict(upper: float | None, lower: float | None, our_upper: float | None, our_lower: float | None) -> tuple[str, str]:
    """(tighter upper, tighter lower), and whether theirs contradicts ours."""
    def side(theirs: float | None, ours: float | None, smaller_is_tighter: bool) -> str:
        if theirs is None or ours is None:
            return "-"
        if theirs == ours:
            return "equal"
        return "theirs" if (theirs < ours) == smaller_is_tighter else "ours"

    up, low = side(upper, our_upper, True), side(lower, our_lower, False)
    if upper is not None and our_lower is not None and upper < our_lower:
        up = "theirs is BELOW our certified lower bound: not an upper bound"
    if lower is not None and our_upper is not None and lower > our_upper:
        low = "theirs is ABOVE our certified upper bound: not a lower bound"
    return up, low


def _record_su(path: Path, cache: dict[str, dict[str, Any]]) -> None:
    """Merge the finished calls FFTbound(RRMechanism(eps0, k)).get_eps(eps0, n, delta) of the cache into the
    registry's recording of `su_fft_krr` (the adapter's call; the registry judges them again at every run)."""
    document = json.loads(path.read_text())
    calls = {json.dumps(call["inputs"], sort_keys=True): call for call in document["calls"]}
    for record in cache.values():
        code, mech, k, eps0, n, delta, side = json.loads(record["key"])
        if code == "su" and mech == "krr" and side == "upper" and record.get("value") is not None:
            inputs = {"eps0": eps0, "n": n, "delta": delta, "k": k}
            calls[json.dumps(inputs, sort_keys=True)] = {"inputs": inputs, "kind": "value", "value": record["value"], "text": "float"}
    document["calls"] = sorted(calls.values(), key=lambda call: (call["inputs"]["n"], call["inputs"]["k"], call["inputs"]["eps0"]))
    path.write_text(json.dumps(document, indent=1) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wang")
    parser.add_argument("--su")
    parser.add_argument("--cache", default=None)
    parser.add_argument("--time-limit", type=float, default=1800.0)
    parser.add_argument("--codes", default="wang,su")
    parser.add_argument("--out", default=None)
    parser.add_argument("--cached-only", action="store_true", help="run nothing: tabulate the calls in --cache (a call not there is 'not run')")
    parser.add_argument("--points", default=None, help="run only these points, in this order: mech:k:eps0:n,... (k = - for Laplace)")
    parser.add_argument("--max-log2", type=int, default=27, help="Su et al.: skip a call whose FFT has more than 2^this points (memory: 16 bytes a point, several arrays)")
    parser.add_argument("--record-su", metavar="RECORDED_JSON", help="also merge Su et al.'s finished k-RR upper-bound calls into this recording of the audit registry (docs/audits/recorded/su_fft_krr.json)")
    args = parser.parse_args()
    chosen = POINTS
    if args.points:
        named = [item.split(":") for item in args.points.split(",")]
        chosen = [(m, None if k == "-" else int(k), float(e), int(float(n))) for m, k, e, n in named]
        unknown = [point for point in chosen if point not in POINTS]
        if unknown:
            parser.error(f"--points: not a point of the table: {unknown}")
    cache: dict[str, dict[str, Any]] = {}
    if args.cache and Path(args.cache).exists():
        for line in Path(args.cache).read_text().splitlines():
            record = json.loads(line)
            cache[record["key"]] = record
    ours = {point: _ours(*point) for point in POINTS}
    load_start = os.getloadavg()
    for code in args.codes.split(","):
        folder = None if args.cached_only else _locate(code, getattr(args, code))
        for mech, k, eps0, n in chosen:
            for side in ("upper", "lower"):
                key = _key(code, mech, k, eps0, n, side)
                # A call skipped for its size is tried again when a later run allows that size.
                if key not in cache or (cache[key].get("skipped") and cache[key]["log2"] <= args.max_log2):
                    if folder is None:
                        continue
                    if code == "su":
                        probe = ours[(mech, k, eps0, n)][0] or eps0
                        log2 = _su_log2_length(folder, mech, k, eps0, n, side, probe)
                        if log2 is not None and log2 > args.max_log2:
                            record = {"key": key, "value": None, "error": f"not run (FFT of 2^{log2} points)", "seconds": 0.0, "skipped": True, "log2": log2}
                            if cache.get(key) != record:
                                cache[key] = record
                                if args.cache:
                                    with open(args.cache, "a") as handle:
                                        handle.write(json.dumps(record) + "\n")
                            print(f"{code} {mech} k={k} eps0={eps0} n={n} {side}: skipped, FFT of 2^{log2} points", file=sys.stderr, flush=True)
                            continue
                    cache[key] = {"key": key, **_run(code, folder, mech, k, eps0, n, side, args.time_limit)}
                    if args.cache:
                        with open(args.cache, "a") as handle:
                            handle.write(json.dumps(cache[key]) + "\n")
                    print(f"{code} {mech} k={k} eps0={eps0} n={n} {side}: {cache[key]['value']} ({cache[key]['seconds']} s)", file=sys.stderr, flush=True)
    rows = [
        "# Side by side: Su et al.'s and Wang et al.'s code against the certified bracket",
        "",
        "Output of `benchmarks/anchors.py` (their code run from clones of the public repositories, the calls in its",
        "module doc; ours: `shuffle-spec tightest`, certified upper and lower ends). delta = 1e-6. Tighter: the smaller",
        "upper bound, the larger lower bound. Certified: ours only (outward-rounded, proven tail bounds); both",
        "anchors compute in floating point without certification (Su et al.: float64 FFT with negative entries",
        "clipped and renormalised; Wang et al.: a bisection with T = 20 steps). A value of theirs on the wrong side of",
        "our certified bracket is named. Su et al.'s code runs on a CPU with the CuPy stand-in (NumPy, and SciPy's FFT:",
        "[su.md](su.md)); a cell \"not run (FFT of 2^L points)\" is a call whose transform their own discretisation",
        "makes 2^L points long, more than the runs allowed (`--max-log2 27`: from 2^28 on, several arrays of 4 GB and",
        "more do not fit in this machine's 24 GB beside its other work; the 2^27 calls took 11-21 min each). A cell",
        "\"not run\": not reached.",
        ("Tabulated from the recorded calls" if args.cached_only else f"Load average at the start of the run {load_start[0]:.1f}")
        + "; the calls and their wall-clock times (on the shared 2-core machine) are in recorded/side_by_side_runs.jsonl.",
        "",
        "| mechanism | point (eps0, n) | Wang upper | Wang lower | Su upper | Su lower | ours upper | ours lower | tighter upper (Wang / Su vs ours) | tighter lower (Wang / Su vs ours) | certified |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for mech, k, eps0, n in POINTS:
        ours_up, ours_low = ours[(mech, k, eps0, n)]
        cells = {}
        verdicts = {}
        for code in ("wang", "su"):
            up = cache.get(_key(code, mech, k, eps0, n, "upper")) or {}
            low = cache.get(_key(code, mech, k, eps0, n, "lower")) or {}
            cells[code] = (_cell(up.get("value"), up.get("error")), _cell(low.get("value"), low.get("error")))
            verdicts[code] = _verdict(up.get("value"), low.get("value"), ours_up, ours_low)
        name = f"k-RR, k = {k}" if mech == "krr" else "Laplace on [0, 1]"
        rows.append(
            f"| {name} | {eps0:g}, {n:g} | {cells['wang'][0]} | {cells['wang'][1]} | {cells['su'][0]} | {cells['su'][1]} | "
            f"{_cell(ours_up, 'none')} | {_cell(ours_low, 'none')} | {verdicts['wang'][0]} / {verdicts['su'][0]} | {verdicts['wang'][1]} / {verdicts['su'][1]} | ours |"
        )
    text = "\n".join(rows) + "\n"
    if args.record_su:
        _record_su(Path(args.record_su), cache)
    if args.out:
        Path(args.out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
