"""1.9.1's graph operators for DGL on CSR matrices: ``edge_id``, ``getnnz``,
``dgl_adjacency``, ``dgl_subgraph``, ``dgl_graph_compact`` and the neighbour samplers
``dgl_csr_neighbor_uniform_sample`` / ``dgl_csr_neighbor_non_uniform_sample``.

A graph is a CSR matrix whose row ``i`` lists the neighbours of vertex ``i`` (column ids)
and whose stored values are edge ids. Every operator is written once, on the components
(``data``, ``indices``, ``indptr``) as host NumPy arrays, and reached in two ways:

- ``mx.nd.contrib.X`` given a CSRNDArray: a sparse front end (registered in
  ``register.SPARSE_FRONTS``) reads the components as they are stored, so an edge whose id
  is 0 counts, and returns CSRNDArrays where 1.9.1 does;
- the registered operator (symbols, executors, dense NDArrays): graphs are dense there, so
  the stored entries are the non-zero values, and CSR results come back dense.

Behaviour kept from 1.9.1 (checked against it, see tools/golden/gen_dgl_ops.py):

- ``edge_id(csr, u, v)``: the value of the first stored entry (u[i], v[i]) in storage
  order, -1 where there is none; the output has the graph's dtype, u and v (1-D, one length)
  may have any dtype and are truncated to integers.
- ``getnnz``: stored entries (explicit zeros included) as int64: axis None gives shape
  (1,), axis 1 one count per row; axis 0 is refused as 1.9.1 does ("not supported yet").
- ``dgl_adjacency``: the same pattern with float32 ones; the graph must be int64.
- ``dgl_subgraph(graph, v0, v1, ..., return_mapping)``: for each sorted int64 vertex list
  the induced subgraph (len(v), len(v)) whose columns are positions in the list (the last
  one when a vertex repeats), rows keeping the graph's storage order, values the new edge
  ids 0..nnz-1; with ``return_mapping`` a second CSR per list holds the original edge ids
  (all first graphs, then all mappings).
- ``dgl_graph_compact(g0, ..., v0, ..., graph_sizes, return_mapping)``: a sampler's CSR
  (rows: sampled vertices in sorted order, columns: original vertex ids) relabelled to a
  (size, size) graph with new edge ids 0..nnz-1; ``v`` is the sampler's vertex array, whose
  last value must equal the size. With ``return_mapping`` 1.9.1 adds one all-zero CSR
  matrix of that shape per graph (it never fills them), and so does this operator.
- The samplers run a breadth-first search from each seed array (int64, 1-D): a vertex
  below level ``num_hops`` samples up to ``num_neighbor`` of its stored neighbours (all of
  them when it has no more, in storage order), and the neighbours not seen before join the
  next level until ``max_num_vertices`` vertices are collected (the search stops there).
  Outputs, for n seed arrays: n vertex arrays (max_num_vertices + 1,) int64 (the sorted
  vertex ids, then padding, the count last); n CSR matrices (max_num_vertices, num_cols)
  int64 (row i: the sampled edges of the i-th vertex, edge ids as values, original column
  ids); for the non-uniform one n float32 arrays (max_num_vertices,) with each vertex's
  probability; n int64 arrays (max_num_vertices,) with each vertex's level. When every
  vertex has at most ``num_neighbor`` neighbours the result is deterministic and equals
  1.9.1's.

Differences: the random choices do not follow 1.9.1's stream. The padding of the vertex,
probability and level arrays is -1 (1.9.1 leaves that memory unwritten). The non-uniform
sampler keeps each sampled neighbour with its own edge id, in storage order (1.9.1 sorts
the column ids and the edge ids separately, which pairs them differently when edge ids do
not grow along a row), drawing without replacement with probability proportional to the
neighbours' weights (Efraimidis-Spirakis keys). Inputs 1.9.1 aborts the process on or
reads out of bounds with (an unsorted vertex list, a vertex id out of range, non-int64
graphs, too many seeds) raise MXNetError here. The all-zero mapping outputs of
``dgl_graph_compact`` have an indptr of zeros (1.9.1's have no storage: an empty indptr).
With a dense graph (symbols, or a dense NDArray, which 1.9.1 refuses) an edge whose id is 0
is not an edge.

The breadth-first search of the samplers loops over vertices in Python (one step per
vertex expanded, each step vectorised over its neighbours): meant for the small graphs
DGL's MXNet samplers served; every other operator is vectorised.
"""
from __future__ import annotations

