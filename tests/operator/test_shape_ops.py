"""Shape-manipulation operators: forward values against 1.9.1 fixtures, gradients against
central differences (first and second order), shape inference and error messages."""
import json
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.operator.registry import get_op

from .._scripts import load_script
from .harness import GradCase, check_grad_case, expect_error, rand

nd = mx.nd
REPO = Path(__file__).resolve().parents[2]

NON_DIFFERENTIABLE = ("shape_array", "size_array")


def _split_v2(x, **kw):
    return nd._internal._split_v2(x, **kw)


GRAD_CASES = [
    GradCase("transpose_default", lambda p: nd.transpose(p), [rand(2, 3, 4)], ops=("transpose",)),
    GradCase("transpose_axes", lambda p: nd.transpose(p, axes=(1, 2, 0)), [rand(2, 3, 4)],
             ops=("transpose",)),
    GradCase("expand_dims", lambda p: nd.expand_dims(p, axis=-2) * 2, [rand(2, 3)],
             ops=("expand_dims",)),
    GradCase("squeeze", lambda p: nd.squeeze(p, axis=(0, 2)), [rand(1, 3, 1)], ops=("squeeze",)),
    GradCase("swapaxes", lambda p: nd.swapaxes(p, dim1=0, dim2=-1), [rand(2, 3, 4)],
             ops=("SwapAxis",)),
    GradCase("concat", lambda p, q, r: nd.concat(p, q, r, dim=1),
             [rand(2, 1, 3), rand(2, 2, 3, seed=1), rand(2, 3, 3, seed=2)], ops=("Concat",)),
    GradCase("concat_neg_dim", lambda p, q: nd.concat(p, q, dim=-1), [rand(2, 2), rand(2, 3, seed=1)],
             ops=("Concat",)),
    GradCase("concat_single", lambda p: nd.concat(p, dim=0), [rand(3, 2)], ops=("Concat",)),
    GradCase("stack", lambda p, q: nd.stack(p, q, axis=1), [rand(2, 3), rand(2, 3, seed=1)],
             ops=("stack",)),
    GradCase("stack_neg_single", lambda p: nd.stack(p, axis=-1), [rand(2, 3)], ops=("stack",)),
    GradCase("split", lambda p: nd.split(p, num_outputs=3, axis=1), [rand(2, 6)],
             ops=("SliceChannel",)),
    GradCase("split_partial_use", lambda p: nd.split(p, num_outputs=3, axis=-1)[1] * 3, [rand(2, 6)],
             ops=("SliceChannel",)),
    GradCase("split_squeeze", lambda p: nd.split(p, num_outputs=2, axis=0, squeeze_axis=True),
             [rand(2, 3)], ops=("SliceChannel",)),
    GradCase("split_v2", lambda p: _split_v2(p, indices=(0, 1, 3), axis=1), [rand(2, 5, 2)],
             ops=("_split_v2",)),
    GradCase("split_v2_sections_squeeze", lambda p: _split_v2(p, indices=(), sections=3, axis=-1,
                                                             squeeze_axis=True),
             [rand(2, 3)], ops=("_split_v2",)),
    GradCase("tile_short_reps", lambda p: nd.tile(p, reps=(2, 3)), [rand(2, 3, 2)], ops=("tile",)),
    GradCase("tile_long_reps", lambda p: nd.tile(p, reps=(2, 1, 3)), [rand(2, 3)], ops=("tile",)),
    GradCase("tile_empty_reps", lambda p: nd.tile(p, reps=()), [rand(2, 3)], ops=("tile",)),
    GradCase("repeat_axis", lambda p: nd.repeat(p, repeats=3, axis=1), [rand(2, 3, 2)],
             ops=("repeat",)),
    GradCase("repeat_neg_axis", lambda p: nd.repeat(p, repeats=2, axis=-2), [rand(2, 3, 2)],
             ops=("repeat",)),
    GradCase("repeat_flat", lambda p: nd.repeat(p, repeats=2), [rand(2, 3)], ops=("repeat",)),
    GradCase("flip", lambda p: nd.flip(p, axis=(0, 2)), [rand(2, 3, 4)], ops=("reverse",)),
    GradCase("pad_constant", lambda p: nd.pad(p, mode="constant", pad_width=(0, 0, 0, 0, 1, 2, 0, 1),
                                              constant_value=3.0),
             [rand(1, 2, 3, 3)], ops=("Pad",)),
    GradCase("pad_edge", lambda p: nd.pad(p, mode="edge", pad_width=(0, 0, 0, 0, 2, 1, 3, 0)),
             [rand(1, 2, 3, 3)], ops=("Pad",)),
    GradCase("pad_reflect", lambda p: nd.pad(p, mode="reflect", pad_width=(0, 0, 0, 0, 2, 1, 1, 2)),
             [rand(1, 1, 3, 4)], ops=("Pad",)),
    GradCase("pad_reflect_5d", lambda p: nd.pad(p, mode="reflect",
                                                pad_width=(0, 0, 0, 0, 1, 1, 0, 2, 2, 1)),
             [rand(1, 1, 2, 3, 3)], ops=("Pad",)),
    GradCase("pad_negative", lambda p: nd.pad(p, mode="edge", pad_width=(0, 0, 0, 0, -1, 2, 1, -1)),
             [rand(1, 1, 3, 3)], ops=("Pad",)),
    GradCase("slice", lambda p: nd.slice(p, begin=(None, 3, 0), end=(None, 0, None), step=(1, -2, 2)),
             [rand(2, 4, 5)], ops=("slice",)),
    GradCase("crop", lambda p: nd.crop(p, begin=(1,), end=(3,)), [rand(4, 2)], ops=("slice",)),
    GradCase("slice_axis", lambda p: nd.slice_axis(p, axis=-1, begin=-3, end=None), [rand(2, 4)],
             ops=("slice_axis",)),
    GradCase("slice_like", lambda p, q: nd.slice_like(p, q, axes=(0, -1)), [rand(3, 4, 5), rand(2, 1, 3)],
             ops=("slice_like",), wrt=[0]),
    GradCase("diag_extract", lambda p: nd.diag(p, k=1, axis1=2, axis2=0), [rand(3, 2, 4)],
             ops=("diag",)),
    GradCase("diag_2d_neg_k", lambda p: nd.diag(p, k=-1), [rand(4, 3)], ops=("diag",)),
    GradCase("diag_build", lambda p: nd.diag(p, k=-2), [rand(3)], ops=("diag",)),
    GradCase("depth_to_space", lambda p: nd.depth_to_space(p, block_size=2), [rand(1, 8, 2, 3)],
             ops=("depth_to_space",)),
    GradCase("space_to_depth", lambda p: nd.space_to_depth(p, block_size=2), [rand(2, 1, 4, 2)],
             ops=("space_to_depth",)),
]


