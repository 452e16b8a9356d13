"""gluon.contrib.cnn against 1.9.1: DeformableConvolution and ModulatedDeformableConvolution
replayed from tools/golden/gen_gluon_contrib.py (parameter names, order, shapes and
initializers before/after deferred initialisation, reprs, outputs imperative and hybridized,
gradients where 1.9.1's CPU operator has them); plus the zero-offset equivalence with a plain
convolution.

Fixtures: tests/golden/gluon_contrib.npz.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import mxnet as mx
from mxnet.gluon.contrib import cnn

from .._scripts import load_script

TABLE = load_script("tools/golden/gen_gluon_contrib.py")
GOLD = np.load(TABLE.OUT_NPZ)
META = json.loads(str(GOLD["__meta__"]))


@pytest.mark.parametrize("case", TABLE.LAYERS, ids=[c[0] for c in TABLE.LAYERS])
def test_layer_golden(case):
    info, arrays = TABLE.run_layer(mx, case)
    want = META["layers"][case[0]]
    for key in ("before", "after", "repr_before", "repr_after", "init"):
        assert info[key] == want[key], f"{case[0]}: {key}"
    keys = sorted(k.split("/", 1)[1] for k in GOLD.files if k.startswith(case[0] + "/"))
    assert sorted(arrays) == keys
    for k in keys:
        expected = GOLD[f"{case[0]}/{k}"]
        assert arrays[k].shape == expected.shape, k
        np.testing.assert_allclose(arrays[k], expected, rtol=1e-5, atol=1e-6,
                                   err_msg=f"{case[0]}/{k}")


@pytest.mark.parametrize("expr", [e for e in TABLE.REPRS if "cnn." in e and "crnn." not in e])
def test_repr(expr):
    assert repr(TABLE.build(mx, expr)) == META["reprs"][expr]


@pytest.mark.parametrize("cls", [cnn.DeformableConvolution, cnn.ModulatedDeformableConvolution])
def test_untrained_layer_is_a_convolution(cls):
    layer = cls(3, kernel_size=3, padding=1, in_channels=2)
    layer.initialize(mx.init.Uniform(0.5))
    layer.offset_weight.set_data(mx.nd.zeros(layer.offset_weight.shape))
    if layer.offset_bias is not None:
        layer.offset_bias.set_data(mx.nd.zeros(layer.offset_bias.shape))
    x = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (1, 2, 5, 5)))
    y = layer(x)
    # modulated: mask = 2 * sigmoid(0) = 1
    ref = mx.nd.Convolution(x, layer.deformable_conv_weight.data(),
                            layer.deformable_conv_bias.data(), kernel=(3, 3), pad=(1, 1),
                            num_filter=3)
    np.testing.assert_allclose(y.asnumpy(), ref.asnumpy(), rtol=1e-5, atol=1e-6)


def test_layout_check():
    with pytest.raises(AssertionError, match="NCHW"):
        cnn.DeformableConvolution(2, layout="NCW")
