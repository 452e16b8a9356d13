"""A few training steps through gluon.Trainer and mx.mod.Module against MXNet 1.9.1, weight
by weight.

The network's loss is ``sum(a*a*xa) + sum(b*xb)``: its gradients (``2*a*xa`` and ``xb``) are
elementwise, so both libraries compute them bit for bit and any difference in the weights
comes from the optimizer, the Trainer / Module / KVStore plumbing (rescale_grad from the batch
size, lr_mult / wd_mult, schedulers, update_on_kvstore, several devices, saved states) or the
update kernels. (With Dense / Conv2D / LSTM layers the weights also match up to the ulp-level
differences of the layers' own matmul kernels.)

The ``EXPECTED`` literals were recorded from MXNet 1.9.1 (NaiveEngine, CPU) by running
``_train`` below with the reference library.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon, nd

_C = dict(wd=0.01, clip_gradient=0.5, rescale_grad=0.7)
STEPS = 3

# id: (optimizer, kwargs, how, options)
CASES = {
    "sgd_mom_2dev": ("sgd", dict(learning_rate=0.1, momentum=0.9, **_C), "trainer",
                     dict(ctxs=2)),
    "adam_allreduce": ("adam", dict(learning_rate=0.01, beta1=0.8, epsilon=1e-6, **_C),
                       "trainer", dict(allreduce=True, uok=False)),
    "nag_stale_2dev": ("nag", dict(learning_rate=0.1, momentum=0.8, **_C), "trainer",
                       dict(ctxs=2, uok=False, stale=True)),
    "rmsprop_c_f16_mp": ("rmsprop", dict(learning_rate=0.01, centered=True, gamma1=0.8,
                                         clip_weights=0.9, multi_precision=True, **_C),
                         "trainer", dict(dtype="float16")),
    "ftrl_factor": ("ftrl", dict(learning_rate=0.1, lamda1=0.01, beta=0.5, **_C), "trainer",
                    dict(sched=("FactorScheduler", dict(step=2, factor=0.5)))),
    "lbsgd_batches": ("lbsgd", dict(learning_rate=0.1, momentum=0.9, warmup_epochs=2,
                                    batch_scale=2, updates_per_epoch=2, **_C), "trainer",
                      dict(batch=True)),
    "nadam_poly": ("nadam", dict(learning_rate=0.01, schedule_decay=0.01, **_C), "trainer",
                   dict(sched=("PolyScheduler", dict(max_update=6, base_lr=0.05, pwr=2,
                                                     warmup_steps=2)))),
    "adamax_set_lr": ("adamax", dict(learning_rate=0.01, beta1=0.8, **_C), "trainer",
                      dict(set_lr=0.003)),
    "lars_2dev": ("lars", dict(learning_rate=0.1, momentum=0.9, eta=0.01, **_C), "trainer",
                  dict(ctxs=2)),
    "adagrad_local": ("adagrad", dict(learning_rate=0.1, eps=1e-5, **_C), "trainer",
                      dict(kv="local", uok=False)),
    "ftml_cosine": ("ftml", dict(learning_rate=0.01, beta1=0.7, beta2=0.9, **_C), "trainer",
                    dict(sched=("CosineScheduler", dict(max_update=5, base_lr=0.05,
                                                        final_lr=0.001)))),
    # save_states / load_states into a new Trainer: the multipliers must survive the load
    "sgd_reload": ("sgd", dict(learning_rate=0.1, **_C), "trainer", dict(reload=True)),
    "adam_reload_kv": ("adam", dict(learning_rate=0.01, **_C), "trainer",
                       dict(reload=True, ctxs=2)),
    # float16 weights without a master copy: the multi-tensor LAMB kernel
    "lamb_f16": ("lamb", dict(learning_rate=0.01, beta1=0.8, lower_bound=0.1,
                              upper_bound=2.0, **_C), "trainer", dict(dtype="float16")),
    "lamb_f16_mp": ("lamb", dict(learning_rate=0.01, multi_precision=True, **_C), "trainer",
                    dict(dtype="float16")),
    "signum_fit": ("signum", dict(learning_rate=0.01, momentum=0.8, wd_lh=0.01, **_C), "fit",
                   dict()),
    "dcasgd_fit_2dev": ("dcasgd", dict(learning_rate=0.1, lamda=0.05, **_C), "fit",
                        dict(ctxs=2)),
    "adadelta_module_kv": ("adadelta", dict(rho=0.8, epsilon=1e-4, **_C), "module",
                           dict(kv="local")),
    "sgd_module": ("sgd", dict(learning_rate=0.1, momentum=0.5, **_C), "module", dict()),
}


class _Net(gluon.Block):
    def __init__(self, dtype, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.a = self.params.get("a", shape=(2, 3), dtype=dtype)
            self.b = self.params.get("b", shape=(3,), dtype=dtype, lr_mult=0.5, wd_mult=2.0)

    def forward(self, xa, xb):
        a, b = self.a.data(xa.context), self.b.data(xb.context)
        return (a * a * xa).sum() + (b * xb).sum()


def _init_values():
    rs = np.random.RandomState(0)
    return rs.randn(2, 3) * 0.5, rs.randn(3) * 0.5


def _data(step, dtype="float32"):
    rs = np.random.RandomState(100 + step)
    return nd.array(rs.randn(2, 3), dtype=dtype), nd.array(rs.randn(3), dtype=dtype)


def _train_gluon(opt, kw, ctxs=1, dtype="float32", uok=None, kv="device", sched=None,
                 allreduce=False, stale=False, batch=False, set_lr=None, reload=False,
                 path=None):
    devs = [mx.cpu(i) for i in range(ctxs)]
    net = _Net(dtype, prefix="net_")
    net.initialize(mx.init.Zero(), ctx=devs)
    for p, v in zip(net.collect_params().values(), _init_values()):
        p.set_data(nd.array(v, dtype=dtype))
    kw = dict(kw)
    if sched:
        kw["lr_scheduler"] = getattr(mx.lr_scheduler, sched[0])(**sched[1])
    make = lambda: gluon.Trainer(net.collect_params(), opt, kw, kvstore=kv,  # noqa: E731
                                 update_on_kvstore=uok)
    tr = make()
    for s in range(STEPS):
        xa, xb = _data(s, dtype)
        with autograd.record():
            losses = [net(xa.as_in_context(d), xb.as_in_context(d)) for d in devs]
        autograd.backward(losses)
        if set_lr is not None and s == 1:
            tr.set_learning_rate(set_lr)
        if allreduce:
            tr.allreduce_grads()
            tr.update(4)
        else:
            tr.step(1 + s if batch else 4, ignore_stale_grad=stale)
        if reload and s == 0:
            tr.save_states(path)
            tr = make()
            tr.load_states(path)
    return {n: net.collect_params()["net_" + n].data(devs[-1]).asnumpy() for n in "ab"}


def _module(ctxs, labels):
    xa, xb = mx.sym.Variable("xa"), mx.sym.Variable("xb")
    a = mx.sym.Variable("a", shape=(2, 3), lr_mult=0.5)
    b = mx.sym.Variable("b", shape=(3,), wd_mult=2.0)
    loss = mx.sym.MakeLoss(mx.sym.sum(mx.sym.broadcast_mul(a * a, xa))
                           + mx.sym.sum(mx.sym.broadcast_mul(b, xb)))
    # fit needs a label: xb serves as one there
    return mx.mod.Module(loss, data_names=["xa"] if labels else ["xa", "xb"],
                         label_names=["xb"] if labels else None,
                         context=[mx.cpu(i) for i in range(ctxs)])


def _train_module(opt, kw, how, ctxs=1, kv=None):
    mod = _module(ctxs, how == "fit")
    va, vb = _init_values()
    args = {"a": nd.array(va), "b": nd.array(vb)}
    if how == "fit":
        # batches of 2 samples per device: the summed gradients are still exact
        rs = np.random.RandomState(7)
        n = 2 * ctxs * STEPS
        it = mx.io.NDArrayIter({"xa": rs.randn(n, 2, 3).astype("f4")},
                               {"xb": rs.randn(n, 3).astype("f4")}, batch_size=2 * ctxs)
        mod.fit(it, num_epoch=1, arg_params=args, optimizer=opt, optimizer_params=kw,
                kvstore="local", eval_metric=mx.metric.Loss())
    else:
        mod.bind(data_shapes=[("xa", (1, 2, 3)), ("xb", (1, 3))])
        mod.init_params(arg_params=args)
        mod.init_optimizer(kvstore=kv, optimizer=opt, optimizer_params=kw)
        for s in range(STEPS):
            xa, xb = _data(s)
            mod.forward_backward(mx.io.DataBatch([xa.expand_dims(0), xb.expand_dims(0)], None))
            mod.update()
    params, _ = mod.get_params()
    return {n: params[n].asnumpy() for n in "ab"}


def _train(cid, **extra):
    opt, kw, how, options = CASES[cid]
    options = dict(options, **extra)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if how == "trainer":
            return _train_gluon(opt, kw, **options)
        return _train_module(opt, kw, how, **options)


# Recorded from MXNet 1.9.1 (weights after STEPS steps; float16 cases as float16 values).
EXPECTED = {
    "adadelta_module_kv": {
        "a": [[0.85642153, 0.12009926, 0.41908765], [1.1436356, 0.8634977, -0.46458638]],
        "b": [0.4814518, -0.046206664, 0.010796672],
    },
    "adagrad_local": {
        "a": [[0.85080695, 0.0019959528, 0.2880793], [1.2098722, 0.7113034, -0.38615292]],
        "b": [0.4973467, -0.02057605, 0.05114957],
    },
    "adam_allreduce": {
        "a": [[0.8861606, 0.17006724, 0.4597285], [1.1296583, 0.90427804, -0.4719989]],
        "b": [0.47612312, -0.06723545, -0.039130535],
    },
    "adam_reload_kv": {
        "a": [[0.88747776, 0.17051177, 0.45961297], [1.1291313, 0.90386766, -0.47190323]],
        "b": [0.4759498, -0.06699361, -0.038999967],
    },
    "adamax_set_lr": {
        "a": [[0.89026666, 0.18537694, 0.47408175], [1.1301732, 0.91899306, -0.47710922]],
        "b": [0.4713554, -0.06983221, -0.045140266],
    },
    "dcasgd_fit_2dev": {
        "a": [[0.90702623, 0.24486722, 0.48673806], [1.1432317, 0.91976684, -0.43026835]],
        "b": [0.33076477, -0.15268564, -0.16941601],
    },
    "ftml_cosine": {
        "a": [[0.8997069, 0.12283411, 0.4200329], [1.1521848, 0.8633511, -0.44851634]],
        "b": [0.4684789, -0.05556176, -0.0151374955],
    },
    "ftrl_factor": {
        "a": [[0.22905661, 0.004213822, 0.06770905], [0.09593125, 0.18690413, -0.035729907]],
        "b": [0.018353475, -0.010120055, -0.00030331832],
    },
    "lamb_f16": {
        "a": [[0.883, 0.1721, 0.462], [1.127, 0.906, -0.4753]],
        "b": [0.4766, -0.0728, -0.0468],
    },
    "lamb_f16_mp": {
        "a": [[0.885, 0.1725, 0.4614], [1.127, 0.906, -0.4746]],
        "b": [0.4766, -0.07263, -0.04678],
    },
    "lars_2dev": {
        "a": [[0.88225883, 0.19956788, 0.48686197], [1.1209186, 0.9304729, -0.4880375]],
        "b": [0.47517392, -0.074974656, -0.051182345],
    },
    "lbsgd_batches": {
        "a": [[0.80570316, 0.18658252, 0.44198006], [1.0594923, 0.8685383, -0.50428927]],
        "b": [0.49659368, -0.09147168, -0.01403201],
    },
    "nadam_poly": {
        "a": [[0.8608233, 0.11134187, 0.41462222], [1.1292137, 0.8566131, -0.4649705]],
        "b": [0.49350777, -0.06686303, -0.01842882],
    },
    "nag_stale_2dev": {
        "a": [[0.8109532, 0.14395174, 0.2593198], [1.1614965, 0.59655875, -0.43895686]],
        "b": [0.5124604, -0.017448388, 0.02349868],
    },
    "rmsprop_c_f16_mp": {
        "a": [[0.89, 0.06476, 0.3687], [0.9, 0.8027, -0.4287]],
        "b": [0.4692, -0.04504, 0.007305],
    },
    "sgd_module": {
        "a": [[0.8632762, 0.16685611, 0.383119], [1.1425946, 0.827529, -0.46269175]],
        "b": [0.5546014, -0.0013778694, 0.055963278],
    },
    "sgd_mom_2dev": {
        "a": [[0.8674423, 0.15789734, 0.29703003], [1.1414547, 0.66682196, -0.44751063]],
        "b": [0.49901277, -0.028912256, 0.0074043795],
    },
    "sgd_reload": {
        "a": [[0.8293328, 0.18649465, 0.43649676], [1.1427722, 0.838463, -0.47813672]],
        "b": [0.48356348, -0.06350241, -0.031021021],
    },
    "signum_fit": {
        "a": [[0.8668946, 0.21504784, 0.47429636], [1.1252787, 0.94863814, -0.49356538]],
        "b": [0.50489867, -0.085652895, -0.081590936],
    },
}


@pytest.mark.parametrize("cid", sorted(CASES))
def test_weights_after_training_steps_match_1_9_1(cid, tmp_path):
    extra = {"path": str(tmp_path / "states")} if CASES[cid][3].get("reload") else {}
    got = _train(cid, **extra)
    for name, want in EXPECTED[cid].items():
        dtype = CASES[cid][3].get("dtype", "float32")
        assert got[name].dtype == np.dtype(dtype), (cid, name)
        # all match bit for bit on NumPy; the slack is one float16 ulp, and for float32 the
        # last-bit differences of 1.9.1's multi-tensor LAMB (see optimizer_ops.py)
        rtol = 1e-3 if dtype == "float16" else 1e-6
        np.testing.assert_allclose(got[name], np.asarray(want, dtype=dtype), rtol=rtol,
                                   atol=0, err_msg=f"{cid} {name}")


def test_reloaded_trainer_keeps_lr_and_wd_multipliers(tmp_path):
    # 1.9.1 gives the same weights whether or not the states go through save/load_states
    plain = _train("sgd_reload", reload=False)
    reloaded = _train("sgd_reload", path=str(tmp_path / "s"))
    for n in "ab":
        np.testing.assert_array_equal(reloaded[n], plain[n])


def test_float16_multi_lamb_update_matches_1_9_1():
    # 1.9.1's multi-tensor LAMB on float16 weights without master copies; a gradient so
    # small that var underflows to 0 in float16 gives a huge direction and tests r2
    w = [nd.array([[0.5, -0.25, 1.5], [0.125, -2.0, 0.75]], dtype="float16"),
         nd.array([0.3, -0.6, 0.9], dtype="float16")]
    g = [nd.array([[0.02, -1.0, 0.5], [3e-3, 0.25, -0.125]], dtype="float16"),
         nd.array([2.0, -0.01, 0.4], dtype="float16")]
    opt = mx.optimizer.create("lamb", learning_rate=0.5, beta1=0.8, lower_bound=0.1,
                              upper_bound=2.0, **_C)
    upd = mx.optimizer.get_updater(opt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # the float16-state warning
        for _ in range(2):
            upd([0, 1], g, w)
    np.testing.assert_array_equal(w[0].asnumpy(), np.array(EXPECTED_MULTI_LAMB[0], "float16"))
    np.testing.assert_array_equal(w[1].asnumpy(), np.array(EXPECTED_MULTI_LAMB[1], "float16"))


# Recorded from MXNet 1.9.1.
EXPECTED_MULTI_LAMB = (
    [[0.499, -0.249, 1.498], [-1.875, -2.0, 0.751]],
    [-0.2245, -0.1287, 0.372])


# -- the summed row_sparse gradient is one buffer per key -------------------------------------


def test_kvstore_hands_the_updater_one_row_sparse_buffer_per_key():
    # 1.9.1: every push of row_sparse values from two devices gives the updater the same
    # buffer, so the gradients it kept all show the latest sum
    store = mx.kv.create("device")
    store.init(0, nd.zeros((5, 2)))
    seen = []
    store._set_updater(lambda key, grad, weight: seen.append(grad))
    for s in range(3):
        store.push(0, [nd.sparse.row_sparse_array(
            (np.full((1, 2), s + 1.0 + i, dtype="float32"), [s + i]), shape=(5, 2),
            ctx=mx.cpu(i), dtype="float32") for i in range(2)])
    latest = [[0, 0], [0, 0], [3, 3], [4, 4], [0, 0]]   # recorded from 1.9.1 for all three
    for g in seen:
        assert g.stype == "row_sparse"
        np.testing.assert_array_equal(g.asnumpy(), latest)


def test_lbsgd_on_a_sparse_embedding_over_two_devices_matches_1_9_1():
    # LBSGD keeps a reference to the first gradient of each large batch and adds the next
    # one to it; through the KVStore that reference is the shared merge buffer (1.9.1)
    devs = [mx.cpu(0), mx.cpu(1)]
    emb = gluon.nn.Embedding(10, 4, sparse_grad=True, prefix="e_")
    emb.initialize(mx.init.Zero(), ctx=devs)
    emb.weight.set_data(nd.array(np.random.RandomState(0).randn(10, 4) * 0.5))
    kw = dict(learning_rate=0.1, momentum=0.9, warmup_epochs=2, batch_scale=2,
              updates_per_epoch=2, **_C)
    tr = gluon.Trainer(emb.collect_params(), "lbsgd", kw, kvstore="device",
                       update_on_kvstore=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for s in range(3):
            rs = np.random.RandomState(10 + s)
            idx = nd.array(rs.permutation(10)[:3])
            c = nd.array(rs.randn(3, 4))
            with autograd.record():
                losses = [(emb(idx.as_in_context(d)) * c.as_in_context(d)).sum() for d in devs]
            autograd.backward(losses)
            tr.step(2)
    # recorded from 1.9.1
    want = [[0.8820262, 0.2000786, 0.489369, 1.1204466],
            [0.933779, -0.48863894, 0.47504422, -0.0756786],
            [-0.123948656, 0.14606613, 0.14691375, 0.801046],
            [0.38051885, 0.060837507, 0.22193162, 0.16683717],
            [0.74703956, -0.10257913, 0.15653385, -0.42704788],
            [-1.2764949, 0.3268093, 0.4322181, -0.3710825],
            [1.1348773, -0.72718287, 0.022879258, -0.09359193],
            [0.7661099, 0.76713866, 0.13370359, 0.15568036],
            [-0.48743737, -0.91391265, -0.098695144, 0.12800924],
            [0.6151453, 0.6011899, -0.1936634, -0.15115137]]
    np.testing.assert_allclose(emb.weight.data(devs[1]).asnumpy(), want, rtol=1e-6, atol=0)
