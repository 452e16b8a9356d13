"""Small deterministic versions of classic MXNet 1.x scripts (legacy bucketing RNN language model, DCGAN,
VAE, word2vec, seq2seq with attention, Module with custom metrics and LR schedulers, the Gluon Estimator,
model-zoo forward passes, style-transfer losses, collaborative filtering) checked against numbers recorded
from MXNet 1.9.1.

The two implementations do not share random streams, so every weight is filled from a NumPy RandomState
(``_fill``) and noise is drawn with NumPy. Values are compared with a relative tolerance: the float32
summation order of the kernels differs, and a few training steps amplify last-bit differences.
"""
import os
import random

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon, nd
from mxnet.gluon import nn, rnn


def _fill(params, seed, scale):
    """Overwrite every weight-like parameter, in the dict's order, from one RandomState."""
    rs = np.random.RandomState(seed)
    for name, prm in params.items():
        if name.endswith(("running_mean", "running_var", "moving_mean", "moving_var")):
            continue
        val = rs.uniform(-scale, scale, prm.shape)
        if name.endswith("gamma"):
            val = 1 + val
        prm.set_data(nd.array(val))


def _sums(params):
    return [float(v.data().asnumpy().astype(np.float64).sum()) for v in params.values()]


class _ArrInit(mx.init.Initializer):
    """Symbolic-side twin of ``_fill``: values drawn per name, in sorted-name order, from one seed."""

    def __init__(self, shapes, seed, scale):
        super().__init__()
        rs = np.random.RandomState(seed)
        self._vals = {n: rs.uniform(-scale, scale, shapes[n]) for n in sorted(shapes)}

    def _init_weight(self, name, arr):
        arr[:] = self._vals[str(name)]

    _init_bias = _init_gamma = _init_beta = _init_default = _init_weight


def _close(got, expected, rtol=2e-4, atol=1e-6):
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64), np.asarray(expected, dtype=np.float64),
                               rtol=rtol, atol=atol)


# ---------------------------------------------------------------------------------------------------
# legacy symbolic RNN: mx.rnn cells + BucketSentenceIter + BucketingModule + Perplexity

def _run_bucketing_lm():
    random.seed(0)
    np.random.seed(0)
    vocab, hid, emb_dim = 12, 8, 6
    rs = np.random.RandomState(3)
    sentences = [list(rs.randint(1, vocab, size=rs.randint(3, 11))) for _ in range(40)]
    it = mx.rnn.BucketSentenceIter(sentences, batch_size=4, buckets=[5, 10], invalid_label=0)
    stack = mx.rnn.SequentialRNNCell()
    stack.add(mx.rnn.LSTMCell(num_hidden=hid, prefix="lstm_l0_"))
    stack.add(mx.rnn.GRUCell(num_hidden=hid, prefix="gru_l1_"))

    def sym_gen(seq_len):
        data = mx.sym.Variable("data")
        label = mx.sym.Variable("softmax_label")
        embed = mx.sym.Embedding(data=data, input_dim=vocab, output_dim=emb_dim, name="embed")
        stack.reset()
        outputs, _ = stack.unroll(seq_len, inputs=embed, merge_outputs=True)
        pred = mx.sym.FullyConnected(mx.sym.Reshape(outputs, shape=(-1, hid)), num_hidden=vocab, name="pred")
        pred = mx.sym.SoftmaxOutput(pred, mx.sym.Reshape(label, shape=(-1,)), name="softmax",
                                    use_ignore=True, ignore_label=0)
        return pred, ("data",), ("softmax_label",)

    shapes = {"embed_weight": (vocab, emb_dim), "pred_weight": (vocab, hid), "pred_bias": (vocab,),
              "lstm_l0_i2h_weight": (4 * hid, emb_dim), "lstm_l0_h2h_weight": (4 * hid, hid),
              "lstm_l0_i2h_bias": (4 * hid,), "lstm_l0_h2h_bias": (4 * hid,),
              "gru_l1_i2h_weight": (3 * hid, hid), "gru_l1_h2h_weight": (3 * hid, hid),
              "gru_l1_i2h_bias": (3 * hid,), "gru_l1_h2h_bias": (3 * hid,)}
    mod = mx.mod.BucketingModule(sym_gen=sym_gen, default_bucket_key=it.default_bucket_key)
    metric = mx.metric.Perplexity(0)
    mod.fit(it, eval_metric=metric, num_epoch=2, initializer=_ArrInit(shapes, 5, 0.2), optimizer="sgd",
            optimizer_params={"learning_rate": 0.5, "momentum": 0.9, "wd": 1e-5})
    args, _ = mod.get_params()
    return {"default_bucket": it.default_bucket_key, "n_batches": len(it.idx),
            "train_ppl": metric.get()[1], "score": mod.score(it, mx.metric.Perplexity(0))[0][1],
            "sums": [float(args[k].asnumpy().astype(np.float64).sum()) for k in sorted(args)]}


def test_legacy_bucketing_language_model_trains_like_1_9_1():
    # BucketSentenceIter shuffles with the global `random` and NumPy generators: seed them, then restore
    py_state, np_state = random.getstate(), np.random.get_state()
    try:
        r = _run_bucketing_lm()
    finally:
        random.setstate(py_state)
        np.random.set_state(np_state)
    assert r["default_bucket"] == 10 and r["n_batches"] == 9
    _close(r["train_ppl"], 14.638887, rtol=1e-5)
    _close(r["score"], 14.626838, rtol=1e-5)
    _close(r["sums"], [-0.013142614, 11.47629, -3.434005, 12.887433, -0.07493921, -3.4726928, -3.0041148,
                       4.6290732, 0.84764402, -0.0059414655, 0.42095247], rtol=1e-4, atol=1e-5)


