"""mx.profiler: record operator timings and user annotations, write a Chrome trace.

While the profiler runs, every operator dispatched through the registry (``mx.nd.*``,
NDArray methods, executors that step through ``invoke``) is timed, and the user objects
below add their own records. ``dump()`` writes everything as a Chrome trace-event JSON
file (open it in chrome://tracing or https://ui.perfetto.dev); ``dumps()`` returns the
per-name aggregate statistics as a table or JSON, in the layout 1.9.1 prints.

    >>> from mxnet import profiler
    >>> profiler.set_config(filename='trace.json', aggregate_stats=True)
    >>> profiler.set_state('run')
    >>> # ... work ...
    >>> profiler.set_state('stop')
    >>> profiler.dump()
    >>> print(profiler.dumps())

How records appear in the trace (categories and phases as 1.9.1 writes them; each
category is its own trace "process"):

- operators: category ``operator``, phase ``X`` (complete, with ``dur``), on the
  device's process (``cpu/0``, ``gpu/0``);
- :class:`Event`: category ``event``, phases ``B`` / ``E``;
- :class:`Task`: the domain's name, phases ``b`` / ``e`` (async, with an ``id``);
- :class:`Frame`: ``<domain>,frame``, phases ``(`` / ``)``;
- :class:`Counter`: the domain's name, phase ``C``;
- :class:`Marker`: ``<domain>,instant_marker``, phase ``n`` with scope ``s``;
- memory: ``Device Storage``, phase ``C`` (bytes held by profiled outputs).

Limits of the Python port: there is no C API to profile (``profile_api`` is accepted and
ignored), imperative and symbolic operators are not told apart (either flag turns operator
timing on), and ``Device Storage`` counts only the arrays that operators created while the
profiler ran, released when their buffer is garbage collected.
"""
from __future__ import annotations

import json
import os
import tempfile
import threading
import time
import warnings
import weakref

from .backend import get_backend
from .base import MXNetAssertionError, MXNetError, MXNetKeyError
from .ndarray import ndarray as _ndmod

__all__ = ["set_config", "set_state", "get_state", "dump", "dumps", "pause", "resume",
           "profiler_set_config", "profiler_set_state", "dump_profile", "set_kvstore_handle",
           "Domain", "Task", "Frame", "Event", "Counter", "Marker"]

_perf_ns = time.perf_counter_ns
_get_ident = threading.get_ident

# Keys set_config accepts, with their types and defaults (a call starts from these, as
# 1.9.1's parameter struct does). 'contiguous_dump' is taken as a spelling of 'continuous_dump'.
_CONFIG_SPEC = {
    "profile_all": (bool, False),
    "profile_symbolic": (bool, True),
    "profile_imperative": (bool, True),
    "profile_memory": (bool, True),
    "profile_api": (bool, True),
    "filename": (str, "profile.json"),
    "continuous_dump": (bool, True),
    "dump_period": (float, 1.0),
    "aggregate_stats": (bool, False),
    "profile_process": (str, "worker"),
}
_ALIASES = {"contiguous_dump": "continuous_dump"}
_MARKER_SCOPES = {"global": "g", "process": "p", "thread": "t", "task": "p", "marker": "p"}
_SORT_KEYS = ("total", "avg", "min", "max", "count")



profiler_kvstore_handle = None


class _State:
    """Everything the profiler holds; one instance per process."""

    def __init__(self):
        self.config = {k: v for k, (_, v) in _CONFIG_SPEC.items()}
        self.running = False
        self.paused = False
        self.ever_ran = False
        self.events = []          # (ph, name, cat, process, tid, t_ns, extra)
        self.thread_names = {}    # tid -> thread name
        self.stats = {}           # section -> {name: [count, total, min, max, sum]}
        self.mem_stats = {}       # section -> {name: [count, min, max, sum]}
        self.mem_held = {}        # device process name -> bytes held by profiled outputs
        # re-entrant: a buffer freed by garbage collection inside a locked region reports
        # its release (weakref.finalize) on the same thread
        self.lock = threading.RLock()
        self.t_base = _perf_ns()
        self.agg = False          # flags derived from the above by _apply()
        self.mem_on = False

    @property
    def active(self):
        return self.running and not self.paused


_P = _State()


def _cfg(key):
    c = _P.config
    return c["profile_all"] or c[key]


