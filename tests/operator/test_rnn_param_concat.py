"""_rnn_param_concat: flattens and joins parameter arrays (used by Gluon's fused RNN layers)."""
import numpy as np

import mxnet as mx

from .harness import GradCase, check_grad_case, rand

GRAD_CASES = [
    GradCase("rnn_param_concat", lambda a, b: mx.nd.op._rnn_param_concat(a, b, dim=0),
             [rand(2, 3), rand(4, seed=1)], ops=("_rnn_param_concat",)),
]


def test_gradient():
    for case in GRAD_CASES:
        check_grad_case(case)


def test_forward_flattens_and_joins():
    a, b = np.arange(6.0).reshape(2, 3), np.arange(4.0)
    out = mx.nd.op._rnn_param_concat(mx.nd.array(a), mx.nd.array(b), dim=0)
    np.testing.assert_array_equal(out.asnumpy(), np.concatenate([a.ravel(), b]))
