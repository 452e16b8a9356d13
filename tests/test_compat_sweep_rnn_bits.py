"""The fused RNN op (and Gluon's RNN/LSTM/GRU layers) give 1.9.1's float32 bits on the CPU.

1.9.1 runs float32 ``RNN`` through oneDNN's RNN primitive; mxnet/operator/_rnn_onednn.py
emulates its order of arithmetic (see there). RECORDED holds, per case, a SHA-256 prefix of
the float32 bytes of every output of MXNet 1.9.1 (CPU, NaiveEngine): forward outputs in
inference (``infer``) and, under ``autograd.record``, the outputs and the gradients of data,
parameters and initial states for the head gradients made here (``train``). The inputs are
made from integer arithmetic only, so they are the same on every platform.

Cases: every mode with 1 and 2 layers, one and two directions (T=5 N=4 I=8 H=16); stacks
whose first layer's input size equals the state size (oneDNN fuses all layers then); 3
layers; a GRU with K = 387 > 384 (oneDNN's GEMM cuts K into blocks); an LSTM with K = 800
(three blocks); 500 (step, batch) rows in the weight gradient GEMMs; stacks whose state size
is not a multiple of 16 in inference (oneDNN's padded workspace changes the order per step);
batches of one (oneDNN's GEMV); sizes of one in inference. Outside the emulated sizes
(training with an input or state size of one, inference with sizes over 384, the cap
``WORK_MAX``) the fast path runs, within a few ulps of 1.9.1.
"""
from __future__ import annotations

import hashlib

import numpy as np
import pytest

import mxnet as mx
from mxnet.operator import _rnn_onednn
from mxnet.operator.nn_rnn import _Layout

nd = mx.nd
_GATES = {"lstm": 4, "gru": 3, "rnn_tanh": 1, "rnn_relu": 1}


@pytest.fixture(autouse=True)
def _recorded_sizes(monkeypatch):
    # the recorded cases reach 2M multiply-adds; the default cap emulates only small calls
    monkeypatch.setattr(_rnn_onednn, "WORK_MAX", 1 << 21)


def test_default_cap_emulates_small_calls_only(monkeypatch):
    monkeypatch.undo()
    attrs = _attrs("lstm", 16, 1, 1)
    small, mid = _Layout(attrs, 8), _Layout(_attrs("lstm", 32, 1, 1), 32)
    assert _rnn_onednn.emulated(np, attrs, small, 5, 4, np.float32, True, None)
    assert not _rnn_onednn.emulated(np, _attrs("lstm", 32, 1, 1), mid, 35, 4, np.float32,
                                    True, None)


def _vals(shape, seed, scale):
    n = int(np.prod(shape))
    k = np.arange(n, dtype=np.uint64)
    u = (k * np.uint64(2654435761) + np.uint64(seed * 7919 + 1)) % np.uint64(1 << 32)
    u = u.astype(np.float64) / float(1 << 32) - 0.5
    return (u * (2 * scale)).astype(np.float32).reshape(shape)


def _psize(mode, I, H, L, D):
    return sum(D * _GATES[mode] * H * ((I if l == 0 else D * H) + H + 2) for l in range(L))


def _inputs(case):
    mode, T, N, I, H, L, D = case
    s = sum(case[1:]) * 13 + len(mode)
    return dict(x=_vals((T, N, I), s, 1.0), p=_vals((_psize(mode, I, H, L, D),), s + 1, 0.3),
                h0=_vals((L * D, N, H), s + 2, 1.0), c0=_vals((L * D, N, H), s + 3, 1.0),
                dy=_vals((T, N, D * H), s + 4, 1.0), dhy=_vals((L * D, N, H), s + 5, 1.0),
                dcy=_vals((L * D, N, H), s + 6, 1.0))


def _digest(a):
    return hashlib.sha256(np.ascontiguousarray(a, np.float32).tobytes()).hexdigest()[:16]