def _apply():
    """Match the dispatcher's operator hook and the recording flags to the state."""
    active = _P.active
    _P.agg = _P.config["aggregate_stats"]
    _P.mem_on = active and _cfg("profile_memory")
    on = active and (_cfg("profile_imperative") or _cfg("profile_symbolic"))
    _ndmod._prof_hook = _on_op if on else None


def _note_thread(tid):
    if tid not in _P.thread_names:
        _P.thread_names[tid] = threading.current_thread().name


def _add_stat(section, name, value, total=None):
    """Fold one sample into the aggregate table (``total`` overrides the running sum)."""
    with _P.lock:
        sec = _P.stats.get(section)
        if sec is None:
            sec = _P.stats[section] = {}
        s = sec.get(name)
        if s is None:
            sec[name] = [1, value if total is None else total, value, value, value]
        else:
            s[0] += 1
            s[1] = s[1] + value if total is None else total
            if value < s[2]:
                s[2] = value
            if value > s[3]:
                s[3] = value
            s[4] += value


_dev_names = {}  # Context -> its trace process name


def _device_name(ctx):
    name = _dev_names.get(ctx)
    if name is None:
        name = _dev_names[ctx] = f"{ctx.device_type}/{ctx.device_id}"
    return name


# ----------------------------------------------------------------------------- operators

def _on_op(op, ctx, t0, res):
    """Called by ``ndarray.invoke`` after each operator while the profiler runs."""
    if ctx.device_typeid == 2:  # GPU kernels run asynchronously: time them to completion
        get_backend(ctx).synchronize()
    t1 = _perf_ns()
    tid = _get_ident()
    if tid not in _P.thread_names:
        _note_thread(tid)
    _P.events.append(("X", op.name, "operator", ctx, tid, t0, t1 - t0))
    if _P.agg:
        _add_stat("operator", op.name, t1 - t0)
    if _P.mem_on:
        if type(res) is tuple or type(res) is list:
            for r in res:
                if getattr(r, "base", 0) is None:  # owns its buffer
                    _track_memory(ctx, r, tid, t1)
        elif getattr(res, "base", 0) is None:
            _track_memory(ctx, res, tid, t1)


# id of a weak reference to a profiled output buffer -> (the reference, device, bytes)
_live = {}


def _track_memory(ctx, arr, tid, t):
    nbytes = int(getattr(arr, "nbytes", 0))
    if not nbytes:
        return
    try:
        ref = weakref.ref(arr, _on_free)
    except TypeError:  # this array type takes no weak references: do not count it
        return
    dev = _device_name(ctx)
    _live[id(ref)] = (ref, dev, nbytes)
    _mem_change(dev, nbytes, tid, t)


def _on_free(ref):
    entry = _live.pop(id(ref), None)
    if entry is not None:
        _mem_change(entry[1], -entry[2], None, None)


def _mem_change(dev, delta, tid, t):
    P = _P
    with P.lock:
        held = P.mem_held[dev] = max(0, P.mem_held.get(dev, 0) + delta)
        if not P.mem_on:
            return
        if tid is None:  # a release, reported by the garbage collector
            tid = _get_ident()
            _note_thread(tid)
            t = _perf_ns()
        name = "Memory: " + dev
        P.events.append(("C", name, "Device Storage", "Device Storage", tid, t, held))
        if P.agg:
            sec = P.mem_stats.get("Device Storage")
            if sec is None:
                sec = P.mem_stats["Device Storage"] = {}
            s = sec.get(name)
            if s is None:
                sec[name] = [1, held, held, held]
            else:
                s[0] += 1
                if held < s[1]:
                    s[1] = held
                if held > s[2]:
                    s[2] = held
                s[3] += held


# ----------------------------------------------------------------------------- config/state

def _parse(key, typ, value):
    if typ is bool:
        if isinstance(value, str):
            low = value.strip().lower()
            if low in ("1", "true"):
                return True
            if low in ("0", "false"):
                return False
        elif isinstance(value, (bool, int)) or hasattr(value, "__index__"):
            return bool(value)
        raise MXNetError(f"Invalid Parameter format for {key} expect boolean but value='{value}'")
    if typ is float:
        try:
            return float(value)
        except (TypeError, ValueError):
            raise MXNetError(f"Invalid Parameter format for {key} expect float but "
                             f"value='{value}'") from None
    value = str(value)
    if key == "profile_process" and value not in ("worker", "server"):
        raise MXNetError(f"Invalid Input: '{value}', valid values are: {{'server', 'worker'}}")
    return value


