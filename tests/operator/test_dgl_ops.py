"""Graph operators on CSR matrices (contrib_graph.py): 1.9.1 golden results (edge_id,
getnnz, dgl_adjacency, dgl_subgraph, dgl_graph_compact, and the neighbour samplers where
they are deterministic), the samplers' invariants when they draw at random, the dense
(symbol) path, and the errors."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import mxnet as mx

from .._scripts import load_script
from .harness import expect_error, load_golden_npz

nd = mx.nd
C = nd.contrib

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "dgl_ops.npz"
REGENERATE = ("cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python "
              "/work/main/tools/golden/gen_dgl_ops.py")

_GEN = load_script("tools/golden/gen_dgl_ops.py")

# none of them has a gradient in 1.9.1
NON_DIFFERENTIABLE = ("_contrib_edge_id", "_contrib_getnnz", "_contrib_dgl_adjacency",
                      "_contrib_dgl_subgraph", "_contrib_dgl_graph_compact",
                      "_contrib_dgl_csr_neighbor_uniform_sample",
                      "_contrib_dgl_csr_neighbor_non_uniform_sample")
GRAD_CASES: list = []

_NAMES = ("edge_id", "getnnz", "dgl_adjacency", "dgl_subgraph", "dgl_graph_compact",
          "dgl_csr_neighbor_uniform_sample", "dgl_csr_neighbor_non_uniform_sample")


@pytest.fixture(scope="module")
def golden():
    return load_golden_npz(GOLDEN, REGENERATE)


def test_names_exist():
    for name in _NAMES:
        assert callable(getattr(mx.nd.contrib, name)), name
        assert callable(getattr(mx.sym.contrib, name)), name
        assert mx.operator.get_op("_contrib_" + name).gradient is None


@pytest.mark.parametrize("case", _GEN.CASES, ids=[c[0] for c in _GEN.CASES])
def test_golden(case, golden):
    cid = case[0]
    got = _GEN.run_case(mx, case)
    want = {k: v for k, v in golden.items() if k.startswith(cid + "/")}
    assert sorted(got) == sorted(want)
    for key, w in want.items():
        g = got[key]
        if key.endswith("/indptr") and w.size == 0:
            # 1.9.1 leaves dgl_graph_compact's mapping outputs without storage; here they
            # are all-zero CSR matrices with an indptr of zeros
            rows = int(want[key[:-len("indptr")] + "shape"][0])
            np.testing.assert_array_equal(g, np.zeros(rows + 1, np.int64))
            continue
        assert (g.dtype, g.shape) == (w.dtype, w.shape), (key, g.dtype, g.shape, w.dtype,
                                                          w.shape)
        np.testing.assert_array_equal(g, w, err_msg=key)


# ---------------------------------------------------------------------------------------------
# random sampling: invariants

def _random_graph(n=40, deg=9, seed=0):
    rs = np.random.RandomState(seed)
    rows = [np.sort(rs.choice(np.delete(np.arange(n), i), size=rs.randint(0, deg + 1),
                              replace=False)) for i in range(n)]
    indptr = np.concatenate([[0], np.cumsum([r.size for r in rows])]).astype(np.int64)
    cols = np.concatenate(rows).astype(np.int64)
    eids = rs.permutation(cols.size).astype(np.int64)  # ids in no particular order
    g = nd.sparse.csr_matrix((eids, cols, indptr), shape=(n, n), dtype=np.int64)
    return g, indptr, cols, eids


def _check_sample(graph, seeds, verts, sub, levels, num_hops, num_neighbor, max_nv):
    _, indptr, cols, eids = graph
    v = verts.asnumpy()
    assert v.shape == (max_nv + 1,) and v.dtype == np.int64
    n = int(v[-1])
    assert 1 <= n <= max_nv
    vs = v[:n]
    assert np.all(np.diff(vs) > 0)
    assert np.all(v[n:max_nv] == -1)
    lev = levels.asnumpy()
    assert lev.shape == (max_nv,) and lev.dtype == np.int64
    assert np.all(lev[n:] == -1)
    lv = dict(zip(vs.tolist(), lev[:n].tolist()))
    assert set(np.unique(seeds).tolist()) <= set(vs.tolist())
    assert all(lv[s] == 0 for s in seeds)
    assert sub.stype == "csr" and sub.shape == (max_nv, graph[0].shape[1])
    sptr, scol, sdat = sub.indptr.asnumpy(), sub.indices.asnumpy(), sub.data.asnumpy()
    assert np.all(sptr[n:] == sptr[n])
    parents = {}  # vertex -> levels of the vertices with a sampled edge to it
    for i, x in enumerate(vs.tolist()):
        rc, rd = scol[sptr[i]:sptr[i + 1]], sdat[sptr[i]:sptr[i + 1]]
        nbr, ids = cols[indptr[x]:indptr[x + 1]], eids[indptr[x]:indptr[x + 1]]
        if lv[x] >= num_hops:
            assert rc.size == 0
            continue
        # sampled edges: real edges of x (with their ids), no repeats, at most num_neighbor,
        # all of them when x has no more
        assert rc.size == min(num_neighbor, nbr.size) or rc.size == 0
        assert len(set(rc.tolist())) == rc.size
        pos = {c: e for c, e in zip(nbr.tolist(), ids.tolist())}
        for c, e in zip(rc.tolist(), rd.tolist()):
            assert pos[c] == e
            parents.setdefault(c, set()).add(lv[x])
    # every vertex is a seed or a sampled neighbour of a vertex one level up
    for x in vs.tolist():
        assert lv[x] <= num_hops
        if lv[x] > 0:
            assert lv[x] - 1 in parents.get(x, ()), (x, lv[x], parents.get(x))
            assert min(parents[x]) >= lv[x] - 1


@pytest.mark.parametrize("num_hops,num_neighbor,max_nv", [(1, 2, 30), (2, 3, 40), (3, 2, 12)])
def test_uniform_sample_invariants(num_hops, num_neighbor, max_nv):
    graph = _random_graph()
    mx.random.seed(3)
    seed_sets = [[0, 5], [11]]
    outs = C.dgl_csr_neighbor_uniform_sample(
        graph[0], *[nd.array(s, dtype=np.int64) for s in seed_sets], num_hops=num_hops,
        num_neighbor=num_neighbor, max_num_vertices=max_nv)
    assert len(outs) == 6
    for i, s in enumerate(seed_sets):
        _check_sample(graph, s, outs[i], outs[2 + i], outs[4 + i], num_hops, num_neighbor,
                      max_nv)
    # the compacted subgraph relabels the columns
    v, sub = outs[0], outs[2]
    n = int(v.asnumpy()[-1])
    if num_hops == 1:  # every sampled neighbour is then a vertex of the subgraph
        comp = C.dgl_graph_compact(sub, v, graph_sizes=(n,), return_mapping=False)
        assert comp.shape == (n, n)
        vs = v.asnumpy()[:n]
        np.testing.assert_array_equal(vs[comp.indices.asnumpy()], sub.indices.asnumpy())
        np.testing.assert_array_equal(comp.data.asnumpy(), np.arange(sub.data.shape[0]))


def test_uniform_sample_random_and_seeded():
    graph = _random_graph()
    kw = dict(num_hops=2, num_neighbor=2, max_num_vertices=40)
    seeds = nd.array([0, 1, 2], dtype=np.int64)
    runs = []
    for seed in (1, 1, 2, 3, 4):
        mx.random.seed(seed)
        outs = C.dgl_csr_neighbor_uniform_sample(graph[0], seeds, **kw)
        runs.append((outs[0].asnumpy().tolist(), outs[1].indices.asnumpy().tolist()))
    assert runs[0] == runs[1]  # mx.random.seed makes it reproducible
    assert len({str(r) for r in runs}) > 2  # and it draws at random


def test_non_uniform_sample_probabilities():
    graph = _random_graph(seed=1)
    n = graph[0].shape[0]
    w = np.random.RandomState(0).uniform(0.1, 1.0, n).astype(np.float32)
    w[::3] = 0.0  # never drawn while enough other neighbours are left
    prob = nd.array(w, dtype=np.float32)
    mx.random.seed(0)
    kw = dict(num_hops=2, num_neighbor=2, max_num_vertices=40)
    seeds = [1, 2]
    outs = C.dgl_csr_neighbor_non_uniform_sample(graph[0], prob,
                                                  nd.array(seeds, dtype=np.int64), **kw)
    assert len(outs) == 4
    v, sub, p, lev = outs
    _check_sample(graph, seeds, v, sub, lev, 2, 2, 40)
    cnt = int(v.asnumpy()[-1])
    pa = p.asnumpy()
    assert pa.dtype == np.float32 and pa.shape == (40,)
    np.testing.assert_array_equal(pa[:cnt], w[v.asnumpy()[:cnt]])
    assert np.all(pa[cnt:] == -1)
    _, indptr, cols, _ = graph
    sptr, scol = sub.indptr.asnumpy(), sub.indices.asnumpy()
    for i, x in enumerate(v.asnumpy()[:cnt].tolist()):
        nbr = cols[indptr[x]:indptr[x + 1]]
        if nbr.size > 2 and np.count_nonzero(w[nbr]) >= 2:
            assert np.all(w[scol[sptr[i]:sptr[i + 1]]] > 0)


def test_non_uniform_sample_frequencies():
    # one vertex with 4 neighbours of weights 1:2:3:14, one drawn at a time
    g = nd.sparse.csr_matrix((np.arange(4), np.array([1, 2, 3, 4]), np.array([0, 4, 4, 4, 4, 4])),
                             shape=(5, 5), dtype=np.int64)
    prob = nd.array([0, 1, 2, 3, 14], dtype=np.float32)
    mx.random.seed(7)
    counts = np.zeros(5)
    for _ in range(400):
        outs = C.dgl_csr_neighbor_non_uniform_sample(g, prob, nd.array([0], dtype=np.int64),
                                                      num_hops=1, num_neighbor=1,
                                                      max_num_vertices=5)
        counts[outs[1].indices.asnumpy()[0]] += 1
    freq = counts[1:] / 400
    np.testing.assert_allclose(freq, np.array([1, 2, 3, 14]) / 20, atol=0.07)


# ---------------------------------------------------------------------------------------------
# the dense path: symbols and executors

def test_symbol_executor_matches_nd():
    g = _GEN.g5(mx)
    dense = g.tostype("default")
    u, v = nd.array([0, 1, 2, 3]), nd.array([1, 1, 4, 0])
    s = mx.sym.contrib.edge_id(mx.sym.var("g"), mx.sym.var("u"), mx.sym.var("v"))
    out = s.bind(mx.cpu(), {"g": dense, "u": u, "v": v}).forward()[0]
    np.testing.assert_array_equal(out.asnumpy(), C.edge_id(g, u, v).asnumpy())
    assert out.dtype == np.int64

    s = mx.sym.contrib.getnnz(mx.sym.var("g"), axis=1)
    out = s.bind(mx.cpu(), {"g": dense}).forward()[0]
    np.testing.assert_array_equal(out.asnumpy(), [4] * 5)

    vids = nd.array([0, 2, 3], dtype=np.int64)
    s = mx.sym.contrib.dgl_subgraph(mx.sym.var("g"), mx.sym.var("v"), return_mapping=True)
    assert s.list_arguments() == ["g", "v"] and len(s.list_outputs()) == 2
    outs = s.bind(mx.cpu(), {"g": dense, "v": vids}).forward()
    want = C.dgl_subgraph(g, vids, return_mapping=True)
    for o, w in zip(outs, want):
        np.testing.assert_array_equal(o.asnumpy(), w.asnumpy())

    s = mx.sym.contrib.dgl_csr_neighbor_uniform_sample(mx.sym.var("g"), mx.sym.var("s"),
                                                       num_hops=1, num_neighbor=4,
                                                       max_num_vertices=6)
    _, oshapes, _ = s.infer_shape(g=(5, 5), s=(2,))
    assert oshapes == [(7,), (6, 5), (6,)]
    seeds = nd.array([0, 3], dtype=np.int64)
    outs = s.bind(mx.cpu(), {"g": dense, "s": seeds}).forward()
    want = C.dgl_csr_neighbor_uniform_sample(g, seeds, num_hops=1, num_neighbor=4,
                                             max_num_vertices=6)
    for o, w in zip(outs, want):
        np.testing.assert_array_equal(o.asnumpy(), w.asnumpy())

    s = mx.sym.contrib.dgl_adjacency(mx.sym.var("g"))
    out = s.bind(mx.cpu(), {"g": dense}).forward()[0]
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out.asnumpy(), C.dgl_adjacency(g).asnumpy())


def test_out_argument():
    g = _GEN.g4(mx)
    res = nd.zeros((3,), dtype=np.int64)
    r = C.edge_id(g, nd.array([0, 1, 3]), nd.array([0, 3, 1]), out=res)
    assert r is res
    np.testing.assert_array_equal(res.asnumpy(), [1, -1, 6])


# ---------------------------------------------------------------------------------------------
# errors

def test_errors():
    g = _GEN.g5(mx)
    gf = _GEN.g5(mx, "float32")
    i64 = lambda v: nd.array(v, dtype=np.int64)  # noqa: E731
    expect_error(C.getnnz, gf, axis=0, match="not supported")
    expect_error(C.getnnz, gf, axis=2, match="axis")
    expect_error(C.edge_id, g, nd.array([0, 1]), nd.array([1]), match="one length")
    expect_error(C.edge_id, g, nd.array([[0]]), nd.array([[1]]), match="1-D")
    expect_error(C.edge_id, g, nd.array([7]), nd.array([1]), match="u")
    expect_error(C.dgl_adjacency, gf, match="int64")
    expect_error(C.dgl_subgraph, g, i64([2, 0, 1]), return_mapping=False, match="sorted")
    expect_error(C.dgl_subgraph, g, i64([0, 5]), return_mapping=False, match="vertex id 5")
    expect_error(C.dgl_subgraph, g, nd.array([0, 1]), return_mapping=False, match="int64")
    expect_error(C.dgl_subgraph, gf, i64([0, 1]), return_mapping=False, match="int64")
    expect_error(C.dgl_csr_neighbor_uniform_sample, gf, i64([0]), match="int64")
    expect_error(C.dgl_csr_neighbor_uniform_sample, g, nd.array([0]), match="int64")
    expect_error(C.dgl_csr_neighbor_uniform_sample, g, i64([0, 1, 2]), max_num_vertices=2,
                 match="max_num_vertices")
    expect_error(C.dgl_csr_neighbor_uniform_sample, g, i64([[0, 1]]), match="1-D")
    expect_error(C.dgl_csr_neighbor_non_uniform_sample, g, nd.array([.2] * 5, dtype="float64"),
                 i64([0]), match="float32")
    outs = C.dgl_csr_neighbor_uniform_sample(g, i64([0]), num_hops=1, num_neighbor=4,
                                             max_num_vertices=6)
    expect_error(C.dgl_graph_compact, outs[1], outs[0], graph_sizes=(4,),
                 return_mapping=False, match="graph_sizes")
    expect_error(C.dgl_graph_compact, outs[1], outs[0], graph_sizes=(5, 5),
                 return_mapping=False, match="graph_sizes")
    # a truncated sample has edges to vertices it did not keep
    outs = C.dgl_csr_neighbor_uniform_sample(g, i64([0]), num_hops=1, num_neighbor=4,
                                             max_num_vertices=3)
    expect_error(C.dgl_graph_compact, outs[1], outs[0], graph_sizes=(3,),
                 return_mapping=False, match="not among")
