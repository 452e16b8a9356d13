"""Remaining random consumers after ``mx.random.seed`` (CPU): values recorded from MXNet 1.9.1
as CRC-32 literals of the output bytes (or as lists)."""
import io
import zlib

import numpy as np
import pytest

import mxnet as mx


def _crc(a):
    a = a.asnumpy() if hasattr(a, "asnumpy") else np.asarray(a)
    return "%08x" % zlib.crc32(np.ascontiguousarray(a).tobytes())


@pytest.fixture(autouse=True)
def _reseed():
    yield
    mx.random.seed(0)


# seed, range_max, shape, (samples, trials) of two calls, then 5 nd.random.uniform values
_ZIPF = [
    (5, 1000, (4, 20), "311577e0", "42063f14", "e38da655", "4d1844ff", "e9c4873f"),
    (0, 50, (1030, 5), "b19df975", "2930fab9", "e146790e", "1f8616f1", "fc1298ab"),
    (3, 7, (3, 7), "09a3a9e0", "98e62517", "36ee2cfd", "a0633430", "a1b84259"),
    (2, 100000, (2, 300), "3dc9c1c9", "65ee2ed2", "6b8dfbfa", "f49fd492", "19b909fb"),
]


@pytest.mark.parametrize("seed,rmax,shape,s1,t1,s2,t2,u", _ZIPF)
def test_sample_unique_zipfian_matches_191(seed, rmax, shape, s1, t1, s2, t2, u):
    mx.random.seed(seed)
    s, t = mx.nd._internal._sample_unique_zipfian(range_max=rmax, shape=shape)
    assert (_crc(s), _crc(t)) == (s1, t1)
    s, t = mx.nd._internal._sample_unique_zipfian(range_max=rmax, shape=shape)
    assert (_crc(s), _crc(t)) == (s2, t2)
    assert _crc(mx.nd.random.uniform(shape=(5,))) == u     # the states moved as 1.9.1's


def test_sample_unique_zipfian_first_row_values():
    mx.random.seed(5)
    s, t = mx.nd._internal._sample_unique_zipfian(range_max=1000, shape=(4, 20))
    assert s.asnumpy()[:, :4].tolist() == [[8, 105, 112, 149], [107, 5, 3, 666],
                                           [2, 24, 17, 302], [617, 329, 6, 2]]
    assert t.asnumpy().tolist() == [25, 23, 22, 24]


def test_consumers_already_on_191_streams():
    mx.random.seed(7)
    assert _crc(mx.nd.random.shuffle(mx.nd.arange(60).reshape(20, 3))) == "18f8b741"
    assert _crc(mx.nd.random.shuffle(mx.nd.arange(50))) == "e492398a"
    mx.random.seed(9)
    a, b, _ = mx.nd.contrib.rand_zipfian(mx.nd.array([1, 5, 20]), 10, 100)
    assert (_crc(a), _crc(b)) == ("635ab63f", "fc71fcea")
    mx.random.seed(11)
    assert _crc(mx.npx.random.bernoulli(prob=0.3, size=(50,))) == "23bd6802"
    assert _crc(mx.npx.random.bernoulli(logit=mx.np.array([0.1, -2.0, 3.0]), size=(10, 3))) \
        == "4cf35456"