def set_config(**kwargs):
    """Configure the profiler; keys not given take their defaults.

    Keys: ``filename`` (trace file, default ``profile.json``), ``profile_all``,
    ``profile_symbolic``, ``profile_imperative``, ``profile_memory``, ``profile_api``,
    ``continuous_dump``, ``dump_period``, ``aggregate_stats`` (keep the totals that
    :func:`dumps` prints) and ``profile_process`` (``'worker'`` or ``'server'``).
    """
    new = {k: v for k, (_, v) in _CONFIG_SPEC.items()}
    for key, value in kwargs.items():
        key = _ALIASES.get(key, key)
        spec = _CONFIG_SPEC.get(key)
        if spec is None:
            raise MXNetError(f"Cannot find argument '{key}'; set_config takes "
                             + ", ".join(sorted(_CONFIG_SPEC)))
        new[key] = _parse(key, spec[0], value)
    if new["profile_process"] == "server":
        _check_server()
        return
    _P.config = new
    _apply()


def _check_server():
    if profiler_kvstore_handle is None:
        raise MXNetError("profiling the 'server' process needs a distributed kvstore "
                         "(set_kvstore_handle)")
    warnings.warn("profiling kvstore server processes is not supported here; ignored",
                  stacklevel=3)


def _check_process(profile_process):
    if profile_process not in ("worker", "server"):
        # 1.9.1 looks the name up in a dict here, so the error is a KeyError
        raise MXNetKeyError(f"profile_process must be 'worker' or 'server', got "
                            f"{profile_process!r}")
    if profile_process == "server":
        _check_server()
        return False
    return True


def set_kvstore_handle(handle):
    """Remember the kvstore whose server processes ``profile_process='server'`` refers to."""
    global profiler_kvstore_handle
    profiler_kvstore_handle = handle


def set_state(state="stop", profile_process="worker"):
    """Start (``'run'``) or stop (``'stop'``) recording."""
    if state not in ("run", "stop"):
        raise MXNetKeyError(f"profiler state must be 'run' or 'stop', not {state!r}")
    if not _check_process(profile_process):
        return
    _P.running = state == "run"
    _P.paused = False
    if _P.running:
        _P.ever_ran = True
    _apply()


def get_state():
    """The profiler's state: ``'run'`` or ``'stop'``."""
    return "run" if _P.running else "stop"


def __getattr__(name):
    if name == "state":  # profiler.state reads the current state
        return get_state()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def pause(profile_process="worker"):
    """Stop recording for a while, keeping the state ``'run'``."""
    if _check_process(profile_process):
        _P.paused = True
        _apply()


def resume(profile_process="worker"):
    """Record again after :func:`pause`."""
    if _check_process(profile_process):
        _P.paused = False
        _apply()


def profiler_set_config(mode="symbolic", filename="profile.json"):
    """Deprecated form of :func:`set_config`: ``mode`` is ``'symbolic'`` or ``'all'``."""
    warnings.warn("profiler.profiler_set_config() is deprecated; use profiler.set_config()",
                  stacklevel=2)
    set_config(**{"profile_" + mode: True, "filename": filename})


def profiler_set_state(state="stop"):
    """Deprecated form of :func:`set_state`."""
    warnings.warn("profiler.profiler_set_state() is deprecated; use profiler.set_state()",
                  stacklevel=2)
    set_state(state)


# ----------------------------------------------------------------------------- trace output

def _trace_events():
    """The recorded events as Chrome trace-event dicts, with process/thread metadata."""
    events = sorted(_P.events, key=lambda e: e[5])
    pids, tids, out = {}, {}, []
    base = _P.t_base

    def pid_of(proc):
        name = proc if isinstance(proc, str) else _device_name(proc)
        p = pids.get(name)
        if p is None:
            p = pids[name] = len(pids)
            out.append({"name": "process_name", "ph": "M", "pid": p, "args": {"name": name}})
        return p

    def tid_of(pid, ident):
        t = tids.get(ident)
        if t is None:
            t = tids[ident] = len(tids)
        if (pid, t) not in seen_threads:
            seen_threads.add((pid, t))
            out.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": t,
                        "args": {"name": _P.thread_names.get(ident, f"thread {t}")}})
        return t

    seen_threads = set()
    for ph, name, cat, proc, ident, t, extra in events:
        pid = pid_of(proc)
        ev = {"name": name, "cat": cat, "ph": ph, "ts": round((t - base) / 1000.0, 3),
              "pid": pid, "tid": tid_of(pid, ident)}
        if ph == "X":   # written as 1.9.1 writes a duration: a begin and an end record
            ev["ph"] = "B"
            out.append(ev)
            ev = dict(ev, ph="E", ts=round((t + extra - base) / 1000.0, 3))
        elif ph == "C":
            ev["args"] = {name: extra}
        elif ph in ("b", "e"):
            ev["id"] = extra
        elif ph == "n":
            ev["s"], ev["id"] = extra
        out.append(ev)
    meta = [e for e in out if e["ph"] == "M"]
    return meta + sorted((e for e in out if e["ph"] != "M"), key=lambda e: e["ts"])


