"""The small top-level modules of MXNet 1.9.1: mx.runtime, mx.log, mx.error, mxnet.misc,
mx.notebook, mx.executor_manager, mx.library, mx.rtc, mxnet.kvstore.kvstore_server,
mxnet.space, mx.tvmop, mx.torch, mx.libinfo.

Expected values come from tests/golden/small_modules.json, written under the reference
MXNet 1.9.1 by tools/golden/gen_small_modules.py.
"""
from __future__ import annotations

import importlib.util
import json
import logging
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import mxnet as mx
import mxnet.executor_manager as em
import mxnet.misc
import mxnet.notebook.callback as nbcb
import mxnet.space
from mxnet.base import MXNetError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(ROOT, "tests", "golden", "small_modules.json")) as _f:
    G = json.load(_f)

_NEW = ["runtime", "log", "error", "notebook", "executor_manager", "library", "rtc",
        "tvmop", "torch", "libinfo", "misc", "space"]


# optional or slow-to-load packages that ``import mxnet`` must not load
_HEAVY = ("cupy", "pandas", "bokeh", "mpi4py", "scipy", "sklearn", "PIL", "onnx", "graphviz")


# ----------------------------------------------------------------------------- packaging

def test_import_is_lazy_and_attributes_match_1_9_1():
    code = ("import sys, json, mxnet as mx\n"
            f"loaded = [m for m in {_NEW!r} if 'mxnet.' + m in sys.modules]\n"
            f"heavy = [m for m in {_HEAVY!r} if m in sys.modules]\n"
            f"attrs = {{n: hasattr(mx, n) for n in {sorted(G['attrs_after_import'])!r}}}\n"
            "print(json.dumps([loaded, heavy, attrs]))\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("DMLC_ROLE", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, cwd=ROOT, check=True).stdout
    loaded, heavy, attrs = json.loads(out.strip().splitlines()[-1])
    assert loaded == [], "import mxnet must not load these modules eagerly"
    assert heavy == []
    assert attrs == G["attrs_after_import"]


def test_version_and_th_alias():
    assert mx.__version__ == "1.9.1"
    assert mx.libinfo.__version__ == G["libinfo"]["version"]
    assert mx.th is mx.torch


# ----------------------------------------------------------------------------- runtime

def test_feature_names_order_and_repr():
    feats = mx.runtime.Features()
    assert list(feats.keys()) == G["runtime"]["names"]
    assert [f.name for f in mx.runtime.feature_list()] == G["runtime"]["names"]
    assert isinstance(feats, dict) and mx.runtime.Features() is feats
    on = mx.runtime.Feature("CPU_SSE", True)
    off = mx.runtime.Feature("CUDA", False)
    assert repr(on) == G["runtime"]["repr_on"] and repr(off) == G["runtime"]["repr_off"]
    assert repr(feats) == "[" + ", ".join(repr(f) for f in feats.values()) + "]"
    assert all(isinstance(f.enabled, bool) for f in feats.values())


def test_is_enabled_unknown_and_case():
    feats = mx.runtime.Features()
    assert feats.is_enabled("lapack") is True
    kind, msg = G["runtime"]["unknown"]
    with pytest.raises(RuntimeError) as e:
        feats.is_enabled("no_such_feature")
    assert type(e.value).__name__ == kind and str(e.value) == msg


def test_features_are_truthful():
    feats = mx.runtime.Features()
    gpu = mx.context.num_gpus() > 0
    for name in ("CUDA", "CUDNN", "CUDA_RTC"):
        assert feats.is_enabled(name) is gpu
    assert feats.is_enabled("DIST_KVSTORE") is (importlib.util.find_spec("mpi4py") is not None)
    assert feats.is_enabled("OPENCV") is (importlib.util.find_spec("cv2") is not None)
    for name in ("MKLDNN", "TENSORRT", "TVM_OP", "NCCL", "CAFFE", "JEMALLOC"):
        assert not feats.is_enabled(name)
    assert feats.is_enabled("PROFILER") and feats.is_enabled("INT64_TENSOR_SIZE")
    blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]["name"].lower()
    assert feats.is_enabled("BLAS_OPEN") is ("openblas" in blas)
    assert feats.is_enabled("BLAS_MKL") is ("mkl" in blas)


def test_no_cupy_means_no_cuda(monkeypatch):
    import mxnet.runtime as rt
    monkeypatch.setattr(rt, "_detected", None)
    monkeypatch.setattr(rt, "_installed", lambda m: m != "cupy")
    on = {f.name: f.enabled for f in rt.feature_list()}
    assert not on["CUDA"] and not on["CUDNN"] and on["DIST_KVSTORE"] and on["OPENCV"]