# The backward operators are linear in their first input: check them as functions of it.
GRAD_CASES += [
    GradCase("backward_slice", lambda g, x: nd.op._backward_slice(g, x, begin=(None, 3), end=(None, 0),
                                                                  step=(1, -2)),
             [rand(2, 2), rand(2, 4, seed=1)], ops=("_backward_slice",), wrt=[0]),
    GradCase("backward_slice_axis", lambda g, x: nd.op._backward_slice_axis(g, x, axis=1, begin=1,
                                                                            end=3),
             [rand(2, 2), rand(2, 4, seed=1)], ops=("_backward_slice_axis",), wrt=[0]),
    GradCase("backward_slice_like", lambda g, x: nd.op._backward_slice_like(g, x),
             [rand(2, 2), rand(3, 4, seed=1)], ops=("_backward_slice_like",), wrt=[0]),
    GradCase("backward_pad_reflect", lambda g, x: nd.op._backward_Pad(
        g, x, mode="reflect", pad_width=(0, 0, 0, 0, 1, 2, 2, 1)),
        [rand(1, 1, 6, 6), rand(1, 1, 3, 3, seed=1)], ops=("_backward_Pad",), wrt=[0]),
    GradCase("backward_pad_edge", lambda g, x: nd.op._backward_Pad(
        g, x, mode="edge", pad_width=(0, 0, 0, 0, 2, 0, 1, 3)),
        [rand(1, 1, 4, 6), rand(1, 1, 2, 2, seed=1)], ops=("_backward_Pad",), wrt=[0]),
    GradCase("backward_diag", lambda g, x: nd.op._backward_diag(g, x, k=1, axis1=0, axis2=2),
             [rand(3, 2), rand(2, 3, 3, seed=1)], ops=("_backward_diag",), wrt=[0]),
    GradCase("backward_diag_1d", lambda g, x: nd.op._backward_diag(g, x, k=1),
             [rand(4, 4), rand(3, seed=1)], ops=("_backward_diag",), wrt=[0]),
    GradCase("backward_concat", lambda g, a, b: nd.op._backward_Concat(g, a, b, num_args=2, dim=0),
             [rand(5, 2), rand(2, 2, seed=1), rand(3, 2, seed=2)], ops=("_backward_Concat",), wrt=[0]),
]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradient(case):
    check_grad_case(case)


