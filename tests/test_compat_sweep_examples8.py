"""Small MXNet 1.9.1 user scripts (round 8): everything they print, checked against MXNet 1.9.1.

Areas: ``gluon.contrib.estimator`` (EarlyStoppingHandler with patience / baseline, CheckpointHandler
with ``max_checkpoints``, ``batch_period`` and ``resume_from_checkpoint``, the symbol file written for
a net whose deferred shapes were inferred, ValidationHandler periods, StoppingHandler, custom
handlers on every event, ``fit(batches=)``, ``batch_axis``, LoggingHandler lines, the errors of
common mistakes); ``gluon.contrib.rnn`` cells (Conv1DLSTMCell, Conv2DGRUCell with gradients,
LSTMPCell hybridized, VariationalDropoutCell) with seeded initializers; ``gluon.contrib.cnn.
DeformableConvolution`` forward / backward and with more deformable groups than filters;
``nd.contrib.quantize_v2`` / ``quantize`` / ``dequantize`` / ``requantize``;
``contrib.quantization.quantize_model`` with calib_mode 'none' and 'naive'; ``contrib.amp``
(``convert_model``, ``convert_symbol`` and its AssertionError, ``convert_hybrid_block``);
``mx.runtime.Features`` printing; ``AttrScope`` (hidden keys such as ``ctx_group`` / ``lr_mult``),
``mx.name.Prefix`` and NameManager names of symbols and blocks; ``mx.util`` NumPy-semantics scopes,
decorators and their log lines; ``mx.test_utils.check_symbolic_forward`` / ``backward`` /
``check_numeric_gradient`` / ``assert_almost_equal`` failure texts; ``mx.rnn.encode_sentences`` and
``BucketSentenceIter`` (seeded shuffles, 'TN' layout); ``mx.image.ImageIter`` from a .lst file with
an aug_list, mean/std and the three last_batch_handle modes; ``ImageDetIter`` (aug_list,
``sync_label_shape``, ``reshape``, ``CreateDetAugmenter``); rare vision transforms (CropResize,
Rotate with zoom, RandomRotation); detection ops (box_nms options, box_iou, box_encode/decode,
bipartite_matching, MultiBoxPrior/Target/Detection, Proposal/MultiProposal, ROIAlign,
ROIPooling); ``mx.mon.Monitor`` on a Module; SequentialModule and PythonLossModule; SVRGModule;
small ``nd.contrib`` ops (index_copy, boolean_mask with a gradient, arange_like, allclose,
gradientmultiplier, quadratic, getnnz, edge_id, round_ste / sign_ste) and IntervalSampler; the
exception classes of ``NDArray.reshape`` to a size that does not fit (ValueError, and MXNetError
while autograd records); a custom estimator ``BatchProcessor`` with handler priorities; seeded
colour transforms (RandomHue / Saturation / Brightness / Contrast / ColorJitter / Lighting,
RandomResizedCrop, RandomApply); ``mx.test_utils`` helpers (``rand_ndarray``, ``environment``,
``check_consistency``, tolerances, ``assert_almost_equal`` with NaN); ``ImageFolderDataset`` with
``transform_first``, ``filter`` / ``shard`` / ``take``; the legacy ``mx.rnn`` cells (Sequential,
Residual, Zoneout, Bidirectional, ConvLSTM, FusedRNNCell ``unfuse`` / ``pack_weights``) and
``save_rnn_checkpoint`` / ``load_rnn_checkpoint``; the exception classes of mistakes in quantization,
detection ops, iterators and the estimator (``from mxnet.image.image import ImageIter`` included);
rare optimizers through a Trainer (LARS, Signum, FTML, Nadam, AdaDelta, Adamax, LAMB, Poly and
Cosine schedules); an SSD-style graph from the ``mx.contrib.sym`` / ``mx.contrib.nd`` aliases;
Module ``state_names`` / ``fixed_param_names`` / ``inputs_need_grad`` / ``set_states`` with
``mx.metric.np``, Perplexity and Loss metrics; ``save_parameters(deduplicate=True)`` and
``load_parameters`` with ``allow_missing`` / ``cast_dtype`` / ``dtype_source``, ``strip_prefix``.

Each ``script_*`` function is a script as a user would write it; the expected text is what
MXNet 1.9.1 printed for the same function (stdout plus INFO log lines, each script run alone in a
fresh process and NameManager, its temporary directory shown as ``<tmp>``, the timings of
``Finished in``, ``time/interval``, ``Time cost=`` and ``using total`` masked). Images are written as
PNG by the scripts themselves, so the decoded pixels are exact.

Recorded with care, and left out on purpose:

- ``script_quantize_model`` was recorded with ``MXNET_SUBGRAPH_BACKEND=NONE``, the unfused graph
  this implementation builds (mxnet/contrib/quantization.py). With its default oneDNN backend,
  1.9.1 fuses conv+relu and FC while collecting the calibration statistics, so the layer names
  'conv0_output' / 'fc0_output' are never seen and only the data node gets calibrated ranges.
- ``quantize_net``'s outputs: 1.9.1 always runs it through the fused ``_sg_mkldnn_conv`` /
  ``_sg_mkldnn_fully_connected`` kernels (which also take int8 data); those are not emulated.
- the values ``Features()`` reports for MKLDNN, OPENCV, PROFILER, SIGNAL_HANDLER, INT64_TENSOR_SIZE
  (they describe what this installation provides, see mxnet/runtime.py);
- ``requantize`` of int32 data whose largest magnitude rounds to 2**31 (1.9.1 flips the output's
  sign; mxnet/operator/contrib_quantize.py copies it), a Monitor reading the data gradient of a
  layer whose input needs none (1.9.1 reads a buffer it never wrote), ``nd.reshape`` to a shape
  of another size (1.9.1 returns garbage), 1.9.1's message bugs ('Invalid layout %s', a bare
  ``max() arg is an empty sequence`` when every sentence is discarded), the messages of the
  quantization errors (reworded here), and C-level error messages (only the exception classes
  are compared).
"""
import re

import pytest

import mxnet as mx

from ._printed import restore_random_state, run_printed  # noqa: F401 (the fixture)


pytestmark = pytest.mark.usefixtures("restore_random_state")

_TIMING = re.compile(r"(Finished in |time/interval: |Time cost=|using total )[0-9.]+")


def _check(fn, tmp_path):
    was_array, was_shape = mx.util.is_np_array(), mx.util.is_np_shape()
    try:
        got = _TIMING.sub(r"\1<t>", run_printed(fn, tmp_path))
    finally:  # a script that switches NumPy semantics on and fails leaves them as they were
        if not was_array and not was_shape:
            mx.util.reset_np()
        elif not was_array:
            mx.util.set_np_array(False)
    assert got.splitlines() == EXPECTED[fn.__name__].splitlines()


# ---------------------------------------------------------------------------------------------
# the scripts


def script_estimator_early_stop(tmp):
    import mxnet as mx
    from mxnet import gluon, nd
    from mxnet.gluon.contrib.estimator import Estimator, EarlyStoppingHandler, CheckpointHandler

    mx.random.seed(5)
    x = nd.array([[i % 3, (i * 7) % 5, i % 2, 1.0] for i in range(24)]) / 4.0
    y = nd.array([i % 3 for i in range(24)])
    train = gluon.data.DataLoader(gluon.data.ArrayDataset(x, y), batch_size=8)
    val = gluon.data.DataLoader(gluon.data.ArrayDataset(x[:12], y[:12]), batch_size=6)
    net = gluon.nn.Dense(3)
    net.initialize(mx.init.Xavier())
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5})
    est = Estimator(
        net,
        loss=gluon.loss.SoftmaxCrossEntropyLoss(),
        train_metrics=mx.metric.Accuracy(),
        val_metrics=mx.metric.Accuracy(),
        trainer=trainer,
        context=mx.cpu(),
    )
    print(type(est.train_metrics[0]).__name__, est.train_metrics[0].name, est.val_metrics[0].name)
    es = EarlyStoppingHandler(monitor=est.train_metrics[0], min_delta=0.0, patience=1, mode="max")
    ck = CheckpointHandler(
        tmp, model_prefix="net", monitor=est.train_metrics[0], mode="max", epoch_period=1, max_checkpoints=2
    )
    est.fit(train, val_data=val, epochs=6, event_handlers=[es, ck])
    print("stopped", es.stopped_epoch, es.current_epoch, es.stop_training, es.best)
    import os

    print(sorted(os.listdir(tmp)))
    for p in net.collect_params().values():
        print(p.name, p.data().asnumpy().round(4).tolist())
    est.evaluate(val)
    print([(m.get()) for m in est.val_metrics])


def script_estimator_batches_and_handlers(tmp):
    import mxnet as mx
    from mxnet import gluon, nd
    from mxnet.gluon.contrib.estimator import (
        Estimator,
        LoggingHandler,
        BatchEnd,
        EpochEnd,
        TrainBegin,
        TrainEnd,
    )

    mx.random.seed(7)
    x = nd.arange(40).reshape((20, 2)) / 40.0
    y = (x[:, 0] * 2 - x[:, 1] + 0.5).reshape((20, 1))
    train = gluon.data.DataLoader(gluon.data.ArrayDataset(x, y), batch_size=5)
    net = gluon.nn.Dense(1)
    net.initialize(mx.init.Normal(0.1))
    est = Estimator(
        net,
        loss=gluon.loss.L2Loss(),
        train_metrics=[mx.metric.MAE(), mx.metric.RMSE()],
        trainer=gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 0.1}),
    )

    class Rec(BatchEnd, EpochEnd, TrainBegin, TrainEnd):
        def __init__(self):
            self.n = 0

        def train_begin(self, estimator, *a, **k):
            print("begin", estimator.max_epoch, estimator.max_batch)

        def batch_end(self, estimator, *a, **k):
            self.n += 1
            print(
                "batch",
                self.n,
                k["loss"][0].asnumpy().round(4).tolist()[:2] if isinstance(k["loss"], list) else None,
            )

        def epoch_end(self, estimator, *a, **k):
            print("epoch", [(m.name, round(m.get()[1], 4)) for m in estimator.train_metrics])

        def train_end(self, estimator, *a, **k):
            print("end", self.n)

    est.fit(train, batches=7, event_handlers=[Rec(), LoggingHandler(log_interval=2)])
    print(net.weight.data().asnumpy().round(4).tolist(), net.bias.data().asnumpy().round(4).tolist())
    print(est.train_metrics[0].name, est.train_metrics[1].name)


def script_estimator_mistakes(tmp):
    from mxnet import gluon, nd
    from mxnet.gluon.contrib.estimator import Estimator

    net = gluon.nn.Dense(2)
    try:
        Estimator(net, loss="l2")
    except Exception as e:
        print(type(e).__name__, e)
    net.initialize()
    est = Estimator(net, loss=gluon.loss.L2Loss())
    print(
        type(est.trainer).__name__, est.trainer.learning_rate, [type(m).__name__ for m in est.train_metrics]
    )
    try:
        est.fit([1, 2], epochs=1)
    except Exception as e:
        print(type(e).__name__, e)
    try:
        est.fit(
            gluon.data.DataLoader(gluon.data.ArrayDataset(nd.ones((4, 3)), nd.ones((4, 2))), batch_size=2),
            epochs=1,
            batches=2,
        )
    except Exception as e:
        print(type(e).__name__, e)


def script_ckpt_sym(tmp):
    import os

    import mxnet as mx
    from mxnet import gluon, nd
    from mxnet.gluon.contrib.estimator import Estimator, CheckpointHandler

    mx.random.seed(1)
    x = nd.arange(24).reshape((8, 3)) / 24.0
    y = nd.array([0, 1] * 4)
    train = gluon.data.DataLoader(gluon.data.ArrayDataset(x, y), batch_size=4)
    for kind in range(4):
        d = os.path.join(tmp, str(kind))
        os.makedirs(d)
        if kind == 0:
            net = gluon.nn.Dense(2)
        elif kind == 1:
            net = gluon.nn.HybridSequential()
            net.add(gluon.nn.Dense(4, activation="relu"), gluon.nn.Dense(2))
        elif kind == 2:
            net = gluon.nn.Dense(2, in_units=3)
        else:
            net = gluon.nn.HybridSequential()
            net.add(gluon.nn.Dense(4), gluon.nn.Dense(2))
            net.hybridize()
        net.initialize()
        est = Estimator(
            net, loss=gluon.loss.SoftmaxCrossEntropyLoss(), trainer=gluon.Trainer(net.collect_params(), "sgd")
        )
        est.fit(train, epochs=1, event_handlers=[CheckpointHandler(d, model_prefix="m")])
        print(kind, sorted(os.listdir(d)))
        if os.path.exists(os.path.join(d, "m-symbol.json")):
            print(open(os.path.join(d, "m-symbol.json")).read())


def script_conv_rnn_cells(tmp):
    import mxnet as mx
    from mxnet import nd, autograd
    from mxnet.gluon.contrib import rnn as crnn

    mx.random.seed(11)
    cell = crnn.Conv1DLSTMCell(input_shape=(2, 6), hidden_channels=3, i2h_kernel=3, h2h_kernel=3, i2h_pad=1)
    print(cell)
    cell.initialize(mx.init.Xavier())
    x = nd.arange(3 * 2 * 2 * 6).reshape((3, 2, 2, 6)) / 50.0 - 0.7
    out, st = cell.unroll(2, x, layout="NTC", merge_outputs=True)
    print(out.shape, [s.shape for s in st])
    print(out[0, 0].asnumpy().round(5).tolist())
    print(st[1].asnumpy().sum().round(4))
    g = crnn.Conv2DGRUCell(
        input_shape=(1, 4, 4),
        hidden_channels=2,
        i2h_kernel=(3, 3),
        h2h_kernel=(3, 3),
        i2h_pad=(1, 1),
        activation="tanh",
    )
    print(g)
    g.initialize(mx.init.Uniform(0.3))
    xs = [nd.ones((2, 1, 4, 4)) * (t + 1) / 4.0 for t in range(2)]
    with autograd.record():
        outs, states = g.unroll(2, xs, layout="TNC", merge_outputs=False)
        loss = outs[-1].sum()
    loss.backward()
    print(len(outs), outs[-1].shape, outs[-1][1, 1].asnumpy().round(5).tolist())
    print({k: v.grad().asnumpy().sum().round(4).item() for k, v in sorted(g.collect_params().items())})
    print(g.state_info(2))


def script_lstmp_vardrop(tmp):
    import mxnet as mx
    from mxnet import nd, gluon
    from mxnet.gluon.contrib import rnn as crnn

    mx.random.seed(3)
    c = crnn.LSTMPCell(hidden_size=5, projection_size=3, input_size=4)
    print(c)
    c.initialize(mx.init.Normal(0.2))
    print(sorted((k, v.shape) for k, v in c.collect_params().items()))
    x = nd.arange(2 * 3 * 4).reshape((2, 3, 4)) / 10.0
    out, st = c.unroll(3, x, layout="NTC", merge_outputs=True)
    print(out.asnumpy().round(5).tolist())
    print([s.shape for s in st], st[1].asnumpy().round(5).tolist())
    c.hybridize()
    out2, _ = c.unroll(3, x, layout="NTC", merge_outputs=True)
    print(abs(out2 - out).max().asscalar())
    base = gluon.rnn.GRUCell(4, input_size=4)
    v = crnn.VariationalDropoutCell(base, drop_inputs=0.5, drop_states=0.3, drop_outputs=0.2)
    print(v)
    v.initialize(mx.init.One())
    with mx.autograd.train_mode():
        o, s = v.unroll(3, x, layout="NTC", merge_outputs=True)
    print(o.asnumpy().round(4).tolist())
    o2, s2 = v.unroll(3, x, layout="NTC", merge_outputs=True)
    print(o2.asnumpy().round(4).tolist())
    v.reset()


def script_deformable_conv(tmp):
    import mxnet as mx
    from mxnet import nd, autograd
    from mxnet.gluon.contrib.cnn import DeformableConvolution

    mx.random.seed(2)
    net = DeformableConvolution(
        4,
        kernel_size=(3, 3),
        padding=(1, 1),
        num_deformable_group=1,
        offset_weight_initializer=mx.init.Uniform(0.1),
        offset_use_bias=True,
    )
    print(net)
    net.initialize(mx.init.Xavier())
    x = (nd.arange(2 * 3 * 5 * 5).reshape((2, 3, 5, 5)) % 7) / 7.0
    x.attach_grad()
    with autograd.record():
        y = net(x)
        l = (y * y).sum()
    l.backward()
    print(y.shape, y[0, 0].asnumpy().round(4).tolist())
    print(x.grad[1, 2].asnumpy().round(4).tolist())
    print(
        sorted(
            (k, v.shape, round(float(v.grad().sum().asscalar()), 3)) for k, v in net.collect_params().items()
        )
    )
    net2 = DeformableConvolution(
        2, kernel_size=3, strides=2, num_deformable_group=3, in_channels=3, activation="relu", use_bias=False
    )
    print(net2)
    net2.initialize(mx.init.One())
    print(net2(x).asnumpy().round(3).tolist())


def script_quantize_ops(tmp):
    from mxnet import nd

    x = nd.array([[-1.5, -0.2, 0.0, 0.3], [0.9, 1.2, 2.7, -3.1]])
    q, mn, mxv = nd.contrib.quantize_v2(x, out_type="int8")
    print(q, mn, mxv)
    q2, mn2, mx2 = nd.contrib.quantize_v2(x, out_type="uint8", min_calib_range=-2.0, max_calib_range=2.0)
    print(q2, mn2, mx2)
    q3, a, b = nd.contrib.quantize_v2(x.abs(), out_type="auto")
    print(q3.dtype, q3, a, b)
    q4, a4, b4 = nd.contrib.quantize(x, nd.array([-4.0]), nd.array([4.0]), out_type="uint8")
    print(q4, a4, b4)
    d = nd.contrib.dequantize(q, mn, mxv)
    print(d)
    d2 = nd.contrib.dequantize(q2, mn2, mx2, out_type="float32")
    print(d2)
    acc = nd.array([[100000, -250000], [3, 2000000000]], dtype="int32")
    r, rmin, rmax = nd.contrib.requantize(acc, nd.array([-1000.0]), nd.array([1000.0]))
    print(r, rmin, rmax)
    r2, a2, b2 = nd.contrib.requantize(
        acc, nd.array([-1000.0]), nd.array([1000.0]), min_calib_range=-0.5, max_calib_range=0.5
    )
    print(r2, a2, b2)


def script_features(tmp):
    import mxnet as mx

    f = mx.runtime.Features()
    print(type(f).__name__, len(f) > 10)
    for k in ["LAPACK", "DEBUG", "TVM_OP", "CAFFE"]:
        print(k, f.is_enabled(k), repr(f[k]))
    try:
        f.is_enabled("NOPE")
    except Exception as e:
        print(type(e).__name__, e)
    fl = mx.runtime.feature_list()
    print(type(fl).__name__, type(fl[21]).__name__, fl[21].name, fl[21].enabled, repr(fl[21]))
    print(sorted(f.keys())[:6])
    print(mx.__version__, mx.runtime.Feature.__name__)


def script_attr_name_scopes(tmp):
    import mxnet as mx
    from mxnet import gluon

    with mx.attribute.AttrScope(group="4", data="great"):
        a = mx.sym.var("a", attr={"dtype": "data", "group": "1"})
        b = mx.sym.var("b")
    with mx.attribute.AttrScope(ctx_group="dev1", lr_mult="2"):
        c = mx.sym.FullyConnected(b, num_hidden=3, name="fc")
        with mx.attribute.AttrScope(ctx_group="dev2"):
            c = mx.sym.relu(c, name="r")
    print(a.attr("group"), a.attr("data"), b.list_attr(), sorted(c.attr_dict().items()))
    with mx.name.Prefix("mynet_"):
        d = mx.sym.Convolution(mx.sym.var("data"), kernel=(3, 3), num_filter=2)
        e = mx.sym.Activation(d, act_type="relu")
        f = mx.sym.FullyConnected(e, num_hidden=2)
    print(f.list_arguments(), e.name, d.name)
    with mx.name.NameManager():
        g = mx.sym.FullyConnected(mx.sym.var("x"), num_hidden=2)
        h = mx.sym.FullyConnected(g, num_hidden=2)
        print(g.name, h.name, (g + h).name, mx.sym.relu(h).name)
    k = mx.sym.FullyConnected(mx.sym.var("x"), num_hidden=2)
    print(k.name)
    net = gluon.nn.HybridSequential(prefix="model_")
    with net.name_scope():
        net.add(gluon.nn.Dense(3), gluon.nn.Conv2D(2, 3), gluon.nn.Dense(4, prefix="out_"))
    print([p for p in net.collect_params().keys()])
    net2 = gluon.nn.HybridSequential()
    net2.add(gluon.nn.Dense(3))
    print(net2.prefix, net2[0].prefix, list(net2.collect_params().keys()))
    with mx.name.Prefix("pp_"):
        blk = gluon.nn.Dense(2)
    print(blk.prefix, blk.name)


