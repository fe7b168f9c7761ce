"""What every benchmark shares: the machine's load, the size to run at, Dogtag and its floor
timed in turn (A B A B ...) so a drift in the machine's speed hits both, memory peaks beside the
times, and one closing line per measure that anyone (or a script) can read:

    RESULT <name> ratio=<x> value=<y><unit> goal=<g> met=<yes|no>

Use::

    from _harness import Bench

    bench = Bench("rules")                           # prints load, cores, scale, database
    n = bench.size                                   # BENCH_SCALE=10k|100k|1m (default 100k)
    runs = bench.interleave({"dogtag": run_engine, "floor": run_naive}, repetitions=3)
    cps = n / runs["dogtag"].cpu.median             # each side: wall, cpu, peak_mb, figure
    bench.result("rules.engine", ratio=runs.ratio("cpu"), value=cps, unit="decisions/CPU-s",
                 goal="ratio<=1.5", met=runs.ratio("cpu") <= 1.5)

A measured callable may return a number (its own figure: a p99 from a load run, say); it is kept
as `figure` beside the wall and CPU seconds the harness takes around the call (anything else it
returns is dropped). The peak memory is the process's resident high-water mark during the call
(reset before it with /proc/self/clear_refs where Linux allows, otherwise the lifetime peak, said
so in the output). Servers in subprocesses
report their own CPU through `tree_cpu_seconds(pid)`.
"""

from __future__ import annotations

import gc
import math
import os
import resource
import secrets
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

# A benchmark runs the app as production does (DEBUG off), which wants a secret key of its own
# and the address residents would use.
os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_urlsafe(40))
os.environ.setdefault("DOGTAG_BASE_URL", "http://127.0.0.1")

SCALES = {"10k": 10_000, "100k": 100_000, "1m": 1_000_000}


def scale(default: str = "100k") -> tuple[str, int]:
    """BENCH_SCALE: 10k, 100k or 1m (a plain integer is accepted too, for a quick look)."""
    raw = os.environ.get("BENCH_SCALE", default).strip().lower()
    if raw in SCALES:
        return raw, SCALES[raw]
    if raw.isdigit() and int(raw) > 0:
        return raw, int(raw)
    sys.exit(f"BENCH_SCALE={raw!r}: expected one of {', '.join(SCALES)} (or a positive integer)")


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (0-100), nearest rank; the figure a p99 goal is read against."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, min(len(ordered), math.ceil(p / 100 * len(ordered))))
    return ordered[rank - 1]


# --- memory ------------------------------------------------------------------------------------


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # resets VmHWM (Linux >= 4.0)
        return True
    except OSError:
        return False


def peak_rss_mb() -> float:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_mb_of(pid: int) -> float:
    """A (server) process's resident memory now, MB."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def tree_pids(pid: int) -> list[int]:
    """`pid` and its descendants (a gunicorn master and its workers)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except OSError:
            continue
    return found


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds used so far by `pid` and its live descendants."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for p in tree_pids(pid):
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        except OSError:
            continue
    return total / tick


def tree_rss_mb(pid: int) -> float:
    return sum(rss_mb_of(p) for p in tree_pids(pid))


# --- interleaved runs ---------------------------------------------------------------------------


@dataclass
class Series:
    values: list[float] = field(default_factory=list)

    @property
    def min(self) -> float:
        return min(self.values) if self.values else float("nan")

    @property
    def median(self) -> float:
        return statistics.median(self.values) if self.values else float("nan")

    @property
    def max(self) -> float:
        return max(self.values) if self.values else float("nan")


@dataclass
class Side:
    name: str
    wall: Series = field(default_factory=Series)
    cpu: Series = field(default_factory=Series)
    peak_mb: Series = field(default_factory=Series)
    figure: Series = field(default_factory=Series)

    def series(self, metric: str) -> Series:
        return getattr(self, metric)


class Runs(dict):
    """{side name: Side}; the first side is Dogtag, the second its floor."""

    def ratio(self, metric: str = "cpu", a: str | None = None, b: str | None = None) -> float:
        """Median of the pair-by-pair ratios A/B (each pair ran back to back, so drift cancels)."""
        names = list(self)
        sa, sb = self[a or names[0]].series(metric), self[b or names[1]].series(metric)
        pairs = [x / y for x, y in zip(sa.values, sb.values, strict=False) if y]
        return statistics.median(pairs) if pairs else float("nan")


