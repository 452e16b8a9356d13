"""gluon.contrib.data against 1.9.1: IntervalSampler orders and lengths, WikiText2 /
WikiText103 read from token files in ``root`` (data, labels, vocabulary, frequencies, a
shared vocabulary) as recorded by tools/golden/gen_gluon_contrib.py; the offline error when
the files are missing; the module layout of mx.gluon.contrib.

Fixtures: tests/golden/gluon_contrib.npz.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.gluon.contrib import data as cdata

from .._scripts import load_script

TABLE = load_script("tools/golden/gen_gluon_contrib.py")
GOLD = np.load(TABLE.OUT_NPZ)
META = json.loads(str(GOLD["__meta__"]))


def test_contrib_modules_exposed():
    import mxnet
    contrib = mxnet.gluon.contrib
    for name in ("nn", "rnn", "cnn", "data", "estimator"):
        assert hasattr(contrib, name), name
    assert contrib.estimator.Estimator is contrib.estimator.estimator.Estimator
    assert contrib.data.IntervalSampler is contrib.data.sampler.IntervalSampler
    assert set(contrib.rnn.__all__) >= {"Conv2DLSTMCell", "LSTMPCell", "VariationalDropoutCell"}


def test_interval_sampler():
    got = [list(cdata.IntervalSampler(*s)) + [len(cdata.IntervalSampler(*s))]
           for s in TABLE.SAMPLERS]
    assert got == META["samplers"]
    with pytest.raises(AssertionError, match="interval 5 must be smaller"):
        cdata.IntervalSampler(3, 5)
    with pytest.raises(MXNetError):
        cdata.IntervalSampler(3, 5)
    loader = mx.gluon.data.DataLoader(mx.gluon.data.ArrayDataset(np.arange(6)), batch_size=2,
                                      sampler=cdata.IntervalSampler(6, 2))
    assert [b.asnumpy().tolist() for b in loader] == [[0, 2], [4, 1], [3, 5]]


def test_wikitext_from_local_files(tmp_path):
    info, arrays = TABLE.run_wikitext(mx, str(tmp_path))
    want = META["wikitext"]
    info = json.loads(json.dumps(info))
    for key in want:
        assert info[key] == want[key], key
    for k, v in arrays.items():
        expected = GOLD[f"wiki/{k}"]
        assert v.dtype == expected.dtype, k
        np.testing.assert_array_equal(v, expected, err_msg=k)


def test_wikitext_missing_files_error(tmp_path, monkeypatch):
    monkeypatch.setenv("MXNET_GLUON_REPO", (tmp_path / "no-repo").as_uri() + "/")
    with pytest.raises(MXNetError, match=r"WikiText2: wiki\.valid\.tokens is not in .*"
                                         r"Place the token files"):
        cdata.text.WikiText2(root=str(tmp_path / "w2"), segment="validation")
    with pytest.raises(MXNetError, match="WikiText103: wiki.train.tokens"):
        cdata.text.WikiText103(root=str(tmp_path / "w103"))
    (tmp_path / "w2").mkdir(exist_ok=True)
    with pytest.raises(MXNetError, match="segment must be one of"):
        cdata.text.WikiText2(root=str(tmp_path / "w2"), segment="valid")