# ---------------------------------------------------------------------------------------------------
# DCGAN: Conv2DTranspose generator, BatchNorm, LeakyReLU, SigmoidBCE, two Trainers

def _run_dcgan():
    nz, ngf, ndf, batch = 4, 4, 4, 4
    gen = nn.Sequential(prefix="gen_")
    with gen.name_scope():
        gen.add(nn.Conv2DTranspose(ngf * 2, 4, 1, 0, use_bias=False, in_channels=nz),
                nn.BatchNorm(in_channels=ngf * 2), nn.Activation("relu"),
                nn.Conv2DTranspose(ngf, 4, 2, 1, use_bias=False, in_channels=ngf * 2),
                nn.BatchNorm(in_channels=ngf), nn.Activation("relu"),
                nn.Conv2DTranspose(3, 4, 2, 1, use_bias=False, in_channels=ngf), nn.Activation("tanh"))
    dis = nn.Sequential(prefix="dis_")
    with dis.name_scope():
        dis.add(nn.Conv2D(ndf, 4, 2, 1, use_bias=False, in_channels=3), nn.LeakyReLU(0.2),
                nn.Conv2D(ndf * 2, 4, 2, 1, use_bias=False,
                          in_channels=ndf), nn.BatchNorm(in_channels=ndf * 2),
                nn.LeakyReLU(0.2), nn.Conv2D(1, 4, 1, 0, use_bias=False, in_channels=ndf * 2))
    gen.initialize()
    dis.initialize()
    _fill(gen.collect_params(), 1, 0.2)
    _fill(dis.collect_params(), 2, 0.2)
    loss = gluon.loss.SigmoidBinaryCrossEntropyLoss()
    t_gen = gluon.Trainer(gen.collect_params(), "adam", {"learning_rate": 0.01, "beta1": 0.5})
    t_dis = gluon.Trainer(dis.collect_params(), "adam", {"learning_rate": 0.01, "beta1": 0.5})
    rs = np.random.RandomState(0)
    real, fake_lbl = nd.ones((batch,)), nd.zeros((batch,))
    acc = mx.metric.CustomMetric(lambda lbl, prd: ((prd > 0.5) == lbl).mean(), name="acc")
    err_d, err_g = [], []
    for _ in range(3):
        data = nd.array(rs.uniform(-1, 1, (batch, 3, 16, 16)))
        noise = nd.array(rs.normal(0, 1, (batch, nz, 1, 1)))
        with autograd.record():
            out = dis(data).reshape((-1, 1))
            e_real = loss(out, real)
            acc.update([real], [nd.sigmoid(out)])
            fake = gen(noise)
            out = dis(fake.detach()).reshape((-1, 1))
            e_d = e_real + loss(out, fake_lbl)
        e_d.backward()
        acc.update([fake_lbl], [nd.sigmoid(out)])
        t_dis.step(batch)
        with autograd.record():
            e_g = loss(dis(gen(noise)).reshape((-1, 1)), real)
        e_g.backward()
        t_gen.step(batch)
        err_d.append(float(e_d.mean().asscalar()))
        err_g.append(float(e_g.mean().asscalar()))
    return {"err_d": err_d, "err_g": err_g, "acc": acc.get()[1], "fake_sum": float(fake.sum().asscalar()),
            "gen": _sums(gen.collect_params()), "dis": _sums(dis.collect_params())}


def test_dcgan_two_trainers_match_1_9_1():
    r = _run_dcgan()
    _close(r["err_d"], [1.4756126, 1.0199659, 0.94126493], rtol=1e-5)
    _close(r["err_g"], [1.8720833, 1.9943333, 1.8112882], rtol=1e-5)
    _close(r["acc"], 0.70833333, rtol=1e-9)
    _close(r["fake_sum"], 70.556168, rtol=1e-5)
    _close(r["gen"], [1.115608, 7.896427, 0.050116092, 0.00013922853, 5.92855, -0.26201275, 3.8890363,
                      0.29133925, -0.023535011, 3.0587681, 0.79816178], rtol=1e-4, atol=1e-5)
    _close(r["dis"], [-2.7466652, -0.96184531, 8.0404043, 0.36960684, 0.013990889, 3.2348772, 0.94652563],
           rtol=1e-4, atol=1e-5)


# ---------------------------------------------------------------------------------------------------
# VAE: reparameterisation (noise from NumPy), KL term, hybridized

class _VAE(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.enc = nn.HybridSequential()
            self.enc.add(nn.Dense(16, activation="tanh", in_units=20), nn.Dense(6, in_units=16))
            self.dec = nn.HybridSequential()
            self.dec.add(nn.Dense(16, activation="tanh", in_units=3), nn.Dense(20, activation="sigmoid",
                                                                               in_units=16))

    def hybrid_forward(self, F, x, eps):
        mu, lv = F.split(self.enc(x), axis=1, num_outputs=2)
        y = self.dec(mu + F.exp(0.5 * lv) * eps)
        kl = 0.5 * F.sum(1 + lv - mu * mu - F.exp(lv), axis=1)
        logl = F.sum(x * F.log(y + 1e-10) + (1 - x) * F.log(1 - y + 1e-10), axis=1)
        return -logl - kl


def _run_vae(hybrid):
    rs = np.random.RandomState(1)
    data = (rs.uniform(size=(12, 20)) > 0.5).astype("float32")
    net = _VAE(prefix="vae_")
    net.initialize()
    _fill(net.collect_params(), 3, 0.3)
    if hybrid:
        net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 0.01})
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(data), batch_size=4)
    epoch_loss = []
    for _ in range(3):
        tot = 0.0
        for b in loader:
            eps = nd.array(rs.normal(0, 1, (b.shape[0], 3)))
            with autograd.record():
                loss = net(b, eps)
            loss.backward()
            trainer.step(b.shape[0])
            tot += float(loss.mean().asscalar())
        epoch_loss.append(tot)
    return {"loss": epoch_loss, "sums": _sums(net.collect_params())}