import numpy as np

from ..base import MXNetError
from .registry import Param, register

__all__ = []

_I64 = np.dtype(np.int64)
_F32 = np.dtype(np.float32)

_EDGE_ID = "_contrib_edge_id"
_GETNNZ = "_contrib_getnnz"
_ADJ = "_contrib_dgl_adjacency"
_SUB = "_contrib_dgl_subgraph"
_COMPACT = "_contrib_dgl_graph_compact"
_UNI = "_contrib_dgl_csr_neighbor_uniform_sample"
_NONUNI = "_contrib_dgl_csr_neighbor_non_uniform_sample"


# ---------------------------------------------------------------------------------------------
# components

class _Graph:
    """A CSR matrix as host NumPy arrays: ``shape``, ``data``, ``indices``, ``indptr``."""

    __slots__ = ("shape", "data", "indices", "indptr")

    def __init__(self, shape, data, indices, indptr):
        self.shape = (int(shape[0]), int(shape[1]))
        self.data = data
        self.indices = indices.astype(_I64, copy=False)
        self.indptr = indptr.astype(_I64, copy=False)

    @property
    def dtype(self):
        return self.data.dtype

    def rows(self):
        """The row of every stored entry."""
        return np.repeat(np.arange(self.shape[0], dtype=_I64), np.diff(self.indptr))


def _host(a):
    """A host NumPy array from a NumPy or CuPy array."""
    get = getattr(a, "get", None)
    return get() if callable(get) and not isinstance(a, np.ndarray) else np.asarray(a)


def _from_dense(opname, dense):
    """The graph of a dense 2-D array: its non-zero entries, row by row."""
    dense = _host(dense)
    if dense.ndim != 2:
        raise MXNetError(f"{opname}: the graph must be a 2-D matrix, got shape {dense.shape}")
    rows, cols = np.nonzero(dense)
    counts = np.bincount(rows, minlength=dense.shape[0])
    indptr = np.concatenate([np.zeros(1, _I64), np.cumsum(counts, dtype=_I64)])
    return _Graph(dense.shape, dense[rows, cols], cols, indptr)


def _to_dense(g):
    out = np.zeros(g.shape, g.data.dtype)
    out[g.rows(), g.indices] = g.data
    return out


def _vector(opname, name, a, int64=True):
    """A 1-D host array input, int64 where 1.9.1 requires it."""
    a = _host(a)
    if a.ndim != 1:
        raise MXNetError(f"{opname}: {name} must be a 1-D array, got shape {a.shape}")
    if int64 and a.dtype != _I64:
        raise MXNetError(f"{opname}: {name} must be int64, got {a.dtype}")
    return a


def _need_int64_graph(opname, g):
    if g.dtype != _I64:
        raise MXNetError(f"{opname}: the graph (csr_matrix) must hold int64 edge ids, got "
                         f"{g.dtype}")


def _check_ids(opname, name, ids, bound):
    if ids.size and (ids.min() < 0 or ids.max() >= bound):
        bad = ids[(ids < 0) | (ids >= bound)][0]
        raise MXNetError(f"{opname}: {name} holds vertex id {int(bad)}, outside a graph of "
                         f"{bound} vertices")


# ---------------------------------------------------------------------------------------------
# kernels on components (host NumPy)

def _edge_id_kernel(g, u, v):
    u = _vector(_EDGE_ID, "u", u, int64=False)
    v = _vector(_EDGE_ID, "v", v, int64=False)
    if u.shape != v.shape:
        raise MXNetError(f"{_EDGE_ID}: u and v must have one length, got {u.shape[0]} and "
                         f"{v.shape[0]}")
    ui, vi = u.astype(_I64), v.astype(_I64)
    _check_ids(_EDGE_ID, "u", ui, g.shape[0])
    _check_ids(_EDGE_ID, "v", vi, g.shape[1])
    ncols = max(g.shape[1], 1)
    keys, first = np.unique(g.rows() * ncols + g.indices, return_index=True)
    want = ui * ncols + vi
    pos = np.minimum(np.searchsorted(keys, want), max(keys.size - 1, 0))
    hit = keys[pos] == want if keys.size else np.zeros(want.shape, bool)
    out = np.full(want.shape, -1, dtype=g.dtype)
    out[hit] = g.data[first[pos[hit]]]
    return out


