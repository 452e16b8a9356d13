"""LayerNorm gives 1.9.1's CPU bits: forward (out, mean, std) and backward (data, gamma and
beta gradients), over the last axis (1.9.1's row kernel) and other axes (its compensated
reductions), float32, float64 and float16, with and without MXNET_SAFE_ACCUMULATION, and
through a hybridized Gluon LayerNorm.

Every expected value was recorded from MXNet 1.9.1 (CPU) as big-endian hex of the array's
bits (or, for the two larger inputs, the first 16 hex digits of the SHA-256 of its native
bytes); inputs come from NumPy's RandomState, so nothing here runs the reference.
"""
import hashlib

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon

# (name, shape, axis, eps, dtype, MXNET_SAFE_ACCUMULATION)
CASES = [
    ("last_f32", (4, 16), -1, 1e-5, "float32", False),
    ("one_row_f32", (1, 33), -1, 1e-5, "float32", False),
    ("axis1_f32", (3, 4, 5), 1, 1e-12, "float32", False),
    ("axis0_f32", (6, 3), 0, 1e-5, "float32", False),
    ("axis1_f32_safe", (2, 7, 6), 1, 1e-5, "float32", True),
    ("last_f64", (3, 9), -1, 1e-12, "float64", False),
    ("axis1_f64", (2, 7, 2), 1, 1e-5, "float64", False),
    ("last_f16", (3, 12), -1, 1e-5, "float16", False),
    ("axis1_f16", (2, 5, 3), 1, 1e-5, "float16", False),
]

