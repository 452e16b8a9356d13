"""Record forward fixtures for the shape-manipulation operators under MXNet 1.9.1.

Run with the reference interpreter (never with this repository's mxnet)::

    MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_shape_ops.py

Each entry of ``CASES`` is ``(case_id, code)``: Python source run with ``mx`` and ``np``
bound, which must set ``result`` to an NDArray or a list of NDArrays. The script writes

* ``tests/golden/shape_ops.json`` -- per case: "error" (with the exception class name) or
  the dtype and shape of each output and the key of its values;
* ``tests/golden/shape_ops.npz`` -- the values.

``tests/operator/test_shape_ops.py`` imports this module for ``CASES`` and replays them, so
the module must stay importable without mxnet. These cases complement
``tools/golden/ndarray_cases.py`` (which covers the common forms of the same ops).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT_JSON = REPO / "tests" / "golden" / "shape_ops.json"
OUT_NPZ = REPO / "tests" / "golden" / "shape_ops.npz"

_X = "x = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (2, 3, 4)))\n"
_I = "x = mx.nd.arange(24, dtype='int32').reshape((2, 3, 4))\n"
_P4 = "x = mx.nd.array(np.random.RandomState(1).uniform(-1, 1, (2, 1, 3, 4)))\n"
_P5 = "x = mx.nd.array(np.random.RandomState(2).uniform(-1, 1, (1, 2, 2, 3, 3)))\n"
_D = "x = mx.nd.array(np.random.RandomState(3).uniform(-1, 1, (2, 8, 2, 3)))\n"

CASES: list[tuple[str, str]] = [
    # transpose / expand_dims / squeeze / SwapAxis
    ("transpose.4d", "x = mx.nd.arange(120).reshape((2, 3, 4, 5))\n"
                     "result = mx.nd.transpose(x, axes=(3, 1, 0, 2))"),
    ("transpose.int32", _I + "result = mx.nd.transpose(x)"),
    ("transpose.float16", "result = mx.nd.transpose(mx.nd.arange(6, dtype='float16').reshape((2, 3)))"),
    ("transpose.1d", "result = mx.nd.transpose(mx.nd.arange(3))"),
    ("transpose.negative_axis", _X + "result = mx.nd.transpose(x, axes=(-1, 0, 1))"),
    ("transpose.wrong_len", _X + "result = mx.nd.transpose(x, axes=(0, 1, 2, 3))"),
    ("expand_dims.neg_full", _X + "result = mx.nd.expand_dims(x, axis=-4)"),
    ("expand_dims.end", _X + "result = mx.nd.expand_dims(x, axis=3)"),
    ("expand_dims.too_neg", _X + "result = mx.nd.expand_dims(x, axis=-5)"),
    ("squeeze.neg_axis", "result = mx.nd.squeeze(mx.nd.ones((1, 3, 1)), axis=-1)"),
    ("squeeze.empty_tuple", "result = mx.nd.squeeze(mx.nd.ones((1, 3, 1)), axis=())"),
    ("squeeze.duplicate", "result = mx.nd.squeeze(mx.nd.ones((1, 3, 1)), axis=(0, 0))"),
    ("squeeze.out_of_range", "result = mx.nd.squeeze(mx.nd.ones((1, 3, 1)), axis=3)"),
    ("squeeze.nothing", "result = mx.nd.squeeze(mx.nd.arange(3))"),
    ("squeeze.all_ones_axes", "result = mx.nd.squeeze(mx.nd.ones((1, 1)), axis=(0, 1))"),
    ("swapaxes.neg", _X + "result = mx.nd.swapaxes(x, -1, 0)"),
    ("swapaxes.same", _X + "result = mx.nd.swapaxes(x)"),
    ("swapaxes.out_of_range", _X + "result = mx.nd.swapaxes(x, 3, 0)"),
    # Concat / stack
    ("concat.three_neg", _X + "result = mx.nd.concat(x, x * 2, x[:, :1], dim=-2)"),
    ("concat.uint8", "a = mx.nd.array([[1, 2]], dtype='uint8')\n"
                     "result = mx.nd.concat(a, a + 1, dim=0)"),
    ("concat.dim_out_of_range", _X + "result = mx.nd.concat(x, x, dim=3)"),
    ("concat.1d_default_dim", "result = mx.nd.concat(mx.nd.ones((2,)), mx.nd.ones((2,)))"),
    ("concat.ndim_mismatch", _X + "result = mx.nd.concat(x, x[0], dim=0)"),
    ("stack.three_neg", _X + "result = mx.nd.stack(x, x * 2, x * 3, axis=-1)"),
    ("stack.single", _X + "result = mx.nd.stack(x)"),
    ("stack.axis_last", _X + "result = mx.nd.stack(x, x, axis=3)"),
    ("stack.axis_out_of_range", _X + "result = mx.nd.stack(x, x, axis=4)"),
    ("stack.dtype_mismatch", "result = mx.nd.stack(mx.nd.ones((2,), dtype='int32'), mx.nd.ones((2,)))"),
    # SliceChannel / _split_v2
    ("split.neg_axis", _X + "result = mx.nd.split(x, num_outputs=3, axis=-2)"),
    ("split.squeeze_3d", _X + "result = mx.nd.split(x, num_outputs=3, axis=1, squeeze_axis=True)"),
    ("split.int32", _I + "result = mx.nd.split(x, num_outputs=2, axis=2)"),
    ("split.axis_out_of_range", _X + "result = mx.nd.split(x, num_outputs=3, axis=3)"),
    ("split.zero_outputs", _X + "result = mx.nd.split(x, num_outputs=0)"),
    ("split_v2.indices", _X + "result = mx.nd._internal._split_v2(x, indices=(0, 1, 3), axis=2)"),
    ("split_v2.sections_uneven", _X + "result = mx.nd._internal._split_v2(x, indices=(), sections=3, axis=-1)"),
    ("split_v2.sections_even", _X + "result = mx.nd._internal._split_v2(x, indices=(0,), sections=2, axis=2)"),
    ("split_v2.squeeze", _X + "result = mx.nd._internal._split_v2(x, indices=(0, 1, 2), axis=1, squeeze_axis=True)"),
    ("split_v2.one_piece", _X + "result = mx.nd._internal._split_v2(x, indices=(0,), axis=0)"),
    ("split_v2.empty_piece", _X + "result = mx.nd._internal._split_v2(x, indices=(0, 4), axis=2)"),
    ("split_v2.not_sorted", _X + "result = mx.nd._internal._split_v2(x, indices=(0, 2, 1), axis=2)"),
    ("split_v2.beyond", _X + "result = mx.nd._internal._split_v2(x, indices=(0, 5), axis=2)"),
    ("split_v2.squeeze_bad", _X + "result = mx.nd._internal._split_v2(x, indices=(0, 1, 3), axis=2, squeeze_axis=True)"),
    # tile / repeat / reverse
    ("tile.3d_short_reps", _X + "result = mx.nd.tile(x, reps=(2, 1))"),
    ("tile.3d_long_reps", _X + "result = mx.nd.tile(x, reps=(2, 1, 1, 2))"),
    ("tile.empty_reps", _X + "result = mx.nd.tile(x, reps=())"),
    ("tile.int32", _I + "result = mx.nd.tile(x, reps=(1, 2, 1))"),
    ("tile.zero_rep", _X + "result = mx.nd.tile(x, reps=(0, 2))"),
    ("repeat.3d_axis1", _X + "result = mx.nd.repeat(x, repeats=2, axis=1)"),
    ("repeat.3d_flat", _X + "result = mx.nd.repeat(x, repeats=2)"),
    ("repeat.3d_neg", _X + "result = mx.nd.repeat(x, repeats=3, axis=-2)"),
    ("repeat.negative", _X + "result = mx.nd.repeat(x, repeats=-1, axis=1)"),
    ("repeat.axis_out_of_range", _X + "result = mx.nd.repeat(x, repeats=2, axis=3)"),
    ("reverse.two_axes", _X + "result = mx.nd.reverse(x, axis=(0, 2))"),
    ("reverse.duplicate_axis", _X + "result = mx.nd.flip(x, axis=(1, 1))"),
    ("reverse.empty_axes", _X + "result = mx.nd.flip(x, axis=())"),
    ("reverse.negative_axis", _X + "result = mx.nd.flip(x, axis=-1)"),
    ("reverse.int32", _I + "result = mx.nd.flip(x, axis=1)"),
    # Pad
    ("pad.4d_constant", _P4 + "result = mx.nd.pad(x, mode='constant', pad_width=(0, 0, 0, 0, 2, 1, 0, 3), constant_value=-1.5)"),
    ("pad.4d_edge_large", _P4 + "result = mx.nd.pad(x, mode='edge', pad_width=(0, 0, 0, 0, 4, 2, 5, 1))"),
    ("pad.4d_reflect", _P4 + "result = mx.nd.pad(x, mode='reflect', pad_width=(0, 0, 0, 0, 2, 1, 3, 2))"),
    ("pad.5d_edge", _P5 + "result = mx.nd.pad(x, mode='edge', pad_width=(0, 0, 0, 0, 1, 2, 2, 0, 1, 1))"),
    ("pad.5d_reflect", _P5 + "result = mx.nd.pad(x, mode='reflect', pad_width=(0, 0, 0, 0, 1, 1, 2, 1, 0, 2))"),
    ("pad.5d_constant", _P5 + "result = mx.nd.pad(x, mode='constant', pad_width=(0, 0, 0, 0, 1, 0, 0, 1, 2, 2), constant_value=7)"),
    ("pad.float64", "result = mx.nd.pad(mx.nd.arange(6, dtype='float64').reshape((1, 1, 2, 3)), mode='constant', pad_width=(0, 0, 0, 0, 1, 1, 0, 0))"),
    ("pad.float16", "result = mx.nd.pad(mx.nd.ones((1, 1, 2, 2), dtype='float16'), mode='edge', pad_width=(0, 0, 0, 0, 1, 1, 1, 1))"),
    ("pad.negative_crop", "result = mx.nd.pad(mx.nd.arange(6).reshape((1, 1, 2, 3)), mode='constant', pad_width=(0, 0, 0, 0, -1, 1, 0, 0))"),
    ("pad.int32", "result = mx.nd.pad(mx.nd.ones((1, 1, 2, 2), dtype='int32'), mode='constant', pad_width=(0, 0, 0, 0, 1, 1, 1, 1))"),
    ("pad.reflect_too_big", _P4 + "result = mx.nd.pad(x, mode='reflect', pad_width=(0, 0, 0, 0, 3, 0, 0, 0))"),
    ("pad.3d", "result = mx.nd.pad(mx.nd.ones((1, 2, 3)), mode='constant', pad_width=(0, 0, 1, 1, 0, 0))"),
    ("pad.bad_mode", _P4 + "result = mx.nd.pad(x, mode='wrap', pad_width=(0, 0, 0, 0, 1, 1, 1, 1))"),
    ("pad.wrong_len", _P4 + "result = mx.nd.pad(x, mode='constant', pad_width=(0, 0, 0, 0, 1, 1))"),
    # slice / slice_axis / slice_like
    ("slice.3d_steps", _X + "result = mx.nd.slice(x, begin=(None, 2, None), end=(None, 0, None), step=(1, -1, 2))"),
    ("slice.neg_step_clamp", _X + "result = mx.nd.slice(x, begin=(None, None, 10), end=(None, None, -10), step=(1, 1, -1))"),
    ("slice.neg_step2", _X + "result = mx.nd.slice(x, begin=(None, None, 2), end=(None, None, -7), step=(1, 1, -2))"),
    ("slice.step3", _X + "result = mx.nd.slice(x, begin=(None, None, 3), end=(None, None, None), step=(1, 1, -3))"),
    ("slice.clamp_begin", _X + "result = mx.nd.slice(x, begin=(-5,), end=(None,))"),
    ("slice.clamp_end", _X + "result = mx.nd.slice(x, begin=(0, 1), end=(5, 10))"),
    ("slice.int32", _I + "result = mx.nd.slice(x, begin=(1, 0, 1), end=(2, 3, 4), step=(1, 2, 2))"),
    ("slice.zero_step", _X + "result = mx.nd.slice(x, begin=(None,), end=(-1,), step=(0,))"),
    ("slice.too_many_axes", _X + "result = mx.nd.slice(x, begin=(0, 0, 0, 0), end=(1, 1, 1, 1))"),
    ("slice.len_mismatch", _X + "result = mx.nd.slice(x, begin=(0,), end=(1, 2))"),
    ("slice.step_len_mismatch", _X + "result = mx.nd.slice(x, begin=(0,), end=(2,), step=(1, 1))"),
    ("slice_axis.neg_begin", _X + "result = mx.nd.slice_axis(x, axis=2, begin=-3, end=-1)"),
    ("slice_axis.neg_axis", _X + "result = mx.nd.slice_axis(x, axis=-2, begin=1, end=None)"),
    ("slice_axis.int32", _I + "result = mx.nd.slice_axis(x, axis=0, begin=1, end=2)"),
    ("slice_axis.begin_too_neg", _X + "result = mx.nd.slice_axis(x, axis=2, begin=-5, end=None)"),
    ("slice_axis.empty", _X + "result = mx.nd.slice_axis(x, axis=2, begin=2, end=2)"),
    ("slice_axis.axis_out_of_range", _X + "result = mx.nd.slice_axis(x, axis=3, begin=0, end=1)"),
    ("slice_like.axes_neg", _X + "result = mx.nd.slice_like(x, mx.nd.ones((1, 2, 1)), axes=(-1, -3))"),
    ("slice_like.bigger_like", _X + "result = mx.nd.slice_like(x, mx.nd.ones((1, 2, 3, 4)), axes=(2,))"),
    ("slice_like.int_like", _X + "result = mx.nd.slice_like(x, mx.nd.ones((1, 2, 3), dtype='int32'))"),
    ("slice_like.too_big", _X + "result = mx.nd.slice_like(x, mx.nd.ones((1, 5, 1)))"),
    ("slice_like.ndim_mismatch", _X + "result = mx.nd.slice_like(x, mx.nd.ones((1, 1)))"),
    ("slice_like.axis_out_of_range", _X + "result = mx.nd.slice_like(x, mx.nd.ones((1, 2, 1)), axes=(3,))"),
    # diag
    ("diag.3d_k_axes", _X + "result = mx.nd.diag(x, k=1, axis1=-1, axis2=0)"),
    ("diag.3d_k_neg", _X + "result = mx.nd.diag(x, k=-1, axis1=2, axis2=1)"),
    ("diag.3d_empty", _X + "result = mx.nd.diag(x, k=3)"),
    ("diag.4d", "result = mx.nd.diag(mx.nd.arange(36).reshape((2, 3, 2, 3)), k=1, axis1=1, axis2=3)"),
    ("diag.1d_int32", "result = mx.nd.diag(mx.nd.array([1, 2], dtype='int32'), k=-1)"),
    ("diag.1d_axes_ignored", "result = mx.nd.diag(mx.nd.array([1, 2, 3]), k=1, axis1=3)"),
    ("diag.same_axes", _X + "result = mx.nd.diag(x, axis1=1, axis2=1)"),
    ("diag.no_diagonal", _X + "result = mx.nd.diag(x, k=-3)"),
    ("diag.axis_out_of_range", _X + "result = mx.nd.diag(x, axis1=3)"),
    # depth_to_space / space_to_depth
    ("depth_to_space.b2", _D + "result = mx.nd.depth_to_space(x, block_size=2)"),
    ("depth_to_space.b1", _D + "result = mx.nd.depth_to_space(x, block_size=1)"),
    ("depth_to_space.bad_channels", _D + "result = mx.nd.depth_to_space(x, block_size=3)"),
    ("depth_to_space.3d", "result = mx.nd.depth_to_space(mx.nd.ones((4, 2, 2)), block_size=2)"),
    ("depth_to_space.zero_block", _D + "result = mx.nd.depth_to_space(x, block_size=0)"),
    ("space_to_depth.b2", "x = mx.nd.array(np.random.RandomState(4).uniform(-1, 1, (2, 3, 4, 6)))\n"
                          "result = mx.nd.space_to_depth(x, block_size=2)"),
    ("space_to_depth.int32", "result = mx.nd.space_to_depth(mx.nd.arange(32, dtype='int32').reshape((1, 2, 4, 4)), block_size=2)"),
    ("space_to_depth.bad_size", _D + "result = mx.nd.space_to_depth(x, block_size=2)"),
    # shape_array / size_array
    ("shape_array.3d", _X + "result = mx.nd.shape_array(x)"),
    ("shape_array.1d_int", "result = mx.nd.shape_array(mx.nd.arange(5, dtype='int32'))"),
    ("size_array.3d", _X + "result = mx.nd.size_array(x)"),
    ("size_array.float16", "result = mx.nd.size_array(mx.nd.ones((2, 5), dtype='float16'))"),
]


def evaluate(code, mx, np):
    """Run one snippet and return its ``result``."""
    ns = {"mx": mx, "np": np}
    exec(compile(code, "<shape_ops case>", "exec"), ns)  # noqa: S102
    return ns["result"]


def main():
    import mxnet as mx
    import numpy as np

    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__}")
    cases, arrays = {}, {}
    for i, (cid, code) in enumerate(CASES):
        try:
            res = evaluate(code, mx, np)
            outs = res if isinstance(res, (list, tuple)) else [res]
            items = []
            for j, o in enumerate(outs):
                key = f"c{i:03d}_{j}"
                arrays[key] = o.asnumpy()
                items.append({"dtype": np.dtype(o.dtype).name, "shape": list(o.shape), "array": key})
            cases[cid] = {"code": code, "outcome": "value", "list": isinstance(res, list),
                          "items": items}
        except Exception as e:  # noqa: BLE001 - recording the failure is the point
            cases[cid] = {"code": code, "outcome": "error", "type": type(e).__name__}
    OUT_JSON.parent.mkdir(parents=True, exist_ok=True)
    OUT_JSON.write_text(json.dumps({"mxnet_version": mx.__version__, "cases": cases}, indent=1,
                                   sort_keys=True) + "\n")
    np.savez_compressed(OUT_NPZ, **arrays)
    print(f"wrote {len(cases)} cases to {OUT_JSON.relative_to(REPO)} and {OUT_NPZ.relative_to(REPO)}")


if __name__ == "__main__":
    main()