# ----------------------------------------------------------------------------- log

def test_log_format_and_levels():
    for n, v in G["log"]["levels"].items():
        assert getattr(mx.log, n) == v
    fmt = mx.log._Formatter()
    assert fmt.datefmt == G["log"]["datefmt"]
    for lvl, (head, tail) in G["log"]["formats"].items():
        rec = logging.LogRecord("n", int(lvl), "/a/b.py", 7, "hi %s", ("x",), None, func="fn")
        rec.created, rec.msecs, rec.process = 0.0, 0.0, 42
        text = fmt.format(rec)
        assert text[:6] == head and text[6 + 13:] == tail, text


def test_get_logger_handlers(tmp_path):
    lg = mx.log.get_logger("mx_small_modules_console", level=mx.log.INFO)
    assert lg.level == logging.INFO and len(lg.handlers) == 1
    assert isinstance(lg.handlers[0].formatter, mx.log._Formatter)
    assert mx.log.get_logger("mx_small_modules_console", level=logging.DEBUG) is lg
    assert len(lg.handlers) == 1 and lg.level == logging.INFO
    path = tmp_path / "log.txt"
    fl = mx.log.get_logger("mx_small_modules_file", filename=str(path))
    fl.warning("to file")
    fl.handlers[0].flush()
    assert path.read_text() == "to file\n"
    fl.handlers[0].close()
    with pytest.warns(DeprecationWarning):
        assert mx.log.getLogger("mx_small_modules_console") is lg


# ----------------------------------------------------------------------------- error

def test_error_module():
    assert mx.error.__all__ == G["error"]["all"]
    public = sorted(n for n in dir(mx.error) if not n.startswith("_") and
                    n != "error_types")
    assert public == G["error"]["public"]
    assert [c.__name__ for c in mx.error.InternalError.__mro__] == G["error"]["internal_mro"]
    assert mx.error.MXNetError is mx.base.MXNetError
    assert str(mx.error.InternalError("boom")) == G["error"]["internal_msg"]
    assert mx.error.register is mx.error.register_error
    assert sorted(mx.error.error_types) == G["error"]["registered"]


def test_register_error_and_message_mapping():
    @mx.error.register
    class MySmallModulesError(MXNetError):
        pass

    assert mx.error.error_types["MySmallModulesError"] is MySmallModulesError
    e = mx.error._error_from_message("MySmallModulesError: bad thing")
    assert type(e) is MySmallModulesError
    assert type(mx.error._error_from_message("ValueError: x")) is ValueError
    assert type(mx.error._error_from_message("mxnet.error.InternalError: x")) is \
        mx.error.InternalError
    assert type(mx.error._error_from_message("no colon here")) is MXNetError
    mx.error.error_types.pop("MySmallModulesError")


# ----------------------------------------------------------------------------- misc

def test_factor_scheduler_numbers(caplog):
    m = G["misc"]
    assert mx.misc.LearningRateScheduler().base_lr == m["base_lr"]
    s = mx.misc.FactorScheduler(3, 0.5)
    with caplog.at_level(logging.INFO):
        assert [s(i) for i in (0, 1, 2, 3, 5, 6, 10, 100)] == m["vals"]
    assert "Swith to new learning rate 0.00500" in caplog.text
    s2 = mx.misc.FactorScheduler(2)
    s2.base_lr = 0.2
    assert [s2(i) for i in range(9)] == m["vals2"]
    errs = []
    for args in ((0,), (2, 1.0)):
        with pytest.raises(ValueError) as e:
            mx.misc.FactorScheduler(*args)
        errs.append(str(e.value))
    with pytest.raises(NotImplementedError) as e:
        mx.misc.LearningRateScheduler()(1)
    assert errs + [str(e.value)] == m["errors"]


# ----------------------------------------------------------------------------- executor_manager

def test_split_input_slice():
    for bs, wl, expected in G["split_input_slice"]:
        try:
            got = [[s.start, s.stop] for s in em._split_input_slice(bs, wl)]
        except ValueError as e:
            got = "ValueError: " + str(e)
        assert got == expected, (bs, wl)


