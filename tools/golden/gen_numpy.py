"""Golden values for mx.np / mx.npx and Gluon under npx.set_np(), from MXNet 1.9.1.

Run under the reference venv, outside the checkout:
    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python /work/main/tools/golden/gen_numpy.py
Writes tests/golden/numpy_cases.json (each case: the expression, the values, dtypes, shapes
and reprs 1.9.1 gives; tests/test_np/test_np_golden.py evaluates the same expressions) and
tests/golden/numpy_train.npz (the d2l training runs).
"""
import json
import os

import numpy as onp

from mxnet import autograd, gluon, np, npx

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "tests", "golden")

A = "np.array([[1., -2., 3.], [4., 5., -6.]])"
B = "np.array([[0.5, 1.5, -1.], [2., -0.5, 3.]])"
I = "np.array([[1, 2, 3], [4, 5, 6]], dtype='int32')"
V = "np.array([0.3, 0.7, 1.2, 2.5])"

CASES = {
    "creation": [
        "np.array([1, 2, 3])", "np.array([[1., 2.], [3., 4.]], dtype='float64')",
        "np.array(3.5)", "np.array(True)", "np.array([True, False])",
        "np.array(onp.array([1, 2]))", "np.array(onp.array([1., 2.]))",
        "np.zeros((2, 3))", "np.zeros((2, 0))", "np.zeros(3, dtype='int32')", "np.ones((2,))",
        "np.ones((2, 2), dtype=bool)", "np.full((2, 2), 7.)", "np.full((2,), 3)",
        "np.full((2,), True)", "np.arange(5)", "np.arange(1, 7, 2)", "np.arange(0, 1, 0.25)",
        "np.arange(4, dtype='int64')", "np.linspace(0, 1, 5)",
        "np.linspace(0, 1, 4, endpoint=False)", "np.eye(3)", "np.eye(2, 3, k=1)",
        "np.identity(2)", f"np.zeros_like({I})", f"np.ones_like({A})", f"np.full_like({A}, 2)",
        "np.empty((2, 3)).shape",
    ],
    "elementwise": [
        f"np.add({A}, {B})", f"np.subtract({A}, {B})", f"np.multiply({A}, {B})",
        f"np.divide({A}, {B})", f"np.true_divide({I}, 2)", f"{I} / {I}", f"np.power({B}, 2)",
        f"np.power(np.abs({A}), {B})", f"np.maximum({A}, {B})", f"np.minimum({A}, 0.5)",
        f"np.mod({A}, 2.5)", f"{A} + 1", f"2 - {A}", f"{A} * 3", f"1 / {B}", f"{A} ** 2",
        f"2 ** {B}", f"-{A}", f"{I} + 1", f"{I} + 1.5", f"{I} * 2", f"{I} + {A}",
        f"{A}.astype('float64') + {A}", "np.array([1, 2], dtype='int8') + np.array([1, 2], dtype='int64')",
        "np.array([1, 2], dtype='int8') + np.array([1., 2.], dtype='float16')",
        f"np.exp({A})", f"np.log(np.abs({A}))", f"np.sqrt(np.abs({A}))", f"np.abs({A})",
        f"np.sin({A})", f"np.cos({A})", f"np.tanh({A})", f"np.sign({A})", f"np.square({A})",
        f"np.negative({A})", f"np.exp({I})", f"np.sqrt({I})", f"np.log({I})",
        f"np.clip({A}, -1, 2)", f"np.clip({I}, 2, 5)", f"np.floor({A} / 4)",
        f"np.ceil({A} / 4)", "np.rint(np.array([0.5, 1.5, 2.5, -0.5]))",
        f"np.log1p(np.abs({A}))", f"np.expm1({B})", f"np.reciprocal({B})",
        f"{A} == {B}", f"{A} > 0", f"{A} <= {B}", f"{A} != 3", f"0 < {A}",
        f"np.equal({I}, 2)", f"np.greater_equal({A}, {B})", f"np.less({A}, {B})",
        "np.exp(np.array(2.))", "np.add(np.ones((2, 1)), np.ones(3))",
    ],
    "reduction": [
        f"np.sum({A})", f"np.sum({A}, axis=0)", f"np.sum({A}, axis=1, keepdims=True)",
        f"{A}.sum()", f"np.sum({I})", "np.sum(np.array([1, 2], dtype='int8'))",
        f"np.sum({A}, axis=(0, 1))", f"np.mean({A})", f"np.mean({A}, axis=1)",
        f"np.mean({I})", f"np.max({A})", f"np.max({A}, axis=0)", f"np.min({A}, axis=1)",
        f"{A}.max(axis=1, keepdims=True)", f"np.prod({B})", f"np.prod({I}, axis=1)",
        f"np.std({A})", f"np.std({A}, axis=0)", f"np.var({A}, axis=1)",
        f"np.var({A}, ddof=1)", f"np.argmax({A})", f"np.argmax({A}, axis=1)",
        f"np.argmin({A}, axis=0)", f"{A}.argmax(axis=0)", f"np.sum({A}, dtype='float64')",
        f"np.cumsum({A})", f"{A}.cumsum(axis=0)", f"np.cumsum({I}, axis=1)",
    ],
    "linalg": [
        f"np.dot({A}, np.transpose({B}))", f"np.dot({V}, {V})", f"np.dot({A}, np.ones(3))",
        f"np.dot(2., {V})", f"np.matmul({A}, np.transpose({B}))", f"np.matmul({A}, np.ones(3))",
        f"np.matmul(np.ones(2), {A})", f"{A} @ np.transpose({B})",
        "np.matmul(np.ones((2, 2, 3)), np.ones((3, 4)))", f"np.tensordot({A}, {B}, axes=2)",
        f"np.tensordot({A}, np.ones((3, 4)), axes=1)",
        f"np.tensordot({A}, {B}, axes=([1], [1]))", f"np.linalg.norm({V})",
        f"np.linalg.norm({A})", f"np.linalg.norm({A}, axis=1)", f"np.linalg.norm({A}, ord=1, axis=0)",
        f"np.linalg.norm({A}, axis=1, keepdims=True)",
    ],
    "shape": [
        f"np.reshape({A}, (3, 2))", f"{A}.reshape(-1)", f"{A}.reshape(3, -1)",
        f"{A}.reshape((1, 6))", f"np.transpose({A})", f"{A}.T",
        "np.transpose(np.arange(24).reshape(2, 3, 4), (1, 0, 2))", f"np.swapaxes({A}, 0, 1)",
        f"np.expand_dims({A}, 1)", f"np.expand_dims({A}, -1).shape", "np.squeeze(np.ones((1, 2, 1)))",
        "np.squeeze(np.ones((1, 2, 1)), axis=0)", f"np.concatenate([{A}, {B}])",
        f"np.concatenate([{A}, {B}], axis=1)", f"np.concatenate([{A}, {B}], axis=None)",
        f"np.stack([{A}, {B}])", f"np.stack([{A}, {B}], axis=2)", "np.split(np.arange(6), 3)",
        "np.split(np.arange(12).reshape(2, 6), [1, 4], axis=1)",
        "np.broadcast_to(np.array([1., 2., 3.]), (2, 3))", f"np.tile({A}, 2)",
        f"np.tile({A}, (2, 1))", f"np.repeat({A}, 2)", f"np.repeat({A}, 2, axis=0)",
        f"np.where({A} > 0, {A}, {B})", f"np.where({A} > 0, {A}, 0.)",
        f"np.where({A} > 0, 1., -1.)", f"{A}.flatten()", f"{A}.copy()", f"{A}.astype('int32')",
        f"{I}.astype('float32')", "np.ravel(np.ones((2, 2)))",
    ],
    "indexing": [
        f"{A}[1]", f"{A}[1, 2]", f"{A}[:, 1]", f"{A}[-1, ::-1]", f"{A}[None, 0]",
        f"{A}[..., 1]", f"{A}[{A} > 0]", f"{A}[np.array([1, 0])]",
        f"{A}[np.array([1, 0], dtype='int32'), np.array([2, 1], dtype='int32')]",
        f"{A}[[0, 1], [1, 2]]", f"{A}[np.array([True, False], dtype=bool)]",
        f"{A}[:, np.array([True, False, True], dtype=bool)]", f"{A}[1:, 1:]", f"{A}[0][1]",
        f"{A}[range(2), np.array([2, 0])]", f"{A}[np.array([1., 0.])]",
    ],
    "more": [
        f"np.any({A} > 4)", f"np.all({A} > -7)", f"np.any({A} > 4, axis=0)",
        f"({A} > 0).all(axis=1)", "np.isnan(np.array([1., np.nan, np.inf]))",
        "np.isinf(np.array([1., np.nan, -np.inf]))", "np.isfinite(np.array([1., np.nan, np.inf]))",
        f"np.logical_not({A} > 0)", "np.around(np.array([0.5, 1.5, 2.567, -1.25]))",
        "np.round(np.array([0.5, 1.567, 2.5]), 1)", f"np.flip({A})", f"np.flip({A}, axis=1)",
        f"np.sort({B})", f"np.sort({B}, axis=0)", f"np.sort({B}, axis=None)", f"np.argsort({B})",
        f"np.argsort({B}, axis=0)", f"np.hstack([{A}, {B}])", "np.hstack([np.ones(2), np.zeros(3)])",
        f"np.vstack([{A}, {B}])", "np.vstack([np.ones(2), np.zeros(2)])",
        "np.outer(np.array([1., 2.]), np.array([3., 4., 5.]))", "np.moveaxis(np.ones((2, 3, 4)), 0, -1).shape",
        "np.meshgrid(np.array([1., 2., 3.]), np.array([4., 5.]))",
        "np.meshgrid(np.array([1., 2., 3.]), np.array([4., 5.]), indexing='ij')",
    ],
    "npx": [
        f"npx.relu({A})", f"npx.sigmoid({A})", f"npx.softmax({A})", f"npx.softmax({A}, axis=0)",
        f"npx.log_softmax({A})", f"npx.pick({A}, np.array([0, 2]))",
        f"npx.pick({A}, np.array([1, 0, 1]), axis=0)", "npx.one_hot(np.array([0, 2, 1]), 3)",
        "npx.batch_dot(np.ones((2, 2, 3)), np.ones((2, 3, 4)))",
        "npx.batch_flatten(np.ones((2, 3, 4)))", "npx.reshape(np.ones((2, 3, 4)), (-2, -1))",
        "npx.reshape(np.ones((2, 3, 4)), (-5, -2))", "npx.reshape(np.ones((2, 3, 4)), (-2, -6, 1, 3, -2))",
        "npx.reshape(np.ones((1, 3, 4)), (-3, -4))", "npx.reshape(np.ones((2, 3, 4)), (-4,))",
        f"npx.activation({A}, act_type='tanh')",
    ],
    "more2": [
        f"np.take({A}, np.array([1, 0, 5]))", f"np.take({A}, np.array([2, 0]), axis=1)",
        f"np.take({A}, np.array([3, -1]), axis=1, mode='clip')",
        f"np.take({A}, np.array([4, -4]), axis=1, mode='wrap')", f"np.take({A}, np.array([9]))",
        f"np.einsum('ij,kj->ik', {A}, {B})", f"np.einsum('ij->j', {A})", "np.einsum('ii', np.ones((3, 3)))",
        f"np.einsum('i,i', {V}, {V})", f"np.einsum('ij,jk', {A}, np.ones((3, 2)))",
        "np.unique(np.array([3., 1., 3., 2.]))", "np.unique(np.array([3, 1, 3], dtype='int32'), return_counts=True)",
        "np.unique(np.array([3., 1., 3., 2.]), return_index=True, return_inverse=True)",
        f"np.pad({A}, ((1, 0), (0, 2)))", f"np.pad({A}, ((1, 1), (1, 1)), mode='edge')",
f"np.tril({A})", f"np.tril({A}, -1)",
        "np.tril(np.ones((3, 3)), 1)", f"np.tril({I})",
        f"np.diag({A})", f"np.diag({A}, 1)", f"np.diag({V})", f"np.diag({V}, -1)",
        f"np.diagonal({A})", "np.diagonal(np.arange(24).reshape(2, 3, 4), 1, 1, 2)",
        f"np.diagflat({A})", f"np.trace({A})", "np.trace(np.arange(24).reshape(2, 3, 4), 0, 1, 2)",
        f"np.trace({I})", f"np.nonzero({A} > 0)", "np.nonzero(np.array([0., 2., 0., 3.]))",
        f"np.argwhere({A} > 0)", f"np.flatnonzero({A} > 0)", "np.logspace(0, 2, 3)",
        "np.logspace(0, 1, 4, base=2.0, endpoint=False)", "np.bincount(np.array([0, 1, 1, 3], dtype='int64'))",
        "np.histogram(np.array([1., 2., 2., 3.]), bins=3, range=(1., 3.))", f"np.inner({A}, {B})",
        f"np.inner({V}, {V})", f"np.vdot({A}, {B})", "np.atleast_1d(np.array(1.))",
        "np.atleast_2d(np.array([1., 2.]))", "np.atleast_3d(np.array([1., 2.]))",
        f"np.atleast_3d({A})", "np.column_stack([np.array([1., 2.]), np.array([3., 4.])])",
        f"np.column_stack([{A}, {B}])", f"np.dstack([{A}, {B}])", "np.dstack([np.array([1., 2.]), np.array([3., 4.])])",
        f"np.hsplit({A}, 3)", "np.vsplit(np.arange(8).reshape(4, 2), 2)",
        "np.dsplit(np.arange(16).reshape(2, 2, 4), 2)", "np.array_split(np.arange(7), 3)",
        f"np.roll({A}, 1)", f"np.roll({A}, -1, axis=1)", f"np.roll({A}, (1, 2), axis=(0, 1))",
        f"np.rot90({A})", f"np.rot90({A}, 2)", f"np.rot90({A}, -1, axes=(1, 0))",
        f"np.append({A}, {B})", f"np.append({A}, {B}, axis=0)", f"np.delete({A}, 1, axis=1)",
f"np.delete({A}, 4)", f"np.insert({V}, 1, 5.)",
        f"np.resize({A}, (3, 3))", f"np.resize({V}, (2, 5))",
        f"np.percentile({A}, 50)", f"np.percentile({A}, 25, axis=0)", f"np.quantile({A}, 0.3, axis=1)",
        f"np.percentile({A}, 40, interpolation='lower')",
        f"np.average({A})", f"np.average({A}, axis=0, weights=np.array([1., 3.]))",
        f"np.average({A}, axis=1, weights=np.array([1., 2., 3.]), returned=True)",
        "np.isposinf(np.array([np.inf, -np.inf, 1.]))", "np.isneginf(np.array([np.inf, -np.inf, 1.]))",
        f"np.copysign({A}, -1.)", f"np.copysign({A}, {B})", f"np.hypot({A}, {B})", f"np.arctan2({A}, {B})",
        "np.lcm(np.array([4, 6], dtype='int64'), np.array([6, 4], dtype='int64'))",
        f"np.ldexp({B}, np.array([1., 2., 3.]))", "np.bitwise_and(np.array([5, 3], dtype='int32'), np.array([1, 2], dtype='int32'))",
        "np.bitwise_or(np.array([5, 3], dtype='int32'), np.array([1, 2], dtype='int32'))",
        "np.bitwise_xor(np.array([5, 3], dtype='int64'), np.array([1, 2], dtype='int64'))",
        "np.invert(np.array([1, 2], dtype='int32'))",
        f"np.polyval(np.array([1., 2., 3.]), {A})", "np.diag_indices_from(np.ones((3, 3)))",
        "np.indices((2, 3))", f"np.fabs({A})",
        f"np.fliplr({A})", f"np.flipud({A})", f"np.diff({A})", f"np.diff({A}, axis=0)",
        f"np.diff({V}, n=2)", f"np.ediff1d({A})", f"np.ediff1d({V}, to_begin=np.array([9.]))",
        "np.nan_to_num(np.array([np.nan, np.inf, -np.inf, 1.]))", f"np.sometrue({A} > 4)",
        f"np.product({B})", f"np.copy({A})", f"np.broadcast_arrays({A}, np.array([1., 2., 3.]))",
        "np.blackman(5)", "np.hamming(4)", "np.hanning(4)", f"np.rollaxis({A}, 1)",
        f"np.isclose({A}, {A} + 1e-9)", "np.interp(np.array([1.5, 2.5]), np.array([1., 2., 3.]), np.array([10., 20., 30.]))",
        f"np.ptp({A}, axis=0)", f"np.nancumsum({A})", f"np.cov({A})", f"np.searchsorted({V}, np.array([0.5, 2.]))",
        "np.linalg.inv(np.array([[2., 1.], [1., 3.]]))", "np.linalg.det(np.array([[2., 1.], [1., 3.]]))",
        "np.linalg.slogdet(np.array([[2., 1.], [1., 3.]]))", "np.linalg.cholesky(np.array([[4., 2.], [2., 3.]]))",
        "np.linalg.eigvalsh(np.array([[2., 1.], [1., 3.]]))", "np.linalg.solve(np.array([[2., 1.], [1., 3.]]), np.array([1., 2.]))",
        "np.linalg.solve(np.array([[2., 1.], [1., 3.]]), np.array([[1., 0.], [2., 1.]]))",
        "np.linalg.pinv(np.array([[1., 2.], [3., 4.], [5., 6.]]))", "np.linalg.svd(np.array([[3., 0.], [0., 4.]]))[1]",
        "np.linalg.tensorinv(np.eye(4).reshape(4, 2, 2), ind=1)",
        "np.linalg.matrix_rank(np.array([[1., 2.], [2., 4.]]))", "np.linalg.qr(np.array([[1., 2.], [3., 4.]]))[1].shape",
        "np.random.exponential(2., size=(2, 3)).shape", "np.random.gamma(2., 2., size=(4,)).dtype",
        "np.random.weibull(1.5, size=(2,)).shape", "np.unravel_index(np.array([5, 7], dtype='int64'), (3, 4))",
    ],
}

