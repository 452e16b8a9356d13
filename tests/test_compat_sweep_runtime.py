"""Regressions found by running MXNet 1.9.1 scripts about environment variables, log lines
and the small runtime APIs (mx.context, mx.util, mx.random, mx.engine, mx.profiler) under
both libraries.

Every expected value and log text below was recorded by running the same code under
MXNet 1.9.1 (timestamps aside).
"""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import mxnet as mx
from mxnet.ndarray import _fallback_log
from mxnet.operator import _safe_acc

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TS = r"\[\d\d:\d\d:\d\d\] "

FALLBACK_TAIL = (
    "The operator with default storage type will be dispatched for execution. You're seeing "
    "this warning message because the operator above is unable to process the given ndarrays "
    "with specified storage types, context and parameter. Temporary dense ndarrays are "
    "generated in order to execute the operator. This does not affect the correctness of the "
    "programme. You can set environment variable MXNET_STORAGE_FALLBACK_LOG_VERBOSE to 0 to "
    "suppress this warning.")


def _fallback_msg(op, ins, params="{}", outs="default, "):
    return ("../src/executor/../operator/../common/utils.h:472: \n"
            "Storage type fallback detected:\n"
            f"operator = {op}\ninput storage types = [{ins}]\n"
            f"output storage types = [{outs}]\nparams = {params}\n"
            f"context.dev_mask = cpu\n{FALLBACK_TAIL}\n")


def _strip_ts(text):
    return re.sub(TS, "", text)


def _run(code, **env):
    e = dict(os.environ, PYTHONPATH=REPO)
    for k in list(e):
        if k.startswith("MXNET_"):
            del e[k]
    e.update(env)
    return subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True,
                          cwd="/tmp", timeout=60)


@pytest.fixture
def fresh_logs(monkeypatch):
    monkeypatch.setattr(_fallback_log, "_seen", set())
    monkeypatch.setattr(_safe_acc, "_warned", set())
    monkeypatch.delenv("MXNET_STORAGE_FALLBACK_LOG_VERBOSE", raising=False)
    monkeypatch.delenv("MXNET_SAFE_ACCUMULATION", raising=False)


# ------------------------------------------------------------------ engine start line, profiler

def test_engine_start_line_and_profiler_autostart(tmp_path):
    # recorded from 1.9.1: with MXNET_ENGINE_TYPE set it logs the engine it starts; with
    # MXNET_PROFILER_AUTOSTART=1 it writes profile.json (mode 0644) when the process exits
    code = ("import os; os.chdir(%r); import mxnet as mx; "
            "print(mx.nd.ones((2,)).sum().asscalar())" % str(tmp_path))
    r = _run(code, MXNET_ENGINE_TYPE="NaiveEngine", MXNET_PROFILER_AUTOSTART="1")
    assert r.returncode == 0, r.stderr
    assert re.fullmatch(TS + r"\.\./src/engine/engine\.cc:54: MXNet start using engine: "
                        r"NaiveEngine\n", r.stderr), r.stderr
    assert r.stdout == "2.0\n"
    prof = tmp_path / "profile.json"
    assert prof.is_file()
    assert oct(prof.stat().st_mode & 0o777) == oct(0o666 & ~_umask())
    # without the variable nothing is logged
    r = _run("import mxnet")
    assert r.returncode == 0 and r.stderr == ""


def _umask():
    m = os.umask(0)
    os.umask(m)
    return m


def test_unknown_engine_type_message():
    r = _run("import mxnet", MXNET_ENGINE_TYPE="Bogus")
    assert r.returncode != 0
    assert "Cannot find Engine Bogus" in r.stderr   # 1.9.1's words


# ------------------------------------------------------------------ storage fallback log

def test_storage_fallback_logged_once_per_message(capfd, fresh_logs):
    a = mx.nd.array([[1, 0, 2], [0, 0, 3]]).tostype("csr")
    b = mx.nd.array([[1, 0, 2], [0, 0, 3]]).tostype("row_sparse")
    c = mx.nd.exp(a)
    mx.nd.exp(a)
    assert c.stype == "default"
    np.testing.assert_allclose(c.asnumpy(), np.exp([[1, 0, 2], [0, 0, 3]]), rtol=1e-6)
    mx.nd.softmax(a, axis=0, temperature=2.0, use_length=False)
    mx.nd.transpose(a, axes=(1, 0))
    mx.nd.transpose(a, (1, 0))         # the same message: not logged again
    mx.nd.elemwise_add(a, b)
    mx.nd.mean(b, axis=0)
    mx.nd.dot(a, a, transpose_b=True)
    # natively sparse in 1.9.1: no warning
    mx.nd.norm(a)
    mx.nd.sum(a, axis=1)
    (a * 2).wait_to_read()
    mx.nd.dot(a, mx.nd.ones((3, 2)))
    err = _strip_ts(capfd.readouterr().err)
    # recorded from 1.9.1
    assert err == (
        _fallback_msg("exp", "csr, ")
        + _fallback_msg("softmax", "csr, ",
                        '{"use_length" : False, "temperature" : 2.0, "axis" : 0, }')
        + _fallback_msg("transpose", "csr, ", '{"axes" : (1, 0), }')
        + _fallback_msg("elemwise_add", "csr, row_sparse, ")
        + _fallback_msg("mean", "row_sparse, ", '{"axis" : 0, }')
        + _fallback_msg("dot", "csr, csr, ", '{"transpose_b" : True, }'))