# ----------------------------------------------------------------- forward fixtures (1.9.1)

def _load_table():
    return load_script("tools/golden/gen_shape_ops.py", "gen_shape_ops")


_TABLE = _load_table()


@pytest.fixture(scope="module")
def golden():
    data = json.loads((REPO / "tests" / "golden" / "shape_ops.json").read_text())["cases"]
    with np.load(REPO / "tests" / "golden" / "shape_ops.npz") as npz:
        arrays = {k: npz[k] for k in npz.files}
    return data, arrays


@pytest.mark.parametrize("cid,code", _TABLE.CASES, ids=[c for c, _ in _TABLE.CASES])
def test_forward_matches_191(golden, cid, code):
    cases, arrays = golden
    exp = cases[cid]
    assert exp["code"] == code, f"fixture for {cid} is stale; rerun tools/golden/gen_shape_ops.py"
    if exp["outcome"] == "error":
        with pytest.raises(mx.base.MXNetError):
            _TABLE.evaluate(code, mx, np).wait_to_read()
        return
    res = _TABLE.evaluate(code, mx, np)
    assert isinstance(res, list) == exp["list"], f"{cid}: list-ness differs"
    outs = res if isinstance(res, list) else [res]
    assert len(outs) == len(exp["items"])
    for o, item in zip(outs, exp["items"]):
        assert np.dtype(o.dtype).name == item["dtype"], cid
        assert list(o.shape) == item["shape"], cid
        want = arrays[item["array"]]
        if want.dtype.kind == "f":
            np.testing.assert_allclose(o.asnumpy(), want, rtol=1e-5, atol=1e-6, err_msg=cid)
        else:
            np.testing.assert_array_equal(o.asnumpy(), want, err_msg=cid)


# ----------------------------------------------------------------- shape inference

def _infer(name, in_shapes, **kw):
    op = get_op(name)
    attrs = op.parse_attrs(kw)
    return op.infer_shape(attrs, list(in_shapes), [None] * op.num_outputs(attrs))