def script_np_scopes(tmp):
    import mxnet as mx
    from mxnet import nd, np as mnp, npx

    print(mx.util.is_np_array(), mx.util.is_np_shape())
    with mx.util.np_shape(True):
        print(mx.util.is_np_shape())
        a = nd.ones((0, 3))
        print(a.shape, a)
        s = nd.array(3.0).reshape(())
        print(s.shape, s)
    print(mx.util.is_np_shape())
    with mx.util.np_array(True):
        print(mx.util.is_np_array(), mx.util.is_np_shape())
    npx.set_np()
    print(mx.util.is_np_array(), mx.util.is_np_shape())
    x = mnp.array([[1, 2], [3, 4]])
    print(x, type(x).__name__, x.dtype)
    print(mnp.ones((2,), dtype="int32"), mnp.zeros((1, 0)))
    print(repr(mnp.array(5.0)), mnp.array([True, False]))
    npx.reset_np()
    print(mx.util.is_np_array(), mx.util.is_np_shape())

    @mx.util.use_np
    class B(mx.gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return F.np.sum(x * 2, axis=0)

    b = B()
    print(mx.util.is_np_array())
    y = b(mnp.array([[1.0, 2.0], [3.0, 4.0]]))
    print(y, type(y).__name__)

    @mx.util.use_np_shape
    def f(x):
        return mx.util.is_np_shape(), x.shape

    print(f(nd.ones((2, 3))), mx.util.is_np_shape())
    mx.util.set_np(shape=True, array=False)
    print(mx.util.is_np_array(), mx.util.is_np_shape())
    mx.util.reset_np()
    try:
        mx.util.set_np(shape=False, array=True)
    except Exception as e:
        print(type(e).__name__, e)
    print(mx.util.is_np_array(), mx.util.is_np_shape())
    mx.util.reset_np()


def script_quantize_model(tmp):
    import mxnet as mx
    import numpy as np
    from mxnet.contrib import quantization

    data = mx.sym.var("data")
    c = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, pad=(1, 1), name="conv0")
    r = mx.sym.Activation(c, act_type="relu", name="relu0")
    p = mx.sym.Pooling(r, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool0")
    f = mx.sym.flatten(p, name="flat0")
    fc = mx.sym.FullyConnected(f, num_hidden=3, name="fc0")
    sym = mx.sym.SoftmaxOutput(fc, name="softmax")
    rs = np.random.RandomState(0)
    args = {
        "conv0_weight": mx.nd.array(rs.randint(-4, 5, (4, 1, 3, 3)) / 8.0),
        "conv0_bias": mx.nd.array(rs.randint(-2, 3, (4,)) / 16.0),
        "fc0_weight": mx.nd.array(rs.randint(-4, 5, (3, 64)) / 16.0),
        "fc0_bias": mx.nd.array(rs.randint(-2, 3, (3,)) / 16.0),
    }
    qsym, qargs, qaux = quantization.quantize_model(
        sym, args, {}, ctx=mx.cpu(), calib_mode="none", quantized_dtype="int8", excluded_sym_names=["fc0"]
    )
    print(qsym.list_arguments())
    print([n["op"] for n in __import__("json").loads(qsym.tojson())["nodes"]])
    print(sorted((k, v.dtype.__name__, v.shape) for k, v in qargs.items()))
    x = mx.nd.array(rs.randint(0, 9, (5, 1, 8, 8)) / 8.0)
    it = mx.io.NDArrayIter(x, mx.nd.zeros((5,)), batch_size=5)
    qsym2, qargs2, _ = quantization.quantize_model(
        sym,
        args,
        {},
        ctx=mx.cpu(),
        calib_mode="naive",
        calib_data=it,
        num_calib_examples=5,
        quantized_dtype="auto",
    )
    print([n["name"] for n in __import__("json").loads(qsym2.tojson())["nodes"] if n["op"] != "null"])
    print(
        sorted(
            (n["name"], sorted(n.get("attrs", {}).items()))
            for n in __import__("json").loads(qsym2.tojson())["nodes"]
            if "calib" in str(n.get("attrs", {}))
        )
    )
    ex = qsym2.bind(mx.cpu(), dict(qargs2, data=x, softmax_label=mx.nd.zeros((5,))), grad_req="null")
    out = ex.forward()[0]
    print(out.asnumpy().round(3).tolist())
    ex0 = sym.bind(mx.cpu(), dict(args, data=x, softmax_label=mx.nd.zeros((5,))), grad_req="null")
    print(ex0.forward()[0].asnumpy().round(3).tolist())


def script_amp(tmp):
    import mxnet as mx
    from mxnet import gluon, nd
    from mxnet.contrib import amp

    data = mx.sym.var("data")
    fc = mx.sym.FullyConnected(data, num_hidden=4, name="fc1")
    act = mx.sym.Activation(fc, act_type="relu", name="relu1")
    sm = mx.sym.softmax(act, name="sm")
    out = mx.sym.Group([sm, mx.sym.exp(act, name="e")])
    args = {"fc1_weight": nd.ones((4, 3)) * 0.25, "fc1_bias": nd.zeros((4,))}
    s2, a2, x2 = amp.convert_model(out, args, {}, target_dtype="float16", cast_optional_params=True)
    import json

    for n in json.loads(s2.tojson())["nodes"]:
        print(n["op"], n["name"], n.get("attrs", {}))
    print(sorted((k, v.dtype.__name__) for k, v in a2.items()))
    try:
        amp.convert_symbol(out, target_dtype="float16", fp32_ops=["FullyConnected"])
    except AssertionError:
        print("AssertionError")
    s3 = amp.convert_symbol(out, target_dtype="float16", fp32_ops=["exp"], excluded_sym_names=["sm"])
    print([(n["op"], n["name"]) for n in json.loads(s3.tojson())["nodes"]])
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(4, in_units=3), gluon.nn.Activation("relu"), gluon.nn.Dense(2, in_units=4))
    net.initialize(mx.init.One())
    net.hybridize()
    x = nd.array([[1, 2, 3], [0.5, -1, 2]])
    print(net(x))
    n2 = amp.convert_hybrid_block(net, target_dtype="float16", cast_optional_params=True, ctx=mx.cpu())
    print(type(n2).__name__)
    print(sorted((k, v.dtype.__name__) for k, v in n2.collect_params().items()))
    print(amp.list_lp16_ops("float16")[:5], len(amp.list_fp32_ops("float16")) > 10)


def script_numeric_checks(tmp):
    import mxnet as mx
    import numpy as np
    from mxnet.test_utils import (
        check_symbolic_forward,
        check_symbolic_backward,
        check_numeric_gradient,
        assert_almost_equal,
    )

    x = mx.sym.var("x")
    y = mx.sym.var("y")
    z = x * y + mx.sym.sin(x)
    xv = np.array([[0.5, 1.0], [1.5, -2.0]], dtype=np.float32)
    yv = np.array([[2.0, -1.0], [0.25, 3.0]], dtype=np.float32)
    check_symbolic_forward(z, {"x": xv, "y": yv}, [xv * yv + np.sin(xv)])
    print("forward ok")
    check_symbolic_backward(z, {"x": xv, "y": yv}, [np.ones((2, 2))], {"x": yv + np.cos(xv), "y": xv})
    print("backward ok")
    try:
        check_symbolic_forward(z, {"x": xv, "y": yv}, [xv * yv])
    except AssertionError as e:
        print("forward fail:", str(e).splitlines()[0][:200])
    try:
        check_symbolic_backward(z, [xv, yv], [np.ones((2, 2))], [yv, xv])
    except AssertionError as e:
        print("backward fail:", str(e).splitlines()[0][:200])
    np.random.seed(0)
    check_numeric_gradient(
        z,
        {"x": xv.astype(np.float64), "y": yv.astype(np.float64)},
        numeric_eps=1e-4,
        rtol=1e-2,
        dtype=np.float64,
    )
    print("numeric ok")
    try:
        assert_almost_equal(
            np.array([1.0, 2.0]), np.array([1.0, 2.1]), rtol=1e-3, atol=1e-5, names=("a", "b")
        )
    except AssertionError as e:
        print([l for l in str(e).splitlines() if l.strip()][:3])
    out = check_symbolic_forward(z, {"x": xv, "y": yv}, [xv * yv + np.sin(xv)], rtol=1e-4, atol=1e-5)
    print(type(out).__name__, len(out), out[0].dtype)


def script_bucket_sentences(tmp):
    import mxnet as mx
    import random
    import numpy as np

    random.seed(4)
    np.random.seed(4)
    sents = [
        ["the", "cat", "sat"],
        ["a", "dog"],
        ["the", "dog", "ran", "far", "away"],
        ["cat"],
        ["a", "cat", "ran"],
        ["the", "end", "is", "near", "now", "yes"],
    ]
    coded, vocab = mx.rnn.encode_sentences(sents, invalid_label=-1, invalid_key="\n", start_label=0)
    print(coded)
    print(sorted(vocab.items(), key=lambda kv: kv[1]))
    it = mx.rnn.BucketSentenceIter(coded, batch_size=2, buckets=[3, 6], invalid_label=-1)
    print(it.default_bucket_key, it.provide_data, it.provide_label)
    print(it.buckets, [b.shape for b in it.data], it.idx)
    for b in it:
        print(b.bucket_key, b.data[0].asnumpy().tolist(), b.label[0].asnumpy().tolist(), b.provide_data)
    it.reset()
    it2 = mx.rnn.BucketSentenceIter(
        coded, batch_size=2, invalid_label=0, layout="TN", data_name="d", label_name="l"
    )
    print(it2.buckets, it2.provide_data, it2.default_bucket_key)
    for b in it2:
        print(b.bucket_key, b.data[0].shape)
    try:
        mx.rnn.encode_sentences([["zz"]], vocab={"a": 0})
    except Exception as e:
        print(type(e).__name__, e)
    try:
        mx.rnn.encode_sentences([["q", "r"], ["r"]], vocab={"a": 5}, start_label=1)
    except AssertionError as e:
        print("AssertionError", e)
    c3, v3 = mx.rnn.encode_sentences([["q", "r"], ["r"]], start_label=1, invalid_label=0)
    print(c3, sorted(v3.items()))


def _write_png(path, img):
    import struct
    import zlib

    h, w, _ = img.shape
    raw = b"".join(b"\x00" + img[r].tobytes() for r in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    with open(path, "wb") as f:
        f.write(
            b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b"")
        )


def _make_images(tmp):
    import os
    import numpy as np

    rs = np.random.RandomState(7)
    lines = []
    for i in range(5):
        h, w = 10 + 2 * i, 14 - i
        img = rs.randint(0, 256, (h, w, 3)).astype(np.uint8)
        name = "img%d.png" % i
        _write_png(os.path.join(tmp, name), img)
        lines.append("%d\t%f\t%f\t%s" % (i, i % 3, (i * 2) % 5, name))
    with open(os.path.join(tmp, "data.lst"), "w") as f:
        f.write("\n".join(lines) + "\n")


def script_imageiter_lst(tmp):
    import os
    import mxnet as mx

    _make_images(tmp)
    augs = [
        mx.image.ForceResizeAug((8, 8)),
        mx.image.CenterCropAug((6, 6)),
        mx.image.CastAug(),
        mx.image.ColorNormalizeAug(mx.nd.array([100.0, 110.0, 120.0]), mx.nd.array([50.0, 60.0, 70.0])),
    ]
    it = mx.image.ImageIter(
        batch_size=2,
        data_shape=(3, 6, 6),
        label_width=2,
        path_imglist=os.path.join(tmp, "data.lst"),
        path_root=tmp,
        aug_list=augs,
        last_batch_handle="pad",
    )
    print(it.provide_data, it.provide_label)
    for b in it:
        d = b.data[0].asnumpy()
        print(
            b.pad,
            b.label[0].asnumpy().tolist(),
            d.shape,
            d.sum().round(2),
            d[0, :, 0, 0].round(4).tolist(),
            b.index,
        )
    it.reset()
    it2 = mx.image.ImageIter(
        batch_size=3,
        data_shape=(3, 4, 4),
        path_imglist=os.path.join(tmp, "data.lst"),
        path_root=tmp,
        resize=5,
        rand_crop=False,
        mean=True,
        std=True,
        last_batch_handle="discard",
        label_width=2,
    )
    for b in it2:
        d = b.data[0].asnumpy()
        print(d.shape, d.mean().round(4), d[1, 1].round(3).tolist())
    it3 = mx.image.ImageIter(
        batch_size=2,
        data_shape=(3, 5, 5),
        path_imglist=os.path.join(tmp, "data.lst"),
        path_root=tmp,
        aug_list=[mx.image.ForceResizeAug((5, 5))],
        last_batch_handle="roll_over",
        label_width=2,
    )
    n = 0
    for b in it3:
        n += 1
        print("roll", b.pad, b.label[0].asnumpy()[:, 0].tolist())
    it3.reset()
    for b in it3:
        print("roll2", b.pad, b.label[0].asnumpy()[:, 0].tolist())
    try:
        mx.image.ImageIter(batch_size=2, data_shape=(3, 5, 5))
    except Exception as e:
        print(isinstance(e, AssertionError))
    try:
        mx.image.ImageIter(batch_size=2, data_shape=(5, 5), path_imglist=os.path.join(tmp, "data.lst"))
    except Exception as e:
        print(type(e).__name__, e)


def script_transforms_rare(tmp):
    import mxnet as mx
    import numpy as np
    from mxnet.gluon.data.vision import transforms as T

    rs = np.random.RandomState(3)
    img = mx.nd.array(rs.randint(0, 256, (6, 7, 3)), dtype="uint8")
    fimg = img.astype("float32") / 255.0
    print(T.CropResize(1, 1, 4, 3)(img).asnumpy()[:, :, 0].tolist())
    print(T.CropResize(0, 0, 5, 4, size=(3, 2), interpolation=1)(img).asnumpy()[:, :, 1].tolist())
    r = T.Rotate(30)(fimg.transpose((2, 0, 1)))
    print(r.shape, r[0].asnumpy().round(4).tolist())
    r2 = T.Rotate(-45, zoom_in=True)(fimg.transpose((2, 0, 1)))
    print(r2[1].asnumpy().round(4).tolist())
    r3 = T.Rotate(90, zoom_out=True)(fimg.transpose((2, 0, 1)))
    print(r3[2].asnumpy().round(4).tolist())
    mx.random.seed(5)
    np.random.seed(5)
    import random

    random.seed(5)
    rr = T.RandomRotation((-20, 20), rotate_with_proba=1.0)
    out = rr(fimg.transpose((2, 0, 1)))
    print(out.shape, out.dtype)
    print(T.Compose([T.Resize(4), T.CenterCrop(3), T.ToTensor()])(img).asnumpy().round(4).tolist())
    print(T.Resize((5, 3), keep_ratio=True)(img).shape, T.Resize(5, keep_ratio=True)(img).shape)
    print(
        T.Normalize(mean=(0.5, 0.4, 0.3), std=(0.2, 0.2, 0.2))(T.ToTensor()(img))[2]
        .asnumpy()
        .round(4)
        .tolist()
    )
    try:
        T.Rotate(30)(img)
    except Exception as e:
        print(type(e).__name__, str(e)[:150])
    try:
        T.CropResize(5, 5, 4, 4)(img)
    except Exception as e:
        print(isinstance(e, mx.base.MXNetError))


def script_box_ops(tmp):
    from mxnet import nd

    boxes = nd.array(
        [
            [
                [0, 0.9, 10, 10, 50, 50],
                [0, 0.8, 12, 12, 52, 52],
                [1, 0.7, 10, 10, 50, 50],
                [0, 0.6, 100, 100, 150, 150],
                [1, 0.95, 11, 11, 49, 49],
                [-1, 0.99, 0, 0, 5, 5],
                [0, 0.05, 0, 0, 3, 3],
            ]
        ]
    )
    print(
        nd.contrib.box_nms(
            boxes, overlap_thresh=0.5, valid_thresh=0.1, topk=-1, coord_start=2, score_index=1, id_index=0
        )
    )
    print(
        nd.contrib.box_nms(
            boxes,
            overlap_thresh=0.5,
            valid_thresh=0.1,
            coord_start=2,
            score_index=1,
            id_index=0,
            force_suppress=True,
            topk=3,
        )
    )
    print(
        nd.contrib.box_nms(
            boxes,
            overlap_thresh=0.5,
            coord_start=2,
            score_index=1,
            id_index=0,
            background_id=0,
            out_format="center",
        )
    )
    print(
        nd.contrib.box_nms(
            boxes,
            overlap_thresh=0.5,
            coord_start=2,
            score_index=1,
            id_index=-1,
            in_format="center",
            out_format="corner",
        )
    )
    a = nd.array([[0, 0, 2, 2], [1, 1, 3, 3], [5, 5, 6, 6]])
    b = nd.array([[1, 1, 2, 2], [0, 0, 3, 3]])
    print(nd.contrib.box_iou(a, b), nd.contrib.box_iou(a, b, format="center"))
    print(
        nd.contrib.box_encode(
            nd.array([[1, 0, -1]]),
            nd.array([[0, 1, 1]]),
            nd.array([[[0, 0, 2, 2], [1, 1, 3, 3], [0, 0, 1, 1]]]),
            nd.array([[[0, 0, 2, 3], [1, 1, 2, 2]]]),
            nd.array([0.0, 0.0, 0.0, 0.0]),
            nd.array([0.1, 0.1, 0.2, 0.2]),
        )
    )
    print(
        nd.contrib.box_decode(
            nd.array([[[0.1, 0.2, 0.3, -0.1], [0, 0, 0, 0]]]),
            nd.array([[[0, 0, 2, 2], [1, 1, 4, 3]]]),
            std0=0.1,
            std1=0.1,
            std2=0.2,
            std3=0.2,
            clip=0.5,
        )
    )
    s = nd.array([[0.5, 0.6, 0.1], [0.3, 0.9, 0.2], [0.05, 0.2, 0.7]])
    print(nd.contrib.bipartite_matching(s, threshold=0.1))
    print(nd.contrib.bipartite_matching(s, threshold=0.25, is_ascend=False, topk=2))
    print(nd.contrib.bipartite_matching(s, threshold=0.3, is_ascend=True))


def script_multibox(tmp):
    from mxnet import nd

    feat = nd.zeros((1, 3, 2, 2))
    anchors = nd.contrib.MultiBoxPrior(
        feat, sizes=[0.5, 0.25], ratios=[1, 2], clip=True, steps=(0.5, 0.5), offsets=(0.5, 0.5)
    )
    print(anchors.shape, anchors[0, :4].asnumpy().round(4).tolist())
    a2 = nd.contrib.MultiBoxPrior(feat, sizes=[0.3], ratios=[1, 0.5, 3])
    print(a2[0].asnumpy().round(4).tolist())
    labels = nd.array([[[0, 0.1, 0.1, 0.4, 0.5], [1, 0.55, 0.5, 0.95, 0.9], [-1, -1, -1, -1, -1]]])
    n = anchors.shape[1]
    cls_preds = nd.array((nd.arange(3 * n).reshape((1, 3, n)) % 5).asnumpy() / 5.0)
    loc_t, loc_m, cls_t = nd.contrib.MultiBoxTarget(
        anchors,
        labels,
        cls_preds,
        overlap_threshold=0.4,
        negative_mining_ratio=1,
        negative_mining_thresh=0.3,
        minimum_negative_samples=1,
        variances=(0.1, 0.1, 0.2, 0.2),
    )
    print(cls_t.asnumpy().tolist())
    print(loc_t.asnumpy().round(4).tolist())
    print(loc_m.asnumpy().sum())
    loc_t2, _, cls_t2 = nd.contrib.MultiBoxTarget(
        anchors, labels, cls_preds, overlap_threshold=0.6, ignore_label=-1
    )
    print(cls_t2.asnumpy().tolist(), loc_t2.asnumpy().round(3).tolist()[0][:8])
    probs = nd.softmax(nd.array((nd.arange(3 * n).reshape((1, 3, n)) % 7).asnumpy()), axis=1)
    locp = nd.array(((nd.arange(4 * n) % 9).asnumpy() - 4) / 20.0).reshape((1, 4 * n))
    det = nd.contrib.MultiBoxDetection(
        probs, locp, anchors, threshold=0.2, nms_threshold=0.45, force_suppress=False, nms_topk=5, clip=True
    )
    print(det.asnumpy().round(4).tolist())
    det2 = nd.contrib.MultiBoxDetection(
        probs, locp, anchors, threshold=0.01, background_id=1, variances=(0.2, 0.2, 0.1, 0.1), clip=False
    )
    print(det2.asnumpy().round(4).tolist())


def script_monitor_module(tmp):
    import mxnet as mx
    import numpy as np

    data = mx.sym.var("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc1")
    act = mx.sym.Activation(fc, act_type="tanh", name="tanh1")
    out = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(act, num_hidden=2, name="fc2"), name="softmax")
    mod = mx.mod.Module(out, context=mx.cpu())
    x = np.arange(24, dtype=np.float32).reshape(6, 4) / 24.0
    y = np.array([0, 1, 0, 1, 1, 0], dtype=np.float32)
    it = mx.io.NDArrayIter(x, y, batch_size=3)
    mod.bind(it.provide_data, it.provide_label)
    mod.init_params(mx.init.Constant(0.1))
    mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.5})
    mon = mx.mon.Monitor(1, pattern="fc1_(weight|bias|output|backward_output[12])|fc2.*", sort=True)
    mod.install_monitor(mon)
    for batch in it:
        mon.tic()
        mod.forward_backward(batch)
        mod.update()
        for r in mon.toc():
            print(r[0], r[1], r[2].strip()[:60])
    mon2 = mx.mon.Monitor(
        2, stat_func=lambda a: mx.nd.max(mx.nd.abs(a)), pattern=".*weight", monitor_all=True
    )
    mod.install_monitor(mon2)
    it.reset()
    for batch in it:
        mon2.tic()
        mod.forward(batch, is_train=True)
        mod.backward()
        mon2.toc_print()
    print(mod.get_params()[0]["fc1_weight"].asnumpy().round(5).tolist())


def script_sequential_python_module(tmp):
    import mxnet as mx
    import numpy as np

    net1 = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=4, name="fc1")
    net1 = mx.sym.Activation(net1, act_type="relu", name="r1")
    net2 = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc2")
    net2 = mx.sym.SoftmaxOutput(net2, name="softmax")
    m1 = mx.mod.Module(net1, label_names=None)
    m2 = mx.mod.Module(net2)
    seq = mx.mod.SequentialModule()
    seq.add(m1).add(m2, take_labels=True, auto_wiring=True)
    x = np.arange(30, dtype=np.float32).reshape(10, 3) / 30.0
    y = (np.arange(10) % 2).astype(np.float32)
    it = mx.io.NDArrayIter(x, y, batch_size=5)
    mx.random.seed(0)
    seq.fit(
        it,
        num_epoch=2,
        initializer=mx.init.Constant(0.2),
        optimizer="sgd",
        optimizer_params={"learning_rate": 0.3},
        eval_metric="acc",
    )
    print(seq.data_names, seq.output_names, seq.label_shapes)
    arg, aux = seq.get_params()
    print(sorted((k, v.asnumpy().round(4).tolist()) for k, v in arg.items()))
    print(seq.score(it, ["acc", "ce"]))
    print(seq.predict(it).asnumpy().round(4).tolist()[:3])

    loss = mx.mod.PythonLossModule(grad_func=lambda scores, labels: scores - labels)
    print(loss.data_names, loss.output_names)


