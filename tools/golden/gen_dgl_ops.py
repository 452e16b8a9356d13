"""Golden data for 1.9.1's graph operators on CSR matrices (mx.nd.contrib.edge_id, getnnz,
dgl_adjacency, dgl_subgraph, dgl_graph_compact and the two neighbour samplers, the latter
where they are deterministic: no vertex has more than num_neighbor neighbours).

Run under the reference venv from /tmp:
    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \
        /work/main/tools/golden/gen_dgl_ops.py

Writes tests/golden/dgl_ops.npz: for case ``c`` and output ``j``, ``c/out<j>`` (a dense
result) or ``c/out<j>/{data,indices,indptr,shape}`` (a CSR result). The samplers' vertex,
probability and level arrays are cut to the sampled vertex count (1.9.1 leaves the rest
of those arrays unwritten); the vertex arrays keep the count as their last value.

tests/operator/test_dgl_ops.py loads this file and replays CASES under this repository's
mxnet (``run_case``), so it must stay importable without the reference installation.
"""
import os

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "tests", "golden", "dgl_ops.npz")

I64 = np.int64


def csr(mx, data, indices, indptr, shape, dtype=I64):
    return mx.nd.sparse.csr_matrix((np.asarray(data), np.asarray(indices, I64),
                                    np.asarray(indptr, I64)), shape=shape, dtype=dtype)


# the 5-vertex complete graph of 1.9.1's docstrings (edge ids 1..20)
def g5(mx, dtype=I64):
    return csr(mx, np.arange(1, 21), [1, 2, 3, 4, 0, 2, 3, 4, 0, 1, 3, 4, 0, 1, 2, 4, 0, 1, 2, 3],
               [0, 4, 8, 12, 16, 20], (5, 5), dtype)


# 4 vertices, edge ids from 0 (a stored zero), one row with its columns unsorted
def g4(mx, dtype=I64):
    return csr(mx, [0, 1, 2, 3, 4, 5, 6], [3, 0, 2, 0, 1, 2, 1], [0, 2, 4, 5, 7], (4, 4), dtype)


# 8 vertices, sparse (degrees 0..3), edge ids 0..13
def g8(mx):
    rows = [[1, 2], [0, 3, 4], [5], [], [6, 7, 0], [2], [4], [6, 5, 1]]
    indptr = np.concatenate([[0], np.cumsum([len(r) for r in rows])])
    cols = [c for r in rows for c in r]
    return csr(mx, np.arange(len(cols)), cols, indptr, (8, 8))


# a 3x4 matrix with a duplicated (row, column) entry and an explicit zero
def gdup(mx, dtype="float32"):
    return csr(mx, [5, 0, 7, 9, 2], [1, 3, 1, 0, 2], [0, 3, 3, 5], (3, 4), dtype)


def ids(mx, v, dtype=I64):
    return mx.nd.array(v, dtype=dtype)


def _sample(mx, weighted, graph, seeds, **kw):
    C = mx.nd.contrib
    seeds = [ids(mx, s) for s in seeds]
    if weighted:
        prob = mx.nd.array(kw.pop("prob"), dtype="float32")
        outs = C.dgl_csr_neighbor_non_uniform_sample(graph, prob, *seeds, **kw)
    else:
        outs = C.dgl_csr_neighbor_uniform_sample(graph, *seeds, **kw)
    outs = list(outs)
    k = len(seeds)
    res = []
    for i, o in enumerate(outs):
        if i < k:  # vertices: the sampled ones, then the count
            v = o.asnumpy()
            n = int(v[-1])
            res.append(np.concatenate([v[:n], v[-1:]]))
        elif i < 2 * k:
            res.append(o)
        else:  # probabilities / levels, cut to the count of their subgraph
            n = int(outs[i % k].asnumpy()[-1])
            res.append(o.asnumpy()[:n])
    return res


def _compact_of_sample(mx, graph, seeds, return_mapping, **kw):
    outs = mx.nd.contrib.dgl_csr_neighbor_uniform_sample(graph, *[ids(mx, s) for s in seeds],
                                                         **kw)
    k = len(seeds)
    verts, subs = list(outs[:k]), list(outs[k:2 * k])
    sizes = tuple(int(v.asnumpy()[-1]) for v in verts)
    res = mx.nd.contrib.dgl_graph_compact(*subs, *verts, graph_sizes=sizes,
                                          return_mapping=return_mapping)
    return list(res) if isinstance(res, (list, tuple)) else [res]


def _one(r):
    return list(r) if isinstance(r, (list, tuple)) else [r]


