"""bfloat16 operators on the CPU and bfloat16 AMP training, against 1.9.1 (oneDNN).

The golden values come from tools/golden/gen_bf16_ops.py: every bfloat16 array is stored
widened to float32 (exact), so equality of the float32 arrays is bit equality of the
bfloat16 ones. The operators compute in float32 and round once, as oneDNN does, and every
bfloat16 result (outputs and gradients) is compared bit for bit. BatchNorm's gamma/beta
gradients are float32 sums whose order differs from oneDNN's, so they get a float32
tolerance (a few float32 ulps) instead.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ml_dtypes = pytest.importorskip("ml_dtypes")

import mxnet as mx  # noqa: E402
from mxnet import autograd, nd  # noqa: E402

from ._scripts import load_script  # noqa: E402

GOLDEN = Path(__file__).parent / "golden" / "bf16_ops.npz"
BF16 = np.dtype(ml_dtypes.bfloat16)
GEN = load_script("tools/golden/gen_bf16_ops.py")


@pytest.fixture(scope="module")
def golden():
    with np.load(GOLDEN) as z:
        return {k: z[k] for k in z.files}


def _cases():
    with np.load(GOLDEN) as z:
        return json.loads(str(z["__cases__"]))


def _check(name, what, got, want, float32=False):
    assert got.shape == want.shape, (name, what, got.shape, want.shape)
    if float32:   # a float32 reduction summed in another order than oneDNN's
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=0, err_msg=f"{name} {what}")
    else:
        np.testing.assert_array_equal(got, want, err_msg=f"{name} {what}")


def _widen(a):
    return a.astype("float32").asnumpy() if a.dtype == BF16 else a.asnumpy()


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c[0])
def test_bf16_operator_matches_1_9_1(golden, case):
    name, op, attrs, inputs, train, backward = case
    attrs = {k: tuple(v) if isinstance(v, list) else v for k, v in attrs.items()}
    args = []
    for iname, _, kind in inputs:
        a = nd.array(golden[f"{name}/in/{iname}"], dtype="float32")
        if kind in ("bf16", "absbf16"):
            a = a.astype("bfloat16")
        if backward and iname not in ("moving_mean", "moving_var"):
            a.attach_grad()
        args.append(a)
    y = GEN.forward(nd, autograd, op, args, attrs, train)
    assert y.dtype == BF16
    _check(name, "out", _widen(y), golden[f"{name}/out"])
    if backward:
        y.backward(nd.array(golden[f"{name}/ograd"]).astype("bfloat16"))
        for (iname, _, kind), a in zip(inputs, args):
            key = f"{name}/grad/{iname}"
            if key in golden:
                assert a.grad.dtype == a.dtype
                _check(name, f"grad {iname}", _widen(a.grad), golden[key], kind == "f32")
    if op == "BatchNorm" and train:
        np.testing.assert_allclose(args[3].asnumpy(), golden[f"{name}/moving_mean_after"],
                                   rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(args[4].asnumpy(), golden[f"{name}/moving_var_after"],
                                   rtol=1e-6, atol=1e-7)


def test_bf16_rounds_to_nearest_even():
    # 1 + 2^-8 lies halfway between two bfloat16 values: the even one (1.0) wins
    x = nd.array([[1.0]]).astype("bfloat16")
    w = nd.array([[1.0 + 2.0 ** -8]], dtype="float32").astype("bfloat16")   # rounds to 1.0
    assert float(w.astype("float32").asscalar()) == 1.0
    w = nd.array([[1.0 + 2.0 ** -7]]).astype("bfloat16")
    b = nd.array([2.0 ** -8]).astype("bfloat16")
    y = nd.FullyConnected(x, w, b, num_hidden=1)   # 1 + 2^-7 + 2^-8: halfway, rounds up (even)
    assert float(y.astype("float32").asscalar()) == 1.0 + 2.0 ** -6


def test_bf16_pooling_sum_rejected_as_in_1_9_1():
    x = nd.ones((1, 1, 4, 4)).astype("bfloat16")
    with pytest.raises(mx.base.MXNetError, match="Pooling: pool_type='sum'.*bfloat16"):
        nd.Pooling(x, kernel=(2, 2), pool_type="sum")


_AMP_SCRIPT = r"""
import json
import mxnet as mx
from mxnet import nd, autograd, gluon
from mxnet.gluon import nn
from mxnet.contrib import amp
amp.init(target_dtype='bfloat16')
net = nn.HybridSequential()
net.add(nn.Dense(4, in_units=3), nn.Activation('relu'), nn.Dense(2, in_units=4))
net.initialize(mx.init.Constant(0.1)); net.hybridize()
tr = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1}); amp.init_trainer(tr)
x = nd.arange(6).reshape((2, 3))
with autograd.record():
    out = net(x); loss = gluon.loss.L2Loss()(out, nd.zeros((2, 2)))
    with amp.scale_loss(loss, tr) as sl:
        autograd.backward(sl)
