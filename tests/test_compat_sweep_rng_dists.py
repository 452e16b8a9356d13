"""1.9.1's CPU random distributions (backend/mt_dists.py) against values recorded from 1.9.1.

Each case seeds fresh generators the way ``mx.random.seed(seed)`` does (ParallelMT for the
``mx.nd.random`` samplers, SerialMT for shuffle, multinomial and ``mx.np.random``), draws,
and compares the CRC-32 of the output bytes with the CRC of 1.9.1's output for the same call
after ``mx.random.seed(seed)`` (the first two recorded values are in the comments).
"""
import zlib

import numpy as np
import pytest

from mxnet.backend import mt_dists as D
from mxnet.backend.mt_parallel import ParallelMT, SerialMT

f32 = np.float32

# name: (seed, dtype, shape, crc32 of 1.9.1's output bytes)
RECORDED = {
    'exp_f32': (101, 'float32', (5000,), 0x766f72f4),  # [0.7016005516052246, 0.7788527607917786]
    'exp_f64': (102, 'float64', (300,), 0xc7b40264),  # [0.43173134252895673, 0.6865973979548595]
    'exp_f16': (103, 'float16', (200,), 0x34b46ccb),  # [0.325439453125, 0.3740234375]
    'exp_arr': (104, 'float32', (2, 100), 0x71210894),  # [0.43125683069229126, 0.268511563539505]
    'gamma_a3': (105, 'float32', (5000,), 0x1da4db91),  # [1.0293450355529785, 3.474653720855713]
    'gamma_a05': (106, 'float32', (3000,), 0xe6fd91f7),  # [1.5614691972732544, 0.15057173371315002]
    'gamma_f64': (107, 'float64', (2000,), 0x2a0c84e2),  # [4.815126172265227, 2.9627864874639105]
    'gamma_f64_small': (108, 'float64', (2000,), 0x2b1339bd),  # [0.08402756538258815, 0.06138189558072503]
    'gamma_arr': (109, 'float32', (3, 700), 0x964c071c),  # [0.02077956683933735, 0.07284677773714066]
    'gamma_arr64': (110, 'float32', (3, 50), 0x0bcfe05b),  # [0.2465289682149887, 0.0007530693546868861]
    'gamma_f16': (111, 'float16', (500,), 0x22a7ccdd),  # [7.72265625, 1.32421875]
    'gamma_big': (112, 'float32', (70000,), 0x48fa6171),  # [0.004939052276313305, 0.17388524115085602]
    'gamma_arr_f64out': (113, 'float64', (2, 100), 0x0a6122db),  # [0.00076232863765522, 0.016451219960126]
    'pois_3': (114, 'float32', (5000,), 0x7cb1d429),  # [2.0, 2.0]
    'pois_30': (115, 'float32', (5000,), 0x8935015b),  # [29.0, 33.0]
    'pois_arr': (116, 'float32', (4, 100), 0x5f06b17b),  # [2.0, 2.0]
    'pois_1e5': (117, 'float32', (500,), 0xc7334c6a),  # [100126.0, 99760.0]
    'pois_f64': (118, 'float64', (400,), 0xb9dd1070),  # [5.0, 8.0]
    'nb': (119, 'float32', (5000,), 0x6f7d101f),  # [3.0, 4.0]
    'nb_arr': (120, 'float32', (2, 100), 0x847dfc21),  # [2.0, 0.0]
    'gnb': (121, 'float32', (5000,), 0xea8a9a7f),  # [1.0, 1.0]
    'gnb0': (122, 'float32', (500,), 0x71fb9907),  # [3.0, 3.0]
    'gnb_arr': (123, 'float32', (2, 100), 0x1dbeb3dd),  # [2.0, 0.0]
    'seq': (124, 'float32', (300,), 0xdc73b4c1),  # [4.684718608856201, 0.6751852631568909]
    'seq_1': (124, 'float32', (1000,), 0xe8e9f7b5),  # [0.2351059764623642, 0.44384142756462097]
    'seq_2': (124, 'float32', (3000,), 0xc374f5f8),  # [14.0, 14.0]
    'seq_3': (124, 'float32', (100,), 0x71ba944e),  # [1.8138906955718994, 2.221364974975586]
    'shuffle_1d': (125, 'float32', (2000,), 0x79b09f34),  # [1819.0, 826.0]
    'shuffle_nd': (126, 'float32', (30, 4), 0xa125d69d),  # [84.0, 85.0]
    'mnom': (127, 'int32', (2, 100), 0xba5c90ef),  # [0, 0]
    'mnom_prob': (128, 'int32', (2, 2, 3), 0xc7cf666a),  # [0, 2]
    'mnom_prob_1': (128, 'float32', (2, 2, 3), 0x8b6b4201),  # [-2.3025851249694824, -1.2039728164672852]
    'mnom_f64': (129, 'int32', (2, 50), 0x457cfa61),  # [2, 3]
    'np_exp': (201, 'float32', (2000,), 0x5a94abba),  # [0.5755042433738708, 0.15472866594791412]
    'np_exp_arr': (202, 'float32', (1000, 2), 0xf1608f51),  # [0.5241178870201111, 16.4251766204834]
    'np_logistic': (203, 'float32', (2000,), 0x310b4f98),  # [0.9943068623542786, 0.39450398087501526]
    'np_logistic_arr': (204, 'float32', (1000, 2), 0x78a63b1c),  # [1.6456773281097412, 4.410102367401123]
    'np_gumbel': (205, 'float32', (2000,), 0x4427d472),  # [1.4101648330688477, 1.627915382385254]
    'np_gumbel_arr': (206, 'float32', (1000, 2), 0xce190ae9),  # [0.8085277676582336, 0.04926490783691406]
    'np_rayleigh': (207, 'float32', (2000,), 0x646ca7d4),  # [1.474531888961792, 0.3468225300312042]
    'np_rayleigh_arr': (208, 'float32', (1000, 2), 0xce00092a),  # [1.1267585754394531, 1.2929823398590088]
    'np_weibull': (209, 'float32', (2000,), 0xb3ccf5dc),  # [0.018624363467097282, 0.00228936062194407]
    'np_weibull_arr': (210, 'float32', (1000, 2), 0x8d50327b),  # [2.166801929473877, 0.41879814863204956]
    'np_pareto': (211, 'float32', (2000,), 0xc3711471),  # [1.6624480485916138, 0.08539599925279617]
    'np_pareto_arr': (212, 'float32', (1000, 2), 0xef878d29),  # [1.1821281909942627, 0.2621532380580902]
    'np_power': (213, 'float32', (2000,), 0x6cc06209),  # [0.4993295967578888, 0.5897349715232849]
    'np_power_arr': (214, 'float32', (1000, 2), 0xf1fdd2a2),  # [0.8664050698280334, 0.3457168638706207]
    'np_bern': (215, 'float32', (2000,), 0xf29dadc9),  # [1.0, 0.0]
    'np_bern_logit': (216, 'float32', (2000,), 0x04409433),  # [1.0, 1.0]
    'np_bern_arr': (217, 'float32', (1000, 2), 0x404120ab),  # [0.0, 1.0]
    'np_choice': (218, 'int64', (2000,), 0x671f944e),  # [3, 6]
    'np_choice_p': (219, 'int64', (2000,), 0x7c695770),  # [3, 2]
    'np_shuffle': (220, 'float32', (300,), 0x20f03f11),  # [80.0, 120.0]
    'nb_p64': (301, 'float32', (2, 200), 0x69bc1348),  # [3.0, 2.0]
    'gnb_p64': (302, 'float32', (2, 200), 0xc5949e8d),  # [1.0, 3.0]
    'pois_p64': (303, 'float32', (2, 200), 0xcfcde4cb),  # [1.0, 2.0]
    'exp_p64': (304, 'float32', (2, 200), 0xa0a85731),  # [0.6876583099365234, 1.0560930967330933]
    'gamma_p64': (305, 'float32', (2, 200), 0x0dc67b6f),  # [0.19738322496414185, 0.017445817589759827]
    'np_gamma': (401, 'float32', (3000,), 0x8f6355af),  # [0.48173367977142334, 2.4658055305480957]
    'np_gamma_f64': (402, 'float64', (3000,), 0x54e9f55e),  # [3.2276612807971077, 1.2565437375374087]
    'np_gamma_arr': (403, 'float32', (1000, 2), 0xc8d96e80),  # [0.6350858211517334, 1.007231593132019]
    'np_gamma_arr64': (404, 'float32', (1000, 2), 0xa7f96f36),  # [0.00404824735596776, 0.6936516165733337]
    'np_gamma_big': (405, 'float32', (30000,), 0x248291af),  # [2.2446374893188477, 6.491663455963135]
    'np_chisq': (407, 'float32', (3000,), 0x6c94d66a),  # [0.3254789412021637, 2.997899055480957]
    'np_chisq_arr': (408, 'float32', (500, 2), 0x8dcfeac0),  # [0.20259693264961243, 0.5500243902206421]
    'np_choice_nr_small': (409, 'int64', (300,), 0xc4e0fe22),  # [162, 655]
    'np_choice_nr_big': (410, 'int64', (700,), 0x7884dcef),  # [700, 803]
    'np_mnom': (411, 'int64', (50, 3), 0xfab8e858),  # [2, 1]
    'np_mnom_none': (412, 'int64', (4,), 0x40f1dc61),  # [96, 100]
    'np_shuffle_nd': (413, 'float32', (30, 4), 0x155a5008),  # [60.0, 61.0]
    'np_seq': (414, 'float32', (100,), 0xb05b7667),  # [1.1101824045181274, 0.1320471316576004]
    'np_seq_1': (414, 'float32', (50,), 0xc04d7b51),  # [0.6686122417449951, 0.8999348878860474]
    'np_seq_2': (414, 'int64', (10,), 0x04c723bb),  # [16, 4]
    'np_seq_3': (414, 'float32', (10,), 0x879290f4),  # [1.5308616161346436, 0.7079482674598694]
    'np_beta': (502, 'float32', (2000,), 0xd5fa94cf),  # [0.053715188056230545, 0.018762212246656418]
    'np_beta_arr': (505, 'float32', (500, 2), 0x4bf768e5),  # [0.009280359372496605, 0.507709264755249]
    'np_lognormal': (501, 'float32', (2000,), 0x7add04ed),  # [0.9573562741279602, 1.7439295053482056]
    'np_lognormal_arr': (506, 'float32', (500, 2), 0xd9dfc798),  # [2.8579909801483154, 16.219858169555664]
    'exp_f16_big': (130, 'float16', (66000,), 0xe9a2942d),  # [39.0, 4.62890625]
    'pois_f16_arr': (131, 'float16', (3, 300), 0xc7c72ce6),  # [0.0, 0.0]
    'gamma_big_f64': (132, 'float64', (70000,), 0xdc4f0c84),  # [1.2711520271469996, 0.15030151159406901]
}


