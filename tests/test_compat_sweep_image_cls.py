"""Compatibility sweep of image-classification example code in the symbolic style (network
builders made with mx.sym, a fit.py-like Module.fit driver, score/predict scripts).
Expected values were recorded by running MXNet 1.9.1."""
from __future__ import annotations

import json
import logging
import re
import struct
import warnings
import zlib

import numpy as np
import pytest

import mxnet as mx


def _conv_bn_relu(data):
    c = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, pad=(1, 1), name="c")
    b = mx.sym.BatchNorm(c, name="bn")
    return mx.sym.Activation(b, act_type="relu")


def test_global_pool_output_is_known_when_the_spatial_size_is_not():
    # A global pool's output is 1 along every spatial axis, so partial inference gives it
    # (and the flatten/FullyConnected after it) even when H or W is still unknown.
    d = mx.sym.Variable("data")
    g = mx.sym.Pooling(_conv_bn_relu(d), kernel=(1, 1), global_pool=True, pool_type="avg")
    _, out, _ = g.infer_shape_partial(data=(2, 3, 0, 8))
    assert out == [(2, 4, 1, 1)]   # 1.9.1
    fc = mx.sym.FullyConnected(mx.sym.flatten(g), num_hidden=3, name="fc")
    args, out, _ = fc.infer_shape_partial(data=(2, 0, 0, 0))
    assert args == [(2, 0, 0, 0), (4, 0, 3, 3), (4,), (4,), (4,), (3, 4), (3,)]   # 1.9.1
    assert out == [(2, 3)]   # 1.9.1
    # an unknown batch stays unknown; channels-last keeps its channel axis last
    args, out, _ = fc.infer_shape_partial(data=(0, 3, 8, 0))
    assert out == [()] and args[-2:] == [(), ()]   # 1.9.1
    nhwc = mx.sym.Pooling(d, kernel=(2, 2), global_pool=True, pool_type="max", layout="NHWC")
    assert nhwc.infer_shape_partial(data=(2, 3, 0, 8))[1] == [(2, 1, 1, 8)]   # 1.9.1
    assert nhwc.infer_shape_partial(data=(0, 3, 8, 0))[1] == [(0, 1, 1, 0)]   # 1.9.1


def test_simple_bind_shape_error_lists_the_given_arguments():
    # 1.9.1 wraps a shape-inference failure in simple_bind (and so in Module.bind / fit) as
    # "simple_bind error. Arguments:\ndata: (8, 784)\n...<reason>", a RuntimeError
    d = mx.sym.Variable("data")
    c = mx.sym.Convolution(d, kernel=(5, 5), num_filter=2, name="c")
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(c, num_hidden=3), name="softmax")
    with pytest.raises(RuntimeError) as err:
        net.simple_bind(mx.cpu(), data=(8, 784))
    assert str(err.value).startswith("simple_bind error. Arguments:\ndata: (8, 784)\n")
    assert "operator c" in str(err.value)
    mod = mx.mod.Module(net, context=mx.cpu())
    with pytest.raises(RuntimeError) as err:
        mod.bind([("data", (8, 1, 28, 28))], [("softmax_label", (8, 1))])
    assert str(err.value).startswith(
        "simple_bind error. Arguments:\ndata: (8, 1, 28, 28)\nsoftmax_label: (8, 1)\n")
    with pytest.raises(RuntimeError) as err:
        net.simple_bind(mx.cpu(), softmax_label=(8,))
    assert str(err.value).startswith("simple_bind error. Arguments:\nsoftmax_label: (8,)\n")