@pytest.mark.parametrize("name,ins,kw,fn", [
    ("transpose", [(2, 3, 4)], {"axes": (2, 0, 1)}, lambda x: nd.transpose(x, axes=(2, 0, 1))),
    ("expand_dims", [(2, 3)], {"axis": -1}, lambda x: nd.expand_dims(x, axis=-1)),
    ("squeeze", [(1, 3, 1)], {}, lambda x: nd.squeeze(x)),
    ("SwapAxis", [(2, 3, 4)], {"dim1": 0, "dim2": 2}, lambda x: nd.swapaxes(x, 0, 2)),
    ("tile", [(2, 3)], {"reps": (2, 1, 2)}, lambda x: nd.tile(x, reps=(2, 1, 2))),
    ("repeat", [(2, 3)], {"repeats": 2}, lambda x: nd.repeat(x, repeats=2)),
    ("reverse", [(2, 3)], {"axis": (1,)}, lambda x: nd.flip(x, axis=1)),
    ("Pad", [(1, 1, 2, 3)], {"mode": "edge", "pad_width": (0, 0, 0, 0, 1, 2, 3, 4)},
     lambda x: nd.pad(x, mode="edge", pad_width=(0, 0, 0, 0, 1, 2, 3, 4))),
    ("slice", [(4, 5)], {"begin": (None, 4), "end": (None, 0), "step": (2, -2)},
     lambda x: nd.slice(x, begin=(None, 4), end=(None, 0), step=(2, -2))),
    ("slice_axis", [(4, 5)], {"axis": 1, "begin": 1, "end": None},
     lambda x: nd.slice_axis(x, axis=1, begin=1, end=None)),
    ("diag", [(3, 4, 5)], {"k": -1, "axis1": 2, "axis2": 0}, lambda x: nd.diag(x, k=-1, axis1=2, axis2=0)),
    ("diag", [(3,)], {"k": 2}, lambda x: nd.diag(x, k=2)),
    ("depth_to_space", [(1, 8, 2, 3)], {"block_size": 2}, lambda x: nd.depth_to_space(x, 2)),
    ("space_to_depth", [(1, 2, 4, 6)], {"block_size": 2}, lambda x: nd.space_to_depth(x, 2)),
    ("shape_array", [(2, 3, 4)], {}, lambda x: nd.shape_array(x)),
    ("size_array", [(2, 3, 4)], {}, lambda x: nd.size_array(x)),
])
def test_infer_shape_matches_compute(name, ins, kw, fn):
    _, outs, _ = _infer(name, ins, **kw)
    assert outs == [fn(nd.ones(ins[0])).shape]
    unknown = _infer(name, [None], **kw)
    assert unknown[1] == [None]


def test_infer_shape_multi_input_and_output():
    assert _infer("Concat", [(2, 1), (2, 3)], num_args=2, dim=1)[1] == [(2, 4)]
    # 1.9.1 sums the sizes of the inputs whose rank is known (an unknown input is skipped)
    assert _infer("Concat", [(2, 1), None], num_args=2, dim=1)[1] == [(2, 1)]
    assert _infer("stack", [(2, 3)] * 3, num_args=3, axis=-1)[1] == [(2, 3, 3)]
    assert _infer("SliceChannel", [(2, 6)], num_outputs=3)[1] == [(2, 2)] * 3
    assert _infer("SliceChannel", [(3, 2)], num_outputs=3, axis=0, squeeze_axis=True)[1] == [(2,)] * 3
    assert _infer("_split_v2", [(2, 5)], indices=(0, 1, 3))[1] == [(2, 1), (2, 2), (2, 2)]
    assert _infer("slice_like", [(3, 4), (2, 2)], axes=(1,))[1] == [(3, 2)]
    assert _infer("_backward_slice", [(1, 2), (3, 4)], begin=(0,), end=(1,))[1] == [(3, 4)]
    with pytest.raises(mx.base.MXNetError, match="Concat"):
        _infer("Concat", [(2, 1), (3, 3)], num_args=2, dim=1)


# ----------------------------------------------------------------- behaviour details

def test_results_are_copies():
    x = nd.arange(6).reshape((1, 1, 2, 3))
    outs = [nd.transpose(x), nd.expand_dims(x, 0), nd.squeeze(x), nd.slice_axis(x, axis=3, begin=0, end=2),
            nd.depth_to_space(x, block_size=1), nd.tile(x, reps=()), nd.flip(x, axis=()),
            nd.split(x, num_outputs=1, axis=3), nd.slice(x, begin=(), end=())]
    for o in outs:
        o[:] = -1
    assert x.asnumpy().min() == 0


