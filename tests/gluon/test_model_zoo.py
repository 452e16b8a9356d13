"""gluon.model_zoo.vision against facts recorded from MXNet 1.9.1 (tools/golden/gen_model_zoo.py).

Structure is checked for every architecture without running it: parameter names, shapes before
and after shape inference, counts, save_parameters keys and output shapes all come from
``infer_shape``. Forward passes run on small variants with deterministic weights and compare
the outputs with 1.9.1's.
"""
import json
import os
import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.gluon import model_zoo
from mxnet.gluon.model_zoo import model_store, vision

GOLDEN_PATH = os.path.join(os.path.dirname(__file__), "..", "golden", "model_zoo.json")
with open(GOLDEN_PATH) as _f:
    GOLDEN = json.load(_f)

MODELS = GOLDEN["models"]
VARIANTS = GOLDEN["variants"]
# forward checks that take seconds on two cores
SLOW_VARIANTS = {"densenet121_224", "inceptionv3_299", "alexnet_64", "vgg11_32", "vgg11_bn_32"}


def _prod(shape):
    n = 1
    for d in shape:
        n *= d
    return n


# the same formulas as tools/golden/gen_model_zoo.py
def fill_value(name, shape, index):
    base = np.sin(np.arange(_prod(shape), dtype=np.float64) * 0.61 + index * 1.3)
    if name.endswith("running_var"):
        v = 1.0 + 0.5 * np.abs(base)
    elif name.endswith("gamma"):
        v = 1.0 + 0.1 * base
    elif name.endswith(("beta", "bias", "running_mean")):
        v = 0.1 * base
    else:
        v = base * np.sqrt(3.0 / max(_prod(shape[1:]), 1))
    return v.reshape(shape).astype(np.float32)


def input_value(shape):
    return np.cos(np.arange(_prod(shape), dtype=np.float64) * 0.37).reshape(shape).astype(np.float32)


def build(name, kwargs=None):
    kwargs = kwargs or {}
    with mx.name.NameManager():
        if ":" in name:
            factory, arg = name.split(":")
            return getattr(vision, factory)(float(arg), **kwargs)
        return vision.get_model(name, **kwargs)


def _param_shapes(net):
    return [list(p.shape) if p.shape is not None else None for p in net.collect_params().values()]


def _check_structure(net, gold):
    assert type(net).__name__ == gold["class"]
    assert net.prefix == gold["prefix"]
    params = net.collect_params()
    assert [p.name for p in params.values()] == [gold["prefix"] + n for n in gold["names"]]
    assert list(net._collect_params_with_prefix().keys()) == gold["save_keys"]


# -- structure of every architecture ---------------------------------------------------------

@pytest.mark.parametrize("name", list(MODELS))
def test_structure(name):
    gold = MODELS[name]
    net = build(name)
    _check_structure(net, gold)
    assert _param_shapes(net) == gold["shapes_before"]
    net.infer_shape(mx.nd.zeros(tuple(gold["input"])))
    assert _param_shapes(net) == gold["shapes"]
    assert sum(_prod(p.shape) for p in net.collect_params().values()) == gold["num_params"]
    out = net(mx.sym.var("data"))
    _, out_shapes, _ = out.infer_shape(data=tuple(gold["input"]))
    assert [list(s) for s in out_shapes] == [gold["output_shape"]]


def test_golden_covers_get_model_table():
    assert sorted(MODELS) == sorted(vision._models)


def test_vision_public_names():
    import inspect
    ours = {n for n in dir(vision) if not n.startswith("_")
            and not inspect.ismodule(getattr(vision, n))}
    assert set(GOLDEN["vision_names"]) <= ours


