"""Regressions found by a compatibility sweep of d2l.ai-style code (MXNet edition, part 2:
RNNs, attention, optimization, performance, vision, NLP) against MXNet 1.9.1.

Literal expected values were recorded from MXNet 1.9.1 unless a comment says otherwise.
"""
import numpy as onp
import pytest

import mxnet as mx
from mxnet import autograd, gluon, init
from mxnet.base import MXNetError




# -- writing a value with extra leading size-1 axes (d2l's multistep prediction) -------------------
def test_np_setitem_value_with_leading_unit_axes(np_mode):
    np = np_mode
    a = np.zeros(5)
    a[0] = np.ones((1, 1)) * 2       # net(x) of shape (1, 1) into one element
    a[1] = np.ones((1,)) * 3
    a[2:4] = np.ones((1, 1, 2)) * 4
    # 1.9.1: [2.0, 3.0, 4.0, 4.0, 0.0]
    assert a.asnumpy().tolist() == [2.0, 3.0, 4.0, 4.0, 0.0]
    b = np.zeros((3, 4))
    b[1] = np.ones((1, 1, 4))
    b[2, 3] = np.ones((1, 1, 1)) * 5
    assert b.asnumpy().tolist() == [[0.0] * 4, [1.0] * 4, [0.0, 0.0, 0.0, 5.0]]


def test_np_setitem_value_that_does_not_broadcast_is_mxnet_error(np_mode):
    np = np_mode
    # 1.9.1 raises MXNetError for each of these
    for shape, key, vshape in [((5,), 0, (2,)), ((3, 4), 1, (2, 4)), ((5,), slice(0, 2), (1, 2, 1))]:
        a = np.zeros(shape)
        with pytest.raises(MXNetError, match="__setitem__"):
            a[key] = np.ones(vshape)


def test_nd_setitem_value_with_leading_unit_axes():
    a = mx.nd.zeros((5,))
    a[0] = mx.nd.ones((1, 1))
    # 1.9.1: [1.0, 0.0, 0.0, 0.0, 0.0]
    assert a.asnumpy().tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]


# -- rnn layers under npx.set_np() -----------------------------------------------------------------
def test_rnn_layer_begin_state_is_np_array(np_mode):
    np = np_mode
    layer = gluon.rnn.LSTM(3)
    layer.initialize()
    states = layer.begin_state(2)
    # 1.9.1: <class 'mxnet.numpy.ndarray'> float32, shape (1, 2, 3), for h and c
    assert len(states) == 2
    for s in states:
        assert type(s) is np.ndarray and s.dtype == onp.float32 and s.shape == (1, 2, 3)
    s = layer.begin_state(2, ctx=mx.cpu(0), dtype="float64")
    assert type(s[0]) is np.ndarray and s[0].dtype == onp.float64
    s = layer.begin_state(2, func=mx.nd.ones)
    assert type(s[0]) is np.ndarray and float(s[0].sum()) == 6.0
    gru = gluon.rnn.GRU(4, num_layers=2, bidirectional=True)
    gru.initialize()
    out, new = gru(np.ones((3, 2, 5)), gru.begin_state(batch_size=2))
    assert type(new[0]) is np.ndarray and new[0].shape == (4, 2, 4) and out.shape == (3, 2, 8)


def test_rnn_layer_begin_state_stays_legacy_without_np_mode():
    layer = gluon.rnn.GRU(3)
    assert type(layer.begin_state(2)[0]) is mx.nd.NDArray


# -- Trainer.step with an array batch size (d2l: trainer.step(num_tokens)) ------------------------
def test_trainer_step_with_array_batch_size(np_mode):
    np = np_mode
    net = gluon.nn.Dense(2, in_units=3)
    net.initialize(init.Constant(0.5))
    tr = gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 0.1})
    x = np.array([[1., 2., 3.], [0., 1., -1.]])
    with autograd.record():
        loss = (net(x) ** 2).sum()
    loss.backward()
    tr.step(np.array([4, 7], dtype="int32").sum())
    # 1.9.1 (recorded)
    onp.testing.assert_allclose(net.weight.data().asnumpy(),
                                [[0.39999938011169434, 0.39999938011169434, 0.39999935030937195]] * 2,
                                rtol=1e-6)
    onp.testing.assert_allclose(net.bias.data().asnumpy(), [-0.10000061243772507] * 2, rtol=1e-6)


