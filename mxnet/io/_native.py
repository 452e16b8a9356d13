"""Machinery behind the iterators that 1.9.1 implements in C++ (CSVIter, MNISTIter, ...).

* :class:`Producer` runs a function on a daemon thread and hands its results over through a
  bounded buffer. An exception raised there is re-raised in the consumer, and ``stop`` ends the
  thread (every live producer is stopped at interpreter exit, so nothing hangs there).
* :class:`RowBatcher` is dmlc's BatchLoader: it packs instances from a row stream into fixed-size
  batches, with ``round_batch`` wrapping around to the start and carrying the remainder into the
  next epoch.
* Parameter parsing for the keyword arguments, which 1.9.1 accepts as strings too.
"""
from __future__ import annotations

import ast
import atexit
import collections
import threading
import weakref

import numpy as np

from ..base import MXNetError

__all__ = ["Producer", "RowBatcher", "RawBatch", "parse_shape", "parse_bool", "parse_int",
           "parse_float", "parse_str"]


# -- the background producer ----------------------------------------------------------------------
_END = object()
_live = weakref.WeakSet()


class _State:
    """What the worker thread shares with its owner (the thread never holds the owner)."""

    def __init__(self, fn, capacity):
        self.fn = fn
        self.capacity = max(1, int(capacity))
        self.cond = threading.Condition()
        self.items = collections.deque()
        self.outstanding = 0    # produced and not yet taken
        self.stopping = False
        self.finished = False   # the thread has put its last item (end or error)


def _run(state):
    while True:
        with state.cond:
            while state.outstanding >= state.capacity and not state.stopping:
                state.cond.wait()
            if state.stopping:
                state.finished = True
                state.cond.notify_all()
                return
            state.outstanding += 1
        try:
            item = state.fn()
            kind = "end" if item is None else "ok"
        except BaseException as e:  # noqa: BLE001 - handed to the consumer
            item, kind = e, "err"
        with state.cond:
            state.items.append((kind, item))
            if kind != "ok":
                state.finished = True
            state.cond.notify_all()
            if kind != "ok":
                return


class Producer:
    """Call ``fn()`` repeatedly on a daemon thread, keeping at most ``capacity`` results ahead.

    ``fn`` returns an item, or None at the end of the stream; an exception ends the stream and
    is raised by :meth:`get`. The producer starts with ``capacity`` calls in hand: with capacity
    1 it computes the next item while the consumer works on the current one.
    """

    def __init__(self, fn, capacity=1, name="mxnet-io-producer"):
        self._state = _State(fn, capacity)
        self._done = False
        self._thread = threading.Thread(target=_run, args=(self._state,), name=name, daemon=True)
        self._thread.start()
        _live.add(self)

    def get(self):
        """The next item, None at the end; re-raises the producer's exception."""
        if self._done:
            return None
        st = self._state
        with st.cond:
            while not st.items:
                if st.finished and not self._thread.is_alive():
                    self._done = True
                    return None
                st.cond.wait(0.5)
            kind, item = st.items.popleft()
            st.outstanding -= 1
            st.cond.notify_all()
        if kind == "ok":
            return item
        self._done = True
        if kind == "err":
            raise item
        return None

    def stop(self, timeout=None):
        """End the thread (waiting for a call in progress) and drop what it produced.

        Returns an exception the consumer has not seen yet, or None.
        """
        st = self._state
        with st.cond:
            st.stopping = True
            st.cond.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)
        pending = None
        with st.cond:
            for kind, item in st.items:
                if kind == "err":
                    pending = item
            st.items.clear()
        self._done = True
        _live.discard(self)
        return pending

    def __del__(self):
        try:
            st = self._state
            with st.cond:
                st.stopping = True
                st.cond.notify_all()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


@atexit.register
def _stop_all():
    for p in list(_live):
        try:
            p.stop(timeout=1.0)
        except Exception:  # noqa: BLE001 - best effort at exit
            pass


# -- batches ----------------------------------------------------------------------------------------
RawBatch = collections.namedtuple("RawBatch", ["data", "label", "pad", "index"])


