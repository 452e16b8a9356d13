"""Regressions found by a compatibility sweep of the training components (losses, Trainer,
optimizers, initializers, metrics, clip_global_norm) against MXNet 1.9.1.

Literal expected values were recorded from MXNet 1.9.1 unless a comment says otherwise.
"""
import io
import logging

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon, nd
from mxnet.base import MXNetError


# -- gluon.utils.clip_global_norm -----------------------------------------------------------------
def test_clip_global_norm_returns_float32_scalar():
    arrs = [nd.array([3., 4.]), nd.array([[1., 2.], [2., 0.]])]
    n = gluon.utils.clip_global_norm(arrs, 2.0)
    # 1.9.1: <class 'numpy.float32'> 5.8309517
    assert type(n) is np.float32
    assert n == np.float32(5.8309517)
    np.testing.assert_allclose(arrs[0].asnumpy(), [1.0289915800094604, 1.3719887733459473],
                               rtol=1e-6)
    np.testing.assert_allclose(arrs[1].asnumpy(), [[0.3429971933364868, 0.6859943866729736],
                                                   [0.6859943866729736, 0.0]], rtol=1e-6)


def test_clip_global_norm_unchecked_returns_ndarray():
    arrs = [nd.array([0.3, 0.4])]
    n = gluon.utils.clip_global_norm(arrs, 2.0, check_isfinite=False)
    # 1.9.1: an NDArray of shape (1,), float32, [0.5]; the array is left as it was
    assert isinstance(n, nd.NDArray) and n.shape == (1,) and n.dtype == np.float32
    np.testing.assert_allclose(n.asnumpy(), [0.5])
    np.testing.assert_allclose(arrs[0].asnumpy(), [0.3, 0.4])
    arrs = [nd.array([6., 8.])]
    n = gluon.utils.clip_global_norm(arrs, 5.0, check_isfinite=False)
    np.testing.assert_allclose(n.asnumpy(), [10.0])
    np.testing.assert_allclose(arrs[0].asnumpy(), [3.0, 4.0])


def test_clip_global_norm_inf_warns_quietly():
    arrs = [nd.array([np.inf, 1.])]
    with pytest.warns(UserWarning, match="nan or inf is detected"):
        n = gluon.utils.clip_global_norm(arrs, 1.0)
    # 1.9.1: norm inf, the array becomes [nan, 0.0]
    assert np.isinf(n)
    out = arrs[0].asnumpy()
    assert np.isnan(out[0]) and out[1] == 0.0
    # 1.9.1: a nan norm makes every array nan; 1e30 entries overflow the float32 norm to inf
    arrs = [nd.array([np.nan, 1.]), nd.array([3., 4.])]
    with pytest.warns(UserWarning):
        n = gluon.utils.clip_global_norm(arrs, 1.0)
    assert np.isnan(n) and np.isnan(arrs[1].asnumpy()).all()
    arrs = [nd.array([1e30, 1e30]), nd.array([3., 4.])]
    n = gluon.utils.clip_global_norm(arrs, 1.0, check_isfinite=False)
    assert np.isinf(n.asnumpy()[0])
    np.testing.assert_array_equal(arrs[1].asnumpy(), [0.0, 0.0])


def test_clip_global_norm_empty_is_assertion():
    with pytest.raises(AssertionError):
        gluon.utils.clip_global_norm([], 1.0)


# -- gluon.Trainer ------------------------------------------------------------------------------
def test_trainer_optimizer_instance_with_params_is_assertion():
    net = gluon.nn.Dense(2, in_units=2)
    net.initialize()
    # 1.9.1 raises AssertionError: optimizer_params must be None if optimizer is an instance ...
    with pytest.raises(AssertionError, match="optimizer_params must be None"):
        gluon.Trainer(net.collect_params(), mx.optimizer.SGD(), {"learning_rate": 0.1})


def test_trainer_rejects_uninitialized_parameters_at_construction():
    net = gluon.nn.Dense(2, in_units=2, prefix="unin_")
    # 1.9.1: RuntimeError "Parameter 'unin_bias' has not been initialized" from the constructor
    with pytest.raises(RuntimeError, match="has not been initialized"):
        gluon.Trainer(net.collect_params(), "sgd")
    net.initialize()
    gluon.Trainer(net.collect_params(), "sgd")
    deferred = gluon.nn.Dense(2)
    deferred.initialize()   # deferred (unknown in_units) is accepted
    gluon.Trainer(deferred.collect_params(), "sgd")


# -- initialization through gluon ---------------------------------------------------------------
def test_block_initialize_accepts_initializer_name():
    net = gluon.nn.Dense(2, in_units=2)
    net.initialize("ones")
    # 1.9.1: weight [[1, 1], [1, 1]], bias keeps its own 'zeros'
    np.testing.assert_array_equal(net.weight.data().asnumpy(), [[1.0, 1.0], [1.0, 1.0]])
    np.testing.assert_array_equal(net.bias.data().asnumpy(), [0.0, 0.0])
    net = gluon.nn.Dense(2)
    net.collect_params().initialize("zeros")
    net(nd.ones((1, 3)))
    np.testing.assert_array_equal(net.weight.data().asnumpy(), np.zeros((2, 3)))