def dump(finished=True, profile_process="worker"):
    """Write the trace recorded so far to the configured file (atomically).

    With ``finished=True`` the written records are then dropped and, as in 1.9.1, the next
    dump needs ``set_state('run')`` first (it then writes a new trace); with
    ``finished=False`` they are kept and a later dump rewrites the file with everything.
    """
    if not _check_process(profile_process):
        return
    if not _P.ever_ran:
        raise MXNetError("the profiler has not run since it was configured or since the "
                         "last finished dump: call set_config and set_state('run') first")
    enc = json.JSONEncoder(separators=(", ", ": ")).encode
    body = ",\n".join(map(enc, _trace_events()))  # one event a line
    path = os.path.abspath(_P.config["filename"])
    fd, tmp = tempfile.mkstemp(prefix=".profile-", suffix=".json", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "w") as f:
            f.write('{"traceEvents": [\n' + body + '\n],\n"displayTimeUnit": "ms"\n}\n')
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # a plain file's mode (mkstemp makes it private)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    if finished:   # as 1.9.1: a finished trace cannot be dumped again before set_state('run')
        _P.events = []
        _P.ever_ran = False


def dump_profile():
    """Deprecated form of :func:`dump`."""
    warnings.warn("profiler.dump_profile() is deprecated; use profiler.dump()",
                  stacklevel=2)
    dump(True)


# ----------------------------------------------------------------------------- aggregate stats

def _sorted_rows(section, sort_by, ascending):
    col = _SORT_KEYS.index(sort_by)

    def key(item):
        count, total, lo, hi, total_sum = item[1]
        return (total, total_sum / count, lo, hi, count)[col]

    return sorted(section.items(), key=key, reverse=not ascending)


def _ms(v):
    return v / 1e6  # nanoseconds (or counter units x 1000) to the table's milliseconds


def _num(v):
    v = round(v, 3)
    return str(int(v)) if v == int(v) else repr(v)


def _table(stats, mem, sort_by, ascending):
    lines = ["", "Profile Statistics:", "\tNote the difference in units for different entries."]
    sections = sorted(set(stats) | set(mem))
    for sec in sections:
        lines += [sec, "================="]
        if sec in mem:
            lines.append(f"{'Name':<30}{'Total Count':>11}" + "".join(
                f"{h:>17}" for h in ("Min Use  (kB)", "Max Use  (kB)", "Avg Use  (kB)")))
            lines.append(f"{'----':<30}{'-' * 11}" + f"{'-' * 13:>17}" * 3)
            rows = sorted(mem[sec].items(),
                          key=lambda it: _mem_key(it[1], sort_by), reverse=not ascending)
            for name, (count, lo, hi, _total) in rows:
                lines.append(f"{name:<25}{count:>16}{lo / 1000:17.4f}{hi / 1000:17.4f}"
                             f"{_mem_avg(lo, hi) / 1000:17.4f}")
        else:
            lines.append(f"{'Name':<30}{'Total Count':>11}" + "".join(
                f"{h:>17}" for h in ("Time (ms)", "Min Time (ms)", "Max Time (ms)",
                                      "Avg Time (ms)")))
            lines.append(f"{'----':<30}{'-' * 11}{'-' * 9:>17}" + f"{'-' * 13:>17}" * 3)
            for name, (count, total, lo, hi, total_sum) in _sorted_rows(
                    stats[sec], sort_by, ascending):
                lines.append(f"{name:<25}{count:>16}{_ms(total):17.4f}{_ms(lo):17.4f}"
                             f"{_ms(hi):17.4f}{_ms(total_sum / count):17.4f}")
        lines.append("")
    return "\n".join(lines) + "\n"