@pytest.mark.parametrize("hybrid", [False, True])
def test_vae_with_kl_term_matches_1_9_1(hybrid):
    r = _run_vae(hybrid)
    _close(r["loss"], [43.184485, 42.541046, 40.918561], rtol=1e-5)
    _close(r["sums"], [-2.5280919, 0.75488937, -0.36527985, 0.40752794, 0.63297877, -0.27744598, 0.77164362,
                       1.136806], rtol=1e-4, atol=1e-5)


# ---------------------------------------------------------------------------------------------------
# word2vec skip-gram with negative sampling: two Embeddings, batch_dot, masked SigmoidBCE, AdaGrad

class _SkipGram(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.emb_in = nn.Embedding(30, 8)
            self.emb_out = nn.Embedding(30, 8)

    def hybrid_forward(self, F, center, ctx_neg):
        return F.batch_dot(self.emb_in(center), self.emb_out(ctx_neg).swapaxes(1, 2))


def _run_word2vec():
    rs = np.random.RandomState(2)
    centers = rs.randint(0, 30, (16, 1)).astype("float32")
    ctx_neg = rs.randint(0, 30, (16, 4)).astype("float32")
    labels = np.zeros((16, 1, 4), "float32")
    labels[:, :, 0] = 1
    mask = np.ones_like(labels)
    mask[::3, :, -1] = 0
    net = _SkipGram(prefix="sg_")
    net.initialize()
    net.hybridize()
    net(nd.array(centers[:1]), nd.array(ctx_neg[:1]))
    _fill(net.collect_params(), 4, 0.5)
    loss = gluon.loss.SigmoidBinaryCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "adagrad", {"learning_rate": 0.1})
    ds = gluon.data.ArrayDataset(centers, ctx_neg, labels, mask)
    losses = []
    for _ in range(3):
        tot = 0.0
        for c, cn, lbl, m in gluon.data.DataLoader(ds, batch_size=8):
            with autograd.record():
                out = loss(net(c, cn), lbl, m) * m.size / m.sum()
            out.backward()
            trainer.step(c.shape[0])
            tot += float(out.sum().asscalar())
        losses.append(tot)
    w = net.emb_in.weight.data()
    q = w[nd.array([3])].reshape((-1,))
    cos = nd.dot(w, q) / (nd.norm(w, axis=1) * nd.norm(q) + 1e-9)
    return {"loss": losses, "top": nd.topk(cos, k=4, ret_typ="indices").asnumpy().tolist(),
            "sums": _sums(net.collect_params())}


def test_word2vec_negative_sampling_matches_1_9_1():
    r = _run_word2vec()
    _close(r["loss"], [11.23657, 9.668355, 8.5195704], rtol=1e-5)
    assert r["top"] == [3, 10, 17, 29]
    _close(r["sums"], [4.101584, 1.7795184], rtol=1e-5)


# ---------------------------------------------------------------------------------------------------
# seq2seq with attention: gluon LSTM encoder, LSTMCell decoder, batch_dot attention, SequenceMask,
# SoftmaxCELoss with sample weights, clip_global_norm

class _Seq2Seq(gluon.Block):
    def __init__(self, vocab, emb, hid, **kw):
        super().__init__(**kw)
        self._hid = hid
        with self.name_scope():
            self.src_emb = nn.Embedding(vocab, emb)
            self.tgt_emb = nn.Embedding(vocab, emb)
            self.enc = rnn.LSTM(hid, layout="NTC", input_size=emb)
            self.dec = rnn.LSTMCell(hid, input_size=emb + hid)
            self.att = nn.Dense(hid, flatten=False, use_bias=False, in_units=hid)
            self.out = nn.Dense(vocab, flatten=False, in_units=hid)

    def forward(self, src, src_len, tgt):
        enc_out, (h, c) = self.enc(self.src_emb(src), self.enc.begin_state(batch_size=src.shape[0]))
        h, c = h[0], c[0]
        keys = self.att(enc_out)
        ctx = nd.zeros((src.shape[0], self._hid))
        temb = self.tgt_emb(tgt)
        outs = []
        for t in range(tgt.shape[1]):
            o, (h, c) = self.dec(nd.concat(temb[:, t, :], ctx, dim=1), [h, c])
            score = nd.batch_dot(keys, o.expand_dims(2)).reshape((0, -1))
            score = nd.SequenceMask(score.T, sequence_length=src_len, use_sequence_length=True, value=-1e6).T
            ctx = nd.batch_dot(nd.softmax(score, axis=1).expand_dims(1), enc_out).reshape((0, -1))
            outs.append(o + ctx)
        return self.out(nd.stack(*outs, axis=1))