def _run(case, train):
    mode, T, N, I, H, L, D = case
    v = _inputs(case)
    lstm = mode == "lstm"
    args = [nd.array(v["x"]), nd.array(v["p"]), nd.array(v["h0"])]
    if lstm:
        args.append(nd.array(v["c0"]))
    kw = dict(mode=mode, state_size=H, num_layers=L, bidirectional=D == 2, state_outputs=True)
    res = {}
    if train:
        for a in args:
            a.attach_grad()
        with mx.autograd.record():
            outs = nd.RNN(*args, **kw)
        hg = [nd.array(v["dy"]), nd.array(v["dhy"])] + ([nd.array(v["dcy"])] if lstm else [])
        mx.autograd.backward(list(outs), hg)
    else:
        outs = nd.RNN(*args, **kw)
    for n, o in zip(["y", "hy", "cy"], outs):
        res[n] = o.asnumpy()
    if train:
        for n, a in zip(["dx", "dp", "dh0", "dc0"], args):
            res[n] = a.grad.asnumpy()
    return res


def _key_case(key):
    mode, dims, _ = key.split("/")
    nums = [int(t) for t in dims.replace("T", " ").replace("N", " ").replace("I", " ")
            .replace("H", " ").replace("L", " ").replace("D", " ").split()]
    return (mode, *nums)