def test_data_parallel_manager_against_1_9_1():
    data = mx.sym.var("data")
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(data, num_hidden=3, name="fc"),
                               name="softmax")
    x = np.arange(24, dtype=np.float32).reshape(6, 4) / 10
    y = np.array([0, 1, 2, 0, 1, 2], dtype=np.float32)
    it = mx.io.NDArrayIter(x, y, batch_size=6, label_name="softmax_label")
    mgr = em.DataParallelExecutorManager(net, [mx.cpu(0), mx.cpu(1)], it,
                                         net.list_arguments(), ["fc_weight", "fc_bias"],
                                         net.list_auxiliary_states(), work_load_list=[2, 1])
    mgr.set_params({"fc_weight": mx.nd.array(np.linspace(-1, 1, 12).reshape(3, 4)),
                    "fc_bias": mx.nd.array([0.1, -0.2, 0.3])}, {})
    batch = next(iter(it))
    mgr.load_data_batch(batch)
    mgr.forward(is_train=True)
    mgr.backward()
    metric = mx.metric.Accuracy()
    mgr.update_metric(metric, batch.label)
    g = G["manager"]
    assert [[s.start, s.stop] for s in mgr.slices] == g["slices"]
    for dev, exp in zip(mgr.grad_arrays, g["grads"]):
        for arr, e in zip(dev, exp):
            np.testing.assert_allclose(arr.asnumpy(), e, rtol=1e-5, atol=1e-6)
    for ex, e in zip(mgr.execgrp.train_execs, g["outs"]):
        np.testing.assert_allclose(ex.outputs[0].asnumpy(), e, rtol=1e-5, atol=1e-7)
    assert list(metric.get()) == g["metric"]
    for dev in mgr.param_arrays:
        dev[0][:] = dev[0] + 1
    out = {"fc_weight": mx.nd.zeros((3, 4)), "fc_bias": mx.nd.zeros((3,))}
    mgr.copy_to(out, {})
    for k, v in out.items():
        np.testing.assert_allclose(v.asnumpy(), g["copied"][k], rtol=1e-6)


def test_manager_rejects_duplicate_args():
    with pytest.raises(ValueError, match='duplicated argument name "w"'):
        em._check_arguments(_FakeSym(["data", "w", "w"], []))
    with pytest.raises(ValueError, match='duplicated auxiliary param name "m"'):
        em._check_arguments(_FakeSym(["data"], ["m", "m"]))
    em._check_arguments(_FakeSym(["data", "w"], ["m"]))


class _FakeSym:
    def __init__(self, args, aux):
        self._a, self._x = args, aux

    def list_arguments(self):
        return self._a

    def list_auxiliary_states(self):
        return self._x


# ----------------------------------------------------------------------------- library

def test_library_load_errors(tmp_path, monkeypatch):
    lib = G["library"]
    with pytest.raises(MXNetError) as e:
        mx.library.load("/nonexistent/libfoo.so")
    assert str(e.value) == lib["missing"].format(path="/nonexistent/libfoo.so")
    txt = tmp_path / "x.txt"
    txt.write_text("")
    with pytest.raises(MXNetError) as e:
        mx.library.load(str(txt))
    assert str(e.value) == lib["not_lib"].format(path=str(txt))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(MXNetError) as e:
        mx.library.load("x.txt")
    assert str(e.value) == lib["relative"].format(path="x.txt")
    so = tmp_path / "libext.so"
    so.write_bytes(b"\x7fELF")
    with pytest.raises(MXNetError, match=r"mx\.library\.load.*cannot be loaded"):
        mx.library.load(str(so))


# ----------------------------------------------------------------------------- rtc

def test_rtc_signature_parsing():
    from mxnet.rtc import _parse_signature
    is_nd, is_const, dtypes = _parse_signature("const float *x, double  * y, int n, __half h")
    assert is_nd == [True, True, False, False] and is_const == [True, False, False, False]
    assert [d.name for d in dtypes] == ["float32", "float64", "int32", "float16"]
    with pytest.raises(ValueError, match="Invalid function prototype"):
        _parse_signature("const *x")
    with pytest.raises(TypeError, match="Unsupported kernel argument type"):
        _parse_signature("float *x, bool b")


def test_rtc_without_cupy_raises(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)  # makes ``import cupy`` fail
    with pytest.raises(MXNetError, match=r"mx\.rtc\.CudaModule.*CuPy is not installed"):
        mx.rtc.CudaModule('extern "C" __global__ void k() {}')


