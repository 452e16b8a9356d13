"""examples/module_digits.py trains to > 95% validation accuracy on two devices and its
checkpoints reload into a Module that scores the same."""
import importlib.util
import os

import pytest

import mxnet.io
import mxnet.module

pytest.importorskip("sklearn")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _example():
    spec = importlib.util.spec_from_file_location(
        "module_digits", os.path.join(ROOT, "examples", "module_digits.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
def test_module_digits_example(tmp_path, capsys):
    ex = _example()
    out = str(tmp_path / "md")
    acc = ex.main(["--epochs", "8", "--out", out])
    assert acc > 0.95
    assert capsys.readouterr().out.strip().splitlines()[-1] == f"Validation accuracy: {acc:.4f}"
    assert os.path.exists(out + "-symbol.json") and os.path.exists(out + "-0008.params")
    (_, _), (x_val, y_val) = ex.load_digits()
    mod = mxnet.module.Module.load(out, 8)
    val = mxnet.io.NDArrayIter(x_val, y_val, batch_size=32)
    mod.bind(val.provide_data, val.provide_label, for_training=False)
    assert dict(mod.score(val, "acc"))["accuracy"] == pytest.approx(acc, abs=1e-6)