# gradients: expression of x (recorded), the gradient of its sum wrt x
X = "np.array([[0.5, -1.2, 2.0], [1.5, 0.3, -0.7]])"
GRADS = [
    "x * x", "x * 3 + 1", "x / (np.abs(x) + 1)", "np.exp(x)", "np.sin(x) * np.cos(x)",
    "np.tanh(x)", "np.sqrt(np.abs(x) + 1)", "np.log(np.abs(x) + 1)", "x ** 3", "2 ** x",
    "np.maximum(x, 0.4)", "np.minimum(x, np.ones(3) * 0.4)", "np.clip(x, -1, 1)",
    "np.sum(x, axis=0)", "np.mean(x, axis=1, keepdims=True)", "np.max(x, axis=1)",
    "np.min(x)", "np.prod(x + 3, axis=0)", "np.std(x, axis=1)", "np.var(x)",
    "np.dot(x, np.transpose(x))", "np.matmul(x, np.ones((3, 2)))",
    "np.tensordot(x, x, axes=2)", "np.linalg.norm(x)", "np.linalg.norm(x, ord=1, axis=1)",
    "np.reshape(x, (3, 2)) * np.arange(6).reshape(3, 2)", "np.transpose(x) * np.arange(6).reshape(3, 2)",
    "np.expand_dims(x, 0) * 2", "np.concatenate([x, x * 2], axis=1)", "np.stack([x, x * 3])",
    "np.split(x, 3, axis=1)[1] * 5", "np.broadcast_to(x[0], (4, 3)) * np.arange(12).reshape(4, 3)",
    "np.tile(x, (2, 1)) * np.arange(12).reshape(4, 3)", "np.repeat(x, 2, axis=1) * np.arange(12).reshape(2, 6)",
    "np.where(x > 0, x * x, -x)", "x[1] * 3", "x[:, 1:] * x[:, :2]", "x[x > 0] * 2",
    "x[np.array([1, 1, 0], dtype='int64')] * np.arange(9).reshape(3, 3)", "npx.relu(x)",
    "npx.sigmoid(x)", "npx.softmax(x) * np.arange(6).reshape(2, 3)",
    "npx.log_softmax(x) * np.arange(6).reshape(2, 3)", "npx.pick(x, np.array([2, 0]))",
    "npx.reshape(x, (-1,)) * np.arange(6)", "np.swapaxes(x, 0, 1) * np.arange(6).reshape(3, 2)",
    "np.squeeze(np.expand_dims(x, 0)) * 2",
    "np.flip(x, axis=1) * np.arange(6).reshape(2, 3)", "np.sort(x, axis=1) * np.arange(6).reshape(2, 3)",
    "np.sort(x, axis=None) * np.arange(6)", "np.hstack([x, x * 2])", "np.outer(x[0], x[1])",
    "np.moveaxis(x, 0, 1) * np.arange(6).reshape(3, 2)",
    "np.take(x, np.array([4, 0, 4])) * np.arange(3)", "np.take(x, np.array([2, 0]), axis=1) * 3",
    "np.einsum('ij,kj->ik', x, x)", "np.einsum('ij->j', x) * np.arange(3)", "np.tril(x) * 2",
    "np.pad(x, ((1, 0), (0, 2))) * np.arange(15).reshape(3, 5)", "np.diag(x) * np.arange(2)",
    "np.diagonal(x, 1) * 3", "np.trace(x)", "np.roll(x, 1) * np.arange(6).reshape(2, 3)",
    "np.rot90(x) * np.arange(6).reshape(3, 2)", "np.inner(x, x)", "np.vdot(x, x)",
    "np.hypot(x, x + 1)", "np.arctan2(x, x + 2)", "np.copysign(x, x - 1)", "np.ldexp(x, np.ones(3))",
    "np.polyval(np.array([1., 2., 3.]), x)", "np.average(x, axis=0, weights=np.array([1., 3.]))",
    "np.diff(x) * np.arange(4).reshape(2, 2)", "np.delete(x, 1, axis=1) * np.arange(4).reshape(2, 2)",
    "np.append(x, x * 2)", "np.column_stack([x[0], x[1]])", "np.dstack([x, x]) * 2",
    "np.resize(x, (3, 3)) * np.arange(9).reshape(3, 3)", "np.linalg.inv(x[:, :2] + np.eye(2) * 3)",
    "np.linalg.det(x[:, :2] + np.eye(2) * 3)", "np.linalg.slogdet(x[:, :2] + np.eye(2) * 3)[1]",
    "np.linalg.solve(x[:, :2] + np.eye(2) * 3, x[:, 2])", "np.nan_to_num(x) * 2",
]


