"""What the processes of a distributed KVStore job say to each other, over MPI.

The job is one MPI world. Its first ``DMLC_NUM_SERVER`` ranks are servers, the
other ``DMLC_NUM_WORKER`` ranks are workers (see :class:`Layout`).

Every message is a small pickled header tuple sent with tag :data:`TAG_HDR`; when
it carries arrays, their raw bytes follow as separate messages with tag
:data:`TAG_DATA`, in order. MPI keeps the order of messages between two ranks on
one tag, and a receiver takes a header's data right after the header, so data
never needs an id of its own.

Nothing here blocks without a deadline. :class:`Endpoint` is the loop body both
sides use: it posts non-blocking sends and tests them, probes for headers,
answers pings, and watches its peers. A peer that stays silent for
``MXNET_KVSTORE_TIMEOUT`` seconds while it is being pinged is taken for dead or
hung; the endpoint then prints a clear message and aborts the whole MPI job.

This module also holds the pieces both sides must agree on: how keys are spread
over servers and sharded, and the 2-bit gradient compression format.
"""
from __future__ import annotations

import os
import sys
import time
import zlib

import numpy as np

from ..base import MXNetError

__all__ = ["Layout", "Endpoint", "shard_plan", "quantize_2bit", "pack_2bit", "unpack_2bit",
           "bigarray_bound", "launched"]

TAG_HDR = 7001
TAG_DATA = 7002

# Header kinds (first item of every header tuple).
HELLO, DONE, PING, PONG, INIT, PUSH, PULL, CMD, ACK, REPLY = range(10)

# Command heads of ``_send_command_to_servers`` (1.9.1's numbering).
CMD_CONTROLLER = 0          # body: the pickled optimizer
CMD_SET_MULTI_PRECISION = 1
CMD_STOP_SERVER = 2
CMD_SYNC_MODE = 3
CMD_SET_GRADIENT_COMPRESSION = 4
CMD_SET_PROFILER_PARAMS = 5

_ROLES = ("worker", "server", "scheduler")


def _env_int(name, default):
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(float(raw))
    except ValueError:
        raise MXNetError(f"{name} must be a number, got {raw!r}") from None


def _env_float(name, default):
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError:
        raise MXNetError(f"{name} must be a number, got {raw!r}") from None


def bigarray_bound():
    """Arrays with more elements than this are sharded over all servers."""
    return _env_int("MXNET_KVSTORE_BIGARRAY_BOUND", 1000 * 1000)


def timeouts():
    """``(silence, start)``: seconds a watched peer may stay silent once it has been
    heard from, and seconds it may take to be heard from at all."""
    silence = _env_float("MXNET_KVSTORE_TIMEOUT", 60.0)
    start = _env_float("MXNET_KVSTORE_START_TIMEOUT", max(600.0, silence))
    return silence, max(start, silence)


def launched():
    """Whether this process was started as part of an MPI job or with a DMLC role."""
    keys = ("DMLC_ROLE", "PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE",
            "MPI_LOCALNRANKS", "HYDI_CONTROL_FD")
    return any(k in os.environ for k in keys)


class Layout:
    """Who is who in the job: ranks ``0 .. S-1`` serve, ranks ``S .. S+W-1`` work.

    ``DMLC_NUM_SERVER`` / ``DMLC_NUM_WORKER`` give S and W (one may be derived from
    the world size). Without either, a world of N ranks has one server and N-1
    workers. ``DMLC_ROLE``, when set, must agree with the rank.
    """

    def __init__(self, rank, size, env=None):
        env = os.environ if env is None else env
        ns = env.get("DMLC_NUM_SERVER", "").strip()
        nw = env.get("DMLC_NUM_WORKER", "").strip()
        try:
            ns = int(ns) if ns else None
            nw = int(nw) if nw else None
        except ValueError:
            raise MXNetError(f"DMLC_NUM_SERVER / DMLC_NUM_WORKER must be integers, got "
                             f"{env.get('DMLC_NUM_SERVER')!r} / {env.get('DMLC_NUM_WORKER')!r}") from None
        if ns is None and nw is None:
            ns = 1 if size > 1 else 0
        if ns is None:
            ns = size - nw
        if nw is None:
            nw = size - ns
        if ns < 0 or nw < 1 or ns + nw != size:
            raise MXNetError(f"the MPI job has {size} processes, but DMLC_NUM_SERVER={ns} and "
                             f"DMLC_NUM_WORKER={nw} need {ns + nw} (at least one worker); start "
                             f"the job with python -m mxnet.tools.launch")
        self.rank = rank
        self.size = size
        self.num_servers = ns
        self.num_workers = nw
        self.role = "server" if rank < ns else "worker"
        given = env.get("DMLC_ROLE", "").strip().lower()
        if given == "scheduler":
            self.role = "scheduler"
        elif given and given != self.role:
            raise MXNetError(f"DMLC_ROLE={given!r} disagrees with MPI rank {rank}: ranks "
                             f"0..{ns - 1} are servers and ranks {ns}..{size - 1} are workers")
        self.server_ranks = list(range(ns))
        self.worker_ranks = list(range(ns, size))

    @property
    def worker_index(self):
        """This worker's rank among workers (``kv.rank``)."""
        return self.rank - self.num_servers

    def describe(self, rank):
        """A human name for ``rank``: ``'server 0 (MPI rank 0)'``."""
        if rank < self.num_servers:
            return f"server {rank} (MPI rank {rank})"
        return f"worker {rank - self.num_servers} (MPI rank {rank})"

    @property
    def me(self):
        return self.describe(self.rank)


