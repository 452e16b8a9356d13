"""The code examples of README.md and docs/*.md run, and what they show holds.

Every fenced ```python block (and every fenced block holding a ``>>>`` session) is taken
from the documents the way a reader would copy it, and run in a fresh folder. Blocks that
are templates (they use names the reader supplies) get those names from a small setup
below; blocks with something to show get a check. A block that matches no entry of
``_SPECS`` still has to run without error, so a new example is covered as soon as it is
written.
"""
import contextlib
import doctest
import hashlib
import io
import json
import os
import pathlib
import re
import warnings

import numpy as np
import pytest

import mxnet as mx

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))

_FENCE = re.compile(r"^```([A-Za-z0-9_+-]*)[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def _blocks():
    """(id, language, code) of every fenced block of the documents."""
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for m in _FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found.append((f"{path.relative_to(ROOT)}:{line}", m.group(1), m.group(2)))
    return found


_ALL = _blocks()
PY_BLOCKS = [(bid, code) for bid, lang, code in _ALL if lang == "python"]
SESSIONS = [(bid, code) for bid, lang, code in _ALL if lang != "python" and ">>> " in code]


# ---------------------------------------------------------------------------------------------
# setups and checks, matched to a block by its document and a piece of its code

def _check_readme(ns, out, folder):
    # printed by 1.9.1 for this block (recorded from 1.9.1):
    #   [[ 4.7182817 11.389056 ]
    #    [26.085537  62.59815  ]]
    # NumPy's float32 exp can differ from 1.9.1's in the last ulp, so the last digit may too.
    shown = [float(v) for v in re.findall(r"[-+]?\d+\.\d*", out)]
    np.testing.assert_allclose(shown, [4.7182817, 11.389056, 26.085537, 62.59815], rtol=1e-6)
    x = np.array([[1, 2], [3, 4]], dtype=np.float64)
    np.testing.assert_allclose(ns["x"].grad.asnumpy(), 2 * x + np.exp(x), rtol=1e-6)


_CF_SETUP = """
import mxnet.symbol.control_flow as _cf
_cf._reset_names()          # subgraph names count per process, as in 1.9.1
"""

# sha256 of the loop-symbol.json that 1.9.1 writes for this block in a fresh process
# (recorded from 1.9.1: the block's class is named loop0_, its loop foreach0)
_CF_JSON_SHA256 = "b0b319ce78cc73b813fdadfa791c583756e61526ea89be0509f1f5fd78cb992d"


def _check_control_flow(ns, out, folder):
    assert ns["out"].shape == (5, 2, 3) and ns["h"].shape == (2, 3)
    text = (folder / "loop-symbol.json").read_text()
    nodes = json.loads(text)["nodes"]
    loop = [n for n in nodes if n["op"] == "_foreach"]
    assert len(loop) == 1 and "subgraphs" in loop[0]
    # the block's prefix depends on how many Loop blocks this process made before
    text = text.replace(ns["net"].prefix, "loop0_")
    assert hashlib.sha256(text.encode()).hexdigest() == _CF_JSON_SHA256


def _check_onnx(ns, out, folder):
    import onnx
    import onnxruntime as ort
    model = onnx.load(str(folder / "resnet18.onnx"))
    dim0 = model.graph.input[0].type.tensor_type.shape.dim[0]
    assert not dim0.HasField("dim_value")       # the batch size is left open
    sess = ort.InferenceSession(str(folder / "resnet18.onnx"))
    x = np.random.RandomState(0).rand(2, 3, 224, 224).astype(np.float32)
    got = sess.run(None, {sess.get_inputs()[0].name: x})[0]
    want = ns["net"](mx.nd.array(x)).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    assert len(ns["arg_params"]) + len(ns["aux_params"]) == len(ns["net"].collect_params())
    assert len(ns["sym"].list_outputs()) == 1


# names the quantization template expects from the reader: a saved float model "model"
# (with a layer fc_last), calibration data, a Gluon net and a DataLoader
_Q_SETUP = """
import numpy as np
import mxnet as mx
from mxnet import gluon
data = mx.sym.var("data")
fc1 = mx.sym.FullyConnected(data, num_hidden=8, name="fc1")
relu = mx.sym.Activation(fc1, act_type="relu", name="relu1")
fc_last = mx.sym.FullyConnected(relu, num_hidden=3, name="fc_last")
out = mx.sym.SoftmaxOutput(fc_last, name="softmax")
rng = np.random.RandomState(0)
shapes = {"fc1_weight": (8, 4), "fc1_bias": (8,), "fc_last_weight": (3, 8), "fc_last_bias": (3,)}
mx.model.save_checkpoint("model", 0, out,
                         {k: mx.nd.array(rng.randn(*s)) for k, s in shapes.items()}, {})
calib_x = rng.randn(256, 4).astype("float32")
net = gluon.nn.HybridSequential()
net.add(gluon.nn.Dense(8, activation="relu", in_units=4), gluon.nn.Dense(3, in_units=8))
mx.random.seed(0)
net.initialize(mx.init.Xavier())
data_loader = gluon.data.DataLoader(gluon.data.ArrayDataset(calib_x, np.zeros(256)),
                                    batch_size=32)
"""

# recorded from 1.9.1 (MXNET_SUBGRAPH_BACKEND=NONE, the configuration docs/quantization.md
# names) running _Q_SETUP and the block: sha256 of model-quantized-symbol.json and the first
# int8 weights and ranges of model-quantized-0000.params
_Q_JSON_SHA256 = "1dccc7cf64c0e51b544b353ce38a9d451cbcd225a25efb6d7692bee112c9500d"
_Q_PARAMS = {"fc1_bias_quantize": [-57, -127, -22], "fc1_weight_quantize": [88, 20, 49],
             "fc1_bias_quantize_max": [1.980796456336975],
             "fc1_weight_quantize_max": [2.5529897212982178]}


def _check_quantization(ns, out, folder):
    raw = (folder / "model-quantized-symbol.json").read_bytes()
    assert hashlib.sha256(raw).hexdigest() == _Q_JSON_SHA256
    params = mx.nd.load(str(folder / "model-quantized-0000.params"))
    for name, first in _Q_PARAMS.items():
        np.testing.assert_array_equal(params["arg:" + name].asnumpy().ravel()[:len(first)],
                                      np.array(first, dtype=params["arg:" + name].dtype))
    assert params["arg:fc1_weight_quantize"].dtype == np.int8
    assert isinstance(ns["qnet"], mx.gluon.SymbolBlock)
    x = mx.nd.array(ns["calib_x"][:4])
    np.testing.assert_allclose(ns["qnet"](x).asnumpy(), ns["net"](x).asnumpy(), atol=0.1)


# (document, a piece of the block's code) -> setup code, check, modules it needs, and a reason
# to skip it always (skip) or unless MXNET_TEST_DOCS_SLOW=1 (slow)
_SPECS = [
    ("README.md", "y.backward(); print(x.grad)", dict(check=_check_readme)),
    ("docs/control_flow.md", "F.contrib.foreach(step, x, [h0])",
     dict(setup=_CF_SETUP, check=_check_control_flow)),
    ("docs/onnx.md", "mx.onnx.export_model(",
     dict(check=_check_onnx, needs=("onnx", "onnxruntime"),
          slow="exporting ResNet-18 to ONNX takes about 2 s (tests/test_onnx covers the export "
               "of model-zoo networks); MXNET_TEST_DOCS_SLOW=1 runs it")),
    ("docs/quantization.md", "quantize_model(", dict(setup=_Q_SETUP, check=_check_quantization)),
]


def _spec(bid, code):
    doc = bid.rsplit(":", 1)[0]
    for sdoc, piece, spec in _SPECS:
        if sdoc == doc and piece in code:
            return spec
    return {}


def test_every_spec_matches_a_block():
    for sdoc, piece, _ in _SPECS:
        assert any(bid.rsplit(":", 1)[0] == sdoc and piece in code for bid, code in PY_BLOCKS), \
            f"no ```python block of {sdoc} contains {piece!r} any more"


@pytest.mark.parametrize("bid,code", PY_BLOCKS, ids=[b for b, _ in PY_BLOCKS])
def test_python_block(bid, code, tmp_path, monkeypatch):
    spec = _spec(bid, code)
    if spec.get("skip"):
        pytest.skip(spec["skip"])
    if spec.get("slow") and os.environ.get("MXNET_TEST_DOCS_SLOW", "0") in ("", "0"):
        pytest.skip(spec["slow"])
    for mod in spec.get("needs", ()):
        pytest.importorskip(mod, reason=f"{bid} needs the optional {mod!r} package")
    monkeypatch.chdir(tmp_path)
    ns = {"__name__": "__docs_example__"}
    buf = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(buf):
        warnings.simplefilter("ignore")
        if spec.get("setup"):
            exec(compile(spec["setup"], f"<setup of {bid}>", "exec"), ns)
        exec(compile(code, bid, "exec"), ns)
    if spec.get("check"):
        spec["check"](ns, buf.getvalue(), tmp_path)


def test_sessions(tmp_path, monkeypatch):
    """``>>>`` sessions in fenced blocks give the output they show."""
    monkeypatch.chdir(tmp_path)
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(
        optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    for bid, code in SESSIONS:
        test = parser.get_doctest(code, {"mx": mx, "np": np}, bid, bid, 0)
        result = runner.run(test, out=lambda s: None)
        assert result.failed == 0, f"{bid}: {result.failed} of {result.attempted} examples fail"