def test_trainer_step_with_nd_batch_size_sgd():
    net = gluon.nn.Dense(1, in_units=2)
    net.initialize(init.Constant(1.0))
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 1.0})
    with autograd.record():
        loss = net(mx.nd.array([[1., 2.]])).sum()
    loss.backward()
    tr.step(mx.nd.array([4.]))
    # closed form: w - lr * x / 4
    onp.testing.assert_allclose(net.weight.data().asnumpy(), [[0.75, 0.5]])


# -- vision transforms keep mx.np arrays mx.np -----------------------------------------------------
def test_crop_transforms_return_np_arrays(np_mode):
    np = np_mode
    from mxnet.gluon.data.vision import transforms as T
    img = np.array((onp.arange(32 * 48 * 3) % 251).reshape(32, 48, 3).astype("uint8"))
    for t in [T.CenterCrop(16), T.RandomResizedCrop(16), T.RandomResizedCrop((20, 10))]:
        out = t(img)
        # 1.9.1: mxnet.numpy.ndarray, uint8
        assert type(out) is np.ndarray and out.dtype == onp.uint8
    assert T.CenterCrop((8, 6))(img).shape == (6, 8, 3)
    out = T.Compose([T.Resize(24), T.CenterCrop(16), T.ToTensor()])(img)
    assert type(out) is np.ndarray and out.shape == (3, 16, 16) and out.dtype == onp.float32
    legacy = T.CenterCrop(16)(mx.nd.array(img.asnumpy(), dtype="uint8"))
    assert type(legacy) is mx.nd.NDArray


# -- np.random.choice with float32 weights ---------------------------------------------------------
def test_np_random_choice_accepts_float32_weights(np_mode):
    np = np_mode
    mx.random.seed(0)
    p = np.array([0.1, 0.2, 0.3, 0.4])       # float32: the sum is 1 only up to rounding
    c = np.random.choice(4, size=(4000,), p=p)
    # 1.9.1: int64, frequencies ~ p
    assert c.dtype == onp.int64 and c.shape == (4000,)
    freq = onp.bincount(c.asnumpy(), minlength=4) / 4000
    onp.testing.assert_allclose(freq, [0.1, 0.2, 0.3, 0.4], atol=0.04)
    c = np.random.choice(3, size=(2000,), p=np.array([0.5, 0.0, 0.5]))
    assert 1 not in set(c.asnumpy().tolist())
    # 1.9.1 does not require the weights to be normalised: p is used as cumulative weights
    c = np.random.choice(3, size=(2000,), p=np.array([1.0, 1.0, 2.0]))
    assert set(c.asnumpy().tolist()) == {0}


# -- mx.image and image datasets under npx.set_np() ------------------------------------------------
def test_image_functions_return_np_arrays(np_mode):
    np = np_mode
    from mxnet import image
    pixels = (onp.arange(30 * 40 * 3) % 256).reshape(30, 40, 3).astype("uint8")
    src = np.array(pixels, dtype="uint8")
    # 1.9.1: every one of these is an mxnet.numpy.ndarray with dtype uint8
    r = image.imresize(src, 20, 15)
    assert type(r) is np.ndarray and r.shape == (15, 20, 3) and r.dtype == onp.uint8
    f = image.fixed_crop(src, 2, 3, 10, 8)
    assert type(f) is np.ndarray and (f.asnumpy() == pixels[3:11, 2:12]).all()
    c, rect = image.center_crop(src, (10, 10))
    assert type(c) is np.ndarray and c.shape == (10, 10, 3) and rect == (15, 10, 10, 10)
    rc, _ = image.random_crop(src, (20, 10))
    assert type(rc) is np.ndarray and rc.shape == (10, 20, 3)
    assert type(image.resize_short(src, 15)) is np.ndarray
    legacy = image.imresize(mx.nd.array(pixels, dtype="uint8"), 20, 15)
    assert type(legacy) is mx.nd.NDArray