class RowBatcher:
    """dmlc's BatchLoader over a row stream.

    ``stream`` has ``before_first()`` and ``take(n)``, which returns up to ``n`` rows as a tuple
    of arrays ``(index, data, label)`` or None at the end. Batches are assembled in persistent
    buffers, so without ``round_batch`` the padding slots of a short last batch still hold the
    rows of the batch before (zeros when nothing was there), as in 1.9.1.

    ``pad_without_round`` is the pad reported for a short batch when ``round_batch`` is off:
    ``"count"`` (the missing rows; BatchLoader) or ``"zero"`` (ImageRecordIter's 0).
    """

    def __init__(self, stream, batch_size, data_shape, label_shape, dtype, label_dtype,
                 round_batch=True, pad_without_round="count"):
        self.stream = stream
        self.batch_size = int(batch_size)
        self.round_batch = bool(round_batch)
        self.pad_without_round = pad_without_round
        b = self.batch_size
        self._data = np.zeros((b,) + tuple(data_shape), dtype)
        self._label = np.zeros((b,) + tuple(label_shape), label_dtype)
        self._index = np.zeros((b,), np.uint64)
        self._overflow = 0

    def before_first(self):
        if not self.round_batch or self._overflow == 0:
            self.stream.before_first()
        else:
            self._overflow = 0

    def _fill(self, top, until):
        while top < until:
            rows = self.stream.take(until - top)
            if rows is None:
                break
            index, data, label = rows
            n = len(index)
            self._index[top:top + n] = index
            self._data[top:top + n] = data
            self._label[top:top + n] = label
            top += n
        return top

    def next(self):
        if self._overflow:
            return None
        b = self.batch_size
        top = self._fill(0, b)
        if top == 0:
            return None
        pad = 0
        if top < b:
            if self.round_batch:
                self.stream.before_first()
                filled = self._fill(top, b)
                if filled < b:
                    raise MXNetError("number of input must be bigger than batch size")
                pad = self._overflow = b - top
            else:
                pad = b - top if self.pad_without_round == "count" else 0
        return RawBatch(self._data.copy(), self._label.copy(), pad, self._index.copy())


# -- keyword parsing (values may come as strings, as with 1.9.1's C++ parameter parser) ----------
def _literal(value):
    if isinstance(value, str):
        try:
            return ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            return value
    return value


def parse_shape(value, name):
    v = _literal(value)
    if isinstance(v, (int, np.integer)):
        v = (int(v),)
    try:
        shape = tuple(int(x) for x in v)
    except (TypeError, ValueError):
        raise MXNetError(f"Invalid Parameter format for {name} expect Shape(tuple) but value="
                         f"'{value}'") from None
    if any(s <= 0 for s in shape):
        raise MXNetError(f"Invalid Parameter {name}: every dimension must be positive, got {shape}")
    return shape


def parse_bool(value, name):
    v = _literal(value)
    if isinstance(v, str):
        low = v.lower()
        if low in ("true", "1"):
            return True
        if low in ("false", "0"):
            return False
        raise MXNetError(f"Invalid Parameter format for {name} expect boolean but value='{value}'")
    if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) and v not in (0, 1):
        # 1.9.1 reads the value's text: only true/false/1/0 are booleans
        raise MXNetError(f"Invalid Parameter format for {name} expect boolean but value='{value}'")
    return bool(v)


def parse_int(value, name):
    v = _literal(value)
    try:
        if isinstance(v, (bool, np.bool_, float, np.floating)):
            raise ValueError  # 1.9.1 parses the text: '12.0' and 'True' are not ints
        return int(v)
    except (TypeError, ValueError):
        raise MXNetError(f"Invalid Parameter format for {name} expect int but value='{value}'") from None


def parse_float(value, name):
    v = _literal(value)
    try:
        return float(v)
    except (TypeError, ValueError):
        raise MXNetError(f"Invalid Parameter format for {name} expect float but value='{value}'") from None


def parse_str(value, name):
    return value if isinstance(value, str) else str(value)


def required(kwargs, name, kind, iter_name):
    if name not in kwargs:
        raise MXNetError(f"{iter_name}: Required parameter {name} of {kind} is not presented")
    return kwargs[name]