@pytest.mark.parametrize("cls", list(GOLDEN["blocks"]))
def test_standalone_blocks(cls):
    gold = GOLDEN["blocks"][cls]
    with mx.name.NameManager():
        if cls == "LinearBottleneck":
            block = vision.mobilenet.LinearBottleneck(8, 8, 6, 1)
        else:
            block = getattr(vision, cls)(64, 2, True, in_channels=32)
    assert block.prefix == gold["prefix"]
    assert list(block._children.keys()) == gold["children"]
    assert [[p.name, list(p.shape)] for p in block.collect_params().values()] == gold["params"]


@pytest.mark.parametrize("name", list(GOLDEN["reprs"]))
def test_repr(name):
    assert repr(build(name)) == GOLDEN["reprs"][name]


# -- forward passes against 1.9.1 ------------------------------------------------------------

def _filled(gold):
    net = build(gold["name"], gold["kwargs"])
    x = mx.nd.array(input_value(tuple(gold["input"])))
    _check_structure(net, gold)
    net.infer_shape(x)
    assert _param_shapes(net) == gold["shapes"]
    for i, p in enumerate(net.collect_params().values()):
        p.initialize(init=mx.init.Zero())
        p.set_data(mx.nd.array(fill_value(p.name, p.shape, i)))
    return net, x


@pytest.mark.parametrize("key", [
    pytest.param(k, marks=pytest.mark.slow) if k in SLOW_VARIANTS else k for k in VARIANTS])