RECORDED = {
    "lstm/T5N4I8H16L1D1/infer": (
        "y:be86809a195aad87 hy:094d7f95f02a8d7b cy:ab26df6d5a91fa1e"),
    "lstm/T5N4I8H16L1D1/train": (
        "y:be86809a195aad87 hy:094d7f95f02a8d7b cy:ab26df6d5a91fa1e "
        "dx:a9a40b9522ba9e71 dp:8f1ecda571aefbb3 dh0:11a0b3478c757890 "
        "dc0:e1d61e7d393a1fff"),
    "lstm/T5N4I8H16L1D2/infer": (
        "y:1d8694d149fbca8d hy:e9114a29c4c3b07f cy:2ff3cebb5cfc9c52"),
    "lstm/T5N4I8H16L1D2/train": (
        "y:1d8694d149fbca8d hy:e9114a29c4c3b07f cy:2ff3cebb5cfc9c52 "
        "dx:803885a7cd1b7854 dp:b09730d61bd73334 dh0:ece7b7a81d70c01c "
        "dc0:d201d9175fb14220"),
    "lstm/T5N4I8H16L2D1/infer": (
        "y:72bd752f889fcf13 hy:1ff2c85b0d57a6a8 cy:e64f53fe712891da"),
    "lstm/T5N4I8H16L2D1/train": (
        "y:f6b201ebd7a765b3 hy:8e32179ceac9d4b1 cy:0d5bc8959c45d575 "
        "dx:a2d429fa608b905c dp:d62f2ef4b1bd11b6 dh0:f31017973130526e "
        "dc0:e2ce8a6543c673e5"),
    "lstm/T5N4I8H16L2D2/infer": (
        "y:6ff365268484d470 hy:7e85238246197a67 cy:a100aff02eb977a0"),
    "lstm/T5N4I8H16L2D2/train": (
        "y:6ff365268484d470 hy:7e85238246197a67 cy:a100aff02eb977a0 "
        "dx:eaf56e78a0397448 dp:ab6d2d4eaf3fb772 dh0:1a88b0b49f012fce "
        "dc0:3b9431c100c118cb"),
    "gru/T5N4I8H16L1D1/infer": (
        "y:4394d4fc1c47b2c5 hy:2e55ee75b5b21915"),
    "gru/T5N4I8H16L1D1/train": (
        "y:4394d4fc1c47b2c5 hy:2e55ee75b5b21915 dx:6db6afd67a8b4aad "
        "dp:d16699a27e251aa6 dh0:e13f5022c003b8fd"),
    "gru/T5N4I8H16L1D2/infer": (
        "y:d4097b71ba828053 hy:54bb289d5da24a30"),
    "gru/T5N4I8H16L1D2/train": (
        "y:d4097b71ba828053 hy:54bb289d5da24a30 dx:943722801251633f "
        "dp:2b02aab1957b0b48 dh0:f0828e2311a70b73"),
    "gru/T5N4I8H16L2D1/infer": (
        "y:a2edbe2734324510 hy:e373e2b4f0bc8dfe"),
    "gru/T5N4I8H16L2D1/train": (
        "y:a2edbe2734324510 hy:e373e2b4f0bc8dfe dx:6881735749d0baad "
        "dp:6c19cc409d36881e dh0:e0971de79e6c5064"),
    "gru/T5N4I8H16L2D2/infer": (
        "y:42aee0f5bdc21319 hy:ca323138933e79fb"),
    "gru/T5N4I8H16L2D2/train": (
        "y:42aee0f5bdc21319 hy:ca323138933e79fb dx:7b2cdffeff49a8e1 "
        "dp:a3ede6e68879e378 dh0:9ae3c2b0e2254fa1"),
    "rnn_tanh/T5N4I8H16L1D1/infer": (
        "y:4dd7109f5b9f5191 hy:3802d21ed6b365af"),
    "rnn_tanh/T5N4I8H16L1D1/train": (
        "y:4dd7109f5b9f5191 hy:3802d21ed6b365af dx:4be5c688d810c576 "
        "dp:6beb32258dc7e172 dh0:41c4d65adc75f090"),
    "rnn_tanh/T5N4I8H16L1D2/infer": (
        "y:d3220202111f37f9 hy:1e27462b953d5269"),
    "rnn_tanh/T5N4I8H16L1D2/train": (
        "y:d3220202111f37f9 hy:1e27462b953d5269 dx:28a9dcfa84dfc472 "
        "dp:e27df54c2aa890e8 dh0:cf513efadbecbfc5"),
    "rnn_tanh/T5N4I8H16L2D1/infer": (
        "y:27d64c1ee14c436a hy:64349e1cf757aa85"),
    "rnn_tanh/T5N4I8H16L2D1/train": (
        "y:eb19a4ca56e6101b hy:a53b86c9b2b69d8e dx:c88c53f3694c2e4a "
        "dp:027a2f0a298b21f1 dh0:95a3c2aed885fa0f"),
    "rnn_tanh/T5N4I8H16L2D2/infer": (
        "y:85c871e40d68d7a9 hy:a39dd274a1210f34"),
    "rnn_tanh/T5N4I8H16L2D2/train": (
        "y:85c871e40d68d7a9 hy:a39dd274a1210f34 dx:11d7a8f6140b85a8 "
        "dp:e45119b12d688552 dh0:263e762a46a1a073"),
    "rnn_relu/T5N4I8H16L1D1/infer": (
        "y:95aa89f993c85fd5 hy:39f089b782eafb4d"),
    "rnn_relu/T5N4I8H16L1D1/train": (
        "y:95aa89f993c85fd5 hy:39f089b782eafb4d dx:3d69093fe9ec5c5f "
        "dp:62ca150435e8bbd4 dh0:d868a476e5cd789b"),
    "rnn_relu/T5N4I8H16L1D2/infer": (
        "y:34ca2c93bc34f5ef hy:f3ad7bdedce1e925"),
    "rnn_relu/T5N4I8H16L1D2/train": (
        "y:34ca2c93bc34f5ef hy:f3ad7bdedce1e925 dx:d1698ce9dbe7cf0b "
        "dp:6ca99455bbcea84f dh0:c3f5355badb16690"),
    "rnn_relu/T5N4I8H16L2D1/infer": (
        "y:118d06b74b631db2 hy:609100563c856674"),
    "rnn_relu/T5N4I8H16L2D1/train": (
        "y:56a98b9fb821973e hy:bdcf5ab06fd38b90 dx:0218c71b395dab91 "
        "dp:ab75e6f0cf658e0f dh0:ca2eaa9b49c7cefe"),
    "rnn_relu/T5N4I8H16L2D2/infer": (
        "y:54536295646ec327 hy:a189ad8d55a66e4c"),
    "rnn_relu/T5N4I8H16L2D2/train": (
        "y:54536295646ec327 hy:a189ad8d55a66e4c dx:9f815baa17f9c6a9 "
        "dp:97396a5a231ca5de dh0:3fb57adf2c951f96"),
    "lstm/T4N3I16H16L2D1/infer": (
        "y:57fa1fa49aa14701 hy:d48a50a12592caa3 cy:86c1f64b81d90b0c"),
    "lstm/T4N3I16H16L2D1/train": (
        "y:312208a3370abafc hy:f1c9af451fe004f3 cy:03855d5265938745 "
        "dx:7a4fad56c2e12676 dp:07da1e6f818d1d1d dh0:74c2bba8891e06ba "
        "dc0:a336fb52a30ec55e"),
    "rnn_tanh/T3N5I8H16L3D1/infer": (
        "y:6936b89fbec04970 hy:0f636b1965990d52"),
    "rnn_tanh/T3N5I8H16L3D1/train": (
        "y:75e502a5438297c0 hy:3a8a80e99014ee30 dx:5ecfc7c061b931c8 "
        "dp:aeba1bb3ae7743cf dh0:14554b8cc8c5d8f6"),
    "gru/T3N2I16H16L3D1/infer": (
        "y:a1c0e6add65bc312 hy:9f1698bcd38c6e56"),
    "gru/T3N2I16H16L3D1/train": (
        "y:a1c0e6add65bc312 hy:9f1698bcd38c6e56 dx:58ee404c131e7db7 "
        "dp:5ebba30ca30dfc8f dh0:f45d7fa9dec37973"),
    "lstm/T3N2I24H24L2D2/infer": (
        "y:cef4f3b92f614a12 hy:7933e3c0b6346181 cy:a16bf550a6074d64"),
    "lstm/T3N2I24H24L2D2/train": (
        "y:c9ad3edb3609f89c hy:8e63e151a115958e cy:6bd1347581cf6859 "
        "dx:7b736f816eac9973 dp:a1e6de4fd3e6ec41 dh0:3307f550f87ef3b9 "
        "dc0:8363c9e93d98142e"),
    "gru/T2N2I3H129L1D1/infer": (
        "y:5b99a3c361a33638 hy:f06a644f577558f8"),
    "gru/T2N2I3H129L1D1/train": (
        "y:5b99a3c361a33638 hy:f06a644f577558f8 dx:e0543cc0f34747b2 "
        "dp:077dd4cf78bdf8fd dh0:3339410919883e89"),
    "lstm/T1N2I8H200L1D1/infer": (
        "y:3d31d754f7584087 hy:3d31d754f7584087 cy:ac4757904436a826"),
    "lstm/T1N2I8H200L1D1/train": (
        "y:3d31d754f7584087 hy:3d31d754f7584087 cy:ac4757904436a826 "
        "dx:533e65f49638c1ce dp:499b89677c8746c2 dh0:e48a3942e62974f2 "
        "dc0:8dfd2e57b17175a6"),
    "rnn_relu/T25N20I16H16L2D1/infer": (
        "y:300a8a94ef6872ba hy:703342a8ea0b5446"),
    "rnn_relu/T25N20I16H16L2D1/train": (
        "y:d00556a239d3718e hy:07aee703b0d60c9b dx:36ced34463ef884e "
        "dp:5843f920f1321b76 dh0:e220571d7186f57d"),
    "rnn_tanh/T2N3I1H1L2D2/infer": (
        "y:a0157dbe47db6f56 hy:c7ae8ee9d4c73700"),
    "lstm/T3N1I5H7L1D1/infer": (
        "y:39e0085de3aaebfc hy:b0a9e94dbc0846cc cy:73894c1bb8729e93"),
    "lstm/T3N1I5H7L1D1/train": (
        "y:5de4a5215d0b8380 hy:f8a5b91e83386944 cy:f7f46b2fac5d84b7 "
        "dx:b736c64fdb6a2272 dp:d24a5fdb6b6a7890 dh0:16a841ac4e8d8ab5 "
        "dc0:1d89a0e27ea18b58"),
    "lstm/T2N3I500H8L1D1/train": (
        "y:b261aed974b7761d hy:0d9cf298bf197ce9 cy:a91b6172868bf42e "
        "dx:82274287a7abdce7 dp:990a58f397466b22 dh0:ce36e33ade876331 "
        "dc0:2b8aa6e8b56901f6"),
    "lstm/T5N4I40H40L3D1/infer": (
        "y:981428bc923d6d12 hy:a7cf62e34bac0367 cy:08f03e3189cef922"),
    "lstm/T5N4I40H40L3D1/train": (
        "y:f4b8838f29a7b3cc hy:472ab2197fa7217e cy:a103c1a89a177942 "
        "dx:56958ba4ba83a95d dp:ac55aa43d6841be5 dh0:1294bf63c19281de "
        "dc0:e5d67105fd0be13d"),
    "lstm/T5N4I8H40L3D1/infer": (
        "y:6440ecf386f6ef96 hy:1c8183dfe8229e75 cy:e30eddd5b9e455d6"),
    "lstm/T5N4I8H40L3D1/train": (
        "y:a233d9427777af27 hy:cc8b1960378621df cy:dd2edd1953cdb98b "
        "dx:298c0d4eba6942b6 dp:921f719d5229f4b8 dh0:b6e2b230603a1aa7 "
        "dc0:89445c05d140dec1"),
    "rnn_tanh/T4N3I8H24L4D1/infer": (
        "y:3a7c2ad30b4dded0 hy:387a549126c83531"),
    "rnn_tanh/T4N3I8H24L4D1/train": (
        "y:c3f09b771a727ab9 hy:6208c18ec7488018 dx:2f0d9781989ff8fc "
        "dp:f1965657fc3a9a46 dh0:550cb31668e2c334"),
    "lstm/T5N3I4H1L1D1/infer": (
        "y:23f18bb0fa368dc6 hy:2e5f2d7b5ac88ad6 cy:cb6713053a7f006e"),
    "gru/T3N1I6H9L2D2/infer": (
        "y:cc0c0f79300a7ca5 hy:80ff68b8dfc0a3c5"),
    "gru/T3N1I6H9L2D2/train": (
        "y:cc0c0f79300a7ca5 hy:80ff68b8dfc0a3c5 dx:669997d58e1ff344 "
        "dp:312e3f67853e6593 dh0:5a3f5492f3976239"),
    "lstm/T1N1I400H8L1D1/train": (
        "y:8918e0a9f7be3274 hy:8918e0a9f7be3274 cy:86dbf18cddea5d62 "
        "dx:174ffd72ac88654d dp:f1d06290ac90db38 dh0:1fb1ba63ba767689 "
        "dc0:f10b371b144dd771"),
    "lstm/T2N1I8H100L1D1/infer": (
        "y:0999e940dde395dd hy:f0d7c00b40cbed12 cy:e80c3184209d3293"),
    "lstm/T2N1I8H100L1D1/train": (
        "y:d59c3d8eefd61024 hy:529338cb6cf347ec cy:d83274a04f225953 "
        "dx:cc3607e3b9c1da88 dp:02cb11497425614e dh0:a6d7b83bf629d31d "
        "dc0:91f51e17efecb286"),
}


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_rnn_bits(key):
    case = _key_case(key)
    res = _run(case, key.endswith("/train"))
    want = dict(item.split(":") for item in RECORDED[key].split())
    got = {n: _digest(a) for n, a in res.items()}
    assert got == want