def test_legacy_sample_aliases_match_191():
    mx.random.seed(13)
    nd = mx.nd
    two = [1, 3]
    calls = [
        ("sample_uniform", dict(low=nd.array([0, 1]), high=nd.array(two), shape=(5,)), "d4cffe74"),
        ("sample_normal", dict(mu=nd.array([0, 1]), sigma=nd.array(two), shape=(5,)), "6f0256d6"),
        ("sample_gamma", dict(alpha=nd.array(two), beta=nd.array(two), shape=(5,)), "b634bcff"),
        ("sample_exponential", dict(lam=nd.array(two), shape=(5,)), "19e37c05"),
        ("sample_poisson", dict(lam=nd.array(two), shape=(5,)), "df007be4"),
        ("sample_negative_binomial", dict(k=nd.array(two), p=nd.array([.3, .6]), shape=(5,)),
         "d59dbacb"),
        ("sample_generalized_negative_binomial",
         dict(mu=nd.array(two), alpha=nd.array([.3, .6]), shape=(5,)), "15def533"),
        ("sample_multinomial", dict(data=nd.array([[.2, .3, .5], [.6, .3, .1]]), shape=(5,)),
         "daa9c56f"),
        ("random_uniform", dict(shape=(5,)), "24a818e1"),
        ("random_normal", dict(shape=(5,)), "039322b5"),
        ("random_exponential", dict(shape=(5,)), "f6f87d87"),
        ("random_gamma", dict(shape=(5,)), "c64bb2a5"),
        ("random_poisson", dict(shape=(5,)), "e7b2366a"),
        ("random_negative_binomial", dict(shape=(5,)), "0fd59b8d"),
        ("random_generalized_negative_binomial", dict(shape=(5,)), "acaf4c75"),
        ("random_randint", dict(low=0, high=9, shape=(5,)), "548823cd"),
    ]
    got = [(name, _crc(getattr(nd, name)(**kw))) for name, kw, _ in calls]
    assert got == [(name, c) for name, _, c in calls]


def test_ndarrayiter_shuffle_follows_numpy_seed():
    np.random.seed(1)
    it = mx.io.NDArrayIter(np.arange(40).reshape(20, 2).astype("f4"), np.arange(20),
                           batch_size=5, shuffle=True)
    assert _crc(np.concatenate([b.data[0].asnumpy() for b in it])) == "8ee694db"


def test_gluon_samplers_follow_numpy_seed():
    np.random.seed(2)
    s = [int(i) for i in mx.gluon.data.RandomSampler(30)]
    assert s == [1, 0, 14, 9, 21, 19, 23, 6, 3, 20, 5, 27, 12, 4, 10, 16, 28, 25, 17, 2, 7, 26,
                 24, 18, 11, 22, 29, 13, 15, 8]
    b = [[int(i) for i in x]
         for x in mx.gluon.data.BatchSampler(mx.gluon.data.RandomSampler(10), 3, "rollover")]
    assert b == [[7, 6, 2], [9, 8, 4], [0, 5, 3]]


def test_std_shuffle_matches_191_record_order():
    from mxnet.io.image_record_iter import _std_shuffle
    mt = np.random.RandomState(111)._bit_generator     # seed 0
    perms = [_std_shuffle(mt, 3001) for _ in range(4)]
    # 1.9.1's epochs 1..3 (after each reset) of a 3001-record file: the 2nd..4th shuffles
    assert [_crc(p.astype(np.int32)) for p in perms[1:]] == ["af2bb88a", "ba4b827a", "506ee1d6"]
    assert perms[1][:6].tolist() == [2622, 2610, 1250, 2954, 1838, 138]


def _write_rec(tmp_path, n=40):
    from PIL import Image
    rec = mx.recordio.MXIndexedRecordIO(str(tmp_path / "t.idx"), str(tmp_path / "t.rec"), "w")
    rs = np.random.RandomState(0)
    for i in range(n):
        a = rs.randint(0, 255, size=(12, 14, 3)).astype(np.uint8)
        buf = io.BytesIO()
        Image.fromarray(a).save(buf, format="PNG")
        rec.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(0, float(i), i, 0), buf.getvalue()))
    rec.close()
    return str(tmp_path / "t.rec"), str(tmp_path / "t.idx")


@pytest.mark.parametrize("seed,parts,n,crcs", [
    (3, False, 40, ["4d3865c5", "78f141b0", "e6f501ee"]),
    (12345, False, 40, ["5993800f", "61e2123a", "426eb428"]),
    (3, True, 20, ["10e17820", "552fba8c", "ef32fc69"]),
])
def test_image_record_iter_shuffle_matches_191(tmp_path, seed, parts, n, crcs):
    pytest.importorskip("PIL")
    rec, idx = _write_rec(tmp_path)
    kw = dict(num_parts=2, part_index=1, path_imgidx=idx) if parts else {}
    it = mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 12, 14), batch_size=8,
                               shuffle=True, seed=seed, preprocess_threads=1,
                               round_batch=False, **kw)
    got = []
    for _ in range(3):
        it.reset()
        labels = [int(x) for b in it for x in b.label[0].asnumpy()]
        got.append(_crc(np.asarray(labels[:n], np.int32)))
    assert got == crcs