# -- keys over servers ------------------------------------------------------------------

def home_server(key, num_servers):
    """The server holding a key that is not sharded (a fixed hash, so every worker agrees)."""
    if isinstance(key, str):
        h = zlib.crc32(key.encode("utf-8"))
    else:
        h = int(key) * 9973
    return h % num_servers


def shard_plan(key, size, num_servers, bound=None):
    """How a key's flattened value of ``size`` elements is spread over servers.

    Returns ``[(server_index, start, stop), ...]``: one piece on the key's home server,
    or, when ``size`` exceeds the big-array bound and there are several servers, one
    near-equal contiguous piece on every server.
    """
    if bound is None:
        bound = bigarray_bound()
    if num_servers <= 1 or size <= bound:
        return [(home_server(key, max(num_servers, 1)), 0, size)]
    cuts = [i * size // num_servers for i in range(num_servers + 1)]
    return [(i, cuts[i], cuts[i + 1]) for i in range(num_servers)]


# -- 2-bit gradient compression ------------------------------------------------------------
#
# Each value becomes a 2-bit code: 0b11 when (value + residual) >= threshold, 0b10 when it
# is <= -threshold, 0b00 otherwise; what the code leaves out stays in the residual. Codes
# are packed four to a byte, the first value in the byte's two highest bits, so 16 values
# fill one float32 word (the wire carries the words as float32, as 1.9.1 does).

def quantize_2bit(values, residual, threshold):
    """Codes (uint8 0/2/3) of flat ``values``; updates flat ``residual`` in place."""
    residual += values
    t = residual.dtype.type(threshold)
    pos = residual >= t
    neg = residual <= -t
    residual[pos] -= t
    residual[neg] += t
    codes = np.zeros(residual.shape, dtype=np.uint8)
    codes[pos] = 3
    codes[neg] = 2
    return codes


def pack_2bit(codes):
    """Pack flat 2-bit ``codes`` into float32 words, 16 codes per word (zero padded)."""
    n = codes.size
    padded = np.zeros(-(-n // 16) * 16, dtype=np.uint8)
    padded[:n] = codes
    q = padded.reshape(-1, 4)
    packed = (q[:, 0] << 6) | (q[:, 1] << 4) | (q[:, 2] << 2) | q[:, 3]
    return packed.view(np.float32)


def unpack_2bit(words, n, threshold, dtype=np.float32):
    """The ``n`` values (+threshold, -threshold or 0) that ``words`` encode."""
    b = np.ascontiguousarray(words).view(np.uint8)
    codes = np.stack([(b >> 6) & 3, (b >> 4) & 3, (b >> 2) & 3, b & 3], axis=1).reshape(-1)[:n]
    dtype = np.dtype(dtype)
    out = np.zeros(n, dtype=dtype)
    out[codes == 3] = dtype.type(threshold)
    out[codes == 2] = -dtype.type(threshold)
    return out


def packed_words(n):
    """How many float32 words carry ``n`` compressed values."""
    return -(-n // 16)


# -- the transport -------------------------------------------------------------------------

def note_for_launcher(kind, rank, text=""):
    """Leave a note for mxnet.tools.launch (``kind`` is ``rank``, ``ok`` or ``abort``), which
    uses them to report who ended a failed job and why."""
    rundir = os.environ.get("MXNET_LAUNCH_RUNDIR")
    if not rundir or not os.path.isdir(rundir):
        return
    try:
        with open(os.path.join(rundir, f"{kind}{rank}"), "w") as f:
            f.write(f"{time.time():.6f} {text}\n" if kind == "abort" else f"{text}\n")
    except OSError:
        pass


def _bytes(arr):
    """A flat uint8 view of C-contiguous ``arr`` (what MPI sends or fills)."""
    return arr.reshape(-1).view(np.uint8)


class Endpoint:
    """One process's side of the job's messaging (used by a single thread).

    ``watch`` is the set of peers whose silence is an error; peers in ``left`` said
    they are done and are no longer watched. ``on_fault(text)`` is called before the
    job is aborted.
    """

    def __init__(self, comm, layout, on_fault=None):
        from mpi4py import MPI
        self.MPI = MPI
        self.comm = comm
        self.layout = layout
        self.on_fault = on_fault
        self.timeout, self.start_timeout = timeouts()
        self.ping_every = min(max(self.timeout / 4.0, 0.1), 5.0)
        self.t0 = time.monotonic()
        self.heard = {}
        self.pinged = {}
        self.watch = set()
        self.left = set()       # peers that said they are done (sent DONE)
        self.said_bye = set()   # peers we said we are done to: we send them nothing more
        self.sends = []
        self.faulted = None
        self._last_check = 0.0
        self._status = MPI.Status()

    # sending -------------------------------------------------------------------------
    def send(self, dst, header, bufs=(), on_done=None):
        """Post ``header`` and the raw bytes of ``bufs`` to ``dst`` (non-blocking).

        The arrays must stay unchanged until ``on_done()`` is called. Nothing is sent
        to a peer after :meth:`bye`.
        """
        if dst in self.said_bye:
            return
        reqs = [self.comm.isend(header, dst, TAG_HDR)]
        for b in bufs:
            reqs.append(self.comm.Isend(_bytes(b), dst, TAG_DATA))
        self.sends.append((reqs, bufs, on_done))

    def progress(self):
        """Complete finished sends; return whether some are still in flight."""
        if not self.sends:
            return False
        keep = []
        testall = self.MPI.Request.Testall
        for rec in self.sends:
            if testall(rec[0]):
                if rec[2] is not None:
                    rec[2]()
            else:
                keep.append(rec)
        self.sends = keep
        return bool(keep)

    def flush(self, limit=None):
        """Wait (polling, bounded) until every posted send is complete."""
        limit = self.timeout if limit is None else limit
        start = time.monotonic()
        while self.progress():
            if time.monotonic() - start > limit:
                self.fault(f"could not deliver {len(self.sends)} message(s) within {limit:.0f} s")
            time.sleep(0)

    # receiving -----------------------------------------------------------------------
    def poll(self):
        """The next header ``(src, header)``, or None when nothing has arrived."""
        msg = self.comm.improbe(self.MPI.ANY_SOURCE, TAG_HDR, status=self._status)
        if msg is None:
            return None
        src = self._status.Get_source()
        header = msg.recv()
        self.heard[src] = time.monotonic()
        return src, header

    def recv_into(self, src, buf):
        """Receive the data message that follows a header from ``src`` into ``buf``."""
        req = self.comm.Irecv(_bytes(buf), src, TAG_DATA)
        start = time.monotonic()
        n = 0
        while not req.Test():
            self.progress()
            n += 1
            if not n % 256:
                if time.monotonic() - start > self.timeout:
                    req.Cancel()
                    self.fault(f"{self.layout.describe(src)} stopped sending in the middle of "
                               f"a {buf.nbytes}-byte array")
                time.sleep(0)
        self.heard[src] = time.monotonic()

    def drain(self, src, nbytes):
        """Receive and drop a data message of ``nbytes`` from ``src``."""
        self.recv_into(src, np.empty(nbytes, dtype=np.uint8))

    def bye(self, peers):
        """Send DONE to ``peers``: the last message each of them gets from us.

        A process may end once it said bye to every peer and heard DONE from every
        peer: MPI keeps each pair's messages in order, so nothing is left unreceived
        (MPICH refuses to finalize with unmatched messages).
        """
        for p in peers:
            if p not in self.said_bye:
                self.send(p, (DONE,))
                self.said_bye.add(p)

    def finished(self):
        """Whether every watched peer and this process have said bye to each other."""
        return self.watch <= self.said_bye and self.watch <= self.left

    def handle_common(self, src, header):
        """Handle HELLO / PING / PONG / DONE; return True when ``header`` was one of them."""
        kind = header[0]
        if kind == PING:
            self.send(src, (PONG,))
            return True
        if kind in (PONG, HELLO):
            return True
        if kind == DONE:
            self.left.add(src)
            return True
        return False

    # liveness ------------------------------------------------------------------------
    def check(self, now=None):
        """Ping quiet watched peers; abort the job when one stays silent too long."""
        now = time.monotonic() if now is None else now
        if now - self._last_check < 0.05:
            return
        self._last_check = now
        for p in self.watch:
            if p in self.left or p in self.said_bye:
                continue
            h = self.heard.get(p)
            if h is None:
                if now - self.t0 > self.start_timeout:
                    self.fault(f"{self.layout.describe(p)} never joined the job within "
                               f"{self.start_timeout:.0f} s (MXNET_KVSTORE_START_TIMEOUT)")
                silent = now - self.t0
            else:
                silent = now - h
                if silent > self.timeout:
                    self.fault(f"{self.layout.describe(p)} has not answered for {silent:.1f} s "
                               f"(MXNET_KVSTORE_TIMEOUT={self.timeout:g}): it died or hung")
            if silent > self.ping_every and now - self.pinged.get(p, 0.0) > self.ping_every:
                self.pinged[p] = now
                self.send(p, (PING,))

    def fault(self, message):
        """Report ``message`` and abort the whole job (does not return)."""
        text = f"mxnet.kvstore: {self.layout.me}: {message}. Aborting the job."
        self.faulted = text
        try:
            print(text, file=sys.stderr, flush=True)
            note_for_launcher("abort", self.layout.rank, text)
            if self.on_fault is not None:
                self.on_fault(text)
        finally:
            self.comm.Abort(1)
            # MPICH's Abort asks the process manager to end the job, which may return
            # before this process is killed: do not run on.
            os._exit(1)
        raise MXNetError(text)  # not reached