def _result(val):
    if isinstance(val, (bool, int, float, onp.generic)) and not isinstance(val, onp.ndarray):
        return {"kind": "scalar", "value": val.item() if isinstance(val, onp.generic) else val}
    if isinstance(val, onp.dtype):
        return {"kind": "dtype", "value": str(val)}
    if isinstance(val, (list, tuple)):
        if val and isinstance(val[0], (int, onp.integer)) and not isinstance(val[0], bool):
            return {"kind": "tuple", "value": [int(v) for v in val]}
        return {"kind": "list", "items": [_result(v) for v in val]}
    if isinstance(val, np.ndarray):
        a = val.asnumpy()
        return {"kind": "ndarray", "value": a.tolist(), "dtype": str(a.dtype),
                "shape": list(a.shape), "repr": repr(val)}
    raise TypeError(type(val))


def _safe(expr, env):
    try:
        return _result(eval(expr, env))
    except Exception as e:  # noqa: BLE001 - 1.9.1 rejects it: the test expects an error too
        return {"kind": "error", "type": type(e).__name__, "message": str(e)[:200]}


def gen_cases():
    env = {"np": np, "npx": npx, "onp": onp}
    out = {}
    for fam, exprs in CASES.items():
        out[fam] = [{"expr": e, "result": _safe(e, env)} for e in exprs]
    grads = []
    for e in GRADS:
        x = eval(X, env)
        x.attach_grad()
        try:
            with autograd.record():
                y = eval(e, dict(env, x=x))
            y.backward()
        except Exception as err:  # noqa: BLE001 - 1.9.1 cannot differentiate it: no golden
            print("no gradient in 1.9.1:", e, str(err)[:80])
            continue
        grads.append({"expr": e, "x": X, "y": _result(y), "grad": _result(x.grad)})
    out["grad"] = grads
    with open(os.path.join(OUT, "numpy_cases.json"), "w") as f:
        json.dump(out, f, indent=0)
    print({k: len(v) for k, v in out.items()})


