"""Golden facts about MXNet 1.9.1's small top-level modules (runtime, log, error, misc,
executor_manager, library, space, libinfo, ...), for tests/test_small_modules.py.

Run under the reference venv from /tmp:
    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \
        /work/main/tools/golden/gen_small_modules.py

Writes tests/golden/small_modules.json.
"""
import json
import logging
import os
import sys
import tempfile

import mxnet as mx
import mxnet.executor_manager as em
import mxnet.misc
import mxnet.space

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "tests", "golden", "small_modules.json")

MODULES = ["runtime", "log", "error", "misc", "notebook", "executor_manager", "library", "rtc",
           "kvstore_server", "space", "tvmop", "torch", "th", "libinfo"]


def attrs_after_import():
    """Which names are attributes of ``mx`` in a fresh ``import mxnet``."""
    import subprocess
    code = ("import mxnet as mx, sys, json; print(json.dumps({n: hasattr(mx, n) for n in %r}))"
            % (MODULES,))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd="/tmp").stdout
    return json.loads(out.strip().splitlines()[-1])


def runtime_facts():
    feats = mx.runtime.Features()
    try:
        feats.is_enabled("NO_SUCH_FEATURE")
        unknown = None
    except RuntimeError as e:
        unknown = [type(e).__name__, str(e)]
    return {"names": list(feats.keys()),
            "repr_on": repr(feats["CPU_SSE"]), "repr_off": repr(feats["CUDA"]),
            "lower_case_ok": feats.is_enabled("cuda") == feats.is_enabled("CUDA"),
            "unknown": unknown,
            "is_ordered_dict": isinstance(feats, __import__("collections").OrderedDict),
            "singleton": mx.runtime.Features() is feats}


