"""Regressions found by running GluonNLP 0.10 and the d2l package's ``d2l.mxnet`` (1.0.3) on
mxnet-py against MXNet 1.9.1 (docs/gluonnlp.md).

Each test reproduces the MXNet API usage that failed or differed, without importing either
package. Literal expected values were recorded from MXNet 1.9.1 (CPU build); float32 results
are written as the hex of their big-endian IEEE bits.
"""
import math
import pickle

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon


def _bits(a):
    return np.ascontiguousarray(a, dtype=">f4").tobytes().hex()


# -- GluonNLP's data loader imports ForkingPickler from here --------------------------------------
def test_dataloader_exports_forking_pickler():
    import io

    from mxnet.gluon.data.dataloader import ForkingPickler, _as_in_context  # noqa: F401
    from mxnet.gluon.data.dataloader import default_batchify_fn, default_mp_batchify_fn  # noqa: F401
    buf = io.BytesIO()
    batch = [mx.nd.array([[1, 2], [3, 4]]), mx.nd.array([5, 6], dtype="int32")]
    ForkingPickler(buf, pickle.HIGHEST_PROTOCOL).dump(batch)
    back = pickle.loads(buf.getvalue())
    assert back[0].asnumpy().tolist() == [[1, 2], [3, 4]]
    assert back[1].dtype == np.int32 and back[1].asnumpy().tolist() == [5, 6]


# -- BERT / transformer attention: 1.9.1 scales q k^T after the GEMM (its alpha) -----------------
_QKV = ((np.arange(3 * 1 * 18, dtype=np.float32) * 0.37) % 1.3 - 0.6).reshape(3, 1, 18)
_Q = ((np.arange(3 * 1 * 6, dtype=np.float32) * 0.41) % 1.1 - 0.5).reshape(3, 1, 6)
_KV = ((np.arange(4 * 1 * 12, dtype=np.float32) * 0.29) % 1.7 - 0.8).reshape(4, 1, 12)


def test_interleaved_selfatt_qk_bits():
    out = mx.nd.contrib.interleaved_matmul_selfatt_qk(mx.nd.array(_QKV), heads=2)
    assert out.shape == (2, 3, 3)
    assert _bits(out.asnumpy()) == (
        "bdffdfcebe4134d93e4aaa53bdf84e97be1004983e2e49a0bdf0bd62bdbda8ae3e11e8f0bdabafb13e83c7ae"
        "3e8d3d4e3b083edc3e88fb953ea92509be1427fdbd99b691bdb43316")


def test_interleaved_encdec_qk_bits():
    out = mx.nd.contrib.interleaved_matmul_encdec_qk(mx.nd.array(_Q), mx.nd.array(_KV), heads=2)
    assert out.shape == (2, 3, 4)
    assert _bits(out.asnumpy()) == (
        "3e5dff833e513a613e44753e3e37b022bc52f10d3c2eff473d0c3bec3d6cb7e1bdd2966cbdc09d6fbdaea473"
        "bd9cab7c3dd67d613de1d7453ded312a3df88b093bf22960baf22491bc359df5bca67b8fbe512b3abe35bcaa"
        "be1a4e18bdfdbf1e")


def test_interleaved_selfatt_qk_gradient_unchanged():
    # the backward still is the derivative of (q k^T) / sqrt(D)
    x = mx.nd.array(_QKV)
    x.attach_grad()
    with autograd.record():
        y = mx.nd.contrib.interleaved_matmul_selfatt_qk(x, heads=2)
    y.backward(mx.nd.ones_like(y))
    q = _QKV.reshape(3, 1, 2, 3, 3).transpose(3, 1, 2, 0, 4)
    want = np.zeros_like(q, dtype=np.float64)
    want[0] = q[1].astype(np.float64).sum(axis=2, keepdims=True) / math.sqrt(3)
    want[1] = q[0].astype(np.float64).sum(axis=2, keepdims=True) / math.sqrt(3)
    want = want.transpose(3, 1, 2, 0, 4).reshape(3, 1, 18)
    np.testing.assert_allclose(x.grad.asnumpy(), want, rtol=1e-5, atol=1e-6)


# -- hybridized inputs: None arguments take no number ("data" for one real argument) ------------
class _Opt(gluon.HybridBlock):
    def hybrid_forward(self, F, a, b=None, c=None):
        return a + c if b is None else a + b


def _exported_args(net, tmp_path, *args):
    net.hybridize()
    net(*args)
    net.export(str(tmp_path / "net"))
    return mx.sym.load(str(tmp_path / "net-symbol.json")).list_arguments()


def test_hybrid_input_names_skip_none(tmp_path):
    one = mx.nd.ones((2,))
    # recorded from 1.9.1: (x, None, y) -> data0, data1; (x, y) -> data0, data1
    assert _exported_args(_Opt(), tmp_path, one, None, one) == ["data0", "data1"]
    assert _exported_args(_Opt(), tmp_path, one, one) == ["data0", "data1"]