def _png_bytes(img):
    """A minimal RGB PNG of a uint8 (h, w, 3) array."""
    h, w = img.shape[:2]
    rows = b"".join(b"\x00" + img[r].tobytes() for r in range(h))

    def chunk(tag, body):
        crc = zlib.crc32(tag + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", crc)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def _four_image_rec(tmp_path):
    rec = str(tmp_path / "img.rec")
    w = mx.recordio.MXRecordIO(rec, "w")
    for i, v in enumerate((10, 30, 50, 70)):
        w.write(mx.recordio.pack(mx.recordio.IRHeader(0, float(i), i, 0),
                                 _png_bytes(np.full((8, 8, 3), v, np.uint8))))
    w.close()
    return rec


def test_image_record_iter_logs_mean_image_creation_and_loading(tmp_path, capsys):
    pytest.importorskip("PIL")
    rec = _four_image_rec(tmp_path)
    mean = str(tmp_path / "mean.bin")
    kw = dict(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=2, preprocess_threads=1)
    capsys.readouterr()
    it = mx.io.ImageRecordIter(mean_img=mean, **kw)
    lines = [ln.split("] ", 1)[1] for ln in capsys.readouterr().err.splitlines()]
    assert lines == [   # 1.9.1, after the ImageRecordIOParser2 line
        f"../src/io/iter_image_recordio_2.cc:177: ImageRecordIOParser2: {rec}, use 1 threads "
        "for decoding..",
        f"../src/io/iter_image_recordio_2.cc:662: Cannot find {mean}: create mean image, this "
        "will take some time...",
        f"../src/io/iter_image_recordio_2.cc:700: Save mean image to {mean}.."]
    saved = mx.nd.load(mean)
    assert list(saved) == ["mean_img"]
    np.testing.assert_allclose(saved["mean_img"].asnumpy(), 40.0)
    np.testing.assert_allclose(it.next().data[0].asnumpy()[:, 0, 0, 0], [-30.0, -10.0])
    mx.io.ImageRecordIter(mean_img=mean, **kw)
    lines = [ln.split("] ", 1)[1] for ln in capsys.readouterr().err.splitlines()]
    assert lines[1:] == [f"../src/io/iter_image_recordio_2.cc:235: Load mean image from {mean}",
                         f"../src/io/iter_image_recordio_2.cc:253: Load mean image from {mean} "
                         "completed"]   # 1.9.1
    mx.io.ImageRecordIter(mean_img=str(tmp_path / "other.bin"), verbose=False, **kw)
    assert capsys.readouterr().err == ""   # 1.9.1: verbose=False silences all of them


def _old_conv_bn_json(version):
    """A pre-1.0 style file: operator parameters under 'param', a variable with 'attr'."""
    conv_param = {"cudnn_off": "False", "cudnn_tune": "off", "dilate": "(1,1)", "kernel": "(3,3)",
                  "no_bias": "False", "num_filter": "4", "num_group": "1", "pad": "(1,1)",
                  "stride": "(1,1)", "workspace": "512"}
    nodes = [
        {"op": "null", "param": {}, "name": "data", "inputs": [], "backward_source_id": -1},
        {"op": "null", "param": {}, "name": "conv_1_weight", "inputs": [],
         "backward_source_id": -1, "attr": {"lr_mult": "0.5"}},
        {"op": "null", "param": {}, "name": "conv_1_bias", "inputs": [], "backward_source_id": -1},
        {"op": "Convolution", "param": conv_param, "name": "conv_1",
         "inputs": [[0, 0], [1, 0], [2, 0]], "backward_source_id": -1},
        {"op": "null", "param": {}, "name": "bn_1_gamma", "inputs": [], "backward_source_id": -1},
        {"op": "null", "param": {}, "name": "bn_1_beta", "inputs": [], "backward_source_id": -1},
        {"op": "BatchNorm", "param": {"eps": "0.001", "fix_gamma": "True", "momentum": "0.9",
                                      "use_global_stats": "False"},
         "name": "bn_1", "inputs": [[3, 0], [4, 0], [5, 0]], "backward_source_id": -1}]
    doc = {"nodes": nodes, "arg_nodes": [0, 1, 2, 4, 5], "heads": [[6, 0]]}
    if version is not None:
        doc["attrs"] = {"mxnet_version": ["int", version]}
    return json.dumps(doc)


def test_attribute_order_of_operators_loaded_from_param_keys():
    # 1.9.1 reads a node's 'param' object into a hash map of its own and inserts its entries
    # into the node's attributes afterwards, so attr_dict() lists them in another order than
    # the same keys given under 'attrs'
    sym = mx.sym.load_json(_old_conv_bn_json(None))   # a v0.8 file, upgraded
    d = sym.attr_dict()
    assert list(d["conv_1"]) == ["cudnn_off", "pad", "cudnn_tune", "dilate", "num_filter",
                                 "kernel", "no_bias", "num_group", "stride", "workspace"]  # 1.9.1
    assert list(d["bn_1"]) == ["eps", "use_global_stats", "fix_gamma", "momentum"]  # 1.9.1
    assert list(d["bn_1_moving_var"]) == ["__init__", "eps", "use_global_stats", "fix_gamma",
                                          "momentum"]  # 1.9.1
    assert d["conv_1_weight"] == {"__lr_mult__": "0.5", "lr_mult": "0.5"}  # 1.9.1
    x = mx.sym.Variable("x")
    c = mx.sym.Convolution(x, kernel=(3, 3), num_filter=4, pad=(1, 1), stride=(1, 1),
                           dilate=(1, 1), num_group=1, workspace=512, no_bias=False,
                           cudnn_tune="off", cudnn_off=False, name="conv_1")
    doc = json.loads(c.tojson())
    doc["nodes"][-1]["attrs"] = dict(sorted(doc["nodes"][-1]["attrs"].items(), reverse=True))
    assert list(mx.sym.load_json(json.dumps(doc)).list_attr()) == [   # 1.9.1
        "cudnn_tune", "kernel", "no_bias", "dilate", "num_filter", "cudnn_off", "pad",
        "num_group", "stride", "workspace"]
    doc["nodes"][-1]["param"] = doc["nodes"][-1].pop("attrs")
    assert list(mx.sym.load_json(json.dumps(doc)).list_attr()) == [   # 1.9.1
        "workspace", "stride", "num_group", "pad", "cudnn_off", "num_filter", "dilate",
        "no_bias", "kernel", "cudnn_tune"]


def test_fit_py_style_training_log_lines(tmp_path, caplog, monkeypatch):
    # Module.fit with the options example/image-classification/common/fit.py passes: a
    # MultiFactorScheduler, acc + top_k_accuracy, Speedometer and do_checkpoint(period=2);
    # every line (but the speeds and times) as 1.9.1 logged it
    monkeypatch.chdir(tmp_path)
    rs = np.random.RandomState(0)
    x = rs.randn(24, 5).astype(np.float32)
    y = np.argmax(x.dot(rs.randn(5, 3)), axis=1).astype(np.float32)
    fc1 = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=8, name="fc1")
    fc2 = mx.sym.FullyConnected(mx.sym.Activation(fc1, act_type="relu"), num_hidden=3,
                                name="fc2")
    net = mx.sym.SoftmaxOutput(fc2, name="softmax")
    arg = {"fc1_weight": mx.nd.array(rs.randn(8, 5) * 0.5), "fc1_bias": mx.nd.zeros(8),
           "fc2_weight": mx.nd.array(rs.randn(3, 8) * 0.5), "fc2_bias": mx.nd.zeros(3)}
    train = mx.io.NDArrayIter(x, y, batch_size=4, label_name="softmax_label")
    val = mx.io.NDArrayIter(x[:8], y[:8], batch_size=4, label_name="softmax_label")
    mod = mx.mod.Module(net, context=mx.cpu())
    sched = mx.lr_scheduler.MultiFactorScheduler(step=[6, 12], factor=0.1)
    with caplog.at_level(logging.INFO), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mod.fit(train, eval_data=val, num_epoch=3, arg_params=arg, optimizer="sgd",
                kvstore="local",
                optimizer_params={"learning_rate": 0.5, "momentum": 0.9, "lr_scheduler": sched},
                eval_metric=["acc", mx.metric.create("top_k_accuracy", top_k=2)],
                batch_end_callback=mx.callback.Speedometer(4, 3),
                epoch_end_callback=mx.callback.do_checkpoint("ck", period=2))
    lines = [re.sub(r"Speed: [0-9.]+", "Speed: X", re.sub(r"cost=[0-9.]+", "cost=X", r.message))
             for r in caplog.records]
    assert lines == [   # 1.9.1
        "Epoch[0] Batch [0-3]\tSpeed: X samples/sec\taccuracy=0.437500\ttop_k_accuracy_2=0.812500",
        "Epoch[0] Train-accuracy=0.541667", "Epoch[0] Train-top_k_accuracy_2=0.875000",
        "Epoch[0] Time cost=X",
        "Epoch[0] Validation-accuracy=0.375000", "Epoch[0] Validation-top_k_accuracy_2=1.000000",
        "Update[7]: Change learning rate to 5.00000e-02",
        "Epoch[1] Batch [0-3]\tSpeed: X samples/sec\taccuracy=0.625000\ttop_k_accuracy_2=1.000000",
        "Epoch[1] Train-accuracy=0.541667", "Epoch[1] Train-top_k_accuracy_2=0.791667",
        "Epoch[1] Time cost=X", 'Saved checkpoint to "ck-0002.params"',
        "Epoch[1] Validation-accuracy=0.375000", "Epoch[1] Validation-top_k_accuracy_2=0.625000",
        "Update[13]: Change learning rate to 5.00000e-03",
        "Epoch[2] Batch [0-3]\tSpeed: X samples/sec\taccuracy=0.687500\ttop_k_accuracy_2=0.812500",
        "Epoch[2] Train-accuracy=0.583333", "Epoch[2] Train-top_k_accuracy_2=0.666667",
        "Epoch[2] Time cost=X",
        "Epoch[2] Validation-accuracy=0.375000", "Epoch[2] Validation-top_k_accuracy_2=0.625000"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ck-0002.params", "ck-symbol.json"]
    sums = {k: round(float(v.asnumpy().sum()), 3) for k, v in mod.get_params()[0].items()}
    assert sums == {"fc1_bias": -11.807, "fc1_weight": -14.907, "fc2_bias": 0.0,   # 1.9.1
                    "fc2_weight": -2.597}


def test_image_record_iter_logs_the_image_list_before_the_parser(tmp_path, capsys):
    pytest.importorskip("PIL")
    rec = _four_image_rec(tmp_path)
    lst = tmp_path / "img.lst"
    lst.write_text("".join(f"{i}\t{i % 3}\t0.5\tx{i}.png\n" for i in range(4)))
    kw = dict(path_imgrec=rec, path_imglist=str(lst), label_width=2, data_shape=(3, 8, 8),
              batch_size=2, preprocess_threads=1)
    capsys.readouterr()
    it = mx.io.ImageRecordIter(**kw)
    lines = [ln.split("] ", 1)[1] for ln in capsys.readouterr().err.splitlines()]
    assert lines == [   # 1.9.1
        f"../src/io/./image_iter_common.h:76: Loaded ImageList from {lst} 4 Image records",
        f"../src/io/iter_image_recordio_2.cc:177: ImageRecordIOParser2: {rec}, use 1 threads "
        "for decoding.."]
    assert it.next().label[0].asnumpy().tolist() == [[0.0, 0.5], [1.0, 0.5]]
    mx.io.ImageRecordIter(verbose=False, **kw)
    assert capsys.readouterr().err == ""