def _mem_avg(lo, hi):
    # 1.9.1 reports half the spread between the lowest and highest use as "Avg Use"
    # (min 4 kB, max 18 kB -> 7 kB whatever the samples were); kept so that tables agree.
    return (hi - lo) / 2


def _mem_key(s, sort_by):
    count, lo, hi, total = s
    return {"total": total, "avg": _mem_avg(lo, hi), "min": lo, "max": hi, "count": count}[sort_by]


def _json(stats, mem, sort_by, ascending):
    def block(entries, indent):
        pad = " " * indent
        parts = []
        for name, fields in entries:
            body = ",\n".join(f'{pad}    "{k}": {v}' for k, v in fields)
            parts.append(f'{pad}{json.dumps(name)}: {{\n{body}\n{pad}}}')
        return f"\n{pad},\n".join(parts)

    time_secs = []
    for sec in sorted(stats):
        rows = [(name, [("Count", count), ("Total", _num(_ms(total))), ("Min", _num(_ms(lo))),
                        ("Max", _num(_ms(hi))), ("Avg", _num(_ms(total_sum / count)))])
                for name, (count, total, lo, hi, total_sum)
                in _sorted_rows(stats[sec], sort_by, ascending)]
        time_secs.append((sec, rows))
    mem_secs = []
    for sec in sorted(mem):
        items = sorted(mem[sec].items(), key=lambda it: _mem_key(it[1], sort_by),
                       reverse=not ascending)
        rows = [(name, [("Count", count), ("Min", _num(lo / 1000)), ("Max", _num(hi / 1000)),
                        ("Avg", _num(_mem_avg(lo, hi) / 1000))])
                for name, (count, lo, hi, total) in items]
        mem_secs.append((sec, rows))

    def group(secs):
        parts = []
        for sec, rows in secs:
            inner = block(rows, 12)
            parts.append(f'        {json.dumps(sec)}: {{\n' + (inner + "\n" if inner else "")
                         + "        }")
        return ("\n        ,\n".join(parts) + "\n") if parts else ""

    return ('{\n    "Time": {\n' + group(time_secs) + "    }\n    ,\n"
            '    "Memory": {\n' + group(mem_secs) + "    }\n,\n"
            '    "Unit": {\n        "Time": "ms",\n        "Memory": "kB"\n    }\n}\n')


def dumps(reset=False, format="table", sort_by="total", ascending=False):  # noqa: A002
    """The aggregate statistics (needs ``aggregate_stats=True``) as a table or JSON text.

    ``sort_by`` is one of ``'total'``, ``'avg'``, ``'min'``, ``'max'``, ``'count'``;
    ``reset=True`` clears the statistics after reading them.
    """
    if format not in ("table", "json"):
        raise MXNetAssertionError(f"Invalid value provided for format: {format}. "
                             "Support: 'table', 'json'")
    if sort_by not in _SORT_KEYS:
        raise MXNetAssertionError(f"Invalid value provided for sort_by: {sort_by}. "
                         "Support: 'total', 'avg', 'min', 'max', 'count'")
    # 1.9.1 asserts ``value in (False, True)``: 0, 1 and 1.0 pass, 2, None and strings do not
    for name, value in (("ascending", ascending), ("reset", reset)):
        if isinstance(value, str) or value not in (False, True):
            raise MXNetAssertionError(f"Invalid value provided for {name}: {value}. "
                                      "Support: False, True")
    ascending = bool(ascending)
    reset = bool(reset)
    if not _P.config["aggregate_stats"] and not _P.stats and not _P.mem_stats:
        return ""
    with _P.lock:
        stats = {sec: {k: list(v) for k, v in rows.items()} for sec, rows in _P.stats.items()}
        mem = {sec: {k: list(v) for k, v in rows.items()} for sec, rows in _P.mem_stats.items()}
        if reset:
            _P.stats = {}
            _P.mem_stats = {}
    if format == "table":
        return _table(stats, mem, sort_by, ascending)
    return _json(stats, mem, sort_by, ascending)


# ----------------------------------------------------------------------------- user objects

def _record(ph, name, cat, t, extra=None):
    tid = _get_ident()
    _note_thread(tid)
    _P.events.append((ph, name, cat, cat, tid, t, extra))