def test_split_returns_list_and_single():
    x = nd.arange(12).reshape((2, 6))
    assert isinstance(nd.split(x, num_outputs=2), list)
    assert isinstance(nd.split(x, num_outputs=1), nd.NDArray)
    # a 1-D split with squeeze gives (1,)-shaped pieces: legacy arrays are never 0-d
    parts = nd.split(nd.arange(3), num_outputs=3, axis=0, squeeze_axis=True)
    assert [p.shape for p in parts] == [(1,)] * 3


def test_shape_and_size_array_dtype():
    x = nd.ones((2, 3, 4), dtype="float16")
    assert nd.shape_array(x).dtype == np.int64 and nd.shape_array(x).asnumpy().tolist() == [2, 3, 4]
    assert nd.size_array(x).dtype == np.int64 and nd.size_array(x).asnumpy().tolist() == [24]


def test_concat_gradient_through_split():
    x, w = nd.array([1.0, 2.0]), nd.array([3.0, 4.0, 5.0])
    x.attach_grad()
    w.attach_grad()
    with mx.autograd.record():
        parts = nd.split(nd.concat(x, w, dim=0), num_outputs=5, axis=0)
        y = parts[0] * 1 + parts[2] * 2 + parts[4] * 3
    y.backward()
    assert x.grad.asnumpy().tolist() == [1, 0]
    assert w.grad.asnumpy().tolist() == [2, 0, 3]


def test_shape_array_has_zero_gradient():
    x = nd.ones((2, 3))
    x.attach_grad()
    with mx.autograd.record():
        y = nd.shape_array(x).astype("float32").sum() + (x * 2).sum()
    y.backward()
    assert (x.grad.asnumpy() == 2).all()


@pytest.mark.parametrize("fn,x", [
    (lambda p: nd.tile(p, reps=(2, 3)), rand(2, 3)),
    (lambda p: nd.repeat(p, repeats=2, axis=-1), rand(2, 3)),
    (lambda p: nd.pad(p, mode="reflect", pad_width=(0, 0, 0, 0, 1, 1, 2, 1)), rand(1, 1, 3, 3)),
    (lambda p: nd.slice(p, begin=(1, None), end=(None, None), step=(1, -1)), rand(3, 3)),
    (lambda p: nd.diag(p, k=1), rand(3, 4)),
    (lambda p: nd.concat(p, p * 2, dim=0), rand(2, 3)),
])
def test_second_order_gradient(fn, x):
    """The gradient of a linear op is linear in the head gradient: differentiate it again."""
    head = nd.array(np.random.RandomState(5).normal(size=fn(nd.array(x)).shape), dtype="float64")
    xa = nd.array(x, dtype="float64")
    xa.attach_grad()
    h = head.copy()
    h.attach_grad()
    with mx.autograd.record():
        y = fn(xa)
        g = mx.autograd.grad([y], [xa], head_grads=[h], create_graph=True, retain_graph=True)[0]
        z = (g * g).sum()
    z.backward()
    # z = |J^T h|^2 for the op's Jacobian J, so dz/dh = 2 J (J^T h) = 2 fn(J^T h)
    expected = 2 * fn(nd.array(g.asnumpy(), dtype="float64")).asnumpy()
    np.testing.assert_allclose(h.grad.asnumpy(), expected, rtol=1e-6, atol=1e-8)


# ----------------------------------------------------------------- errors

