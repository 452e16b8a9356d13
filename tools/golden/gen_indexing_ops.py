"""Record forward (and a few autograd) results of the indexing and sorting operators under
the reference MXNet 1.9.1, for the cases ``tests/golden/ndarray_cases.json`` leaves out.

Run with the reference interpreter (never with this repository's mxnet)::

    MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_indexing_ops.py

Writes ``tests/golden/indexing_ops.json``: for every case its code and either the error
class it raised or its result (dtype, shape and values of each NDArray). The snippets run
with ``mx`` and ``np`` bound and set ``result``. Cases where 1.9.1 reads or writes out of
bounds (undefined behaviour) are left out on purpose.
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent.parent / "tests" / "golden" / "indexing_ops.json"

_A = "a = mx.nd.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]])\n"
_X = "x = mx.nd.array([[3, 1, 4, 1.5], [5, 9, 2, 6]])\n"
_S = "x = mx.nd.arange(12).reshape((3, 2, 2))\n"
_G = """
def grad_of(fn, x, *rest):
    x = x.copy()
    x.attach_grad()
    with mx.autograd.record():
        y = fn(x, *rest)
        if isinstance(y, (list, tuple)):
            y = y[0]
    y.backward(mx.nd.arange(y.size).reshape(y.shape) + 1)
    return x.grad