def _getnnz_kernel(g, axis):
    if axis is None:
        return np.array([g.indices.size], dtype=_I64)
    return np.diff(g.indptr).astype(_I64)


def _adjacency_kernel(g):
    _need_int64_graph(_ADJ, g)
    return _Graph(g.shape, np.ones(g.indices.size, _F32), g.indices.copy(), g.indptr.copy())


def _subgraph_kernel(g, vids, return_mapping, name):
    _need_int64_graph(_SUB, g)
    vids = _vector(_SUB, name, vids)
    n = vids.size
    if n > 1 and np.any(vids[1:] < vids[:-1]):
        raise MXNetError(f"{_SUB}: the vertex list {name} has to be sorted")
    _check_ids(_SUB, name, vids, g.shape[0])
    starts, lengths = g.indptr[vids], np.diff(g.indptr)[vids]
    total = int(lengths.sum())
    row = np.repeat(np.arange(n, dtype=_I64), lengths)
    offsets = np.concatenate([np.zeros(1, _I64), np.cumsum(lengths)[:-1]]) if n else starts
    pos = np.repeat(starts - offsets, lengths) + np.arange(total, dtype=_I64)
    cols = g.indices[pos]
    # a column maps to the last position of its vertex in the list
    new = np.searchsorted(vids, cols, side="right") - 1
    keep = new >= 0
    keep[keep] = vids[new[keep]] == cols[keep]
    counts = np.bincount(row[keep], minlength=n)
    indptr = np.concatenate([np.zeros(1, _I64), np.cumsum(counts, dtype=_I64)])
    indices = new[keep].astype(_I64)
    nnz = indices.size
    outs = [_Graph((n, n), np.arange(nnz, dtype=_I64), indices, indptr)]
    if return_mapping:
        outs.append(_Graph((n, n), g.data[pos[keep]], indices.copy(), indptr.copy()))
    return outs


def _compact_kernel(g, vids, size, return_mapping, name):
    _need_int64_graph(_COMPACT, g)
    vids = _vector(_COMPACT, name, vids)
    if vids.size != g.shape[0] + 1:
        raise MXNetError(f"{_COMPACT}: {name} must have one more entry than the graph has rows "
                         f"({g.shape[0] + 1}), got {vids.size}")
    if size > g.shape[0] or size > g.shape[1]:
        raise MXNetError(f"{_COMPACT}: graph_sizes entry {size} exceeds the graph's shape "
                         f"{g.shape}")
    if int(vids[-1]) != size:
        raise MXNetError(f"{_COMPACT}: graph_sizes entry {size} differs from the vertex count "
                         f"{int(vids[-1])} stored last in {name}")
    ids = vids[:size]
    if np.any(ids == -1):
        raise MXNetError(f"{_COMPACT}: {name} holds -1 among its first {size} vertices")
    if int(g.indptr[size]) != g.indices.size:
        raise MXNetError(f"{_COMPACT}: the graph stores edges in rows beyond graph_sizes "
                         f"entry {size}")
    order = np.argsort(ids, kind="stable")  # a repeated id maps to its first position
    sorted_ids = ids[order]
    pos = np.minimum(np.searchsorted(sorted_ids, g.indices), max(size - 1, 0))
    found = sorted_ids[pos] == g.indices if size else np.zeros(g.indices.shape, bool)
    if not np.all(found):
        missing = g.indices[~found][0]
        raise MXNetError(f"{_COMPACT}: the graph has an edge to vertex {int(missing)}, which "
                         f"is not among the first {size} vertices of {name}")
    nnz = g.indices.size
    outs = [_Graph((size, size), np.arange(nnz, dtype=_I64), order[pos].astype(_I64),
                   g.indptr[:size + 1].copy())]
    if return_mapping:
        outs.append(_Graph((size, size), np.zeros(0, _I64), np.zeros(0, _I64),
                           np.zeros(size + 1, _I64)))
    return outs


def _pick_uniform(rng, deg, k):
    return np.sort(rng.choice(deg, size=k, replace=False))