# recorded from 1.9.1: (out, mean, std, data grad, gamma grad, beta grad)
_WANT = {
    'last_f32': (
        (
            '3ddb55103f0ed0364008d8e83cce6a80bf97fa12c02749b03e28e83c3f1c7954bff3db0b3d951020bd92cba8'
            'bf2b2d56bfc529373e78a77c3eb95f763ed06d193f1d5cb73f94dd703f1bbafa3f70495a4011e720bf509991'
            '3e9b4430bfa0f502bfa48486bfb390babce72d803fa18cb5bfcf9734bf12f12a3eaff552bf6207543f636bff'
            '3fb48de740065b343f24e3193fe0c8cec04a21a0bf471b2abf43f14abfb567bcbf1e57903f66a84e3df2f569'
            'c0705a803eb39f823f5f87a0bdbcdaa83f4978d43f64b266bf4e3d603fc919003fcf2d9ec000d39abe36fa28'
            'bf9930b0bfecbc1a3f054d2b3e347394bdf1695cbf7167acbde7af08bf454f323e1528e0'
        ),
        (
            '3f27f3073fa220ac3f9a15663f223634'
        ),
        (
            '400ea1e13fa755ae3fe4ecab3ff7cab6'
        ),
        (
            '3faca872bf2b74743db362cebeac28c2be3a5d643ea7e62abe586a8d3e932c363eddac15bded06883e99f21a'
            'bf46c845bebe6f81bdb39f94bd8de31e3d0f678bbf9d3f38be4f3824bebfac5d3dfa66d43f08ec76bf024545'
            '3e903897bebef58bbf92e0753eb777493f924e133f5eb5fabfa9b0243f1825693e983ddf3f755c2a3eb20d62'
            '3ebe9669bf4d21903e2a69533edb3524be821746beb2caae3e819b19be9036b4be3937c63f7c8fdebf0df30b'
            '3e8e82dbbed61bfe3ea11a54be9d6bd93f13c960bf9789cebdb19f5a3e932638be755cff3e1ae7a53e0f4fda'
            '3dd1fff83dcd8776bf03f2aa3e34fe463f026a663f018adcbf10e22b3e89b69fbe69df42'
        ),
        (
            'bed28649408706c93f60381a4003740b4019ee17be8bdbae3fc809ab3f6f00adbca1c702c07415fabedfc60b'
            '403ec33cbfcaaabebf9b87e140f5edbbbfa9c8f6'
        ),
        (
            '40040ce4c084e5babfc82c1ebd02d59a3e36ec60bef7ee2a3f03dd433ece6cb0bfd3f90ebff2e0bd403f50a3'
            'bf47bbb2bf9ae972bf93547f408b9f61be02522c'
        ),
    ),
    'one_row_f32': (
        (
            '3ff99386bf3f5da03f558454bf5b158c3fb732483d85ee6abf0134a4c06d590ac04dbfd0bf06a411bf4c696a'
            'bfbb2838c041cdc4bfead61abf1be9163fbc9695c051a5b73e8ef0b23f6aab1ebea93fb33fa817e93f9c1948'
            '3fdb6070bfcad4fc3f31eb37bfabff8c4008404f3fdc62d8401ef38bc007090f3fb63bb83f3b5fd4bfc2800e'
        ),
        (
            '3e4777ec'
        ),
        (
            '3ff4ca72'
        ),
        (
            '3ee6c2d1bf4135eb3f07d3313f213b62bf3bd5ce3f6373a3bfd17806bef782dc3f5b164b3f0af9b7bec9a8ed'
            '3c8a7fa4bdc13284be96aa043e94403a3e711ab2bf1f0f6bbe142bb43e831eedbddc01f4be80eb68bf3e1da9'
            'bf2b6f6fbeb854a23ddbfcb13eb89fc1bd091d2ebd32449f3fa879993f54cc32be1fb6ce3e9d8e50bdc8daf7'
        ),
        (
            '3ebac59b3f8168173f7e5978bfa3ea52bfa31fed3f2146cfbeece24e4010597bc03f2c3fbd353504be81dc20'
            '3e01465e3de853403f4ff47bbf51f6233ebe96b93f726667bce5679b3ce40498be1ac5c9beeac7e4beb05705'
            'c04402484026cb8b3cd1d286bf2fcde4bd8e13a9bd806a8e4017824abea45753bf03d57b3eeed2e9bc7fa8fa'
        ),
        (
            '3f44790dbfa81e823f38fa593f9e8da4bf9bf7914017e815c0515c39bf85373d3fcc0cb83f25f8c6bfa0f9cc'
            'bdfa2481bee99a56bf94b0033f138a4e3ed23310bf8fccdbbf1154733e8e59a9be9b2506bebb6337bffd603d'
            'bfd9f0ebbf9dfda13dc0b8823f881bc7bdbae4c3bdcdd011400f2dd23fd8ac9dbeb922423f3ad3b1beb6229d'
        ),
    ),
    'axis1_f32': (
        (
            'beec4360be9f8bec40048606402cb6b43fc31bdb3ea7b8603fd71bb13fd451d23f18654b3fe9d8ec3eff9a7e'
            '3f3f7028bf59d308be6b6763bf735a623f949aa8bff05385bf2dfaaebfbfa7453d4873603e4050ccbe781a90'
            'bf331f2abe141598bf78c1ec3ea2edb03fdae5363f2f9c083da300d03fc33faf3f6c60b5bf126e9a3e83b9f4'
            '3f1c4b373f2937a3bf56932e3fc7cf4f3fc7bf3f3f559600bf03e74c3faaf3163f285c633d5d70b03f6af5d7'
            'bf8aafc93fb758abbea5fba8402c8ec1401b520a3f9bca723efad3323ef6e56ebf094270bc3f4ea23ef9c8d9'
            'c03e532c3f42a8bebf02373fc0298ff43f18a636'
        ),
        (
            '3f4e8b903f7df3303f4065c5becd7df4bf2235b13f88bb233ea8de673ff2e7b63f3fd3d73f7c2c3f3f15824f'
            '3fb467fb3f5a8b863e27f10fbf0120aa'
        ),
        (
            '3f93b5ef400e82fe3f4575fd3f8d1f1d3f2583fa3f6e993b403352783f8981b140091e453ffb90e73fcf334c'
            '404434943fdd71113f9fc518401b5ef5'
        ),
        (
            'bd62ab80be27c8a23f16b13ebda9b9b0c02464693d9ed2783d57ecacbec6b8b63f11d59b3eb64d20be549768'
            'bd0c6de03ebe49343f02c570bebbe9553e3dd9183e14e8f0bf12797ebf7f63d4402517f03fe3448a3e83262a'
            '3f1ac8123de25b183d730ca03e00be10bc317190bf8732c6bdee61f0bf32b8fa3e8b90b6be744f223ed75623'
            'be4a1c4d3e9dedc3c00b203dbbdcc3003cfe4cf03e501fb63ea9229d3e6beaf3bf2223b6bf69f30a3f7429ef'
            'bc5f8000be76bb3b3e85cb943db30d08be5a75443cf68c6ebc462d483f3d17f93f3f11a6bf2367a3bd824c54'
            '3cb998f4bebbb41a3da3fe24bdd127d83d413274'
        ),
        (
            'bf005120bfcc449440bc634f40098207'
        ),
        (
            '3dd5f2cc403b6f9540978d07bfcb8559'
        ),
    ),
    'axis0_f32': (
        (
            'bf4f3b363e962b46beb9518a3f0f6a5abf3ae15d3d063ca0be693a18c045f5bc3ecd3e1e4012e4864044cc8c'
            '3d11a440bfd04debbfbf56aa3f4538df3eda598c3f8b5c773e214144'
        ),
        (
            '3edd45873f2a89933fdfb92b'
        ),
        (
            '3f26030d3f956cb63f950cca'
        ),
        (
            '3f42eddc3f597716bd02de48bf3bc54fbf4656503f8046c03ec92eda3e9b6373be9565ab3f81eda23e1b7be8'
            'bfc51416bf70b360bf7ab919bf3589c1befdcfba3ee60f393fc90294'
        ),
        (
            '3d487b40bfb7546dbf9bdbaf40268e5dbfcbbf1ebfa6b516'
        ),
        (
            '3e380d22bfef187abf9a09c9bfe4ba5cc07cbf633fa85e84'
        ),
    ),
    'axis1_f32_safe': (
        (
            '3f5a68b33f5f63cd3ebcb3f5bf0cb2ac3fb3347cbc2f2e00c007fe69c032471abfca033dbf8fdfa6c04b898a'
            'bf8b831dbe3229613f41083d3f3f4b32bf1a90a43f464758bf742949be6de7643e4759b83e2d20c43f13055f'
            '3f71e74a3f936ca04091ce3840385b9a3e75d9d83f9e26d83fabb24b408b1c68bda1786a400c250e4033ce7d'
            '40046a983f8bbc2fbf288d13be2893d0bfd6cbd6bfa55950bd8287f8bf9a1877c00041943fedd6ff3f712197'
            '3ecfd91c3cd2f1c03f9290e6bdb63540c0109f4dbeadd720bfb77600c00bb7c6bf587b86bff793583f6e84e3'
            '3efeefaebf53a3473fc4f48fbfa5ac693e5395a23f61aee53efb83c13feea1dd3e9f74f03e38848c3f05cee4'
            'bdd9c2403f406b0e3f9701b53f159e584065fb6a4095dad23f22c6d6be4feab1bfbaee15400d1d673ee2f830'
            '3fa594cec00537b2c024e550beb7c450bedcbf94c01c64c0c0150f7a'
        ),
        (
            '3f02a8ecbe4db9823f89230e3c8ce025bf17b7973cf32f3b3f45dcf7bf28849e3f83469ebd74e5fb3f5a6a38'
            '3f8b4f02'
        ),
        (
            '40110a653fc83f9c40080f1a3ff9e6f03f8741183f78b2833fdd2b793fe705e04004018f4014cef93f1914cd'
            '402e1332'
        ),
        (
            '3ead2319bdc168d6be5e34073eb8da803f440c9cbd5b8ee03bd591a03d9609043e87740a3e83e7043e63e6e0'
            '3e5b6b8abdea2de5bf0623cb3e8cb42ebf9e7892bece363fbf09cfc23ec22c1c3ed3a01c3ea506073f0d8b7f'
            '3ea29390bf21066a3efd592ebdaf084a3ead28473ed479cbbf5d83f63e89238abed04ff23efe69343d3600ba'
            '3efd34e5bf0f99efbe5088b2bf32919ebe8f27b2bf837f27bf57d2743f05e8eb3f7144a2bec2e208bc34503a'
            '3f217f2d3e9c74babf34d81dbe469610bdeea9d23e299c2b3ddecf903e404cf4bed4bf2a3dd58fb53f8a67d9'
            'bf173b073e134492bea138e73ec65e60bf34e5d5bf296c4e3dc1ac04be053e44bdfa11b83ee734ff3e50a5e6'
            'bea37a023f29e4e5be63d35abe670e0c3f6361563e4bcd40be2dee883d78c180becf537e3ed7685e3da83474'
            '3d1ef1363f111b7dbec4027ebe00f076be80bf34bf2ff9e43eb59b0a'
        ),
        (
            '3f215b4440758270401f87313ff519d840b45fad40c04fd2bfecf96b'
        ),
        (
            'bf1ab1c640d4344bc0a2de563f109d974025c9be3f023b89c049dc0c'
        ),
    ),
    'last_f64': (
        (
            '3fd67d02a8f09ddd3ff3f3101eb0c1bcbff7e98a5a3b708abffb6659dfc26493bff4cc8d18ecf6a8bff9fba9'
            '9802b6d4bfeac417bc784340bfd92a5e3fc7fc323ff77d59668fb4843fc06047a1b0a1323fd501dc0ad5fffa'
            'bff56191ab0c1d04c004be443f67cfc4bffb96a532532a823ff4d2414ab912283fc74f5e33cf89b03fe7c15d'
            'bc87aaddbffdedea172e315ec00807a7f033f341400156d403e4126cc001ae9f6be0b0ecc004583e6934fca6'
            'bfe08918f91498a43ff93d17ee5b5818bff5aaf6b745e19c3fda003056239cbcbfd430dac4d7ef1d'
        ),
        (
            '3ff0a99d292639ec3fd6da7ee161a2aebfc9126981fb746a'
        ),
        (
            '3ffc92a02a64c8143ff4746f99aff75c3ffa7b971c8cbd2b'
        ),
        (
            'bfe43ff5e1ab45903fef3bf761eee9183fce4b083e681d723fd9f4d86b145a37bfab445efbf5c9dcbfd97d7c'
            '50b95f2abfe147eba8f64fbd3fc442af77ba7866bfc37baf891068a83fe94432550b5e9dbff42b01c871ebcc'
            'bfdbf10b95d6d8d83ff194ebfe8e25d2bfeb59811f0fa2123fd5693cacbc6945bfeb05ee218e126f3fda0bc0'
            'a7b5cc6e3fe8856fa00c336a3fc6fe05066674ccbfe7e92f45b748663fa43a75bd4c999cbfe4de5c921d6f5b'
            '3fe30ad0dd19877a3fe6b6a612184b7c3fe54659d9d34ce53fbb6bf5b6f9dfa0bfecb0ec457e0ade'
        ),
        (
            '3ff47f5b84f71d7e3fe7e3d95878f0e4bff92ef44330a8cc3fbe182a0975d2303fff33f4750c871040006b45'
            'ae0fdffebfc6c7d5ce46db0c3ff37502f50a5925c0182f00a37d4ddf'
        ),
        (
            'bff7bd353e019bf0bfe49b3900308f97c007a88eab7ed6413fb1780109bbcc503faca66492b8adc03ff90caa'
            'b7114f9cc000bc50c23a489f3fff84728a4c7110c0001c1fa9083fce'
        ),
    ),
    'axis1_f64': (
        (
            'c008a1b5610640c2c0009026d449c485bfe4f57b026c1777bfe4b36bbef3ebf63fd9e8d48e3a59eabfc21168'
            '28e127693fda76aac4d2175fbff30e80d6819a0b40016e5bce98b3c03ff62147aa99859abfe782a0a4a339a0'
            'bff84f5253edd87fc001bb40452b48cc40069128201601d1bfff31095647953d3fb176ea1c9544f0bfe949d3'
            '33fe759cc00ab156d2ec48a4bfee2ef9d99947e0bfedfc16046ce7bd3fbc3345bd9daeec3fdbc1027634c65b'
            '401013d86386370e40034f6294650d97bff777522bcc9f26bfe7692e6a515cd0bfe02387845e6e70bfd96400'
            '37ae1249'
        ),
        (
            'bfedd056d70a6ea23feb66a93b4f41af3fe65d95f82e307d3feab0657707b440'
        ),
        (
            '4001ed21ee8dbb9d4005578526505e8a4001754ae721448a3ff58515274abe5e'
        ),
        (
            'bfa138f0229d7c80bfd2ae95e16d856b3fbaf9b0f73022e23fb6378099a003f23f9c393bdcb78bf0bfe17731'
            '0f1d414bbfa7263f2c6604e8bfd14350628462eabfd50fde36433be23feecb6047e528983fd2521c4316e8af'
            '3fd034f21b6792b5bf870b03d157c2c0bfc8f294dedaf3ecbfeafd59e30f67c3bfe059e08c0e3ad23f99d276'
            '188a313b3fd78b9a4e8ebd193fd073a5565cb4b5bfea0e24e518adac3fb72739cd1ed349bfe679d81ec76f36'
            '3fb5d48ca450b51f3ff49f80165d584b3fdc339fb7fde8c6bfa521b6a363c8cebfac4552310299083fda5e57'
            '4c450a3c'
        ),
        (
            'c001bc455bdf729cbfee68327c8d78e33ff410b4acc1b988c00287d77c029a083fdb420d17e52defbffb2b25'
            '73936ca3c007441e26e9cbfe'
        ),
        (
            'bff1b4036320e25c3ff54dceccc86c6fbffc59f7c7de09a7c0053eb6e79e42db40062d9c21627e24400ed695'
            '6cbd279f3ffbb6a1e33dab2f'
        ),
    ),
    'last_f16': (
        (
            '423fc2ca3d28b2d038fab8912dd8ba31375fb681c121421e4101bfe8b6fabb9a428dbc43af08b3f4b6992e88'
            'c0a73f224094c32d3c763bf54262b694b6dfbe983c1fbd23be5c40f3'
        ),
        (
            'b3573547b400'
        ),
        (
            '3f323fac3f92'
        ),
        (
            '3482b27db1bc2d2b39ebba02b91e30bfb985ac9835b43b6e38202b1031c533df341e3379bba2324cb8a2b184'
            'b76d37c330eaa2b828ceb152b49c394aa1962c3ab7d2350dbaf638d2'
        ),
        (
            'b9e730da38413748bb3b387dbcd53342c045bd933f8e45ba'
        ),
        (
            '3d9a3ddbbcc4b6083f3ab17ec03c408fc3e63aecc00e43a8'
        ),
    ),
    'axis1_f16': (
        (
            'bbf23318ba4e3ba2bc383f723f243d822f70b852b89b2040b7d43bc63a31393ab9e8ba573c7cb7bab7ee376c'
            '3f4a3e6ebbafbc84bcd43a963e9a40a1'
        ),
        (
            'b34db54c3b5b37453948b81f'
        ),
        (
            '3f3d3d3e40073c2941533c0c'
        ),
        (
            'a9282b80316839dc35e43310aee637f62f94b8d2b6e6b2f824a0b7e2b4a524a0af9cbc6cb92631feb986b76d'
            '33f2b556b87228243c593e95b5953c2c'
        ),
        (
            'bc8ab80a3b3e32812a28'
        ),
        (
            'bc4a420d3aa5bdfd4031'
        ),
    ),
}