def test_forward_matches_reference(key):
    gold = VARIANTS[key]
    net, x = _filled(gold)
    out = net(x)
    assert list(out.shape) == gold["output_shape"]
    np.testing.assert_allclose(out.asnumpy(), np.array(gold["output"]), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("key", ["resnet18_v2_thumb", "mobilenetv2_0.25_64", "squeezenet1.1_224"])
def test_hybridized_forward_matches_reference(key):
    gold = VARIANTS[key]
    net, x = _filled(gold)
    net.hybridize()
    for _ in range(2):  # the first call traces, the second runs the cached graph
        out = net(x)
        np.testing.assert_allclose(out.asnumpy(), np.array(gold["output"]), rtol=1e-4, atol=1e-4)


def test_export_and_import_round_trip(tmp_path):
    gold = VARIANTS["mobilenetv2_0.25_64"]
    net, x = _filled(gold)
    net.hybridize()
    net(x)
    net.export(str(tmp_path / "mnv2"))
    block = mx.gluon.SymbolBlock.imports(str(tmp_path / "mnv2-symbol.json"), ["data"],
                                         str(tmp_path / "mnv2-0000.params"))
    np.testing.assert_allclose(block(x).asnumpy(), np.array(gold["output"]), rtol=1e-4, atol=1e-4)


def test_deferred_init_forward_gives_classes():
    net = vision.resnet18_v1(thumbnail=True, classes=5)
    net.initialize()
    assert net(mx.nd.ones((3, 3, 32, 32))).shape == (3, 5)


# -- get_model and constructors --------------------------------------------------------------

def test_get_model_unsupported_message():
    with pytest.raises(ValueError) as e:
        vision.get_model("resnet19_v1")
    assert str(e.value) == GOLDEN["unsupported_error"]


def test_get_model_is_case_insensitive_and_passes_kwargs():
    net = model_zoo.get_model("ResNet18_V2", classes=3, thumbnail=True)
    assert isinstance(net, vision.ResNetV2)
    assert net.output._units == 3


@pytest.mark.parametrize("call, message", [
    (lambda: vision.get_resnet(1, 19), "Invalid number of layers"),
    (lambda: vision.get_resnet(3, 18), "Invalid resnet version"),
    (lambda: vision.get_vgg(12), "Invalid number of layers"),
    (lambda: vision.SqueezeNet("1.2"), "Unsupported SqueezeNet version"),
])
def test_constructor_errors(call, message):
    with pytest.raises((ValueError, AssertionError, MXNetError), match=message):
        call()


def test_resnet_classes_accept_custom_specs():
    net = vision.ResNetV1(vision.BasicBlockV1, [1, 1], [8, 8, 16], classes=4, thumbnail=True)
    net.initialize()
    assert net(mx.nd.ones((1, 3, 8, 8))).shape == (1, 4)


# -- pretrained weight files -----------------------------------------------------------------

def test_sha1_table_and_short_hash():
    assert model_store._model_sha1 == GOLDEN["sha1"]
    for name, short in GOLDEN["short_hash"].items():
        assert model_store.short_hash(name) == short
    with pytest.raises(ValueError):
        model_store.short_hash("resnet19_v1")


def test_default_root_follows_mxnet_home(monkeypatch, tmp_path):
    monkeypatch.setenv("MXNET_HOME", str(tmp_path))
    assert model_store.default_root() == os.path.join(str(tmp_path), "models")
    monkeypatch.delenv("MXNET_HOME")
    assert model_store.default_root() == os.path.expanduser(os.path.join("~", ".mxnet", "models"))


@pytest.mark.parametrize("ctor, kwargs, file_name", [
    (vision.resnet18_v1, {}, "resnet18_v1-a0666292"),
    (vision.vgg11_bn, {}, "vgg11_bn-ee79a809"),
    (vision.mobilenet0_5, {}, "mobilenet0.5-8e9d539c"),
    (vision.mobilenet_v2_1_0, {}, "mobilenetv2_1.0-36da4ff1"),
    (vision.squeezenet1_1, {}, "squeezenet1.1-33ba0f93"),
    (vision.inception_v3, {}, "inceptionv3-ed47ec45"),
    (vision.densenet121, {}, "densenet121-f27dbf2d"),
    (vision.alexnet, {}, "alexnet-44335d1f"),
])
def test_pretrained_missing_file_says_where_to_put_it(tmp_path, ctor, kwargs, file_name):
    with pytest.raises(MXNetError) as e:
        ctor(pretrained=True, root=str(tmp_path), **kwargs)
    msg = str(e.value)
    assert os.path.join(str(tmp_path), file_name + ".params") in msg
    assert "not found" in msg


def _small_pair(name="resnet18_v1"):
    src = build(name, {"thumbnail": True, "classes": 10})
    src.initialize(mx.init.Uniform(0.1))
    src(mx.nd.ones((1, 3, 32, 32)))
    return src


def test_pretrained_loads_hashed_file(tmp_path):
    src = _small_pair()
    path = tmp_path / f"resnet18_v1-{model_store.short_hash('resnet18_v1')}.params"
    src.save_parameters(str(path))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        net = vision.resnet18_v1(pretrained=True, root=str(tmp_path), thumbnail=True, classes=10,
                                     ctx=mx.current_context())
    assert any("SHA-1" in str(w.message) for w in caught)
    for a, b in zip(src.collect_params().values(), net.collect_params().values()):
        np.testing.assert_array_equal(a.data().asnumpy(), b.data().asnumpy())
    x = mx.nd.array(input_value((1, 3, 32, 32)))
    np.testing.assert_allclose(net(x).asnumpy(), src(x).asnumpy(), rtol=1e-6)


def test_pretrained_falls_back_to_plain_name(tmp_path):
    src = _small_pair("resnet18_v2")
    src.save_parameters(str(tmp_path / "resnet18_v2.params"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        net = model_zoo.get_model("resnet18_v2", pretrained=True, root=str(tmp_path),
                                  thumbnail=True, classes=10)
    w = net.collect_params()[net.prefix + "conv0_weight"].data().asnumpy()
    np.testing.assert_array_equal(w, src.collect_params()[src.prefix + "conv0_weight"].data().asnumpy())


def test_get_model_file_and_purge(tmp_path):
    path = tmp_path / "alexnet-44335d1f.params"
    path.write_bytes(b"x")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert model_store.get_model_file("alexnet", root=str(tmp_path)) == str(path)
    model_store.purge(root=str(tmp_path))
    assert not path.exists()