def script_svrg(tmp):
    import mxnet as mx
    import numpy as np
    from mxnet.contrib.svrg_optimization.svrg_module import SVRGModule

    x = np.arange(40, dtype=np.float32).reshape(20, 2) / 40.0
    y = (x[:, 0] * 3 - x[:, 1] * 2 + 0.5).astype(np.float32)
    it = mx.io.NDArrayIter(x, y, batch_size=5, label_name="lin_reg_label")
    data = mx.sym.var("data")
    label = mx.sym.var("lin_reg_label")
    fc = mx.sym.FullyConnected(data, num_hidden=1, name="fc")
    out = mx.sym.LinearRegressionOutput(fc, label, name="lro")
    mod = SVRGModule(out, data_names=["data"], label_names=["lin_reg_label"], update_freq=2)
    mod.fit(
        it,
        num_epoch=4,
        initializer=mx.init.Constant(0.1),
        optimizer="sgd",
        optimizer_params={"learning_rate": 0.2},
        eval_metric="mse",
    )
    arg, _ = mod.get_params()
    print(sorted((k, v.asnumpy().round(5).tolist()) for k, v in arg.items()))
    print(mod.score(it, "mse"))


def script_image_det_iter(tmp):
    import os
    import numpy as np
    import mxnet as mx

    rs = np.random.RandomState(11)
    lines = []
    for i in range(4):
        img = rs.randint(0, 256, (12, 16, 3)).astype(np.uint8)
        _write_png(os.path.join(tmp, "d%d.png" % i), img)
        objs = [[i % 2, 0.1, 0.2, 0.5, 0.6]] + ([[1, 0.4, 0.3, 0.9, 0.8]] if i % 2 else [])
        flat = [x for o in objs for x in o]
        lines.append("\t".join([str(i), "2", "5"] + ["%f" % v for v in flat] + ["d%d.png" % i]))
    with open(os.path.join(tmp, "det.lst"), "w") as f:
        f.write("\n".join(lines) + "\n")
    it = mx.image.ImageDetIter(
        batch_size=2,
        data_shape=(3, 8, 8),
        path_imglist=os.path.join(tmp, "det.lst"),
        path_root=tmp,
        aug_list=[mx.image.DetBorrowAug(mx.image.ForceResizeAug((8, 8))), mx.image.DetHorizontalFlipAug(1.0)],
    )
    print(it.provide_data, it.provide_label)
    for b in it:
        print(b.label[0].asnumpy().round(4).tolist(), b.data[0].asnumpy()[0, 0, 0].tolist())
    it2 = it.sync_label_shape(
        mx.image.ImageDetIter(
            batch_size=2, data_shape=(3, 8, 8), path_imglist=os.path.join(tmp, "det.lst"), path_root=tmp
        )
    )
    print(it2.provide_label)
    it3 = mx.image.ImageDetIter(
        batch_size=2, data_shape=(3, 8, 8), path_imglist=os.path.join(tmp, "det.lst"), path_root=tmp
    )
    it3.reshape(data_shape=(3, 6, 6), label_shape=(4, 5))
    print(it3.provide_data, it3.provide_label)
    augs = mx.image.CreateDetAugmenter(
        (3, 8, 8), resize=10, rand_crop=0, rand_pad=0, rand_mirror=False, mean=True, std=True
    )
    print([type(a).__name__ for a in augs])
    it4 = mx.image.ImageDetIter(
        batch_size=4,
        data_shape=(3, 8, 8),
        path_imglist=os.path.join(tmp, "det.lst"),
        path_root=tmp,
        aug_list=augs,
    )
    b = it4.next()
    print(b.data[0].asnumpy().mean(axis=(0, 2, 3)).round(4).tolist(), b.label[0].shape)


def script_proposal(tmp):
    from mxnet import nd
    import numpy as np

    rs = np.random.RandomState(2)
    A = 3
    cls = nd.array(rs.uniform(0, 1, (2, 2 * A, 4, 5)))
    bbox = nd.array(rs.uniform(-0.2, 0.2, (2, 4 * A, 4, 5)))
    im_info = nd.array([[64, 80, 1.0], [60, 70, 1.5]])
    rois = nd.contrib.MultiProposal(
        cls,
        bbox,
        im_info,
        rpn_pre_nms_top_n=30,
        rpn_post_nms_top_n=6,
        threshold=0.7,
        rpn_min_size=4,
        scales=(2, 4, 8)[:1] + (4, 8)[:0],
        ratios=(0.5, 1, 2),
        feature_stride=16,
    )
    print(rois.shape, rois.asnumpy().round(3).tolist())
    r1, sc = nd.contrib.Proposal(
        cls[:1],
        bbox[:1],
        im_info[:1],
        rpn_pre_nms_top_n=20,
        rpn_post_nms_top_n=5,
        threshold=0.5,
        rpn_min_size=2,
        scales=(4,),
        ratios=(0.5, 1, 2),
        feature_stride=16,
        output_score=True,
    )
    print(r1.asnumpy().round(3).tolist(), sc.asnumpy().round(4).tolist())
    x = nd.array(rs.uniform(0, 1, (1, 2, 6, 6)))
    r = nd.array([[0, 0.5, 0.5, 4.5, 3.5], [0, 1, 1, 5, 5]])
    print(
        nd.contrib.ROIAlign(x, r, pooled_size=(2, 2), spatial_scale=1.0, sample_ratio=2)
        .asnumpy()
        .round(4)
        .tolist()
    )
    print(
        nd.contrib.ROIAlign(x, r, pooled_size=(2, 3), spatial_scale=0.5, sample_ratio=-1, aligned=True)
        .asnumpy()
        .round(4)
        .tolist()
    )
    print(nd.ROIPooling(x, r, pooled_size=(2, 2), spatial_scale=1.0).asnumpy().round(4).tolist())


def script_estimator_val_handlers(tmp):
    import mxnet as mx
    from mxnet import gluon, nd
    from mxnet.gluon.contrib.estimator import (
        Estimator,
        ValidationHandler,
        EarlyStoppingHandler,
        StoppingHandler,
        LoggingHandler,
    )

    mx.random.seed(9)
    x = nd.array([[(i * 3) % 7, (i * 5) % 4] for i in range(16)]) / 7.0
    y = nd.array([(i * 3) % 7 > 3 for i in range(16)])
    train = gluon.data.DataLoader(gluon.data.ArrayDataset(x, y), batch_size=4)
    val = gluon.data.DataLoader(gluon.data.ArrayDataset(x[4:12], y[4:12]), batch_size=4)
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(4, activation="tanh"), gluon.nn.Dense(2))
    net.initialize(mx.init.Xavier(magnitude=2))
    net.hybridize()
    est = Estimator(
        net,
        loss=gluon.loss.SoftmaxCrossEntropyLoss(),
        train_metrics=[mx.metric.Accuracy(), mx.metric.CrossEntropy()],
        val_metrics=mx.metric.Accuracy(),
        trainer=gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 0.05}),
    )
    print([m.name for m in est.train_metrics], [m.name for m in est.val_metrics])
    es = EarlyStoppingHandler(
        monitor=est.val_metrics[0], min_delta=0.01, patience=2, mode="auto", baseline=0.4
    )
    vh = ValidationHandler(val, est.evaluate, epoch_period=2)
    est.fit(
        train,
        val_data=val,
        epochs=8,
        event_handlers=[es, vh, LoggingHandler(log_interval="epoch", metrics=est.train_metrics[:1])],
    )
    print("es", es.stopped_epoch, es.wait, es.best, es.monitor_op.__name__)
    est.fit(train, batches=3, event_handlers=[StoppingHandler(max_batch=2)])
    print([round(float(p.data().sum().asscalar()), 4) for p in net.collect_params().values()])


def script_estimator_batch_axis(tmp):
    import mxnet as mx
    from mxnet import gluon, nd
    from mxnet.gluon.contrib.estimator import Estimator

    mx.random.seed(2)
    x = nd.arange(36).reshape((3, 12, 1)) / 36.0
    y = nd.arange(12).reshape((12, 1)) % 2

    class TNC(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.d = gluon.nn.Dense(1, flatten=False)

        def hybrid_forward(self, F, x):
            return self.d(x).mean(axis=0)

    def batchify(samples):
        xs = nd.stack(*[s[0] for s in samples], axis=1)
        ys = nd.stack(*[s[1] for s in samples], axis=0)
        return xs, ys

    net = TNC()
    net.initialize(mx.init.Constant(0.3))
    train = gluon.data.DataLoader(
        gluon.data.ArrayDataset(x.transpose((1, 0, 2)), y), batch_size=4, batchify_fn=batchify
    )
    est = Estimator(
        net,
        loss=gluon.loss.L2Loss(),
        train_metrics=mx.metric.MSE(),
        trainer=gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1}),
    )
    est.fit(train, epochs=2, batch_axis=1)
    print(net.d.weight.data().asnumpy().tolist(), net.d.bias.data().asnumpy().tolist())
    est.evaluate(train, batch_axis=1)
    print([m.get() for m in est.val_metrics])


def script_contrib_misc(tmp):
    from mxnet import nd, autograd
    from mxnet.gluon.contrib.data import IntervalSampler

    print(
        list(IntervalSampler(10, 3)), list(IntervalSampler(7, 3, rollover=False)), len(IntervalSampler(10, 4))
    )
    x = nd.arange(12).reshape((4, 3))
    print(nd.contrib.index_copy(x, nd.array([2, 0]), nd.array([[-1, -2, -3], [-4, -5, -6]])))
    m = nd.array([1, 0, 1, 1])
    x.attach_grad()
    with autograd.record():
        y = nd.contrib.boolean_mask(x, m)
        z = (y * y).sum()
    z.backward()
    print(y, x.grad)
    print(nd.contrib.arange_like(x, start=2, step=0.5), nd.contrib.arange_like(x, axis=1))
    print(nd.contrib.allclose(nd.array([1.0, 2.0]), nd.array([1.0, 2.00001]), rtol=1e-4, atol=0))
    a = nd.array([1.0, -2.0, 3.0])
    a.attach_grad()
    with autograd.record():
        b = nd.contrib.gradientmultiplier(a, scalar=-0.5)
        c = nd.contrib.quadratic(b, a=2, b=-1, c=3)
    c.backward()
    print(b, c, a.grad)
    print(nd.contrib.div_sqrt_dim(nd.ones((2, 4)) * 4))
    print(nd.contrib.index_array(nd.zeros((2, 3)), axes=(1,)))
    print(
        nd.contrib.getnnz(nd.array([[0, 1], [2, 0]]).tostype("csr")),
        nd.contrib.getnnz(nd.array([[0, 1], [2, 3]]).tostype("csr"), axis=1),
    )
    print(
        nd.contrib.edge_id(
            nd.sparse.csr_matrix(([1.0, 2.0, 3.0], [1, 2, 0], [0, 2, 3, 3]), shape=(3, 3)),
            nd.array([0, 1, 2, 0]),
            nd.array([2, 0, 1, 1]),
        )
    )
    print(
        nd.contrib.SparseEmbedding(
            nd.array([0, 2]), nd.arange(6).reshape((3, 2)).tostype("row_sparse"), input_dim=3, output_dim=2
        )
    )
    print(nd.contrib.round_ste(nd.array([0.4, 1.5, -2.5])), nd.contrib.sign_ste(nd.array([-0.3, 0, 2])))


def script_estimator_resume(tmp):
    import os
    import mxnet as mx
    from mxnet import gluon, nd
    from mxnet.gluon.contrib.estimator import Estimator, CheckpointHandler

    mx.random.seed(4)
    x = nd.arange(32).reshape((16, 2)) / 32.0
    y = nd.array([i % 2 for i in range(16)])
    train = gluon.data.DataLoader(gluon.data.ArrayDataset(x, y), batch_size=4)

    def make():
        net = gluon.nn.HybridSequential()
        net.add(gluon.nn.Dense(3, in_units=2, activation="relu"), gluon.nn.Dense(2, in_units=3))
        net.initialize(mx.init.Uniform(0.5))
        net.hybridize()
        return net

    net = make()
    est = Estimator(
        net,
        loss=gluon.loss.SoftmaxCrossEntropyLoss(),
        train_metrics=mx.metric.Accuracy(),
        trainer=gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.3, "momentum": 0.9}),
    )
    ck = CheckpointHandler(tmp, model_prefix="res", epoch_period=1, batch_period=3, max_checkpoints=3)
    est.fit(train, epochs=2, event_handlers=[ck])
    print(sorted(os.listdir(tmp)))
    w1 = [p.data().asnumpy().round(5).tolist() for p in net.collect_params().values()]
    net2 = make()
    est2 = Estimator(
        net2,
        loss=gluon.loss.SoftmaxCrossEntropyLoss(),
        train_metrics=mx.metric.Accuracy(),
        trainer=gluon.Trainer(net2.collect_params(), "sgd", {"learning_rate": 0.3, "momentum": 0.9}),
    )
    ck2 = CheckpointHandler(tmp, model_prefix="res", epoch_period=1, resume_from_checkpoint=True)
    est2.fit(train, epochs=3, event_handlers=[ck2])
    print(ck2.trained_epoch, ck2.trained_batch)
    print(sorted(os.listdir(tmp)))
    print(w1[0])
    print([p.data().asnumpy().round(5).tolist() for p in net2.collect_params().values()][0])


def script_reshape_mistakes(tmp):
    import mxnet as mx
    from mxnet import autograd, gluon, nd
    from mxnet.gluon.contrib.estimator import Estimator

    x = nd.ones((4, 1))
    try:
        x.reshape((3, 1))
    except ValueError:
        print("ValueError")
    try:
        with autograd.record():
            x.reshape((3, 1))
    except mx.base.MXNetError:
        print("MXNetError")

    class TNC(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.d = gluon.nn.Dense(1, flatten=False)

        def hybrid_forward(self, F, x):
            return self.d(x).mean(axis=0)

    net = TNC()
    net.initialize(mx.init.Constant(0.3))
    data = nd.arange(36).reshape((12, 3, 1)) / 36.0
    train = gluon.data.DataLoader(gluon.data.ArrayDataset(data, nd.ones((12, 1))), batch_size=4)
    est = Estimator(net, loss=gluon.loss.L2Loss(), trainer=gluon.Trainer(net.collect_params(), "sgd"))
    try:
        est.fit(train, epochs=1)
    except mx.base.MXNetError:
        print("MXNetError in fit")


def script_color_transforms(tmp):
    import random

    import mxnet as mx
    import numpy as np
    from mxnet.gluon.data.vision import transforms as T

    rs = np.random.RandomState(5)
    img = mx.nd.array(rs.randint(0, 256, (4, 5, 3)), dtype="uint8")
    f = img.astype("float32")
    for name, t in [
        ("hue", T.RandomHue(0.3)),
        ("sat", T.RandomSaturation(0.4)),
        ("bri", T.RandomBrightness(0.5)),
        ("con", T.RandomContrast(0.5)),
        ("jit", T.RandomColorJitter(0.2, 0.2, 0.2, 0.1)),
        ("light", T.RandomLighting(0.3)),
    ]:
        mx.random.seed(12)
        np.random.seed(12)
        random.seed(12)
        out = t(f)
        print(name, out.dtype, out.shape, out[0, :2].asnumpy().round(3).tolist())
    mx.random.seed(3)
    print(
        T.RandomFlipLeftRight()(img)[0, :, 0].asnumpy().tolist(),
        T.RandomFlipTopBottom()(img)[:, 0, 0].asnumpy().tolist(),
    )
    mx.random.seed(3)
    np.random.seed(3)
    random.seed(3)
    print(T.RandomResizedCrop(3, scale=(0.5, 1.0))(img)[:, :, 0].asnumpy().tolist())
    mx.random.seed(3)
    np.random.seed(3)
    random.seed(3)
    print(T.RandomCrop(3, pad=1)(img)[:, :, 1].asnumpy().tolist() if hasattr(T, "RandomCrop") else "")
    print(T.RandomApply(T.RandomBrightness(0.5), p=0.0)(f)[0, 0].asnumpy().tolist())
    mx.random.seed(4)
    np.random.seed(4)
    random.seed(4)
    print(
        T.HybridRandomApply(T.HybridCompose([T.RandomFlipLeftRight()]), p=1.0)(img)[0, :, 2]
        .asnumpy()
        .tolist()
        if hasattr(T, "HybridRandomApply")
        else ""
    )


def script_test_utils_misc(tmp):
    import mxnet as mx
    import numpy as np
    from mxnet import test_utils as tu

    np.random.seed(1)
    mx.random.seed(1)
    print(tu.rand_shape_2d(5, 6), tu.rand_shape_3d(), tu.rand_shape_nd(4, dim=3))
    a = tu.rand_ndarray((2, 3), "default", dtype="float64")
    print(a.dtype, a.shape, a.stype)
    c = tu.rand_ndarray((4, 3), "csr", density=0.5)
    print(c.stype, c.shape, c.dtype)
    r = tu.rand_ndarray((4, 3), "row_sparse", density=0.5)
    print(r.stype, r.shape)
    print(
        tu.same(np.array([1, 2]), np.array([1, 2])), tu.almost_equal(np.array([1.0]), np.array([1.0 + 1e-9]))
    )
    print(tu.np_reduce(np.arange(6).reshape(2, 3), axis=1, keepdims=True, numpy_reduce_func=np.sum).tolist())
    tu.assert_exception(lambda: mx.nd.ones((2,)).reshape((3,)), mx.base.MXNetError)
    print("assert_exception ok")
    with tu.environment("MXNET_TEST_XYZ", "7"):
        print(mx.util.getenv("MXNET_TEST_XYZ"))
    print(mx.util.getenv("MXNET_TEST_XYZ"))
    with tu.environment({"MXNET_A1": "1", "MXNET_A2": None}):
        print(mx.util.getenv("MXNET_A1"), mx.util.getenv("MXNET_A2"))
    sym = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=3, name="fc")
    out = tu.check_consistency(
        sym,
        [
            {"ctx": mx.cpu(0), "data": (2, 4), "type_dict": {"data": np.float32}},
            {"ctx": mx.cpu(0), "data": (2, 4), "type_dict": {"data": np.float64}},
        ],
        scale=0.5,
    )
    print(type(out).__name__, len(out))
    print(
        tu.get_atol(),
        tu.get_rtol(),
        tu.get_etol(),
        tu.get_tols(np.ones(1, np.float16), np.ones(1, np.float32), None, None),
    )
    try:
        tu.assert_almost_equal(mx.nd.array([1.0, np.nan]), mx.nd.array([1.0, np.nan]))
    except AssertionError as e:
        print("nan", str(e).splitlines()[0][:80])
    tu.assert_almost_equal(mx.nd.array([1.0, np.nan]), mx.nd.array([1.0, np.nan]), equal_nan=True)
    print("equal_nan ok")
    tu.assert_allclose(np.array([1.0, 2.0]), np.array([1.0, 2.0000001]))
    try:
        tu.assert_allclose(np.array([1.0, 2.0]), np.array([1.0, 2.1]), rtol=1e-3)
    except AssertionError as e:
        print([ln for ln in str(e).splitlines() if ln.strip()][:2])
    print(tu.list_gpus() == [] or True, tu.check_speed.__name__)


def script_estimator_batch_processor(tmp):
    import mxnet as mx
    from mxnet import autograd, gluon, nd
    from mxnet.gluon.contrib.estimator import BatchProcessor, Estimator, GradientUpdateHandler, MetricHandler
    from mxnet.gluon.contrib.estimator.event_handler import BatchBegin

    class ScaledBP(BatchProcessor):
        def fit_batch(self, estimator, train_batch, batch_axis=0):
            data, label = train_batch
            data = data.as_in_context(estimator.context[0]) * 2
            label = label.as_in_context(estimator.context[0])
            with autograd.record():
                pred = estimator.net(data)
                loss = estimator.loss(pred, label)
            loss.backward()
            print("fit_batch", data.shape, round(float(loss.sum().asscalar()), 4))
            return [data], [label], [pred], [loss]

        def evaluate_batch(self, estimator, val_batch, batch_axis=0):
            data, label = val_batch
            pred = estimator.net(data * 2)
            loss = estimator.val_loss(pred, label)
            return [data], [label], [pred], [loss]

    class Peek(BatchBegin):
        priority = -3000

        def batch_begin(self, estimator, *args, **kwargs):
            print("begin batch", type(kwargs.get("batch")).__name__)

    mx.random.seed(1)
    x = nd.arange(16).reshape((8, 2)) / 16.0
    y = nd.array([0, 1, 1, 0, 1, 0, 0, 1])
    dl = gluon.data.DataLoader(gluon.data.ArrayDataset(x, y), batch_size=4)
    net = gluon.nn.Dense(2, in_units=2)
    net.initialize(mx.init.Uniform(0.5))
    est = Estimator(
        net,
        loss=gluon.loss.SoftmaxCrossEntropyLoss(),
        train_metrics=mx.metric.Accuracy(),
        trainer=gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5}),
        batch_processor=ScaledBP(),
    )
    print(type(est.batch_processor).__name__, est.val_loss is est.loss)
    handlers = [
        Peek(),
        GradientUpdateHandler(priority=-2000),
        MetricHandler(metrics=est.train_metrics, priority=-1000),
    ]
    est.fit(dl, val_data=dl, epochs=1, event_handlers=handlers)
    print(net.weight.data().asnumpy().round(5).tolist(), net.bias.data().asnumpy().round(5).tolist())
    est.evaluate(dl)
    print([m.get() for m in est.val_metrics])