def _run_seq2seq():
    rs = np.random.RandomState(5)
    src = nd.array(rs.randint(1, 11, (3, 5)))
    tgt = nd.array(rs.randint(1, 11, (3, 4)))
    src_len, tgt_len = nd.array([5, 3, 4]), nd.array([4, 2, 3])
    net = _Seq2Seq(11, 6, 8, prefix="s2s_")
    net.initialize()
    _fill(net.collect_params(), 6, 0.3)
    loss = gluon.loss.SoftmaxCELoss()
    trainer = gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 0.02, "clip_gradient": 1.0})
    weight = nd.SequenceMask(nd.ones((4, 3)), sequence_length=tgt_len,
                             use_sequence_length=True).T.expand_dims(2)
    losses, norms = [], []
    for _ in range(4):
        with autograd.record():
            out = loss(net(src, src_len, tgt), tgt, weight)
        out.backward()
        norms.append(gluon.utils.clip_global_norm([p.grad() for p in net.collect_params().values()], 1.0))
        trainer.step(3)
        losses.append(out.asnumpy().tolist())
    pred = nd.argmax(net(src, src_len, tgt), axis=2).asnumpy().tolist()
    return {"loss": losses, "norm": norms, "pred": pred, "sums": _sums(net.collect_params())}


def test_seq2seq_attention_with_masked_loss_matches_1_9_1():
    r = _run_seq2seq()
    _close(r["loss"], [
        [2.4039669, 1.2750335, 1.8683956],
        [2.3402252, 1.2278159, 1.8085233],
        [2.2749436, 1.1882348, 1.750533],
        [2.2012014, 1.1490312, 1.6901484],
    ], rtol=1e-5)
    _close(r["norm"], [0.94445497, 0.8723982, 0.85700876, 0.87289214], rtol=1e-5)
    assert r["pred"] == [[7, 3, 3, 3], [8, 8, 8, 8], [8, 3, 3, 3]]
    _close(r["sums"], [4.1053236, -1.9500272, 2.7876803, 0.68312969, 1.786192, -0.15063636, 2.6121217,
                       -2.636615, -0.4143523, -0.3140089, 0.68496324, 1.2087227, 1.6449755],
           rtol=1e-4, atol=1e-5)


# ---------------------------------------------------------------------------------------------------
# Module.fit with CustomMetric / mx.metric.np, Speedometer, do_checkpoint and warmup LR schedulers

def test_lr_schedulers_with_warmup_match_1_9_1():
    steps = list(range(0, 35, 3))
    multi = mx.lr_scheduler.MultiFactorScheduler(step=[5, 12], factor=0.5, base_lr=0.3, warmup_steps=3,
                                                 warmup_begin_lr=0.05)
    poly = mx.lr_scheduler.PolyScheduler(max_update=30, base_lr=0.3, pwr=2, final_lr=0.01, warmup_steps=4,
                                         warmup_mode="constant", warmup_begin_lr=0.1)
    cosine = mx.lr_scheduler.CosineScheduler(max_update=30, base_lr=0.3, final_lr=0.02, warmup_steps=5)
    factor = mx.lr_scheduler.FactorScheduler(step=4, factor=0.7, stop_factor_lr=0.05, base_lr=0.3)
    _close([multi(i) for i in steps], [0.05, 0.3, 0.15, 0.15, 0.15, 0.075, 0.075, 0.075, 0.075, 0.075, 0.075,
                                       0.075], rtol=1e-6)
    _close([poly(i) for i in steps], [0.1, 0.1, 0.2571006, 0.1991864, 0.1489941, 0.1065237, 0.0717751,
                                      0.0447485, 0.0254438, 0.0138609, 0.01, 0.01], rtol=1e-6)
    _close([cosine(i) for i in steps], [0.0, 0.18, 0.2988961, 0.2826829, 0.2492394, 0.2032624, 0.1512093,
                                        0.1003909, 0.0579444, 0.0298313, 0.02, 0.02], rtol=1e-6)
    _close([factor(i) for i in steps], [0.3, 0.3, 0.21, 0.147, 0.147, 0.1029, 0.07203, 0.050421, 0.050421,
                                        0.05, 0.05, 0.05], rtol=1e-6)


def _run_module_custom_metric(tmp_path, sched_kind):
    rs = np.random.RandomState(7)
    x = rs.normal(size=(40, 5)).astype("float32")
    y = ((x[:, 0] + x[:, 1] > 0).astype("float32") + (x[:, 2] > 1)).astype("float32")
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=8, name="fc1")
    net = mx.sym.FullyConnected(mx.sym.Activation(net, act_type="relu"), num_hidden=3, name="fc2")
    net = mx.sym.SoftmaxOutput(net, name="softmax")
    sched = {"multi": lambda: mx.lr_scheduler.MultiFactorScheduler(step=[5, 12], factor=0.5, base_lr=0.3,
                                                                   warmup_steps=3, warmup_begin_lr=0.05),
             "poly": lambda: mx.lr_scheduler.PolyScheduler(max_update=30, base_lr=0.3, pwr=2, final_lr=0.01,
                                                           warmup_steps=4),
             "cosine": lambda: mx.lr_scheduler.CosineScheduler(max_update=30, base_lr=0.3, final_lr=0.02,
                                                               warmup_steps=5)}[sched_kind]()

    def my_acc(label, pred):
        return (pred.argmax(axis=1) == label).mean()

    def my_ce(label, pred):
        return -np.log(pred[np.arange(len(label)), label.astype(int)] + 1e-12).sum(), len(label)

    it = mx.io.NDArrayIter(x, y, batch_size=8, label_name="softmax_label")
    mod = mx.mod.Module(net, context=mx.cpu())
    metric = mx.metric.CompositeEvalMetric([mx.metric.CustomMetric(my_acc, name="myacc"),
                                            mx.metric.np(my_ce, name="myce"), "acc"])
    prefix = str(tmp_path / sched_kind)
    shapes = {"fc1_weight": (8, 5), "fc1_bias": (8,), "fc2_weight": (3, 8), "fc2_bias": (3,)}
    mod.fit(it, eval_data=it, eval_metric=metric, num_epoch=3, initializer=_ArrInit(shapes, 8, 0.5),
            optimizer="sgd", optimizer_params={"learning_rate": 0.3, "momentum": 0.9, "lr_scheduler": sched,
                                               "rescale_grad": 1.0 / 8},
            batch_end_callback=mx.callback.Speedometer(8, 2),
            epoch_end_callback=mx.callback.do_checkpoint(prefix, period=2))
    _, args, _ = mx.model.load_checkpoint(prefix, 2)
    return {"files": sorted(os.listdir(tmp_path)), "val": [v for _, v in metric.get_name_value()],
            "names": [n for n, _ in metric.get_name_value()],
            "ckpt": [float(args[k].asnumpy().astype(np.float64).sum()) for k in sorted(args)],
            "score": [v for _, v in mod.score(it, ["acc", "ce"])],
            "lr": mod._optimizer._get_lr(0), "num_update": mod._optimizer.num_update}


