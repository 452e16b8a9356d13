"""Monitor: statistics of a network's intermediate arrays while it trains.

Install it on executors (``Module.install_monitor`` or ``Module.fit(monitor=...)``);
every ``interval`` batches, between :meth:`Monitor.tic` and :meth:`Monitor.toc`, it
collects ``stat_func`` of each array the executors show it whose name matches
``pattern`` (the operator outputs of forward, then those of the gradient nodes of
backward, such as ``fc1_backward_output1``, as 1.9.1 names and orders them; see
:mod:`mxnet.executor.monitoring`), then of the matching arguments and auxiliary states.
:meth:`Monitor.toc_print` logs one line per statistic:
``Batch: <step:7d> <name:30s> <values, tab-terminated>``.
"""
from __future__ import annotations

import logging
import re
from math import sqrt

from . import ndarray
from .ndarray import NDArray

__all__ = ["Monitor"]


def _default_stat(x):
    """The root-mean-square of ``x``: ``norm(x) / sqrt(size)``."""
    return ndarray.norm(x) / sqrt(x.size)


class Monitor:
    """Collect ``stat_func(array)`` every ``interval`` batches.

    Parameters
    ----------
    interval : int
        Collect on batches ``0, interval, 2 * interval, ...`` (counted by :meth:`tic`).
    stat_func : callable, optional
        NDArray -> NDArray (or list of them); the default is the root-mean-square.
    pattern : str
        A regular expression; only names it matches (``re.match``) are collected.
    sort : bool
        Sort the collected statistics by name in :meth:`toc`.
    monitor_all : bool
        Also collect operator inputs, not only outputs.
    """

    def __init__(self, interval, stat_func=None, pattern=".*", sort=False, monitor_all=False):
        self.stat_func = _default_stat if stat_func is None else stat_func
        self.interval = interval
        self.activated = False
        self.queue = []
        self.step = 0
        self.exes = []
        self.re_prog = re.compile(pattern)
        self.sort = sort
        self.monitor_all = monitor_all
        self.stat_helper = self._stat_helper

    @property
    def _monitor_idle(self):
        """True between collections: executors then skip reporting to this monitor."""
        return not self.activated

    def _stat_helper(self, name, array):
        """The executor's callback: record ``stat_func(array)`` while active."""
        if isinstance(name, bytes):
            name = name.decode()
        if not self.activated or not self.re_prog.match(name):
            return
        self.queue.append((self.step, name, self.stat_func(array)))

    def install(self, exe):
        """Attach to an executor (every forward reports to this monitor)."""
        exe.set_monitor_callback(self.stat_helper, self.monitor_all)
        self.exes.append(exe)

    def _wait_all(self):
        for exe in self.exes:
            for array in exe.arg_arrays:
                array.wait_to_read()
            for array in exe.aux_arrays:
                array.wait_to_read()

    def tic(self):
        """Start a batch; collection turns on every ``interval`` batches."""
        if self.step % self.interval == 0:
            self._wait_all()
            self.queue = []
            self.activated = True
        self.step += 1

    def toc(self):
        """End a batch: add the arguments' and auxiliary states' statistics and return
        ``[(step, name, text)]``, where ``text`` holds each statistic followed by a tab."""
        if not self.activated:
            return []
        self._wait_all()
        for exe in self.exes:
            sym = exe._symbol
            for name, array in zip(sym.list_arguments(), exe.arg_arrays):
                if self.re_prog.match(name):
                    self.queue.append((self.step, name, self.stat_func(array)))
            for name, array in zip(sym.list_auxiliary_states(), exe.aux_arrays):
                if self.re_prog.match(name):
                    self.queue.append((self.step, name, self.stat_func(array)))
        self.activated = False
        if self.sort:
            self.queue.sort(key=lambda x: x[1])
        res = []
        for step, name, values in self.queue:
            if isinstance(values, NDArray):
                values = [values]
            if not isinstance(values, list):
                raise TypeError("stat_func must return an NDArray or a list of NDArrays")
            text = ""
            for v in values:
                if not isinstance(v, NDArray):
                    raise TypeError("stat_func must return an NDArray or a list of NDArrays")
                text += (str(v.asscalar()) if v.shape == (1,) else str(v.asnumpy())) + "\t"
            res.append((step, name, text))
        self.queue = []
        return res

    def toc_print(self):
        """:meth:`toc`, logging each entry."""
        for step, name, text in self.toc():
            logging.info(f"Batch: {step:7d} {name:30s} {text:s}")