@pytest.mark.parametrize("call,match", [
    (lambda: nd.transpose(nd.ones((2, 3)), axes=(0, 0)), "transpose"),
    (lambda: nd.expand_dims(nd.ones((2, 3)), axis=3), "expand_dims"),
    (lambda: nd.squeeze(nd.ones((1, 3)), axis=1), "squeeze"),
    (lambda: nd.swapaxes(nd.ones((2, 3)), dim1=2), "dim1"),
    (lambda: nd.concat(nd.ones((2, 2)), nd.ones((3, 1)), dim=1), "Concat"),
    (lambda: nd.concat(nd.ones((2,), dtype="int32"), nd.ones((2,)), dim=0), "dtype"),
    (lambda: nd.concat(), "num_args"),
    (lambda: nd.stack(nd.ones((2,)), nd.ones((3,))), "stack"),
    (lambda: nd.split(nd.ones((2, 6)), num_outputs=4, axis=1), "SliceChannel"),
    (lambda: nd.split(nd.ones((2, 6)), num_outputs=0), "num_outputs"),
    (lambda: _split_v2(nd.ones((2, 6)), indices=(1, 3)), "_split_v2"),
    (lambda: _split_v2(nd.ones((2, 6)), indices=()), "_split_v2"),
    (lambda: nd.tile(nd.ones((2,)), reps=(0,)), "tile"),
    (lambda: nd.repeat(nd.ones((2,)), repeats=-2), "repeat"),
    (lambda: nd.flip(nd.ones((2,)), axis=-1), "reverse"),
    (lambda: nd.pad(nd.ones((2, 2)), mode="constant", pad_width=(1, 1, 1, 1)), "Pad"),
    (lambda: nd.pad(nd.ones((1, 1, 2, 2)), mode="constant", pad_width=(1, 0, 0, 0, 0, 0, 0, 0)), "Pad"),
    (lambda: nd.pad(nd.ones((1, 1, 2, 2), dtype="int32"), mode="edge",
                    pad_width=(0, 0, 0, 0, 1, 1, 1, 1)), "floating"),
    (lambda: nd.pad(nd.ones((1, 1, 2, 2)), mode="reflect", pad_width=(0, 0, 0, 0, 2, 0, 0, 0)), "reflect"),
    (lambda: nd.pad(nd.ones((1, 1, 2, 2)), mode="wrap", pad_width=(0, 0, 0, 0, 1, 1, 1, 1)), "mode"),
    (lambda: nd.slice(nd.ones((3, 4)), begin=(2,), end=(1,)), "slice"),
    (lambda: nd.slice(nd.ones((3, 4)), begin=(0,), end=(2,), step=(0,)), "step"),
    (lambda: nd.slice_axis(nd.ones((3, 4)), axis=0, begin=1, end=5), "slice_axis"),
    (lambda: nd.slice_axis(nd.ones((3, 4)), axis=0, begin=1, end=1), "slice_axis"),
    (lambda: nd.slice_like(nd.ones((3, 4)), nd.ones((4, 4))), "slice_like"),
    (lambda: nd.diag(nd.ones((2, 2)), k=5), "diag"),
    (lambda: nd.diag(nd.ones((2, 2, 2)), axis1=1, axis2=-2), "axis"),
    (lambda: nd.depth_to_space(nd.ones((1, 4, 2, 2)), block_size=3), "depth_to_space"),
    (lambda: nd.space_to_depth(nd.ones((1, 4, 3, 2)), block_size=2), "space_to_depth"),
    (lambda: nd.space_to_depth(nd.ones((4, 4, 4)), block_size=2), "4-D"),
])
def test_errors_name_the_op(call, match):
    e = expect_error(call, match=match)
    assert "shape" in str(e).lower() or "num_" in str(e) or "mode" in str(e) or "dtype" in str(e)


def test_reshape_into_its_own_buffer_and_another():
    """Reshape written into a planned buffer: over its own input (the in-place plan) it
    leaves the values as they are; into another buffer it copies them."""
    from mxnet.operator import shape as shape_ops
    from mxnet.operator.registry import get_op
    from mxnet.ndarray.ndarray import _run_context
    op = get_op("Reshape")
    attrs = op.parse_attrs({"shape": (4, 6)})
    rc = _run_context(mx.cpu(), False)
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    want = x.reshape(4, 6).copy()
    over = x.reshape(4, 6)
    assert shape_ops._same_buffer(over, x)
    assert op.compute(rc, attrs, x, out=[over]) is over and np.array_equal(over, want)
    other = np.full((4, 6), np.nan, np.float32)
    assert not shape_ops._same_buffer(other, x)
    assert op.compute(rc, attrs, x, out=[other]) is other and np.array_equal(other, want)
    assert not shape_ops._same_buffer(x[:, :2].reshape(-1)[:4], x[:1, :1].reshape(-1))