class Domain:
    """A named group for tasks, frames, counters and markers."""

    def __init__(self, name):
        self.name = str(name)

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"Domain({self.name!r})"

    def new_task(self, name):
        return Task(self, name)

    def new_frame(self, name):
        return Frame(self, name)

    def new_counter(self, name, value=None):
        return Counter(self, name, value)

    def new_marker(self, name):
        return Marker(self, name)


class _Span:
    """A start/stop interval: recorded (both ends) when it stops, if it began while running."""

    _begin = _end = ""

    def __init__(self, name, category):
        self.name = str(name)
        self._cat = category
        self._t0 = None

    def start(self):
        self._t0 = _perf_ns() if _P.active else None

    def stop(self):
        t0, self._t0 = self._t0, None
        if t0 is None:
            return
        t1 = _perf_ns()
        extra = self._extra()
        _record(self._begin, self.name, self._cat, t0, extra)
        _record(self._end, self.name, self._cat, t1, extra)
        if _P.agg:
            _add_stat(self._cat, self.name, t1 - t0)

    def _extra(self):
        return None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def __str__(self):
        return self.name


class Task(_Span):
    """An asynchronous span in a domain (it may start on one thread and stop on another)."""

    _begin, _end = "b", "e"
    _ids = iter(range(1, 1 << 62))

    def __init__(self, domain, name):
        super().__init__(name, str(domain))
        self.domain = domain
        self._id = next(Task._ids)

    def _extra(self):
        return self._id


class Frame(_Span):
    """A span marking one frame (an iteration, a batch) of a domain."""

    _begin, _end = "(", ")"

    def __init__(self, domain, name):
        super().__init__(name, f"{domain},frame")
        self.domain = domain


class Event(_Span):
    """A named span on the calling thread, in the ``event`` category."""

    _begin, _end = "B", "E"

    def __init__(self, name):
        super().__init__(name, "event")


class Counter:
    """A named integer in a domain; each change is a ``C`` record in the trace."""

    def __init__(self, domain, name, value=None):
        self.name = str(name)
        self.domain = domain
        self._value = 0
        if value is not None:
            self.set_value(value)

    def _emit(self):
        if _P.active:
            _record("C", self.name, str(self.domain), _perf_ns(), self._value)
            if _P.agg:
                # 1.9.1 lists counters among the timings, a value of v showing as v/1000 ms
                _add_stat(str(self.domain), self.name, self._value * 1000, total=self._value * 1000)

    @property
    def value(self):
        return self._value

    def set_value(self, value):
        self._value = int(value)
        self._emit()

    def increment(self, delta=1):
        self._value += int(delta)
        self._emit()

    def decrement(self, delta=1):
        self._value -= int(delta)
        self._emit()

    def __iadd__(self, delta):
        self.increment(delta)
        return self

    def __isub__(self, delta):
        self.decrement(delta)
        return self

    def __str__(self):
        return self.name


class Marker:
    """A named instant in a domain."""

    def __init__(self, domain, name):
        self.name = str(name)
        self.domain = domain

    def mark(self, scope="process"):
        """Record the instant; ``scope`` is 'global', 'process', 'thread', 'task' or 'marker'."""
        code = _MARKER_SCOPES.get(scope)
        if code is None:
            raise MXNetError(f"Invalid Input: '{scope}', valid values are: "
                             "{'global', 'marker', 'process', 'task', 'thread'}")
        if not _P.active:
            return
        cat = f"{self.domain},instant_marker"
        _record("n", self.name, cat, _perf_ns(), (code, 0))
        if _P.agg:
            with _P.lock:
                _P.stats.setdefault(cat, {})  # listed, with no rows, as 1.9.1 does

    def __str__(self):
        return self.name


def _autostart():
    """``MXNET_PROFILER_AUTOSTART=1``: profile from import on and write the trace to
    ``profile.json`` when the process exits, as 1.9.1 does. ``MXNET_PROFILER_MODE`` 1 (all)
    or 0 (symbolic, the default) is accepted; operators are timed either way here."""
    if os.environ.get("MXNET_PROFILER_AUTOSTART", "0").strip() in ("", "0"):
        return
    import atexit
    mode = os.environ.get("MXNET_PROFILER_MODE", "0").strip()
    set_config(profile_all=mode not in ("", "0"), profile_symbolic=True)
    set_state("run")

    def _dump_at_exit():
        if _P.ever_ran:
            dump(True)
    atexit.register(_dump_at_exit)


_autostart()