def linreg_data():
    rs = onp.random.RandomState(0)
    true_w, true_b = onp.array([2.0, -3.4]), 4.2
    X = rs.normal(0, 1, (40, 2)).astype("float32")
    y = (X @ true_w + true_b + rs.normal(0, 0.01, 40)).astype("float32").reshape(-1, 1)
    return X, y


def train_linreg(X, y, hybridize, check=None):
    """d2l's concise linear regression, 3 epochs (under npx.set_np()): the per-batch losses
    and the net. ``check(xb, yb, out, loss)`` sees every batch (the tests' type checks)."""
    net = gluon.nn.Sequential()
    net.add(gluon.nn.Dense(1))
    net.initialize()
    net(np.array(X[:1]))
    net[0].weight.set_data(np.array([[0.01, -0.02]]))
    net[0].bias.set_data(np.array([0.0]))
    if hybridize:
        net.hybridize()
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(np.array(X), np.array(y)),
                                   batch_size=10, shuffle=False)
    loss = gluon.loss.L2Loss()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.03})
    losses = []
    for _ in range(3):
        for xb, yb in loader:
            with autograd.record():
                out = net(xb)
                lv = loss(out, yb)
            if check is not None:
                check(xb, yb, out, lv)
            lv.backward()
            trainer.step(10)
            losses.append(float(lv.mean().item()))
    return onp.array(losses), net