def _data(i, shape, axis, dt):
    rs = np.random.RandomState(700 + i)
    c = shape[axis]
    x = (rs.randn(*shape) * 2 + 0.5).astype(dt)
    g = (rs.rand(c) + 0.5).astype(dt)
    b = rs.randn(c).astype(dt)
    og = rs.randn(*shape).astype(dt)
    return x, g, b, og


def _hex(a):
    a = np.asarray(a)
    return a.astype(a.dtype.newbyteorder(">")).tobytes().hex()


def _run(x, g, b, og, axis, eps, dt):
    X, G, B = (mx.nd.array(v, dtype=dt) for v in (x, g, b))
    for v in (X, G, B):
        v.attach_grad()
    with autograd.record():
        o, m, s = mx.nd.LayerNorm(X, G, B, axis=axis, eps=eps, output_mean_var=True)
    o.backward(mx.nd.array(og, dtype=dt))
    return [v.asnumpy() for v in (o, m, s, X.grad, G.grad, B.grad)]


@pytest.mark.parametrize("i", range(len(CASES)), ids=[c[0] for c in CASES])
def test_layer_norm_bits(i, monkeypatch):
    name, shape, axis, eps, dt, safe = CASES[i]
    monkeypatch.setenv("MXNET_SAFE_ACCUMULATION", "1" if safe else "0")
    got = _run(*_data(i, shape, axis, dt), axis, eps, dt)
    names = ("out", "mean", "std", "data grad", "gamma grad", "beta grad")
    for n, v, want in zip(names, got, _WANT[name]):
        assert _hex(v) == want, (name, n)