def _pick_weighted(rng, weights, k):
    """k positions drawn without replacement, each with probability proportional to its
    weight among those left (Efraimidis-Spirakis keys log(u) / w; zero weights last)."""
    u = rng.random(weights.size)
    with np.errstate(divide="ignore"):
        keys = np.where(weights > 0, np.log(u) / np.where(weights > 0, weights, 1), -np.inf)
    return np.sort(np.argsort(-keys, kind="stable")[:k])


def _sample_kernel(opname, g, seeds, prob, num_hops, num_neighbor, max_nv, rng, name):
    """One seed array's sampled subgraph (see the module docstring); returns (vertices,
    csr, probabilities or None, levels)."""
    seeds = _vector(opname, name, seeds)
    if seeds.size > max_nv:
        raise MXNetError(f"{opname}: max_num_vertices ({max_nv}) must be at least the number "
                         f"of seeds in {name} ({seeds.size})")
    _check_ids(opname, name, seeds, g.shape[0])
    level = {}
    queue = []
    for s in seeds.tolist():
        if s not in level:
            level[s] = 0
            queue.append(s)
    sampled = {}  # vertex -> (columns, edge ids) of its sampled edges
    head = 0
    while head < len(queue) and len(level) < max_nv:
        vert = queue[head]
        head += 1
        lev = level[vert]
        if lev >= num_hops:
            continue
        lo, hi = int(g.indptr[vert]), int(g.indptr[vert + 1])
        deg = hi - lo
        if deg <= num_neighbor:
            picked = np.arange(deg)
        elif prob is None:
            picked = _pick_uniform(rng, deg, num_neighbor)
        else:
            picked = _pick_weighted(rng, prob[g.indices[lo:hi]].astype(np.float64),
                                    num_neighbor)
        cols, eids = g.indices[lo:hi][picked], g.data[lo:hi][picked]
        sampled[vert] = (cols, eids)
        for c in cols.tolist():
            if len(level) >= max_nv:
                break
            if c not in level:
                level[c] = lev + 1
                queue.append(c)
    verts = np.array(sorted(level), dtype=_I64)
    n = verts.size
    out_v = np.full(max_nv + 1, -1, _I64)
    out_v[:n] = verts
    out_v[max_nv] = n
    out_l = np.full(max_nv, -1, _I64)
    out_l[:n] = [level[x] for x in verts.tolist()]
    out_p = None
    if prob is not None:
        out_p = np.full(max_nv, -1, _F32)
        out_p[:n] = prob[verts]
    parts = [sampled.get(x, (np.zeros(0, _I64), np.zeros(0, g.dtype))) for x in verts.tolist()]
    counts = np.zeros(max_nv, _I64)
    counts[:n] = [p[0].size for p in parts]
    indptr = np.concatenate([np.zeros(1, _I64), np.cumsum(counts)])
    cols = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, _I64)
    eids = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0, g.dtype)
    csr = _Graph((max_nv, g.shape[1]), eids.astype(g.dtype), cols.astype(_I64), indptr)
    return out_v, csr, out_p, out_l


def _sample_all(opname, g, seed_arrays, prob, attrs, rng):
    """Every seed array's outputs, grouped as 1.9.1 orders them."""
    _need_int64_graph(opname, g)
    if attrs["num_hops"] < 0 or attrs["num_neighbor"] < 0 or attrs["max_num_vertices"] < 1:
        raise MXNetError(f"{opname}: num_hops and num_neighbor must be >= 0 and "
                         "max_num_vertices >= 1")
    if prob is not None:
        prob = _host(prob)
        if prob.ndim != 1 or prob.dtype != _F32:
            raise MXNetError(f"{opname}: probability must be a 1-D float32 array, got "
                             f"{prob.dtype} of shape {prob.shape}")
        if prob.size < g.shape[1]:
            raise MXNetError(f"{opname}: probability has {prob.size} entries for a graph of "
                             f"{g.shape[1]} vertices")
    res = [_sample_kernel(opname, g, s, prob, attrs["num_hops"], attrs["num_neighbor"],
                          attrs["max_num_vertices"], rng, f"seed_arrays[{i}]")
           for i, s in enumerate(seed_arrays)]
    groups = [[r[0] for r in res], [r[1] for r in res]]
    if prob is not None:
        groups.append([r[2] for r in res])
    groups.append([r[3] for r in res])
    return [x for grp in groups for x in grp]