def softmax_data():
    rs = onp.random.RandomState(1)
    X = rs.uniform(0, 1, (32, 1, 4, 4)).astype("float32")
    y = rs.randint(0, 5, 32).astype("float32")
    W0 = rs.normal(0, 0.01, (5, 16)).astype("float32")
    return X, y, W0


def train_softmax(X, y, W0, hybridize):
    """d2l's concise softmax regression, 3 epochs: per-batch summed losses, correct counts
    and the net."""
    net = gluon.nn.Sequential()
    net.add(gluon.nn.Dense(5))
    net.initialize()
    net(np.array(X[:1]))
    net[0].weight.set_data(np.array(W0))
    net[0].bias.set_data(np.zeros(5))
    if hybridize:
        net.hybridize()
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(np.array(X), np.array(y)),
                                   batch_size=8, shuffle=False)
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    losses, accs = [], []
    for _ in range(3):
        for xb, yb in loader:
            with autograd.record():
                out = net(xb)
                lv = loss(out, yb)
            lv.backward()
            trainer.step(xb.shape[0])
            losses.append(float(lv.sum().item()))
            accs.append(float((out.argmax(axis=1) == yb.astype("int64")).sum().item()))
    return onp.array(losses), onp.array(accs), net


def _scratch():
    """d2l's "from scratch" loops: manual minibatches, manual SGD, softmax cross-entropy by
    fancy indexing, and the accuracy count."""
    rs = onp.random.RandomState(2)
    X = np.array(rs.normal(0, 1, (30, 3)).astype("float32"))
    y = np.dot(X, np.array([1.5, -2.0, 0.5])) + 0.7
    w = np.array(rs.normal(0, 0.01, (3, 1)).astype("float32"))
    b = np.zeros(1)
    w.attach_grad()
    b.attach_grad()
    losses = []
    for _ in range(3):
        for i in range(0, 30, 8):
            idx = np.array(list(range(i, min(i + 8, 30))))
            xb, yb = X[idx], y[idx]
            with autograd.record():
                yh = np.dot(xb, w) + b
                lv = (yh - yb.reshape(yh.shape)) ** 2 / 2
            lv.backward()
            for p in (w, b):
                p[:] = p - 0.1 * p.grad / xb.shape[0]
            losses.append(float(lv.mean().item()))
    logits = np.array(rs.normal(0, 1, (6, 4)).astype("float32"))
    labels = np.array([0, 3, 1, 1, 2, 0])
    e = np.exp(logits)
    probs = e / e.sum(1, keepdims=True)
    ce = -np.log(probs[range(len(probs)), labels])
    acc = float((probs.argmax(axis=1).astype(labels.dtype) == labels).astype(labels.dtype).sum())
    return {"scratch_loss": onp.array(losses), "scratch_w": w.asnumpy(), "scratch_b": b.asnumpy(),
            "scratch_X": X.asnumpy(), "scratch_w0": None, "scratch_ce": ce.asnumpy(),
            "scratch_acc": onp.array(acc), "scratch_logits": logits.asnumpy()}


