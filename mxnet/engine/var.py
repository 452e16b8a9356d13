"""Engine variables and the op-property constants.

A :class:`Var` stands for one piece of state (usually an array's buffer) that ops
read or write. The engine keeps the scheduling bookkeeping on the Var itself, so a
push touches no global table.
"""
from __future__ import annotations

__all__ = ["Var", "new_var", "FnProperty", "split_vars"]


class FnProperty:
    """What kind of work an op does; the threaded engine uses it to pick a thread."""

    NORMAL = 0
    COPY_FROM_GPU = 1
    COPY_TO_GPU = 2
    CPU_PRIORITIZED = 3
    ASYNC = 4


class Var:
    """A unit of state that ops depend on.

    Public attributes:

    ``npending``
        how many pushed ops that read or write this var have not finished yet
        (0 means the var is idle);
    ``exc``
        the failure recorded on this var, or ``None``. Other layers may assign it
        to pass a failure from one var to another.

    The underscored slots belong to the threaded engine: the number of granted
    reads still running, whether a write holds the var, and a FIFO of ops that
    are blocked on it (created on first need).
    """

    __slots__ = ("npending", "exc", "_nreads", "_writing", "_queue", "__weakref__")

    def __init__(self):
        self.npending = 0
        self.exc = None
        self._nreads = 0
        self._writing = False
        self._queue = None

    def __repr__(self):
        state = "idle" if not self.npending else f"{self.npending} pending"
        failed = ", failed" if self.exc is not None else ""
        return f"<engine.Var {state}{failed} at {id(self):#x}>"


def new_var():
    """Return a fresh, idle engine variable."""
    return Var()


def split_vars(const_vars, mutable_vars):
    """Normalise an op's var lists into (reads, writes) tuples without duplicates.

    A var listed in both counts only as written; order of first appearance is kept.
    """
    if len(mutable_vars) > 1:
        wvars = tuple(dict.fromkeys(mutable_vars))
    else:
        wvars = tuple(mutable_vars)
    if len(const_vars) > 8:
        return tuple([v for v in dict.fromkeys(const_vars) if v not in wvars]), wvars
    rvars = []
    for v in const_vars:
        if v not in wvars and v not in rvars:
            rvars.append(v)
    return tuple(rvars), wvars