class Bench:
    def __init__(self, name: str, *, default_scale: str = "100k", database: str | None = None):
        self.name = name
        self.scale_name, self.size = scale(default_scale)
        self.peak_exact = _reset_peak()
        self.results: list[str] = []
        url = os.environ.get("DATABASE_URL", "")
        engine = database or ("postgresql" if url.startswith("postgres") else "sqlite")
        print(f"== bench {name}: scale {self.scale_name} ({self.size:,}), {engine}, {load()}", flush=True)

    def note(self, text: str) -> None:
        print(f"   {text}", flush=True)

    def interleave(
        self, sides: Mapping[str, Callable[[], float | None]], *, repetitions: int = 3, warmup: int = 1, label: str = ""
    ) -> Runs:
        """Each side `warmup` times untimed, then A B A B ... `repetitions` times; prints min and median."""
        repetitions = max(repetitions, 3)
        runs = Runs((name, Side(name)) for name in sides)
        # The fixtures built so far are not the work being measured: keep the collector from
        # walking them again and again (what a preloaded server does with gc.freeze too).
        gc.collect()
        gc.freeze()
        for _ in range(warmup):
            for fn in sides.values():
                fn()
        for _ in range(repetitions):
            for name, fn in sides.items():
                side = runs[name]
                _reset_peak()
                wall0, cpu0 = time.perf_counter(), time.process_time()
                figure = fn()
                cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
                side.wall.values.append(wall)
                side.cpu.values.append(cpu)
                side.peak_mb.values.append(peak_rss_mb())
                if isinstance(figure, (int, float)) and not isinstance(figure, bool):
                    side.figure.values.append(float(figure))
                del figure
        self.print_runs(runs, label)
        return runs

    def print_runs(self, runs: Runs, label: str = "") -> None:
        head = f"-- {label} " if label else "-- "
        print(f"{head}({len(next(iter(runs.values())).wall.values)} interleaved runs; {load()})")
        peak = "peak RSS" if self.peak_exact else "peak RSS (process lifetime)"
        for side in runs.values():
            parts = [
                f"wall min {side.wall.min:.3f} s median {side.wall.median:.3f} s",
                f"cpu min {side.cpu.min:.3f} s median {side.cpu.median:.3f} s",
                f"{peak} {side.peak_mb.max:.0f} MB",
            ]
            if side.figure.values:
                parts.append(f"figure min {side.figure.min:.4g} median {side.figure.median:.4g}")
            print(f"   {side.name:<10} " + "; ".join(parts), flush=True)

    def result(self, name: str, *, ratio: float, value: float, unit: str, goal: str, met: bool) -> str:
        line = f"RESULT {name} ratio={ratio:.2f} value={_num(value)}{unit} goal={goal} met={'yes' if met else 'no'}"
        self.results.append(line)
        print(line, flush=True)
        return line


def _num(value: float) -> str:
    if value != value:  # nan
        return "nan"
    if abs(value) >= 100:
        return f"{value:.0f}"
    if abs(value) >= 1:
        return f"{value:.2f}"
    return f"{value:.4g}"


# --- a real server -------------------------------------------------------------------------------


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# The server's settings as `dogtag serve` reads them (DOGTAG_WORKER_CLASS passes through): 2 x 4 unless set.
WORKERS, THREADS = int(os.environ.get("DOGTAG_WORKERS", 2)), int(os.environ.get("DOGTAG_THREADS", 4))


def start_server(port: int, *, workers: int = WORKERS, threads: int = THREADS, **env):
    """`dogtag serve` (gunicorn) on 127.0.0.1:`port` in a session of its own (stop it with
    os.killpg(server.pid, SIGTERM)); returns once /healthz answers, within 180 s (under a load of 14 on
    two cores, loading Django and the rule packs before the fork alone took 40 s)."""
    import subprocess
    from http.client import HTTPConnection

    env = {
        **os.environ,
        "DOGTAG_BIND": f"127.0.0.1:{port}",
        "DOGTAG_WORKERS": str(workers),
        "DOGTAG_THREADS": str(threads),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DEBUG": "false",
        # Plain HTTP on the loopback, as behind a TLS-terminating proxy (without its header).
        "SECURE_SSL_REDIRECT": "false",
        **env,
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "dogtag", "serve", "--no-collectstatic"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            # /healthz re-reads the rule packs' folders: ~2 s an answer under a load of 15.
            conn = HTTPConnection("127.0.0.1", port, timeout=20)
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            return server
        except OSError:
            if server.poll() is not None:
                sys.exit("the server did not start")
            time.sleep(0.2)
    server.kill()
    sys.exit("the server did not answer within 180 s")


# --- a page and its own SQL ----------------------------------------------------------------------


def sql_of(call) -> list[str]:
    """The SQL statements one call runs (Django's connection), as the database received them."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        call()
    return [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]


def replay(statements: list[str]) -> None:
    """Run statements captured by `sql_of` again on the raw cursor, fetching every row: the
    floor of a page is its own SQL with no Python around it."""
    from django.db import connection

    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql.replace("%", "%%"))
            if cursor.description is not None:
                cursor.fetchall()


def latencies_ms(call, samples: int) -> list[float]:
    times = []
    for i in range(samples):
        began = time.perf_counter()
        call(i)
        times.append((time.perf_counter() - began) * 1000)
    return times