# (case id, function of mx returning the outputs)
CASES = [
    ("edge_id_doc", lambda mx: [mx.nd.contrib.edge_id(
        g5(mx), mx.nd.array([0, 1, 2, 0, 4, 3]), mx.nd.array([0, 2, 2, 3, 1, 1]))]),
    ("edge_id_zero_unsorted", lambda mx: [mx.nd.contrib.edge_id(
        g4(mx), ids(mx, [0, 0, 0, 1, 1, 2, 3, 3, 2]), ids(mx, [3, 0, 1, 2, 0, 2, 1, 2, 0]))]),
    ("edge_id_float_dup", lambda mx: [mx.nd.contrib.edge_id(
        gdup(mx), mx.nd.array([0, 0, 0, 2, 2, 1]), mx.nd.array([1, 3, 0, 0, 2, 1]))]),
    ("edge_id_int32_uv", lambda mx: [mx.nd.contrib.edge_id(
        g8(mx), ids(mx, [4, 7, 3, 0], "int32"), ids(mx, [0, 5, 3, 2], "int32"))]),
    ("getnnz_all", lambda mx: [mx.nd.contrib.getnnz(gdup(mx))]),
    ("getnnz_rows", lambda mx: [mx.nd.contrib.getnnz(gdup(mx), axis=1)]),
    ("getnnz_int64", lambda mx: [mx.nd.contrib.getnnz(g8(mx)),
                                 mx.nd.contrib.getnnz(g8(mx), axis=1)]),
    ("adjacency_g4", lambda mx: [mx.nd.contrib.dgl_adjacency(g4(mx))]),
    ("adjacency_g8", lambda mx: [mx.nd.contrib.dgl_adjacency(g8(mx))]),
    ("subgraph_doc", lambda mx: _one(mx.nd.contrib.dgl_subgraph(
        csr(mx, [1, 2, 3, 4, 5, 6, 7], [0, 3, 0, 2, 1, 1, 2], [0, 2, 4, 5, 7], (4, 4)),
        ids(mx, [0, 1, 2]), return_mapping=True))),
    ("subgraph_two_sets", lambda mx: _one(mx.nd.contrib.dgl_subgraph(
        g8(mx), ids(mx, [0, 1, 4, 6, 7]), ids(mx, [2, 5]), return_mapping=True))),
    ("subgraph_no_mapping", lambda mx: _one(mx.nd.contrib.dgl_subgraph(
        g4(mx), ids(mx, [0, 2, 3]), return_mapping=False))),
    ("subgraph_repeated_vertex", lambda mx: _one(mx.nd.contrib.dgl_subgraph(
        g4(mx), ids(mx, [0, 0, 1, 3]), return_mapping=True))),
    ("uniform_one_hop", lambda mx: _sample(
        mx, False, g5(mx), [[0, 1, 2, 3, 4]], num_hops=1, num_neighbor=4, max_num_vertices=6)),
    ("uniform_two_hops", lambda mx: _sample(
        mx, False, g8(mx), [[0], [6, 3]], num_hops=2, num_neighbor=3, max_num_vertices=8)),
    ("uniform_truncated", lambda mx: _sample(
        mx, False, g8(mx), [[7, 7, 0]], num_hops=3, num_neighbor=5, max_num_vertices=5)),
    ("uniform_seed_limit", lambda mx: _sample(
        mx, False, g5(mx), [[2, 4]], num_hops=2, num_neighbor=4, max_num_vertices=2)),
    ("uniform_zero_hops", lambda mx: _sample(
        mx, False, g8(mx), [[1, 5]], num_hops=0, num_neighbor=3, max_num_vertices=4)),
    ("non_uniform_one_hop", lambda mx: _sample(
        mx, True, g8(mx), [[4], [1, 2]], prob=[0.5, 0.1, 0.9, 0.3, 0.2, 0.7, 0.4, 0.6],
        num_hops=1, num_neighbor=3, max_num_vertices=6)),
    ("non_uniform_three_hops", lambda mx: _sample(
        mx, True, g8(mx), [[2]], prob=[1, 2, 3, 4, 5, 6, 7, 8],
        num_hops=3, num_neighbor=3, max_num_vertices=7)),
    ("compact_one", lambda mx: _compact_of_sample(
        mx, g5(mx), [[0, 1]], False, num_hops=1, num_neighbor=4, max_num_vertices=7)),
    ("compact_two_mapping", lambda mx: _compact_of_sample(
        mx, g8(mx), [[0, 1, 4], [7, 6]], True, num_hops=2, num_neighbor=3,
        max_num_vertices=8)),
]


def run_case(mx, case):
    """The outputs of one case as {key: NumPy array} (see the module docstring)."""
    cid, fn = case
    rec = {}
    for j, o in enumerate(fn(mx)):
        key = f"{cid}/out{j}"
        if getattr(o, "stype", "default") == "csr":
            rec[key + "/data"] = o.data.asnumpy()
            rec[key + "/indices"] = o.indices.asnumpy().astype(I64)
            rec[key + "/indptr"] = o.indptr.asnumpy().astype(I64)
            rec[key + "/shape"] = np.array(o.shape, I64)
        else:
            rec[key] = o if isinstance(o, np.ndarray) else o.asnumpy()
    return rec


def main():
    import mxnet as mx
    out = {}
    for case in CASES:
        out.update(run_case(mx, case))
    np.savez(OUT, **out)
    print(f"wrote {len(out)} arrays for {len(CASES)} cases to {OUT}")


if __name__ == "__main__":
    main()
