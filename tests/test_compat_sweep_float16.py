"""float16 arithmetic on the CPU, bit for bit against MXNet 1.9.1.

1.9.1 keeps float16 reductions in half precision: mx.nd's sum/mean/nansum add with a
compensated (Kahan) sum rounded to float16 at every step (in row-major order over the reduced
axes), prod multiplies step by step, mean divides by the count cast to float16, and
MXNET_SAFE_ACCUMULATION does not change any of them; mx.np's sum/mean/prod and moments carry
float16 in float32. softmax adds its float32 exponentials into a float16 total (float32 under
MXNET_SAFE_ACCUMULATION=1); the L2 norm is a scaled float16 sum of squares. Also covered:
np.var/std/linalg.norm, L2Normalization, LayerNorm, GroupNorm, BatchNorm (float16 data),
SoftmaxOutput, softmax_cross_entropy, softmax-family and norm/mean gradients, and the
CPU kernels that reject float16 (InstanceNorm, LRN, SoftmaxActivation, CTCLoss, np.dot).

Every expected bit pattern below (float16 as uint16, float32 as uint32, in hex) was recorded
by running the same calls under MXNet 1.9.1 (CPU build, NaiveEngine); the inputs come from
seeded NumPy generators.
"""
import numpy as np
import pytest

import mxnet as mx


def _data(seed, shape, scale=3.0):
    return (np.random.RandomState(seed).randn(*shape) * scale).astype(np.float16)


def _hex(a, width=4):
    a = a.asnumpy()
    a = a.view(np.uint16 if width == 4 else np.uint32).ravel()
    return "".join(format(int(v), "0%dx" % width) for v in a)


@pytest.fixture
def plain_acc(monkeypatch):
    monkeypatch.delenv("MXNET_SAFE_ACCUMULATION", raising=False)


@pytest.fixture
def safe_acc(monkeypatch):
    monkeypatch.setenv("MXNET_SAFE_ACCUMULATION", "1")


_RED = [(1, (40,), {}), (2, (5, 9), {"axis": 1}), (3, (6, 7), {"axis": 0, "keepdims": True}),
        (4, (3, 4, 5), {"axis": (0, 2)}), (5, (3, 4, 5), {"axis": 1, "exclude": True}),
        (6, (200,), {})]
_NPR = [(7, (6, 50), {"axis": 1}), (8, (4, 5, 6), {"axis": (0, 2), "keepdims": True}),
        (9, (300,), {})]
_SM = [(10, (4, 30), {}), (11, (20, 3), {"axis": 0}),
       (12, (2, 3, 25), {"axis": 1, "temperature": 0.7}), (13, (5, 40), {"dtype": "float32"})]
_NR = [(14, (6, 30), {"axis": 1}), (15, (3, 4, 5), {"axis": (0, 2), "keepdims": True}),
       (16, (100,), {})]
_MO = [(17, (5, 40), (1,)), (18, (4, 3, 6), (0, 2))]


def _red_input(op, seed, shape):
    x = _data(seed, shape, 0.9 if "prod" in op else 3.0)
    if op.startswith("nan"):
        x = x.copy()
        x.ravel()[::7] = np.nan
    return x


@pytest.mark.parametrize("safe", [False, True])
@pytest.mark.parametrize("op", ["sum", "mean", "nansum", "prod", "nanprod"])
def test_nd_reductions_match_bits(op, safe, monkeypatch):
    # the safe-accumulation switch leaves mx.nd's reductions unchanged in 1.9.1
    monkeypatch.setenv("MXNET_SAFE_ACCUMULATION", "1" if safe else "0")
    for seed, shape, kw in _RED:
        x = mx.nd.array(_red_input(op, seed, shape), dtype="float16")
        out = getattr(mx.nd, op)(x, **kw)
        assert out.dtype == np.float16
        assert _hex(out) == _want(op, seed, False), (op, seed)


@pytest.mark.parametrize("op", ["sum", "mean", "prod"])
def test_np_reductions_match_bits(op, plain_acc):
    for seed, shape, kw in _NPR:
        x = mx.np.array(_data(seed, shape, 0.9 if op == "prod" else 3.0), dtype="float16")
        out = getattr(mx.np, op)(x, **kw)
        assert out.dtype == np.float16
        assert _hex(out) == _want("np" + op, seed, False), (op, seed)


@pytest.mark.parametrize("safe", [False, True])
@pytest.mark.parametrize("op", ["softmax", "log_softmax", "softmin"])
def test_softmax_family_matches_bits(op, safe, monkeypatch):
    monkeypatch.setenv("MXNET_SAFE_ACCUMULATION", "1" if safe else "0")
    for seed, shape, kw in _SM:
        out = getattr(mx.nd, op)(mx.nd.array(_data(seed, shape), dtype="float16"), **kw)
        width = 8 if kw.get("dtype") == "float32" else 4
        assert _hex(out, width) == _want(op, seed, safe), (op, seed, safe)


@pytest.mark.parametrize("safe", [False, True])
@pytest.mark.parametrize("ord_", [1, 2])
def test_norm_matches_bits(ord_, safe, monkeypatch):
    monkeypatch.setenv("MXNET_SAFE_ACCUMULATION", "1" if safe else "0")
    for seed, shape, kw in _NR:
        out = mx.nd.norm(mx.nd.array(_data(seed, shape), dtype="float16"), ord=ord_, **kw)
        assert _hex(out) == _want("norm%d" % ord_, seed, safe), (ord_, seed, safe)


@pytest.mark.parametrize("safe", [False, True])
def test_moments_match_bits(safe, monkeypatch):
    monkeypatch.setenv("MXNET_SAFE_ACCUMULATION", "1" if safe else "0")
    for seed, shape, axes in _MO:
        x = mx.nd.array(_data(seed, shape) + np.float16(4), dtype="float16")
        m, v = mx.nd.moments(x, axes=axes)
        assert (_hex(m), _hex(v)) == _want("moments", seed, safe), seed


def test_crafted_float16_sums(plain_acc):
    # recorded from 1.9.1
    def nd(v):
        return mx.nd.array(v, dtype="float16")
    v = nd([2048, 1, 1, 1, 1])   # the compensation recovers the 1s a plain float16 sum loses
    assert mx.nd.sum(v).asnumpy().tolist() == [2052.0]
    assert mx.nd.mean(v).asnumpy().tolist() == [410.5]
    assert mx.nd.nansum(v).asnumpy().tolist() == [2052.0]
    w = nd([60000, 10000, 1])     # overflow: sum keeps inf, nansum's compensation gives NaN
    assert mx.nd.sum(w).asnumpy().tolist() == [np.inf]
    assert np.isnan(mx.nd.nansum(w).asnumpy()).all()
    assert mx.nd.mean(w).asnumpy().tolist() == [np.inf]
    assert np.isnan(mx.nd.nansum(nd([np.inf, -1, 1])).asnumpy()).all()
    assert mx.nd.sum(nd([np.inf, -1, 1])).asnumpy().tolist() == [np.inf]
    # a float16 running product overflows where mx.np's float32 one does not
    assert mx.nd.prod(nd([300, 300, 0.001])).asnumpy().tolist() == [np.inf]
    assert float(mx.np.prod(mx.np.array([300, 300, 0.001], dtype="float16"))) == 90.0625
    assert float(mx.np.sum(mx.np.array([60000, 10000, -10000], dtype="float16"))) == 60000.0
    assert mx.nd.sum(nd([60000, 10000, -10000])).asnumpy().tolist() == [np.inf]
    assert mx.nd.norm(nd([30000, 40000])).asnumpy().tolist() == [49984.0]