def _a(*v, dtype=f32):
    return np.array(v, dtype=dtype)


def _rows(p, m):
    """Parameter ``p`` (one per row) for ``len(p) * m`` elements, as 1.9.1's _sample_* use."""
    return D.per_element(p, len(p) * m)


def _seq(pm):
    a = D.gamma(pm, 300, 2.5, 1.0)
    b = pm.uniform_f32(1000)
    c = D.poisson(pm, 3000, 15.0)
    d = D.exponential(pm, 100, 1.0)
    return a, b, c, d


def _mn_prob(sm):
    return D.multinomial(sm, _a([0.1, 0.2, 0.3, 0.4], [0.5, 0.25, 0.125, 0.125]), (2, 3),
                         get_prob=True)


_P2 = [[0.1, 0.2, 0.3, 0.4], [0.5, 0.25, 0.125, 0.125]]
_N = 2000


def _tile(*v, dtype=f32):
    return np.tile(np.array(v, dtype=dtype), _N // len(v))


def _np_shuffle(sm):
    return D.shuffle(sm, np.arange(300, dtype=f32))


def _d(*v):
    return np.array(v, dtype=np.float64)


def _np_seq(sm):
    a = D.np_gamma(sm, 100, 0.7, 1.0)
    b = sm.uniform_f32(50)
    c = D.np_choice(sm, 100, 10, replace=False)
    d = D.np_exponential(sm, 10)
    return a, b, c, d


# name: (generator class, draw)
CALLS = {
    "exp_f32": (ParallelMT, lambda g: D.exponential(g, 5000, f32(1) / f32(2.0))),
    "exp_f64": (ParallelMT, lambda g: D.exponential(g, 300, f32(1 / 0.7), "float64")),
    "exp_f16": (ParallelMT, lambda g: D.exponential(g, 200, f32(1 / 0.7), "float16")),
    "exp_arr": (ParallelMT, lambda g: D.exponential(g, 200, f32(1) / _a(1.0, 0.25))),
    "gamma_a3": (ParallelMT, lambda g: D.gamma(g, 5000, 3.0, 2.0)),
    "gamma_a05": (ParallelMT, lambda g: D.gamma(g, 3000, 0.5, 1.5)),
    "gamma_f64": (ParallelMT, lambda g: D.gamma(g, 2000, 3.0, 2.0, "float64")),
    "gamma_f64_small": (ParallelMT, lambda g: D.gamma(g, 2000, 0.3, 1.0, "float64")),
    "gamma_arr": (ParallelMT, lambda g: D.gamma(g, 2100, _a(0.3, 1.0, 7.5), _a(1.0, 2.0, 0.5))),
    "gamma_arr64": (ParallelMT, lambda g: D.gamma(g, 150, _a(0.3, 1.0, 7.5, dtype=np.float64),
                                                  _a(1.0, 2.0, 0.5, dtype=np.float64))),
    "gamma_f16": (ParallelMT, lambda g: D.gamma(g, 500, 1.5, 1.0, "float16")),
    "gamma_big": (ParallelMT, lambda g: D.gamma(g, 70000, 0.7, 3.0)),
    "gamma_arr_f64out": (ParallelMT, lambda g: D.gamma(g, 200, _a(0.3, 2.0), _a(1.0, 0.5),
                                                       "float64")),
    "pois_3": (ParallelMT, lambda g: D.poisson(g, 5000, 3.0)),
    "pois_30": (ParallelMT, lambda g: D.poisson(g, 5000, 30.0)),
    "pois_arr": (ParallelMT, lambda g: D.poisson(g, 400, _a(1.0, 12.0, 50.0, 0.0))),
    "pois_1e5": (ParallelMT, lambda g: D.poisson(g, 500, 1e5)),
    "pois_f64": (ParallelMT, lambda g: D.poisson(g, 400, 7.5, "float64")),
    "nb": (ParallelMT, lambda g: D.negative_binomial(g, 5000, 3, 0.4)),
    "nb_arr": (ParallelMT, lambda g: D.negative_binomial(g, 200, _a(1.0, 4.0), _a(0.5, 0.9))),
    "gnb": (ParallelMT, lambda g: D.generalized_negative_binomial(g, 5000, 2.0, 0.3)),
    "gnb0": (ParallelMT, lambda g: D.generalized_negative_binomial(g, 500, 2.0, 0.0)),
    "gnb_arr": (ParallelMT, lambda g: D.generalized_negative_binomial(g, 200, _a(1.0, 4.0),
                                                                     _a(0.0, 0.5))),
    "seq": (ParallelMT, _seq),
    "shuffle_1d": (SerialMT, lambda s: D.shuffle(s, np.arange(2000, dtype=f32))),
    "shuffle_nd": (SerialMT, lambda s: D.shuffle(s, np.arange(120, dtype=f32).reshape(30, 4))),
    "mnom": (SerialMT, lambda s: D.multinomial(s, np.array(_P2, f32), 100)),
    "mnom_prob": (SerialMT, _mn_prob),
    "mnom_f64": (SerialMT, lambda s: D.multinomial(s, np.array(_P2), 50)),
    "np_exp": (SerialMT, lambda s: D.np_exponential(s, _N, 0.7)),
    "np_exp_arr": (SerialMT, lambda s: D.np_exponential(s, _N, _tile(0.5, 3.0))),
    "np_logistic": (SerialMT, lambda s: D.np_logistic(s, _N, 0.7, 0.3)),
    "np_logistic_arr": (SerialMT, lambda s: D.np_logistic(s, _N, _tile(1.0, -1.0),
                                                          _tile(0.5, 2.0))),
    "np_gumbel": (SerialMT, lambda s: D.np_gumbel(s, _N, 0.7, 0.3)),
    "np_gumbel_arr": (SerialMT, lambda s: D.np_gumbel(s, _N, _tile(0.7, -1.0), _tile(0.3, 2.5))),
    "np_rayleigh": (SerialMT, lambda s: D.np_rayleigh(s, _N, 0.7)),
    "np_rayleigh_arr": (SerialMT, lambda s: D.np_rayleigh(s, _N, _tile(0.7, 3.0))),
    "np_weibull": (SerialMT, lambda s: D.np_weibull(s, _N, 0.7)),
    "np_weibull_arr": (SerialMT, lambda s: D.np_weibull(s, _N, _tile(0.7, 3.0))),
    "np_pareto": (SerialMT, lambda s: D.np_pareto(s, _N, 0.7)),
    "np_pareto_arr": (SerialMT, lambda s: D.np_pareto(s, _N, _tile(0.7, 3.0))),
    "np_power": (SerialMT, lambda s: D.np_power(s, _N, 0.7)),
    "np_power_arr": (SerialMT, lambda s: D.np_power(s, _N, _tile(3.0, 0.5, dtype=np.float64))),
    "np_bern": (SerialMT, lambda s: D.np_bernoulli(s, _N, prob=0.3)),
    "np_bern_logit": (SerialMT, lambda s: D.np_bernoulli(s, _N, logit=0.7)),
    "np_bern_arr": (SerialMT, lambda s: D.np_bernoulli(s, _N, prob=_tile(0.1, 0.9))),
    "np_choice": (SerialMT, lambda s: D.np_choice(s, 10, _N)),
    "np_choice_p": (SerialMT, lambda s: D.np_choice(s, 4, _N, p=[0.1, 0.2, 0.3, 0.4])),
    "np_shuffle": (SerialMT, _np_shuffle),
    "nb_p64": (ParallelMT, lambda g: D.negative_binomial(g, 400, _d(1.3, 4.7), _d(0.3, 0.9))),
    "gnb_p64": (ParallelMT, lambda g: D.generalized_negative_binomial(g, 400, _d(1.3, 4.7),
                                                                     _d(0.0, 0.3))),
    "pois_p64": (ParallelMT, lambda g: D.poisson(g, 400, _d(1.3, 14.7))),
    "exp_p64": (ParallelMT, lambda g: D.exponential(g, 400, 1.0 / _d(1.3, 0.7))),
    "gamma_p64": (ParallelMT, lambda g: D.gamma(g, 400, _d(0.3, 2.7), _d(1.3, 0.7))),
    "np_gamma": (SerialMT, lambda s: D.np_gamma(s, 3000, 0.7, 1.3)),
    "np_gamma_f64": (SerialMT, lambda s: D.np_gamma(s, 3000, 0.7, 1.3, "float64")),
    "np_gamma_arr": (SerialMT, lambda s: D.np_gamma(s, _N, _tile(0.3, 2.7), _tile(1.3, 0.7))),
    "np_gamma_arr64": (SerialMT, lambda s: D.np_gamma(s, _N, _tile(0.3, 2.7, dtype=np.float64),
                                                      _tile(1.3, 0.7, dtype=np.float64))),
    "np_gamma_big": (SerialMT, lambda s: D.np_gamma(s, 30000, 3.3)),
    # 1.9.1's chisquare is gamma(df/2, 0.5): scale=0.5 reproduces it (see np_chisquare)
    "np_chisq": (SerialMT, lambda s: D.np_chisquare(s, 3000, 2.6, scale=0.5)),
    "np_chisq_arr": (SerialMT, lambda s: D.np_chisquare(s, 1000, np.tile(_a(1.0, 5.0), 500),
                                                        scale=0.5)),
    "np_choice_nr_small": (SerialMT, lambda s: D.np_choice(s, 1000, 300, replace=False)),
    "np_choice_nr_big": (SerialMT, lambda s: D.np_choice(s, 1000, 700, replace=False)),
    "np_mnom": (SerialMT, lambda s: D.np_multinomial(s, 10, [0.2, 0.3, 0.5], (50,))),
    "np_mnom_none": (SerialMT, lambda s: D.np_multinomial(s, 1000, [0.1, 0.1, 0.1, 0.7])),
    "np_shuffle_nd": (SerialMT, lambda s: D.shuffle(s, np.arange(120, dtype=f32).reshape(30, 4))),
    "np_seq": (SerialMT, _np_seq),
    "exp_f16_big": (ParallelMT, lambda g: D.exponential(g, 66000, f32(1 / 33.0), "float16")),
    "pois_f16_arr": (ParallelMT, lambda g: D.poisson(g, 900, _a(0.5, 13.0, 90.0), "float16")),
    "gamma_big_f64": (ParallelMT, lambda g: D.gamma(g, 70000, 2.3, 0.3, "float64")),
    "np_beta": (SerialMT, lambda s: D.np_beta(s, _N, 0.7, 2.5)),
    "np_beta_arr": (SerialMT, lambda s: D.np_beta(s, 1000, np.tile(_a(0.7, 2.0), 500),
                                                  np.tile(_a(2.5, 0.4), 500))),
    "np_lognormal": (SerialMT, lambda s: D.np_lognormal(s, _N, 0.3, 0.7)),
    "np_lognormal_arr": (SerialMT, lambda s: D.np_lognormal(s, 1000, np.tile(_a(0.3, -1.0), 500),
                                                            np.tile(_a(0.7, 2.0), 500))),
}


def _outputs(name):
    cls, fn = CALLS[name]
    seed = RECORDED[name][0]
    r = fn(cls(seed))
    return list(r) if isinstance(r, tuple) else [r]


def _recorded(name):
    """The recorded outputs of case ``name`` (``name``, ``name_1``, ...)."""
    keys = [name] + [k for k in RECORDED if k.startswith(name + "_") and
                     k[len(name) + 1:].isdigit()]
    return [RECORDED[k] for k in keys]


@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_recorded_191(name):
    outs = _outputs(name)
    recs = _recorded(name)
    assert len(outs) == len(recs)
    for out, (_, dtype, shape, crc) in zip(outs, recs):
        out = np.ascontiguousarray(np.asarray(out).astype(dtype).reshape(shape))
        assert zlib.crc32(out.tobytes()) == crc, name


def test_every_recorded_case_has_a_call():
    names = {k for k in RECORDED if k in CALLS}
    for k in RECORDED:
        base = k.rsplit("_", 1)[0] if k.rsplit("_", 1)[-1].isdigit() and k not in CALLS else k
        assert base in names, k


def test_states_left_just_past_the_words_used():
    # a gamma call then uniforms equals the uniforms drawn after the same gamma call made
    # on a copy that took the words one chunk at a time (no lock-step buffer)
    g1, g2 = ParallelMT(7), ParallelMT(7)
    D.gamma(g1, 640, 0.8, 1.0)
    D.gamma(g2, 640, 0.8, 1.0)
    np.testing.assert_array_equal(g1.uniform_f32(5000), g2.uniform_f32(5000))


def _scalar_uid(words, hi):
    """libstdc++'s old uniform_int_distribution(0, hi) on 32-bit words, one at a time."""
    uer = hi + 1
    scale = 0xFFFFFFFF // uer
    for i, w in enumerate(words):
        if w < uer * scale:
            return w // scale, i + 1
    raise AssertionError


def test_randint_upto_rejection_against_scalar_loop():
    # ranges near 2**31 throw away almost half the words: the vectorised rewind must agree
    highs = np.array([3_000_000_000, 5, 2_500_000_000, 2**31 + 7, 17] * 40, dtype=np.uint64)
    got = D.randint_upto(SerialMT(3), highs)
    words = SerialMT(3).take(0, 4000).astype(np.int64).tolist()
    pos, want = 0, []
    for h in highs.tolist():
        v, used = _scalar_uid(words[pos:], h)
        want.append(v)
        pos += used
    np.testing.assert_array_equal(got, want)
    s = SerialMT(3)
    D.randint_upto(s, highs)
    assert int(s.take(0, 1)[0]) == words[pos]


def test_per_element_parameter_rows():
    np.testing.assert_array_equal(D.per_element(_a(1.0, 2.0, 3.0), 7),
                                  [1, 1, 1, 2, 2, 2, 3])
    assert D.per_element(0.1, 3).dtype == np.float32


def test_poisson_and_gamma_statistics():
    lam = D.poisson(ParallelMT(5), 20000, 20.0)
    assert abs(lam.mean() - 20.0) < 0.2 and abs(lam.var() - 20.0) < 1.0
    g = D.gamma(ParallelMT(6), 20000, 0.4, 2.0, "float64")
    assert abs(g.mean() - 0.8) < 0.04
    c = D.np_chisquare(SerialMT(8), 20000, 3.0)       # the true chi-square: mean df
    assert abs(c.mean() - 3.0) < 0.1


def test_choice_without_replacement_is_distinct():
    for a, k in [(10, 0), (10, 4), (10, 5), (10, 10), (1000, 999), (1000, 3)]:
        r = D.np_choice(SerialMT(a + k), a, k, replace=False)
        assert len(set(r.tolist())) == k and (r >= 0).all() and (r < a).all()
    with pytest.raises(ValueError):
        D.np_choice(SerialMT(1), 3, 4, replace=False)


@pytest.mark.parametrize("a,f64", [(0.05, False), (0.99, False), (1.0, False), (7.0, False),
                                   (0.3, True), (2.5, True)])
def test_gamma_whole_call_parse_equals_lock_step(a, f64):
    # one parameter for the call takes the every-position parse; per-element parameters
    # take the chunk-by-chunk lock step: both must give the same draws and leave the states
    # at the same words
    n, pt = 3000, (np.float64 if f64 else f32)
    g1, g2 = ParallelMT(40), ParallelMT(40)
    fast = D.gamma(g1, n, np.array([a], pt), np.array([1.3], pt), "float64" if f64 else "float32")
    lanes = D._Lanes(g2, n, 6)
    av, bv = np.full(n, a, pt), np.full(n, 1.3, pt)
    slow = lanes.run(n, lambda ln, idx: D._gamma_lanes(lanes, ln, av[idx], bv[idx], f64), pt)
    np.testing.assert_array_equal(fast, slow)
    np.testing.assert_array_equal(g1.uniform_f32(200), g2.uniform_f32(200))


@pytest.mark.parametrize("lam", [0.5, 11.9, 12.0, 40.0, 3000.0])
def test_poisson_whole_call_parse_equals_lock_step(lam):
    n = 3000
    g1, g2 = ParallelMT(41), ParallelMT(41)
    fast = D.poisson(g1, n, lam, "float64")
    lanes = D._Lanes(g2, n, 3)
    lv = np.full(n, lam, f32)
    slow = lanes.run(n, lambda ln, idx: D._poisson_lanes(lanes, ln, lv[idx]), np.int64)
    np.testing.assert_array_equal(fast, slow)
    np.testing.assert_array_equal(g1.uniform_f32(200), g2.uniform_f32(200))


# mx.np.random.choice(8, size=(4,), replace=False, p=_WP) after mx.random.seed(seed), 1.9.1
_WP = [0.05, 0.3, 0.1, 0.2, 0.15, 0.02, 0.08, 0.1]
_WNR = {700: [4, 6, 3, 2], 701: [6, 7, 3, 4], 702: [3, 2, 1, 5], 703: [2, 1, 4, 3],
        704: [1, 2, 3, 4], 705: [2, 4, 1, 3], 706: [4, 2, 7, 1], 707: [3, 1, 6, 4],
        708: [6, 5, 1, 4], 709: [6, 1, 0, 5], 710: [1, 7, 3, 2], 711: [4, 3, 6, 1]}


def test_weighted_choice_without_replacement():
    for seed, want in _WNR.items():
        s = SerialMT(seed)
        assert D.np_choice(s, 8, 4, p=_WP, replace=False).tolist() == want
        assert s.take(0, 1)[0] == SerialMT(seed).take(0, 9)[8]     # 8 uniforms used


@pytest.mark.parametrize("ga,gb", [(3.0, 1.5), (0.3, 15.0), (2.0, 2.9)])
def test_negative_binomial_whole_call_parse_equals_lock_step(ga, gb):
    n = 3000
    g1, g2 = ParallelMT(42), ParallelMT(42)
    fast = D._gamma_poisson_const(g1, n, f32(ga), f32(gb))
    lanes = D._Lanes(g2, n, 9)
    av, bv = np.full(n, ga, f32), np.full(n, gb, f32)

    def one(ln, idx):
        return D._poisson_lanes(lanes, ln, D._gamma_lanes(lanes, ln, av[idx], bv[idx], False))
    slow = lanes.run(n, one, np.int64)
    np.testing.assert_array_equal(fast, slow)
    np.testing.assert_array_equal(g1.uniform_f32(200), g2.uniform_f32(200))