tr.step(2)
res = {"out": out.astype('float32').asnumpy().tolist(), "out_dtype": mx.base.dtype_name(out.dtype),
       "loss": loss.asnumpy().tolist(), "loss_dtype": str(loss.dtype.__name__),
       "loss_scale": tr._amp_loss_scaler.loss_scale}
for i in (0, 2):
    for p in ("weight", "bias"):
        prm = getattr(net[i], p)
        res[f"{i}/{p}"] = prm.data().asnumpy().tolist()
        res[f"{i}/{p}_grad"] = prm.grad().asnumpy().tolist()
        res[f"{i}/{p}_dtype"] = str(prm.data().dtype.__name__)
a, f = nd.array([1.5, 2.0]).astype('bfloat16'), nd.array([1.0, 3.0])
res["arith"] = {k: mx.base.dtype_name(r.dtype) for k, r in [
    ("a*2", a * 2), ("a-f", a - f), ("f-a", f - a), ("a+a", a + a), ("a**2", a ** 2),
    ("2-a", 2 - a), ("a>f", a > f), ("a/a", a / a)]}
print(json.dumps(res))
"""


def test_amp_bf16_training_script_matches_1_9_1(golden):
    # amp.init rewraps mx.nd for the whole process: run it in a child interpreter
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    proc = subprocess.run([sys.executable, "-c", _AMP_SCRIPT], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    assert res["out_dtype"] == "bfloat16" and bool(golden["amp/out_is_bf16"])
    np.testing.assert_array_equal(np.array(res["out"], np.float32), golden["amp/out"])
    assert res["loss_dtype"] == str(golden["amp/loss_dtype"]) == "float32"
    np.testing.assert_array_equal(np.array(res["loss"], np.float32), golden["amp/loss"])
    assert res["loss_scale"] == float(golden["amp/loss_scale"]) == 2.0 ** 16
    # NDArray arithmetic takes AMP's casts (float32 scalar ops, widest-type binary ops)
    assert res["arith"] == json.loads(str(golden["amp/arith"]))
    for i in (0, 2):
        for p in ("weight", "bias"):
            assert res[f"{i}/{p}_dtype"] == str(golden[f"amp/{i}/{p}_dtype"]) == "float32"
            np.testing.assert_array_equal(np.array(res[f"{i}/{p}"], np.float32),
                                          golden[f"amp/{i}/{p}"], err_msg=f"{i}/{p}")
            np.testing.assert_array_equal(np.array(res[f"{i}/{p}_grad"], np.float32),
                                          golden[f"amp/{i}/{p}_grad"], err_msg=f"{i}/{p} grad")


def test_converted_bf16_cnn_matches_1_9_1(golden):
    from mxnet.contrib import amp
    from mxnet.gluon import nn
    net = nn.HybridSequential()
    net.add(nn.Conv2D(4, 3, padding=1, in_channels=2), nn.BatchNorm(in_channels=4),
            nn.Activation("relu"), nn.MaxPool2D(2), nn.Conv2D(3, 3, in_channels=4),
            nn.AvgPool2D(1), nn.Flatten(), nn.Dense(5, in_units=12))
    net.initialize()
    for k, prm in enumerate(net.collect_params().values()):
        prm.set_data(nd.array(golden[f"cnn/param/{k}"]))
    net.hybridize()
    x = nd.array(golden["cnn/x"])
    ref = net(x).asnumpy()
    bnet = amp.convert_hybrid_block(net, target_dtype="bfloat16", ctx=mx.cpu())
    y = bnet(x)
    assert mx.base.dtype_name(y.dtype) == str(golden["cnn/out_dtype"])
    np.testing.assert_array_equal(_widen(y), golden["cnn/out"])
    # bfloat16 keeps 8 significant bits: the float32 network agrees to about 2^-8 relative
    assert not np.array_equal(ref, golden["cnn/out"])
    np.testing.assert_allclose(ref, golden["cnn/out"], rtol=0.05, atol=0.05)