def log_facts():
    fmt = mx.log._Formatter()
    out = {}
    for lvl in (logging.CRITICAL, logging.ERROR, logging.WARNING, logging.INFO, logging.DEBUG,
                5):
        rec = logging.LogRecord("n", lvl, "/a/b.py", 7, "hi %s", ("x",), None, func="fn")
        rec.created = 0.0
        rec.msecs = 0.0
        rec.process = 42
        text = fmt.format(rec)
        # the date part depends on the local time zone: keep what is around it
        out[str(lvl)] = [text[:6], text[6 + 13:]]
    return {"formats": out, "datefmt": fmt.datefmt,
            "levels": {n: getattr(mx.log, n) for n in
                       ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG", "NOTSET")}}


def error_facts():
    try:
        raise mx.error.InternalError("boom")
    except mx.error.InternalError as e:
        msg = str(e)
    return {"all": mx.error.__all__,
            "internal_mro": [c.__name__ for c in mx.error.InternalError.__mro__],
            "internal_msg": msg,
            "register_is_register_error": mx.error.register is mx.base.register_error,
            "registered": sorted(k for k in mx.base.error_types),
            "public": sorted(n for n in dir(mx.error) if not n.startswith("_"))}


def misc_facts():
    s = mx.misc.FactorScheduler(3, 0.5)
    vals = [s(i) for i in (0, 1, 2, 3, 5, 6, 10, 100)]
    s2 = mx.misc.FactorScheduler(2)
    s2.base_lr = 0.2
    vals2 = [s2(i) for i in range(0, 9)]
    errs = []
    for args in ((0,), (2, 1.0)):
        try:
            mx.misc.FactorScheduler(*args)
        except ValueError as e:
            errs.append(str(e))
    try:
        mx.misc.LearningRateScheduler()(1)
    except NotImplementedError as e:
        errs.append(str(e))
    return {"base_lr": mx.misc.LearningRateScheduler().base_lr, "vals": vals,
            "vals2": vals2, "errors": errs}


def split_facts():
    cases = [(10, [1, 1]), (10, [1, 1, 1]), (7, [3, 1]), (5, [1, 2, 2]), (100, [0.3, 0.7]),
             (4, [1, 1, 1, 1]), (2, [1, 1, 1]), (9, [2, 1, 1])]
    out = []
    for bs, wl in cases:
        try:
            r = [[s.start, s.stop] for s in em._split_input_slice(bs, wl)]
        except ValueError as e:
            r = "ValueError: " + str(e)
        out.append([bs, wl, r])
    return out


def manager_facts():
    """A tiny two-'device' data-parallel run (both on the CPU)."""
    import numpy as np
    data = mx.sym.var("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    net = mx.sym.SoftmaxOutput(fc, name="softmax")
    x = np.arange(24, dtype=np.float32).reshape(6, 4) / 10
    y = np.array([0, 1, 2, 0, 1, 2], dtype=np.float32)
    it = mx.io.NDArrayIter(x, y, batch_size=6, label_name="softmax_label")
    arg_names = net.list_arguments()
    param_names = ["fc_weight", "fc_bias"]
    mgr = em.DataParallelExecutorManager(net, [mx.cpu(0), mx.cpu(1)], it, arg_names,
                                         param_names, net.list_auxiliary_states(),
                                         work_load_list=[2, 1])
    w = mx.nd.array(np.linspace(-1, 1, 12).reshape(3, 4))
    b = mx.nd.array([0.1, -0.2, 0.3])
    mgr.set_params({"fc_weight": w, "fc_bias": b}, {})
    batch = next(iter(it))
    mgr.load_data_batch(batch)
    mgr.forward(is_train=True)
    mgr.backward()
    metric = mx.metric.Accuracy()
    mgr.update_metric(metric, batch.label)
    grads = [[g.asnumpy().tolist() for g in dev] for dev in mgr.grad_arrays]
    outs = [e.outputs[0].asnumpy().tolist() for e in mgr.execgrp.train_execs]
    for dev in mgr.param_arrays:
        dev[0][:] = dev[0] + 1
    arg = {"fc_weight": mx.nd.zeros((3, 4)), "fc_bias": mx.nd.zeros((3,))}
    mgr.copy_to(arg, {})
    return {"slices": [[s.start, s.stop] for s in mgr.slices], "grads": grads, "outs": outs,
            "metric": list(metric.get()),
            "copied": {k: v.asnumpy().tolist() for k, v in arg.items()}}


def library_facts():
    out = {}
    d = tempfile.mkdtemp()
    txt = os.path.join(d, "x.txt")
    open(txt, "w").close()
    for key, path in (("missing", "/nonexistent/libfoo.so"), ("not_lib", txt)):
        try:
            mx.library.load(path)
        except mx.base.MXNetError as e:
            out[key] = str(e).replace(path, "{path}")
    os.chdir(d)
    try:
        mx.library.load("x.txt")
    except mx.base.MXNetError as e:
        out["relative"] = str(e).replace("x.txt", "{path}")
    os.chdir("/tmp")
    return out


def space_facts():
    sp = mx.space.ConfigSpace.from_json_dict(
        {"e": [["tile_x", "ot", 4], ["unroll", "ot", True]],
         "s": [["tile_x", "ot", [1, 2, 4, 8]], ["unroll", "ot", [True, False]]]})
    sps = mx.space.ConfigSpaces()
    sps["dot"] = sp
    return {"len": len(sp), "repr": repr(sp), "json": sp.to_json_dict(),
            "spaces_repr": repr(sps), "spaces_json": sps.to_json_dict(),
            "option_repr": repr(sp.space_map["tile_x"])}


def libinfo_facts():
    return {"version": mx.libinfo.__version__, "mx_version": mx.__version__,
            "public": sorted(n for n in dir(mx.libinfo) if not n.startswith("_")
                             and callable(getattr(mx.libinfo, n)) and n.startswith("find"))}


def notebook_facts():
    import mxnet.notebook.callback as cb
    return {"public": sorted(n for n in dir(cb) if n[0].isupper() and
                             isinstance(getattr(cb, n), type) and
                             getattr(cb, n).__module__ == cb.__name__),
            "args_wrapper": sorted(cb.args_wrapper().keys())}


def main():
    facts = {
        "attrs_after_import": attrs_after_import(),
        "runtime": runtime_facts(),
        "log": log_facts(),
        "error": error_facts(),
        "misc": misc_facts(),
        "split_input_slice": split_facts(),
        "manager": manager_facts(),
        "library": library_facts(),
        "space": space_facts(),
        "libinfo": libinfo_facts(),
        "notebook": notebook_facts(),
        "kvstore_server_all": mx.kvstore.kvstore_server.__all__,
    }
    with open(OUT, "w") as f:
        json.dump(facts, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