def test_hybrid_single_input_with_none_state_is_data(tmp_path):
    # GluonNLP's language models are called as net(inputs, begin_state=None)
    class LM(gluon.HybridBlock):
        def hybrid_forward(self, F, x, state=None):
            return x * 2

    assert _exported_args(LM(), tmp_path, mx.nd.ones((2,)), None) == ["data"]


# -- GluonNLP's WeightDropParameter wraps a Parameter through 1.9.1's private fields ------------
class _WeightDrop(gluon.Parameter):
    """GluonNLP's pattern (gluonnlp.model.parameter.WeightDropParameter), re-written here."""

    def __init__(self, p, rate):
        self._deferred_init = p._deferred_init
        super().__init__(name=p.name, grad_req=p.grad_req, shape=p._shape, dtype=p.dtype,
                         lr_mult=p.lr_mult, wd_mult=p.wd_mult, init=p.init,
                         allow_deferred_init=p._allow_deferred_init,
                         differentiable=p._differentiable)
        self._rate = rate
        self._var = p._var
        self._data = p._data
        self._grad = p._grad
        self._ctx_list = p._ctx_list
        self._ctx_map = p._ctx_map
        self._trainer = p._trainer

    def data(self, ctx=None):
        d = self._check_and_get(self._data, ctx)
        return mx.nd.Dropout(d, self._rate, "training", ())


def test_weight_drop_parameter_pattern():
    net = gluon.nn.Dense(3, in_units=4, use_bias=False)
    net.initialize(mx.init.Constant(0.5))
    old = net.weight
    dropped = _WeightDrop(old, 0.5)
    net._reg_params["weight"] = dropped
    object.__setattr__(net, "weight", dropped)
    x = mx.nd.ones((2, 4))
    # predict mode: no dropout, the shared data
    np.testing.assert_array_equal(net(x).asnumpy(), np.full((2, 3), 2.0, np.float32))
    mx.random.seed(0)
    with autograd.record():
        y = net(x)
    y.backward()
    # the gradient reaches the original parameter's buffer: mask / (1 - p) times sum over batch
    g = old.grad().asnumpy()
    kept = g != 0
    np.testing.assert_array_equal(g[kept], np.full(kept.sum(), 4.0, np.float32))
    np.testing.assert_array_equal(y.asnumpy(), (kept * 1.0).sum(axis=1)[None, :].repeat(2, 0))
    assert dropped._check_and_get(dropped._data, list)[0] is old.data()


def test_parameter_private_fields_as_191():
    p = gluon.Parameter("w", shape=(2, 3))
    assert p._allow_deferred_init is False
    assert gluon.Parameter("v", allow_deferred_init=True)._allow_deferred_init is True
    assert p._var is None
    p.initialize(ctx=[mx.cpu(0), mx.cpu(2)])
    assert p._ctx_map == [[], [0, None, 1]]     # recorded from 1.9.1
    v = p.var()
    assert p._var is v


# -- the generic softmax kernel (temperature, lengths, another axis): glibc's expf/logf ----------
# (BERT's attention masks with lengths; 1.9.1 calls expf/logf, which differ from float64 rounded
# once on ~0.06% of arguments)
def _sm_input(seed):
    return mx.nd.array((np.random.RandomState(seed).randn(4, 8) * 3).astype(np.float32))


def test_softmax_temperature_bits():
    out = mx.nd.softmax(_sm_input(32), temperature=0.7)
    assert _bits(out.asnumpy()) == (
        "38f551013d10ccf83bce26043a38dba63c6f61f53bcf10d93e9299fc3f26785b38564573370931a4370591ec"
        "3f23cb713eb7ac243a90f629375f7ea43985d14a3f673b743bcb10c73a7667bb3d8f6fc43c44e09c382f554d"
        "3bef004439697ddc3b7a74cc39aff39f39bdc93038963ed03eaea2283d6cb68e380b82a13f18b476")


def test_softmax_length_bits():
    out = mx.nd.softmax(_sm_input(143), length=mx.nd.array([8, 5, 3, 7], dtype="int32"),
                        use_length=True)
    assert _bits(out.asnumpy()) == (
        "3aaaaacc3f265279371e397a3a3846913ea071453cddafc03b6f8ea73b89e98b3e3eb2fa3dc6e2a93d571554"
        "3f299e6d3ace54ad0000000000000000000000003ccc11173ec32f013f1807f7000000000000000000000000"
        "00000000000000003d6d454c3d69c8d53c8154563f5b36133c2f83353984cb883aff89e600000000")