def test_initialize_verbose_logs_every_parameter():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        net = gluon.nn.Dense(2, in_units=2, bias_initializer="ones", prefix="vd_")
        net.initialize(mx.init.Constant(0.5), verbose=True)
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
    lines = stream.getvalue().splitlines()
    # 1.9.1: 'Initialized vd_weight as <...Constant object at 0x...>: 0.5' and
    #        'Initialized vd_bias as ones: 1.0' (the bias has its own init and is logged too)
    assert len(lines) == 2
    assert lines[0].startswith("Initialized vd_weight as ") and lines[0].endswith(": 0.5")
    assert lines[1] == "Initialized vd_bias as ones: 1.0"


# -- metrics ------------------------------------------------------------------------------------
def test_accuracy_shape_mismatch_is_mxneterror():
    m = mx.metric.Accuracy()
    # 1.9.1 raises MXNetError (its argmax along axis 1 of a 1-D prediction)
    with pytest.raises(MXNetError):
        m.update([nd.array([1, 2])], [nd.array([1, 2, 3])])


def test_perplexity_ignore_label_counts_as_float():
    m = mx.metric.Perplexity(ignore_label=1)
    m.update([nd.array([0, 1, 2, 1])],
             [nd.array([[0.5, 0.3, 0.2], [0.2, 0.6, 0.2], [0.1, 0.1, 0.8], [0.3, 0.3, 0.4]])])
    # 1.9.1: num_inst 2.0 (a float), perplexity 1.58113880522986
    assert isinstance(m.num_inst, float) and m.num_inst == 2.0
    name, value = m.get()
    assert name == "perplexity"
    assert value == pytest.approx(1.58113880522986, rel=1e-6)


def test_trainer_sparse_grad_defaults_to_local_update():
    # 1.9.1: with row_sparse gradients of dense weights (and no dist store) the Trainer updates
    # on each device, so allreduce_grads() + update() are allowed
    ctxs = [mx.cpu(0), mx.cpu(1)]
    emb = gluon.nn.Embedding(6, 2, sparse_grad=True)
    emb.initialize(mx.init.Constant(0.5), ctx=ctxs)
    tr = gluon.Trainer(emb.collect_params(), "sgd", {"learning_rate": 0.5, "momentum": 0.5})
    for _ in range(2):
        xs = gluon.utils.split_and_load(nd.array([[0, 1], [1, 4]]), ctxs)
        with mx.autograd.record():
            losses = [(emb(x) ** 2).sum() for x in xs]
        for loss in losses:
            loss.backward()
        tr.allreduce_grads()
        tr.update(2)
    expected = [[0.0, 0.0], [-0.25, -0.25], [0.5, 0.5], [0.5, 0.5], [0.0, 0.0], [0.5, 0.5]]
    for ctx in ctxs:
        np.testing.assert_allclose(emb.weight.data(ctx).asnumpy(), expected, atol=1e-6)


def test_trainer_mixed_contexts_is_assertion():
    a = gluon.nn.Dense(2, in_units=2, prefix="mca_")
    a.initialize(ctx=mx.cpu(0))
    b = gluon.nn.Dense(2, in_units=2, prefix="mcb_")
    b.initialize(ctx=[mx.cpu(0), mx.cpu(1)])
    params = a.collect_params()
    params.update(b.collect_params())
    # 1.9.1: AssertionError "All Parameters must be initialized on the same set of contexts, ..."
    with pytest.raises(AssertionError, match="same set of contexts"):
        gluon.Trainer(params, "sgd")


def test_loss_with_non_array_sample_weight_names_the_argument():
    x = nd.array(np.arange(12).reshape(3, 4) / 10.)
    # 1.9.1: AssertionError "Argument rhs must have NDArray type, but got 2.0"
    with pytest.raises(AssertionError, match="Argument rhs must have NDArray type, but got 2.0"):
        gluon.loss.L2Loss()(x, nd.zeros((3, 4)), 2.0)
    with pytest.raises(AssertionError, match="Argument data must have NDArray type, but got a"):
        nd.sqrt("a")
    with pytest.raises(AssertionError, match=r"Argument rhs must have NDArray type, but got \[1, 2\]"):
        nd.dot(x, [1, 2])


# -- optimizers -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["sgd", "nag", "adam", "rmsprop", "lamb", "signum", "ftml",
                                  "lbsgd", "dcasgd", "sgld"])
def test_optimizer_pickles_name_the_191_module(name):
    import pickle
    opt = mx.optimizer.create(name)
    # 1.9.1 defines these in mxnet/optimizer/optimizer.py; a pickle naming another module
    # (say mxnet.optimizer.sgd) cannot be loaded by 1.9.1 (Trainer.save_states files)
    assert type(opt).__module__ == "mxnet.optimizer.optimizer"
    blob = pickle.dumps(opt)
    assert b"mxnet.optimizer.optimizer" in blob
    assert type(pickle.loads(blob)) is type(opt)