def gen_train():
    res = {k: v for k, v in _scratch().items() if v is not None}
    res["lin_X"], res["lin_y"] = linreg_data()
    res["sm_X"], res["sm_y"], res["sm_W0"] = softmax_data()
    for hyb in (False, True):
        tag = "hyb" if hyb else "imp"
        losses, net = train_linreg(res["lin_X"], res["lin_y"], hyb)
        res.update({f"lin_{tag}_loss": losses, f"lin_{tag}_w": net[0].weight.data().asnumpy(),
                    f"lin_{tag}_b": net[0].bias.data().asnumpy()})
        losses, accs, net = train_softmax(res["sm_X"], res["sm_y"], res["sm_W0"], hyb)
        res.update({f"sm_{tag}_loss": losses, f"sm_{tag}_acc": accs,
                    f"sm_{tag}_w": net[0].weight.data().asnumpy(),
                    f"sm_{tag}_b": net[0].bias.data().asnumpy()})
    onp.savez_compressed(os.path.join(OUT, "numpy_train.npz"), **res)
    print({k: v.shape for k, v in res.items()})




# ---------------------------------------------------------------------------------------------
# hybridized NumPy-mode blocks: the exported -symbol.json text, the outputs and the gradients
# (tests/test_np/test_np_hybrid.py runs the same sources)

