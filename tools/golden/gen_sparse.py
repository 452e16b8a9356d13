"""Record what MXNet 1.9.1's ``mx.nd.sparse`` returns: classes, storage types, dtypes,
components and values of constructors, conversions and operators; sparse ``.params`` bytes;
and the weight gradient of ``dot(csr, weight)``.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine MXNET_STORAGE_FALLBACK_LOG_VERBOSE=0 \\
        /work/main/.ref/bin/python /work/main/tools/golden/gen_sparse.py

Writes ``tests/golden/sparse_ops.json`` (per case: class, stype, dtype, shape, or the
exception class), ``tests/golden/sparse_ops.npz`` (per case ``<id>/dense`` and the
components ``<id>/data``, ``<id>/indices``, ``<id>/indptr``), and
``tests/golden/sparse_dict.params`` / ``sparse_list.params`` (files 1.9.1's ``mx.nd.save``
wrote). ``tests/test_sparse`` imports this module (it stays importable without mxnet) for
:data:`CASES` and :func:`make_inputs`.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
GOLDEN = HERE.parent.parent / "tests" / "golden"


def make_inputs(mx):
    """The arrays the case expressions use, built with the given mxnet."""
    sp = mx.nd.sparse
    nd = mx.nd
    return {
        "mx": mx, "nd": nd, "sp": sp, "np": np,
        "A": sp.csr_matrix(([1., 2., 3.], [0, 2, 1], [0, 2, 2, 3]), shape=(3, 4)),
        "B": sp.csr_matrix(([4., -1., 5., 2.], [0, 3, 1, 1], [0, 2, 3, 4]), shape=(3, 4)),
        "AI": sp.csr_matrix(([1, 2, 3], [0, 2, 1], [0, 2, 2, 3]), shape=(3, 4), dtype="int32"),
        "R": sp.row_sparse_array(([[1., 2.], [3., 4.]], [0, 2]), shape=(4, 2)),
        "S": sp.row_sparse_array(([[5., 6.], [-3., -4.]], [2, 3]), shape=(4, 2)),
        "R3": sp.row_sparse_array((np.arange(8, dtype="float32").reshape(2, 2, 2), [1, 3]),
                                  shape=(5, 2, 2)),
        "D34": nd.array(np.arange(12).reshape(3, 4) * 0.5 - 2),
        "D42": nd.array(np.arange(8).reshape(4, 2) * 0.25 + 1),
        "D32": nd.array(np.arange(6).reshape(3, 2) - 2.5),
        "D23": nd.array(np.arange(6).reshape(2, 3) * 0.5 + 0.5),
        "D24": nd.array(np.arange(8).reshape(2, 4) - 3.0),
        "Z34": nd.array([[0, 1.5, 0, 0], [0, 0, 0, 0], [2, 0, 0, -1]]),
        "Z42": nd.array([[0, 0], [1, 2], [0, 0], [0, 3]]),
    }


# id -> expression over make_inputs' names
CASES = {
    # constructors
    "csr_tuple": "sp.csr_matrix(([1., 2., 3.], [0, 2, 1], [0, 2, 2, 3]), shape=(3, 4))",
    "csr_tuple_noshape": "sp.csr_matrix(([1., 2.], [0, 1], [0, 1, 2]))",
    "csr_np_f64": "sp.csr_matrix((np.array([1., 2.]), np.array([0, 1]), np.array([0, 1, 2])),"
                  " shape=(2, 2))",
    "csr_np_i32_idx": "sp.csr_matrix((np.array([1., 2.], 'float32'), np.array([0, 1], 'int32'),"
                      " np.array([0, 1, 2], 'int32')), shape=(2, 2))",
    "csr_dense_np64": "sp.csr_matrix(np.array([[1., 0], [0, 2]]))",
    "csr_dense_nd": "sp.csr_matrix(Z34)",
    "csr_dense_list": "sp.csr_matrix([[1., 0], [0, 2]])",
    "csr_shape": "sp.csr_matrix((2, 3))",
    "csr_dtype": "sp.csr_matrix(([1, 2], [0, 1], [0, 1, 2]), shape=(2, 2), dtype='int32')",
    "csr_from_csr": "sp.csr_matrix(A)",
    "rsp_tuple": "sp.row_sparse_array(([[1., 2.], [3., 4.]], [0, 2]), shape=(4, 2))",
    "rsp_noshape": "sp.row_sparse_array(([[1.], [2.]], [0, 4]))",
    "rsp_dense_np64": "sp.row_sparse_array(np.array([[0, 0], [1, 2.]]))",
    "rsp_dense_nd": "sp.row_sparse_array(Z42)",
    "rsp_shape": "sp.row_sparse_array((2, 3))",
    "rsp_dtype": "sp.row_sparse_array(([[1, 2]], [1]), shape=(3, 2), dtype='int32')",
    "rsp_3d": "R3",
    "zeros_csr": "sp.zeros('csr', (2, 3))",
    "zeros_rsp": "sp.zeros('row_sparse', (2, 3), dtype='float64')",
    "zeros_default": "sp.zeros('default', (2, 3))",
    "empty_csr": "sp.empty('csr', (2, 3))",
    "array_csr": "sp.array(A)",
    "array_rsp": "sp.array(R)",
    "array_dense_err": "sp.array(np.ones((2, 2)))",
    # conversions
    "cast_d_csr": "nd.cast_storage(Z34, 'csr')",
    "cast_d_rsp": "nd.cast_storage(Z42, 'row_sparse')",
    "cast_csr_d": "nd.cast_storage(A, 'default')",
    "cast_rsp_d": "nd.cast_storage(R, 'default')",
    "sp_cast": "sp.cast_storage(Z42, 'row_sparse')",
    "tostype_csr_d": "A.tostype('default')",
    "tostype_rsp_d": "R.tostype('default')",
    "tostype_d_csr": "Z34.tostype('csr')",
    "tostype_d_rsp": "Z42.tostype('row_sparse')",
    "tostype_csr_csr": "A.tostype('csr')",
    "tostype_csr_rsp_err": "A.tostype('row_sparse')",
    "tostype_rsp_csr_err": "R.tostype('csr')",
    "astype_csr": "A.astype('float64')",
    "astype_rsp": "R.astype('int32')",
    "copy_csr": "A.copy()",
    "copy_rsp": "R.copy()",
    "copyto_ctx": "A.copyto(mx.cpu())",
    "as_in_context": "R.as_in_context(mx.cpu())",
    "data_csr": "A.data", "indices_csr": "A.indices", "indptr_csr": "A.indptr",
    "data_rsp": "R.data", "indices_rsp": "R.indices",
    # dot
    "dot_csr_dns": "sp.dot(A, D42)",
    "dot_csrT_dns": "sp.dot(A, D32, transpose_a=True)",
    "dot_dns_csr": "sp.dot(D23, A)",
    "dot_dns_csrT": "sp.dot(D24, A, transpose_b=True)",
    "dot_csr_dnsT": "sp.dot(A, nd.array(np.arange(8).reshape(2, 4)), transpose_b=True)",
    "dot_csr_csrT": "sp.dot(A, B, transpose_b=True)",
    "dot_csr_rsp": "sp.dot(A, R)",
    "nd_dot_csr_dns": "nd.dot(A, D42)",
    "nd_dot_csrT_dns": "nd.dot(A, D32, transpose_a=True)",
    "dot_int": "sp.dot(AI, nd.array(np.ones((4, 2)), dtype='int32'))",
    "dot_shape_err": "sp.dot(A, nd.ones((3, 2)))",
    # elementwise
    "add_cc": "sp.add(A, B)", "sub_cc": "sp.subtract(A, B)", "sub_cc_self": "sp.subtract(A, A)",
    "mul_cc": "sp.multiply(A, B)", "div_cc": "sp.divide(A, B)",
    "add_cd": "sp.add(A, D34)", "add_dc": "sp.add(D34, A)", "sub_cd": "sp.subtract(A, D34)",
    "mul_cd": "sp.multiply(A, D34)", "mul_dc": "sp.multiply(D34, A)",
    "mul_c_row": "sp.multiply(A, nd.array([[1., 2, 3, 4]]))",
    "mul_c_col": "sp.multiply(A, nd.array([[2.], [3], [4]]))",
    "div_cd": "sp.divide(A, D34 + 10)",
    "add_rr": "sp.add(R, S)", "sub_rr": "sp.subtract(R, S)", "sub_rr_self": "sp.subtract(R, R)",
    "mul_rr": "sp.multiply(R, S)", "div_rr": "sp.divide(R, S)",
    "add_rd": "sp.add(R, D42)", "mul_rd": "sp.multiply(R, D42)", "mul_dr": "sp.multiply(D42, R)",
    "div_rd": "sp.divide(R, D42)",
    "op_add_cc": "A + B", "op_sub_rr": "R - S", "op_mul_cs": "A * 2", "op_rmul_rs": "3 * R",
    "op_div_cs": "A / 2", "op_div_rs": "R / 4", "op_add_cs": "A + 1", "op_sub_rs": "R - 1",
    "op_neg_c": "-A", "op_neg_r": "-R", "op_add_cd": "A + D34", "op_mul_cd": "A * D34",
    "op_eq": "A == B",
    "elemwise_add_cc": "nd.elemwise_add(A, B)", "elemwise_mul_rr": "nd.elemwise_mul(R, S)",
    "elemwise_sub_rr": "sp.elemwise_sub(R, S)",
    "add_shape_err": "sp.add(A, sp.csr_matrix((2, 4)))",
    # reductions
    "sum_all": "sp.sum(A)", "sum_0": "sp.sum(A, axis=0)", "sum_1": "sp.sum(A, axis=1)",
    "sum_1_keep": "sp.sum(A, axis=1, keepdims=True)", "sum_0_keep": "sp.sum(A, axis=0, keepdims=True)",
    "sum_int": "sp.sum(AI, axis=0)", "mean_0": "sp.mean(A, axis=0)", "mean_1": "sp.mean(A, axis=1)",
    "mean_all": "sp.mean(A)", "sum_rsp_0": "sp.sum(R, axis=0)", "sum_rsp_1": "sp.sum(R, axis=1)",
    "nd_sum_csr": "nd.sum(A, axis=0)",
    # unary
    "square_c": "sp.square(A)", "sqrt_r": "sp.sqrt(R)", "abs_c": "sp.abs(B)", "sign_r": "sp.sign(S)",
    "neg_c": "sp.negative(B)", "relu_c": "nd.relu(B)", "clip_c": "sp.clip(B, -1, 1)",
    "clip_c_pos": "sp.clip(B, 1, 2)", "exp_c": "sp.exp(A)", "tanh_r": "sp.tanh(R)",
    "nd_square_r": "nd.square(R)", "nd_sigmoid_c": "nd.sigmoid(A)", "floor_c": "sp.floor(A / 2)",
    "zeros_like_c": "nd.zeros_like(A)", "zeros_like_r": "sp.zeros_like(R)",
    # slicing, concat, retain
    "slice_rows": "sp.slice(A, begin=(1,), end=(3,))",
    "slice_2d": "sp.slice(A, begin=(0, 1), end=(3, 3))",
    "getitem_slice": "A[1:3]", "getitem_int": "A[1]", "getitem_neg": "A[-1]",
    "getitem_open": "B[1:]", "getitem_step_err": "A[0:3:2]", "getitem_tuple_err": "A[1:2, 0:1]",
    "getitem_rsp_all": "R[:]", "getitem_rsp_err": "R[1:3]",
    "concat_0": "sp.concat(A, B, dim=0)", "concat_1": "sp.concat(A, B, dim=1)",
    "retain": "sp.retain(R, nd.array([0, 1]))",
    "retain_int64": "sp.retain(S, nd.array([3, 2, 1], dtype='int64'))",
    "retain_csr_err": "sp.retain(A, nd.array([1]))",
    # format checks
    "check_ok": "A.check_format() or A",
    "check_unsorted_err": "sp.csr_matrix(([1., 2.], [1, 0], [0, 2, 2]), shape=(2, 2))"
                          ".check_format()",
    "check_col_oob_err": "sp.csr_matrix(([1., 2.], [0, 5], [0, 1, 2]), shape=(2, 2))"
                         ".check_format()",
    "check_rsp_unsorted_err": "sp.row_sparse_array(([[1.], [2.]], [2, 0]), shape=(3, 1))"
                              ".check_format()",
    "check_rsp_oob_err": "sp.row_sparse_array(([[1.], [2.]], [0, 5]), shape=(3, 1))"
                         ".check_format()",
    "unsorted_unchecked": "sp.csr_matrix(([1., 2.], [1, 0], [0, 2, 2]), shape=(2, 2))",
}

# arrays saved to the .params fixtures
SAVE_DICT = "{'csr': A, 'rsp': R, 'dense': D34, 'csr_int': AI, 'rsp3': R3, " \
            "'csr_empty': sp.zeros('csr', (2, 5)), 'rsp_empty': sp.zeros('row_sparse', (3, 2))}"
SAVE_LIST = "[B, S]"


# optimizer updates with a row_sparse gradient: id -> (mx.nd function, state count, kwargs)
UPDATES = {
    "sgd_lazy": ("sgd_update", 0, {"lr": 0.1, "wd": 0.1}),
    "sgd_nonlazy": ("sgd_update", 0, {"lr": 0.1, "wd": 0.1, "lazy_update": False}),
    "mom_lazy": ("sgd_mom_update", 1, {"lr": 0.1, "wd": 0.1, "momentum": 0.9}),
    "mom_nonlazy": ("sgd_mom_update", 1, {"lr": 0.1, "wd": 0.1, "momentum": 0.9,
                                          "lazy_update": False}),
    "adam_lazy": ("adam_update", 2, {"lr": 0.1, "wd": 0.1}),
    "adam_nonlazy": ("adam_update", 2, {"lr": 0.1, "wd": 0.1, "lazy_update": False}),
    "ftrl": ("ftrl_update", 2, {"lr": 0.1, "wd": 0.1}),
    "adagrad": ("sparse.adagrad_update", 1, {"lr": 0.1, "rescale_grad": 0.5,
                                             "clip_gradient": 1.2, "epsilon": 1e-3}),
}


def run_update(mx, fname, nstates, kwargs, namespace="nd"):
    """Weight and states (NumPy) after one update with out=weight and a row_sparse grad."""
    w = mx.nd.array(np.arange(8).reshape(4, 2) * 0.5 + 1)
    grad = mx.nd.sparse.row_sparse_array(([[1., 2.], [3., -4.]], [0, 2]), shape=(4, 2))
    states = [mx.nd.ones((4, 2)) for _ in range(nstates)]
    if fname.startswith("sparse."):
        namespace, fname = "sparse", fname[len("sparse."):]
    fn = getattr(mx.nd.sparse if namespace == "sparse" else mx.nd, fname)
    fn(w, grad, *states, out=w, **kwargs)
    return [w.asnumpy()] + [st.asnumpy() for st in states]


def embedding_grad(mx, kind):
    """The row_sparse weight gradient of ``Embedding(sparse_grad=True)`` or
    ``contrib.SparseEmbedding`` (head gradient 1..8; row 2 is looked up, and row 5 is
    looked up with a zero head gradient)."""
    w = mx.nd.array(np.arange(12).reshape(6, 2) * 0.5)
    w.attach_grad(stype="row_sparse")
    x = mx.nd.array([[1, 3], [3, 0], [5, 2]])
    head = np.arange(12, dtype=np.float32).reshape(3, 2, 2) + 1
    head[2, 0] = 0
    with mx.autograd.record():
        if kind == "Embedding":
            y = mx.nd.Embedding(x, w, input_dim=6, output_dim=2, sparse_grad=True)
        else:
            y = mx.nd.contrib.SparseEmbedding(x, w, input_dim=6, output_dim=2)
        loss = (y * mx.nd.array(head)).sum()
    loss.backward()
    return w.grad


def kvstore_rsp(mx):
    """A local KVStore holding a row_sparse value: row_sparse_pull into a RowSparseNDArray
    (repeated, unsorted row ids) and a plain pull into one (ignored, ignore_sparse=True)."""
    kv = mx.kv.create("local")
    kv.init("w", mx.nd.array([[1., 2.], [0, 0], [3, 4], [5, 6]]).tostype("row_sparse"))
    out = mx.nd.sparse.zeros("row_sparse", (4, 2))
    kv.row_sparse_pull("w", out=out, row_ids=mx.nd.array([2, 1, 2]))
    kept = mx.nd.sparse.row_sparse_array(([[9., 9.]], [0]), shape=(4, 2))
    kv.pull("w", out=kept)
    return {"indices": out.indices.asnumpy(), "data": out.data.asnumpy(),
            "pull_ignored": kept.asnumpy()}


def describe(out):
    """(meta, arrays) of one result."""
    meta = {"class": type(out).__name__}
    arrays = {}
    if hasattr(out, "stype"):
        meta.update(stype=out.stype, dtype=np.dtype(out.dtype).name, shape=list(out.shape))
        arrays["dense"] = out.asnumpy()
        if out.stype != "default":
            arrays["data"] = out.data.asnumpy()
            arrays["indices"] = out.indices.asnumpy()
            if out.stype == "csr":
                arrays["indptr"] = out.indptr.asnumpy()
    else:
        meta["value"] = repr(out)
    return meta, arrays


def main():
    import mxnet as mx
    env = make_inputs(mx)
    metas, arrays = {}, {}
    for cid, expr in CASES.items():
        try:
            out = eval(expr, dict(env))  # noqa: S307  (the fixed case table above)
        except Exception as e:  # noqa: BLE001
            metas[cid] = {"error": type(e).__name__, "message": str(e).split("\n")[-1][:200]}
            continue
        meta, arrs = describe(out)
        meta["repr"] = repr(out) if meta.get("stype") in ("csr", "row_sparse") else None
        metas[cid] = meta
        for k, v in arrs.items():
            arrays[f"{cid}/{k}"] = v
    # autograd: dot(csr, weight) -> weight gradient
    w = mx.nd.array(np.arange(8).reshape(4, 2) * 0.5 - 1)
    w.attach_grad()
    with mx.autograd.record():
        y = mx.nd.sparse.dot(env["A"], w)
        loss = (y * mx.nd.array([[1., 2.], [3., 4.], [5., 6.]])).sum()
    loss.backward()
    metas["autograd_dot"] = {"y_stype": y.stype, "grad_stype": w.grad.stype}
    arrays["autograd_dot/y"] = y.asnumpy()
    arrays["autograd_dot/grad"] = w.grad.asnumpy()
    for kind in ("Embedding", "SparseEmbedding"):
        grad = embedding_grad(mx, kind)
        metas[f"autograd_{kind}"] = {"grad_stype": grad.stype, "class": type(grad).__name__}
        arrays[f"autograd_{kind}/dense"] = grad.asnumpy()
        arrays[f"autograd_{kind}/indices"] = grad.indices.asnumpy()
        arrays[f"autograd_{kind}/data"] = grad.data.asnumpy()
    for k, v in kvstore_rsp(mx).items():
        arrays[f"kvstore/{k}"] = v
    for uid, (fname, nstates, kwargs) in UPDATES.items():
        for i, arr in enumerate(run_update(mx, fname, nstates, kwargs)):
            arrays[f"update_{uid}/{i}"] = arr
    with open(GOLDEN / "sparse_ops.json", "w") as f:
        json.dump(metas, f, indent=1, sort_keys=True)
    np.savez_compressed(GOLDEN / "sparse_ops.npz", **arrays)
    mx.nd.save(str(GOLDEN / "sparse_dict.params"), eval(SAVE_DICT, dict(env)))  # noqa: S307
    mx.nd.save(str(GOLDEN / "sparse_list.params"), eval(SAVE_LIST, dict(env)))  # noqa: S307
    print(len(metas), "cases,", len(arrays), "arrays;",
          sum("error" in m for m in metas.values()), "errors")


if __name__ == "__main__" and os.environ.get("MXNET_ENGINE_TYPE") is not None:
    main()
elif __name__ == "__main__":
    raise SystemExit("run under the reference venv with MXNET_ENGINE_TYPE=NaiveEngine")