# two larger float32 inputs (still within the exact path): SHA-256 prefixes of 1.9.1's bytes
_DIGESTS = [
    (((32, 128), -1), ("7336c66cc9553547", "db112798f7f46432", "30c7b3c404a85823",
                       "a420ac945a619e68", "33e4361c9ae46f4c", "a53f6cabcf1d1b13")),
    (((16, 24, 40), 1), ("8ecd38fab4b2d3ac", "c4ef9d7445ccc20b", "3dce4b31c6268736",
                         "c820b5805e39b298", "1e64ce1f36a9bc4a", "432d6045f2aad0f8")),
]


@pytest.mark.parametrize("i", range(len(_DIGESTS)))
def test_layer_norm_bits_larger(i, monkeypatch):
    monkeypatch.delenv("MXNET_SAFE_ACCUMULATION", raising=False)
    (shape, axis), want = _DIGESTS[i]
    rs = np.random.RandomState(800 + i)
    c = shape[axis]
    x = (rs.randn(*shape) * 2 + 0.5).astype("float32")
    g = (rs.rand(c) + 0.5).astype("float32")
    b = rs.randn(c).astype("float32")
    og = rs.randn(*shape).astype("float32")
    got = _run(x, g, b, og, axis, 1e-5, "float32")
    assert tuple(hashlib.sha256(v.tobytes()).hexdigest()[:16] for v in got) == want


@pytest.mark.parametrize("hybridize", [False, True])
def test_gluon_layer_norm_bits(hybridize, monkeypatch):
    monkeypatch.delenv("MXNET_SAFE_ACCUMULATION", raising=False)
    x, g, b, og = _data(0, (4, 16), -1, "float32")   # the "last_f32" case, eps 1e-5
    net = gluon.nn.LayerNorm(in_channels=16)
    net.initialize()
    net.gamma.set_data(mx.nd.array(g))
    net.beta.set_data(mx.nd.array(b))
    if hybridize:
        net.hybridize()
    X = mx.nd.array(x)
    X.attach_grad()
    with autograd.record():
        y = net(X)
    y.backward(mx.nd.array(og))
    want = _WANT["last_f32"]
    assert _hex(y.asnumpy()) == want[0]
    assert _hex(X.grad.asnumpy()) == want[3]
    assert _hex(net.gamma.grad().asnumpy()) == want[4]
    assert _hex(net.beta.grad().asnumpy()) == want[5]