# recorded from 1.9.1: final metric values, checkpoint sums, score, last learning rate
EXPECTED_MODULE = {
    'multi': {'val': [0.9, 0.34552939, 0.9], 'ckpt': [0.45307163, -0.17612262, -0.82649249, -0.62980114],
              'score': [0.9, 0.34552939], 'lr': 0.075},
    'poly': {'val': [0.875, 0.35281399, 0.875], 'ckpt': [0.51843281, -0.56431432, -0.82649204, -0.62980143],
             'score': [0.875, 0.35281399], 'lr': 0.10652367},
    'cosine': {'val': [0.85, 0.34164904, 0.85], 'ckpt': [0.74811959, -1.2642132, -0.82649228, -0.62980116],
               'score': [0.85, 0.34164904], 'lr': 0.20326238},
}


@pytest.mark.parametrize("kind", ["multi", "poly", "cosine"])
def test_module_fit_with_custom_metrics_and_schedulers_matches_1_9_1(tmp_path, kind):
    r = _run_module_custom_metric(tmp_path, kind)
    assert r["files"] == ["%s-0002.params" % kind, "%s-symbol.json" % kind]
    assert r["names"] == ["myacc", "myce", "accuracy"]
    expected = EXPECTED_MODULE[kind]
    _close(r["val"], expected["val"], rtol=1e-5)
    _close(r["ckpt"], expected["ckpt"], rtol=1e-4, atol=1e-5)
    _close(r["score"], expected["score"], rtol=1e-5)
    _close(r["lr"], expected["lr"], rtol=1e-6)
    assert r["num_update"] == 15


# ---------------------------------------------------------------------------------------------------
# gluon.contrib.estimator: fit with event handlers, checkpoints, evaluate