@pytest.mark.parametrize("scope, kind", [("record_predict", "train"), ("train_mode", "train"),
                                          ("predict_mode", "infer")])
def test_primitive_kind_follows_recording(scope, kind):
    # 1.9.1 takes oneDNN's training primitive (another order than inference) whenever the call
    # is recorded, also in predict mode, or runs in train mode
    case = ("lstm", 5, 4, 8, 16, 2, 1)
    v = _inputs(case)
    args = [nd.array(v[k]) for k in ("x", "p", "h0", "c0")]
    kw = dict(mode="lstm", state_size=16, num_layers=2)
    ctx = {"record_predict": mx.autograd.record(train_mode=False),
           "train_mode": mx.autograd.train_mode(), "predict_mode": mx.autograd.predict_mode()}
    with ctx[scope]:
        y = nd.RNN(*args, **kw)
    want = dict(item.split(":") for item in RECORDED[f"lstm/T5N4I8H16L2D1/{kind}"].split())
    assert _digest(y.asnumpy()) == want["y"]


def test_bench_lstm_bits(monkeypatch):
    # benchmark/bench_rnn.py's shape, past WORK_MAX: exact when the cap is lifted
    monkeypatch.setattr(_rnn_onednn, "WORK_MAX", 1 << 40)
    res = _run(("lstm", 35, 20, 200, 200, 2, 1), True)
    assert [hex(b) for b in res["y"].ravel()[:4].view(np.uint32)] == [
        "0x3e405b57", "0x3e886d8c", "0xb40f528e", "0xbf430d5d"]
    want = dict(item.split(":") for item in (
        "y:6e0357d8535fb718 hy:0e755d04acc84462 cy:cb11f4289b03a42e "
        "dx:0f39db9640e7dd9f dp:c077cdfa4f46f47b dh0:6a6947de3746541d "
        "dc0:01276ff270ae5905").split())
    assert {n: _digest(a) for n, a in res.items()} == want