"""

CASES = [
    # take
    ("take.wrap_float", _A + "result = mx.nd.take(a, mx.nd.array([-0.5, -1.5, 2.9, 3.5]), mode='wrap')"),
    ("take.clip_float", _A + "result = mx.nd.take(a, mx.nd.array([-0.5, -1.5, 2.9, 3.5]))"),
    ("take.raise_oob", _A + "result = mx.nd.take(a, mx.nd.array([0, 5]), mode='raise')"),
    ("take.raise_neg", _A + "result = mx.nd.take(a, mx.nd.array([0, -1]), mode='raise')"),
    ("take.raise_float", _A + "result = mx.nd.take(a, mx.nd.array([2.5]), mode='raise')"),
    ("take.raise_ok", _A + "result = mx.nd.take(a, mx.nd.array([2, 0]), mode='raise')"),
    ("take.bad_axis", _A + "result = mx.nd.take(a, mx.nd.array([0]), axis=2)"),
    ("take.bad_neg_axis", _A + "result = mx.nd.take(a, mx.nd.array([0]), axis=-3)"),
    ("take.int64_idx", _A + "result = mx.nd.take(a, mx.nd.array([0, 2], dtype='int64'))"),
    ("take.uint8_idx", _A + "result = mx.nd.take(a, mx.nd.array([0, 2], dtype='uint8'))"),
    ("take.f16_data", _A + "result = mx.nd.take(a.astype('float16'), mx.nd.array([1, 0], dtype='int32'))"),
    ("take.3d_idx_axis1", _A + "result = mx.nd.take(a, mx.nd.array([[[1]]]), axis=1)"),
    ("take.1d_data", "result = mx.nd.take(mx.nd.array([1, 2, 3]), mx.nd.array([[0, 2]]))"),
    # pick
    ("pick.wrap_float", _A + "result = mx.nd.pick(a, mx.nd.array([-1.5, -0.5, 3.7]), axis=1, mode='wrap')"),
    ("pick.clip_float", _A + "result = mx.nd.pick(a, mx.nd.array([-1.5, -0.5, 3.7]), axis=1)"),
    ("pick.keep_shaped_index", _A + "result = mx.nd.pick(a, mx.nd.array([[0], [1], [2]]), axis=1)"),
    ("pick.keep_shaped_axis0", _A + "result = mx.nd.pick(a, mx.nd.array([[0, 1, 2]]), axis=0)"),
    ("pick.bad_index_shape", _A + "result = mx.nd.pick(a, mx.nd.array([0, 1, 2, 1]), axis=1)"),
    ("pick.bad_index_shape2", _A + "result = mx.nd.pick(a, mx.nd.array([[0, 1, 2]]), axis=1)"),
    ("pick.axis_none", _A + "result = mx.nd.pick(a, mx.nd.array([0, 1, 2]), axis=None)"),
    ("pick.bad_axis", _A + "result = mx.nd.pick(a, mx.nd.array([0, 1, 2]), axis=2)"),
    ("pick.raise_mode", _A + "result = mx.nd.pick(a, mx.nd.array([0, 1, 2]), mode='raise')"),
    ("pick.1d", "result = mx.nd.pick(mx.nd.array([1, 2, 3]), mx.nd.array([2]), axis=0)"),
    ("pick.1d_keep", "result = mx.nd.pick(mx.nd.array([1, 2, 3]), mx.nd.array([2]), axis=0, keepdims=True)"),
    ("pick.3d", "result = mx.nd.pick(mx.nd.arange(24).reshape((2, 3, 4)), "
                "mx.nd.array([[0, 1, 2, 3], [1, 1, 1, 1]]), axis=1)"),
    ("pick.3d_keep_idx", "result = mx.nd.pick(mx.nd.arange(24).reshape((2, 3, 4)), "
                         "mx.nd.array([[0, 1, 2, 3], [1, 1, 1, 1]]).reshape((2, 1, 4)), axis=1, keepdims=True)"),
    ("pick.int_data", _A + "result = mx.nd.pick(a.astype('int32'), mx.nd.array([0, 1, 2], dtype='int32'))"),
    # one_hot
    ("one_hot.depth0", "result = mx.nd.one_hot(mx.nd.array([1, 0]), 0)"),
    ("one_hot.neg_depth", "result = mx.nd.one_hot(mx.nd.array([1, 0]), -1)"),
    ("one_hot.f64", "result = mx.nd.one_hot(mx.nd.array([1, 0], dtype='int32'), 3, dtype='float64')"),
    ("one_hot.uint8_wrap", "result = mx.nd.one_hot(mx.nd.array([1, 0]), 3, dtype='uint8', on_value=300)"),
    ("one_hot.uint8_neg", "result = mx.nd.one_hot(mx.nd.array([1, 0]), 3, dtype='uint8', on_value=-1)"),
    ("one_hot.int_trunc", "result = mx.nd.one_hot(mx.nd.array([1, 0]), 3, on_value=1.5, dtype='int32')"),
    ("one_hot.neg_float", "result = mx.nd.one_hot(mx.nd.array([-0.5, 2.9]), 3)"),
    ("one_hot.3d", "result = mx.nd.one_hot(mx.nd.array([1]).reshape((1, 1, 1)), 2)"),
    ("one_hot.bad_dtype", "result = mx.nd.one_hot(mx.nd.array([1]), 2, dtype='bool')"),
    # where
    ("where.int_cond", "result = mx.nd.where(mx.nd.array([[1, 0], [0, 1]], dtype='int32'), "
                       "mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([[-1, -2], [-3, -4]]))"),
    ("where.uint8_rows", "result = mx.nd.where(mx.nd.array([1, 0], dtype='uint8'), "
                         "mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([[-1, -2], [-3, -4]]))"),
    ("where.dtype_mismatch", "result = mx.nd.where(mx.nd.array([1, 0]), mx.nd.array([[1, 2], [3, 4]]), "
                             "mx.nd.array([[1, 2], [3, 4]], dtype='int32'))"),
    ("where.xy_shape_mismatch", "result = mx.nd.where(mx.nd.array([1, 0]), mx.nd.array([[1, 2], [3, 4]]), "
                                "mx.nd.array([1, 2]))"),
    ("where.row_cond_2d", "result = mx.nd.where(mx.nd.array([[1, 0]]), mx.nd.array([[1, 2], [3, 4]]), "
                          "mx.nd.array([[1, 2], [3, 4]]))"),
    ("where.rows_3d", "result = mx.nd.where(mx.nd.array([1, 0, 1]), mx.nd.ones((3, 2, 2)), mx.nd.zeros((3, 2, 2)))"),
    ("where.f16_cond_f64", "result = mx.nd.where(mx.nd.array([1, 0, 1]).astype('float16'), "
                           "mx.nd.ones((3,), dtype='float64'), mx.nd.zeros((3,), dtype='float64'))"),
    # clip
    ("clip.no_max", "result = mx.nd.clip(mx.nd.array([1, 2, 3]), 1)"),
    ("clip.max_none", "result = mx.nd.clip(mx.nd.array([1, 2, 3]), a_min=2, a_max=None)"),
    ("clip.uint8_neg_min", "result = mx.nd.clip(mx.nd.array([1, 2, 3], dtype='uint8'), -1, 2)"),
    ("clip.uint8_big_max", "result = mx.nd.clip(mx.nd.array([1, 2, 250], dtype='uint8'), 2, 300)"),
    ("clip.f16", "result = mx.nd.clip(mx.nd.array([1, 2, 3], dtype='float16'), 1.5, 2.5)"),
    ("clip.f64_f32_bound", "result = mx.nd.clip(mx.nd.array([0.5, 0.05], dtype='float64'), 0, 0.1)"),
    ("clip.int64_big", "result = mx.nd.clip(mx.nd.array([1e10, -5], dtype='int64'), 0, 3e9)"),
    # gather_nd / scatter_nd
    ("gather_nd.oob", "result = mx.nd.gather_nd(mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([[2], [0]]))"),
    ("gather_nd.oob_neg", "result = mx.nd.gather_nd(mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([[-3], [0]]))"),
    ("gather_nd.neg_edge", "result = mx.nd.gather_nd(mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([[-2], [0]]))"),
    ("gather_nd.float_oob", "result = mx.nd.gather_nd(mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([[1.2], [0]]))"),
    ("gather_nd.float_ok", "result = mx.nd.gather_nd(mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([[0.7], [0]]))"),
    ("gather_nd.neg_float", "result = mx.nd.gather_nd(mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([[-0.5], [0]]))"),
    ("gather_nd.neg_float2", "result = mx.nd.gather_nd(mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([[-1.5], [0]]))"),
    ("gather_nd.1d_idx", "result = mx.nd.gather_nd(mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([1, 0]))"),
    ("gather_nd.too_many", "result = mx.nd.gather_nd(mx.nd.array([[1, 2], [3, 4]]), "
                           "mx.nd.array([[1, 0, 1], [1, 0, 1], [0, 0, 0]]))"),
    ("gather_nd.int_idx", "result = mx.nd.gather_nd(mx.nd.array([[1, 2], [3, 4]]), "
                          "mx.nd.array([[1, 0], [1, 0]], dtype='int32'))"),
    ("gather_nd.int64_data", "result = mx.nd.gather_nd(mx.nd.array([[1, 2], [3, 4]], dtype='int64'), "
                             "mx.nd.array([[1, 0], [1, 0]]))"),
    ("gather_nd.1d_data", "result = mx.nd.gather_nd(mx.nd.array([1, 2]), mx.nd.array([[1]]))"),
    ("scatter_nd.dup", "result = mx.nd.scatter_nd(mx.nd.array([1, 2, 3]), "
                       "mx.nd.array([[0, 0, 0], [1, 1, 1]]), shape=(2, 2))"),
    ("scatter_nd.bad_combo", "result = mx.nd.scatter_nd(mx.nd.array([1, 2]), mx.nd.array([[1], [0]]), shape=(2, 2))"),
    ("scatter_nd.bad_combo2", "result = mx.nd.scatter_nd(mx.nd.array([[1, 2]]), mx.nd.array([[1, 0]]), "
                              "shape=(2, 2))"),
    ("scatter_nd.1d", "result = mx.nd.scatter_nd(mx.nd.array([1, 2]), mx.nd.array([[1, 0]]), shape=(3,))"),
    ("scatter_nd.int64_idx", "result = mx.nd.scatter_nd(mx.nd.array([1, 2]), "
                             "mx.nd.array([[1, 0]], dtype='int64'), shape=(3,))"),
    ("scatter_set_nd.1d", "x = mx.nd.ones((3,))\nmx.nd._internal._scatter_set_nd(x, mx.nd.array([5, 6]), "
                          "mx.nd.array([[2, 0]]), shape=(3,), out=x)\nresult = x"),
    ("scatter_set_nd.rows", "x = mx.nd.ones((3, 2))\nmx.nd._internal._scatter_set_nd(x, mx.nd.array([[5, 6]]), "
                            "mx.nd.array([[1]]), shape=(3, 2), out=x)\nresult = x"),
    ("backward_gather_nd.dup", "result = mx.nd._internal._backward_gather_nd(mx.nd.array([1, 2, 3]), "
                               "mx.nd.array([[0, 0, 0], [1, 1, 1]]), shape=(2, 2))"),
    # batch_take
    ("batch_take.basic", "result = mx.nd.batch_take(mx.nd.array([[1, 2, 3], [4, 5, 6]]), "
                         "mx.nd.array([1, 0], dtype='int32'))"),
    ("batch_take.clip", "result = mx.nd.batch_take(mx.nd.array([[1, 2, 3], [4, 5, 6]]), "
                        "mx.nd.array([5, -1], dtype='int32'))"),
    ("batch_take.clip2", "result = mx.nd.batch_take(mx.nd.array([[1, 2, 3], [4, 5, 6]]), "
                         "mx.nd.array([-2, 3], dtype='int32'))"),
    ("batch_take.2d_idx", "result = mx.nd.batch_take(mx.nd.array([[1, 2, 3], [4, 5, 6]]), "
                          "mx.nd.array([[1], [0]], dtype='int32'))"),
    ("batch_take.float_idx", "result = mx.nd.batch_take(mx.nd.array([[1, 2, 3], [4, 5, 6]]), mx.nd.array([1, 0]))"),
    ("batch_take.bad_size", "result = mx.nd.batch_take(mx.nd.array([[1, 2, 3], [4, 5, 6]]), "
                            "mx.nd.array([1, 0, 1], dtype='int32'))"),
    ("batch_take.1d", "result = mx.nd.batch_take(mx.nd.array([1, 2, 3]), mx.nd.array([1], dtype='int32'))"),
    # Sequence*
    ("seq.mask_float_len", _S + "result = mx.nd.SequenceMask(x, mx.nd.array([1.7, 5]), use_sequence_length=True)"),
    ("seq.mask_neg_len", _S + "result = mx.nd.SequenceMask(x, mx.nd.array([-1, 2]), use_sequence_length=True)"),
    ("seq.mask_int_len", _S + "result = mx.nd.SequenceMask(x, mx.nd.array([1, 2], dtype='int32'), "
                              "use_sequence_length=True)"),
    ("seq.mask_int_value", _S + "result = mx.nd.SequenceMask(x.astype('int32'), mx.nd.array([1, 2]), "
                                "use_sequence_length=True, value=-1.5)"),
    ("seq.mask_f64", _S + "result = mx.nd.SequenceMask(x.astype('float64'), mx.nd.array([1, 2]), "
                          "use_sequence_length=True)"),
    ("seq.mask_bad_len", _S + "result = mx.nd.SequenceMask(x, mx.nd.array([1, 2, 3]), use_sequence_length=True)"),
    ("seq.mask_bad_len2", _S + "result = mx.nd.SequenceMask(x, mx.nd.array([[1, 2]]), use_sequence_length=True)"),
    ("seq.mask_bad_axis", _S + "result = mx.nd.SequenceMask(x, mx.nd.array([1, 2]), use_sequence_length=True, "
                               "axis=2)"),
    ("seq.mask_2d", "result = mx.nd.SequenceMask(mx.nd.arange(6).reshape((3, 2)), mx.nd.array([1, 2]), "
                    "use_sequence_length=True)"),
    ("seq.mask_2d_axis1", "result = mx.nd.SequenceMask(mx.nd.arange(6).reshape((2, 3)), mx.nd.array([1, 2]), "
                          "use_sequence_length=True, axis=1)"),
    ("seq.mask_1d", "result = mx.nd.SequenceMask(mx.nd.arange(3), mx.nd.array([1]), use_sequence_length=True)"),
    ("seq.mask_4d_axis1", "result = mx.nd.SequenceMask(mx.nd.arange(24).reshape((2, 3, 2, 2)), "
                          "mx.nd.array([1, 2]), use_sequence_length=True, axis=1)"),
    ("seq.last_2d", "result = mx.nd.SequenceLast(mx.nd.arange(6).reshape((3, 2)), mx.nd.array([1, 2]), "
                    "use_sequence_length=True)"),
    ("seq.last_2d_nolen", "result = mx.nd.SequenceLast(mx.nd.arange(6).reshape((3, 2)))"),
    ("seq.last_2d_axis1", "result = mx.nd.SequenceLast(mx.nd.arange(6).reshape((2, 3)), axis=1)"),
    ("seq.last_1d", "result = mx.nd.SequenceLast(mx.nd.arange(3))"),
    ("seq.last_int", _S + "result = mx.nd.SequenceLast(x.astype('int32'), mx.nd.array([1, 2]), "
                          "use_sequence_length=True)"),
    ("seq.last_4d_axis1", "result = mx.nd.SequenceLast(mx.nd.arange(24).reshape((2, 3, 2, 2)), "
                          "mx.nd.array([1, 2]), use_sequence_length=True, axis=1)"),
    ("seq.last_bad_axis", _S + "result = mx.nd.SequenceLast(x, axis=2)"),
    ("seq.reverse_axis1", _S + "result = mx.nd.SequenceReverse(x, axis=1)"),
    ("seq.reverse_len0", _S + "result = mx.nd.SequenceReverse(x, mx.nd.array([0, 2]), use_sequence_length=True)"),
    ("seq.reverse_len01", _S + "result = mx.nd.SequenceReverse(x, mx.nd.array([0, 1]), use_sequence_length=True)"),
    ("seq.reverse_float", _S + "result = mx.nd.SequenceReverse(x, mx.nd.array([1.7, 2.2]), "
                               "use_sequence_length=True)"),
    ("seq.reverse_2d", "result = mx.nd.SequenceReverse(mx.nd.arange(6).reshape((3, 2)), mx.nd.array([1, 2]), "
                       "use_sequence_length=True)"),
    ("seq.reverse_1d", "result = mx.nd.SequenceReverse(mx.nd.arange(3))"),
    ("seq.reverse_int", _S + "result = mx.nd.SequenceReverse(x.astype('int32'), mx.nd.array([1, 2]), "
                             "use_sequence_length=True)"),
    ("seq.reverse_bad_len", _S + "result = mx.nd.SequenceReverse(x, mx.nd.array([1, 2, 3]), "
                                 "use_sequence_length=True)"),
    ("seq.reverse_4d", "result = mx.nd.SequenceReverse(mx.nd.arange(24).reshape((3, 2, 2, 2)), "
                       "mx.nd.array([2, 1]), use_sequence_length=True)"),
    # topk / sort / argsort
    ("argsort.ties_desc", "result = mx.nd.argsort(mx.nd.array([2, 1, 2, 1, 2]), is_ascend=False)"),
    ("topk.ties", "result = mx.nd.topk(mx.nd.array([2, 1, 2, 1, 2]), k=3)"),
    ("topk.ties_asc", "result = mx.nd.topk(mx.nd.array([2, 1, 2, 1, 2]), k=3, is_ascend=True)"),
    ("topk.ties_mask", "result = mx.nd.topk(mx.nd.array([3, 3, 3, 1]), k=2, ret_typ='mask')"),
    ("topk.ties_mask_asc", "result = mx.nd.topk(mx.nd.array([3, 3, 3, 1]), k=2, ret_typ='mask', is_ascend=True)"),
    ("topk.ties_idx", "result = mx.nd.topk(mx.nd.array([1, 3, 3, 3]), k=2)"),
    ("sort.ties_desc", "result = mx.nd.sort(mx.nd.array([2, 1, 2, 1, 2]), is_ascend=False)"),
    ("topk.k_neg", _X + "result = mx.nd.topk(x, k=-3)"),
    ("topk.mask_all", _X + "result = mx.nd.topk(x, k=4, ret_typ='mask')"),
    ("topk.mask_axis_none", _X + "result = mx.nd.topk(x, axis=None, k=2, ret_typ='mask')"),
    ("topk.both_axis_none", _X + "result = mx.nd.topk(x, axis=None, k=2, ret_typ='both')"),
    ("topk.bad_axis", _X + "result = mx.nd.topk(x, axis=2)"),
    ("topk.neg_axis", _X + "result = mx.nd.topk(x, axis=-2, k=1)"),
    ("topk.dtype_f16", _X + "result = mx.nd.topk(x, k=2, dtype='float16')"),
    ("topk.dtype_uint8", _X + "result = mx.nd.topk(x, k=2, dtype='uint8')"),
    ("topk.f16_data", _X + "result = mx.nd.topk(x.astype('float16'), k=2, ret_typ='both')"),
    ("topk.uint8_data", _X + "result = mx.nd.topk(x.astype('uint8'), k=2, ret_typ='both')"),
    ("topk.int64_mask", _X + "result = mx.nd.topk(x.astype('int64'), k=2, ret_typ='mask')"),
    ("topk.f64_value", _X + "result = mx.nd.topk(x.astype('float64'), k=2, ret_typ='value')"),
    ("topk.both_int32", _X + "result = mx.nd.topk(x, k=2, ret_typ='both', dtype='int32')"),
    ("topk.asc_both", _X + "result = mx.nd.topk(x, k=2, is_ascend=True, ret_typ='both')"),
    ("topk.k0_mask", "result = mx.nd.topk(mx.nd.array([1, 2, 3]), k=0, ret_typ='mask')"),
    ("topk.k0_axis_none", "result = mx.nd.topk(mx.nd.array([[1, 2, 3]]), axis=None, k=0)"),
    ("topk.axis0_single", "result = mx.nd.topk(mx.nd.array([[1, 2]]), axis=0, k=1, ret_typ='both')"),
    ("argsort.uint8", _X + "result = mx.nd.argsort(x, dtype='uint8')"),
    ("argsort.int8", _X + "result = mx.nd.argsort(x, dtype='int8')"),
    ("argsort.int_data", _X + "result = mx.nd.argsort(x.astype('int32'))"),
    ("argsort.f16_data", _X + "result = mx.nd.argsort(x.astype('float16'))"),
    ("argsort.f16_dtype", "result = mx.nd.argsort(mx.nd.array([3, 1, 2]), dtype='float16')"),
    ("argsort.bad_axis", _X + "result = mx.nd.argsort(x, axis=-3)"),
    ("sort.bad_axis", _X + "result = mx.nd.sort(x, axis=2)"),
    ("sort.uint8_desc", _X + "result = mx.nd.sort(x.astype('uint8'), is_ascend=False)"),
    ("sort.f64_none_desc", _X + "result = mx.nd.sort(x.astype('float64'), axis=None, is_ascend=False)"),
    ("sort.zeros_signed", "result = mx.nd.argsort(mx.nd.array([0.0, -0.0, 0.0]))"),
    # gradients
    ("grad.argsort", _X + _G + "result = grad_of(lambda a: mx.nd.argsort(a), x)"),
    ("grad.sort_axis_none", _X + _G + "result = grad_of(lambda a: mx.nd.sort(a, axis=None), x)"),
    ("grad.topk_value", _X + _G + "result = grad_of(lambda a: mx.nd.topk(a, k=2, ret_typ='value'), x)"),
    ("grad.topk_both", _X + _G + "result = grad_of(lambda a: mx.nd.topk(a, k=2, ret_typ='both'), x)"),
    ("grad.topk_indices", _X + _G + "result = grad_of(lambda a: mx.nd.topk(a, k=2), x)"),
    ("grad.topk_mask", _X + _G + "result = grad_of(lambda a: mx.nd.topk(a, k=2, ret_typ='mask'), x)"),
    ("grad.topk_value_none", _X + _G + "result = grad_of(lambda a: mx.nd.topk(a, k=2, ret_typ='value', "
                                       "axis=None), x)"),
    ("grad.topk_axis0", _X + _G + "result = grad_of(lambda a: mx.nd.topk(a, k=1, ret_typ='value', axis=0), x)"),
    ("grad.where", _X + _G + "result = grad_of(lambda a, c: mx.nd.where(c, a, a * 2), x, "
                             "mx.nd.array([[1, 0, 1, 0], [0, 0, 1, 1]]))"),
    ("grad.take_dup", _X + _G + "result = grad_of(lambda a, i: mx.nd.take(a, i), x, mx.nd.array([1, 1, 0]))"),
    ("grad.take_wrap", _X + _G + "result = grad_of(lambda a: mx.nd.take(a, mx.nd.array([5, -1]), mode='wrap'), x)"),
    ("grad.take_clip_axis1", _X + _G + "result = grad_of(lambda a: mx.nd.take(a, mx.nd.array([5, -1]), axis=1), x)"),
    ("grad.pick", _X + _G + "result = grad_of(lambda a, i: mx.nd.pick(a, i), x, mx.nd.array([1, 3]))"),
    ("grad.pick_wrap", _X + _G + "result = grad_of(lambda a: mx.nd.pick(a, mx.nd.array([5, -1]), mode='wrap'), x)"),
    ("grad.gather_nd", _X + _G + "result = grad_of(lambda a, i: mx.nd.gather_nd(a, i), x, "
                                 "mx.nd.array([[1, 1, 0], [3, 3, 1]]))"),
    ("grad.scatter_nd", _G + "result = grad_of(lambda a, i: mx.nd.scatter_nd(a, i, shape=(3,)), "
                             "mx.nd.array([1, 2]), mx.nd.array([[1, 2]]))"),
    ("grad.seq_last", _S + _G + "result = grad_of(lambda a, L: mx.nd.SequenceLast(a, L, use_sequence_length=True), "
                                "x, mx.nd.array([1, 3]))"),
    ("grad.seq_last_axis1", _G + "result = grad_of(lambda a, L: mx.nd.SequenceLast(a, L, "
                                 "use_sequence_length=True, axis=1), mx.nd.arange(12).reshape((2, 3, 2)), "
                                 "mx.nd.array([2, 1]))"),
    ("grad.seq_mask", _S + _G + "result = grad_of(lambda a, L: mx.nd.SequenceMask(a, L, use_sequence_length=True, "
                                "value=3), x, mx.nd.array([1, 3]))"),
    ("grad.seq_reverse", _S + _G + "result = grad_of(lambda a, L: mx.nd.SequenceReverse(a, L, "
                                   "use_sequence_length=True), x, mx.nd.array([1, 3]))"),
    ("grad.clip", _X + _G + "result = grad_of(lambda a: mx.nd.clip(a, 1.5, 4), x)"),
    ("grad.clip_inverted", _X + _G + "result = grad_of(lambda a: mx.nd.clip(a, 4, 1.5), x)"),
]


def _encode(mx, np, value):
    if isinstance(value, mx.nd.NDArray):
        arr = value.asnumpy()
        vals = [None if isinstance(v, float) and math.isnan(v) else v for v in arr.reshape(-1).tolist()]
        return {"kind": "ndarray", "dtype": np.dtype(value.dtype).name, "shape": list(value.shape),
                "values": vals}
    if isinstance(value, (list, tuple)):
        return {"kind": "list", "items": [_encode(mx, np, v) for v in value]}
    raise TypeError(f"unsupported result type {type(value).__name__}")


def main():
    import mxnet as mx
    import numpy as np
    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__}")
    out = {}
    for case_id, code in CASES:
        ns = {"mx": mx, "np": np}
        try:
            exec(compile(code, f"<{case_id}>", "exec"), ns)  # noqa: S102
            out[case_id] = {"code": code, "outcome": "value", "value": _encode(mx, np, ns["result"])}
        except Exception as exc:  # noqa: BLE001 - the error class is the recorded outcome
            builtin = next(c.__name__ for c in type(exc).__mro__ if c.__module__ == "builtins")
            out[case_id] = {"code": code, "outcome": "error", "error": type(exc).__name__,
                            "builtin": builtin}
    OUT.write_text(json.dumps({"mxnet_version": mx.__version__, "cases": out}, indent=1) + "\n")
    print(f"wrote {len(out)} cases to {OUT}")


if __name__ == "__main__":
    main()
