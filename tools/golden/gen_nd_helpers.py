"""Record 1.9.1's mx.nd.gen_* module contents, mx.nd.utils' names and the indexing helpers
``get_indexing_dispatch_code``, ``indexing_key_expand_implicit_axes`` and
``get_oshape_of_gather_nd_op`` for tests/ndarray/test_nd_gen_modules.py.

Run with the reference interpreter, from outside the repository::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /path/to/repo/.ref/bin/python \
        /path/to/repo/tools/golden/gen_nd_helpers.py

Writes ``tests/golden/nd_helpers.json``. Keys and results are stored in a small tagged JSON
encoding (see :func:`encode`); the test decodes the keys with its own reader. ``KEYS`` is
the probe table: each entry is a key built by a lambda taking the array constructors, so the
same table reads under both implementations.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[2] / "tests" / "golden" / "nd_helpers.json"
GEN_MODULES = ["gen_op", "gen__internal", "gen_contrib", "gen_image", "gen_linalg", "gen_sparse"]


def encode(x):
    """A JSON form of a key or result: tagged dicts for everything JSON cannot hold."""
    import mxnet as mx
    if x is None:
        return {"none": None}
    if x is Ellipsis:
        return {"ellipsis": None}
    if isinstance(x, (bool, np.bool_)):
        return {"bool": bool(x), "np": isinstance(x, np.bool_)}
    if isinstance(x, (int, np.integer)):
        return {"int": int(x), "type": type(x).__name__}
    if isinstance(x, float):
        return {"float": x}
    if isinstance(x, str):
        return {"str": x}
    if isinstance(x, slice):
        return {"slice": [x.start, x.stop, x.step]}
    if isinstance(x, range):
        return {"range": [x.start, x.stop, x.step]}
    if isinstance(x, tuple):
        return {"tuple": [encode(v) for v in x]}
    if isinstance(x, list):
        return {"list": [encode(v) for v in x]}
    if isinstance(x, dict):
        return {"dict": [[encode(k), encode(v)] for k, v in x.items()]}
    if isinstance(x, np.ndarray):
        return {"numpy": x.tolist(), "dtype": x.dtype.name, "shape": list(x.shape)}
    if isinstance(x, mx.nd.NDArray):
        a = x.asnumpy()
        kind = "np_nd" if type(x).__module__.startswith("mxnet.numpy") else "nd"
        return {kind: a.tolist(), "dtype": a.dtype.name, "shape": list(a.shape)}
    raise TypeError(f"cannot encode {type(x)}")


# each key: (label, builder(B, N, I) -> key); B: bool mx.nd array, N: float mx.nd array,
# I: int32 mx.nd array
KEYS = [
    ("int", lambda B, N, I: 0), ("neg_int", lambda B, N, I: -1), ("big_int", lambda B, N, I: 5),
    ("true", lambda B, N, I: True), ("false", lambda B, N, I: False),
    ("np_int64", lambda B, N, I: np.int64(2)), ("float", lambda B, N, I: 1.5),
    ("str", lambda B, N, I: "a"), ("slice_all", lambda B, N, I: slice(None)),
    ("slice", lambda B, N, I: slice(1, 3)), ("slice_rev", lambda B, N, I: slice(None, None, -1)),
    ("none", lambda B, N, I: None), ("ellipsis", lambda B, N, I: Ellipsis),
    ("list", lambda B, N, I: [0, 1]), ("nested_list", lambda B, N, I: [[0, 1], [1, 0]]),
    ("bool_list", lambda B, N, I: [True, False]), ("empty_list", lambda B, N, I: []),
    ("np_int_arr", lambda B, N, I: np.array([0, 1])),
    ("np_bool_arr", lambda B, N, I: np.array([True, False, True])),
    ("np_0d", lambda B, N, I: np.array(1)), ("nd_int", lambda B, N, I: I([0, 1])),
    ("nd_float", lambda B, N, I: N([1, 0])), ("nd_bool", lambda B, N, I: B([1, 0, 1])),
    ("dict", lambda B, N, I: {1: 2}), ("np_int32", lambda B, N, I: np.int32(1)),
    ("range", lambda B, N, I: range(2)),
    ("t_empty", lambda B, N, I: ()), ("t_int", lambda B, N, I: (0,)),
    ("t_int2", lambda B, N, I: (0, 1)), ("t_int3", lambda B, N, I: (0, 0, 0)),
    ("t_int4", lambda B, N, I: (0, 0, 0, 0)), ("t_none_int3", lambda B, N, I: (None, 0, 0, 0)),
    ("t_slice_none_ell", lambda B, N, I: (slice(1, 2), None, Ellipsis)),
    ("t_int_list", lambda B, N, I: (0, [0, 1])),
    ("t_list_slice", lambda B, N, I: ([0, 1], slice(None))),
    ("t_np_np", lambda B, N, I: (np.array([0, 1]), np.array([1, 0]))),
    ("t_none_list", lambda B, N, I: (None, [0])), ("t_ell_list", lambda B, N, I: (Ellipsis, [0])),
    ("t_ell_ell", lambda B, N, I: (Ellipsis, Ellipsis)), ("t_tuple", lambda B, N, I: ((0, 1),)),
    ("t_list_none", lambda B, N, I: ([0, 1], None)), ("t_float", lambda B, N, I: (1.5,)),
    ("t_str", lambda B, N, I: ("a",)), ("t_true", lambda B, N, I: (True,)),
    ("t_false", lambda B, N, I: (False,)), ("t_np_bool", lambda B, N, I: (np.bool_(True),)),
    ("t_range", lambda B, N, I: (range(2),)), ("t_np_int64", lambda B, N, I: (np.int64(1),)),
    ("t_np_0d", lambda B, N, I: (np.array(1),)), ("t_nd_float", lambda B, N, I: (N([1]),)),
    ("t_np_float_arr", lambda B, N, I: (np.array([0.5]),)),
    ("t_float_list", lambda B, N, I: ([0.5],)), ("t_dict", lambda B, N, I: ({},)),
    ("t_list_float", lambda B, N, I: ([0], 1.5)), ("t_float_list2", lambda B, N, I: (1.5, [0])),
    ("t_str_list", lambda B, N, I: ("a", [0])), ("t_np_0d_bool", lambda B, N, I: (np.array(True),)),
    ("t_int_none_int", lambda B, N, I: (1, None, 2)), ("t_none_none", lambda B, N, I: (None, None)),
    ("t_np_uint8", lambda B, N, I: (np.uint8(1),)), ("t_empty_list", lambda B, N, I: ([],)),
    ("t_slice_float", lambda B, N, I: (slice(0, 1), 1.5)),
    ("t_np_int32_slice", lambda B, N, I: (np.int32(1), slice(None))),
    ("t_true_int", lambda B, N, I: (True, 0)), ("t_false_ell_int", lambda B, N, I: (False, Ellipsis, 0)),
    ("t_true_true", lambda B, N, I: (True, True)), ("t_false_true", lambda B, N, I: (False, True)),
    ("t_true_false", lambda B, N, I: (True, False)), ("t_npbool_int", lambda B, N, I: (np.bool_(True), 0)),
    ("t_ell_none", lambda B, N, I: (Ellipsis, None)), ("t_int_ell_int", lambda B, N, I: (0, Ellipsis, 0)),
    ("t_ell_int4", lambda B, N, I: (Ellipsis, 0, 0, 0, 0)),
    ("t_none_ell_none", lambda B, N, I: (None, Ellipsis, None)),
    ("t_mixed_ell", lambda B, N, I: (0, [0, 1], Ellipsis, np.array([[0]]))),
    ("t_np_bool_ell", lambda B, N, I: (np.array([True]), Ellipsis)),
    ("t_bool_list_ell", lambda B, N, I: ([True, False], Ellipsis)),
    ("t_nd_int_none", lambda B, N, I: (I([1, 0]), None)),
    ("t_nd_0d_float", lambda B, N, I: (N(1),)), ("t_nd_0d_int", lambda B, N, I: (I(1),)),
    ("t_nd_0d_bool", lambda B, N, I: (B(1),)), ("t_nd_0d_false_true", lambda B, N, I: (B(0), True)),
    ("t_nd_bool3", lambda B, N, I: (B([1, 0, 1]),)), ("t_nd_bool2", lambda B, N, I: (B([1, 0]),)),
    ("t_nd_bool_2d", lambda B, N, I: (B([[1, 0, 1, 0]] * 3),)),
    ("t_nd_bool_2d_bad", lambda B, N, I: (B([[1, 0, 1, 0]] * 2),)),
    ("t_nd_bool_empty", lambda B, N, I: (B([]),)),
    ("t_int_nd_bool", lambda B, N, I: (0, B([1, 0, 1, 1]))),
    ("t_int_nd_bool_2d", lambda B, N, I: (0, B([[1] * 5] * 4))),
    ("t_slice_nd_bool", lambda B, N, I: (slice(None), B([1, 0, 0, 1]))),
    ("t_ell_nd_bool5", lambda B, N, I: (Ellipsis, B([1, 0, 1, 0, 1]))),
    ("t_ell_nd_bool3", lambda B, N, I: (Ellipsis, B([1, 0, 1]))),
    ("t_none_nd_bool3", lambda B, N, I: (None, B([1, 0, 1]))),
    ("t_true_nd_bool3", lambda B, N, I: (True, B([1, 0, 1]))),
    ("t_nd_bool3_bool2", lambda B, N, I: (B([1, 0, 1]), B([1, 0]))),
    ("t_nd_bool_past_end", lambda B, N, I: (0, 0, 0, B([1, 0]))),
    ("t_ell_ell_nd_bool", lambda B, N, I: (Ellipsis, Ellipsis, B([1, 0]))),
    ("t_nd_bool_ell_ell", lambda B, N, I: (B([1, 0]), Ellipsis, Ellipsis)),
]
SHAPES = [[3, 4, 5], [], [2], [0]]
NP_KEYS = [("np_bool3", lambda A: (A([1, 0, 1]),)),
           ("np_int_bool2d", lambda A: (0, A([[1, 0, 1, 1, 0]] * 4))),
           ("np_ell_bool", lambda A: (Ellipsis, A([[1, 0, 0, 0, 1]] * 4)))]
GATHER = [([3, 4, 5], [2, 6]), ([3, 4], [2]), ([3], [1, 2, 3]), ([3, 4], [3, 2]), ([3], [2, 2]),
          ([], [1]), ([2, 3], []), ([2, 3], [0, 4]), ([2, 3, 4], [4, 1])]


def outcome(fn, *args):
    try:
        return {"ok": encode(fn(*args))}
    except Exception as e:  # noqa: BLE001  (every error is part of the record)
        return {"error": type(e).__name__, "message": str(e)}


def main():
    import mxnet as mx
    from mxnet.ndarray import ndarray as ndm

    def B(v):
        return mx.nd.array(v, dtype="bool")

    def N(v):
        return mx.nd.array(v)

    def I(v):  # noqa: E743
        return mx.nd.array(v, dtype="int32")

    rec = {"gen": {}, "gen_sym": {}, "utils_all": sorted(mx.nd.utils.__all__)}
    for m in GEN_MODULES:
        rec["gen"][m] = sorted(getattr(mx.nd, m).__all__)
        rec["gen_sym"][m] = sorted(getattr(mx.sym, m).__all__)
    rec["dispatch"], rec["expand"] = {}, {}
    for label, build in KEYS:
        rec["dispatch"][label] = {"key": encode(build(B, N, I)),
                                  **outcome(ndm.get_indexing_dispatch_code, build(B, N, I))}
        for shape in SHAPES:
            rec["expand"][f"{label}@{shape}"] = {
                "key": encode(build(B, N, I)), "shape": shape,
                **outcome(ndm.indexing_key_expand_implicit_axes, build(B, N, I), tuple(shape))}
    rec["expand_np"] = {}
    with mx.util.np_array(True):
        def A(v):
            return mx.np.array(v, dtype="bool")
        for label, build in NP_KEYS:
            rec["expand_np"][label] = {
                "key": encode(build(A)), "shape": [3, 4, 5],
                **outcome(ndm.indexing_key_expand_implicit_axes, build(A), (3, 4, 5))}
    rec["gather"] = [{"dshape": d, "ishape": i,
                      **outcome(ndm.get_oshape_of_gather_nd_op, tuple(d), tuple(i))}
                     for d, i in GATHER]
    OUT.write_text(json.dumps(rec, indent=0, sort_keys=True) + "\n")
    print(len(rec["dispatch"]), len(rec["expand"]), len(rec["gather"]))


if __name__ == "__main__":
    main()
