"""Static memory planning for a bound graph (section 3 of the MXNet paper).

Every output of every operator node is an *entry*. The planner walks the nodes in
topological order, keeping for each entry the number of reads still to come:

- **in-place**: when an operator declares that output ``o`` may reuse input ``i``'s
  buffer (the registry's ``inplace`` pairs), the input is a planned intermediate, this
  node is its last reader, and both have the same byte size, the output takes the
  input's storage;
- **co-sharing**: an entry whose last reader has run returns its storage to a free pool;
  a later entry takes a free block whose size is within a factor ``match_range`` of its
  own (the block grows to the larger size), or gets a new block.

Graph outputs get dedicated buffers; variables (arguments and auxiliary states) are
owned by the caller. Switches, as in MXNet: ``MXNET_EXEC_ENABLE_INPLACE`` (default on)
and ``NNVM_EXEC_MATCH_RANGE`` (default 16; 0 turns sharing off).
"""
from __future__ import annotations

import bisect
import os

__all__ = ["MemoryPlan", "plan_memory", "env_inplace", "env_match_range"]


def env_inplace() -> bool:
    """``MXNET_EXEC_ENABLE_INPLACE``: anything but 0/false/off leaves in-place reuse on."""
    v = os.environ.get("MXNET_EXEC_ENABLE_INPLACE", "1").strip().lower()
    return v not in ("0", "false", "off", "no")


def env_match_range() -> int:
    """``NNVM_EXEC_MATCH_RANGE``: size factor within which free blocks are reused."""
    try:
        return max(0, int(os.environ.get("NNVM_EXEC_MATCH_RANGE", "16")))
    except ValueError:
        return 16


class MemoryPlan:
    """Where each planned entry lives.

    ``storage[e]`` is the storage id of entry ``e`` (absent for entries the plan does
    not own); ``sizes[sid]`` the byte size of each storage block; ``inplace`` the
    (node name, input entry, output entry) pairs that were reused in place.
    """

    def __init__(self):
        self.storage: dict = {}
        self.sizes: list = []
        self.inplace: list = []
        self.shared = 0
        self.naive_bytes = 0
        self.dedicated_bytes = 0

    @property
    def planned_bytes(self) -> int:
        """Bytes of the shared pool (dedicated output buffers not included)."""
        return sum(self.sizes)

    def summary(self) -> str:
        mb = lambda b: b / float(1 << 20)
        return (f"Memory plan: {len(self.storage)} intermediate entries in {len(self.sizes)} "
                f"blocks, {self.planned_bytes} bytes planned vs {self.naive_bytes} naive "
                f"({mb(self.planned_bytes):.3f} MB vs {mb(self.naive_bytes):.3f} MB); "
                f"{len(self.inplace)} in-place, {self.shared} shared; outputs "
                f"{self.dedicated_bytes} bytes")


class _Pool:
    """Free storage blocks ordered by size."""

    def __init__(self):
        self.keys: list = []   # sorted (size, sid)

    def put(self, size, sid):
        bisect.insort(self.keys, (size, sid))

    def take(self, size, match_range):
        """A free block within [size / match_range, size * match_range], larger first."""
        if not self.keys or match_range <= 0:
            return None
        lo, hi = size / match_range, size * match_range
        i = bisect.bisect_left(self.keys, (size, -1))
        # blocks at least as large as wanted, smallest first
        if i < len(self.keys) and self.keys[i][0] <= hi:
            return self.keys.pop(i)[1]
        # otherwise the largest block that is smaller (it will grow)
        j = i - 1
        if j >= 0 and self.keys[j][0] >= lo:
            return self.keys.pop(j)[1]
        return None


def plan_memory(steps, nbytes, dedicated, external, enable_inplace=None, match_range=None):
    """Plan storage for the entries produced by ``steps``.

    ``steps``: (name, input entries, output entries, inplace pairs) per operator node in
    topological order, where the pairs are (input position, output position).
    ``nbytes``: entry -> byte size (None when unknown: such entries are not planned).
    ``dedicated``: entries that must keep their own buffer (graph outputs);
    ``external``: entries owned by the caller (variables).
    """
    if enable_inplace is None:
        enable_inplace = env_inplace()
    if match_range is None:
        match_range = env_match_range()
    plan = MemoryPlan()
    refs: dict = {}
    for _, ins, _, _ in steps:
        for e in ins:
            refs[e] = refs.get(e, 0) + 1
    pool = _Pool()

    def owned(e):
        return e not in dedicated and e not in external and nbytes.get(e) is not None

    held: set = set()   # storage ids currently live
    live_users: dict = {}  # sid -> number of live entries on it
    for _, ins, outs, inplace in steps:
        taken = {}
        if enable_inplace:
            for i_pos, o_pos in inplace:
                if i_pos >= len(ins) or o_pos >= len(outs):
                    continue
                e_in, e_out = ins[i_pos], outs[o_pos]
                if not (owned(e_in) and owned(e_out)) or e_out in plan.storage:
                    continue
                if refs.get(e_in, 0) != 1 or ins.count(e_in) != 1 or e_in in taken:
                    continue
                if nbytes[e_in] != nbytes[e_out]:
                    continue
                sid = plan.storage[e_in]
                if live_users.get(sid, 0) != 1:
                    continue
                plan.storage[e_out] = sid
                taken[e_in] = e_out
                live_users[sid] += 1
                plan.inplace.append((e_in, e_out))
        for e in outs:
            if not owned(e) or e in plan.storage:
                continue
            size = nbytes[e]
            sid = pool.take(size, match_range)
            if sid is None:
                sid = len(plan.sizes)
                plan.sizes.append(size)
            else:
                plan.sizes[sid] = max(plan.sizes[sid], size)
                plan.shared += 1
            plan.storage[e] = sid
            held.add(sid)
            live_users[sid] = live_users.get(sid, 0) + 1
        # inputs read for the last time free their storage (unless handed over in place)
        for e in ins:
            if e not in refs:
                continue
            refs[e] -= 1
            if refs[e] == 0:
                _drop(plan, e, held, live_users, pool)
        # outputs nobody reads are dead at once
        for e in outs:
            if owned(e) and refs.get(e, 0) == 0:
                _drop(plan, e, held, live_users, pool)
    for e, b in nbytes.items():
        if b is None or e in external:
            continue
        if e in dedicated:
            plan.dedicated_bytes += b
        else:
            plan.naive_bytes += b
    return plan


def _drop(plan, e, held, live_users, pool):
    sid = plan.storage.get(e)
    if sid is None:
        return
    live_users[sid] -= 1
    if live_users[sid] == 0 and sid in held:
        held.discard(sid)
        pool.put(plan.sizes[sid], sid)