def test_image_folder_dataset_items_are_np_arrays(np_mode, tmp_path):
    pytest.importorskip("PIL")
    np = np_mode
    import struct
    import zlib

    def png(path, h, w):   # a minimal 8-bit RGB PNG, written by hand
        raw = b"".join(b"\x00" + bytes((x * 7 + y) % 256 for x in range(w * 3)) for y in range(h))

        def chunk(kind, data):
            c = struct.pack(">I", len(data)) + kind + data
            return c + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
        path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                         + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    for cls in ("a", "b"):
        (tmp_path / cls).mkdir()
        png(tmp_path / cls / "x.png", 6, 5)
    ds = gluon.data.vision.ImageFolderDataset(str(tmp_path))
    img, label = ds[1]
    # 1.9.1: (mxnet.numpy.ndarray uint8 (6, 5, 3), 1)
    assert type(img) is np.ndarray and img.shape == (6, 5, 3) and img.dtype == onp.uint8
    assert label == 1
    from mxnet import image
    img2 = image.imread(str(tmp_path / "a" / "x.png"))
    assert type(img2) is np.ndarray and (img2.asnumpy() == img.asnumpy()).all()


# -- truth value of mx.np arrays (d2l: ``if label == 0``) ------------------------------------------
def test_np_bool_of_arrays(np_mode):
    np = np_mode
    assert bool(np.argmax(np.array([[0.1, 0.9]]), axis=1) == 1) is True
    # 1.9.1: ValueError('The truth value of an ndarray with multiple elements is ambiguous.')
    with pytest.raises(ValueError, match="multiple elements is ambiguous"):
        bool(np.array([1, 2]) == 1)
    # 1.9.1: a DeprecationWarning and False for an empty array
    with pytest.warns(DeprecationWarning):
        assert bool(np.array([])) is False


# -- ops over cpu(0) and cpu(1) arrays (d2l's multi-device code run on CPUs) -----------------------
def test_np_ops_across_cpu_ids(np_mode):
    np = np_mode
    x = np.ones((2, 3))
    y = np.ones((2, 3), ctx=mx.cpu(1))
    # 1.9.1: each runs; the result is on the first input's context
    assert (x + y).ctx == mx.cpu(0) and (y + x).ctx == mx.cpu(1)
    assert np.dot(x, y.T).ctx == mx.cpu(0)
    assert np.concatenate([x, y]).shape == (4, 3)
    assert float((x + y).sum()) == 12.0


# -- state carried across batches after backward (d2l's RNN training loop) --------------------------
def test_output_of_consumed_graph_enters_next_graph_as_constant(np_mode):
    np = np_mode
    w = np.array([[0.5, -0.2], [0.1, 0.3]])
    w.attach_grad()
    h = np.zeros((1, 2))
    grads = []
    for _ in range(3):
        for s in (h,):
            s.detach()          # returns a new array: h itself stays an output of the old graph
        with autograd.record():
            h = np.tanh(np.dot(np.ones((1, 2)) + h, w))
            loss = h.sum()
        loss.backward()         # 1.9.1: no error; the previous h acts as a constant
        grads.append(w.grad.asnumpy().copy())
    # closed form of d(sum(tanh((1 + h_prev) @ w)))/dw with h_prev held constant
    h_prev = onp.tanh(onp.dot(onp.ones((1, 2)), w.asnumpy()))
    h_prev = onp.tanh(onp.dot(1 + h_prev, w.asnumpy()))
    z = onp.dot(1 + h_prev, w.asnumpy())
    expect = onp.dot((1 + h_prev).T, 1 - onp.tanh(z) ** 2)
    onp.testing.assert_allclose(grads[2], expect, rtol=1e-5)
    # backward twice through the same consumed head still raises
    with pytest.raises(MXNetError, match="computational graph"):
        loss.backward()


