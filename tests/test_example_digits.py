"""The main example trains on real data, exports, and the export reloads with the same accuracy."""
import os
import subprocess
import sys

import numpy as np
import pytest

import mxnet as mx

pytest.importorskip("sklearn")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.slow
def test_train_digits_reaches_97_percent_and_export_reloads(tmp_path):
    out = str(tmp_path / "digits")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    res = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "train_digits.py"),
                          "--out", out], capture_output=True, text=True, env=env, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    last = res.stdout.strip().splitlines()[-1]
    assert last.startswith("Test accuracy: ")
    acc = float(last.split(": ")[1])
    assert acc >= 0.97
    assert "Epoch[0] Batch [0-20]\tSpeed: " in res.stderr  # Speedometer-style log lines
    assert os.path.exists(out + "-curves.png")

    epochs = 12
    block = mx.gluon.SymbolBlock.imports(out + "-symbol.json", ["data"], f"{out}-{epochs:04d}.params")
    test = np.load(out + "-test.npz")
    pred = block(mx.nd.array(test["x"])).asnumpy().argmax(axis=1)
    reloaded = float((pred == test["y"]).mean())
    assert abs(reloaded - acc) < 1e-4  # acc was printed with 4 decimals