HYBRID_BLOCKS = {
    "basic": ('''
class Net(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.weight = self.params.get("weight", shape=(4, 3))
    def hybrid_forward(self, F, x, weight):
        y = F.np.dot(x, weight)
        y = F.npx.relu(y)
        z = F.np.sum(y, axis=1)
        return z + 1.0, y * 2, F.np.exp(x) - x, 3 - x / 2, 1 / (x * x + 1), -x + x ** 2
''', [(2, 4)], {"weight": (4, 3)}),
    "mlp": ('''
class Net(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.fc1 = gluon.nn.Dense(5, activation="relu", in_units=6)
            self.fc2 = gluon.nn.Dense(3, in_units=5)
    def hybrid_forward(self, F, x):
        h = self.fc1(x)
        out = self.fc2(h)
        return F.npx.log_softmax(out, axis=-1), F.np.mean(out, axis=0), F.npx.sigmoid(h).sum()
''', [(4, 6)], {"fc1.weight": (5, 6), "fc1.bias": (5,), "fc2.weight": (3, 5), "fc2.bias": (3,)}),
    "shapes": ('''
class Net(gluon.HybridBlock):
    def hybrid_forward(self, F, x, y):
        a = F.np.reshape(x, (4, -1)) * 2
        b = F.np.transpose(x) + x.T
        c = F.np.swapaxes(F.np.expand_dims(x, 1), 0, 2)
        d = F.np.squeeze(F.np.expand_dims(y, 0))
        e = F.np.concatenate([x, y], axis=0)
        f = F.np.stack([x, y], axis=1)
        g = F.np.split(e, 2, axis=0)[1] * 3
        h = F.np.broadcast_to(F.np.sum(x, axis=0, keepdims=True), (3, 4))
        i = F.np.tile(x, (1, 2)) + F.np.repeat(x, 2, axis=1)
        j = F.np.flip(x, 0) * F.np.moveaxis(y, 0, 1).T
        k = F.np.hstack([x, y]) + F.np.vstack([x, y]).reshape(2, 8)
        m = F.np.where(x > 0, x, y * 2) + F.np.clip(x, -0.5, 0.5)
        n = x[0] * 2 + x[1, ::2].sum() + x[:, 1:3].sum(axis=1).sum()
        return a, b, c, d, e, f, g, h, i, j, k, m, n
''', [(2, 4), (2, 4)], {}),
    "math": ('''
class Net(gluon.HybridBlock):
    def hybrid_forward(self, F, x, y):
        a = F.np.mean(x, axis=1) + F.np.max(x, axis=0).sum() + F.np.min(y) + F.np.prod(y + 2)
        b = F.np.std(x, axis=0) + F.np.var(y, ddof=1)
        c = F.np.cumsum(x, axis=1) + F.np.linalg.norm(x) + F.np.linalg.norm(y, axis=1).sum()
        d = F.np.tensordot(x, y, axes=([1], [1])) + F.np.outer(x[0], y[1])[:2, :2]
        e = F.np.matmul(x, y.T) + F.np.maximum(x, y).sum() + F.np.minimum(x, 0.2).sum()
        f = F.np.power(F.np.abs(x) + 1, y) + F.np.sqrt(F.np.abs(y) + 1) * F.np.log(F.np.abs(x) + 1)
        g = (x > y) * x + (x <= 0.1) * y + F.np.tanh(x) * F.np.sin(y)
        h = F.np.ones_like(x) * x + F.np.zeros_like(y) + F.np.full_like(x, 0.5) * y
        i = F.np.ones((2, 4)) * x + F.np.arange(4) * y + F.np.full((2, 4), 1.5) * x
        j = F.np.dot(x, F.np.eye(4)) + F.np.tensordot(x, F.np.identity(4), 1)
        k = F.np.tensordot(x, y, 2) + (x * y).mean() + F.np.argmax(x, axis=1) * 0
        return a, b, c, d, e, f, g, h, i, j, k
''', [(2, 4), (2, 4)], {}, (1,)),
    "npx": ('''
class Net(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.weight = self.params.get("weight", shape=(3, 4))
            self.gamma = self.params.get("gamma", shape=(3,))
            self.beta = self.params.get("beta", shape=(3,))
    def hybrid_forward(self, F, x, weight, gamma, beta):
        h = F.npx.fully_connected(x, weight, num_hidden=3, no_bias=True)
        a = F.npx.softmax(h) + F.npx.activation(h, act_type="tanh")
        b = F.npx.layer_norm(h, gamma, beta, axis=-1)
        c = F.npx.leaky_relu(h, act_type="leaky", slope=0.1) + F.npx.relu(h) * 2
        d = F.npx.reshape(F.npx.batch_flatten(F.np.expand_dims(h, 2)), (-1,))
        e = F.npx.batch_dot(F.np.expand_dims(h, 1), F.np.expand_dims(h, 2))
        return a, b, c, d, e
''', [(2, 4)], {"weight": (3, 4), "gamma": (3,), "beta": (3,)}),
    "more": ('''
class Net(gluon.HybridBlock):
    def hybrid_forward(self, F, x, y):
        z = x + F.np.identity(3) * 4
        i = F.np.arange(2) * 2
        a = F.np.take(x, i, axis=1, mode="clip") * 2 + F.np.take(y, i, axis=0).sum()
        b = F.np.einsum("ij,jk->ik", x, y) + F.np.tril(x, -1) + F.np.diag(F.np.diag(y))
        c = F.np.diagonal(x, 1).sum() + F.np.trace(y) + F.np.roll(x, 1).sum() + F.np.roll(y, (1, 2), axis=(0, 1))
        d = F.np.rot90(x) * y + F.np.pad(x, ((0, 0), (1, 0)))[:, :3] + F.np.rot90(y, 2, (1, 0))
        e = F.np.hypot(x, y) + F.np.arctan2(x, y + 3) + F.np.ldexp(x, y) + F.np.copysign(x, y)
        f = F.np.column_stack([x, y]) * 2
        g = F.np.dstack([x, y]).sum(axis=2) + F.np.nan_to_num(x)
        h = F.np.inner(x, y) + F.np.vdot(x, y) + F.np.fliplr(x) + F.np.flipud(y) + F.np.logspace(0, 1, 3)
        k = z * 3
        m = F.np.isposinf(x) * 1.0 + z
        n = (F.np.copy(x) + F.np.diagflat(F.np.diag(y)) + F.np.fabs(x)
             + F.np.row_stack([x]) + F.np.percentile(x, 50) + F.np.hanning(3)
             + F.np.sometrue(x > 0) * 1.0 + F.np.product(y) + F.np.vsplit(y, 3)[1])
        o = F.np.quantile(y, 0.25) + y
        p = F.np.atleast_2d(x) * 2
        return a, b, c, d, e, f, g, h, k, m, n, o, p
''', [(3, 3), (3, 3)], {}, (3, 12)),  # 1.9.1: rot90's backward rotates the wrong way,
    # atleast_2d has a zero gradient
}