def _host_rng(rng):
    """A host NumPy generator seeded from the device's generator (mx.random.seed applies)."""
    return np.random.default_rng(int(rng.integers(0, 2 ** 63 - 1)))


# ---------------------------------------------------------------------------------------------
# registered operators (dense graphs: symbols, executors, dense NDArrays)

def _dense_out(xp, a):
    return xp.asarray(_to_dense(a) if isinstance(a, _Graph) else a)


def _edge_id_dense(rc, attrs, data, u, v):
    return rc.xp.asarray(_edge_id_kernel(_from_dense(_EDGE_ID, data), u, v))


def _edge_id_shape(attrs, ins, outs):
    u, v = ins[1], ins[2]
    n = next((s for s in (u, v, outs[0]) if s is not None), None)
    if n is not None and len(n) != 1:
        raise MXNetError(f"{_EDGE_ID}: u and v must be 1-D, got shape {n}")
    return [ins[0], n, n], [n], []


def _edge_id_type(attrs, ins, outs):
    t = ins[0] if ins[0] is not None else outs[0]
    return [t, ins[1], ins[2]], [t], []


register(_EDGE_ID, _edge_id_dense, inputs=("data", "u", "v"), infer_shape=_edge_id_shape,
         infer_type=_edge_id_type,
         doc="The edge id stored at (u[i], v[i]) of a CSR graph (values are edge ids), or -1 "
             "where there is no edge. u and v are 1-D of one length; the output has the "
             "graph's dtype.")


def _getnnz_check(opname, attrs):
    ax = attrs["axis"]
    if ax not in (None, 0, 1):
        raise MXNetError(f"{opname}: unexpected value for axis ({ax}); candidates are None, "
                         "0 and 1")
    if ax == 0:
        raise MXNetError(f"{opname}: getnnz with axis = 0 is not supported yet")


def _getnnz_dense(rc, attrs, data):
    return rc.xp.asarray(_getnnz_kernel(_from_dense(_GETNNZ, data), attrs["axis"]))


def _getnnz_shape(attrs, ins, outs):
    s = ins[0]
    if s is None:
        return ins, outs, []
    return [s], [(1,) if attrs["axis"] is None else (s[0],)], []


register(_GETNNZ, _getnnz_dense, params=(
    Param("axis", "int", None, doc="None: stored values of the whole matrix; 1: per row "
          "(0, per column, is not supported, as in 1.9.1)."),),
    attr_check=_getnnz_check, infer_shape=_getnnz_shape,
    infer_type=lambda attrs, ins, outs: (ins, [_I64], []),
    doc="Number of stored values of a CSR matrix, explicit zeros included (int64).")


def _adjacency_dense(rc, attrs, data):
    if data.dtype != _I64:
        raise MXNetError(f"{_ADJ}: the graph must hold int64 edge ids, got {data.dtype}")
    return _dense_out(rc.xp, _adjacency_kernel(_from_dense(_ADJ, data)))


register(_ADJ, _adjacency_dense, inputs=("data",),
         infer_shape=lambda attrs, ins, outs: ([ins[0] or outs[0]], [ins[0] or outs[0]], []),
         infer_type=lambda attrs, ins, outs: (ins, [_F32], []),
         doc="The adjacency matrix (float32 ones) of a CSR graph of int64 edge ids.")


def _sub_inputs(attrs):
    return ["graph"] + [f"varray{i}" for i in range(attrs["num_args"] - 1)]


def _sub_nout(attrs):
    return (attrs["num_args"] - 1) * (2 if attrs["return_mapping"] else 1)


def _min_args(lowest):
    def check(opname, attrs):
        if attrs["num_args"] < lowest:
            raise MXNetError(f"{opname}: num_args must be at least {lowest}, got "
                             f"{attrs['num_args']}")
    return check


def _subgraph_dense(rc, attrs, graph, *varrays):
    g = _from_dense(_SUB, graph)
    if graph.dtype != _I64:
        raise MXNetError(f"{_SUB}: the graph must hold int64 edge ids, got {graph.dtype}")
    res = [_subgraph_kernel(g, v, attrs["return_mapping"], f"varray{i}")
           for i, v in enumerate(varrays)]
    outs = [r[0] for r in res] + ([r[1] for r in res] if attrs["return_mapping"] else [])
    return tuple(_dense_out(rc.xp, o) for o in outs)


