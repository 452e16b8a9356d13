"""Replay tools/golden/gen_module.py's scenarios against 1.9.1's recorded results, and
load / write checkpoints interchangeably with the files 1.9.1 wrote."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
import mxnet.callback
import mxnet.io
import mxnet.model
import mxnet.module
import mxnet.monitor

from .._scripts import load_script

REPO = Path(__file__).resolve().parents[2]
GOLDEN_DIR = REPO / "tests" / "golden" / "module"
REGENERATE = ("cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python "
              "/work/main/tools/golden/gen_module.py")


def _load_table():
    return load_script("tools/golden/gen_module.py", "golden_module_scenarios")


class _MX:
    """``mx`` with the 1.9.1 aliases the scenarios use (``mx.mod``, ``mx.mon`` ...),
    whether or not the package exports them yet."""

    mod = mxnet.module
    mon = mxnet.monitor
    model = mxnet.model
    callback = mxnet.callback
    io = mxnet.io

    def __getattr__(self, name):
        return getattr(mx, name)


MX = _MX()
TABLE = _load_table()
ARRAYS = np.load(GOLDEN_DIR / "module.npz")
EXTRAS = json.loads((GOLDEN_DIR / "module.json").read_text())


def _golden_arrays(name):
    prefix = name + "/"
    return {k[len(prefix):]: ARRAYS[k] for k in ARRAYS.files if k.startswith(prefix)}


def _compare_arrays(got, want, where):
    assert sorted(got) == sorted(want), f"{where}: keys {sorted(got)} != {sorted(want)}"
    for key, ref in want.items():
        val = np.asarray(got[key])
        assert val.shape == ref.shape, f"{where}/{key}: shape {val.shape} != {ref.shape}"
        if ref.dtype.kind in "fc":
            np.testing.assert_allclose(val, ref, rtol=1e-5, atol=1e-6, err_msg=f"{where}/{key}")
        else:
            np.testing.assert_array_equal(val, ref, err_msg=f"{where}/{key}")


def _compare_rows(got, want, where):
    """Monitor rows: steps and names exactly, the tab-terminated values numerically."""
    assert len(got) == len(want), f"{where}: {len(got)} rows != {len(want)}"
    for g, w in zip(got, want):
        assert list(g[:2]) == list(w[:2]), f"{where}: {g[:2]} != {w[:2]}"
        assert g[2].endswith("\t")
        np.testing.assert_allclose([float(v) for v in g[2].split("\t")[:-1]],
                                   [float(v) for v in w[2].split("\t")[:-1]], rtol=1e-5,
                                   err_msg=f"{where}: {g[1]}")


def _compare_monitor_log(got, want):
    assert len(got) == len(want)
    pat = re.compile(r"^(INFO:Batch: +\d+ .{30} )(\S+)\t$")
    for g, w in zip(got, want):
        mg, mw = pat.match(g), pat.match(w)
        assert mg and mw, (g, w)
        assert mg.group(1) == mw.group(1)
        assert float(mg.group(2)) == pytest.approx(float(mw.group(2)), rel=1e-5)


@pytest.mark.parametrize("name", list(TABLE.SCENARIOS))
def test_scenario_matches_1_9_1(name, monkeypatch):
    if f"{name}/" not in "".join(f"{k.split('/')[0]}/" for k in ARRAYS.files) \
            and name not in EXTRAS:
        pytest.fail(f"no golden entry for {name}; regenerate with: {REGENERATE}")
    monkeypatch.delenv("MXNET_UPDATE_ON_KVSTORE", raising=False)
    result = TABLE.SCENARIOS[name](MX)
    arrays, extras = TABLE._split(result)
    _compare_arrays(arrays, _golden_arrays(name), name)
    want = EXTRAS.get(name, {})
    assert sorted(extras) == sorted(want)
    for key, value in extras.items():
        if key in ("rows", "rows_train"):
            _compare_rows(value, want[key], f"{name}/{key}")
        elif name == "monitor" and key == "log":
            _compare_monitor_log(value, want[key])
        else:  # log lines (speeds and times masked) and file names: exactly
            assert value == want[key], f"{name}/{key}"


# -- checkpoints both ways -------------------------------------------------------------------
def _ckpt_prefix():
    return str(GOLDEN_DIR / TABLE.CKPT_PREFIX)


def test_load_checkpoint_written_by_1_9_1_and_resume():
    want = _golden_arrays("checkpoint")
    mod = MX.mod.Module.load(_ckpt_prefix(), 3, load_optimizer_states=True)
    x, y = TABLE.dataset()
    it = MX.io.NDArrayIter(x, y, batch_size=8)
    mod.bind(it.provide_data, it.provide_label)
    arg, aux = mod.get_params()
    for k, v in list(arg.items()) + list(aux.items()):
        kind = "arg" if k in arg else "aux"
        np.testing.assert_array_equal(v.asnumpy(), want[f"saved/{kind}:{k}"])
    # the momentum comes back from the .states file 1.9.1 pickled
    mod.init_optimizer(kvstore=None, optimizer=TABLE.SGD[0], optimizer_params=TABLE.SGD[1])
    for i, b in enumerate(it):
        if i == 2:
            break
        mod.forward_backward(b)
        mod.update()
    got = TABLE.params_out(mod, "resumed/")
    for k, v in got.items():
        np.testing.assert_allclose(v, want[k], rtol=1e-5, atol=1e-6, err_msg=k)


def test_model_load_checkpoint_keys():
    sym, arg, aux = MX.model.load_checkpoint(_ckpt_prefix(), 3)
    assert sorted(arg) == sorted(n for n in sym.list_arguments()
                                 if n not in ("data", "softmax_label"))
    assert sorted(aux) == sorted(sym.list_auxiliary_states())


def test_checkpoint_written_here_is_byte_identical(tmp_path):
    """Same values in, same bytes out: 1.9.1 reads what we write as it reads its own."""
    golden = Path(_ckpt_prefix() + "-0003.params").read_bytes()
    assert b"arg:fc1_weight" in golden and b"aux:bn1_moving_mean" in golden
    mod = MX.mod.Module.load(_ckpt_prefix(), 3)
    mod.bind([("data", (8, 5))], [("softmax_label", (8,))], for_training=False)
    prefix = str(tmp_path / "again")
    mod.save_checkpoint(prefix, 3)
    assert Path(prefix + "-0003.params").read_bytes() == golden
    assert json.loads(Path(prefix + "-symbol.json").read_text()) == \
        json.loads(Path(_ckpt_prefix() + "-symbol.json").read_text())
    # mx.model.save_checkpoint writes the same file from dictionaries
    sym, arg, aux = MX.model.load_checkpoint(_ckpt_prefix(), 3)
    MX.model.save_checkpoint(str(tmp_path / "m"), 3, sym, arg, aux)
    assert (tmp_path / "m-0003.params").read_bytes() == golden


def test_checkpoint_round_trip_here(tmp_path):
    """Train, save with optimizer states, load into a new Module and continue: the same
    parameters as 1.9.1's run that never stopped."""
    scen = TABLE.scenario_checkpoint(MX, out_dir=tmp_path)
    want = _golden_arrays("checkpoint")
    _compare_arrays(scen, want, "checkpoint")
    mod = MX.mod.Module.load(str(tmp_path / TABLE.CKPT_PREFIX), 3, load_optimizer_states=True)
    x, y = TABLE.dataset()
    it = MX.io.NDArrayIter(x, y, batch_size=8)
    mod.bind(it.provide_data, it.provide_label)
    mod.init_optimizer(kvstore=None, optimizer=TABLE.SGD[0], optimizer_params=TABLE.SGD[1])
    for i, b in enumerate(it):
        if i == 2:
            break
        mod.forward_backward(b)
        mod.update()
    got = TABLE.params_out(mod, "resumed/")
    for k, v in got.items():
        np.testing.assert_allclose(v, want[k], rtol=1e-5, atol=1e-6, err_msg=k)