def _run_estimator(tmp_path):
    import warnings
    from mxnet.gluon.contrib.estimator import estimator, event_handler

    rs = np.random.RandomState(4)
    x = rs.normal(size=(24, 6)).astype("float32")
    y = (x.sum(1) > 0).astype("float32")
    train = gluon.data.DataLoader(gluon.data.ArrayDataset(x, y), batch_size=6)
    val = gluon.data.DataLoader(gluon.data.ArrayDataset(x[:12], y[:12]), batch_size=6)
    net = nn.HybridSequential(prefix="est_")
    with net.name_scope():
        net.add(nn.Dense(8, activation="relu", in_units=6), nn.BatchNorm(in_channels=8), nn.Dense(2,
                                                                                                  in_units=8))
    net.initialize()
    _fill(net.collect_params(), 9, 0.4)
    net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), "nag", {"learning_rate": 0.1, "momentum": 0.9,
                                                          "lr_scheduler": mx.lr_scheduler.FactorScheduler(3,
                                                                                                          0.8)})
    est = estimator.Estimator(net=net, loss=gluon.loss.SoftmaxCrossEntropyLoss(),
                              train_metrics=[mx.metric.Accuracy(), mx.metric.F1()],
                              val_metrics=[mx.metric.Accuracy()], trainer=trainer, context=mx.cpu())
    batch_losses = []

    class Record(event_handler.BatchEnd):
        def batch_end(self, estimator, *args, **kwargs):
            batch_losses.append(float(nd.mean(kwargs["loss"][0]).asscalar()))

    ckpt = event_handler.CheckpointHandler(model_dir=str(tmp_path), model_prefix="m",
                                           monitor=est.val_metrics[0],
                                           save_best=True, mode="max", batch_period=3, max_checkpoints=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(train_data=train, val_data=val, epochs=3, event_handlers=[Record(), ckpt])
    return {"loss": batch_losses, "files": sorted(os.listdir(tmp_path)),
            "train": [m.get()[1] for m in est.train_metrics], "val": [m.get()[1] for m in est.val_metrics],
            "lr": trainer.learning_rate, "sums": _sums(net.collect_params())}


def test_estimator_fit_with_handlers_matches_1_9_1(tmp_path):
    r = _run_estimator(tmp_path)
    _close(r["loss"], [0.76601607, 0.62284678, 0.71937895, 0.90072697, 0.24093796, 0.45256019, 0.4218452,
                       0.38135293, 0.2156188, 0.23658483, 0.049770832, 0.20717825], rtol=1e-5)
    assert r["files"] == ["m-best.params", "m-best.states", "m-epoch2batch11.params",
                          "m-epoch2batch11.states",
                          "m-epoch2batch12.params", "m-epoch2batch12.states", "m-symbol.json"]
    _close(r["train"], [0.95833333, 0.96428571], rtol=1e-6)
    _close(r["val"], [0.75], rtol=1e-6)
    _close(r["lr"], 0.0512, rtol=1e-6)
    _close(r["sums"], [1.4238363, -1.355309, 7.903166, -0.15501494, 1.8946232, 4.1459666, -0.51889776,
                       -0.56603323], rtol=1e-4, atol=1e-5)


# ---------------------------------------------------------------------------------------------------
# model zoo forward passes with fixed weights

# recorded from 1.9.1: output shape, parameter count, value count, logits
EXPECTED_ZOO = {
    'squeezenet1.0': ((1, 10), 52, 740554, [0, 0.97002995, 67.024689, 30.044287, 34.230297, 0.01732658, 0,
                                            2.9143004, 110.67858, 0]),
    'squeezenet1.1': ((1, 10), 52, 727626, [0.38007247, 20.158133, 14.174978, 1.1885357, 0.0099183545,
                                            0.24799921, 21.165236, 0.0085081179, 3.4315152, 20.217121]),
    'mobilenet0.25': ((1, 10), 137, 221114, [0.17641428, 0.13188595, 0.056095265, 0.34946796, 0.063051477,
                                             0.082071647, 0.16538185, 0.076137714, 0.20790215, 0.15775454]),
    'mobilenetv2_0.25': ((1, 10), 266, 259656, [0.92509997, 0.029627472, 1.0894991, 0.093875647, 0.44205952,
                                                1.0474737, -0.31274003, -0.089905068, -0.26547647,
                                                0.53859472]),
    'resnet18_v1': ((1, 10), 102, 11191242, [1627762.4, 2487813.5, 2715864.5, 746765.31, -1451060.8,
                                             1919630.5, -16445.887, 3327445.5, 322331.44, 892360.19]),
}


@pytest.mark.parametrize("name, size", [("squeezenet1.0", 224), ("squeezenet1.1", 224), ("mobilenet0.25", 64),
                                        ("mobilenetv2_0.25", 64), ("resnet18_v1", 32)])
def test_model_zoo_forward_with_fixed_weights_matches_1_9_1(name, size):
    from mxnet.gluon.model_zoo import vision

    net = vision.get_model(name, classes=10, prefix="zoo_")
    net.initialize()
    x = nd.array(np.random.RandomState(0).uniform(-1, 1, (1, 3, size, size)))
    net(x)
    _fill(net.collect_params(), 10, 0.2)
    out = net(x).asnumpy()
    net.hybridize()
    np.testing.assert_allclose(net(x).asnumpy(), out, rtol=1e-5, atol=1e-6)
    n_params = len(list(net.collect_params().keys()))
    n_values = sum(v.data().size for v in net.collect_params().values())
    expected = EXPECTED_ZOO[name]
    assert (out.shape, n_params, n_values) == expected[:3]
    _close(out.ravel(), expected[3], rtol=2e-4, atol=1e-6)


# ---------------------------------------------------------------------------------------------------
# style transfer: Gram matrices, total variation, autograd on the input image, Adam on an image Parameter

def _run_style_transfer():
    rs = np.random.RandomState(9)
    feat = nn.HybridSequential(prefix="vgg_")
    with feat.name_scope():
        feat.add(nn.Conv2D(4, 3, padding=1, activation="relu", in_channels=3), nn.MaxPool2D(2),
                 nn.Conv2D(6, 3, padding=1, activation="relu", in_channels=4))
    feat.initialize()
    _fill(feat.collect_params(), 11, 0.3)
    feat.hybridize()

    def gram(x):
        f = x.reshape((x.shape[1], -1))
        return nd.dot(f, f, transpose_b=True) / f.size

    def tv(x):
        return 0.5 * (nd.abs(x[:, :, 1:, :] - x[:, :, :-1, :]).mean() + nd.abs(x[:, :, :, 1:] - x[:, :, :,
                                                                                                  :-1]).mean())

    content = nd.array(rs.uniform(0, 1, (1, 3, 12, 12)))
    style = nd.array(rs.uniform(0, 1, (1, 3, 12, 12)))
    style_g, content_f = gram(feat(style)), feat(content)
    img = content.copy()
    img.attach_grad()
    losses = []
    for _ in range(4):
        with autograd.record():
            f = feat(img)
            parts = [nd.square(f - content_f).mean(), nd.square(gram(f) - style_g).sum(), tv(img)]
            total = parts[0] + 1e3 * parts[1] + 10 * parts[2]
        total.backward()
        losses.append([float(v.asscalar()) for v in parts + [total]])
        img[:] = nd.clip(img - 0.5 * img.grad, 0, 1)
    gen = gluon.Parameter("gen", shape=content.shape)
    gen.initialize(mx.init.Constant(0.5))
    gen.set_data(content)
    trainer = gluon.Trainer({"gen": gen}, "adam", {"learning_rate": 0.05})
    adam_losses = []
    for _ in range(3):
        with autograd.record():
            f = feat(gen.data())
            total = (nd.square(f - content_f).mean() + 1e3 * nd.square(gram(f) - style_g).sum()
                     + 10 * tv(gen.data()))
        total.backward()
        trainer.step(1)
        adam_losses.append(float(total.asscalar()))
    return {"loss": losses, "img": float(img.sum().asscalar()), "adam": adam_losses,
            "gen": float(gen.data().sum().asscalar())}


def test_style_transfer_gram_and_tv_losses_match_1_9_1():
    r = _run_style_transfer()
    _close(r["loss"], [
        [0, 5.4854161e-05, 0.33384812, 3.3933353],
        [0.00015327304, 4.0393155e-05, 0.30753762, 3.1159225],
        [0.0004080066, 4.2482385e-05, 0.28435522, 2.8864424],
        [0.00068793329, 4.919917e-05, 0.26311696, 2.6810567],
    ], rtol=1e-5, atol=1e-9)
    _close(r["img"], 216.80296, rtol=1e-5)
    _close(r["adam"], [3.3933353, 2.8195302, 2.369879], rtol=1e-5)
    _close(r["gen"], 217.20036, rtol=1e-5)


# ---------------------------------------------------------------------------------------------------
# collaborative filtering: matrix factorisation (L2Loss) and NeuMF (sigmoid BCE), Adam with weight decay

class _MF(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.P, self.Q = nn.Embedding(20, 5), nn.Embedding(15, 5)
            self.ub, self.ib = nn.Embedding(20, 1), nn.Embedding(15, 1)

    def hybrid_forward(self, F, u, i):
        return (self.P(u) * self.Q(i)).sum(axis=1) + F.squeeze(self.ub(u)) + F.squeeze(self.ib(i))


class _NeuMF(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.P, self.Q = nn.Embedding(20, 5), nn.Embedding(15, 5)
            self.U, self.V = nn.Embedding(20, 5), nn.Embedding(15, 5)
            self.mlp = nn.HybridSequential()
            self.mlp.add(nn.Dense(8, activation="relu", in_units=10), nn.Dense(4, activation="relu",
                                                                               in_units=8))
            self.pred = nn.Dense(1, activation="sigmoid", use_bias=False, in_units=9)

    def hybrid_forward(self, F, u, i):
        mlp = self.mlp(F.concat(self.U(u), self.V(i), dim=1))
        return self.pred(F.concat(self.P(u) * self.Q(i), mlp, dim=1))


def _run_ncf(kind):
    rs = np.random.RandomState(11)
    users = rs.randint(0, 20, 64).astype("float32")
    items = rs.randint(0, 15, 64).astype("float32")
    ratings = rs.randint(1, 6, 64).astype("float32")
    if kind == "mf":
        net, loss, label = _MF(prefix="mf_"), gluon.loss.L2Loss(), ratings
    else:
        net = _NeuMF(prefix="neumf_")
        loss = gluon.loss.SigmoidBinaryCrossEntropyLoss(from_sigmoid=True)
        label = (ratings > 3).astype("float32")
    net.initialize()
    _fill(net.collect_params(), 12, 0.3)
    net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 0.02, "wd": 1e-4})
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(users, items, label), batch_size=16)
    losses, rmse = [], []
    for _ in range(3):
        tot = []
        for u, i, r in loader:
            with autograd.record():
                out = loss(net(u, i), r)
            out.backward()
            trainer.step(u.shape[0])
            tot.append(float(out.mean().asscalar()))
        losses.append(float(np.mean(tot)))
        m = mx.metric.RMSE()
        m.update([nd.array(label)], [net(nd.array(users), nd.array(items)).reshape((-1,))])
        rmse.append(m.get()[1])
    return {"loss": losses, "rmse": rmse, "sums": _sums(net.collect_params())}


