"""Train a small convolutional network with Gluon on scikit-learn's handwritten digits.

The data set ships inside scikit-learn: 1,797 real 8x8 grey images of the digits 0-9. An
80/20 split trains a hybridized LeNet-style network, logs like MXNet's Speedometer,
exports the model (-symbol.json + .params), plots the curves, and prints the test accuracy.

    python examples/train_digits.py [--epochs 12] [--out out/digits]
"""
from __future__ import annotations

import argparse
import logging
import os
import time

import numpy as np

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import nn


def load_digits(seed=0):
    from sklearn.datasets import load_digits as sk_digits
    d = sk_digits()
    x = (d.images.astype(np.float32) / 16.0)[:, None, :, :]      # (N, 1, 8, 8) in [0, 1]
    y = d.target.astype(np.float32)
    order = np.random.RandomState(seed).permutation(len(x))
    x, y = x[order], y[order]
    n_train = int(0.8 * len(x))
    return (x[:n_train], y[:n_train]), (x[n_train:], y[n_train:])


def build_net():
    net = nn.HybridSequential(prefix="digits_")
    with net.name_scope():
        net.add(nn.Conv2D(32, kernel_size=3, padding=1, activation="relu"),
                nn.Conv2D(32, kernel_size=3, padding=1, activation="relu"),
                nn.MaxPool2D(pool_size=2),
                nn.Conv2D(64, kernel_size=3, padding=1, activation="relu"),
                nn.MaxPool2D(pool_size=2),
                nn.Flatten(),
                nn.Dense(128, activation="relu"),
                nn.Dropout(0.25),
                nn.Dense(10))
    return net


def evaluate(net, x, y, batch_size=256):
    metric = mx.metric.Accuracy()
    for i in range(0, len(x), batch_size):
        out = net(mx.nd.array(x[i:i + batch_size]))
        metric.update([mx.nd.array(y[i:i + batch_size])], [out])
    return metric.get()[1]


def progress(iterable, total, desc):
    try:
        from tqdm import tqdm
        return tqdm(iterable, total=total, desc=desc, leave=False)
    except ImportError:
        return iterable


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=0.002)
    ap.add_argument("--out", default=os.path.join("out", "digits"))
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    mx.random.seed(args.seed)
    np.random.seed(args.seed)

    (xtr, ytr), (xte, yte) = load_digits(args.seed)
    net = build_net()
    net.initialize(mx.init.Xavier(magnitude=2.24))
    net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), "adam", {"learning_rate": args.lr})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    metric = mx.metric.Accuracy()

    history = {"loss": [], "train_acc": [], "test_acc": []}
    start = time.time()
    nbatch = (len(xtr) + args.batch_size - 1) // args.batch_size
    for epoch in range(args.epochs):
        perm = np.random.permutation(len(xtr))
        metric.reset()
        total_loss, tic, seen = 0.0, time.time(), 0
        for b in progress(range(nbatch), nbatch, f"epoch {epoch}"):
            idx = perm[b * args.batch_size:(b + 1) * args.batch_size]
            data, label = mx.nd.array(xtr[idx]), mx.nd.array(ytr[idx])
            with autograd.record():
                out = net(data)
                loss = loss_fn(out, label)
            loss.backward()
            trainer.step(len(idx))
            metric.update([label], [out])
            total_loss += float(loss.sum().asscalar())
            seen += len(idx)
            if (b + 1) % 20 == 0:
                name, acc = metric.get()
                logging.info("Epoch[%d] Batch [%d-%d]\tSpeed: %.2f samples/sec\t%s=%f",
                             epoch, b - 19, b + 1, seen / (time.time() - tic), name, acc)
        test_acc = evaluate(net, xte, yte)
        history["loss"].append(total_loss / len(xtr))
        history["train_acc"].append(metric.get()[1])
        history["test_acc"].append(test_acc)
        logging.info("Epoch[%d] Train-accuracy=%f", epoch, metric.get()[1])
        logging.info("Epoch[%d] Validation-accuracy=%f", epoch, test_acc)
        logging.info("Epoch[%d] Time cost=%.3f", epoch, time.time() - tic)

    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    net.export(args.out, epoch=args.epochs)
    np.savez(args.out + "-test.npz", x=xte, y=yte)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(1, 2, figsize=(9, 3.5))
        ax[0].plot(history["loss"], label="train loss")
        ax[0].set_xlabel("epoch")
        ax[0].legend()
        ax[1].plot(history["train_acc"], label="train")
        ax[1].plot(history["test_acc"], label="test")
        ax[1].set_xlabel("epoch")
        ax[1].set_ylabel("accuracy")
        ax[1].legend()
        fig.tight_layout()
        fig.savefig(args.out + "-curves.png", dpi=100)
    except ImportError:
        logging.info("matplotlib is not installed; skipping the plot")
    logging.info("Total time: %.1f s", time.time() - start)
    print(f"Test accuracy: {history['test_acc'][-1]:.4f}")


if __name__ == "__main__":
    main()