def test_storage_fallback_backward_and_verbose_off(capfd, fresh_logs, monkeypatch):
    data = mx.nd.sparse.csr_matrix((np.array([1., 2, 3], dtype="float32"), np.array([0, 2, 1]),
                                    np.array([0, 2, 3])), shape=(2, 3))
    w = mx.nd.ones((3, 2))
    w.attach_grad()
    with mx.autograd.record():
        out = mx.nd.sparse.dot(data, w)
    out.backward()
    assert w.grad.asnumpy().tolist() == [[1.0, 1.0], [3.0, 3.0], [2.0, 2.0]]
    err = _strip_ts(capfd.readouterr().err)
    # 1.9.1 logs the backward operator, with its two outputs
    assert err == _fallback_msg("_backward_dot", "default, csr, default, ",
                                outs="default, default, ")
    monkeypatch.setenv("MXNET_STORAGE_FALLBACK_LOG_VERBOSE", "0")
    mx.nd.sigmoid(data)
    assert capfd.readouterr().err == ""


# ------------------------------------------------------------------ MXNET_SAFE_ACCUMULATION

def test_safe_accumulation_recommendation(capfd, fresh_logs, monkeypatch):
    y = mx.nd.array(np.linspace(-1, 1, 8).reshape(2, 4), dtype="float16")
    mx.nd.log_softmax(y)
    mx.nd.softmin(y)
    mx.nd.softmax(y)
    n = mx.nd.norm(y)
    mx.nd.norm(y)
    mx.nd.softmax(y.astype("float32"))
    assert n.dtype == np.float16
    assert round(float(n.asscalar()), 3) == 1.852   # recorded from 1.9.1
    err = _strip_ts(capfd.readouterr().err)
    # recorded from 1.9.1: once per family, on the first float16 use
    assert err == (
        "../src/operator/nn/./../../common/utils.h:472: MXNET_SAFE_ACCUMULATION=1 is "
        "recommended for softmax with float16 inputs. See "
        "https://mxnet.apache.org/api/faq/env_var for more details.\n"
        "../src/operator/tensor/./.././../common/utils.h:472: MXNET_SAFE_ACCUMULATION=1 is "
        "recommended for LpNorm with float16 inputs. See "
        "https://mxnet.apache.org/api/faq/env_var for more details.\n")
    monkeypatch.setattr(_safe_acc, "_warned", set())
    monkeypatch.setenv("MXNET_SAFE_ACCUMULATION", "1")
    mx.nd.softmax(y)
    mx.nd.norm(y)
    assert capfd.readouterr().err == ""


# ------------------------------------------------------------------ small runtime APIs

def test_util_env_and_gpu_helpers(monkeypatch):
    monkeypatch.delenv("MXNET_SWEEP_FOO", raising=False)
    assert mx.util.getenv("MXNET_SWEEP_FOO") is None
    assert mx.util.setenv("MXNET_SWEEP_FOO", "12") is None
    assert mx.util.getenv("MXNET_SWEEP_FOO") == "12"
    mx.util.setenv("MXNET_SWEEP_FOO", None)
    assert mx.util.getenv("MXNET_SWEEP_FOO") is None
    assert mx.util.get_gpu_count() == mx.context.num_gpus()
    # 1.9.1 exports these on mx itself
    for name in ("is_np_array", "is_np_shape", "np_array", "np_shape", "set_np_shape",
                 "use_np", "use_np_array", "use_np_shape"):
        assert getattr(mx, name) is getattr(mx.util, name)
    assert mx.is_np_array() is False
    assert mx.set_np_shape(1) is False and mx.set_np_shape(0) is True


def test_context_unknown_device_type_is_keyerror():
    with pytest.raises(KeyError):           # 1.9.1: KeyError 'tpu'
        mx.Context("tpu")
    with pytest.raises(mx.base.MXNetError):
        mx.Context("tpu")


def test_bad_dtype_is_typeerror():
    with pytest.raises(TypeError):          # 1.9.1: NumPy's TypeError
        mx.nd.ones((2,), dtype="foo")


def test_random_seed_must_be_int():
    for bad in ("x", 1.5):
        with pytest.raises(ValueError, match="seed_state must be int"):   # 1.9.1's words
            mx.random.seed(bad)
    mx.random.seed(np.int64(5))
    mx.random.seed(3, ctx=mx.cpu(1))
    mx.random.seed(3, ctx="cpu")