# recorded from 1.9.1: epoch losses, RMSE after each epoch, parameter sums
EXPECTED_NCF = {
    'mf': {'loss': [5.128234, 4.6629068, 4.2394748], 'rmse': [3.0991602, 2.9589641, 2.8153603],
           'sums': [-0.6053416, 0.32075415, 4.6683132, 2.896543]},
    'neumf': {'loss': [0.67764772, 0.65460381, 0.62574039], 'rmse': [0.48620278, 0.47296971, 0.45771703],
              'sums': [0.89871338, -0.45005656, -1.5120139, 0.098385616, 3.7386429, 1.287469, 4.307844,
                       0.31152554, -1.3450968]},
}


@pytest.mark.parametrize("kind", ["mf", "neumf"])
def test_collaborative_filtering_with_adam_matches_1_9_1(kind):
    r = _run_ncf(kind)
    expected = EXPECTED_NCF[kind]
    _close(r["loss"], expected["loss"], rtol=1e-5)
    _close(r["rmse"], expected["rmse"], rtol=1e-5)
    _close(r["sums"], expected["sums"], rtol=1e-4, atol=1e-5)


# ---------------------------------------------------------------------------------------------------
# 1.9.1 bugs found by these scripts that we deliberately do not copy

def test_frozen_weight_still_lets_the_bias_of_fully_connected_learn():
    # 1.9.1 with MKLDNN (the CPU default) leaves the bias gradient at zero when the weight's grad_req is
    # 'null' (Module(fixed_param_names=['fc_weight']) or grad_req='null' in Gluon); with MKLDNN off it
    # gives the true gradient, which is what we give: d(sum(x W^T + b))/db = batch size.
    net = nn.Dense(3, in_units=2)
    net.initialize()
    net.weight.grad_req = "null"
    with autograd.record():
        out = net(nd.ones((4, 2))).sum()
    out.backward()
    np.testing.assert_array_equal(net.bias.grad().asnumpy(), [4.0, 4.0, 4.0])


# ---------------------------------------------------------------------------------------------------
# Module with two data inputs, MakeLoss + BlockGrad outputs grouped, metrics picking outputs by name