def _subgraph_shape(attrs, ins, outs):
    vs = ins[1:]
    sq = [None if s is None else (s[0], s[0]) for s in vs]
    return ins, (sq * 2)[:len(outs)], []


register(_SUB, _subgraph_dense, params=(
    Param("num_args", "int", doc="Number of inputs: the graph and the vertex lists."),
    Param("return_mapping", "bool", doc="Also return the subgraphs with the original edge "
          "ids.")),
    variadic="num_args", inputs=_sub_inputs, num_outputs=_sub_nout,
    attr_check=_min_args(2), infer_shape=_subgraph_shape,
    infer_type=lambda attrs, ins, outs: (ins, [ins[0]] * len(outs), []),
    doc="Induced subgraphs of a CSR graph (int64 edge ids) on sorted int64 vertex lists: "
        "new edge ids 0..nnz-1, and with return_mapping the original edge ids.")


def _compact_inputs(attrs):
    n = attrs["num_args"] // 2
    return [f"graph{i}" for i in range(n)] + [f"varray{i}" for i in range(n)]


def _compact_nout(attrs):
    return attrs["num_args"] // 2 * (2 if attrs["return_mapping"] else 1)


def _compact_check(opname, attrs):
    _min_args(2)(opname, attrs)
    if attrs["num_args"] % 2:
        raise MXNetError(f"{opname}: num_args must be even (graphs, then vertex arrays), got "
                         f"{attrs['num_args']}")
    if len(attrs["graph_sizes"]) != attrs["num_args"] // 2:
        raise MXNetError(f"{opname}: graph_sizes needs one size per graph "
                         f"({attrs['num_args'] // 2}), got {attrs['graph_sizes']}")


def _compact_all(opname, graphs, vids, attrs):
    res = [_compact_kernel(g, v, int(s), attrs["return_mapping"], f"varray{i}")
           for i, (g, v, s) in enumerate(zip(graphs, vids, attrs["graph_sizes"]))]
    return [r[0] for r in res] + ([r[1] for r in res] if attrs["return_mapping"] else [])


def _compact_dense(rc, attrs, *arrays):
    n = len(arrays) // 2
    for a in arrays:
        if a.dtype != _I64:
            raise MXNetError(f"{_COMPACT}: every input must be int64, got {a.dtype}")
    graphs = [_from_dense(_COMPACT, a) for a in arrays[:n]]
    return tuple(_dense_out(rc.xp, o) for o in _compact_all(_COMPACT, graphs, arrays[n:], attrs))


def _compact_shape(attrs, ins, outs):
    sq = [(int(s), int(s)) for s in attrs["graph_sizes"]]
    return ins, (sq * 2)[:len(outs)], []


register(_COMPACT, _compact_dense, params=(
    Param("num_args", "int", doc="Number of inputs: the graphs, then their vertex arrays."),
    Param("return_mapping", "bool", doc="Also return a (here, as in 1.9.1, empty) mapping "
          "per graph."),
    Param("graph_sizes", "shape", doc="The number of vertices of each graph.")),
    variadic="num_args", inputs=_compact_inputs, num_outputs=_compact_nout,
    attr_check=_compact_check, infer_shape=_compact_shape,
    infer_type=lambda attrs, ins, outs: (ins, [_I64] * len(outs), []),
    doc="Relabel the CSR graphs of the neighbour samplers to (size, size) graphs over their "
        "sampled vertices, with new edge ids 0..nnz-1.")


_SAMPLE_PARAMS = (
    Param("num_args", "int", doc="Number of inputs."),
    Param("num_hops", "int", 1, doc="Number of hops."),
    Param("num_neighbor", "int", 2, doc="Most neighbours sampled per vertex."),
    Param("max_num_vertices", "int", 100, doc="Most vertices per sampled subgraph."))


def _sample_shape(n_fixed, weighted):
    def infer(attrs, ins, outs):
        k = attrs["num_args"] - n_fixed
        m = attrs["max_num_vertices"]
        ncols = ins[0][1] if ins[0] is not None and len(ins[0]) == 2 else None
        groups = [(m + 1,)] * k + [None if ncols is None else (m, ncols)] * k
        groups += [(m,)] * k * (2 if weighted else 1)
        return ins, groups, []
    return infer