@pytest.mark.parametrize("hybridize", [False, True])
def test_gluon_gru_layer_bits(hybridize):
    net = mx.gluon.rnn.GRU(16, num_layers=2, bidirectional=True, input_size=8, layout="NTC")
    net.initialize()
    for i, p in enumerate(net.collect_params().values()):
        p.set_data(mx.nd.array(_vals(p.shape, 100 + i, 0.3)))
    if hybridize:
        net.hybridize()
    x = mx.nd.array(_vals((4, 5, 8), 7, 1.0))
    x.attach_grad()
    with mx.autograd.record():
        y = net(x)
    y.backward(mx.nd.array(_vals(y.shape, 8, 1.0)))
    grads = np.concatenate([p.grad().asnumpy().ravel() for p in net.collect_params().values()])
    assert _digest(y.asnumpy()) == "56826a33b88c9170"
    assert _digest(x.grad.asnumpy()) == "aa92638f923a780e"
    assert _digest(grads) == "1be3c3b04b9af175"


def _attrs(mode, H, L, D):
    return dict(mode=mode, state_size=H, num_layers=L, bidirectional=D == 2, p=0.0,
                projection_size=None, lstm_state_clip_min=None, lstm_state_clip_max=None)


@pytest.mark.parametrize("case, train, want", [
    (("lstm", 5, 4, 8, 16, 2, 2), True, True),
    (("lstm", 5, 4, 8, 16, 2, 2), False, True),
    (("lstm", 3, 1, 5, 7, 1, 1), True, True),       # a batch of one: oneDNN's GEMV
    (("lstm", 3, 1, 5, 7, 1, 1), False, True),
    (("lstm", 2, 3, 500, 8, 1, 1), False, False),   # inference input size > 384
    (("lstm", 2, 3, 500, 8, 1, 1), True, True),
    (("lstm", 3, 5, 33, 33, 3, 1), False, True),
    (("lstm", 5, 3, 4, 1, 1, 1), True, False),      # state size 1: GEMV again
    (("lstm", 5, 3, 1, 4, 1, 1), True, False),      # input size 1
    (("lstm", 35, 20, 200, 200, 2, 1), True, False),  # the benchmark shape: past WORK_MAX
    (("gru", 1, 1, 40, 8, 1, 1), False, False),    # gru inference over one row
    (("gru", 1, 1, 40, 8, 1, 1), True, True),
])
def test_emulated_sizes(case, train, want):
    mode, T, N, I, H, L, D = case
    attrs = _attrs(mode, H, L, D)
    lay = _Layout(attrs, I)
    assert _rnn_onednn.emulated(np, attrs, lay, T, N, np.float32, train, None) is want


def test_outside_emulation_is_close():
    # a state size of one in training takes the fast path: within a few ulps of the exact one
    case = ("lstm", 5, 3, 4, 1, 1, 1)
    fast = _run(case, True)
    exact = _run(case, False)
    np.testing.assert_allclose(fast["y"], exact["y"], rtol=1e-5, atol=1e-6)
    assert np.isfinite(fast["dp"]).all()


def test_float64_and_projection_keep_fast_path():
    attrs = _attrs("lstm", 16, 1, 1)
    lay = _Layout(attrs, 8)
    assert not _rnn_onednn.emulated(np, attrs, lay, 5, 4, np.float64, True, None)
    attrs = dict(attrs, projection_size=8)
    assert not _rnn_onednn.emulated(np, attrs, _Layout(attrs, 8), 5, 4, np.float32, True, None)