# -- mx.np.array of a NumPy scalar ------------------------------------------------------------------
def test_np_array_of_numpy_scalar_keeps_dtype(np_mode):
    np = np_mode
    # 1.9.1: float64, float32, int64, int32, bool, float16 (0-d each); Python scalars -> float32
    for v, dt in [(onp.float64(2.5), onp.float64), (onp.float32(2.5), onp.float32),
                  (onp.int64(3), onp.int64), (onp.int32(3), onp.int32), (onp.bool_(True), onp.bool_),
                  (onp.float16(1), onp.float16), (2.5, onp.float32), (3, onp.float32)]:
        a = np.array(v)
        assert a.dtype == dt and a.shape == ()
    assert float(np.array(onp.float64(2.5))) == 2.5
    assert np.array(onp.int64(3), dtype="float32").dtype == onp.float32


# -- blocks kept in a plain list inside a hybridized block -----------------------------------------
def test_hybridized_block_with_unregistered_child_raises_assertion(np_mode):
    np = np_mode

    class Net3(gluon.nn.HybridBlock):
        def __init__(self):
            super().__init__()
            self.layers = [gluon.nn.Dense(3)]

        def hybrid_forward(self, F, x):
            return self.layers[0](x)
    net = Net3()
    with pytest.warns(UserWarning, match="unregistered container"):
        net.initialize()
    net.hybridize()
    # 1.9.1: AssertionError('Unknown input to HybridBlock: dense..._weight')
    with pytest.raises(AssertionError, match="weight"), pytest.warns(UserWarning):
        net(np.ones((1, 2)))


def test_op_on_consumed_graph_outputs_only_is_not_recorded(np_mode):
    np = np_mode
    x = np.array([1., 2.])
    x.attach_grad()
    with autograd.record():
        y = x * 3
        y2 = y + 1
    y2.backward()
    with autograd.record():
        w = (y * y2).sum()
    # 1.9.1: MXNetError 'Cannot differentiate node because it is not in a computational graph'
    with pytest.raises(MXNetError, match="computational graph"):
        w.backward()
    with autograd.record():
        w = (y * y2 * x).sum()
    w.backward()
    # 1.9.1: [12. 42.] (y and y2 enter as constants)
    assert x.grad.asnumpy().tolist() == [12.0, 42.0]


def test_hybridized_block_on_consumed_graph_output(np_mode):
    np = np_mode
    net = gluon.nn.Dense(2, in_units=2)
    net.initialize(init.Constant(0.5))
    net.hybridize()
    x = np.array([[1., 2.]])
    x.attach_grad()
    with autograd.record():
        h = net(x)
    h.backward()
    with autograd.record():
        out = net(h * x).sum()      # h is a constant now; x and the parameters are live
    out.backward()
    # closed form: d/dx sum(W (h * x) + b) = h * column sums of W
    onp.testing.assert_allclose(x.grad.asnumpy(), h.asnumpy() * 1.0)


# -- loss sample weights with another dtype (d2l's MaskedSoftmaxCELoss with int labels) ------------
def test_softmax_ce_with_int_sample_weight_mask(np_mode):
    np = np_mode

    class MaskedCE(gluon.loss.SoftmaxCELoss):
        def hybrid_forward(self, F, pred, label, valid_len):
            weights = F.np.expand_dims(F.np.ones_like(label), axis=-1)   # int64, as the labels
            weights = F.npx.sequence_mask(weights, valid_len, True, axis=1)
            return super().hybrid_forward(F, pred, label, weights)
    loss = MaskedCE()
    pred = np.array(onp.sin(onp.arange(3 * 4 * 5)).reshape(3, 4, 5), dtype="float32")
    label = np.array(onp.arange(12).reshape(3, 4) % 5)
    valid_len = np.array([4, 2, 0])
    # 1.9.1: float32 [2.2119100093841553, 1.234179973602295, 0.0], imperative and hybridized
    for _ in range(2):
        out = loss(pred, label, valid_len)
        assert out.dtype == onp.float32
        onp.testing.assert_allclose(out.asnumpy(), [2.2119100093841553, 1.234179973602295, 0.0],
                                    rtol=1e-5)
        loss.hybridize()