def script_image_folder(tmp):
    import os

    import mxnet as mx
    import numpy as np
    from mxnet.gluon.data.vision import ImageFolderDataset, transforms

    rs = np.random.RandomState(21)
    for c, cls in enumerate(["cat", "dog", "emu"]):
        os.makedirs(os.path.join(tmp, "imgs", cls))
        for i in range(2 + c % 2):
            _write_png(
                os.path.join(tmp, "imgs", cls, "%s%d.png" % (cls, i)),
                rs.randint(0, 256, (6, 5 + i, 3)).astype(np.uint8),
            )
    with open(os.path.join(tmp, "imgs", "cat", "notes.txt"), "w") as f:
        f.write("x")
    os.makedirs(os.path.join(tmp, "imgs", "zz_empty"))
    with open(os.path.join(tmp, "imgs", "readme.md"), "w") as f:
        f.write("x")
    ds = ImageFolderDataset(os.path.join(tmp, "imgs"))
    print(ds.synsets, len(ds), [(os.path.basename(p), l) for p, l in ds.items])
    img, label = ds[3]
    print(img.shape, img.dtype, label, img[0, 0].asnumpy().tolist())
    g = ImageFolderDataset(os.path.join(tmp, "imgs"), flag=0)
    print(g[0][0].shape, g[0][0][0, :3, 0].asnumpy().tolist())
    t = transforms.Compose(
        [transforms.Resize((4, 4)), transforms.ToTensor(), transforms.Normalize(0.5, 0.25)]
    )
    dl = mx.gluon.data.DataLoader(ds.transform_first(t), batch_size=3, shuffle=False, last_batch="keep")
    for x, y in dl:
        print(x.shape, y.asnumpy().tolist(), x.asnumpy().mean().round(4))
    ds2 = ImageFolderDataset(
        os.path.join(tmp, "imgs"), transform=lambda d, l: (d.astype("float32").mean(), l * 10)
    )
    print([(round(float(a.asscalar()), 3), b) for a, b in [ds2[i] for i in range(len(ds2))]])
    f = ds.filter(lambda s: s[1] != 1)
    print(len(f), [s[1] for s in f])
    sh = ds.shard(2, 1)
    print(len(sh), [s[1] for s in sh])
    tk = ds.take(2)
    print(len(tk), [s[1] for s in tk])


def script_legacy_rnn_cells(tmp):
    import os

    import mxnet as mx
    import numpy as np

    mx.random.seed(2)
    stack = mx.rnn.SequentialRNNCell()
    stack.add(mx.rnn.LSTMCell(4, prefix="l0_"))
    stack.add(mx.rnn.ResidualCell(mx.rnn.GRUCell(4, prefix="l1_")))
    stack.add(mx.rnn.ZoneoutCell(mx.rnn.RNNCell(4, prefix="l2_"), zoneout_outputs=0.0, zoneout_states=0.0))
    data = mx.sym.var("data")
    outs, states = stack.unroll(3, data, layout="NTC", merge_outputs=True)
    print(outs.list_arguments())
    print([s.name for s in states], stack.state_info)
    bi = mx.rnn.BidirectionalCell(mx.rnn.LSTMCell(3, prefix="f_"), mx.rnn.LSTMCell(3, prefix="b_"))
    bo, bs = bi.unroll(2, mx.sym.var("x"), layout="TNC", merge_outputs=False)
    print([o.name for o in bo], len(bs), bi.state_info)
    conv = mx.rnn.ConvLSTMCell(
        (2, 1, 4, 4), num_hidden=2, h2h_kernel=(3, 3), i2h_kernel=(3, 3), i2h_pad=(1, 1), prefix="c_"
    )
    co, cs = conv.unroll(2, mx.sym.var("img"), layout="NTC")
    print(co[-1].infer_shape(img=(2, 2, 1, 4, 4))[1], conv.state_info)
    fused = mx.rnn.FusedRNNCell(4, num_layers=2, mode="gru", prefix="fu_", bidirectional=True)
    fo, _ = fused.unroll(3, mx.sym.var("d"), layout="NTC", merge_outputs=True)
    print(fo.infer_shape(d=(2, 3, 5))[1], fused.state_info)
    un = fused.unfuse()
    print(
        type(un).__name__,
        [type(c).__name__ for c in un._cells],
        un._cells[0]._cells[0]._prefix if hasattr(un._cells[0], "_cells") else "",
    )
    args = {"fu_parameters": mx.nd.array(np.arange(fo.infer_shape(d=(2, 3, 5))[0][1][0]) % 7 / 10.0)}
    unpacked = fused.unpack_weights(args)
    print(sorted((k, v.shape) for k, v in unpacked.items())[:6])
    packed = fused.pack_weights(unpacked)
    print(list(packed), float((packed["fu_parameters"] - args["fu_parameters"]).abs().sum().asscalar()))
    # a checkpoint of an unrolled LSTM model
    cell = mx.rnn.LSTMCell(3, prefix="lstm_")
    o, _ = cell.unroll(2, mx.sym.var("data"), layout="NTC", merge_outputs=True)
    net = mx.sym.FullyConnected(o, num_hidden=2, flatten=True, name="fc")
    shapes = dict(zip(net.list_arguments(), net.infer_shape(data=(1, 2, 2))[0]))
    arg = {
        k: mx.nd.array(np.arange(np.prod(s)).reshape(s) % 5 / 10.0) for k, s in shapes.items() if k != "data"
    }
    prefix = os.path.join(tmp, "rnn")
    mx.rnn.save_rnn_checkpoint(cell, prefix, 3, net, arg, {})
    print(sorted(os.listdir(tmp)))
    s2, a2, x2 = mx.rnn.load_rnn_checkpoint(cell, prefix, 3)
    print(sorted(a2), s2.list_arguments() == net.list_arguments())
    saved = mx.nd.load(prefix + "-0003.params")
    print(sorted(saved))


def script_more_mistakes(tmp):
    import os

    import mxnet as mx
    from mxnet import gluon, nd
    from mxnet.contrib import quantization
    from mxnet.gluon.contrib.estimator import CheckpointHandler, EarlyStoppingHandler, Estimator

    def show(fn, cls, msg=False):
        try:
            r = fn()
            print("ok", type(r).__name__)
        except cls as e:
            print(cls.__name__, str(e).replace(tmp, "<tmp>")[:100] if msg else "")

    show(lambda: mx.attribute.AttrScope(group=4), ValueError, msg=True)
    show(lambda: mx.sym.var("a", attr={"k": 1}), ValueError, msg=True)
    show(lambda: mx.sym.var("a", lr_mult="x"), ValueError)
    sym = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc")
    args = {"fc_weight": nd.ones((2, 3)), "fc_bias": nd.zeros((2,))}
    it = mx.io.NDArrayIter(nd.ones((2, 3)), batch_size=2)
    show(lambda: quantization.quantize_model(sym, args, {}, calib_mode="foo", calib_data=it), ValueError)
    show(lambda: quantization.quantize_model(sym, args, {}, calib_mode="naive"), ValueError)
    show(lambda: quantization.quantize_model(sym, args, {}, quantized_dtype="int4"), ValueError)
    show(
        lambda: quantization.quantize_model(sym, args, {}, calib_mode="naive", calib_data=[nd.ones((2, 3))]),
        ValueError,
    )
    show(lambda: quantization.quantize_model(sym, args, {}, quantize_granularity="x"), ValueError)
    show(lambda: quantization.quantize_model(sym, args, {}, excluded_sym_names="fc"), ValueError)
    show(lambda: nd.contrib.box_nms(nd.ones((2, 5)), coord_start=3), mx.base.MXNetError)
    show(lambda: nd.contrib.MultiBoxPrior(nd.ones((1, 2, 3, 3)), sizes=[1.5], ratios=[1]), mx.base.MXNetError)
    show(lambda: nd.contrib.MultiBoxPrior(nd.ones((1, 2, 3)), sizes=[0.5]), mx.base.MXNetError)
    show(lambda: nd.contrib.box_iou(nd.ones((2, 3)), nd.ones((2, 4))), mx.base.MXNetError)
    show(lambda: nd.contrib.bipartite_matching(nd.ones((3,)), threshold=0.1), mx.base.MXNetError)
    show(
        lambda: nd.contrib.DeformableConvolution(
            nd.ones((1, 2, 5, 5)),
            nd.ones((1, 9, 3, 3)),
            nd.ones((2, 2, 3, 3)),
            nd.ones((2,)),
            kernel=(3, 3),
            num_filter=2,
        ),
        mx.base.MXNetError,
    )
    show(lambda: mx.rnn.BucketSentenceIter([[1, 2, 3, 4]], batch_size=2, buckets=[2]), ValueError)
    show(
        lambda: mx.rnn.BucketSentenceIter([[1, 2], [3, 4, 5]], batch_size=2, buckets=[3], layout="XY"),
        ValueError,
    )
    show(
        lambda: mx.image.ImageIter(
            batch_size=2, data_shape=(3, 4, 4), imglist=[[1.0, "no.png"]], path_root=tmp
        ).next(),
        OSError,
        msg=True,
    )
    net = gluon.nn.Dense(2, in_units=2)
    net.initialize()
    show(lambda: Estimator(net, loss=gluon.loss.L2Loss(), train_metrics="acc"), ValueError, msg=True)
    show(lambda: Estimator(net, loss=gluon.loss.L2Loss(), trainer="sgd"), ValueError, msg=True)
    show(lambda: Estimator(net, loss=gluon.loss.L2Loss(), context=["cpu"]), ValueError, msg=True)
    est = Estimator(net, loss=gluon.loss.L2Loss())
    show(lambda: EarlyStoppingHandler(monitor=est.train_metrics[0], mode="best"), ValueError, msg=True)
    show(
        lambda: CheckpointHandler(os.path.join(tmp, "ck"), monitor=None, save_best=True), ValueError, msg=True
    )
    show(lambda: CheckpointHandler(os.path.join(tmp, "ck"), mode="foo"), ValueError)
    dl = gluon.data.DataLoader(gluon.data.ArrayDataset(nd.ones((4, 2)), nd.ones((4, 2))), batch_size=2)
    show(lambda: est.fit(dl), ValueError, msg=True)
    show(lambda: est.fit(dl, epochs=1, event_handlers="logging"), ValueError, msg=True)
    from mxnet.image.image import CreateAugmenter, ImageIter

    print(
        ImageIter.__name__,
        [type(a).__name__ for a in CreateAugmenter((3, 4, 4), rand_mirror=True, mean=True)],
    )


def script_rare_optimizers(tmp):
    import mxnet as mx
    import numpy as np
    from mxnet import autograd, gluon, nd

    x = nd.array(np.linspace(-1, 1, 24).reshape(6, 4))
    y = nd.array([0, 1, 2, 1, 0, 2])
    specs = [
        ("lars", {"learning_rate": 0.1, "momentum": 0.9, "eta": 0.01, "wd": 1e-3}),
        ("signum", {"learning_rate": 0.01, "momentum": 0.9, "wd_lh": 0.01}),
        ("signum", {"learning_rate": 0.01, "momentum": 0.0}),
        ("ftml", {"learning_rate": 0.05, "beta1": 0.6, "clip_gradient": 0.5}),
        ("nadam", {"learning_rate": 0.05, "schedule_decay": 0.01}),
        ("adadelta", {"rho": 0.8, "epsilon": 1e-4, "wd": 0.01}),
        ("adamax", {"learning_rate": 0.02, "wd": 0.1}),
        ("lamb", {"learning_rate": 0.05, "lower_bound": 1e-3, "upper_bound": 10.0, "bias_correction": False}),
        (
            "sgd",
            {
                "learning_rate": 0.2,
                "momentum": 0.8,
                "lr_scheduler": mx.lr_scheduler.PolyScheduler(4, 0.2, pwr=2, final_lr=0.01),
            },
        ),
        (
            "adam",
            {
                "learning_rate": 0.05,
                "lr_scheduler": mx.lr_scheduler.CosineScheduler(3, 0.05, final_lr=0.001, warmup_steps=1),
            },
        ),
    ]
    for name, kw in specs:
        net = gluon.nn.Dense(3, in_units=4)
        net.weight.initialize(mx.init.Constant(nd.array(np.arange(12).reshape(3, 4) % 5 / 10.0 - 0.2)))
        net.bias.initialize(mx.init.Zero())
        tr = gluon.Trainer(net.collect_params(), name, dict(kw))
        for _ in range(4):
            with autograd.record():
                loss = gluon.loss.SoftmaxCrossEntropyLoss()(net(x), y)
            loss.backward()
            tr.step(6)
        print(
            name,
            tr.learning_rate,
            net.weight.data().asnumpy().round(5).tolist()[0],
            net.bias.data().asnumpy().round(5).tolist(),
        )


def script_contrib_aliases_ssd(tmp):
    import json

    import mxnet as mx

    data = mx.sym.var("data")
    label = mx.sym.var("label")
    body = mx.sym.Convolution(data, kernel=(3, 3), pad=(1, 1), num_filter=4, name="body")
    anchors = mx.contrib.sym.MultiBoxPrior(body, sizes=[0.3, 0.6], ratios=[1, 2], name="anchors")
    cls = mx.sym.Convolution(body, kernel=(3, 3), pad=(1, 1), num_filter=3 * 3, name="cls")
    loc = mx.sym.Convolution(body, kernel=(3, 3), pad=(1, 1), num_filter=3 * 4, name="loc")
    cls_t = mx.sym.reshape(mx.sym.transpose(cls, axes=(0, 2, 3, 1)), shape=(0, -1, 3))
    cls_t = mx.sym.transpose(cls_t, axes=(0, 2, 1), name="cls_preds")
    loc_t = mx.sym.flatten(mx.sym.transpose(loc, axes=(0, 2, 3, 1)), name="loc_preds")
    tgt = mx.contrib.sym.MultiBoxTarget(
        anchors, label, cls_t, overlap_threshold=0.5, negative_mining_ratio=-1, name="tgt"
    )
    det = mx.contrib.sym.MultiBoxDetection(
        mx.sym.softmax(cls_t, axis=1), loc_t, anchors, nms_threshold=0.45, name="det"
    )
    g = mx.sym.Group([tgt[0], tgt[2], det])
    print(g.list_outputs())
    arg_shapes, out_shapes, _ = g.infer_shape(data=(2, 3, 4, 4), label=(2, 2, 5))
    print(out_shapes)
    print([(n["op"], n["name"]) for n in json.loads(g.tojson())["nodes"] if n["op"] != "null"])
    print(sorted(det.attr_dict()["det"].items()), anchors.attr_dict()["anchors"])
    nd = mx.contrib.nd
    print(nd.MultiBoxPrior(mx.nd.ones((1, 1, 2, 2)), sizes=[0.5]).asnumpy().round(3).tolist())
    print(
        mx.contrib.nd.box_nms is not None,
        hasattr(mx.contrib.ndarray, "ROIAlign"),
        hasattr(mx.contrib.symbol, "DeformableConvolution"),
    )


def script_module_states_fixed(tmp):
    import mxnet as mx
    import numpy as np

    data = mx.sym.var("data")
    h = mx.sym.var("h")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    new_h = mx.sym.tanh(fc + h, name="new_h")
    out = mx.sym.Group(
        [mx.sym.MakeLoss(mx.sym.sum(new_h * new_h), name="loss"), mx.sym.BlockGrad(new_h, name="hout")]
    )
    mod = mx.mod.Module(
        out, data_names=["data"], label_names=None, state_names=["h"], fixed_param_names=["fc_bias"]
    )
    mod.bind(data_shapes=[("data", (2, 4))], inputs_need_grad=True)
    mod.init_params(mx.init.Constant(0.1))
    mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.5})
    print(mod.output_names, mod.data_names)
    mod.set_states(value=0.5)
    print(mod.get_states(merge_multi_context=False)[0][0].asnumpy().tolist())
    x = mx.nd.array(np.arange(8).reshape(2, 4) / 8.0)
    for step in range(3):
        mod.forward(mx.io.DataBatch([x], None), is_train=True)
        outs = mod.get_outputs()
        mod.backward()
        mod.update()
        mod.set_states(states=[[outs[1]]])
        print(
            step, outs[0].asnumpy().round(5).tolist(), mod.get_input_grads()[0].asnumpy().round(5).tolist()[0]
        )
    arg, aux = mod.get_params()
    print(arg["fc_bias"].asnumpy().tolist(), arg["fc_weight"].asnumpy().round(5).tolist()[0])
    try:
        mod.reshape(data_shapes=[("data", (3, 4))])
    except mx.base.MXNetError:
        print("MXNetError")
    m = mx.metric.np(lambda label, pred: float(np.abs(label - pred).sum()), name="l1")
    m.update([mx.nd.array([1, 2])], [mx.nd.array([1.5, 1.0])])
    print(m.get(), mx.metric.create("perplexity", ignore_label=None).name)
    p = mx.metric.Perplexity(ignore_label=0)
    p.update([mx.nd.array([0, 1, 2])], [mx.nd.array([[0.2, 0.3, 0.5], [0.1, 0.7, 0.2], [0.3, 0.3, 0.4]])])
    print(p.get())
    lm = mx.metric.Loss("myloss")
    lm.update(None, [mx.nd.array([1.0, 2.0]), mx.nd.array([3.0])])
    print(lm.get())