def test_float32_paths_unchanged():
    # float32 keeps NumPy's own reductions (closed forms)
    x = mx.nd.array(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert mx.nd.sum(x, axis=1).asnumpy().tolist() == [6.0, 22.0, 38.0]
    assert mx.nd.mean(x).asnumpy().tolist() == [5.5]
    assert mx.nd.prod(x[1:], axis=0).asnumpy().tolist() == [32.0, 45.0, 60.0, 77.0]


_NP_STATS = {  # recorded from 1.9.1; MXNET_SAFE_ACCUMULATION does not change them
    ("var", 20): "49c4485248f8489748424790", ("std", 20): "42e141f44263422341e94192",
    ("var", 21): "476e4a07479a48f0", ("std", 21): "418b4310419c4265",
    ("var", 22): "451847de47de47e24a9b", ("std", 22): "40a041c041c041c14373",
}
_NP_NORM = {  # recorded from 1.9.1: (plain, MXNET_SAFE_ACCUMULATION=1)
    23: ("4caa4c0b4d5f4ca74c964c26", "4ca94c0a4d604ca74c974c27"),
    24: ("5501533054c85581", "5500532f54c85580"),
    25: ("4e87", "4e87"),
    26: ("4fc7", "4fc7"),
    27: ("454946d9450c4a5f47c648ac48a6", "454946d9450c4a5f47c648ac48a7"),
}


@pytest.mark.parametrize("safe", [False, True])
def test_np_var_std_match_bits(safe, monkeypatch):
    monkeypatch.setenv("MXNET_SAFE_ACCUMULATION", "1" if safe else "0")
    for seed, shape, ax in [(20, (6, 40), 1), (21, (30, 4), 0), (22, (3, 5, 7), (0, 2))]:
        a = mx.np.array(_data(seed, shape) + np.float16(2), dtype="float16")
        assert _hex(mx.np.var(a, axis=ax)) == _NP_STATS[("var", seed)], seed
        assert _hex(mx.np.std(a, axis=ax, ddof=1)) == _NP_STATS[("std", seed)], seed


@pytest.mark.parametrize("safe", [False, True])
def test_np_linalg_norm_matches_bits(safe, monkeypatch):
    monkeypatch.setenv("MXNET_SAFE_ACCUMULATION", "1" if safe else "0")
    for seed, shape, kw in [(23, (6, 40), {"axis": 1}), (24, (30, 4), {"axis": 0, "ord": 1}),
                            (25, (50,), {}), (26, (4, 5, 6), {}),
                            (27, (7, 9), {"axis": 1, "keepdims": True})]:
        out = mx.np.linalg.norm(mx.np.array(_data(seed, shape), dtype="float16"), **kw)
        assert out.dtype == np.float16
        assert _hex(out) == _NP_NORM[seed][int(safe)], (seed, safe)


def test_float16_only_float32_kernels_raise():
    # 1.9.1's CPU build rejects float16 here (each raises MXNetError there)
    h = "float16"
    with pytest.raises(mx.base.MXNetError, match="InstanceNorm.*float16"):
        mx.nd.InstanceNorm(mx.nd.ones((2, 3, 4), dtype=h), mx.nd.ones((3,), dtype=h),
                           mx.nd.ones((3,), dtype=h)).asnumpy()
    with pytest.raises(mx.base.MXNetError, match="LRN.*float16"):
        mx.nd.LRN(mx.nd.ones((2, 4, 3, 1), dtype=h), nsize=3).asnumpy()
    with pytest.raises(mx.base.MXNetError, match="SoftmaxActivation.*float16"):
        mx.nd.SoftmaxActivation(mx.nd.ones((2, 3), dtype=h)).asnumpy()
    with pytest.raises(mx.base.MXNetError, match="CTCLoss.*float16"):
        mx.nd.CTCLoss(mx.nd.ones((5, 2, 4), dtype=h),
                      mx.nd.array([[1, 2], [1, 0]], dtype=h)).asnumpy()
    a, b = mx.np.ones((2, 3), dtype=h), mx.np.ones((3, 2), dtype=h)
    for fn in (mx.np.dot, mx.np.matmul, lambda p, q: mx.np.tensordot(p, q, axes=1)):
        with pytest.raises(mx.base.MXNetError, match="float16"):
            fn(a, b).asnumpy()


_L2N = {  # recorded from 1.9.1 (L2Normalization of float16, eps=1e-3)
    30: (
        'b178329cb0332c13a2f82942b37832db24a6b0ca32d42371ae9daeb631fd2e95a8f22ca9b482300e'
        '9266ac0cab53309bb64832ff322badc13043b35cb0c3b1b12f04b085adf7af6130d1b428ae112f59'
        '3111ad2d9c8132baabac30ea3494aad8ab77b4a62d50309a2f8cb45331fd341f2a3bb0c8b19c9a96'
        'b3a1b1feabe9b117b119b2313068b2b21ca2ac5727eeac70a6b0a82ea9042d7730c7adbc2aa0b63f'
        '9999a19ba571b0c02e19ad49b22030c730a9b3edaa6ab1a4348530a73151b18832b9a9fb2b092ca3'
        '2cd3ac07302aa97b30f1b35faefb2f76b119310f316a2fd6ac582e1f2c6b2d87b3d0ae553801aaeb'
    ),
    31: (
        'b498b0d029a0b72fad1aba94b84e3aadb61faa402eb8b088b971b6a23933b234b9222b0db656b50f'
        'b80e3af739c5b782adf6ae0eb6a725cf3323b48d335432be3945ac5eb407ae1fa006b5d7b932ba5e'
        '2073a8f7b4c837cdb449b62bb6b4386a38f6b21d336836bebae6ba5fb98139ec30693218b035b332'
    ),
    32: (
        'ad193330303f241b31ae304135603613aba2b108b113371636992eabb03326ac35872d22a53332b2'
        '2e6eb12f2cf3ad672008aeb7ae7eb1a632eb3048b2c933bf395ab14bac55b5e9095d2c7934d7b054'
        '335db159aa509c64b704b2afb664339622ab2c8c23d7b44f2819a9d2b543ad1635d33527b0f6ae25'
        'b72baf27b530b3f32d7eb5663451ac2f320c3064b19fb01db2bc18d5ae5fb01d346b3423352c29ca'
        'af1c347a2bd82a4d36da33a5b245b5e3aca7ae0a2f3c35d92e902790b55daf3834ec2787b4b42e3c'
        'b52fb1afb3453201b199329135fd2673abe9b4153712966c303024e3ac5e2d73b49e3694b01ca32d'
    ),
}


def test_l2_normalization_matches_bits():
    for seed, shape, mode in [(30, (3, 40), "instance"), (31, (2, 5, 3, 2), "channel"),
                              (32, (2, 3, 4, 5), "spatial")]:
        x = mx.nd.array(_data(seed, shape), dtype="float16")
        out = mx.nd.L2Normalization(x, mode=mode, eps=1e-3)
        assert out.dtype == np.float16 and out.shape == shape
        assert _hex(out) == _L2N[seed], mode


def test_softmax_cross_entropy_matches_bits():
    # recorded from 1.9.1: the float16 loss is a plain float16 sum of the row losses
    want = {40: "594e", 41: "54a1", 42: "58db"}
    for seed, n, c in [(40, 30, 10), (41, 8, 25), (42, 50, 3)]:
        lab = np.random.RandomState(seed + 100).randint(0, c, n).astype(np.float16)
        out = mx.nd.softmax_cross_entropy(mx.nd.array(_data(seed, (n, c)), dtype="float16"),
                                          mx.nd.array(lab, dtype="float16"))
        assert out.dtype == np.float16 and out.shape == (1,)
        assert _hex(out) == want[seed], seed


_LN = {  # recorded from 1.9.1: (out, mean, std) of float16 LayerNorm
    50: (
        (
            'c0a4c080bed1c32841acb8a0c3d540232f50bb29b1c839672988bd9db9a83bb645d43fa63a213f98'
            'ba433994ba2ab9b5bdd62618b8443c963340abe03d88bcaac1acbcde405e3471c29a4155372e3cf2'
            'b602391631d8c09ebd93b50a389a3dc13e062d40bcda38284074c073bde436983606b64a32d7b75a'
            '31edc0123450c1153d0b3c2cc0ee39a1383139ce9940339e3026b9a73da1b57a440340283eda3250'
            '3a61bd0ab2fac374be0235b6b16bb9ff346ac1d53885c1003a303ab8436cbc86c3433cee3e693820'
            'b1633476b5d7bbae357698803dbb3ef2301cbb26b88e3fc4b1c8be6bbc9e3de8bde6bef0b30cbeea'
        ),
        '3d743d3438c03102',
        '425241c64346418b',
    ),
    51: (
        (
            '3d413d3540ddbde13a893d003e0bb3803daf4403c196c275c382c06cc2d8c170c2d6c2b8c1b7c14c'
            '4111406c40ef3e614192420e40e73f7035b03970b60043e53fb7413041ac3dc8418e3e2242583e4b'
            '3a94bc28babcabe1b10cb6edbe943ecebcc4b56e30beb850393f3dd8b860bbfc3c5f3b5040fcb724'
            'b05833084025b6d040e83d8c406641dfbb0a401bc149c16cc40ac097c06ebeeac045c0ddc29fc0c3'
            '403c417e3ec73500407b40aa3ad940a33f993dcb3b20422b425b42fc3dd434e4430b2c0041d6413e'
            'baacbcdfb1623a88c020bd5bbfabbaa63a86382e4160b29c39f03951208034872decb49c3c68c077'
            'bc513fae41024156414dbc153b633ee33cfaa960c167bfc2c026c1eac1f9c02dc115bd74c33cc11c'
            '3b723d983d89365e382940a641ed3d5a3fa341a842214117298043c531a8413e3b183fd1405639aa'
            '3baea6583b0ab0e638c2b54a29f0bd083e4638c83d70c042bc46b876401cacc0bb62bb12b8f2b250'
        ),
        (
            '2e5f3d5040423f8d406f3b57b607379db44b3b71403cba2dbf44324b3c9e4419b297b4e43dcb32fc'
            '3e1738b13c03402f3fd73c073df1b4253d3f3ab3'
        ),
        (
            '40a4409641df408f40d73e773f5a408b40704355422241f343d140883ea942b74190418943534260'
            '4393422b432a40a23ed540fd416d3f3a412f415a'
        ),
    ),
    52: (
        (
            'bf84c498c094b8763b063da937861100b8d4379cbd6e34ccb45b2000372eb234b6bc2fd4bdd9bf3c'
            'b45e3228b897bdfcbc2d3e713f75b8aa3885ba60381ab340bbfebcccbcd2ba1b3204b8c1b124384c'
            '3d453eccbffcb8aebd523f44413fb984b73440183e4a3be6ba6bc038bda9bdd4bfc2b91dc023bd7a'
        ),
        '3ef53e8e3e19',
        '40a741d741b4',
    ),
}
_LN_SAFE = {  # the same under MXNET_SAFE_ACCUMULATION=1, where it differs
    51: (
        (
            '3d413d3540ddbde13a893d003e0bb3803daf4403c196c275c382c06cc2d8c170c2d6c2b8c1b7c14c'
            '4110406c40ef3e614192420e40e73f7035b03970b5f043e53fb7413041ac3dc8418e3e2242583e4b'
            '3a92bc28babcabe1b10cb6edbe943ecebcc4b56e30c0b850393f3dd8b860bbfc3c5f3b5040fcb724'
            'b05833104025b6d040e83d8c406641dfbb0a401bc149c16cc40ac097c06ebeeac045c0ddc29fc0c3'
            '403c417e3ec73500407b40aa3ad940a33f993dcb3b20422b425b42fc3dd434e4430c2c0041d6413e'
            'baacbcdfb1623a88c020bd5bbfabbaa63a86382e4160b29839f03951208034872decb49c3c68c077'
            'bc513fae41024156414dbc153b643ee33cf9a960c167bfc2c026c1eac1f9c02dc115bd74c33cc11c'
            '3b723d983d89365e382940a641ed3d5a3fa241a842214117298043c531a8413e3b1a3fd1405639aa'
            '3baea6583b0ab0e638c2b54a29fcbd083e4638c83d70c042bc46b876401cacc0bb60bb12b8f4b250'
        ),
        (
            '2e5d3d5040423f8d406f3b57b607379db44b3b73403cba2fbf44324b3c9e4419b298b4e43dcb32fb'
            '3e1738b13c03402f3fd73c073df0b4253d403ab3'
        ),
        (
            '40a5409641df408f40d73e773f5a408b40704356422241f343d140883ea942b74190418943534260'
            '4393422b432a40a23ed540fd416d3f3a412f415a'
        ),
    ),
}


@pytest.mark.parametrize("safe", [False, True])
def test_layer_norm_matches_bits(safe, monkeypatch):
    # the last axis has its own float32-carried kernel; other axes reduce in float32, or in
    # float16 under MXNET_SAFE_ACCUMULATION=1
    monkeypatch.setenv("MXNET_SAFE_ACCUMULATION", "1" if safe else "0")
    for seed, shape, ax, eps in [(50, (4, 30), -1, 1e-5), (51, (3, 6, 10), 1, 1e-3),
                                 (52, (20, 3), 0, 0.1)]:
        c = shape[ax]
        rs = np.random.RandomState(seed + 100)
        g = mx.nd.array((rs.rand(c) + 0.5).astype(np.float16), dtype="float16")
        b = mx.nd.array(rs.randn(c).astype(np.float16), dtype="float16")
        x = mx.nd.array(_data(seed, shape) + np.float16(1), dtype="float16")
        outs = mx.nd.LayerNorm(x, g, b, axis=ax, eps=eps, output_mean_var=True)
        want = _LN_SAFE[seed] if safe and seed in _LN_SAFE else _LN[seed]
        assert tuple(_hex(o) for o in outs) == want, (seed, safe)


_BN = {  # recorded from 1.9.1: (out as float16, mean and invstd as float32 bits)
    60: (
        (
            '23ea36b7410db5e9bd0fba13bcffbe3abf85c1a9bf7bbeb63b49bc1bbe8e3d8d410f3dd93f333cc7'
            'be9ec38fbfa0c037ba09b3ceb551beeabc18b8e73c7bc085338d40f23e5cc1a6bac0bd7fbf51bdb6'
            '392dbd47add4b40bb57b3ca0acd3bdc4bb013979bf6dbcd8bc28bdddc2d0bc8cb503be69c166be5b'
        ),
        '3f3acccd4014fccd402380cd',
        '3e9a0bc23eb200bb3ea749c8',
    ),
    61: (
        (
            '438947ad45b2493a469c48573c1fa9be4584c138b1ec4111411ba9efbd3c3975c51ebce9451a40e5'
            '39e3c3d0bfbdbbc739a13f942c734104ab3dc0bb4301c186b700417eaa9db59844264ab547c13baf'
            '3f213e71c2ec44e44058b7a8ba86bff94008447cbade441dc385b2f43813312ec31344473f8c4011'
            'c7b8c178c26c3ff1403a3dbebedf42f02e2a41ee3e3b4063'
        ),
        'bfb8949a3e333a333f45b3df3fb6bd6c',
        '3f8494023f6dc62d3f94ace63f768cdc',
    ),
    62: (
        '3d55bbcf3b3b3dd0bae83c75bc1d30e4359e40493e0e36f5',
        '3dd9000040781d55',
        '3f04ff303efb2451',
    ),
}


def test_batch_norm_float16_data_matches_bits():
    for seed, shape, train, fix in [(60, (4, 3, 5), True, False), (61, (2, 4, 3, 3), False, False),
                                    (62, (6, 2), True, True)]:
        c = shape[1]
        rs = np.random.RandomState(seed + 100)
        g, b = mx.nd.array(rs.rand(c) + 0.5), mx.nd.array(rs.randn(c))
        mm, mv = mx.nd.array(rs.randn(c)), mx.nd.array(rs.rand(c) + 0.3)
        x = mx.nd.array(_data(seed, shape) + np.float16(2), dtype="float16")
        with mx.autograd.record(train_mode=train):
            o, m, v = mx.nd.BatchNorm(x, g, b, mm, mv, fix_gamma=fix, eps=1e-3,
                                      output_mean_var=True)
        assert o.dtype == np.float16 and m.dtype == v.dtype == np.float32
        assert (_hex(o), _hex(m, 8), _hex(v, 8)) == _BN[seed], seed


_GN = {  # recorded from 1.9.1: (out, mean, std) of float16 GroupNorm
    70: (
        (
            '39a435e8b0a42b8631ba3aa2bcef2cb3b63aaec1c296bc0cc06ac06ec09abda0bd7dbfafbc9bba18'
            'b66cb6423dddb61aad6635e8b202b6f92efb3475c0d0bd14b8ecbef1bf3dc019bd74c2edbdf1bdd0'
        ),
        '3e1441eb406a3c14',
        '42a640bd43c64127',
    ),
    71: (
        (
            'bbaac038bbd436e2bbea389a3ddebf0d3dc4aed0395a424c2f30ba84bd3a3fb534792e98403cbf48'
            '30ba3a60b16a3d8fbd5abcc0b7c7bfcc3a6239043c69bf93304a3b1a4020c0c4b5da3fce3d6a3dbd'
            '3a3240423940b8b63e29bdeab176a440a820bc42c16abe4eb90b3bacb1083b08bd2eb04840aeaf60'
            '3ba43cdaba4841cab862405d39debd3b3c103bcebaf4394b'
        ),
        '41133fd441df417144514128433e41404358',
        '409c41d14063411d429840af3ecb40543f1b',
    ),
}


@pytest.mark.parametrize("safe", [False, True])
def test_group_norm_matches_bits(safe, monkeypatch):
    # float32-carried reductions whatever MXNET_SAFE_ACCUMULATION says
    monkeypatch.setenv("MXNET_SAFE_ACCUMULATION", "1" if safe else "0")
    for seed, shape, groups in [(70, (2, 4, 5), 2), (71, (3, 3, 2, 4), 3)]:
        rs = np.random.RandomState(seed + 100)
        g = mx.nd.array((rs.rand(groups) + 0.5).astype(np.float16), dtype="float16")
        b = mx.nd.array(rs.randn(groups).astype(np.float16), dtype="float16")
        x = mx.nd.array(_data(seed, shape) + np.float16(3), dtype="float16")
        outs = mx.nd.GroupNorm(x, g, b, num_groups=groups, eps=1e-3, output_mean_var=True)
        assert tuple(_hex(o) for o in outs) == _GN[seed], seed


_SM_LEN = {  # recorded from 1.9.1: softmax(use_length=True, temperature=0.6)
    False: (
        '3bb12105276000000000000000000000000000000000000000000000000000000000000000000000'
        '00000000000000000000000000000000000000000000000000000000000000000000000000790000'
        '000100730000261503e602be00f81efc19051eb8016700000000000e0bf423f60003249a00000000'
        '0000001d01c500261cd200003b60009305490000001a000300000000000000000000000000000000'
        '00000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000003c0000000000000000000000000000000000'
        '00000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000001c9f10a10b6400270000027d3bb5000906360001239b144e'
        '0ffb001400b4233b018f006b00740000000000000000000000000000000000000000000000000000'
        '0000000000000000000034590033006339d40dbc0000000000000000000000000000000000000000'
        '00000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '00000000'
    ),
    True: (
        '3bb12105276000000000000000000000000000000000000000000000000000000000000000000000'
        '00000000000000000000000000000000000000000000000000000000000000000000000000790000'
        '000100730000261503e602be00f81efc19051eb7016700000000000e0bf423f60003249a00000000'
        '0000001d01c500261cd200003b60009305490000001a000300000000000000000000000000000000'
        '00000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000000000000000003c0000000000000000000000000000000000'
        '00000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '000000000000000000000000000000001ca010a20b6600270000027e3bb6000906370001239d144f'
        '0ffc001400b4233c018f006b00740000000000000000000000000000000000000000000000000000'
        '0000000000000000000034580033006339d30dbb0000000000000000000000000000000000000000'
        '00000000000000000000000000000000000000000000000000000000000000000000000000000000'
        '00000000'
    ),
}


@pytest.mark.parametrize("safe", [False, True])
def test_softmax_with_length_matches_bits(safe, monkeypatch):
    monkeypatch.setenv("MXNET_SAFE_ACCUMULATION", "1" if safe else "0")
    rng = np.random.RandomState(20)
    x = mx.nd.array((rng.randn(6, 37) * 4).astype(np.float16), dtype="float16")
    length = mx.nd.array([3, 37, 0, 1, 20, 5], dtype="int32")
    out = mx.nd.softmax(x, length=length, use_length=True, temperature=0.6)
    assert out.dtype == np.float16
    assert _hex(out) == _SM_LEN[safe]


_GRADS = {  # recorded from 1.9.1
    ('grad', 80): (
        'b3249271298f82df1eab243e82d487b2116718b720638069120f914e17632c5705232cfd0f5700c7'
        '19ac0c728d2528d3204f84150877abf10c3700dc0f9380230a96812e80040dda005a1e4708981c8b'
        '21932240913d8fbba830380e8eb59e2c8b90b5ba26d799d1ad7f1194a8519af480049180a8158189'
    ),
    ('grad', 81): (
        '3ccebfc13f563a8d3a97a970b85cb70f3fdc35053dfaba70391541b6c7343dc3b528bb16bc60afc0'
        'ae582c8a3e94b8b0b64e3bf9bb02b889bcce3afe35893caaa442b3a73aa5c09cb8603fd8b8f7b6fc'
        '401fbc8a3cdfba193ae14416bdd3bf35bd7cbf7545553a06c0023c60bbe63d18be4abc79bf96b9aa'
    ),
    ('grad', 82): (
        '958f35178f00997d8ddaa55facba110903ee01b68212a9d09d5b807e18f28e58a94da593ae6c9e01'
        '9f061ca786a9280824428f7f26ffa6a22d6e141895fd0d759f7da425891dab21a132836aa8aa9da4'
        '030daa9784b3a673012196ffa8a03195a40c344292028137b20394e3a5c48ee62c3fa792af32a590'
    ),
    ('grad', 83): (
        '3114b75b3d74bca2b84bb1e438f4b337a931bf7437f44043b82736b33c12b673b45838a2be113649'
        'b9acbce83704b50c9d53bc33bc303c4c3713baaebafa31bdbb1842a832b6b850c0e6b45d4658bf34'
        'ae52367438533f323d19312dbc43b83aba26bfe029d2bd57be5e348ebaf13fdd34633d553439aff8'
    ),
    ('so', 84): (
        '14eb0f5222a902270db90a7f054013551670006f20023bcb12c72e0c38a61fba122c30e009e82d89'
        '141f11a92c2621762f43199c1d0f252c36f320d11dcc32420cf51c9b32092543000d11083ac80068'
        '15781a6920762ae82d2f1912045c0e0e'
    ),
    ('sce_grad', 84): (
        '182e123925a903a9becc0d860877163c197900bd22d03ea0becb31243be72291153f34250d0530b5'
        '170214d02f0e24a4322c1cc5204d286639e8241820eebd7910371fd535212879001614473dc4becd'
        '18a61d7323962ddf30681c4f07691126'
    ),
    ('so', 85): (
        '15263b68239300f41531003f00a400bb206f289d22670e0b0e910e5d12f400e1355f0a4710e52931'
        '1a3038f105e3114a12841c12330723ea254504f139e604de0d8508d7144417013520235d09751b02'
        '084832fe29182f2124d92356243b33c1'
    ),
    ('sce_grad', 85): (
        'beca3e4c2670019f186a006b0117013e238a2bd8257111231195becc15e9017f38910d5614292c6a'
        '1d433c330901147f158a1eec35f926ba287b08333d04082310b1becd174119f4385bbeb40ca41df5'
        '0b4735f22c55320f281f263c27313697'
    ),
}
_GRADS_SAFE = {  # the same under MXNET_SAFE_ACCUMULATION=1, where it differs
    ('grad', 80): (
        'b3309283298b82e11ea6243b82df87b3116418b4205f80691209917a175f2c52051e2cfa0f5300c7'
        '19ad0c758d2028f0205084110885abe80c3800dd0f9780230a9d812d80040ddf005b1e4a08991c8e'
        '2191223b91408fd1a831380d8eb69e2e8b90b5ba26d599d3ad7f1193a8529af580049181a815818a'
    ),
    ('grad', 81): (
        '3ccebfc13f563a8d3a97a971b85cb70f3fdc35123dfaba70391541b6c7313dc4b528bb16bc5fafc0'
        'ae572c8a3e94b8b0b64e3bf9bb01b889bcce3afd35893caaa442b3a73aa5c09db8603fd8b8f7b6fc'
        '4020bc8a3cdfba1a3ae04416bdd3bf35bd7cbf7545553a07c0023c61bbe63d18be4abc79bf96b9aa'
    ),
    ('grad', 82): (
        '959035148f01997e8de4a560acb910c203ea01b4821ba9d39d5b807e18ee8e5aa94ea598ae6d9e04'
        '9f051ca686a8280824428f7e26fda6a12d6d141795fc0d739f7ba424891bab1ea1318369a8a99da2'
        '030daa9984b4a673012096ffa8a13195a40e344392038139b20394e3a5c48ee62c3fa792af32a590'
    ),
    ('grad', 83): (
        '3111b75b3d73bca2b84bb1eb38f7b337a931bf7437f44043b82836b33c12b673b45538a2be113649'
        'b9aebce83704b50c9d53bc33bc303c483713baaebafb31bdbb1d42a832b5b850c0e6b45d4657bf34'
        'ae52367538533f323d19312ebc43b83aba26bfe029d2bd57be5e3490baf13fdd34633d55343aafef'
    ),
}


@pytest.mark.parametrize("safe", [False, True])
def test_softmax_family_gradients_match_bits(safe, monkeypatch):
    monkeypatch.setenv("MXNET_SAFE_ACCUMULATION", "1" if safe else "0")
    table = _GRADS_SAFE if safe else _GRADS
    for seed, op, temp in [(80, "softmax", 1.0), (81, "log_softmax", 0.7), (82, "softmin", 1.0),
                           (83, "log_softmax", 1.0)]:
        a = mx.nd.array(_data(seed, (3, 20)), dtype="float16")
        a.attach_grad()
        with mx.autograd.record():
            y = getattr(mx.nd, op)(a, temperature=temp)
        y.backward(mx.nd.array(_data(seed + 1, (3, 20), 1.0), dtype="float16"))
        assert a.grad.dtype == np.float16
        assert _hex(a.grad) == table[("grad", seed)], (op, safe)


def test_softmax_output_and_cross_entropy_gradient_match_bits():
    # both use a float16 softmax that rounds each exponential and sums in float16
    for seed in (84, 85):
        x = _data(seed, (4, 12))
        lab = mx.nd.array(np.random.RandomState(seed + 100).randint(0, 12, 4).astype(np.float16),
                          dtype="float16")
        a = mx.nd.array(x, dtype="float16")
        a.attach_grad()
        assert _hex(mx.nd.SoftmaxOutput(a, lab)) == _GRADS[("so", seed)]
        with mx.autograd.record():
            loss = mx.nd.softmax_cross_entropy(a, lab)
        loss.backward(mx.nd.array([1.7], dtype="float16"))
        assert _hex(a.grad) == _GRADS[("sce_grad", seed)]


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_mean_gradient_divides_by_the_count(dtype):
    # 1.9.1 (checked against it): the head gradient is divided by the element count in the
    # gradient's dtype, not multiplied by its reciprocal (which differs in the last bit)
    rng = np.random.RandomState(27)
    x = mx.nd.array(rng.randn(7, 49), dtype=dtype)
    og = rng.randn(7).astype(dtype)
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.mean(x, axis=1)
    y.backward(mx.nd.array(og, dtype=dtype))
    want = np.broadcast_to((og / np.dtype(dtype).type(49))[:, None], (7, 49))
    assert x.grad.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(x.grad.asnumpy(), want)


def test_l2_norm_gradient_matches_bits(plain_acc):
    # recorded from 1.9.1: the gradient is og * (x / norm), each step rounded to float16
    x = mx.nd.array(_data(90, (3, 16)), dtype="float16")
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.norm(x, axis=1)
    y.backward(mx.nd.array(_data(91, (3,), 1.0), dtype="float16"))
    assert _hex(x.grad) == (
            '282428332d752f60b17e324daea7321eb448b1c232402ed5a85232489819b20ab455b244350db640'
            'aeb8a569b3c5b5fcb69bb33828a6b4ecb0aaa3cd283b374faab6b0eb308bb3602daeb0142c73b1c6'
            'acb4b1d2b437312aadafa444a4d39ffc')


def _want(key, seed, safe):
    table = _BITS_SAFE if safe and (key, seed) in _BITS_SAFE else _BITS
    v = table[(key, seed)]
    return v


_BITS = {
    ('sum', 1): 'c960',
    ('sum', 2): 'cc0e45e0c994c42d45f7',
    ('sum', 3): 'c68c3bb0c1d0c7f1bdfdc69935f0',
    ('sum', 4): 'c62442dacbbb4ce2',
    ('sum', 5): '38f44819c9a44e97',
    ('sum', 6): '4006',
    ('mean', 1): 'b44d',
    ('mean', 2): 'bf353939bcf5b76c394d',
    ('mean', 3): 'bc5d3120b7c0bd4bb3fcbc662beb',
    ('mean', 4): 'b68d334fbc1f3d35',
    ('mean', 5): '2949385fba043f07',
    ('mean', 6): '2126',
    ('nansum', 1): 'ccd5',
    ('nansum', 2): 'c99d4442c958c3fa49c9',
    ('nansum', 3): '00003bb0c1d0c7f1bdfdc69935f0',
    ('nansum', 4): 'c0d1c5cbc9ff4d59',
    ('nansum', 5): '3e404922c6484e7b',
    ('nansum', 6): '47c9',
    ('prod', 1): '0000',
    ('prod', 2): 'a81408e4804ea0468010',
    ('prod', 3): '21d7155398ee449423ae2f701f9d',
    ('prod', 4): '00019bd98002812a',
    ('prod', 5): '000f800080010404',
    ('prod', 6): '0000',
    ('nanprod', 1): '8000',
    ('nanprod', 2): 'acda0d0b022b1d75000b',
    ('nanprod', 3): '3c00155398ee449423ae2f701f9d',
    ('nanprod', 4): '80ce9e950002012d',
    ('nanprod', 5): '821280a7000199cd',
    ('nanprod', 6): '8000',
    ('npsum', 7): 'cb014c68ce8d45d2c6f14500',
    ('npsum', 8): '47354ec041b3c74bc849',
    ('npsum', 9): '525b',
    ('npmean', 7): 'b47c35a4b8312f73b0712e66',
    ('npmean', 8): '34ce3c802f99b4ddb5b7',
    ('npmean', 9): '316c',
    ('npprod', 7): '800080008000800080008000',
    ('npprod', 8): '00020004000000000001',
    ('npprod', 9): '0000',
    ('softmax', 10): (
        '27db1cf6005c10861b76044a1523126710af0d7d183c2559020f2256149b1867013b12f42a370173'
        '00190033152339cc24362d7a123b28cd0c1c1b4a0cf90847141f0952286314f918970c07278004f3'
        '1d040bbe02a6091e03fa0ddb0bfd17111b8a0f1f111f169708611dcb205515173b20216f0fea0b72'
        '0b0b064d228c037b0d9005c82119006708c40ce8149d17100b70204b148f39ac004f19b5013b0296'
        '31592d31001c0b440dce000c0e2215c312cd001224da15d610a404ab1dee217f09421355202e0021'
        '13f5002602cf19bc0f420ac00c9d20731dd6043716be09783b6f04da0c5e0bd50a011445165c0059'
    ),
    ('softmax', 11): (
        '39a01aac11af00161fb214ab120c2512215e08f4106811d8277a294d03de08342c7e35571ae2140e'
        '2d1515f72c5934f5264220e926d610641c9d10581818175016f414d521261b5c209b382201e231c2'
        '1bbd04d0188321302cad08fe23901c56018e0b2e249a279c3270238a223221b32f240cd01d2520d4'
    ),
    ('softmax', 12): (
        '39e615583bfa0001341d1645343f320e257e3c00156838f53bf20ca13bbc31cb3bf0035c1a563bfe'
        '3b61311814293c0000d6007b012f0978000011352f5633073a5d3035001a260314ad0efb2bac0984'
        '26c120363a4e3bf6156820782adf3bc60002248d34363bfe19493c0039f03b13381e238d3ac70029'
        '3bcd36111e833b8428433a57013632c8170e04dd2c613a4c26f604f23bdb3bf8381a34852e9f25d1'
        '286927753254006e3bfe016a00011d7e11ad2e121762114012d9388b30fa01812c9500522b973bc0'
        '002b25ae39bc3acf2e913ba135c4242b3bfa01c33bfc01573bf43bfe308f112f0e453bfe04e40abd'
        '3bfc3b3019c83294262c1c233771143229d23aff220d38e33a491a3412ee17623c0001fc0b423a1a'
        '3bfc3bfe000436ea3ac1174c27953bfa39e11fb2'
    ),
    ('softmax', 13): (
        '38ba60003becc0003a2cc0003b3f60003d2e60003b73c0003d3120003c2360003d82600038090000'
        '38948000378f80003b85600039be20003c3f60003affe0003a90a0003ef3a0003b9840003a35c000'
        '382400003cdb80003c57400037f2000039ffc0003ac9a00036b8000039ab00003d4d600036c60000'
        '3b5720003e61c00038f4e0003949e0003abd60003b66c0003b22600037070000389f60003a85c000'
        '399a60003cbe200039988000398400003e4940003a1c8000382900003a46a00039c700003bd32000'
        '3b42e0003993e000397d0000392360003d33a0003ea540003a28a0003b8860003b132000392c8000'
        '39268000393cc0003620000038a580003b42e0003c47200039d72000398180003baa60003eb92000'
        '3845c000389cc000395780003b81a000387800003b4aa00038b8a0003b874000399ba000395ca000'
        '3d02c00038a54000399020003cca00003ce160003ba96000368200003cc5c0003c0120003a836000'
        '370800003d0900003f0660003c4be0003e19200039c9c0003b9de00039cdc00038c8e0003a804000'
        '393c6000399aa000398fa0003a5160003a9720003b846000388a00003beb2000374600003b568000'
        '3b670000363000003a8240003d9500003c2f20003a2500003a0ca0003bd980003b8fc0003d038000'
        '3a8fa0003c3060003b1ba00038970000380d80003919a0003b1f4000385cc0003c29a00036ec0000'
        '39a92000383700003aeea0003a8ce00039eca000379180003852c00038ce60003c66000038d84000'
        '3b5240003c38e000386d0000391e800035800000395fa0003bc6a000382ec0003b0620003bf84000'
        '3b09e000394860003ab9200038c4e0003953a0003f6ae0003922400038bee0003a94c0003ad6c000'
        '3d22a00039dd8000393740003965e0003d1f40003dd5000039df40003a69a0003b7ac0003973c000'
        '3a72e0003d8d200038dca0003c4c60003e114000392b80003de160003b8920003a58e0003d64e000'
        '3ba860003b03a0003a3f600039ad40003a4d60003b0320003d2680003afe20003c2240003aa80000'
        '3c8cc0003b59e0003e3e40003c12400037eb80003b3bc0003a8fa0003d9460003b8fc0003d60e000'
    ),
    ('log_softmax', 10): (
        'c2f8c554ca0fc780c59dc8d1c6aec727c777c800c62ec3bdc92fc464c6cac624c971c712c20dc95c'
        'cab5ca5bc6aeb527c41bc0ebc72ec291c825c5a3c80dc879c6e7c85dc2bfc6b7c61ac828c30fc8bf'
        'c552c82dc90fc862c8dbc7f0c829c65dc59bc7bec761c66fc876c52dc4c6c6b1af6dc48cc7a3c832'
        'c839c8a0c45cc8ecc7fdc8abc49cca00c86bc80ec6cac65dc832c4c8c6cdb580ca22c5e2c971c912'
        'bf28c106caa8c835c7f2cb12c7e4c691c718cadec3efc68ec77ac8c6c527c489c85ec705c4cfca93'
        'c6f0ca81c907c5e1c7b9c83ec816c4bfc52bc8d3c669c859acb3c8c1c81dc82bc84dc6dec678ca12'
    ),
    ('log_softmax', 11): (
        'b5a2c5bac746cac8c4e4c6c7c736c3d8c48fc866c787c73fc311c25ec8dec87bc150bc64c5b2c6eb'
        'c111c688c161bcb0c36cc4a6c33fc788c567c78bc637c654c661c6bec49ac5a1c4b6b948c93abedc'
        'c594c8c2c61ec498c13cc865c437c577c953c837c405c308be6ac438c46ac480c063c811c54bc4aa'
    ),
    ('log_softmax', 12): (
        'b4e1c6a499fecc16bd6fc67bbd4ebea9c3af0000c6a1b7a99efac816a84dbed69ff8c8f0c5c793ff'
        'ad29bf5ac6e40000c9a2c9e9c976c859cca4c75cc055be10b351c00fcab2c381c6c7c7c3c1a1c858'
        'c345c4cdb39d9cfdc6a1c4bec1daa764cbe1c408bd5793ffc5f60000b4c6afdfb950c438b151ca76'
        'a66bbbc2c50fabffc2ceb370c973be35c65dc8c1c15db3a9c336c8bfa4b59bfcb958bd0fc089c392'
        'c2bcc313be7cc9f793ffc95fcc50c53ac746c0b6c651c75ac716b887bf71c957c146ca1dc1a7a80f'
        'ca6fc39eb555b128c08eaa1abc15c41e99fec94397fec9669dfc93ffbfccc75dc7de93ffc8c0c83f'
        '97feaedec5dfbe54c373c583ba20c6e2c22eb04bc470b7e5b3b6c5cdc713c6510000c934c835b457'
        '97fe93ffcbafbab7b16cc654c30a99feb4edc4e4'
    ),
    ('log_softmax', 13): (
        'c1154000c09dc000c0ea6000c0bac000c04a0000c0b30000c0490000c0938000c0304000c1254000'
        'c118e000c12fa000c0b02000c0fd8000c08e6000c0c7a000c0d9e000bf3e2000c0abe000c0e8c000'
        'c1226000c067a000c08aa000c1274000c0f40000c0cf4000c141c000c1008000c03f8000c140a000'
        'c0b70000bfc1a000c110e000c108e000c0d14000c0b4c000c0c00000c13ba000c117c000c0dc6000'
        'c1022000c070e000c1024000c104a000bfd04000c0ed8000c121e000c0e5e000c0fc0000c0a16000'
        'c0ba2000c102c000c1054000c10c4000c0482000bf90c000c0eb2000c0af6000c0c32000c10b6000'
        'c10c0000c10a0000c14f4000c1172000c0ba2000c08d2000c0f98000c104e000c0a84000bf824000'
        'c11f6000c1180000c107e000c0b10000c11bc000c0b8e000c1156000c0afa000c1020000c1078000'
        'c05c8000c1172000c1032000c06d0000c0660000c0a88000c1474000c06e6000c09b0000c0dd0000'
        'c13b8000c0598000bf24e000c08c6000bff34000c0fba000c0aac000c0fb0000c1140000c0ddc000'
        'c10a0000c1020000c1034000c0e44000c0d88000c0b06000c11a0000c09e0000c1358000c0b72000'
        'c0b4c000c14d8000c0dd4000c027c000c0914000c0ebe000c0f10000c0a08000c0adc000c05c2000'
        'c0da2000c0910000c0c16000c118a000c124c000c10d4000c0c0a000c11da000c0924000c13de000'
        'c100a000c120a000c0c9e000c0dac000c0f68000c12f6000c11e6000c113a000c0888000c112e000'
        'c0b7c000c08f8000c11c8000c10cc000c15de000c1074000c0a36000c1216000c0c62000c09c4000'
        'c0c54000c1090000c0d20000c1146000c1082000bdb04000c10c6000c114e000c0d90000c0cd4000'
        'c04e8000c0f8a000c10a6000c106c000c04fe000c010e000c0f86000c0e0c000c0b22000c105e000'
        'c0df8000c02b4000c1128000c08c4000bffa0000c10b8000c00d4000c0af4000c0e32000c038a000'
        'c0a8a000c0c6c000c0e72000c1004000c0e4e000c0c6e000c04d0000c0c7e000c093a000c0d52000'
        'c0820000c0b6a000bfd78000c0970000c127a000c0bb6000c0da2000c0280000c0adc000c039c000'
    ),
    ('softmin', 10): (
        '0196090c305815840ab021d710db13cb1553188c0ddf0253261603f4116b0dab2919132e0100284d'
        '37f233de10db001102f600921401014e1a120ad927442c3a205f2acb0c1e1f431bd6287b0cd02f4f'
        '173428aa32d12b10308d262a28811d1c18c52512230a1d782c1d1635142b1f1100a212a5249028d3'
        '15831a30017d1d9413021abe01e92a0c181713f10c390985154202450c4600072beb06d423e71f8a'
        '001d003c31a4155d12b6366e125b0ac30dbb344402bd109015bd21b5087e04d91d0c1344065f368a'
        '12b135ae24be0ca517571be419c605fc0890224e0fe61cdf000e21781a131ac61c6f123d103030c6'
    ),
    ('softmin', 11): (
        '001c280e25173b50230f223616881d5615641ff9322324f402a3191a337820b3160c02b80dbd2eb0'
        '09ae129f163d02eb03282185103d188025dd26aa10d32b662029141621441bdd084a0a8c37b5006e'
        '270532001060213a0a311fea1f2f1ab32a603789124a0299103613ad066020c2080f1c1b254415fe'
    ),
    ('softmin', 12): (
        '00a722ee09272e4419093be035df2c8b3abb00103b9017820e963bf609ad2fe601383c0035b7049b'
        '204233ae3bb500023bfe3c003be43b843b383bf822c137192453306638ee2ad43bf63b7f1cd03bf6'
        '3ac918980443148c2acf3b0839b114203bfc11dc01d9012b2bc7000012fe16fb320e3b4b25753623'
        '153d1a1e2c080ce71d2a273b3bfc0bfb39223b922f322a36289e17d500da002b29131b6134b73a6a'
        '340b3b162cc43bfc01b53be83bfc1dc133c13878342a36030c2e084e15683be634943bfc39d81e05'
        '3bfe3b5515d3289431ad20ae2c953b42006e3bc00166167e01fc098135f539e938ff00043c003bfe'
        '017d25d5171332be3391113629933bf6395c255539e7296824cf187027f1220e00013bf43a0f2c73'
        '0fad0bd73c00099d0bf92284398700522b8a3a10'
    ),
    ('softmin', 13): (
        '3c84e000395140003b0f60003a018000380e000039cb4000380bc0003917e00037bd80003d34a000'
        '3ca760003dacc00039b9c0003b824000390160003a41a0003aab4000364c000039a2a0003b084000'
        '3d1660003861400038e640003d4cc0003b41a0003a75a0003e8620003b90c00037f100003e790000'
        '39e6400036dc00003c4a40003bf4e0003a82c00039d6a0003a1880003e37a0003c9b60003ab92000'
        '3bbb2000389800003bbd60003bdac000370f00003b3880003d2ae0003b1160003b90a0003988c000'
        '3a1440003bc420003be460003c30e0003820400036ae00003b2b600039d3e0003a4460003c278000'
        '3c2d80003c1920003f3540003caee0003a144000391140003b8640003bdf200039a8e000369c0000'
        '3d1220003cb840003c06000039dee0003ce9e0003a0e80003c9cc00039d580003bb9a0003c02e000'
        '380f80003c62a0003b81a0003839c00038268000395d80003e8f2000383e4000391140003a8ee000'
        '3e0a600038090000360c000038b8c00036f400003b3a0000396da0003b3660003c3a60003a924000'
        '3bc720003b7280003b82a0003ab320003a784000398da0003c886000391fa0003dbd800039af0000'
        '39a260003ed520003a900000377b000038d640003ae440003b056000392c800039828000380e8000'
        '3a20c0003882e000399460003c1900003ca320003b964000399100003c512000388820003dc36000'
        '3b0880003c7d200039c180003a2400003ac320003d1de0003c5a40003bdfc0003848c0003bd5a000'
        '395ba0003879c0003c42e0003b91a0003f3520003b4e800038e780003c84200039ac200038ba0000'
        '39a780003b66600039f980003bea80003b594000354000003b8e40003bf200003a1b400039d70000'
        '399b20003ce440003d8a40003d5ba000399ee00038ed60003ce280003c5820003b4a20003d4f8000'
        '3c5040003933a0003de540003a77800038adc0003d93800038e0c0003b3800003c68c000395ce000'
        '3b1640003bbfc0003c8460003d1200003c75c0003bc140003997a0003bc760003a9be0003c164000'
        '3a33a0003b68a000388520003aac80003ed700003b86e0003c2fa000392a00003b30400039614000'
    ),
    ('norm1', 14): '540754d6552a5483552553df',
    ('norm1', 15): '4dfc522b51754f3f',
    ('norm1', 16): '5b73',
    ('norm2', 14): '4b794c7c4c9b4c5f4ccb4b46',
    ('norm2', 15): '47884b164ae548fd',
    ('norm2', 16): '4f67',
    ('moments', 17): (
        '441144684492441b4382',
        '488a49294a5648554785',
    ),
    ('moments', 18): (
        '4423446a443f',
        '488348554803',
    ),
}
_BITS_SAFE = {
    ('softmax', 10): (
        '27d91cf5005b10851b7404491522126610ae0d7b183b2557020e2254149a1866013a12f22a360172'
        '00190033152239cb24352d78123a28cc0c1b1b480cf80846141f0952286214f918970c06278004f3'
        '1d030bbe02a6091e03fa0ddb0bfd17111b8a0f1e111e169608601dcb205515173b1f216f0fe90b72'
        '0b0b064d228c037b0d9005c82119006708c40ce8149d17100b70204b148f39ac004f19b5013b0296'
        '31592d31001c0b440dce000c0e2215c312cd001224d915d510a404aa1ded217e09421354202e0021'
        '13f5002502cf19bc0f420ac00c9d20731dd6043716bd09773b6e04da0c5e0bd40a011444165b0059'
    ),
    ('softmax', 11): (
        '39a11aab11b000161fb114ab120c2511215e08f4106811d8277a294d03de08342c7e35571ae2140d'
        '2d1615f82c5834f6264220e926d710641c9c10581818174f16f414d521251b5d209b382201e331c2'
        '1bbc04d0188421302cad08fe238f1c56018e0b2d249a279c326f238a223221b22f250cd01d2520d4'
    ),
    ('softmax', 12): (
        '39e515583bfa0001341e1644343f320e257e3c00156738f53bf20ca13bbc31cb3bef035c1a563bfd'
        '3b62311814293c0000d6007b012f0978000011352f5533073a5e3035001a260314ad0efb2bad0983'
        '26c120353a4e3bf6156820792adf3bc60002248d34353bfd19493c0039f03b12381f238d3ac70029'
        '3bcd36111e833b8528423a57013632c8170e04dc2c613a4c26f604f23bdc3bf8381a34852e9f25d1'
        '286927743254006e3bfe016a00011d7e11ae2e131762114012d9388b30fa01812c9600522b973bbf'
        '002b25ae39bc3acf2e923ba135c4242b3bfa01c33bfc01573bf53bfe308f112f0e453bfe04e40abd'
        '3bfc3b3119c83294262c1c233771143229d23aff220d38e23a4a1a3312ee17633c0001fd0b423a1a'
        '3bfb3bfe000436ea3ac1174d27963bfa39e21fb1'
    ),
    ('softmax', 13): (
        '38ba66c53becdb6a3a2cd7163b3f65d93d2e6aed3b73d8e03d312a143c23760f3d8267d438092581'
        '38949cb7378f6add3b85628339be28973c3f7aa53afffeb33a90b9f63ef3bbaf3b98548a3a35d809'
        '382424943cdb94153c57492537f2100f39ffe2e53ac9b81a36b8cb3f39ab1fca3d4d83a736c64144'
        '3b5731c23e61cf2038f505223949fc223abd7f623b66deaf3b226fee37077dbe389f70063a85d99c'
        '399a1c463cbdccf2399850a43983d1513e48fd3b3a1c43da3828d1c83a464f8839c6a7fd3bd2d2a8'
        '3b428ebb3993a0f7397c8c1239230e833d3363133ea50aa83a284dd83b881e123b12dc18392c38e2'
        '392645cf393c6962361e74e738a544273b428ebb3c46ddfa39d6cc70398144a03baa105f3eb8d67d'
        '38455eb4389c788d39572c403b8160ba38778eae3b4a4ece38b85e273b870ee6399b51b4395c4689'
        '3d02c68238a552a3399042213cca1c603ce1788f3ba9757c3682ab8f3cc5d09e3c01326f3a83678a'
        '37082b843d090d2d3f0683c93c4c0d0b3e19418239c9da8b3b9df3fd39cdd5bb38c8fb3e3a805c48'
        '393c79e5399ac43f398fb2273a51878f3a973edf3b847dc4388a21e33beb453a3746204b3b5696e4'
        '3b671f343630d4e93a8261c13d9517273c2f37963a251af43a0cabe53bd996ef3b8fd1643d038b40'
        '3a8f832c3c304a803b1b82a03896dc39380d69de391991703b1f32b5385cbe513c29899436eb4a2b'
        '39a906f5383700b23aee77bc3a8cbc9239ec82f4379196403852a28538ce33963c65ed4538d818ea'
        '3b5214b93c38c05b386cd2b9391e7161357ebe77395f70b63bc68e00382e9f573b060ee83bf8128b'
        '3b09c64339484a633ab8feab38c4c24439538c8c3f6ac2ab3922334438beb4893a94a5c23ad69903'
        '3d22a9b939dd921d39374a933965e6173d1f349f3dd5073039df4efe3a699e483b7abe033973c59b'
        '3a72ecb23d8d140738dc9d013c4c56553e114da9392b83d33de171403b89280b3a58e8413d64f1a9'
        '3ba860483b039de33a3f6b8339ad3c203a4d5d193b031a863d26853b3afe23d43c2246d63aa7f9ec'
        '3c8cbe433b59d93f3e3e40c63c12519937eba9263b3bcc193a8fad7e3d946d693b8fbd1b3d60f46a'
    ),
    ('log_softmax', 10): (
        'c2f8c555ca0fc781c59ec8d1c6afc728c778c800c62fc3bdc92fc465c6cbc625c971c713c20dc95c'
        'cab5ca5bc6afb52ac41cc0ebc72fc291c825c5a4c80dc879c6e7c85dc2c0c6b7c61ac828c310c8bf'
        'c552c82dc90fc862c8dbc7f0c829c65dc59bc7bec761c66fc876c52dc4c6c6b1af72c48cc7a3c832'
        'c839c8a0c45cc8ecc7fdc8abc49cca00c86bc80ec6cac65dc832c4c8c6cdb580ca22c5e2c971c912'
        'bf28c106caa8c835c7f2cb12c7e4c691c718cadec3efc68ec77ac8c6c527c489c85ec705c4cfca93'
        'c6f0ca81c907c5e1c7b9c83ec816c4bfc52bc8d3c669c859acb9c8c1c81dc82bc84dc6dec678ca12'
    ),
    ('log_softmax', 11): (
        'b5a1c5bac746cac8c4e4c6c7c736c3d8c48fc866c787c73fc311c25ec8dec87bc150bc63c5b2c6eb'
        'c111c688c161bcafc36cc4a6c33fc788c567c78bc637c654c661c6bec49ac5a1c4b6b949c93abedc'
        'c594c8c2c61ec498c13cc865c437c577c953c837c405c308be6bc438c46ac480c063c811c54bc4aa'
    ),
    ('log_softmax', 12): (
        'b4e2c6a499a2cc16bd6ec67cbd4ebea9c3af8044c6a1b7a99ef9c816a85abed6a03cc8f0c5c795b7'
        'ad24bf5ac6e484f4c9a2c9e9c976c859cca4c75cc055be10b34dc00fcab2c381c6c7c7c3c1a1c858'
        'c345c4cdb39f9cf2c6a1c4bec1daa753cbe1c408bd58956cc5f68002b4c6afe6b94fc437b14fca76'
        'a66ebbc2c50fabf4c2ceb370c973be35c65dc8c1c15db3a8c336c8bfa4999c26b958bd0fc08ac392'
        'c2bcc313be7cc9f79327c95fcc50c53ac746c0b6c652c75ac716b887bf71c957c146ca1dc1a7a81d'
        'ca70c39eb555b129c08eaa11bc15c41e9a39c943977bc9669d8a937fbfcbc75ec7de92dbc8c0c83f'
        '9767aed5c5dfbe54c373c583ba20c6e2c22fb049c470b7e5b3b5c5cdc713c6518158c934c835b456'
        '98fe9432cbafbab7b16bc654c30a99cdb4ecc4e4'
    ),
    ('log_softmax', 13): (
        'c1154000c09dc000c0ea6000c0bac000c04a0000c0b30000c0490000c0938000c0304000c1254000'
        'c118e000c12fa000c0b02000c0fd8000c08e6000c0c7a000c0d9e000bf3e0000c0abe000c0e8c000'
        'c1226000c067a000c08aa000c1274000c0f40000c0cf4000c141c000c1008000c03f8000c140a000'
        'c0b70000bfc18000c110e000c108e000c0d14000c0b4c000c0c00000c13ba000c117c000c0dc6000'
        'c1022000c0710000c1024000c104a000bfd06000c0eda000c121e000c0e60000c0fc2000c0a18000'
        'c0ba4000c102c000c1054000c10c4000c0484000bf90e000c0eb4000c0af8000c0c34000c10b6000'
        'c10c0000c10a0000c14f4000c1172000c0ba4000c08d2000c0f9a000c104e000c0a86000bf826000'
        'c11f6000c1180000c107e000c0b12000c11bc000c0b90000c1156000c0afc000c1020000c1078000'
        'c05c6000c1172000c1032000c06ce000c065e000c0a88000c1474000c06e4000c09b0000c0dd0000'
        'c13b8000c0596000bf24c000c08c6000bff32000c0fba000c0aac000c0fb0000c1140000c0ddc000'
        'c10a0000c1020000c1034000c0e44000c0d88000c0b06000c11a0000c09e0000c1358000c0b72000'
        'c0b4c000c14d8000c0dd4000c027a000c0914000c0ebe000c0f10000c0a08000c0adc000c05c0000'
        'c0da2000c0910000c0c16000c118a000c124c000c10d4000c0c0a000c11da000c0924000c13de000'
        'c100a000c120a000c0c9e000c0dac000c0f68000c12f6000c11e6000c113a000c0888000c112e000'
        'c0b7c000c08f8000c11c8000c10cc000c15de000c1074000c0a36000c1216000c0c62000c09c4000'
        'c0c54000c1090000c0d20000c1146000c1082000bdb16000c10c6000c114e000c0d90000c0cd4000'
        'c04e8000c0f8a000c10a6000c106c000c04fe000c010e000c0f86000c0e0c000c0b22000c105e000'
        'c0df8000c02b4000c1128000c08c4000bffa0000c10b8000c00d4000c0af4000c0e32000c038a000'
        'c0a8a000c0c6c000c0e72000c1004000c0e4e000c0c6e000c04d0000c0c7e000c093a000c0d52000'
        'c0820000c0b6a000bfd78000c0970000c127a000c0bb6000c0da2000c0280000c0adc000c039c000'
    ),
    ('softmin', 10): (
        '0195090b305715830aaf21d610db13c91552188b0ddd0253261503f3116a0da92918132c0100284c'
        '37f133dc10db001102f600921400014e1a110ad727422c39205e2aca0c1d1f421bd4287a0cd02f4e'
        '173228a932cf2b0f308c262928801d1b18c4251123091d772c1c1634142a1f0f00a212a4248f28d3'
        '15841a31017d1d9513031abf01ea2a0e181813f20c3a0986154302450c4700072bed06d523e81f8b'
        '001d003c31a5155e12b8366f125c0ac40dbc344502bd109015bc21b4087d04d81d0b1343065e3689'
        '12b135ad24bd0ca417561be319c505fb088f224d0fe51cde000e21771a121ac61c6f123c103030c5'
    ),
    ('softmin', 11): (
        '001c280e25163b50230e223516881d5615631ff9322224f302a31919337620b2160b02b80dbd2eaf'
        '09ad129e163c02ea03282184103d187f25dd26a910d32b662028141621431bdb084a0a8b37b3006e'
        '270431ff106021390a2f1fe91f2e1ab22a5f378812490298103613ac066020c1080e1c1b254415fd'
    ),
    ('softmin', 12): (
        '00a722ee09262e44190a3be135df2c8c3abb00103b9017820e963bf609ac2fe601383bff35b7049c'
        '204333ae3bb400023bff3c003be43b833b373bf922c2371a2454306638ee2ad43bf63b7e1cd03bf5'
        '3ac918980443148c2acf3b0939b114203bfc11dc01d9012b2bc6000012ff16fb320f3b4c25743624'
        '153d1a1e2c080ce71d29273b3bfb0bfa39223b932f322a36289d17d500da002b29131b6134b73a6a'
        '340c3b172cc43bfc01b53be83bfd1dc133c13878342b36030c2e084e15683be634943bfc39d81e05'
        '3bff3b5615d3289431ad20af2c953b41006e3bc00166167e01fc098135f439ea38fe00043bff3bfd'
        '017d25d5171332be3390113629933bf6395b255539e7296924cf186f27f1220e00013bf43a0f2c72'
        '0fae0bd63bff099d0bf82284398700522b8a3a10'
    ),
    ('softmin', 13): (
        '3c84f8b439514a993b0f67953a018013380e1b8a39cb4ab9380be7873917ede437bd54003d34ba1c'
        '3ca76fb83dacd32139b9d2e73b825821390172023a41a5233aab42f8364b631339a2b6793b084ddd'
        '3d166a13386151f038e6431d3d4cca5f3b41ba2e3a75bf963e8620d23b90d7b737f135d43e791151'
        '39e65c2236dc63f73c4a519a3bf4f2393a82cc8439d6b8123a1896b13e37a6a53c9b759d3ab92d8e'
        '3bbb6c3e38982e073bbda1d13bdb1e96370f25e53b38d6b03d2b17cb3b11a63a3b90d44239890151'
        '3a1475803bc46ade3be4bd6f3c3123c4382062e136af02603b2b9de939d4329c3a44ad1b3c27b667'
        '3c2db6a93c194d383f35924c3caf1cf53a147580391186983b8678243bdf70f539a92dc3369ba80f'
        '3d1257f23cb8986f3c063c4339df406c3cea43893a0ec5883c9cf86c39d5dcaa3bb9f6dc3c032037'
        '380f75eb3c62854c3b818b963839a6de38266acf395d6c803e8f0436383e0def3911369b3a8ec61d'
        '3e0a51053808e41d360c04ba38b89b3b36f45b323b39e36a396d8d993b364afe3c3a54b13a9228e0'
        '3bc7150a3b7271b23b828fb13ab3141d3a781694398d9a4a3c8859fa391f7c503dbd62b839aedb22'
        '39a2592a3ed505ba3a8fe4c8377ab17638d625ab3ae426ea3b055e4d392c71ef39827355380e581d'
        '3a20c2633882de5c39945b423c18ede83ca325323b963b943990eb783c510794388814f13dc3579d'
        '3b087e193c7d1fea39c17e4a3a23ee153ac317fc3d1dd9ce3c5a35043bdfc55f3848ae4c3bd58614'
        '395ba3823879c0583c42d6473b919c4d3f3521693b4e81b538e77ba13c841e7d39ac18b638ba0073'
        '39a7745b3b665ff639f96c3b3bea828c3b5943a135448c873b8e3ccc3bf1f4403a1b34b139d70410'
        '399b15113ce425e63d8a2ada3d5b7453399ec28d38ed4c0c3ce25f603c57f5dc3b49ffd43d4f5ead'
        '3c5017d63933826e3de523613a7763c538ad9c393d935db038e0ab183b37ec273c689937395ccceb'
        '3b161cf73bbfa9e73c844cd43d11e7233c75ac483bc12abb39977d653bc74c773a9bc15f3c162d47'
        '3a3395f03b687ff338851c903aac67cd3ed6ed363b86da2c3c2f93153929f4c73b302fdc396127c5'
    ),
    ('norm2', 14): '4b794c7b4c9c4c5f4cca4b44',
    ('norm2', 15): '47884b164ae648fe',
}


def test_long_float16_reductions_sum_in_float32():
    # beyond reduce.F16_EXACT_MAX elements the sum is the float32 sum rounded once to float16
    # (1.9.1's step-by-step float16 sum would need a Python loop over the elements)
    from mxnet.operator.reduce import F16_EXACT_MAX
    v = (np.arange(F16_EXACT_MAX + 5) % 7).astype(np.float16) * np.float16(0.125)
    want = np.float16(v.astype(np.float32).sum())
    assert mx.nd.sum(mx.nd.array(v, dtype="float16")).asnumpy()[0] == want
    assert mx.nd.mean(mx.nd.array(v, dtype="float16")).asnumpy()[0] == \
        want / np.float16(v.size)
    rows = mx.nd.array(np.tile(v, (2, 1)), dtype="float16")
    assert mx.nd.sum(rows, axis=1).asnumpy().tolist() == [want, want]
