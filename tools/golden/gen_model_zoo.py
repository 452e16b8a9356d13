"""Record architecture facts of 1.9.1's gluon.model_zoo.vision models as golden fixtures.

Run under the reference venv, from a directory other than the repository root:

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python /work/main/tools/golden/gen_model_zoo.py

For every name in get_model's table it stores the class, prefix, parameter names (without the
prefix) and shapes in collect_params order, before and after one forward pass, the parameter
count, the keys save_parameters writes and the output shape. For a few small variants it also
stores the output for deterministic weights (fill_value) and input (input_value), and the
reprs of a few models, get_model's error text and model_store's SHA-1 table.
Writes tests/golden/model_zoo.json.
"""
import inspect
import json
import os

import mxnet as mx
import numpy as np
from mxnet.gluon.model_zoo import model_store, vision

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "golden",
                   "model_zoo.json")

NAMES = ["alexnet",
         "vgg11", "vgg13", "vgg16", "vgg19", "vgg11_bn", "vgg13_bn", "vgg16_bn", "vgg19_bn",
         "resnet18_v1", "resnet34_v1", "resnet50_v1", "resnet101_v1", "resnet152_v1",
         "resnet18_v2", "resnet34_v2", "resnet50_v2", "resnet101_v2", "resnet152_v2",
         "densenet121", "densenet161", "densenet169", "densenet201",
         "squeezenet1.0", "squeezenet1.1", "inceptionv3",
         "mobilenet1.0", "mobilenet0.75", "mobilenet0.5", "mobilenet0.25",
         "mobilenetv2_1.0", "mobilenetv2_0.75", "mobilenetv2_0.5", "mobilenetv2_0.25"]

# (key, model name, kwargs, input shape): small variants whose outputs the tests compare
# numerically, with every parameter filled by fill_value() and the input by input_value()
VARIANTS = [
    ("resnet18_v1_thumb", "resnet18_v1", {"thumbnail": True, "classes": 10}, (2, 3, 32, 32)),
    ("resnet18_v2_thumb", "resnet18_v2", {"thumbnail": True, "classes": 10}, (2, 3, 32, 32)),
    ("resnet50_v1_thumb", "resnet50_v1", {"thumbnail": True, "classes": 10}, (1, 3, 32, 32)),
    ("resnet50_v2_thumb", "resnet50_v2", {"thumbnail": True, "classes": 10}, (1, 3, 32, 32)),
    ("resnet18_v1_64", "resnet18_v1", {"classes": 7}, (1, 3, 64, 64)),
    ("resnet34_v2_64", "resnet34_v2", {"classes": 7}, (1, 3, 64, 64)),
    ("alexnet_64", "alexnet", {"classes": 10}, (1, 3, 64, 64)),
    ("vgg11_bn_32", "vgg11_bn", {"classes": 10}, (1, 3, 32, 32)),
    ("vgg11_32", "vgg11", {"classes": 10}, (1, 3, 32, 32)),
    ("squeezenet1.0_224", "squeezenet1.0", {"classes": 10}, (1, 3, 224, 224)),
    ("squeezenet1.1_224", "squeezenet1.1", {"classes": 10}, (1, 3, 224, 224)),
    ("mobilenet0.25_64", "mobilenet0.25", {"classes": 10}, (1, 3, 64, 64)),
    ("mobilenetv2_0.25_64", "mobilenetv2_0.25", {"classes": 10}, (1, 3, 64, 64)),
    ("mobilenetv2_1.5_32", "get_mobilenet_v2:1.5", {"classes": 10}, (1, 3, 32, 32)),
    ("mobilenet1.5_32", "get_mobilenet:1.5", {"classes": 10}, (1, 3, 32, 32)),
    ("densenet121_224", "densenet121", {"classes": 10}, (1, 3, 224, 224)),
    ("inceptionv3_299", "inceptionv3", {"classes": 10}, (1, 3, 299, 299)),
]

REPRS = ["alexnet", "squeezenet1.1", "mobilenetv2_0.25", "resnet18_v1", "resnet18_v2"]