def test_log_softmax_axis0_temperature_bits_and_gradient():
    x = _sm_input(5)
    x.attach_grad()
    with autograd.record():
        y = mx.nd.log_softmax(x, axis=0, temperature=1.5)
    y.backward(mx.nd.array(np.arange(32, dtype=np.float32).reshape(4, 8) / 7))
    assert _bits(y.asnumpy()) == (
        "c00b02e6c08fdaedbc1fc4edc00bfef2bf56b30cbe2c003ac05e99f6bfb58ee0c02b79a8c08fca89c0e837e5"
        "c005f3cabfe34520c0081032c09fa803bfd1584fbf407106bdf3dbf7c0fc98cebec98040c0413904c0a17e0f"
        "c059d1f9bf8a42dbbf87e364c01a2b47c098189fc01a3b5dbf869160c062dde3bd96aeb9bfbfc80e")
    assert _bits(x.grad.asnumpy()) == (
        "bf0558b73d23ba45c0a2ea4ebeb5fdd0c0104061c09ff4ec3eb835ddbf8af6643ee581873f4d40943f72d8b4"
        "3eaf97eb3de20eeb3eee47703fa4b0563c951f55bf21c18dc031c0e83fdb2c83c002ebb63fcdb3813ffaab48"
        "3feeffb7be88c6e53f3459833ff7c3b0401b882d4003b8753f09589b4024cb48c060dec03faad3a3")


# -- GluonNLP's BERTAdam runs multi_adamw_update: 1.9.1's multi-tensor moment updates ------------
def test_multi_adamw_update_bits():
    from mxnet.ndarray.contrib import multi_adamw_update
    w = [mx.nd.array(((np.arange(12, dtype=np.float32) * 0.37) % 1.1 - 0.5).reshape(3, 4)),
         mx.nd.array(np.linspace(-1, 1, 4).astype(np.float32))]
    m = [mx.nd.zeros_like(x) for x in w]
    v = [mx.nd.zeros_like(x) for x in w]
    for step in range(2):
        g = [mx.nd.array(((np.arange(12, dtype=np.float32) * (0.53 + step)) % 2.3 - 1.1)
                         .reshape(3, 4)),
             mx.nd.array(np.linspace(2, -1, 4).astype(np.float32))]
        multi_adamw_update(w, g, m, v, out=w, size=2, lrs=[1.0, 1.0], wds=[0.01, 0.0],
                           etas=[0.01, 0.02], beta1=0.9, beta2=0.999, epsilon=1e-6,
                           rescale_grad=mx.nd.full((1,), 0.2))

    def cat(arrs):
        return _bits(np.concatenate([a.asnumpy().ravel() for a in arrs]))

    assert cat(w) == (
        "beda017abdc1eae83e9cc179bf0fc438be4284bb3ea43793bef2c70abe3c615f3e5bc750bee40369bd909b6e"
        "3e847bdabf92f92cbef68e143eaaaaab3f92f8da")
    assert cat(m) == (
        "bd2b367cbad99480bbf66a583d059c903cdb37ccbca7efa23ca0e4183c61c5803c01c2e03bda3c203a51b600"
        "bba5ce503d9ba5e83d1ba5e800000000bd1ba5e8")
    assert cat(v) == (
        "38cae60037aaf300369d4c00388ae800384bf78037e5a6003871b80037313c00380c000038bb50003756a400"
        "36ce680039a7b00038a7b0000000000038a7b000")


# -- sin/cos (d2l's PositionalEncoding): 1.9.1 calls glibc's sinf/cosf ----------------------------
# arguments where NumPy's float32 functions or float64 rounded once give other bits, and
# arguments past 120 (glibc's 192-bit reduction)
_SC_X = (
    "c0c22ff24111f25f40170f4cc10e9ca24050bd77c03920bcbfa132bdc09164dcc0a2850240a0617dc100e1dc"
    "c0ae3be23f65cd4940d4e06f4119286a410dffd8")


def test_sin_cos_glibc_bits():
    x = np.frombuffer(bytes.fromhex(_SC_X), dtype=">f4").astype(np.float32)
    x = np.concatenate([x, np.array([130.5, -1e5, 3.0e7, 1e-5], np.float32)])
    a = mx.nd.array(x)
    a.attach_grad()
    with autograd.record():
        y = mx.nd.sin(a) + mx.nd.cos(a) * 0
    y.backward()
    assert _bits(mx.nd.sin(a).asnumpy()) == (
        "3e5a4ce13e98d3153f3445e7befaa22cbdf51cc5be7c51bebf73af5f3f7c5c3e3f6f0329bf749a63bf7ad680"
        "3f3e59cd3f4828cb3eb8c545be1695333f05c48ebf7e0993bd126d553f76d13e3727c5ac")
    assert _bits(mx.nd.cos(a).asnumpy()) == (
        "3f7a1d77bf74547dbf35c336bf5f3aedbf7e28eebf781b513e9ce3c8be2c0f0f3eb766fb3e97113fbe4c99eb"
        "3f2b2e123f1f99a93f6ebfadbf7d3787bf5a45583dfd1bbfbf7fd61cbe87e65d3f800000")
    assert _bits(a.grad.asnumpy()) == (
        "3f7a1d77bf74547dbf35c336bf5f3aedbf7e28eebf781b513e9ce3c8be2c0f0f3eb766fb3e97113fbe4c99eb"
        "3f2b2e123f1f99a93f6ebfadbf7d3787bf5a45583dfd1bbfbf7fd61cbe87e65d3f800000")
    assert _bits(mx.np.sin(mx.np.array(x)).asnumpy()) == _bits(mx.nd.sin(a).asnumpy())