def _hybrid_case(name, src, in_shapes, pshapes, no_grad=()):
    """``no_grad``: outputs left out of the backward sum (1.9.1 has no gradient for std and
    var and silently gives zeros)."""
    import mxnet as mx
    env = {"gluon": gluon, "np": np, "npx": npx, "mx": mx}
    exec(src, env)
    rs = onp.random.RandomState(7)
    inputs = [rs.uniform(-1, 1, s).astype("float32") for s in in_shapes]
    pvals = {k: rs.uniform(-1, 1, s).astype("float32") for k, s in pshapes.items()}
    res = {"src": src, "inputs": [a.tolist() for a in inputs], "no_grad": list(no_grad),
           "params": {k: v.tolist() for k, v in pvals.items()}}
    for hyb in (False, True):
        net = env["Net"](prefix=f"{name}_")
        net.initialize()
        net(*[np.array(a) for a in inputs])
        for k, p in net._collect_params_with_prefix().items():
            p.set_data(np.array(pvals[k]))
        if hyb:
            net.hybridize()
        xs = [np.array(a) for a in inputs]
        for xa in xs:
            xa.attach_grad()
        with autograd.record():
            outs = net(*xs)
            total = sum((o * (i + 1)).sum() for i, o in enumerate(outs) if i not in no_grad)
        total.backward()
        tag = "hyb" if hyb else "imp"
        res[f"{tag}_outputs"] = [o.asnumpy().tolist() for o in outs]
        res[f"{tag}_input_grads"] = [xa.grad.asnumpy().tolist() for xa in xs]
        res[f"{tag}_param_grads"] = {k: p.grad().asnumpy().tolist()
                                     for k, p in net._collect_params_with_prefix().items()}
        if hyb:
            path = os.path.join(OUT, f"numpy_hybrid_{name}")
            net.export(path)
            with open(path + "-symbol.json") as f:
                res["symbol_json"] = f.read()
            os.remove(path + "-symbol.json")
            res["params_file"] = f"numpy_hybrid_{name}-0000.params"
    return res


def gen_hybrid():
    out = {name: _hybrid_case(name, *spec) for name, spec in HYBRID_BLOCKS.items()}
    with open(os.path.join(OUT, "numpy_hybrid.json"), "w") as f:
        json.dump(out, f, indent=0)
    print(sorted(out))


if __name__ == "__main__":
    import sys
    parts = sys.argv[1:] or ["cases", "train", "hybrid"]
    npx.set_np()
    if "cases" in parts:
        gen_cases()
    if "train" in parts:
        gen_train()
    if "hybrid" in parts:
        gen_hybrid()