@pytest.mark.skipif(mx.context.num_gpus() == 0, reason="needs CuPy and a CUDA GPU")
def test_rtc_axpy_on_gpu():
    src = r'''
    extern "C" __global__ void axpy(const float *x, float *y, float alpha) {
        int i = threadIdx.x + blockIdx.x * blockDim.x;
        y[i] += alpha * x[i];
    }
    template<typename DType>
    __global__ void scale(DType *y, DType a) { y[threadIdx.x] *= a; }
    '''
    mod = mx.rtc.CudaModule(src, exports=["scale<double>"])
    k = mod.get_kernel("axpy", "const float *x, float *y, float alpha")
    x = mx.nd.ones((10,), ctx=mx.gpu(0))
    y = mx.nd.zeros((10,), ctx=mx.gpu(0))
    k.launch([x, y, 3.0], mx.gpu(0), (1, 1, 1), (10, 1, 1))
    np.testing.assert_allclose(y.asnumpy(), np.full(10, 3.0))
    k2 = mod.get_kernel("scale<double>", "double *y, double a")
    z = mx.nd.ones((4,), ctx=mx.gpu(0), dtype="float64")
    k2.launch([z, 2.5], mx.gpu(0), (1, 1, 1), (4, 1, 1))
    np.testing.assert_allclose(z.asnumpy(), np.full(4, 2.5))
    with pytest.raises(MXNetError, match="dtype"):
        k.launch([z, y, 1.0], mx.gpu(0), (1, 1, 1), (4, 1, 1))


# ----------------------------------------------------------------------------- others

def test_space_against_1_9_1():
    s = G["space"]
    sp = mx.space.ConfigSpace.from_json_dict(s["json"])
    assert len(sp) == s["len"] and repr(sp) == s["repr"]
    assert json.loads(json.dumps(sp.to_json_dict())) == s["json"]
    assert repr(sp.space_map["tile_x"]) == s["option_repr"]
    sps = mx.space.ConfigSpaces()
    sps["dot"] = sp
    assert repr(sps) == s["spaces_repr"]
    assert json.loads(json.dumps(sps.to_json_dict())) == s["spaces_json"]
    again = mx.space.ConfigSpaces.from_json_dict(s["spaces_json"])
    assert json.loads(json.dumps(again.to_json_dict())) == s["spaces_json"]
    with pytest.raises(RuntimeError, match="knob type"):
        mx.space.ConfigSpace.from_json_dict({"e": [["k", "sp", 1]], "s": []})


def test_libinfo(monkeypatch, tmp_path):
    funcs = sorted(n for n in dir(mx.libinfo) if n.startswith("find"))
    assert funcs == G["libinfo"]["public"]
    for var in ("MXNET_LIBRARY_PATH", "MXNET_INCLUDE_PATH", "MXNET_CONF_PATH"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(RuntimeError, match="Cannot find the MXNet library"):
        mx.libinfo.find_lib_path()
    with pytest.raises(MXNetError, match="Cannot find the MXNet include path"):
        mx.libinfo.find_include_path()
    with pytest.raises(MXNetError, match="Cannot find the TVM op config"):
        mx.libinfo.find_conf_path()
    lib = tmp_path / "libmxnet.so"
    lib.write_bytes(b"")
    monkeypatch.setenv("MXNET_LIBRARY_PATH", str(lib))
    monkeypatch.setenv("MXNET_INCLUDE_PATH", str(tmp_path))
    assert mx.libinfo.find_lib_path() == [str(lib)]
    assert mx.libinfo.find_include_path() == str(tmp_path)


def test_notebook_callback():
    names = sorted(n for n in G["notebook"]["public"] if not n.endswith("_Failed_To_Import"))
    assert [n for n in names if not hasattr(nbcb, n)] == []
    assert nbcb.args_wrapper() == {}

    class _CB:
        def __init__(self, tag):
            self.tag = tag

        def callback_args(self):
            return {"batch_end_callback": self.tag, "eval_end_callback": self.tag + "e"}

    assert nbcb.args_wrapper(_CB("a"), _CB("b")) == {
        "batch_end_callback": ["a", "b"], "eval_end_callback": ["ae", "be"]}
    if importlib.util.find_spec("pandas") is None:
        with pytest.raises(ImportError, match="PandasLogger needs pandas"):
            nbcb.PandasLogger(batch_size=4)
    if importlib.util.find_spec("bokeh") is None:
        with pytest.raises(ImportError, match="need bokeh"):
            nbcb.LiveLearningCurve("accuracy")


def test_torch_tvmop_kvstore_server():
    assert not hasattr(mx.th, "abs")
    with pytest.raises(AttributeError, match="USE_TORCH"):
        mx.th.abs  # noqa: B018
    import mxnet.kvstore.kvstore_server as ks
    assert ks.__all__ == G["kvstore_server_all"] and ks.KVStoreServer is mx.kv.KVStoreServer
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        importlib.reload(mx.tvmop)
    assert not mx.runtime.Features().is_enabled("TVM_OP")