def test_sin_cos_special_values():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-30], np.float32)
    s = mx.nd.sin(mx.nd.array(x)).asnumpy()
    c = mx.nd.cos(mx.nd.array(x)).asnumpy()
    assert np.isnan(s[2:5]).all() and np.isnan(c[2:5]).all()
    assert _bits(s[[0, 1, 5, 6]]) == _bits(x[[0, 1, 5, 6]])   # sin(x) = x for tiny x, signs kept
    np.testing.assert_array_equal(c[[0, 1, 5, 6]], 1.0)


# -- tanh (d2l's RNNScratch): 1.9.1 calls glibc's tanhf (fdlibm's float steps on expm1f) --------
_TANH_X = (
    "3f1dd8343f6017e63fd59fd8be6cabb93f56eb2fbe86b4c8be280f283e3711153f375aa3bec56f4e3fd1b58c"
    "bf097e82bf901de1bdbdb5153d3327adc01d542e")


def test_tanh_glibc_bits_and_gradient(monkeypatch):
    # opt-in (MXNET_PY_TANH_EXACT_MAX): the emulation costs ~25x NumPy's tanh
    from mxnet.operator import elemwise
    monkeypatch.setattr(elemwise, "TANH_EXACT_MAX", 4096)
    x = np.frombuffer(bytes.fromhex(_TANH_X), dtype=">f4").astype(np.float32)
    x = np.concatenate([x, np.array([0.0, -0.0, 1e-40, 30.0, -23.0, np.inf, -np.inf, 0.75, 1.0,
                                     -1.5, 10.0, 40.0], np.float32)])
    a = mx.nd.array(x)
    a.attach_grad()
    with autograd.record():
        y = mx.nd.tanh(a)
    y.backward()
    assert _bits(y.asnumpy()) == (
        "3f0c7a633f343f353f6e70fcbe688b743f2f80b9be83ae88be2690fe3e35241b3f1d543cbebc329e3f6d5fba"
        "befb4773bf4f42f6bdbd2aa83d330a74bf7c46f00000000080000000000116c23f800000bf8000003f800000"
        "bf8000003f22991f3f42f7d6bf67b7cc3f8000003f800000")
    assert _bits(a.grad.asnumpy()) == (
        "3f32e9e93f01170e3e07a6e83f72cc2f3f07aec23f6f10fa3f7939fa3f77fd3f3f1f4f923f5d69683e0f9678"
        "3f4256b43eb0654a3f7dd0e03f7f82c83cec88803f8000003f8000003f800000000000000000000000000000"
        "000000003f18b9d93ed706e03e390b280000000000000000")
    assert _bits(mx.np.tanh(mx.np.array(x)).asnumpy()) == _bits(y.asnumpy())


# -- optional: the packages themselves, where installed --------------------------------------
def test_gluonnlp_small_bert_runs():
    nlp = pytest.importorskip("gluonnlp")
    enc = nlp.model.BERTEncoder(num_layers=1, units=8, hidden_size=16, max_length=8,
                                num_heads=2, dropout=0.1)
    net = nlp.model.BERTModel(enc, vocab_size=10, token_type_vocab_size=2, units=8,
                              embed_size=8, use_decoder=False, use_classifier=False)
    net.initialize(mx.init.Normal(0.02))
    seq, pooled = net(mx.nd.array([[1, 2, 3]]), mx.nd.zeros((1, 3)), mx.nd.array([3]))
    assert seq.shape == (1, 3, 8) and pooled.shape == (1, 8)


def test_d2l_masked_softmax_runs():
    pytest.importorskip("d2l")
    pytest.importorskip("matplotlib")
    from d2l import mxnet as d2l
    from mxnet import npx
    npx.set_np()
    try:
        out = d2l.masked_softmax(mx.np.ones((2, 2, 4)), mx.np.array([2, 3]))
        np.testing.assert_allclose(out.asnumpy()[0, 0], [0.5, 0.5, 0, 0])
    finally:
        npx.reset_np()