def script_params_save_load_options(tmp):
    import os

    import mxnet as mx
    from mxnet import gluon, nd

    class Shared(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.a = gluon.nn.Dense(3, in_units=2)
                self.b = gluon.nn.Dense(3, in_units=2, params=self.a.params)
                self.c = gluon.nn.Dense(1, in_units=3)

        def hybrid_forward(self, F, x):
            return self.c(self.a(x) + self.b(x))

    net = Shared()
    net.initialize(mx.init.Constant(0.5))
    p1, p2 = os.path.join(tmp, "full.params"), os.path.join(tmp, "dedup.params")
    net.save_parameters(p1)
    net.save_parameters(p2, deduplicate=True)
    print(sorted(nd.load(p1)), sorted(nd.load(p2)))
    net2 = Shared()
    net2.load_parameters(p2)
    print(net2.c.weight.data().asnumpy().tolist(), net2.b.weight.data().asnumpy().sum())
    small = gluon.nn.Dense(3, in_units=2, prefix="a_")
    try:
        small.load_parameters(p1)
    except AssertionError as e:
        print("AssertionError", str(e).replace(tmp, "<tmp>")[:90])
    big = Shared()
    try:
        big.load_parameters(os.path.join(tmp, "nope.params"))
    except mx.base.MXNetError:
        print("MXNetError")
    half = gluon.nn.HybridSequential()
    with half.name_scope():
        half.add(gluon.nn.Dense(3, in_units=2))
    half.initialize(mx.init.Constant(0.2))
    p3 = os.path.join(tmp, "half.params")
    half.save_parameters(p3)
    print(sorted(nd.load(p3)))
    target = gluon.nn.HybridSequential()
    with target.name_scope():
        target.add(gluon.nn.Dense(3, in_units=2), gluon.nn.Dense(1, in_units=3))
    try:
        target.load_parameters(p3)
    except AssertionError as e:
        print("AssertionError", str(e).replace(tmp, "<tmp>")[:80])
    target.load_parameters(p3, allow_missing=True)
    target[1].initialize(mx.init.One())
    print(target(nd.ones((1, 2))).asnumpy().tolist())
    h = gluon.nn.Dense(3, in_units=2, dtype="float16")
    h.initialize(mx.init.Constant(0.25))
    p4 = os.path.join(tmp, "h.params")
    h.save_parameters(p4)
    f = gluon.nn.Dense(3, in_units=2)
    f.load_parameters(p4, cast_dtype=True)
    print(f.weight.data().dtype, f.weight.dtype)
    f2 = gluon.nn.Dense(3, in_units=2)
    f2.load_parameters(p4, cast_dtype=True, dtype_source="saved")
    print(f2.weight.data().dtype, f2.weight.dtype)
    try:
        gluon.nn.Dense(3, in_units=2).load_parameters(p4)
    except AssertionError as e:
        print("AssertionError", str(e)[:100])
    pd = net.collect_params()
    pd.save(os.path.join(tmp, "pd.params"), strip_prefix="shared0_")
    print(sorted(nd.load(os.path.join(tmp, "pd.params"))))
    try:
        pd.save(os.path.join(tmp, "pd2.params"), strip_prefix="zzz")
    except ValueError as e:
        print("ValueError", str(e)[:100])


# ---------------------------------------------------------------------------------------------
# what MXNet 1.9.1 printed

EXPECTED = {}

EXPECTED['script_amp'] = (
    'null data {}\n'
    "null fc1_weight {'__dtype__': '2', 'num_hidden': '4'}\n"
    "null fc1_bias {'__dtype__': '2', 'num_hidden': '4'}\n"
    "FullyConnected fc1 {'num_hidden': '4'}\n"
    "Activation relu1 {'act_type': 'relu'}\n"
    'softmax sm {}\n'
    'exp e {}\n'
    "[('fc1_bias', 'float16'), ('fc1_weight', 'float16')]\n"
    'AssertionError\n'
    "[('null', 'data'), ('null', 'fc1_weight'), ('null', 'fc1_bias'), ('FullyConnected', 'fc1'), ('Acti"
    "vation', 'relu1'), ('softmax', 'sm'), ('exp', 'e')]\n"
    '\n'
    '[[24. 24.]\n'
    ' [ 6.  6.]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    'SymbolBlock\n'
    "[('dense0_bias', 'float16'), ('dense0_weight', 'float16'), ('dense1_bias', 'float16'), ('dense1_we"
    "ight', 'float16')]\n"
    "['Convolution', 'Deconvolution', 'FullyConnected', 'RNN'] True\n"
)

EXPECTED['script_attr_name_scopes'] = (
    "1 great {'data': 'great', 'group': '4'} [('b', {'data': 'great', 'group': '4'}), ('fc', {'num_hidd"
    "en': '3', '__lr_mult__': '2', 'lr_mult': '2', '__ctx_group__': 'dev1', 'ctx_group': 'dev1'}), ('fc"
    "_bias', {'num_hidden': '3', '__lr_mult__': '2', 'lr_mult': '2', '__ctx_group__': 'dev1', 'ctx_grou"
    "p': 'dev1'}), ('fc_weight', {'num_hidden': '3', '__lr_mult__': '2', 'lr_mult': '2', '__ctx_group__"
    "': 'dev1', 'ctx_group': 'dev1'}), ('r', {'__lr_mult__': '2', 'lr_mult': '2', '__ctx_group__': 'dev"
    "2', 'ctx_group': 'dev2'})]\n"
    "['data', 'mynet_convolution0_weight', 'mynet_convolution0_bias', 'mynet_fullyconnected0_weight', '"
    "mynet_fullyconnected0_bias'] mynet_activation0 mynet_convolution0\n"
    'fullyconnected0 fullyconnected1 _plus0 relu0\n'
    'fullyconnected0\n'
    "['model_dense0_weight', 'model_dense0_bias', 'model_conv0_weight', 'model_conv0_bias', 'model_out_"
    "weight', 'model_out_bias']\n"
    "hybridsequential0_ dense0_ ['dense0_weight', 'dense0_bias']\n"
    'pp_dense0_ pp_dense0\n'
)

EXPECTED['script_box_ops'] = (
    '\n'
    '[[[  1.     0.95  11.    11.    49.    49.  ]\n'
    '  [  0.     0.9   10.    10.    50.    50.  ]\n'
    '  [  0.     0.6  100.   100.   150.   150.  ]\n'
    '  [ -1.    -1.    -1.    -1.    -1.    -1.  ]\n'
    '  [ -1.    -1.    -1.    -1.    -1.    -1.  ]\n'
    '  [ -1.    -1.    -1.    -1.    -1.    -1.  ]\n'
    '  [ -1.    -1.    -1.    -1.    -1.    -1.  ]]]\n'
    '<NDArray 1x7x6 @cpu(0)>\n'
    '\n'
    '[[[ 1.    0.95 11.   11.   49.   49.  ]\n'
    '  [-1.   -1.   -1.   -1.   -1.   -1.  ]\n'
    '  [-1.   -1.   -1.   -1.   -1.   -1.  ]\n'
    '  [-1.   -1.   -1.   -1.   -1.   -1.  ]\n'
    '  [-1.   -1.   -1.   -1.   -1.   -1.  ]\n'
    '  [-1.   -1.   -1.   -1.   -1.   -1.  ]\n'
    '  [-1.   -1.   -1.   -1.   -1.   -1.  ]]]\n'
    '<NDArray 1x7x6 @cpu(0)>\n'
    '\n'
    '[[[-1.    0.99  2.5   2.5   5.    5.  ]\n'
    '  [ 1.    0.95 30.   30.   38.   38.  ]\n'
    '  [-1.   -1.   -1.   -1.   -1.   -1.  ]\n'
    '  [-1.   -1.   -1.   -1.   -1.   -1.  ]\n'
    '  [-1.   -1.   -1.   -1.   -1.   -1.  ]\n'
    '  [-1.   -1.   -1.   -1.   -1.   -1.  ]\n'
    '  [-1.   -1.   -1.   -1.   -1.   -1.  ]]]\n'
    '<NDArray 1x7x6 @cpu(0)>\n'
    '\n'
    '[[[-1.00e+00  9.90e-01 -2.50e+00 -2.50e+00  2.50e+00  2.50e+00]\n'
    '  [ 1.00e+00  9.50e-01 -1.35e+01 -1.35e+01  3.55e+01  3.55e+01]\n'
    '  [ 0.00e+00  6.00e-01  2.50e+01  2.50e+01  1.75e+02  1.75e+02]\n'
    '  [ 0.00e+00  5.00e-02 -1.50e+00 -1.50e+00  1.50e+00  1.50e+00]\n'
    '  [-1.00e+00 -1.00e+00 -1.00e+00 -1.00e+00 -1.00e+00 -1.00e+00]\n'
    '  [-1.00e+00 -1.00e+00 -1.00e+00 -1.00e+00 -1.00e+00 -1.00e+00]\n'
    '  [-1.00e+00 -1.00e+00 -1.00e+00 -1.00e+00 -1.00e+00 -1.00e+00]]]\n'
    '<NDArray 1x7x6 @cpu(0)>\n'
    '\n'
    '[[0.25       0.44444445]\n'
    ' [0.25       0.44444445]\n'
    ' [0.         0.        ]]\n'
    '<NDArray 3x2 @cpu(0)> \n'
    '[[0.14285715 0.44444445]\n'
    ' [0.44444445 0.2857143 ]\n'
    ' [0.         0.        ]]\n'
    '<NDArray 3x2 @cpu(0)>\n'
    '[\n'
    '[[[0.        2.5       0.        2.0273254]\n'
    '  [0.        0.        0.        0.       ]\n'
    '  [0.        0.        0.        0.       ]]]\n'
    '<NDArray 1x3x4 @cpu(0)>, \n'
    '[[[1. 1. 1. 1.]\n'
    '  [0. 0. 0. 0.]\n'
    '  [0. 0. 0. 0.]]]\n'
    '<NDArray 1x3x4 @cpu(0)>]\n'
    '\n'
    '[[[-1.0418366  -0.94019866  1.0818366   1.0201987 ]\n'
    '  [-1.         -0.5         3.          2.5       ]]]\n'
    '<NDArray 1x2x4 @cpu(0)>\n'
    '[\n'
    '[0. 1. 2.]\n'
    '<NDArray 3 @cpu(0)>, \n'
    '[0. 1. 2.]\n'
    '<NDArray 3 @cpu(0)>]\n'
    '[\n'
    '[0. 1. 2.]\n'
    '<NDArray 3 @cpu(0)>, \n'
    '[0. 1. 2.]\n'
    '<NDArray 3 @cpu(0)>]\n'
    '[\n'
    '[ 2. -1.  0.]\n'
    '<NDArray 3 @cpu(0)>, \n'
    '[ 2. -1.  0.]\n'
    '<NDArray 3 @cpu(0)>]\n'
)

EXPECTED['script_bucket_sentences'] = (
    '[[0, 1, 2], [3, 4], [0, 4, 5, 6, 7], [1], [3, 1, 5], [0, 8, 9, 10, 11, 12]]\n'
    "[('\\n', -1), ('the', 0), ('cat', 1), ('sat', 2), ('a', 3), ('dog', 4), ('ran', 5), ('far', 6), ('"
    "away', 7), ('end', 8), ('is', 9), ('near', 10), ('now', 11), ('yes', 12)]\n"
    'WARNING: discarded 0 sentences longer than the largest bucket.\n'
    "6 [DataDesc[data,(2, 6),<class 'numpy.float32'>,NT]] [DataDesc[softmax_label,(2, 6),<class 'numpy."
    "float32'>,NT]]\n"
    '[3, 6] [(4, 3), (2, 6)] [(1, 0), (0, 2), (0, 0)]\n'
    '6 [[0.0, 4.0, 5.0, 6.0, 7.0, -1.0], [0.0, 8.0, 9.0, 10.0, 11.0, 12.0]] [[4.0, 5.0, 6.0, 7.0, -1.0,'
    " -1.0], [8.0, 9.0, 10.0, 11.0, 12.0, -1.0]] [DataDesc[data,(2, 6),<class 'numpy.float32'>,NT]]\n"
    '3 [[3.0, 1.0, 5.0], [1.0, -1.0, -1.0]] [[1.0, 5.0, -1.0], [-1.0, -1.0, -1.0]] [DataDesc[data,(2, 3'
    "),<class 'numpy.float32'>,NT]]\n"
    '3 [[0.0, 1.0, 2.0], [3.0, 4.0, -1.0]] [[1.0, 2.0, -1.0], [4.0, -1.0, -1.0]] [DataDesc[data,(2, 3),'
    "<class 'numpy.float32'>,NT]]\n"
    'WARNING: discarded 2 sentences longer than the largest bucket.\n'
    "[3] [DataDesc[d,(3, 2),<class 'numpy.float32'>,TN]] 3\n"
    '3 (3, 2)\n'
    '3 (3, 2)\n'
    'AssertionError Unknown token zz\n'
    'AssertionError Unknown token q\n'
    "[[1, 2], [2]] [('\\n', 0), ('q', 1), ('r', 2)]\n"
)

EXPECTED['script_ckpt_sym'] = (
    'Training begin: using optimizer SGD with current learning rate 0.0100 \n'
    'Train for 1 epochs.\n'
    '[Epoch 0] Begin, current learning rate: 0.0100\n'
    '[Epoch 0] Finished in <t>s, training accuracy: 0.5000, training softmaxcrossentropyloss: 0.6900\n'
    'Train finished using total <t>s with 1 epochs. training accuracy: 0.5000, training softmaxcrossent'
    'ropyloss: 0.6900\n'
    "0 ['m-epoch0batch2.params', 'm-epoch0batch2.states', 'm-symbol.json']\n"
    '{\n'
    '  "nodes": [\n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "data", \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "dense0_weight", \n'
    '      "attrs": {\n'
    '        "__dtype__": "0", \n'
    '        "__lr_mult__": "1.0", \n'
    '        "__shape__": "(2, 0)", \n'
    '        "__storage_type__": "0", \n'
    '        "__wd_mult__": "1.0"\n'
    '      }, \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "dense0_bias", \n'
    '      "attrs": {\n'
    '        "__dtype__": "0", \n'
    '        "__init__": "zeros", \n'
    '        "__lr_mult__": "1.0", \n'
    '        "__shape__": "(2,)", \n'
    '        "__storage_type__": "0", \n'
    '        "__wd_mult__": "1.0"\n'
    '      }, \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "FullyConnected", \n'
    '      "name": "dense0_fwd", \n'
    '      "attrs": {\n'
    '        "flatten": "True", \n'
    '        "no_bias": "False", \n'
    '        "num_hidden": "2"\n'
    '      }, \n'
    '      "inputs": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]\n'
    '    }\n'
    '  ], \n'
    '  "arg_nodes": [0, 1, 2], \n'
    '  "node_row_ptr": [0, 1, 2, 3, 4], \n'
    '  "heads": [[3, 0, 0]], \n'
    '  "attrs": {"mxnet_version": ["int", 10901]}\n'
    '}\n'
    'Training begin: using optimizer SGD with current learning rate 0.0100 \n'
    'Train for 1 epochs.\n'
    '[Epoch 0] Begin, current learning rate: 0.0100\n'
    'Model architecture(symbol file) is not saved, please use HybridBlock to construct your model, and '
    'call net.hybridize() before passing to Estimator in order to save model architecture as <tmp>/1/m-'
    'symbol.json.\n'
    '[Epoch 0] Finished in <t>s, training accuracy: 0.5000, training softmaxcrossentropyloss: 0.6935\n'
    'Train finished using total <t>s with 1 epochs. training accuracy: 0.5000, training softmaxcrossent'
    'ropyloss: 0.6935\n'
    "1 ['m-epoch0batch2.params', 'm-epoch0batch2.states']\n"
    'Training begin: using optimizer SGD with current learning rate 0.0100 \n'
    'Train for 1 epochs.\n'
    '[Epoch 0] Begin, current learning rate: 0.0100\n'
    'Model architecture(symbol file) is not saved, please use HybridBlock to construct your model, and '
    'call net.hybridize() before passing to Estimator in order to save model architecture as <tmp>/2/m-'
    'symbol.json.\n'
    '[Epoch 0] Finished in <t>s, training accuracy: 0.5000, training softmaxcrossentropyloss: 0.6976\n'
    'Train finished using total <t>s with 1 epochs. training accuracy: 0.5000, training softmaxcrossent'
    'ropyloss: 0.6976\n'
    "2 ['m-epoch0batch2.params', 'm-epoch0batch2.states']\n"
    'Training begin: using optimizer SGD with current learning rate 0.0100 \n'
    'Train for 1 epochs.\n'
    '[Epoch 0] Begin, current learning rate: 0.0100\n'
    '[Epoch 0] Finished in <t>s, training accuracy: 0.5000, training softmaxcrossentropyloss: 0.6930\n'
    'Train finished using total <t>s with 1 epochs. training accuracy: 0.5000, training softmaxcrossent'
    'ropyloss: 0.6930\n'
    "3 ['m-epoch0batch2.params', 'm-epoch0batch2.states', 'm-symbol.json']\n"
    '{\n'
    '  "nodes": [\n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "data", \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "dense4_weight", \n'
    '      "attrs": {\n'
    '        "__dtype__": "0", \n'
    '        "__lr_mult__": "1.0", \n'
    '        "__shape__": "(4, 0)", \n'
    '        "__storage_type__": "0", \n'
    '        "__wd_mult__": "1.0"\n'
    '      }, \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "dense4_bias", \n'
    '      "attrs": {\n'
    '        "__dtype__": "0", \n'
    '        "__init__": "zeros", \n'
    '        "__lr_mult__": "1.0", \n'
    '        "__shape__": "(4,)", \n'
    '        "__storage_type__": "0", \n'
    '        "__wd_mult__": "1.0"\n'
    '      }, \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "FullyConnected", \n'
    '      "name": "dense4_fwd", \n'
    '      "attrs": {\n'
    '        "flatten": "True", \n'
    '        "no_bias": "False", \n'
    '        "num_hidden": "4"\n'
    '      }, \n'
    '      "inputs": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]\n'
    '    }, \n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "dense5_weight", \n'
    '      "attrs": {\n'
    '        "__dtype__": "0", \n'
    '        "__lr_mult__": "1.0", \n'
    '        "__shape__": "(2, 0)", \n'
    '        "__storage_type__": "0", \n'
    '        "__wd_mult__": "1.0"\n'
    '      }, \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "dense5_bias", \n'
    '      "attrs": {\n'
    '        "__dtype__": "0", \n'
    '        "__init__": "zeros", \n'
    '        "__lr_mult__": "1.0", \n'
    '        "__shape__": "(2,)", \n'
    '        "__storage_type__": "0", \n'
    '        "__wd_mult__": "1.0"\n'
    '      }, \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "FullyConnected", \n'
    '      "name": "dense5_fwd", \n'
    '      "attrs": {\n'
    '        "flatten": "True", \n'
    '        "no_bias": "False", \n'
    '        "num_hidden": "2"\n'
    '      }, \n'
    '      "inputs": [[3, 0, 0], [4, 0, 0], [5, 0, 0]]\n'
    '    }\n'
    '  ], \n'
    '  "arg_nodes": [0, 1, 2, 4, 5], \n'
    '  "node_row_ptr": [0, 1, 2, 3, 4, 5, 6, 7], \n'
    '  "heads": [[6, 0, 0]], \n'
    '  "attrs": {"mxnet_version": ["int", 10901]}\n'
    '}\n'
)

EXPECTED['script_color_transforms'] = (
    "hue <class 'numpy.float32'> (4, 5, 3) [[214.64100646972656, 99.0, 239.0], [118.0, 230.0, 225.11300"
    '659179688]]\n'
    "sat <class 'numpy.float32'> (4, 5, 3) [[124.35800170898438, 269.1709899902344, 313.8330078125], [2"
    '51.03799438476562, 306.52801513671875, 154.94700622558594]]\n'
    "bri <class 'numpy.float32'> (4, 5, 3) [[142.73300170898438, 297.0, 344.5780029296875], [272.489990"
    '234375, 331.60198974609375, 170.12600708007812]]\n'
    "con <class 'numpy.float32'> (4, 5, 3) [[83.2969970703125, 237.56399536132812, 285.1419982910156], "
    '[213.0540008544922, 272.1659851074219, 110.69000244140625]]\n'
    "jit <class 'numpy.float32'> (4, 5, 3) [[90.08599853515625, 238.1439971923828, 194.54299926757812],"
    ' [226.3699951171875, 206.92999267578125, 107.92400360107422]]\n'
    "light <class 'numpy.float32'> (4, 5, 3) [[98.98100280761719, 204.72999572753906, 237.60400390625],"
    ' [188.9810028076172, 228.72999572753906, 116.60399627685547]]\n'
    '[99, 189, 144, 228, 155] [99, 208, 212, 206]\n'
    '[[158, 138, 62], [145, 185, 214], [18, 145, 31]]\n'
    '\n'
    '[99.0, 206.0, 239.0]\n'
    '\n'
)

EXPECTED['script_contrib_aliases_ssd'] = (
    "['tgt_loc_target', 'tgt_cls_target', 'det_output']\n"
    '[(2, 192), (2, 48), (2, 48, 6)]\n'
    "[('Convolution', 'body'), ('_contrib_MultiBoxPrior', 'anchors'), ('Convolution', 'cls'), ('transpo"
    "se', 'transpose0'), ('Reshape', 'reshape0'), ('transpose', 'cls_preds'), ('_contrib_MultiBoxTarget"
    "', 'tgt'), ('softmax', 'softmax0'), ('Convolution', 'loc'), ('transpose', 'transpose1'), ('Flatten"
    "', 'loc_preds'), ('_contrib_MultiBoxDetection', 'det')]\n"
    "[('nms_threshold', '0.45')] {'ratios': '[1, 2]', 'sizes': '[0.3, 0.6]'}\n"
    '[[[0.0, 0.0, 0.5, 0.5], [0.5, 0.0, 1.0, 0.5], [0.0, 0.5, 0.5, 1.0], [0.5, 0.5, 1.0, 1.0]]]\n'
    'True True True\n'
)

EXPECTED['script_contrib_misc'] = (
    '[0, 3, 6, 9, 1, 4, 7, 2, 5, 8] [0, 3, 6] 10\n'
    '\n'
    '[[-4. -5. -6.]\n'
    ' [ 3.  4.  5.]\n'
    ' [-1. -2. -3.]\n'
    ' [ 9. 10. 11.]]\n'
    '<NDArray 4x3 @cpu(0)>\n'
    '\n'
    '[[ 0.  1.  2.]\n'
    ' [ 6.  7.  8.]\n'
    ' [ 9. 10. 11.]]\n'
    '<NDArray 3x3 @cpu(0)> \n'
    '[[ 0.  2.  4.]\n'
    ' [ 0.  0.  0.]\n'
    ' [12. 14. 16.]\n'
    ' [18. 20. 22.]]\n'
    '<NDArray 4x3 @cpu(0)>\n'
    '\n'
    '[[2.  2.5 3. ]\n'
    ' [3.5 4.  4.5]\n'
    ' [5.  5.5 6. ]\n'
    ' [6.5 7.  7.5]]\n'
    '<NDArray 4x3 @cpu(0)> \n'
    '[0. 1. 2.]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '1\n'
    '<NDArray  @cpu(0)>\n'
    '\n'
    '[ 1. -2.  3.]\n'
    '<NDArray 3 @cpu(0)> \n'
    '[ 4. 13. 18.]\n'
    '<NDArray 3 @cpu(0)> \n'
    '[-1.5  4.5 -5.5]\n'
    '<NDArray 3 @cpu(0)>\n'
    '\n'
    '[[2. 2. 2. 2.]\n'
    ' [2. 2. 2. 2.]]\n'
    '<NDArray 2x4 @cpu(0)>\n'
    '\n'
    '[[[0]\n'
    '  [1]\n'
    '  [2]]\n'
    '\n'
    ' [[0]\n'
    '  [1]\n'
    '  [2]]]\n'
    '<NDArray 2x3x1 @cpu(0)>\n'
    '\n'
    '[2]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[1 2]\n'
    '<NDArray 2 @cpu(0)>\n'
    '\n'
    '[ 2.  3. -1.  1.]\n'
    '<NDArray 4 @cpu(0)>\n'
    '\n'
    '[[0. 1.]\n'
    ' [4. 5.]]\n'
    '<NDArray 2x2 @cpu(0)>\n'
    '\n'
    '[ 0.  2. -3.]\n'
    '<NDArray 3 @cpu(0)> \n'
    '[-1.  0.  1.]\n'
    '<NDArray 3 @cpu(0)>\n'
)

EXPECTED['script_conv_rnn_cells'] = (
    'Conv1DLSTMCell(2 -> 12, tanh, NCW)\n'
    '(3, 2, 3, 6) [(3, 3, 6), (3, 3, 6)]\n'
    '[[-0.0379600003361702, -0.0846799984574318, -0.0816899985074997, -0.07867000252008438, -0.07562000'
    '304460526, -0.010780000127851963], [-0.08877000212669373, -0.016519999131560326, -0.01597999967634'
    '678, -0.015440000221133232, -0.01489999983459711, 0.004350000061094761], [0.08474999666213989, 0.0'
    '30859999358654022, 0.03017999976873398, 0.029500000178813934, 0.02882000058889389, -0.037280000746'
    '25015]]\n'
    '1.412\n'
    'Conv2DGRUCell(1 -> 6, tanh, NCHW)\n'
    '2 (2, 2, 4, 4) [[0.014560000039637089, -0.08257000148296356, -0.08350999653339386, -0.096649996936'
    '32126], [0.07016000151634216, -0.11011999845504761, -0.11462999880313873, -0.14666999876499176], ['
    '0.06748999655246735, -0.11076000332832336, -0.11832000315189362, -0.148389995098114], [0.081170000'
    '13589859, -0.034699998795986176, -0.04145999997854233, -0.13621999323368073]]\n'
    "{'conv_gru0_h2h_bias': 23.798799514770508, 'conv_gru0_h2h_weight': 4.028500080108643, 'conv_gru0_i"
    "2h_bias': 45.55179977416992, 'conv_gru0_i2h_weight': 117.56780242919922}\n"
    "[{'shape': (2, 2, 4, 4), '__layout__': 'NCHW'}]\n"
)

EXPECTED['script_deformable_conv'] = (
    'DeformableConvolution(None -> 4, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))\n'
    '(2, 4, 5, 5) [[-0.03240000084042549, 0.01899999938905239, -0.010200000368058681, 0.028100000694394'
    '11, 0.05420000106096268], [0.3955000042915344, -0.15780000388622284, 0.0625, 0.09870000183582306, '
    '0.09179999679327011], [-0.46299999952316284, 0.16060000658035278, 0.3767000138759613, -0.149800002'
    '57492065, -0.2393999993801117], [-0.10499999672174454, -0.18690000474452972, -0.008799999952316284'
    ', 0.27320000529289246, 0.24809999763965607], [-0.04650000110268593, -0.41110000014305115, 0.359800'
    '0109195709, -0.018300000578165054, 0.2533000111579895]]\n'
    '[[0.31610000133514404, -0.3700999915599823, 0.133200004696846, 0.3221000134944916, 0.0610000006854'
    '53415], [0.12060000002384186, 0.9495999813079834, 0.6539999842643738, -0.05009999871253967, 0.5060'
    '999989509583], [-0.5424000024795532, 0.5874999761581421, 0.6324999928474426, 0.4496999979019165, 0'
    '.7020999789237976], [-0.4722000062465668, -0.18719999492168427, 0.11919999867677689, 0.13070000708'
    '10318, 0.16200000047683716], [0.17980000376701355, 0.3257000148296356, -1.0348999500274658, -0.814'
    '300000667572, -0.131400004029274]]\n'
    "[('deformable_conv0_deformable_conv_bias', (4,), -27.479), ('deformable_conv0_deformable_conv_weig"
    "ht', (4, 3, 3, 3), -226.233), ('deformable_conv0_offset_bias', (18,), -1.63), ('deformable_conv0_o"
    "ffset_weight', (18, 3, 3, 3), -4.077)]\n"
    'DeformableConvolution(None -> 2, kernel_size=(3, 3), stride=(2, 2), bias=False, Activation(relu))'
    '\n'
    '[[[[11.571000099182129, 11.28600025177002], [11.142999649047852, 11.857000350952148]], [[11.571000'
    '099182129, 11.28600025177002], [11.142999649047852, 11.857000350952148]]], [[[11.857000350952148, '
    '11.571000099182129], [11.428999900817871, 11.142999649047852]], [[11.857000350952148, 11.571000099'
    '182129], [11.428999900817871, 11.142999649047852]]]]\n'
)

EXPECTED['script_estimator_batch_axis'] = (
    'Training begin: using optimizer SGD with current learning rate 0.1000 \n'
    'Train for 2 epochs.\n'
    '[Epoch 0] Begin, current learning rate: 0.1000\n'
    '[Epoch 0] Finished in <t>s, training mse: 0.3455\n'
    '[Epoch 1] Begin, current learning rate: 0.1000\n'
    '[Epoch 1] Finished in <t>s, training mse: 0.2915\n'
    'Train finished using total <t>s with 2 epochs. training mse: 0.2915\n'
    '[[0.37614697217941284]] [0.15516509115695953]\n'
    'Validation Begin\n'
    '[Epoch 0] Finished in <t>s, validation mse: 0.2723\n'
    "[('validation mse', 0.2723160684108734)]\n"
)

EXPECTED['script_estimator_batch_processor'] = (
    'ScaledBP True\n'
    'Training begin: using optimizer SGD with current learning rate 0.5000 \n'
    'Train for 1 epochs.\n'
    '[Epoch 0] Begin, current learning rate: 0.5000\n'
    'begin batch list\n'
    'fit_batch (4, 2) 2.7766\n'
    'begin batch list\n'
    'fit_batch (4, 2) 2.7768\n'
    'Validation Begin\n'
    '[Epoch 0] Finished in <t>s, validation accuracy: 0.6250\n'
    '[Epoch 0] Finished in <t>s, training accuracy: 0.5000\n'
    'Train finished using total <t>s with 1 epochs. training accuracy: 0.5000\n'
    '[[0.044449999928474426, -0.4215700030326843], [-0.48065000772476196, 0.0711200013756752]] [0.02237'
    '9999980330467, -0.022379999980330467]\n'
    'Validation Begin\n'
    '[Epoch 0] Finished in <t>s, validation accuracy: 0.6250\n'
    "[('validation accuracy', 0.625)]\n"
)

EXPECTED['script_estimator_batches_and_handlers'] = (
    'begin None 7\n'
    'Training begin: using optimizer Adam with current learning rate 0.1000 \n'
    'Train for 7 batches.\n'
    'Validation Begin\n'
    'batch 1 [0.11379999667406082, 0.13899999856948853]\n'
    '[Epoch 0][Batch 0][Samples 5] time/interval: <t>s\n'
    'batch 2 [0.1656000018119812, 0.18960000574588776]\n'
    'batch 3 [0.1704999953508377, 0.1891999989748001]\n'
    '[Epoch 0][Batch 2][Samples 15] time/interval: <t>s\n'
    'batch 4 [0.12530000507831573, 0.13660000264644623]\n'
    "epoch [('training mae', 0.6061), ('training rmse', 0.6084)]\n"
    '[Epoch 0] Finished in <t>s\n'
    'Validation Begin\n'
    'batch 5 [0.002300000051036477, 0.0031999999191612005]\n'
    '[Epoch 1][Batch 0][Samples 25] time/interval: <t>s\n'
    'batch 6 [0.0, 0.0]\n'
    'batch 7 [0.007600000128149986, 0.007899999618530273]\n'
    '[Epoch 1][Batch 2][Samples 35] time/interval: <t>s\n'
    "epoch [('training mae', 0.0772), ('training rmse', 0.0784)]\n"
    '[Epoch 1] Finished in <t>s\n'
    'end 7\n'
    'Train finished using total <t>s with 2 epochs.\n'
    '[[0.6567999720573425, 0.49810001254081726]] [0.625]\n'
    'training mae training rmse\n'
)

EXPECTED['script_estimator_early_stop'] = (
    'Accuracy training accuracy validation accuracy\n'
    'Training begin: using optimizer SGD with current learning rate 0.5000 \n'
    'Train for 6 epochs.\n'
    '[Epoch 0] Begin, current learning rate: 0.5000\n'
    'Validation Begin\n'
    '[Epoch 0] Finished in <t>s, validation accuracy: 0.3333\n'
    '[Epoch 0] Finished in <t>s, training accuracy: 0.2083\n'
    '[Epoch 1] Begin, current learning rate: 0.5000\n'
    'Validation Begin\n'
    '[Epoch 0] Finished in <t>s, validation accuracy: 0.3333\n'
    '[Epoch 1] Finished in <t>s, training accuracy: 0.2500\n'
    '[Epoch 2] Begin, current learning rate: 0.5000\n'
    'Validation Begin\n'
    '[Epoch 0] Finished in <t>s, validation accuracy: 0.5000\n'
    '[Epoch 2] Finished in <t>s, training accuracy: 0.3750\n'
    '[Epoch 3] Begin, current learning rate: 0.5000\n'
    'Validation Begin\n'
    '[Epoch 0] Finished in <t>s, validation accuracy: 0.5833\n'
    '[Epoch 3] Finished in <t>s, training accuracy: 0.5000\n'
    '[Epoch 4] Begin, current learning rate: 0.5000\n'
    'Validation Begin\n'
    '[Epoch 0] Finished in <t>s, validation accuracy: 0.5833\n'
    '[Epoch 4] Finished in <t>s, training accuracy: 0.5417\n'
    '[Epoch 5] Begin, current learning rate: 0.5000\n'
    'Validation Begin\n'
    '[Epoch 0] Finished in <t>s, validation accuracy: 0.5833\n'
    '[Epoch 5] Finished in <t>s, training accuracy: 0.5833\n'
    'Train finished using total <t>s with 6 epochs. training accuracy: 0.5833\n'
    'stopped 0 6 False 0.5833333333333334\n'
    "['net-epoch4batch15.params', 'net-epoch4batch15.states', 'net-epoch5batch18.params', 'net-epoch5ba"
    "tch18.states', 'net-symbol.json']\n"
    'dense0_weight [[-0.07970000058412552, -0.4262000024318695, 0.4999000132083893, 0.3546999990940094]'
    ', [-0.478300005197525, 0.4221000075340271, 0.6715999841690063, 0.38690000772476196], [0.7125999927'
    '520752, -0.36090001463890076, -0.1664000004529953, 0.9072999954223633]]\n'
    'dense0_bias [0.12489999830722809, -0.12070000171661377, -0.00419999985024333]\n'
    'Validation Begin\n'
    '[Epoch 0] Finished in <t>s, validation accuracy: 0.5833\n'
    "[('validation accuracy', 0.5833333333333334)]\n"
)

EXPECTED['script_estimator_mistakes'] = (
    'ValueError loss must be a Loss, refer to gluon.loss.Loss:l2\n'
    "Trainer 0.001 ['Loss']\n"
    'ValueError Estimator only support input as Gluon DataLoader. Alternatively, you can transform your'
    ' DataIter or any NDArray into Gluon DataLoader. Refer to gluon.data.dataloader\n'
    'ValueError Fit only support exactly one type of iteration, train by number of epochs or number of '
    'batches.Please specify one and only one of: epochs or batches.\n'
)

EXPECTED['script_estimator_resume'] = (
    'Training begin: using optimizer SGD with current learning rate 0.3000 \n'
    'Train for 2 epochs.\n'
    '[Epoch 0] Begin, current learning rate: 0.3000\n'
    '[Epoch 0] Finished in <t>s, training accuracy: 0.4375\n'
    '[Epoch 1] Begin, current learning rate: 0.3000\n'
    '[Epoch 1] Finished in <t>s, training accuracy: 0.5000\n'
    'Train finished using total <t>s with 2 epochs. training accuracy: 0.5000\n'
    "['res-epoch0batch4.params', 'res-epoch0batch4.states', 'res-epoch1batch5.params', 'res-epoch1batch"
    "5.states', 'res-epoch1batch8.params', 'res-epoch1batch8.states', 'res-symbol.json']\n"
    'CheckpointHandler: Checkpoint resumed from epoch 1 batch 8, continue to train for 1 epochs \n'
    'Training begin: using optimizer SGD with current learning rate 0.3000 \n'
    'Train for 1 epochs.\n'
    '[Epoch 0] Begin, current learning rate: 0.3000\n'
    '[Epoch 0] Finished in <t>s, training accuracy: 0.5000\n'
    'Train finished using total <t>s with 1 epochs. training accuracy: 0.5000\n'
    '1 8\n'
    "['res-epoch0batch4.params', 'res-epoch0batch4.states', 'res-epoch1batch5.params', 'res-epoch1batch"
    "5.states', 'res-epoch1batch8.params', 'res-epoch1batch8.states', 'res-epoch2batch12.params', 'res-"
    "epoch2batch12.states', 'res-symbol.json']\n"
    '[[-0.17455999553203583, -0.09852000325918198], [0.3891499936580658, -0.4889099895954132], [-0.0889'
    '4000202417374, 0.05446000024676323]]\n'
    '[[-0.17455999553203583, -0.09852000325918198], [0.3891499936580658, -0.4889099895954132], [-0.0889'
    '4000202417374, 0.05347999930381775]]\n'
)

EXPECTED['script_estimator_val_handlers'] = (
    "['training accuracy', 'training cross-entropy'] ['validation accuracy']\n"
    'Training begin: using optimizer Adam with current learning rate 0.0500 \n'
    'Train for 8 epochs.\n'
    '[Epoch 0] Begin, current learning rate: 0.0500\n'
    '[Epoch 0] Finished in <t>s, training accuracy: 0.7500\n'
    '[Epoch 1] Begin, current learning rate: 0.0500\n'
    'Validation Begin\n'
    '[Epoch 0] Finished in <t>s, validation accuracy: 0.7500\n'
    '[Epoch 1] Finished in <t>s, training accuracy: 0.8750\n'
    '[Epoch 2] Begin, current learning rate: 0.0500\n'
    '[Epoch 2] Finished in <t>s, training accuracy: 0.8125\n'
    '[Epoch 3] Begin, current learning rate: 0.0500\n'
    'Validation Begin\n'
    '[Epoch 0] Finished in <t>s, validation accuracy: 0.8750\n'
    '[Epoch 3] Finished in <t>s, training accuracy: 0.9375\n'
    '[Epoch 4] Begin, current learning rate: 0.0500\n'
    '[Epoch 4] Finished in <t>s, training accuracy: 0.9375\n'
    '[Epoch 5] Begin, current learning rate: 0.0500\n'
    'Validation Begin\n'
    '[Epoch 0] Finished in <t>s, validation accuracy: 1.0000\n'
    '[Epoch 5] Finished in <t>s, training accuracy: 0.9375\n'
    '[Epoch 6] Begin, current learning rate: 0.0500\n'
    '[Epoch 6] Finished in <t>s, training accuracy: 1.0000\n'
    '[Epoch 7] Begin, current learning rate: 0.0500\n'
    'Validation Begin\n'
    '[Epoch 0] Finished in <t>s, validation accuracy: 1.0000\n'
    '[Epoch 7] Finished in <t>s, training accuracy: 1.0000\n'
    '[Epoch 7] EarlyStoppingHanlder: early stopping due to validation accuracy not improving\n'
    'Train finished using total <t>s with 8 epochs. training accuracy: 1.0000\n'
    'es 7 2 1.0 greater\n'
    'Training begin: using optimizer Adam with current learning rate 0.0500 \n'
    'Train for 3 batches.\n'
    '[Epoch 0] Begin, current learning rate: 0.0500\n'
    '[Epoch 0] Finished in <t>s, training accuracy: 1.0000, training cross-entropy: -0.2111\n'
    'Train finished using total <t>s with 1 epochs. training accuracy: 1.0000, training cross-entropy: '
    '-0.2111\n'
    '[-4.4159, 2.2287, 2.4719, -0.0]\n'
)

EXPECTED['script_features'] = (
    'Features True\n'
    'LAPACK True ✔ LAPACK\n'
    'DEBUG False ✖ DEBUG\n'
    'TVM_OP False ✖ TVM_OP\n'
    'CAFFE False ✖ CAFFE\n'
    "RuntimeError Feature 'NOPE' is unknown, known features are: ['CUDA', 'CUDNN', 'NCCL', 'CUDA_RTC', "
    "'TENSORRT', 'CPU_SSE', 'CPU_SSE2', 'CPU_SSE3', 'CPU_SSE4_1', 'CPU_SSE4_2', 'CPU_SSE4A', 'CPU_AVX',"
    " 'CPU_AVX2', 'OPENMP', 'SSE', 'F16C', 'JEMALLOC', 'BLAS_OPEN', 'BLAS_ATLAS', 'BLAS_MKL', 'BLAS_APP"
    "LE', 'LAPACK', 'MKLDNN', 'OPENCV', 'CAFFE', 'PROFILER', 'DIST_KVSTORE', 'CXX14', 'INT64_TENSOR_SIZ"
    "E', 'SIGNAL_HANDLER', 'DEBUG', 'TVM_OP']\n"
    'list Feature LAPACK True ✔ LAPACK\n'
    "['BLAS_APPLE', 'BLAS_ATLAS', 'BLAS_MKL', 'BLAS_OPEN', 'CAFFE', 'CPU_AVX']\n"
    '1.9.1 Feature\n'
)

EXPECTED['script_image_det_iter'] = (
    'INFO Using 1 threads for decoding...\n'
    'INFO Set enviroment variable MXNET_CPU_WORKER_NTHREADS to a larger number to use more threads.\n'
    'INFO ImageDetIter: loading image list <tmp>/det.lst...\n'
    "[('data', (2, 3, 8, 8))] [('label', (2, 2, 5))]\n"
    '[[[0.0, 0.5, 0.20000000298023224, 0.8999999761581421, 0.6000000238418579], [-1.0, -1.0, -1.0, -1.0'
    ', -1.0]], [[1.0, 0.5, 0.20000000298023224, 0.8999999761581421, 0.6000000238418579], [1.0, 0.100000'
    '00149011612, 0.30000001192092896, 0.6000000238418579, 0.800000011920929]]] [70.0, 173.0, 115.0, 15'
    '7.0, 120.0, 154.0, 49.0, 121.0]\n'
    '[[[0.0, 0.5, 0.20000000298023224, 0.8999999761581421, 0.6000000238418579], [-1.0, -1.0, -1.0, -1.0'
    ', -1.0]], [[1.0, 0.5, 0.20000000298023224, 0.8999999761581421, 0.6000000238418579], [1.0, 0.100000'
    '00149011612, 0.30000001192092896, 0.6000000238418579, 0.800000011920929]]] [148.0, 98.0, 90.0, 100'
    '.0, 90.0, 127.0, 198.0, 158.0]\n'
    'INFO Using 1 threads for decoding...\n'
    'INFO Set enviroment variable MXNET_CPU_WORKER_NTHREADS to a larger number to use more threads.\n'
    'INFO ImageDetIter: loading image list <tmp>/det.lst...\n'
    "[('label', (2, 2, 5))]\n"
    'INFO Using 1 threads for decoding...\n'
    'INFO Set enviroment variable MXNET_CPU_WORKER_NTHREADS to a larger number to use more threads.\n'
    'INFO ImageDetIter: loading image list <tmp>/det.lst...\n'
    "[('data', (2, 3, 6, 6))] [('label', (2, 4, 5))]\n"
    "['DetBorrowAug', 'DetBorrowAug', 'DetBorrowAug', 'DetBorrowAug']\n"
    'INFO Using 1 threads for decoding...\n'
    'INFO Set enviroment variable MXNET_CPU_WORKER_NTHREADS to a larger number to use more threads.\n'
    'INFO ImageDetIter: loading image list <tmp>/det.lst...\n'
    '[0.05530000105500221, 0.29330000281333923, 0.41100001335144043] (4, 2, 5)\n'
)

EXPECTED['script_image_folder'] = (
    "['cat', 'dog', 'emu', 'zz_empty'] 7 [('cat0.png', 0), ('cat1.png', 0), ('dog0.png', 1), ('dog1.png"
    "', 1), ('dog2.png', 1), ('emu0.png', 2), ('emu1.png', 2)]\n"
    "(6, 6, 3) <class 'numpy.uint8'> 1 [233, 138, 103]\n"
    '(6, 5, 1) [187, 42, 152]\n'
    '(3, 3, 4, 4) [0, 0, 1] 0.015\n'
    '(3, 3, 4, 4) [1, 1, 2] 0.0286\n'
    '(1, 3, 4, 4) [2] -0.0176\n'
    '[(145.211, 0), (116.009, 0), (125.978, 10), (128.185, 10), (131.786, 10), (123.111, 20), (126.222,'
    ' 20)]\n'
    '4 [0, 0, 2, 2]\n'
    '3 [1, 2, 2]\n'
    '2 [0, 0]\n'
)

EXPECTED['script_imageiter_lst'] = (
    'INFO Using 1 threads for decoding...\n'
    'INFO Set enviroment variable MXNET_CPU_WORKER_NTHREADS to a larger number to use more threads.\n'
    'INFO ImageIter: loading image list <tmp>/data.lst...\n'
    "[('data', (2, 3, 6, 6))] [('softmax_label', (2, 2))]\n"
    '0 [[0.0, 0.0], [1.0, 2.0]] (2, 3, 6, 6) 61.26 [-2.0, 1.916700005531311, -0.057100001722574234] Non'
    'e\n'
    '0 [[2.0, 4.0], [0.0, 1.0]] (2, 3, 6, 6) 70.46 [1.9199999570846558, 0.3666999936103821, -0.77139997'
    '4822998] None\n'
    '1 [[1.0, 3.0], [0.0, 0.0]] (2, 3, 6, 6) 75.92 [1.2999999523162842, -1.1332999467849731, -1.5] None'
    '\n'
    'INFO Using 1 threads for decoding...\n'
    'INFO Set enviroment variable MXNET_CPU_WORKER_NTHREADS to a larger number to use more threads.\n'
    'INFO ImageIter: loading image list <tmp>/data.lst...\n'
    '(3, 3, 4, 4) 0.1095 [[-0.09200000017881393, 0.7300000190734863, 0.9229999780654907, -1.47500002384'
    '1858], [1.0809999704360962, 0.44999998807907104, 2.0429999828338623, -0.14499999582767487], [2.042'
    '9999828338623, 0.8349999785423279, -0.7749999761581421, -0.35499998927116394], [0.1000000014901161'
    '2, 1.6579999923706055, -1.4930000305175781, 2.0959999561309814]]\n'
    'INFO Using 1 threads for decoding...\n'
    'INFO Set enviroment variable MXNET_CPU_WORKER_NTHREADS to a larger number to use more threads.\n'
    'INFO ImageIter: loading image list <tmp>/data.lst...\n'
    'roll 0 [0.0, 1.0]\n'
    'roll 0 [2.0, 0.0]\n'
    'roll2 1 [1.0, 0.0]\n'
    'roll2 0 [1.0, 2.0]\n'
    'roll2 0 [0.0, 1.0]\n'
    'True\n'
    'INFO Using 1 threads for decoding...\n'
    'INFO Set enviroment variable MXNET_CPU_WORKER_NTHREADS to a larger number to use more threads.\n'
    'INFO ImageIter: loading image list <tmp>/data.lst...\n'
    'ValueError data_shape should have length 3, with dimensions CxHxW\n'
)

EXPECTED['script_legacy_rnn_cells'] = (
    "['data', 'l0_i2h_weight', 'l0_i2h_bias', 'l0_h2h_weight', 'l0_h2h_bias', 'l1_i2h_weight', 'l1_i2h_"
    "bias', 'l1_h2h_weight', 'l1_h2h_bias', 'l2_i2h_weight', 'l2_i2h_bias', 'l2_h2h_weight', 'l2_h2h_bi"
    "as']\n"
    "['l0_t2_out', 'l0_t2_state', 'l1_t2_out', 'l2_t2_out'] [{'shape': (0, 4), '__layout__': 'NC'}, {'s"
    "hape': (0, 4), '__layout__': 'NC'}, {'shape': (0, 4), '__layout__': 'NC'}, {'shape': (0, 4), '__la"
    "yout__': 'NC'}]\n"
    "['bi_t0', 'bi_t1'] 2 [{'shape': (0, 3), '__layout__': 'NC'}, {'shape': (0, 3), '__layout__': 'NC'}"
    ", {'shape': (0, 3), '__layout__': 'NC'}, {'shape': (0, 3), '__layout__': 'NC'}]\n"
    "[(2, 2, 4, 4)] [{'shape': (0, 2, 4, 4), '__layout__': 'NCHW'}, {'shape': (0, 2, 4, 4), '__layout__"
    "': 'NCHW'}]\n"
    "[(2, 3, 8)] [{'shape': (4, 0, 4), '__layout__': 'LNC'}]\n"
    "SequentialRNNCell ['BidirectionalCell', 'BidirectionalCell'] fu_l0_\n"
    "[('fu_l0_h2h_o_bias', (4,)), ('fu_l0_h2h_o_weight', (4, 4)), ('fu_l0_h2h_r_bias', (4,)), ('fu_l0_h"
    "2h_r_weight', (4, 4)), ('fu_l0_h2h_z_bias', (4,)), ('fu_l0_h2h_z_weight', (4, 4))]\n"
    "['fu_parameters'] 0.0\n"
    'INFO Saved checkpoint to "<tmp>/rnn-0003.params"\n'
    "['rnn-0003.params', 'rnn-symbol.json']\n"
    "['fc_bias', 'fc_weight', 'lstm_h2h_bias', 'lstm_h2h_weight', 'lstm_i2h_bias', 'lstm_i2h_weight'] T"
    'rue\n'
    "['arg:fc_bias', 'arg:fc_weight', 'arg:lstm_h2h_c_bias', 'arg:lstm_h2h_c_weight', 'arg:lstm_h2h_f_b"
    "ias', 'arg:lstm_h2h_f_weight', 'arg:lstm_h2h_i_bias', 'arg:lstm_h2h_i_weight', 'arg:lstm_h2h_o_bia"
    "s', 'arg:lstm_h2h_o_weight', 'arg:lstm_i2h_c_bias', 'arg:lstm_i2h_c_weight', 'arg:lstm_i2h_f_bias'"
    ", 'arg:lstm_i2h_f_weight', 'arg:lstm_i2h_i_bias', 'arg:lstm_i2h_i_weight', 'arg:lstm_i2h_o_bias', "
    "'arg:lstm_i2h_o_weight']\n"
)

EXPECTED['script_lstmp_vardrop'] = (
    'LSTMPCell(4 -> 20 -> 3)\n'
    "[('lstmp0_h2h_bias', (20,)), ('lstmp0_h2h_weight', (20, 3)), ('lstmp0_h2r_weight', (3, 5)), ('lstm"
    "p0_i2h_bias', (20,)), ('lstmp0_i2h_weight', (20, 4))]\n"
    '[[[0.011590000241994858, -0.00749000022187829, -0.015709999948740005], [0.034049998968839645, -0.0'
    '08799999952316284, -0.04162999987602234], [0.057089999318122864, -0.0030300000216811895, -0.066279'
    '99991178513]], [[0.05017999932169914, 0.01496999990195036, -0.057029999792575836], [0.076789997518'
    '06259, 0.02711999975144863, -0.08382000029087067], [0.0885699987411499, 0.04002000018954277, -0.09'
    '420999884605408]]]\n'
    '[(2, 3), (2, 5)] [[-0.001500000013038516, -0.05933000147342682, -0.25764000415802, -0.203040003776'
    '5503, -0.25459998846054077], [-0.005150000099092722, -0.04966000095009804, -0.5698000192642212, -0'
    '.38975000381469727, -0.48809999227523804]]\n'
    '0.0\n'
    'VariationalDropoutCell(p_out = 0.2, p_state = 0.3)\n'
    '[[[0.2379000037908554, 0.2379000037908554, 0.2379000037908554, 0.0], [0.38199999928474426, 0.38199'
    '999928474426, 0.38199999928474426, 0.0], [0.550000011920929, 0.550000011920929, 0.550000011920929,'
    ' 0.0]], [[0.0003000000142492354, 0.0003000000142492354, 0.0, 0.0003000000142492354], [0.0003999999'
    '8989515007, 0.00039999998989515007, 0.0, 0.00039999998989515007], [0.0006000000284984708, 0.000600'
    '0000284984708, 0.0, 0.0006000000284984708]]]\n'
    '[[[0.19030000269412994, 0.19030000269412994, 0.19030000269412994, 0.19030000269412994], [0.2299000'
    '0247955322, 0.22990000247955322, 0.22990000247955322, 0.22990000247955322], [0.23669999837875366, '
    '0.23669999837875366, 0.23669999837875366, 0.23669999837875366]], [[0.0044999998062849045, 0.004499'
    '9998062849045, 0.0044999998062849045, 0.0044999998062849045], [0.005400000140070915, 0.00540000014'
    '0070915, 0.005400000140070915, 0.005400000140070915], [0.00559999980032444, 0.00559999980032444, 0'
    '.00559999980032444, 0.00559999980032444]]]\n'
)

EXPECTED['script_module_states_fixed'] = (
    "['loss_output', 'hout_output'] ['data']\n"
    '[[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]\n'
    '0 [2.0749800205230713] [0.22752000391483307, 0.22752000391483307, 0.22752000391483307, 0.227520003'
    '91483307]\n'
    '1 [1.034409999847412] [0.012659999541938305, -0.08449000120162964, -0.18164999783039093, -0.278800'
    '01068115234]\n'
    '2 [0.26895999908447266] [-0.08963000029325485, -0.1907999962568283, -0.29197001457214355, -0.39313'
    '000440597534]\n'
    '[0.0, 0.0, 0.0] [-0.025869999080896378, -0.1141899973154068, -0.20250999927520752, -0.290829986333'
    '84705]\n'
    'MXNetError\n'
    "('l1', 1.5) perplexity\n"
    "('perplexity', 1.8898223592057068)\n"
    "('myloss', 2.0)\n"
)

EXPECTED['script_monitor_module'] = (
    '1 fc1_backward_output1 0.0\n'
    '1 fc1_backward_output2 0.0\n'
    '1 fc1_bias 0.0\n'
    '1 fc1_output 0.10661023\n'
    '1 fc1_weight 0.1\n'
    '1 fc2_backward_output0 0.0\n'
    '1 fc2_backward_output1 0.045303687\n'
    '1 fc2_backward_output2 0.5\n'
    '1 fc2_bias 0.083333336\n'
    '1 fc2_output 0.03176649\n'
    '1 fc2_weight 0.10028465\n'
    '2 fc1_backward_output1 0.0045091584\n'
    '2 fc1_backward_output2 0.009324836\n'
    '2 fc1_bias 0.0015541393\n'
    '2 fc1_output 0.29670256\n'
    '2 fc1_weight 0.09925201\n'
    '2 fc2_backward_output0 0.007795276\n'
    '2 fc2_backward_output1 0.11866446\n'
    '2 fc2_backward_output2 0.63425183\n'
    '2 fc2_bias 0.02237531\n'
    '2 fc2_output 0.12442906\n'
    '2 fc2_weight 0.10074469\n'
    'INFO Batch:       1 fc1_weight                     0.099349104\t\n'
    'INFO Batch:       1 fc1_weight                     0.099349104\t\n'
    'INFO Batch:       1 fc2_weight                     0.1122268\t\n'
    'INFO Batch:       1 fc2_weight                     0.1122268\t\n'
    'INFO Batch:       1 fc2_weight                     0.1122268\t\n'
    'INFO Batch:       1 fc1_weight                     0.099349104\t\n'
    'INFO Batch:       1 fc1_weight                     0.099349104\t\n'
    'INFO Batch:       1 fc2_weight                     0.1122268\t\n'
    '[[0.09934999793767929, 0.09927999973297119, 0.09922000020742416, 0.09915000200271606], [0.09934999'
    '793767929, 0.09927999973297119, 0.09922000020742416, 0.09915000200271606], [0.09934999793767929, 0'
    '.09927999973297119, 0.09922000020742416, 0.09915000200271606]]\n'
)

EXPECTED['script_more_mistakes'] = (
    'ValueError Attributes need to be string\n'
    'ValueError Set Attr only accepts string values\n'
    'ok Symbol\n'
    'ValueError \n'
    'ValueError \n'
    'ValueError \n'
    'ValueError \n'
    'ValueError \n'
    'ValueError \n'
    'MXNetError \n'
    'ok NDArray\n'
    'MXNetError \n'
    'MXNetError \n'
    'MXNetError \n'
    'MXNetError \n'
    'WARNING: discarded 1 sentences longer than the largest bucket.\n'
    'ValueError \n'
    'WARNING: discarded 0 sentences longer than the largest bucket.\n'
    'ValueError \n'
    'INFO Using 1 threads for decoding...\n'
    'INFO Set enviroment variable MXNET_CPU_WORKER_NTHREADS to a larger number to use more threads.\n'
    'INFO ImageIter: loading image list...\n'
    "OSError [Errno 2] No such file or directory: '<tmp>/no.png'\n"
    'ValueError metrics must be a Metric or a list of Metric, refer to mxnet.metric.EvalMetric: acc\n'
    'ValueError Trainer must be a Gluon Trainer instance, refer to gluon.Trainer:sgd\n'
    'ValueError context must be a Context or a list of Context, for example mx.cpu() or [mx.gpu(0), mx.'
    'gpu(1)], refe\n'
    'ok EarlyStoppingHandler\n'
    'ValueError To save best model only, please provide one of the metric objects from estimator.train_'
    'metrics and e\n'
    'ok CheckpointHandler\n'
    'ValueError Fit only support exactly one type of iteration, train by number of epochs or number of '
    'batches.Pleas\n'
    'ValueError handlers must be an EventHandler or a list of EventHandler, got: logging\n'
    "ImageIter ['CenterCropAug', 'HorizontalFlipAug', 'CastAug', 'ColorNormalizeAug']\n"
)

EXPECTED['script_multibox'] = (
    '(1, 12, 4) [[0.0, 0.0, 0.5, 0.5], [0.125, 0.125, 0.375, 0.375], [0.0, 0.07320000231266022, 0.60360'
    '0025177002, 0.426800012588501], [0.5, 0.0, 1.0, 0.5]]\n'
    '[[0.10000000149011612, 0.10000000149011612, 0.4000000059604645, 0.4000000059604645], [0.1439000070'
    '0950623, 0.03790000081062317, 0.3560999929904938, 0.46209999918937683], [-0.009800000116229057, 0.'
    '16339999437332153, 0.5098000168800354, 0.33660000562667847], [0.6000000238418579, 0.10000000149011'
    '612, 0.8999999761581421, 0.4000000059604645], [0.6438999772071838, 0.03790000081062317, 0.85610002'
    '27928162, 0.46209999918937683], [0.490200012922287, 0.16339999437332153, 1.0097999572753906, 0.336'
    '60000562667847], [0.10000000149011612, 0.6000000238418579, 0.4000000059604645, 0.8999999761581421]'
    ', [0.14390000700950623, 0.5378999710083008, 0.3560999929904938, 0.9621000289916992], [-0.009800000'
    '116229057, 0.6633999943733215, 0.5098000168800354, 0.8366000056266785], [0.6000000238418579, 0.600'
    '0000238418579, 0.8999999761581421, 0.8999999761581421], [0.6438999772071838, 0.5378999710083008, 0'
    '.8561000227928162, 0.9621000289916992], [0.490200012922287, 0.6633999943733215, 1.0097999572753906'
    ', 0.8366000056266785]]\n'
    '[[1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 2.0, -1.0, 2.0]]\n'
    '[[0.0, 1.0, -2.5541000366210938, -1.1157000064849854, 0.0, 2.0, 0.9115999937057495, 2.349999904632'
    '5684, -0.8579000234603882, 1.414199948310852, -3.495300054550171, 0.6171000003814697, 0.0, 0.0, 0.'
    '0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, '
    '0.0, 0.0, 0.0, -1.0, -1.1157000064849854, -1.1157000064849854, 0.0, 0.0, 0.0, 0.0, 0.8579000234603'
    '882, -1.414199948310852, -2.05679988861084, 0.6171000003814697]]\n'
    '20.0\n'
    '[[0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0]] [0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.91'
    '20000004768372, 2.3499999046325684]\n'
    '[[[1.0, 0.9465000033378601, 0.020999999716877937, 0.06970000267028809, 0.6067000031471252, 0.41620'
    '001196861267], [1.0, 0.9465000033378601, 0.4950000047683716, 0.0, 1.0, 0.5051000118255615], [1.0, '
    '0.9465000033378601, 0.4950000047683716, 0.4950000047683716, 0.9850000143051147, 0.9900000095367432'
    '], [1.0, 0.9465000033378601, 0.6225000023841858, 0.6223999857902527, 0.8774999976158142, 0.8801000'
    '118255615], [0.0, 0.8755999803543091, 0.0, 0.0, 0.48500001430511475, 0.49000000953674316], [-1.0, '
    '0.8755999803543091, 0.0, 0.5695000290870667, 0.6158000230789185, 0.9375], [-1.0, 0.946500003337860'
    '1, 0.4950000047683716, 0.4950000047683716, 0.9850000143051147, 0.9900000095367432], [-1.0, 0.94650'
    '00033378601, 0.6225000023841858, 0.6223999857902527, 0.8774999976158142, 0.8801000118255615], [-1.'
    '0, -1.0, -1.0, -1.0, -1.0, -1.0], [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0], [-1.0, -1.0, -1.0, -1.0, -'
    '1.0, -1.0], [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0]]]\n'
    '[[[1.0, 0.9465000033378601, 0.028599999845027924, 0.06080000102519989, 0.623199999332428, 0.410899'
    '9967575073], [1.0, 0.9465000033378601, 0.4936999976634979, -0.0024999999441206455, 0.9962999820709'
    '229, 0.5024999976158142], [1.0, 0.9465000033378601, 0.48249998688697815, 0.4862000048160553, 0.977'
    '5000214576721, 0.9837999939918518], [1.0, 0.9465000033378601, 0.6237000226974487, 0.62559998035430'
    '91, 0.8762999773025513, 0.8794000148773193], [0.0, 0.8755999803543091, -0.017500000074505806, -0.0'
    '13799999840557575, 0.47749999165534973, 0.4837999939918518], [0.0, 0.8755999803543091, 0.123700000'
    '34570694, 0.12559999525547028, 0.37630000710487366, 0.37940001487731934], [0.0, 0.8755999803543091'
    ', 0.11810000240802765, 0.6200000047683716, 0.3668999969959259, 0.8700000047683716], [0.0, 0.875599'
    '9803543091, 0.001500000013038516, 0.57669997215271, 0.6140999794006348, 0.9373999834060669], [0.0,'
    ' 0.11729999631643295, 0.6349999904632568, 0.13689999282360077, 0.8799999952316284, 0.3831000030040'
    '741], [0.0, 0.11729999631643295, 0.38440001010894775, 0.06880000233650208, 0.9879000186920166, 0.4'
    '2410001158714294], [-1.0, 0.11729999631643295, 0.004900000058114529, 0.5199999809265137, 0.5151000'
    '022888184, 1.0099999904632568], [0.0, 0.11729999631643295, 0.4250999987125397, 0.5608000159263611,'
    ' 1.0196000337600708, 0.9108999967575073]]]\n'
)

EXPECTED['script_np_scopes'] = (
    'False False\n'
    'INFO NumPy-shape semantics has been activated in your code. This is required for creating and mani'
    'pulating scalar and zero-size tensors, which were not supported in MXNet before, as in the officia'
    'l NumPy library. Please DO NOT manually deactivate this semantics while using `mxnet.numpy` and `m'
    'xnet.numpy_extension` modules.\n'
    'True\n'
    '(0, 3) \n'
    '[]\n'
    '<NDArray 0x3 @cpu(0)>\n'
    '() \n'
    '3.0\n'
    '<NDArray  @cpu(0)>\n'
    'False\n'
    'True False\n'
    'INFO NumPy array semantics has been activated in your code. This allows you to use operators from '
    'MXNet NumPy and NumPy Extension modules as well as MXNet NumPy `ndarray`s.\n'
    'True True\n'
    '[[1. 2.]\n'
    ' [3. 4.]] ndarray float32\n'
    '[1 1] []\n'
    'array(5.) [1. 0.]\n'
    'False False\n'
    'False\n'
    '[ 8. 12.] ndarray\n'
    '(True, (2, 3)) False\n'
    'False True\n'
    'ValueError NumPy Shape semantics is required in using NumPy array semantics.\n'
    'False False\n'
)

EXPECTED['script_numeric_checks'] = (
    'forward ok\n'
    'backward ok\n'
    '\n'
    '*** Maximum errors for vector of size 4:  rtol=0.0001, atol=0.001\n'
    '\n'
    '  1: Error 877.111755  Location of error: (1, 0), EXPECTED__plus0_output=0.37500000, FORWARD__plus'
    '0_output=1.37249494\n'
    '  2: Error 828.339355  Location of error: (0, 1), EXPECTED__plus0_output=-1.00000000, FORWARD__plu'
    's0_output=-0.15852904\n'
    '  3: Error 537.750000  Location of error: (1, 1), EXPECTED__plus0_output=-6.00000000, FORWARD__plu'
    's0_output=-6.90929747\n'
    '  4: Error 417.638947  Location of error: (0, 0), EXPECTED__plus0_output=1.00000000, FORWARD__plus'
    '0_output=1.47942555\n'
    'forward fail: \n'
    '\n'
    '*** Maximum errors for vector of size 4:  rtol=0.0001, atol=0.001\n'
    '\n'
    '  1: Error 681.480774  Location of error: (0, 0), EXPECTED_x=2.00000000, BACKWARD_x=2.87758255\n'
    '  2: Error 516.556274  Location of error: (0, 1), EXPECTED_x=-1.00000000, BACKWARD_x=-0.45969772\n'
    '  3: Error 330.698975  Location of error: (1, 1), EXPECTED_x=3.00000000, BACKWARD_x=2.58385324\n'
    '  4: Error 68.538887  Location of error: (1, 0), EXPECTED_x=0.25000000, BACKWARD_x=0.32073718\n'
    'backward fail: \n'
    'numeric ok\n'
    '\n'
    '*** Maximum errors for vector of size 2:  rtol=0.001, atol=1e-05\n'
    '\n'
    '  1: Error 47.393365  Location of error: (1,), a=2.00000000, b=2.10000000\n'
    "['Items are not equal:', 'Error 47.393365 exceeds tolerance rtol=1.000000e-03, atol=1.000000e-05 ("
    "mismatch 50.000000%).', 'Location of maximum error: (1,), a=2.00000000, b=2.10000000']\n"
    "list 1 <class 'numpy.float32'>\n"
)

EXPECTED['script_params_save_load_options'] = (
    "['a.bias', 'a.weight', 'b.bias', 'b.weight', 'c.bias', 'c.weight'] ['b.bias', 'b.weight', 'c.bias'"
    ", 'c.weight']\n"
    '[[0.5, 0.5, 0.5]] 3.0\n'
    "AssertionError Parameter 'weight' is missing in file '<tmp>/full.params', which contains parameter"
    "s: 'a.w\n"
    'MXNetError\n'
    "['0.bias', '0.weight']\n"
    "AssertionError Parameter '1.weight' is missing in file '<tmp>/half.params', which contains para\n"
    '[[1.2000000476837158]]\n'
    "<class 'numpy.float32'> float32\n"
    "<class 'numpy.float16'> <class 'numpy.float16'>\n"
    "AssertionError Failed loading Parameter 'dense3_weight' from saved params: dtype incompatible expe"
    'cted float32 vs s\n'
    "['dense0_bias', 'dense0_weight', 'dense2_bias', 'dense2_weight']\n"
    "ValueError Prefix 'zzz' is to be striped before saving, but Parameter's name 'shared0_dense0_weigh"
    "t' does not s\n"
)

EXPECTED['script_proposal'] = (
    '(12, 5) [[0.0, 39.652000427246094, 14.604000091552734, 79.0, 35.332000732421875], [0.0, 36.2360000'
    '61035156, 7.9720001220703125, 66.33399963378906, 36.119998931884766], [0.0, 31.854999542236328, 11'
    '.196999549865723, 52.64500045776367, 48.52399826049805], [0.0, 10.501999855041504, 22.023000717163'
    '086, 30.40999984741211, 63.0], [0.0, 51.194000244140625, 36.30500030517578, 79.0, 63.0], [0.0, 29.'
    '910999298095703, 0.0, 49.78300094604492, 30.11400032043457], [1.0, 0.0, 20.040000915527344, 25.070'
    '999145507812, 54.856998443603516], [1.0, 0.0, 28.893999099731445, 35.04399871826172, 48.6500015258'
    '78906], [1.0, 47.90599822998047, 1.8589999675750732, 67.12300109863281, 40.32400131225586], [1.0, '
    '7.184000015258789, 9.937999725341797, 32.94200134277344, 47.847999572753906], [1.0, 25.36100006103'
    '5156, 0.0, 69.0, 23.281999588012695], [1.0, 0.0, 15.314000129699707, 29.156999588012695, 40.874000'
    '549316406]]\n'
    '[[0.0, 23.304000854492188, 5.209000110626221, 79.0, 47.66299819946289], [0.0, 0.0, 4.0460000038146'
    '97, 37.81999969482422, 63.0], [0.0, 30.38800048828125, 16.611000061035156, 79.0, 63.0], [0.0, 0.0,'
    ' 0.0, 52.327999114990234, 29.60300064086914], [0.0, 7.03000020980835, 39.573001861572266, 79.0, 63'
    '.0]] [[0.9832000136375427], [0.9139000177383423], [0.8816999793052673], [0.8003000020980835], [0.7'
    '973999977111816]]\n'
    '[[[[0.49000000953674316, 0.4731000065803528], [0.3849000036716461, 0.633400022983551]], [[0.563899'
    '9938964844, 0.3813000023365021], [0.6000000238418579, 0.7379999756813049]]], [[[0.4982999861240387'
    ', 0.4629000127315521], [0.6349999904632568, 0.5964000225067139]], [[0.574400007724762, 0.620299994'
    '9455261], [0.5726000070571899, 0.5698000192642212]]]]\n'
    '[[[[0.13989999890327454, 0.4262999892234802, 0.534600019454956], [0.4205000102519989, 0.2160000056'
    '028366, 0.43950000405311584]], [[0.8025000095367432, 0.5447999835014343, 0.44209998846054077], [0.'
    '18880000710487366, 0.14509999752044678, 0.4374000132083893]]], [[[0.2955999970436096, 0.3364999890'
    '3274536, 0.5774000287055969], [0.5866000056266785, 0.3540000021457672, 0.5260000228881836]], [[0.4'
    '392000138759613, 0.28850001096725464, 0.5304999947547913], [0.31040000915527344, 0.508400022983551'
    ', 0.6366999745368958]]]]\n'
    '[[[[0.9138000011444092, 0.8651000261306763], [0.989300012588501, 0.989300012588501]], [[0.94230002'
    '1648407, 0.9822999835014343], [0.8715000152587891, 0.9243000149726868]]], [[[0.919700026512146, 0.'
    '9517999887466431], [0.989300012588501, 0.989300012588501]], [[0.942300021648407, 0.982299983501434'
    '3], [0.8715000152587891, 0.9243000149726868]]]]\n'
)

EXPECTED['script_quantize_model'] = (
    "['data', 'conv0_weight_quantize', 'conv0_bias_quantize', 'conv0_weight_quantize_min', 'conv0_weigh"
    "t_quantize_max', 'conv0_bias_quantize_min', 'conv0_bias_quantize_max', 'fc0_weight', 'fc0_bias', '"
    "softmax_label']\n"
    "['null', '_contrib_quantize_v2', 'null', 'null', 'null', 'null', 'null', 'null', '_contrib_quantiz"
    "ed_conv', '_contrib_requantize', '_contrib_dequantize', 'Activation', 'Pooling', 'Flatten', 'null'"
    ", 'null', 'FullyConnected', 'null', 'SoftmaxOutput']\n"
    "[('conv0_bias_quantize', 'int8', (4,)), ('conv0_bias_quantize_max', 'float32', (1,)), ('conv0_bias"
    "_quantize_min', 'float32', (1,)), ('conv0_weight_quantize', 'int8', (4, 1, 3, 3)), ('conv0_weight_"
    "quantize_max', 'float32', (1,)), ('conv0_weight_quantize_min', 'float32', (1,)), ('fc0_bias', 'flo"
    "at32', (3,)), ('fc0_weight', 'float32', (3, 64))]\n"
    "['data_quantize', 'quantized_conv0', 'requantize_conv0', 'quantized_relu0', 'quantized_pool0', 'qu"
    "antized_flat0', 'quantized_fc0', 'requantize_fc0', 'fc0_dequantize', 'softmax']\n"
    "[('data_quantize', [('max_calib_range', '1.000000'), ('min_calib_range', '0.000000'), ('out_type',"
    " 'auto')]), ('requantize_conv0', [('max_calib_range', '2.468750'), ('min_calib_range', '-1.343750'"
    "), ('out_type', 'auto')]), ('requantize_fc0', [('max_calib_range', '1.918945'), ('min_calib_range'"
    ", '0.041992'), ('out_type', 'auto')])]\n"
    '[[0.11999999731779099, 0.7300000190734863, 0.15000000596046448], [0.12399999797344208, 0.753000020'
    '980835, 0.12300000339746475], [0.13600000739097595, 0.7450000047683716, 0.11800000071525574], [0.1'
    '0899999737739563, 0.7379999756813049, 0.15399999916553497], [0.11699999868869781, 0.68300002813339'
    '23, 0.20100000500679016]]\n'
    '[[0.14399999380111694, 0.7170000076293945, 0.1379999965429306], [0.20399999618530273, 0.6489999890'
    '327454, 0.1459999978542328], [0.15000000596046448, 0.6650000214576721, 0.1860000044107437], [0.155'
    '0000011920929, 0.6669999957084656, 0.17800000309944153], [0.16599999368190765, 0.6209999918937683,'
    ' 0.21299999952316284]]\n'
)

EXPECTED['script_quantize_ops'] = (
    '\n'
    '[[ -62   -8    0   12]\n'
    ' [  37   49  111 -127]]\n'
    '<NDArray 2x4 @cpu(0)> \n'
    '[-3.1]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[3.1]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '[[  0   0   0  38]\n'
    ' [115 153 255   0]]\n'
    '<NDArray 2x4 @cpu(0)> \n'
    '[-2.]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[2.]\n'
    '<NDArray 1 @cpu(0)>\n'
    "<class 'numpy.int8'> \n"
    '[[ 62   8   0  12]\n'
    ' [ 37  49 111 127]]\n'
    '<NDArray 2x4 @cpu(0)> \n'
    '[-3.1]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[3.1]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '[[  0   0   0  19]\n'
    ' [ 57  76 172   0]]\n'
    '<NDArray 2x4 @cpu(0)> \n'
    '[-4.]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[4.]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '[[-1.5074509  -0.1945098   0.          0.2917647 ]\n'
    ' [ 0.89960784  1.1913725   2.6988235  -3.0878432 ]]\n'
    '<NDArray 2x4 @cpu(0)>\n'
    '\n'
    '[[0.         0.         0.         0.29745597]\n'
    ' [0.9001957  1.1976516  1.9960861  0.        ]]\n'
    '<NDArray 2x4 @cpu(0)>\n'
    '\n'
    '[[  0   0]\n'
    ' [  0 127]]\n'
    '<NDArray 2x2 @cpu(0)> \n'
    '[-931.3226]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[931.3226]\n'
    '<NDArray 1 @cpu(0)>\n'
    '\n'
    '[[ 12 -30]\n'
    ' [  0 127]]\n'
    '<NDArray 2x2 @cpu(0)> \n'
    '[-0.5]\n'
    '<NDArray 1 @cpu(0)> \n'
    '[0.5]\n'
    '<NDArray 1 @cpu(0)>\n'
)

EXPECTED['script_rare_optimizers'] = (
    'lars 0.1 [-0.20077000558376312, -0.10080000013113022, -0.0008200000156648457, 0.09915000200271606]'
    ' [-0.005960000213235617, 0.0018700000364333391, 0.004089999943971634]\n'
    'signum 0.01 [-0.23991000652313232, -0.1399500072002411, -0.03999000042676926, 0.05996999889612198]'
    ' [-0.03999000042676926, 0.03999000042676926, 0.03999000042676926]\n'
    'signum 0.01 [-0.23999999463558197, -0.14000000059604645, -0.03999999910593033, 0.05999999865889549'
    '] [-0.03999999910593033, 0.019999999552965164, 0.03999999910593033]\n'
    'ftml 0.05 [-0.3082500100135803, -0.20679999887943268, -0.10535000264644623, -0.003930000122636557]'
    ' [-0.027790000662207603, 0.04489000141620636, 0.01882999949157238]\n'
    'nadam 0.05 [-0.31707000732421875, -0.21550999581813812, -0.11394000053405762, -0.01236999966204166'
    '4] [-0.027170000597834587, 0.04566999897360802, 0.018279999494552612]\n'
    'adadelta 0.01 [-0.2645399868488312, -0.1685599982738495, -0.07255999743938446, 0.02346000075340271'
    '] [-0.03465000167489052, 0.01761999912559986, 0.02053000032901764]\n'
    'adamax 0.02 [-0.2621299922466278, -0.16670000553131104, -0.06904000043869019, 0.029529999941587448'
    '] [-0.04464000090956688, 0.03075999952852726, 0.042660001665353775]\n'
    'lamb 0.05 [-0.22934000194072723, -0.12933999300003052, -0.029349999502301216, 0.07064999639987946]'
    ' [-0.00011999999696854502, 0.00011999999696854502, 0.00011999999696854502]\n'
    'sgd 0.01 [-0.22273999452590942, -0.12353000044822693, -0.024310000240802765, 0.0749099999666214] ['
    '-0.009019999764859676, 0.0029200001154094934, 0.006099999882280827]\n'
    'adam 0.001 [-0.2769100069999695, -0.17675000429153442, -0.07659000158309937, 0.023579999804496765]'
    ' [-0.05939999967813492, 0.054340001195669174, 0.061889998614788055]\n'
)

EXPECTED['script_reshape_mistakes'] = (
    'ValueError\n'
    'MXNetError\n'
    'Training begin: using optimizer SGD with current learning rate 0.0100 \n'
    'Train for 1 epochs.\n'
    '[Epoch 0] Begin, current learning rate: 0.0100\n'
    'MXNetError in fit\n'
)

EXPECTED['script_sequential_python_module'] = (
    'INFO Epoch[0] Train-accuracy=0.500000\n'
    'INFO Epoch[0] Time cost=<t>\n'
    'INFO Epoch[1] Train-accuracy=0.400000\n'
    'INFO Epoch[1] Time cost=<t>\n'
    "['data'] ['softmax_output'] [DataDesc[softmax_label,(5,),<class 'numpy.float32'>,NCHW]]\n"
    "[('fc1_bias', [-0.0006000000284984708, -0.0006000000284984708, -0.0006000000284984708, -0.00060000"
    "00284984708]), ('fc1_weight', [[0.20000000298023224, 0.19990000128746033, 0.19990000128746033], [0"
    '.20000000298023224, 0.19990000128746033, 0.19990000128746033], [0.20000000298023224, 0.19990000128'
    '746033, 0.19990000128746033], [0.20000000298023224, 0.19990000128746033, 0.19990000128746033]]), ('
    "'fc2_bias', [-0.005900000222027302, 0.005900000222027302]), ('fc2_weight', [[0.17900000512599945, "
    '0.17900000512599945, 0.17900000512599945, 0.17900000512599945], [0.22100000083446503, 0.2210000008'
    '3446503, 0.22100000083446503, 0.22100000083446503]])]\n'
    "[('accuracy', 0.5), ('cross-entropy', 0.691186499595642)]\n"
    '[[0.49619999527931213, 0.5037999749183655], [0.4936999976634979, 0.5062999725341797], [0.491200000'
    '0476837, 0.5088000297546387]]\n'
    "['data'] ['pyloss_output']\n"
)

EXPECTED['script_svrg'] = (
    'INFO Epoch[0] Train-mse=0.224351\n'
    'INFO Epoch[0] Time cost=<t>\n'
    'INFO Epoch[1] Train-mse=0.010530\n'
    'INFO Epoch[1] Time cost=<t>\n'
    'INFO Epoch[2] Train-mse=0.000823\n'
    'INFO Epoch[2] Time cost=<t>\n'
    'INFO Epoch[3] Train-mse=0.030652\n'
    'INFO Epoch[3] Time cost=<t>\n'
    "[('fc_bias', [0.6424000263214111]), ('fc_weight', [[0.42267000675201416, 0.43873000144958496]])]\n"
    "[('mse', 0.0205117033328861)]\n"
)

EXPECTED['script_test_utils_misc'] = (
    '(4, 5) (9, 10, 6) (1, 1, 2, 1)\n'
    "<class 'numpy.float64'> (2, 3) default\n"
    "csr (4, 3) <class 'numpy.float32'>\n"
    'row_sparse (4, 3)\n'
    'True True\n'
    '[[3], [12]]\n'
    'assert_exception ok\n'
    '7\n'
    'None\n'
    '1 None\n'
    'dict 4\n'
    '1e-20 1e-05 0 (0.01, 0.1)\n'
    '\n'
    '*** Maximum errors for vector of size 2:  rtol=0.0001, atol=0.001\n'
    '\n'
    '  1: Error nan  Location of error: (1,), a=nan, b=nan\n'
    'nan \n'
    'equal_nan ok\n'
    '\n'
    '*** Maximum errors for vector of size 2:  rtol=0.001, atol=0\n'
    '\n'
    '  1: Error 47.619048  Location of error: (1,), a=2.00000000, b=2.10000000\n'
    "['Items are not equal:', 'Error 47.619048 exceeds tolerance rtol=1.000000e-03, atol=0.000000e+00 ("
    "mismatch 50.000000%).']\n"
    'True check_speed\n'
)

EXPECTED['script_transforms_rare'] = (
    '[[248, 218, 2, 129], [7, 33, 176, 94], [18, 165, 199, 174]]\n'
    '[[141, 86, 182], [208, 154, 61]]\n'
    '(3, 6, 7) [[0.0, 0.10000000149011612, 0.6096000075340271, 0.7339000105857849, 0.3386000096797943, '
    '0.290800005197525, 0.023499999195337296], [0.305400013923645, 0.1770000010728836, 0.22679999470710'
    '754, 0.39500001072883606, 0.4221999943256378, 0.2939999997615814, 0.23469999432563782], [0.6391000'
    '151634216, 0.85589998960495, 0.42480000853538513, 0.6195999979972839, 0.508400022983551, 0.0522999'
    '98700618744, 0.30979999899864197], [0.4797999858856201, 0.09229999780654907, 0.31790000200271606, '
    '0.7339000105857849, 0.7573999762535095, 0.6193000078201294, 0.5062999725341797], [0.27239999175071'
    '716, 0.08980000019073486, 0.39890000224113464, 0.5142999887466431, 0.8521999716758728, 0.776300013'
    '0653381, 0.6158999800682068], [0.012199999764561653, 0.32829999923706055, 0.8234000205993652, 0.37'
    '88999915122986, 0.3921999931335449, 0.24490000307559967, 0.0]]\n'
    '[[0.7131999731063843, 0.8399999737739563, 0.6887999773025513, 0.5288000106811523, 0.59880000352859'
    '5, 0.6636999845504761, 0.7329999804496765], [0.49939998984336853, 0.6184999942779541, 0.5907999873'
    '161316, 0.4284000098705292, 0.5425999760627747, 0.7408999800682068, 0.7084000110626221], [0.578000'
    '009059906, 0.6685000061988831, 0.612500011920929, 0.3416999876499176, 0.2678999900817871, 0.529900'
    '0144004822, 0.6539000272750854], [0.5810999870300293, 0.5400999784469604, 0.5748000144958496, 0.42'
    '750000953674316, 0.20759999752044678, 0.3580000102519989, 0.5382999777793884], [0.4564999938011169'
    '4, 0.2468000054359436, 0.27489998936653137, 0.2874999940395355, 0.19470000267028809, 0.48590001463'
    '890076, 0.7128000259399414], [0.5888000130653381, 0.4611000120639801, 0.3312999904155731, 0.328999'
    '99618530273, 0.31029999256134033, 0.4797999858856201, 0.6123999953269958]]\n'
    '[[0.0, 0.6299999952316284, 0.3693000078201294, 0.5784000158309937, 0.40779998898506165, 0.26179999'
    '113082886, 0.0], [0.0, 0.5881999731063843, 0.5623999834060669, 0.6593000292778015, 0.6072000265121'
    '46, 0.9006999731063843, 0.0], [0.0, 0.4593999981880188, 0.32710000872612, 0.5227000117301941, 0.64'
    '5799994468689, 0.6432999968528748, 0.0], [0.0, 0.6694999933242798, 0.2371000051498413, 0.523899972'
    '4388123, 0.5794000029563904, 0.5978999733924866, 0.0], [0.0, 0.7473999857902527, 0.395399987697601'
    '3, 0.661300003528595, 0.8414999842643738, 0.7203999757766724, 0.0], [0.0, 0.8899000287055969, 0.45'
    '089998841285706, 0.5893999934196472, 0.5928000211715698, 0.8705999851226807, 0.0]]\n'
    "(3, 6, 7) <class 'numpy.float32'>\n"
    '[[[0.486299991607666, 0.24310000240802765, 0.8039000034332275], [0.43529999256134033, 0.3373000025'
    '7492065, 0.4156999886035919], [0.17649999260902405, 0.5960999727249146, 0.7059000134468079]], [[0.'
    '5960999727249146, 0.2784000039100647, 0.6862999796867371], [0.847100019454956, 0.48240000009536743'
    ', 0.3176000118255615], [0.6744999885559082, 0.6744999885559082, 0.2313999980688095]], [[0.79610002'
    '04086304, 0.7529000043869019, 0.47839999198913574], [0.4196000099182129, 0.2745000123977661, 0.474'
    '50000047683716], [0.7922000288963318, 0.6980000138282776, 0.5842999815940857]]]\n'
    '(3, 5, 3) (5, 5, 3)\n'
    '[[3.3824000358581543, 2.421600103378296, 3.4607999324798584, 0.5979999899864197, 1.205899953842163'
    ', 1.7548999786376953, 1.872499942779541], [1.2842999696731567, 0.08820000290870667, -0.20589999854'
    '564667, -0.32350000739097595, 0.2646999955177307, 0.6568999886512756, 0.5784000158309937], [-0.284'
    '2999994754791, 1.8529000282287598, 0.04899999871850014, -1.107800006866455, 1.4215999841690063, 3.'
    '2843000888824463, -0.44119998812675476], [3.0685999393463135, 2.2451000213623047, 2.10780000686645'
    '5, 3.4607999324798584, 0.7156999707221985, 0.7940999865531921, 3.107800006866455], [0.441199988126'
    '75476, 3.5, 1.3235000371932983, -0.029400000348687172, 2.872499942779541, 1.5980000495910645, -0.8'
    '529000282287598], [3.441200017929077, 1.5587999820709229, 3.0490000247955322, -0.34310001134872437'
    ', 3.205899953842163, 3.2255001068115234, -0.4020000100135803]]\n'
    'TypeError This transformation only supports float32. Consider calling it after ToTensor\n'
    'True\n'
)


# ---------------------------------------------------------------------------------------------
# the tests


def test_amp(tmp_path):
    _check(script_amp, tmp_path)


def test_attr_name_scopes(tmp_path):
    _check(script_attr_name_scopes, tmp_path)


def test_box_ops(tmp_path):
    _check(script_box_ops, tmp_path)


def test_bucket_sentences(tmp_path):
    _check(script_bucket_sentences, tmp_path)


def test_ckpt_sym(tmp_path):
    _check(script_ckpt_sym, tmp_path)


def test_color_transforms(tmp_path):
    _check(script_color_transforms, tmp_path)


def test_contrib_aliases_ssd(tmp_path):
    _check(script_contrib_aliases_ssd, tmp_path)


def test_contrib_misc(tmp_path):
    _check(script_contrib_misc, tmp_path)


def test_conv_rnn_cells(tmp_path):
    _check(script_conv_rnn_cells, tmp_path)


def test_deformable_conv(tmp_path):
    _check(script_deformable_conv, tmp_path)


def test_estimator_batch_axis(tmp_path):
    _check(script_estimator_batch_axis, tmp_path)


def test_estimator_batch_processor(tmp_path):
    _check(script_estimator_batch_processor, tmp_path)


def test_estimator_batches_and_handlers(tmp_path):
    _check(script_estimator_batches_and_handlers, tmp_path)


def test_estimator_early_stop(tmp_path):
    _check(script_estimator_early_stop, tmp_path)


def test_estimator_mistakes(tmp_path):
    _check(script_estimator_mistakes, tmp_path)


def test_estimator_resume(tmp_path):
    _check(script_estimator_resume, tmp_path)


def test_estimator_val_handlers(tmp_path):
    _check(script_estimator_val_handlers, tmp_path)


def test_features(tmp_path):
    _check(script_features, tmp_path)


def test_image_det_iter(tmp_path):
    pytest.importorskip("PIL")   # decodes images (the `image` extra)
    _check(script_image_det_iter, tmp_path)


def test_image_folder(tmp_path):
    pytest.importorskip("PIL")   # decodes images (the `image` extra)
    _check(script_image_folder, tmp_path)


def test_imageiter_lst(tmp_path):
    pytest.importorskip("PIL")   # decodes images (the `image` extra)
    _check(script_imageiter_lst, tmp_path)


def test_legacy_rnn_cells(tmp_path):
    _check(script_legacy_rnn_cells, tmp_path)


def test_lstmp_vardrop(tmp_path):
    _check(script_lstmp_vardrop, tmp_path)


def test_module_states_fixed(tmp_path):
    _check(script_module_states_fixed, tmp_path)


def test_monitor_module(tmp_path):
    _check(script_monitor_module, tmp_path)


def test_more_mistakes(tmp_path):
    _check(script_more_mistakes, tmp_path)


def test_multibox(tmp_path):
    _check(script_multibox, tmp_path)


def test_np_scopes(tmp_path, monkeypatch):
    # 1.9.1 logs the first activation of NumPy semantics in a process (a fresh one here)
    monkeypatch.setattr(mx.util, "_logged_activation", set())
    _check(script_np_scopes, tmp_path)


def test_numeric_checks(tmp_path):
    _check(script_numeric_checks, tmp_path)


def test_params_save_load_options(tmp_path):
    _check(script_params_save_load_options, tmp_path)


def test_proposal(tmp_path):
    _check(script_proposal, tmp_path)


def test_quantize_model(tmp_path):
    _check(script_quantize_model, tmp_path)


def test_quantize_ops(tmp_path):
    _check(script_quantize_ops, tmp_path)


def test_rare_optimizers(tmp_path):
    _check(script_rare_optimizers, tmp_path)


def test_reshape_mistakes(tmp_path):
    _check(script_reshape_mistakes, tmp_path)


def test_sequential_python_module(tmp_path):
    _check(script_sequential_python_module, tmp_path)


def test_svrg(tmp_path):
    _check(script_svrg, tmp_path)


def test_test_utils_misc(tmp_path):
    _check(script_test_utils_misc, tmp_path)


def test_transforms_rare(tmp_path):
    _check(script_transforms_rare, tmp_path)