def _prod(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def fill_value(name, shape, index):
    """Deterministic parameter values: smooth in the index, scaled so activations stay O(1)."""
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


def build(name, kwargs):
    """``get_model(name)``, or ``vision.<factory>(<multiplier>)`` for names 'factory:multiplier'."""
    with mx.name.NameManager():
        if ":" in name:
            factory, arg = name.split(":")
            return getattr(vision, factory)(float(arg), **kwargs)
        return vision.get_model(name, **kwargs)


def describe(name, kwargs, shape):
    net = build(name, kwargs)
    before = [list(p.shape) if p.shape is not None else None for p in net.collect_params().values()]
    net.initialize(mx.init.Xavier())
    out = net(mx.nd.array(input_value(shape)))
    params = net.collect_params()
    prefix = net.prefix
    return {
        "name": name, "kwargs": kwargs, "input": list(shape), "class": type(net).__name__,
        "prefix": prefix, "names": [p.name[len(prefix):] for p in params.values()],
        "shapes": [list(p.shape) for p in params.values()], "shapes_before": before,
        "num_params": sum(_prod(p.shape) for p in params.values()),
        "save_keys": list(net._collect_params_with_prefix().keys()),
        "output_shape": list(out.shape),
    }


def numeric(name, kwargs, shape):
    entry = describe(name, kwargs, shape)
    net = build(name, kwargs)
    net.initialize()
    x = mx.nd.array(input_value(shape))
    net(x)
    for i, p in enumerate(net.collect_params().values()):
        p.set_data(mx.nd.array(fill_value(p.name, p.shape, i)))
    out = net(x).asnumpy()
    entry["output"] = out.astype(np.float64).round(6).tolist()
    return entry


def standalone_blocks():
    """Residual blocks built outside any network (their children are not under their prefix)."""
    blocks = {}
    for cls in ("BasicBlockV1", "BottleneckV1", "BasicBlockV2", "BottleneckV2"):
        with mx.name.NameManager():
            block = getattr(vision, cls)(64, 2, True, in_channels=32)
        blocks[cls] = {"prefix": block.prefix, "children": list(block._children.keys()),
                       "params": [[p.name, list(p.shape)] for p in block.collect_params().values()]}
    with mx.name.NameManager():
        block = vision.mobilenet.LinearBottleneck(8, 8, 6, 1)
    blocks["LinearBottleneck"] = {
        "prefix": block.prefix, "children": list(block._children.keys()),
        "params": [[p.name, list(p.shape)] for p in block.collect_params().values()]}
    return blocks


def main():
    models = {}
    for name in NAMES:
        shape = (1, 3, 299, 299) if name == "inceptionv3" else (1, 3, 224, 224)
        models[name] = describe(name, {}, shape)
        print(name, models[name]["num_params"], flush=True)
    variants = {}
    for key, name, kw, shape in VARIANTS:
        variants[key] = numeric(name, kw, shape)
        print(key, variants[key]["output_shape"], flush=True)
    reprs = {}
    for name in REPRS:
        reprs[name] = repr(build(name, {}))
    try:
        vision.get_model("resnet19_v1")
    except ValueError as e:
        unsupported = str(e)
    data = {
        "models": models, "variants": variants, "reprs": reprs,
        "unsupported_error": unsupported,
        "blocks": standalone_blocks(),
        "vision_names": sorted(n for n in dir(vision) if not n.startswith("_") and
                               not inspect.ismodule(getattr(vision, n))),
        "sha1": dict(sorted(model_store._model_sha1.items())),
        "short_hash": {n: model_store.short_hash(n) for n in sorted(model_store._model_sha1)},
        "default_root": os.path.join("~", ".mxnet", "models"),
        "repo_url": model_store.apache_repo_url,
    }
    with open(OUT, "w") as f:
        f.write("{\n")
        items = list(data.items())
        for i, (key, value) in enumerate(items):
            if isinstance(value, dict) and key in ("models", "variants"):
                f.write(f"{json.dumps(key)}: {{\n")
                rows = [f"{json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}"
                        for k, v in value.items()]
                f.write(",\n".join(rows) + "\n}")
            else:
                f.write(f"{json.dumps(key)}: {json.dumps(value)}")
            f.write(",\n" if i < len(items) - 1 else "\n")
        f.write("}\n")


if __name__ == "__main__":
    main()