def _sample_type(n_fixed, weighted):
    def infer(attrs, ins, outs):
        k = attrs["num_args"] - n_fixed
        types = [_I64] * (2 * k) + ([_F32] * k if weighted else []) + [_I64] * k
        return ins, types, []
    return infer


def _uniform_dense(rc, attrs, csr_matrix, *seeds):
    g = _from_dense(_UNI, csr_matrix)
    return tuple(_dense_out(rc.xp, o)
                 for o in _sample_all(_UNI, g, seeds, None, attrs, _host_rng(rc.rng)))


def _nonuniform_dense(rc, attrs, csr_matrix, probability, *seeds):
    g = _from_dense(_NONUNI, csr_matrix)
    return tuple(_dense_out(rc.xp, o)
                 for o in _sample_all(_NONUNI, g, seeds, probability, attrs,
                                      _host_rng(rc.rng)))


register(_UNI, _uniform_dense, params=_SAMPLE_PARAMS, variadic="num_args",
         inputs=lambda a: ["csr_matrix"] + [f"seed_arrays{i}" for i in range(a["num_args"] - 1)],
         num_outputs=lambda a: 3 * (a["num_args"] - 1), attr_check=_min_args(2),
         infer_shape=_sample_shape(1, False), infer_type=_sample_type(1, False),
         needs_rng=True,
         doc="Sample subgraphs of a CSR graph (int64 edge ids) by breadth-first search from "
             "int64 seed arrays, keeping up to num_neighbor uniformly drawn neighbours per "
             "vertex: per seed array the sampled vertices (count last), the sampled edges "
             "(CSR) and each vertex's level.")

register(_NONUNI, _nonuniform_dense, params=_SAMPLE_PARAMS, variadic="num_args",
         inputs=lambda a: (["csr_matrix", "probability"]
                           + [f"seed_arrays{i}" for i in range(a["num_args"] - 2)]),
         num_outputs=lambda a: 4 * (a["num_args"] - 2), attr_check=_min_args(3),
         infer_shape=_sample_shape(2, True), infer_type=_sample_type(2, True),
         needs_rng=True,
         doc="As dgl_csr_neighbor_uniform_sample, neighbours drawn with probability "
             "proportional to the float32 vertex weights in probability; also returns each "
             "sampled vertex's weight.")


# ---------------------------------------------------------------------------------------------
# sparse front ends: mx.nd.contrib.X given CSRNDArrays

def _nd_graph(opname, a, name="the graph"):
    from ..ndarray.ndarray import NDArray
    if not isinstance(a, NDArray):
        raise MXNetError(f"{opname}: {name} must be an NDArray, got {type(a).__name__}")
    if a.stype == "csr":
        p = a._parts
        return _Graph(p.shape, _host(p.data), _host(p.indices), _host(p.indptr))
    if a.stype != "default":
        raise MXNetError(f"{opname}: {name} must be a CSRNDArray, got storage type {a.stype}")
    return _from_dense(opname, a._data)


def _nd_host(opname, a, name):
    from ..ndarray.ndarray import NDArray
    if not isinstance(a, NDArray) or a.stype != "default":
        raise MXNetError(f"{opname}: {name} must be a dense NDArray")
    return _host(a._data)


def _wrap(a, ctx):
    from ..backend import get_backend
    from ..ndarray.ndarray import _new
    from ..ndarray.sparse import CSRNDArray, _Parts
    xp = get_backend(ctx).xp
    if isinstance(a, _Graph):
        return CSRNDArray._wrap(_Parts(a.shape, xp.asarray(a.data), xp.asarray(a.indices),
                                       xp.asarray(a.indptr)), ctx)
    return _new(xp.asarray(a), ctx)


def _finish(outs, ctx, out):
    res = [_wrap(o, ctx) for o in outs]
    if out is not None:
        targets = out if isinstance(out, (list, tuple)) else [out]
        if len(targets) != len(res):
            raise MXNetError(f"out= needs {len(res)} array(s), got {len(targets)}")
        for r, t in zip(res, targets):
            r.copyto(t)
        return out
    return res[0] if len(res) == 1 else res