def test_data_dir_and_repo_urls(monkeypatch):
    from mxnet.gluon import utils
    monkeypatch.delenv("MXNET_HOME", raising=False)
    monkeypatch.delenv("MXNET_GLUON_REPO", raising=False)
    assert mx.base.data_dir() == os.path.join(os.path.expanduser("~"), ".mxnet")
    assert utils._get_repo_file_url("gluon/models", "x.zip") == \
        "https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/gluon/models/x.zip"
    monkeypatch.setenv("MXNET_HOME", "/tmp/mxh")
    monkeypatch.setenv("MXNET_GLUON_REPO", "https://example.com/repo")
    assert mx.base.data_dir() == "/tmp/mxh"
    assert utils._get_repo_url() == "https://example.com/repo/"
    assert utils._get_repo_file_url("gluon/models", "x.zip") == \
        "https://example.com/repo/gluon/models/x.zip"


def test_context_default_ctx_holder():
    # recorded from 1.9.1: Context._default_ctx.value reads and sets the default context
    assert mx.Context._default_ctx.value == mx.cpu(0)
    mx.Context._default_ctx.value = mx.cpu(3)
    try:
        assert mx.nd.ones((1,)).context == mx.cpu(3)
        assert mx.current_context() == mx.cpu(3)
    finally:
        mx.Context._default_ctx.value = mx.cpu(0)
    with mx.cpu(2):
        assert mx.Context._default_ctx.value == mx.cpu(2)


def test_hybridized_block_on_csr_input_gives_dense_output():
    # recorded from 1.9.1: a hybridized Dense on a csr batch returns a dense array
    net = mx.gluon.nn.Dense(2, in_units=3)
    net.initialize(mx.init.Constant(0.5))
    x = mx.nd.array([[1, 0, 2], [0, 0, 3]]).tostype("csr")
    net.hybridize()
    y = net(x)
    assert y.stype == "default" and type(y) is mx.nd.NDArray
    assert y.asnumpy().tolist() == [[1.5, 1.5], [1.5, 1.5]]


def test_storage_fallback_params_order(capfd, fresh_logs):
    # 1.9.1 lists the parameters in its C++ attribute map's order; recorded from 1.9.1
    a = mx.nd.array([[1, 0, 2], [0, 0, 3]]).tostype("csr")
    ones, zeros = mx.nd.ones((3,)), mx.nd.zeros((3,))
    mx.nd.BatchNorm(a, ones, zeros, zeros, ones, eps=1e-3, momentum=0.8, fix_gamma=False,
                    use_global_stats=True, output_mean_var=False, axis=1, cudnn_off=True)
    mx.nd.LeakyReLU(a, act_type="leaky", slope=0.1, lower_bound=0.1, upper_bound=0.3)
    mx.nd.softmax(a, axis=1, temperature=1.0, dtype="float32", use_length=False)
    mx.nd.topk(a, axis=1, k=2, ret_typ="value", is_ascend=False, dtype="float32")
    net = mx.gluon.nn.Dense(2, in_units=3)
    net.initialize(mx.init.Constant(0.5))
    assert net(a).asnumpy().tolist() == [[1.5, 1.5], [1.5, 1.5]]
    params = re.findall(r"params = (.*)\n", capfd.readouterr().err)
    assert params == [
        '{"cudnn_off" : True, "axis" : 1, "output_mean_var" : False, "fix_gamma" : False, '
        '"momentum" : 0.8, "use_global_stats" : True, "eps" : 0.001, }',
        '{"lower_bound" : 0.1, "slope" : 0.1, "upper_bound" : 0.3, "act_type" : leaky, }',
        '{"dtype" : float32, "use_length" : False, "temperature" : 1.0, "axis" : 1, }',
        '{"is_ascend" : False, "dtype" : float32, "ret_typ" : value, "k" : 2, "axis" : 1, }',
        '{"no_bias" : False, "flatten" : True, "num_hidden" : 2, }']


def test_storage_fallback_reductions_and_variadic(capfd, fresh_logs):
    a = mx.nd.array([[1, 0, 2], [0, 0, 3]]).tostype("csr")
    assert float(a.sum().asscalar()) == 6.0
    assert float(a.mean().asscalar()) == 1.0
    mx.nd.sum(a, axis=1)                       # natively sparse in 1.9.1
    mx.nd.add_n(a, a)
    mx.nd.stack(a, a)
    mx.nd.dot(a, mx.nd.ones((3, 2)).tostype("row_sparse"))   # natively sparse in 1.9.1
    got = re.findall(r"operator = (.*)\ninput storage types = (.*)\n.*\nparams = (.*)\n",
                     capfd.readouterr().err)
    # recorded from 1.9.1
    assert got == [("sum", "[csr, ]", "{}"), ("mean", "[csr, ]", "{}"),
                   ("add_n", "[csr, csr, ]", '{"num_args" : 2, }'),
                   ("stack", "[csr, csr, ]", '{"num_args" : 2, }')]
