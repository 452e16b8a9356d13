"""Record how MXNet 1.9.1's single-process KVStore behaves, for tests/kvstore.

Run with the reference interpreter, from outside the repository root so that
``import mxnet`` finds the reference (never this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \
        /work/main/tools/golden/gen_kvstore.py

Each entry of ``CASES`` is ``(case_id, code)``: Python source run with ``mx``, ``np``
and ``kv`` (the kvstore module) bound. It sets ``result`` to a JSON-friendly value,
where NDArrays (also inside lists, tuples and dicts) are recorded as nested lists
with their dtype. A raised exception is recorded by its class name. The output is
``tests/golden/kvstore.json``; ``tests/kvstore/test_golden.py`` imports this module
for ``CASES`` and replays them against mxnet-py, so it must import without mxnet.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT_JSON = REPO / "tests" / "golden" / "kvstore.json"

_DEV = "def dev(n, shape, fill, dtype='float32'):\n" \
       "    return [mx.nd.full(shape, fill, ctx=mx.cpu(i), dtype=dtype) for i in range(n)]\n"
_LOG = "log = []\n" \
       "def upd(key, grad, stored):\n" \
       "    log.append([repr(key), grad.asnumpy().tolist(), stored.asnumpy().tolist()])\n" \
       "    stored += grad * 2\n"

CASES: list[tuple[str, str]] = [
    # -- creation ------------------------------------------------------------------------
    *[(f"create.{n}", f"k = kv.create({n!r})\nresult = [k.type, k.rank, k.num_workers]")
      for n in ("local", "device", "Local", "LOCAL_x", "foo", "local_allreduce_device",
                "local_update_cpu", "devicefoo")],
    ("create.default", "k = kv.create()\nresult = k.type"),
    ("create.teststore", "k = kv.create('teststore')\nresult = [k.type, type(k).__name__]"),
    ("create.int", "kv.create(3)"),
    ("create.none", "kv.create(None)"),
    ("capable.optimizer", "k = kv.create('local')\n"
                          "result = [k.is_capable('optimizer'), k.is_capable('OPTIMIZER')]"),
    ("capable.unknown", "kv.create('local').is_capable('foo')"),
    ("constants", "result = [kv.KVStoreBase.OPTIMIZER, sorted(kv.KVStoreBase.kv_registry)]"),
    # -- init and key handling -------------------------------------------------------------
    ("init.twice", "k = kv.create('local')\nk.init(3, mx.nd.ones((2,)))\nk.init(3, mx.nd.ones((2,)))"),
    ("init.twice_other_shape", "k = kv.create('local')\nk.init(3, mx.nd.ones((2,)))\n"
                               "k.init(3, mx.nd.ones((4,)))"),
    ("init.list_for_one_key", "k = kv.create('local')\nk.init(9, [mx.nd.ones((2,)), mx.nd.ones((2,))])"),
    ("init.list_dup_then_present",
     "k = kv.create('local')\ntry:\n    k.init(9, [mx.nd.ones((2,)), mx.nd.ones((2,))])\n"
     "except Exception:\n    pass\no = mx.nd.zeros((2,))\nk.pull(9, out=o)\nresult = o"),
    ("init.copies", "k = kv.create('local')\nv = mx.nd.array([1, 2, 3])\nk.init(30, v)\nv[:] = 9\n"
                    "o = mx.nd.zeros((3,))\nk.pull(30, out=o)\nresult = o"),
    ("init.numpy_value", "kv.create('local').init(3, np.ones(3))"),
    ("init.int_value", "kv.create('local').init(3, 5)"),
    ("key.numpy_int", "kv.create('local').init(np.int64(7), mx.nd.ones((2,)))"),
    ("key.float", "kv.create('local').init(1.0, mx.nd.ones((2,)))"),
    ("key.bool_and_negative", "k = kv.create('local')\nk.init(True, mx.nd.ones((2,)))\n"
                              "k.init(-1, mx.nd.full((2,), 5))\no = [mx.nd.zeros((2,)), mx.nd.zeros((2,))]\n"
                              "k.pull([1, -1], out=o)\nresult = o"),
    ("key.mixed_in_one_call", "kv.create('local').init([5, 'x'], [mx.nd.ones((1,)), mx.nd.ones((1,))])"),
    ("key.str_after_int", "k = kv.create('local')\nk.init(3, mx.nd.ones((1,)))\n"
                          "k.init('w', mx.nd.ones((1,)))"),
    ("key.int_after_str", "k = kv.create('local')\nk.init('w', mx.nd.ones((1,)))\n"
                          "k.push(3, mx.nd.ones((1,)))"),
    ("key.failed_pull_fixes_kind", "k = kv.create('local')\ntry:\n    k.pull('a', out=mx.nd.ones((1,)))\n"
                                   "except Exception:\n    pass\nk.init(1, mx.nd.ones((1,)))"),
    ("key.len_mismatch", "k = kv.create('local')\nk.init([1, 2], [mx.nd.ones((1,)), mx.nd.ones((1,))])\n"
                         "k.push([1, 2], [mx.nd.ones((1,))])"),
    ("key.non_ndarray_in_list", "kv.create('local').init(1, [mx.nd.ones((1,)), 3])"),
    # -- uninitialised keys --------------------------------------------------------------------
    ("uninit.push", "k = kv.create('local')\nk.init(3, mx.nd.ones((2,)))\nk.push(4, mx.nd.ones((2,)))"),
    ("uninit.pull", "k = kv.create('local')\nk.pull(4, out=mx.nd.ones((2,)))"),
    ("uninit.pushpull", "k = kv.create('device')\nk.pushpull(4, mx.nd.ones((2,)))"),
    ("pull.out_none", "k = kv.create('local')\nk.init(3, mx.nd.ones((2,)))\nk.pull(3)"),
    ("pull.keys_outs_mismatch", "k = kv.create('local')\nk.init(0, mx.nd.ones((2,)))\n"
                                "k.pull([0, 1], out=[mx.nd.zeros((2,))] * 4)"),
    ("pull.shape_mismatch", "k = kv.create('local')\nk.init(3, mx.nd.ones((2, 3)))\n"
                            "k.pull(3, out=mx.nd.zeros((6,)))\nmx.nd.waitall()"),
    ("push.priority_str", "k = kv.create('local')\nk.init(3, mx.nd.ones((1,)))\n"
                          "k.push(3, mx.nd.ones((1,)), priority='a')"),
    # -- sums ---------------------------------------------------------------------------------
    *[(f"sum.{t}.{n}dev",
       _DEV + f"k = kv.create({t!r})\nk.init(0, mx.nd.zeros((2, 3)))\n"
       f"k.push(0, [mx.nd.array(np.arange(6).reshape(2, 3) + i, ctx=mx.cpu(i)) for i in range({n})])\n"
       "outs = dev(4, (2, 3), -1)\nk.pull(0, out=outs)\n"
       "result = [outs, [str(o.context) for o in outs]]")
      for t in ("local", "device") for n in (1, 2, 4)],
    ("sum.push_replaces", "k = kv.create('local')\nk.init(0, mx.nd.full((2,), 7))\n"
                          "k.push(0, mx.nd.ones((2,)))\nk.push(0, mx.nd.ones((2,)) * 3)\n"
                          "o = mx.nd.zeros((2,))\nk.pull(0, out=o)\nresult = o"),
    ("sum.dup_keys", "k = kv.create('local')\nk.init(11, mx.nd.zeros((2,)))\n"
                     "k.push([11, 11], [mx.nd.array([1, 2]), mx.nd.array([10, 20])])\n"
                     "o = mx.nd.zeros((2,))\nk.pull(11, out=o)\nresult = o"),
    ("sum.nested", "k = kv.create('device')\nk.init([1, 2], [mx.nd.zeros((2,)), mx.nd.zeros((3,))])\n"
                   "k.push([1, 2], [[mx.nd.array([1, 2]), mx.nd.array([10, 20], ctx=mx.cpu(1))], "
                   "mx.nd.ones((3,))])\n"
                   "o = [[mx.nd.zeros((2,)), mx.nd.zeros((2,), ctx=mx.cpu(2))], mx.nd.zeros((3,))]\n"
                   "k.pull([1, 2], out=o)\nresult = o"),
    ("sum.str_keys", "k = kv.create('device')\nk.init(['a', 'b'], [mx.nd.zeros((2,)), mx.nd.ones((1,))])\n"
                     "k.push('a', [mx.nd.ones((2,), ctx=mx.cpu(i)) for i in range(3)])\n"
                     "o = [mx.nd.zeros((2,)), mx.nd.zeros((1,))]\nk.pull(['a', 'b'], out=o)\nresult = o"),
    ("sum.pull_dup_keys", "k = kv.create('local')\nk.init(1, mx.nd.full((2,), 4))\n"
                          "o = [mx.nd.zeros((2,)), mx.nd.zeros((2,))]\nk.pull([1, 1], out=o)\nresult = o"),
    ("sum.empty_push", "k = kv.create('local')\nresult = [k.push([], []), k.pull([], out=[])]"),
    ("dtype.f64_store", "k = kv.create('local')\nk.init(10, mx.nd.ones((2,), dtype='float64'))\n"
                        "k.push(10, mx.nd.array([1.5, 2.5]))\n"
                        "a = mx.nd.zeros((2,))\nb = mx.nd.zeros((2,), dtype='int32')\n"
                        "c = mx.nd.zeros((2,), dtype='float64')\nk.pull(10, out=[a, b, c])\n"
                        "result = [a, b, c]"),
    ("dtype.f16_device", "k = kv.create('device')\nk.init(1, mx.nd.zeros((3,), dtype='float16'))\n"
                         "k.push(1, [mx.nd.array([0.5, 1, 2], dtype='float16', ctx=mx.cpu(i)) "
                         "for i in range(2)])\no = mx.nd.zeros((3,), dtype='float16')\n"
                         "k.pull(1, out=o)\nresult = o"),
    # -- pushpull and broadcast ------------------------------------------------------------------
    ("pushpull.inplace", "k = kv.create('device')\nk.init(11, mx.nd.zeros((2,)))\n"
                         "v = [mx.nd.array([1, 2]), mx.nd.array([3, 4], ctx=mx.cpu(1))]\n"
                         "k.pushpull(11, v)\nresult = v"),
    ("pushpull.out", "k = kv.create('local')\nk.init(11, mx.nd.zeros((2,)))\n"
                     "v = [mx.nd.array([1, 2]), mx.nd.array([3, 4])]\n"
                     "o = [mx.nd.zeros((2,), ctx=mx.cpu(i)) for i in range(3)]\n"
                     "k.pushpull(11, v, out=o)\nresult = [v, o]"),
    ("pushpull.keys", "k = kv.create('local')\nk.init(['a', 'b'], [mx.nd.zeros((2,)), mx.nd.zeros((1,))])\n"
                      "v = [[mx.nd.ones((2,)), mx.nd.ones((2,))], mx.nd.full((1,), 5)]\n"
                      "k.pushpull(['a', 'b'], v)\nresult = v"),
    ("broadcast.devices", "k = kv.create('device')\n"
                          "o = [mx.nd.zeros((2,), ctx=mx.cpu(i)) for i in range(3)]\n"
                          "k.broadcast(20, mx.nd.array([7, 8], ctx=mx.cpu(2)), out=o)\n"
                          "p = mx.nd.zeros((2,))\nk.pull(20, out=p)\nresult = [o, p]"),
    ("broadcast.twice", "k = kv.create('local')\nk.broadcast(20, mx.nd.array([7, 8]), out=mx.nd.zeros((2,)))\n"
                        "k.broadcast(20, mx.nd.array([7, 8]), out=mx.nd.zeros((2,)))"),
    ("broadcast.list_value", "k = kv.create('local')\n"
                             "k.broadcast(21, [mx.nd.array([7, 8]), mx.nd.array([1, 1])], out=mx.nd.zeros((2,)))"),
    ("broadcast.keys", "k = kv.create('local')\no = [mx.nd.zeros((2,)), mx.nd.zeros((2,))]\n"
                       "k.broadcast([22, 23], [mx.nd.array([7, 8]), mx.nd.array([1, 1])], out=o)\nresult = o"),
    ("broadcast.uninit_out_key", "k = kv.create('local')\n"
                                 "k.broadcast(1, mx.nd.array([7, 8]), out=mx.nd.zeros((2,)))\n"
                                 "k.broadcast([2, 3], [mx.nd.ones((2,)), mx.nd.ones((2,))], out=[mx.nd.zeros((2,))])"),
    ("row_sparse_pull.no_row_ids", "k = kv.create('local')\nk.init(1, mx.nd.ones((2,)))\n"
                                   "k.row_sparse_pull(1, out=mx.nd.zeros((2,)))"),
    ("row_sparse_pull.no_out", "k = kv.create('local')\nk.init(1, mx.nd.ones((2,)))\n"
                               "k.row_sparse_pull(1, row_ids=mx.nd.array([0]))"),
    ("row_sparse_pull.row_ids_tuple", "k = kv.create('local')\nk.init(1, mx.nd.ones((2,)))\n"
                                      "k.row_sparse_pull(1, out=mx.nd.zeros((2,)), row_ids=(mx.nd.array([0]),))"),
    # -- updaters ---------------------------------------------------------------------------------
    *[(f"updater.{t}", _LOG + f"k = kv.create({t!r})\nk.init(0, mx.nd.zeros((2,), ctx=mx.cpu(3)))\n"
       "k._set_updater(upd)\nk.push(0, mx.nd.ones((2,), ctx=mx.cpu(1)))\n"
       "k.push(0, [mx.nd.ones((2,), ctx=mx.cpu(i)) for i in range(3)])\n"
       "o = mx.nd.zeros((2,), ctx=mx.cpu(2))\nk.pull(0, out=o)\nresult = [o, log]")
      for t in ("local", "device")],
    ("updater.str_key", _LOG + "k = kv.create('local')\nk.init('a', mx.nd.zeros((2,)))\nk._set_updater(upd)\n"
                        "k.push('a', mx.nd.array([1, 1]))\no = mx.nd.zeros((2,))\nk.pull('a', out=o)\n"
                        "result = [o, log]"),
    ("updater.not_on_init_or_broadcast",
     _LOG + "k = kv.create('local')\nk._set_updater(upd)\nk.init(1, mx.nd.ones((2,)))\n"
     "o = mx.nd.zeros((2,))\nk.broadcast(2, mx.nd.array([7, 8]), out=o)\nk.pull(1, out=o)\n"
     "result = [o, log]"),
    ("updater.pushpull", _LOG + "k = kv.create('device')\nk._set_updater(upd)\n"
                         "k.broadcast('b', mx.nd.array([7, 8]), out=mx.nd.zeros((2,)))\n"
                         "o = [mx.nd.zeros((2,)), mx.nd.zeros((2,), ctx=mx.cpu(1))]\n"
                         "k.pushpull('b', mx.nd.array([1, 1]), out=o)\nresult = [o, log]"),
    ("optimizer.no_updater_save", "kv.create('local').save_optimizer_states('unused.states')"),
    ("optimizer.no_updater_load", "kv.create('local').load_optimizer_states('unused.states')"),
    ("optimizer.sgd_momentum",
     "k = kv.create('device')\n"
     "k.set_optimizer(mx.optimizer.create('sgd', learning_rate=0.1, momentum=0.9, rescale_grad=0.5))\n"
     "k.init('w', mx.nd.ones((3,)))\n"
     "for r in range(3):\n"
     "    k.push('w', [mx.nd.array([1, 2, 3], ctx=mx.cpu(i)) * (r + 1) for i in range(2)])\n"
     "o = mx.nd.zeros((3,))\nk.pull('w', out=o)\nresult = [o, sorted(k._updater.states)]"),
    ("optimizer.adam_int_keys",
     "k = kv.create('local')\nk.set_optimizer(mx.optimizer.create('adam', learning_rate=0.01))\n"
     "k.init([0, 1], [mx.nd.ones((2,)), mx.nd.full((3,), 2)])\n"
     "for r in range(2):\n"
     "    k.push([0, 1], [[mx.nd.array([0.5, -1])] * 2, mx.nd.array([1, 2, 3])])\n"
     "o = [mx.nd.zeros((2,)), mx.nd.zeros((3,))]\nk.pull([0, 1], out=o)\nresult = o"),
    # -- gradient compression ------------------------------------------------------------------------
    ("gc.local", "kv.create('local').set_gradient_compression({'type': '2bit', 'threshold': 0.5})"),
    ("gc.local_list", "kv.create('local').set_gradient_compression([1])"),
    ("gc.device_list", "kv.create('device').set_gradient_compression([1])"),
    ("gc.device_ok", "k = kv.create('device')\n"
                     "result = [k.set_gradient_compression({'type': '2bit', 'threshold': 0.5}), "
                     "k.set_gradient_compression({'type': '2bit', 'threshold': 0.5})]"),
    ("gc.no_type", "kv.create('device').set_gradient_compression({'threshold': 1})"),
    ("gc.bad_type", "kv.create('device').set_gradient_compression({'type': '1bit'})"),
    ("gc.none_type", "kv.create('device').set_gradient_compression({'type': 'none'})"),
    ("gc.zero_threshold", "kv.create('device').set_gradient_compression({'type': '2bit', 'threshold': 0})"),
    ("gc.extra_key", "kv.create('device').set_gradient_compression({'type': '2bit', 'foo': 1})"),
    ("gc.sequence",
     "k = kv.create('device')\nk.set_gradient_compression({'type': '2bit', 'threshold': 0.5})\n"
     "k.init(1, mx.nd.zeros((4,)))\nout = mx.nd.zeros((4,))\nres = []\n"
     "vals = [mx.nd.array([0.3, 0.7, -0.6, -0.2], ctx=mx.cpu(i)) for i in range(2)]\n"
     "for v in (vals, vals, vals[0], [vals[1]], vals):\n"
     "    k.push(1, v)\n    k.pull(1, out=out)\n    res.append(out.asnumpy().tolist())\n"
     "k.init(2, mx.nd.zeros((4,), ctx=mx.cpu(1)))\nk.push(2, [vals[0]])\nk.pull(2, out=out)\n"
     "res.append(out.asnumpy().tolist())\nresult = res"),
    ("gc.default_threshold",
     "k = kv.create('device')\nk.set_gradient_compression({'type': '2bit'})\n"
     "k.init(1, mx.nd.zeros((4,)))\nout = mx.nd.zeros((4,))\n"
     "k.push(1, [mx.nd.array([0.3, 0.7, -0.6, 2.0], ctx=mx.cpu(i)) for i in range(2)])\n"
     "k.pull(1, out=out)\nresult = out"),
    ("gc.threshold_2_updater",
     _LOG + "k = kv.create('device')\nk.set_gradient_compression({'type': '2bit', 'threshold': 2})\n"
     "k._set_updater(upd)\nk.init(1, mx.nd.zeros((3,)))\nout = mx.nd.zeros((3,))\n"
     "for _ in range(2):\n    k.push(1, [mx.nd.array([1.5, 2.5, -3], ctx=mx.cpu(i)) for i in range(2)])\n"
     "k.pull(1, out=out)\nresult = [out, [e[1] for e in log]]"),
]


def encode(value):
    """Turn a case's result into JSON: NDArrays become {"dtype", "shape", "values"}."""
    if hasattr(value, "asnumpy"):
        a = value.asnumpy()
        return {"dtype": a.dtype.name, "shape": list(a.shape), "values": a.tolist()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if hasattr(value, "item") and hasattr(value, "dtype"):
        return value.item()
    return value


def run_case(code, mx, np, kv):
    """Run one case; returns {"result": ...} or {"error": class name}."""
    env = {"mx": mx, "np": np, "kv": kv, "result": None}
    try:
        exec(code, env)  # noqa: S102 - fixture snippets from this file
        mx.nd.waitall()
    except Exception as e:  # noqa: BLE001 - the class is the fixture
        return {"error": type(e).__name__}
    return {"result": encode(env["result"])}


def main():
    import os
    import tempfile

    import mxnet as mx
    import numpy as np
    if "site-packages" not in mx.__file__:
        sys.exit(f"run me with the reference interpreter, not {mx.__file__}")
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        for case_id, code in CASES:
            out[case_id] = run_case(code, mx, np, mx.kv)
    OUT_JSON.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} cases to {OUT_JSON}")


if __name__ == "__main__":
    main()
