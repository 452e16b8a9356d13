"""Train a symbolic network with the Module API on scikit-learn's handwritten digits.

The 1,797 8x8 digit images (shipped with scikit-learn) are split 80/20. A multilayer
perceptron (or, with ``--net cnn``, a small convolutional network) is written with
``mx.sym`` and trained by ``Module.fit`` on two devices (``mx.cpu(0)`` and ``mx.cpu(1)``:
each batch is split between them and the gradients summed through a KVStore). Progress
is logged by ``Speedometer``; every epoch is checkpointed with ``do_checkpoint``; the
last line printed is the final validation accuracy.

    python examples/module_digits.py [--net mlp|cnn] [--epochs 10] [--out out/module_digits]
"""
from __future__ import annotations

import argparse
import logging
import os

import numpy as np

import mxnet as mx
import mxnet.callback
import mxnet.io
import mxnet.module


def load_digits(seed=0, flat=True):
    from sklearn.datasets import load_digits as sk_digits
    d = sk_digits()
    x = d.images.astype(np.float32) / 16.0
    x = x.reshape(len(x), -1) if flat else x[:, None, :, :]
    y = d.target.astype(np.float32)
    order = np.random.RandomState(seed).permutation(len(x))
    x, y = x[order], y[order]
    n_train = int(0.8 * len(x))
    return (x[:n_train], y[:n_train]), (x[n_train:], y[n_train:])


def mlp():
    net = mx.sym.var("data")
    net = mx.sym.FullyConnected(net, num_hidden=128, name="fc1")
    net = mx.sym.Activation(net, act_type="relu", name="relu1")
    net = mx.sym.FullyConnected(net, num_hidden=64, name="fc2")
    net = mx.sym.Activation(net, act_type="relu", name="relu2")
    net = mx.sym.FullyConnected(net, num_hidden=10, name="fc3")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def cnn():
    net = mx.sym.var("data")
    net = mx.sym.Convolution(net, kernel=(3, 3), pad=(1, 1), num_filter=16, name="conv1")
    net = mx.sym.Activation(net, act_type="relu", name="relu1")
    net = mx.sym.Pooling(net, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool1")
    net = mx.sym.Flatten(net, name="flat")
    net = mx.sym.FullyConnected(net, num_hidden=64, name="fc1")
    net = mx.sym.Activation(net, act_type="relu", name="relu2")
    net = mx.sym.FullyConnected(net, num_hidden=10, name="fc2")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--net", choices=("mlp", "cnn"), default="mlp")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--out", default=os.path.join("out", "module_digits"))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s:%(message)s")
    mx.random.seed(0)
    np.random.seed(0)

    (x_train, y_train), (x_val, y_val) = load_digits(flat=args.net == "mlp")
    train = mx.io.NDArrayIter(x_train, y_train, batch_size=args.batch_size, shuffle=True)
    val = mx.io.NDArrayIter(x_val, y_val, batch_size=args.batch_size)

    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    sym = mlp() if args.net == "mlp" else cnn()
    mod = mx.module.Module(sym, context=[mx.cpu(0), mx.cpu(1)])
    mod.fit(train, eval_data=val, eval_metric="acc", num_epoch=args.epochs,
            initializer=mx.init.Xavier(magnitude=2.0), optimizer="sgd",
            optimizer_params=(("learning_rate", 0.1), ("momentum", 0.9), ("wd", 1e-4)),
            batch_end_callback=mx.callback.Speedometer(args.batch_size, 20),
            epoch_end_callback=mx.callback.do_checkpoint(args.out))

    acc = dict(mod.score(val, "acc"))["accuracy"]
    print(f"Validation accuracy: {acc:.4f}")
    return acc


if __name__ == "__main__":
    main()