def _run_makeloss_module():
    rs = np.random.RandomState(19)
    a_val = rs.normal(size=(24, 4)).astype("float32")
    b_val = rs.normal(size=(24, 3)).astype("float32")
    target = (a_val[:, :1] * 2 - b_val[:, 1:2]).astype("float32")
    a, b, lab = mx.sym.Variable("a"), mx.sym.Variable("b"), mx.sym.Variable("lab")
    hid = mx.sym.concat(mx.sym.FullyConnected(a, num_hidden=5, name="fa"),
                        mx.sym.FullyConnected(b, num_hidden=5, name="fb"), dim=1)
    pred = mx.sym.FullyConnected(mx.sym.Activation(hid, act_type="tanh"), num_hidden=1, name="out")
    loss = mx.sym.MakeLoss(mx.sym.mean(mx.sym.square(pred - lab)), grad_scale=0.5, name="l2")
    net = mx.sym.Group([loss, mx.sym.BlockGrad(pred, name="pred_out")])

    class OutMSE(mx.metric.EvalMetric):
        def __init__(self):
            super().__init__("outmse", output_names=["pred_out_output"], label_names=["lab"])

        def update(self, labels, preds):
            for lbl, prd in zip(labels, preds):
                self.sum_metric += float(((lbl.asnumpy() - prd.asnumpy()) ** 2).mean())
                self.num_inst += 1

    it = mx.io.NDArrayIter({"a": a_val, "b": b_val}, {"lab": target}, batch_size=6)
    mod = mx.mod.Module(net, data_names=["a", "b"], label_names=["lab"])
    shapes = {"fa_weight": (5, 4), "fa_bias": (5,), "fb_weight": (5, 3), "fb_bias": (5,), "out_weight": (1,
                                                                                                         10),
              "out_bias": (1,)}
    metric = mx.metric.CompositeEvalMetric([OutMSE(), mx.metric.Loss(output_names=["l2_output"])])
    mod.fit(it, num_epoch=3, initializer=_ArrInit(shapes, 13, 0.5), optimizer="adam",
            optimizer_params={"learning_rate": 0.02}, eval_metric=metric, eval_data=it)
    args, _ = mod.get_params()
    outs = mod.predict(it, always_output_list=True)
    grad_mod = mx.mod.Module(mx.sym.MakeLoss(mx.sym.sum(mx.sym.square(pred))), data_names=["a", "b"],
                             label_names=None)
    grad_mod.bind([("a", (6, 4)), ("b", (6, 3))], inputs_need_grad=True)
    grad_mod.set_params(args, {}, allow_extra=True)
    grad_mod.forward(mx.io.DataBatch([nd.array(a_val[:6]), nd.array(b_val[:6])]), is_train=True)
    grad_mod.backward()
    return {"outputs": net.list_outputs(), "metric": [v for _, v in metric.get_name_value()],
            "sums": [float(args[k].asnumpy().astype(np.float64).sum()) for k in sorted(args)],
            "pred_shapes": [o.shape for o in outs], "pred_sum": float(outs[1].asnumpy().sum()),
            "input_grads": [float(g.asnumpy().astype(np.float64).sum()) for g in grad_mod.get_input_grads()]}


def test_module_two_inputs_makeloss_blockgrad_and_named_output_metrics_match_1_9_1():
    r = _run_makeloss_module()
    assert r["outputs"] == ["l2_output", "pred_out_output"]
    assert r["pred_shapes"] == [(4,), (24, 1)]
    _close(r["metric"], [1.8610173, 1.8610172], rtol=1e-5)
    _close(r["sums"], [1.4736803, -0.45100323, -0.75326452, -0.0071959738, -0.043068293, -0.17142463],
           rtol=1e-4, atol=1e-5)
    _close(r["pred_sum"], 13.255375, rtol=1e-5)
    _close(r["input_grads"], [2.8884628, -0.03447758], rtol=1e-5)


# ---------------------------------------------------------------------------------------------------
# SequentialModule (feature Module without labels + classifier Module), AdaDelta, roll_over iterator

def _run_sequential_module():
    rs = np.random.RandomState(8)
    x = rs.normal(size=(20, 6)).astype("float32")
    y = rs.randint(0, 3, 20).astype("float32")
    feat = mx.sym.Activation(mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=5, name="f1"),
                             act_type="relu")
    cls = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="f2"),
                               name="softmax")
    seq = mx.mod.SequentialModule()
    seq.add(mx.mod.Module(feat, label_names=None)).add(mx.mod.Module(cls), take_labels=True, auto_wiring=True)
    it = mx.io.NDArrayIter(x, y, batch_size=5, label_name="softmax_label", last_batch_handle="roll_over")
    shapes = {"f1_weight": (5, 6), "f1_bias": (5,), "f2_weight": (3, 5), "f2_bias": (3,)}
    metric = mx.metric.create(["acc", "ce", mx.metric.TopKAccuracy(top_k=2)])
    seq.fit(it, num_epoch=3, initializer=_ArrInit(shapes, 14, 0.5), optimizer="adadelta",
            optimizer_params={"rho": 0.9, "epsilon": 1e-5}, eval_metric=metric)
    args, _ = seq.get_params()
    return {"metric": [v for _, v in metric.get_name_value()],
            "sums": [float(args[k].asnumpy().astype(np.float64).sum()) for k in sorted(args)],
            "score": [v for _, v in seq.score(mx.io.NDArrayIter(x, y, batch_size=5), ["acc", "ce"])]}


def test_sequential_module_with_adadelta_matches_1_9_1():
    r = _run_sequential_module()
    _close(r["metric"], [0.5, 1.0945679, 0.85], rtol=1e-5)
    _close(r["sums"], [-0.10009822, -0.2461903, 0.61911622, -1.2727333], rtol=1e-4, atol=1e-5)
    _close(r["score"], [0.5, 1.0559956], rtol=1e-5)