def _split(opname, args, kwargs, names):
    """Positional/keyword NDArray inputs in the order of ``names``; other kwargs as attrs."""
    from ..ndarray.ndarray import NDArray
    arrays = list(args)
    attrs = {}
    for k, v in kwargs.items():
        if isinstance(v, NDArray) and k in names:
            idx = names.index(k)
            while len(arrays) <= idx:
                arrays.append(None)
            arrays[idx] = v
        elif k not in ("name", "num_args") and v is not None:
            attrs[k] = v
    if any(a is None for a in arrays):
        raise MXNetError(f"{opname}: missing input(s)")
    return arrays, attrs


def _front_edge_id(*args, out=None, **kwargs):
    (data, u, v), _ = _split(_EDGE_ID, args, kwargs, ["data", "u", "v"])
    g = _nd_graph(_EDGE_ID, data)
    res = _edge_id_kernel(g, _nd_host(_EDGE_ID, u, "u"), _nd_host(_EDGE_ID, v, "v"))
    return _finish([res], data._ctx, out)


def _front_getnnz(*args, out=None, **kwargs):
    from .registry import get_op
    arrays, attrs = _split(_GETNNZ, args[:1], kwargs, ["data"])
    if len(args) > 1:
        attrs["axis"] = args[1]
    parsed = get_op(_GETNNZ).parse_attrs(attrs)
    g = _nd_graph(_GETNNZ, arrays[0])
    return _finish([_getnnz_kernel(g, parsed["axis"])], arrays[0]._ctx, out)


def _front_adjacency(*args, out=None, **kwargs):
    (data,), _ = _split(_ADJ, args, kwargs, ["data"])
    return _finish([_adjacency_kernel(_nd_graph(_ADJ, data))], data._ctx, out)


def _flat_arrays(args):
    from ..ndarray.ndarray import NDArray
    flat = []
    for a in args:
        if isinstance(a, (list, tuple)):
            flat.extend(a)
        elif isinstance(a, NDArray):
            flat.append(a)
    return flat


def _parse(opname, kwargs, n_inputs):
    from .registry import get_op
    attrs = {k: v for k, v in kwargs.items() if k not in ("name",) and v is not None}
    attrs["num_args"] = n_inputs
    return get_op(opname).parse_attrs(attrs)


def _front_subgraph(*args, out=None, **kwargs):
    arrays = _flat_arrays(args)
    attrs = _parse(_SUB, kwargs, len(arrays))
    g = _nd_graph(_SUB, arrays[0])
    res = [_subgraph_kernel(g, _nd_host(_SUB, v, f"varray{i}"), attrs["return_mapping"],
                            f"varray{i}") for i, v in enumerate(arrays[1:])]
    outs = [r[0] for r in res] + ([r[1] for r in res] if attrs["return_mapping"] else [])
    return _finish(outs, arrays[0]._ctx, out)


def _front_compact(*args, out=None, **kwargs):
    arrays = _flat_arrays(args)
    attrs = _parse(_COMPACT, kwargs, len(arrays))
    n = len(arrays) // 2
    graphs = [_nd_graph(_COMPACT, a, f"graph{i}") for i, a in enumerate(arrays[:n])]
    vids = [_nd_host(_COMPACT, a, f"varray{i}") for i, a in enumerate(arrays[n:])]
    return _finish(_compact_all(_COMPACT, graphs, vids, attrs), arrays[0]._ctx, out)


def _front_sampler(opname, weighted):
    def front(*args, out=None, **kwargs):
        from ..backend import get_backend
        arrays = _flat_arrays(args)
        attrs = _parse(opname, kwargs, len(arrays))
        g = _nd_graph(opname, arrays[0], "csr_matrix")
        n_fixed = 2 if weighted else 1
        prob = _nd_host(opname, arrays[1], "probability") if weighted else None
        seeds = [_nd_host(opname, a, f"seed_arrays[{i}]")
                 for i, a in enumerate(arrays[n_fixed:])]
        ctx = arrays[0]._ctx
        rng = _host_rng(get_backend(ctx).rng)
        return _finish(_sample_all(opname, g, seeds, prob, attrs, rng), ctx, out)
    return front


def _install_fronts():
    from ..ndarray import register as nd_register
    fronts = {_EDGE_ID: _front_edge_id, _GETNNZ: _front_getnnz, _ADJ: _front_adjacency,
              _SUB: _front_subgraph, _COMPACT: _front_compact,
              _UNI: _front_sampler(_UNI, False), _NONUNI: _front_sampler(_NONUNI, True)}
    nd_register.SPARSE_FRONTS.update(fronts)


_install_fronts()