@pytest.mark.parametrize("steps,expected", [(1, [0.04489, 0.04489]), (2, [0.0853, 0.04356])])
def test_trainer_first_step_broadcasts_every_parameter(steps, expected):
    # 1.9.1 broadcasts every parameter, auxiliary states included, from the first device
    # when the Trainer sets up its KVStore (at the first step); recorded running means on
    # (cpu(0), cpu(1)) after 1 and 2 steps
    ctxs = [mx.cpu(0), mx.cpu(1)]
    x = nd.array(np.random.RandomState(0).randn(8, 3))
    net = gluon.nn.HybridSequential(prefix="bcast_")
    with net.name_scope():
        net.add(gluon.nn.Dense(4, in_units=3), gluon.nn.BatchNorm(in_channels=4),
                gluon.nn.Dense(2, in_units=4))
    net.initialize(mx.init.Constant(0.2), ctx=ctxs)
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.0})
    for _ in range(steps):
        xs = gluon.utils.split_and_load(x, ctxs)
        with mx.autograd.record():
            losses = [net(xi).sum() for xi in xs]
        for loss in losses:
            loss.backward()
        tr.step(8)
    got = [net[1].running_mean.data(c).asnumpy() for c in ctxs]
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, [e] * 4, atol=1e-5)


def test_loss_on_plain_lists_says_it_needs_an_array():
    # 1.9.1: ValueError "In HybridBlock, there must be one NDArray or one Symbol in the input. ..."
    with pytest.raises(ValueError, match="there must be one NDArray or one Symbol"):
        gluon.loss.L2Loss()([1, 2], [1, 2])


def test_trainer_step_with_a_still_deferred_parameter_raises_then_recovers():
    from mxnet.gluon.parameter import DeferredInitializationError

    class Net(gluon.Block):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.a = gluon.nn.Dense(2, in_units=2)
                self.b = gluon.nn.Dense(2)   # deferred until first used

        def forward(self, x, use_b):
            y = self.a(x)
            return self.b(y) if use_b else y

    ctxs = [mx.cpu(0), mx.cpu(1)]
    net = Net(prefix="dfr_")
    net.initialize(mx.init.One(), ctx=ctxs)
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    # 1.9.1: the first step raises DeferredInitializationError (setting up needs every
    # parameter's data) and changes nothing; later steps work. Recorded weights (ctx 1):
    expected = [None, (0.8, 0.8), (0.64, 0.66)]
    for it, use_b in enumerate([False, True, True]):
        xs = gluon.utils.split_and_load(nd.ones((2, 2)), ctxs)
        with mx.autograd.record():
            losses = [net(x, use_b).sum() for x in xs]
        for loss in losses:
            loss.backward()
        if expected[it] is None:
            with pytest.raises(DeferredInitializationError):
                tr.step(2, ignore_stale_grad=True)
            np.testing.assert_array_equal(net.a.weight.data(ctxs[1]).asnumpy(), np.ones((2, 2)))
            continue
        tr.step(2, ignore_stale_grad=True)
        wa, wb = expected[it]
        np.testing.assert_allclose(net.a.weight.data(ctxs[1]).asnumpy(), np.full((2, 2), wa),
                                   rtol=1e-6)
        np.testing.assert_allclose(net.b.weight.data(ctxs[1]).asnumpy(), np.full((2, 2), wb),
                                   rtol=1e-6)


def test_updater_set_states_with_another_optimizer_kind(tmp_path):
    # states dumped with an Adam optimizer, loaded into a store set up with SGD (whose updater
    # aggregates): the loaded Adam must be applied one array at a time. Expected values are
    # 1.9.1's when the loading store is set up with Adam as well.
    fname = str(tmp_path / "kv.states")
    kv = mx.kv.create("local")
    kv.set_optimizer(mx.optimizer.Adam(learning_rate=0.1, wd=0.01))
    kv.init(3, nd.ones((2,)))
    for _ in range(2):
        kv.push(3, [nd.array([1., -1.], ctx=mx.cpu(0)), nd.array([0.5, 0.5], ctx=mx.cpu(1))])
    out = nd.zeros((2,))
    kv.pull(3, out=out)
    np.testing.assert_allclose(out.asnumpy(), [0.8, 1.2], rtol=1e-5)
    kv.save_optimizer_states(fname, dump_optimizer=True)
    kv2 = mx.kv.create("local")
    kv2.set_optimizer(mx.optimizer.SGD())
    kv2.load_optimizer_states(fname)
    kv2.init(3, out)
    kv2.push(3, nd.array([1., 1.]))
    kv2.pull(3, out=out)
    np.testing.assert_allclose(out.asnumpy(), [0.70282, 1.19088], atol=1e-5)
