"""Record MXNet 1.9.1's fused update operators, optimizers and learning rate schedulers.

Run with the reference interpreter (never with this repository's mxnet)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \\
        /work/main/tools/golden/gen_optimizer.py

It writes, under ``tests/golden/optimizer/``:

* ``ops.npz`` -- per ``OP_CASES`` entry ``<id>``, after each step ``s`` (1-based) of
  calling the operator with ``out=`` the weight(s): ``<id>/s<s>/in<i>`` (every input, so
  the in-place state updates are recorded) and ``<id>/s<s>/out<j>`` (the returned arrays);
* ``optimizers.npz`` -- per ``OPT_CASES`` entry, the weights after each step
  (``<id>/s<s>/w<k>``), the final states flattened (``<id>/state<k>/<path>``, with the
  nesting in ``<id>/state<k>/struct``) and ``<id>/num_update``;
* ``schedulers.json`` -- per ``SCHED_CASES`` entry the learning rates over its
  ``num_update`` sequence;
* ``sgd_states.pkl`` / ``sgd_states_opt.pkl`` and ``sgd_resume.npz`` -- an updater's
  pickled states (without / with the optimizer) after two SGD steps, and the weights
  after two more steps.

``tests/optimizer/`` imports this module (it must stay importable without mxnet) and
replays the same cases against this repository's mxnet.
"""
from __future__ import annotations

import importlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT_DIR = REPO / "tests" / "golden" / "optimizer"


def rand(shape, seed, low=-1.0, high=1.0):
    return np.random.RandomState(seed).uniform(low, high, size=shape)


def resolve(mx, name):
    """The nd function of a registry name (``_contrib_x`` -> nd.contrib.x, ``_x`` -> nd._internal._x)."""
    if name.startswith("_contrib_"):
        return getattr(mx.nd.contrib, name[len("_contrib_"):])
    if name.startswith("_"):
        return getattr(mx.nd._internal, name)
    return getattr(mx.nd, name)


# ------------------------------------------------------------------------ fused operators
@dataclass
class OpCase:
    """``mx.nd.<op>(*inputs, out=inputs[outs], **kwargs)`` applied ``steps`` times.

    ``step_kw`` maps a keyword to a function of the 1-based step (ftml's ``t`` ...);
    ``outs=()`` calls without ``out`` (pure functions such as multi_sum_sq)."""

    id: str
    op: str
    inputs: list
    dtypes: tuple
    kwargs: dict = field(default_factory=dict)
    outs: tuple = (0,)
    steps: int = 3
    step_kw: dict = field(default_factory=dict)


OP_CASES: list[OpCase] = []
SHAPE = (3, 4)


def op_case(cid, op, inputs, dtypes, **kw):
    if any(c.id == cid for c in OP_CASES):
        raise ValueError(f"duplicate case id {cid!r}")
    if isinstance(dtypes, str):
        dtypes = (dtypes,) * len(inputs)
    OP_CASES.append(OpCase(cid, op, inputs, tuple(dtypes), **kw))


def _w(seed=0, shape=SHAPE):
    return rand(shape, seed)


def _g(seed=1, shape=SHAPE, scale=2.0):
    return rand(shape, seed) * scale


def _z(shape=SHAPE):
    return np.zeros(shape)


def _pos(seed=2, shape=SHAPE, low=0.1, high=1.0):
    return rand(shape, seed, low, high)


_CLIP = dict(rescale_grad=0.7, clip_gradient=0.5)
_F16_MP = ("float16", "float16", "float32", "float32")

for _dt in ("float32", "float64", "float16"):
    op_case(f"sgd_{_dt}", "sgd_update", [_w(), _g()], _dt, kwargs=dict(lr=0.1))
op_case("sgd_wd", "sgd_update", [_w(), _g()], "float32", kwargs=dict(lr=0.1, wd=0.01))
op_case("sgd_clip", "sgd_update", [_w(), _g()], "float32", kwargs=dict(lr=0.1, wd=0.01, **_CLIP))
op_case("sgd_clip0", "sgd_update", [_w(), _g()], "float32", kwargs=dict(lr=0.1, clip_gradient=0.0))
op_case("sgd_nolazy", "sgd_update", [_w(), _g()], "float32",
        kwargs=dict(lr=0.1, wd=0.02, lazy_update=False))
op_case("sgd_wd_f16", "sgd_update", [_w(), _g()], "float16", kwargs=dict(lr=0.1, wd=0.01, **_CLIP))
for _dt in ("float32", "float64", "float16"):
    op_case(f"sgd_mom_{_dt}", "sgd_mom_update", [_w(), _g(), _z()], _dt,
            kwargs=dict(lr=0.1, momentum=0.9, wd=0.01))
op_case("sgd_mom_clip", "sgd_mom_update", [_w(), _g(), _z()], "float32",
        kwargs=dict(lr=0.1, momentum=0.9, wd=0.01, **_CLIP))
op_case("sgd_mom_nomom", "sgd_mom_update", [_w(), _g(), _pos()], "float32", kwargs=dict(lr=0.05))
op_case("mp_sgd", "mp_sgd_update", [_w(), _g(), _w()], ("float16", "float16", "float32"),
        kwargs=dict(lr=0.1, wd=0.01))
op_case("mp_sgd_clip", "mp_sgd_update", [_w(), _g(), _w()], ("float16", "float16", "float32"),
        kwargs=dict(lr=0.1, wd=0.01, **_CLIP))
op_case("mp_sgd_f32", "mp_sgd_update", [_w(), _g(), _w()], "float32", kwargs=dict(lr=0.1))
op_case("mp_sgd_mom", "mp_sgd_mom_update", [_w(), _g(), _z(), _w()], _F16_MP,
        kwargs=dict(lr=0.1, momentum=0.9, wd=0.01))
op_case("mp_sgd_mom_clip", "mp_sgd_mom_update", [_w(), _g(), _z(), _w()], _F16_MP,
        kwargs=dict(lr=0.1, momentum=0.8, wd=0.01, **_CLIP))
for _dt in ("float32", "float64"):
    op_case(f"nag_{_dt}", "nag_mom_update", [_w(), _g(), _z()], _dt,
            kwargs=dict(lr=0.1, momentum=0.9, wd=0.01))
op_case("nag_clip", "nag_mom_update", [_w(), _g(), _z()], "float32",
        kwargs=dict(lr=0.1, momentum=0.9, wd=0.01, **_CLIP))
op_case("mp_nag", "mp_nag_mom_update", [_w(), _g(), _z(), _w()], _F16_MP,
        kwargs=dict(lr=0.1, momentum=0.9, wd=0.01))
op_case("mp_nag_clip", "mp_nag_mom_update", [_w(), _g(), _z(), _w()], _F16_MP,
        kwargs=dict(lr=0.1, momentum=0.9, **_CLIP))
op_case("signsgd", "signsgd_update", [_w(), _g()], "float32", kwargs=dict(lr=0.1, wd=0.01))
op_case("signsgd_clip", "signsgd_update", [_w(), _g()], "float32",
        kwargs=dict(lr=0.1, rescale_grad=-0.5, clip_gradient=0.0))
op_case("signum", "signum_update", [_w(), _g(), _z()], "float32",
        kwargs=dict(lr=0.1, momentum=0.9, wd=0.01))
op_case("signum_clip", "signum_update", [_w(), _g(), _pos()], "float32",
        kwargs=dict(lr=0.1, momentum=0.7, wd=0.01, wd_lh=0.05, **_CLIP))
for _dt in ("float32", "float64", "float16"):
    op_case(f"adam_{_dt}", "adam_update", [_w(), _g(), _z(), _z()], _dt, kwargs=dict(lr=0.01))
op_case("adam_opts", "adam_update", [_w(), _g(), _pos(3), _pos(4)], "float32",
        kwargs=dict(lr=0.01, beta1=0.8, beta2=0.99, epsilon=1e-6, wd=0.1, lazy_update=False,
                    **_CLIP))
op_case("rmsprop", "rmsprop_update", [_w(), _g(), _z()], "float32", kwargs=dict(lr=0.01))
op_case("rmsprop_opts", "rmsprop_update", [_w(), _g(), _pos()], "float32",
        kwargs=dict(lr=0.05, gamma1=0.9, epsilon=1e-6, wd=0.1, clip_weights=0.6, **_CLIP))
op_case("rmsprop_f64", "rmsprop_update", [_w(), _g(), _z()], "float64", kwargs=dict(lr=0.01))
op_case("rmspropalex", "rmspropalex_update", [_w(), _g(), _z(), _z(), _z()], "float32",
        kwargs=dict(lr=0.01))
op_case("rmspropalex_opts", "rmspropalex_update",
        [_w(), _g(), _pos(5, low=2.0, high=3.0), _pos(6, low=-0.5, high=0.5), _pos(7)], "float32",
        kwargs=dict(lr=0.05, gamma1=0.9, gamma2=0.8, epsilon=1e-6, wd=0.1, clip_weights=0.6,
                    **_CLIP))
op_case("ftrl", "ftrl_update", [_w(), _g(), _z(), _z()], "float32", kwargs=dict(lr=0.1))
op_case("ftrl_opts", "ftrl_update", [_w(), _g(), _pos(8, low=-0.5, high=0.5), _pos(9)], "float32",
        kwargs=dict(lr=0.2, lamda1=0.05, beta=0.5, wd=0.1, **_CLIP))
op_case("ftml", "ftml_update", [_w(), _g(), _z(), _z(), _z()], "float32", kwargs=dict(lr=0.01),
        step_kw={"t": lambda s: s})
op_case("ftml_opts", "ftml_update", [_w(), _g(), _z(), _z(), _z()], "float32",
        kwargs=dict(lr=0.05, beta1=0.5, beta2=0.99, epsilon=1e-6, wd=0.1, rescale_grad=0.7,
                    clip_grad=0.5), step_kw={"t": lambda s: s + 2})
op_case("ftml_f64", "ftml_update", [_w(), _g(), _z(), _z(), _z()], "float64",
        kwargs=dict(lr=0.01), step_kw={"t": lambda s: s})
op_case("lamb1", "lamb_update_phase1", [_w(), _g(), _z(), _z()], "float32",
        kwargs=dict(wd=0.01), outs=(), step_kw={"t": lambda s: s})
op_case("lamb1_opts", "lamb_update_phase1", [_w(), _g(), _pos(3), _pos(4)], "float32",
        kwargs=dict(wd=0.1, beta1=0.8, beta2=0.99, epsilon=1e-4, bias_correction=False, **_CLIP),
        outs=(), step_kw={"t": lambda s: s})
op_case("mp_lamb1", "mp_lamb_update_phase1", [_w(), _g(), _z(), _z(), _w()],
        ("float16", "float16", "float32", "float32", "float32"), kwargs=dict(wd=0.01), outs=(),
        step_kw={"t": lambda s: s})
_R = [np.array([1.5]), np.array([3.0])]
op_case("lamb2", "lamb_update_phase2", [_w(), _g()] + _R, "float32", kwargs=dict(lr=0.1))
op_case("lamb2_bounds", "lamb_update_phase2", [_w(), _g()] + _R, "float32",
        kwargs=dict(lr=0.1, lower_bound=2.0, upper_bound=5.0))
op_case("lamb2_upper", "lamb_update_phase2", [_w(), _g()] + _R, "float32",
        kwargs=dict(lr=0.1, lower_bound=0.5, upper_bound=1.0))
op_case("lamb2_r1_zero", "lamb_update_phase2", [_w(), _g(), np.array([0.0]), np.array([3.0])],
        "float32", kwargs=dict(lr=0.1, lower_bound=2.0))
op_case("lamb2_r2_zero", "lamb_update_phase2", [_w(), _g(), np.array([2.0]), np.array([0.0])],
        "float32", kwargs=dict(lr=0.1))
op_case("mp_lamb2", "mp_lamb_update_phase2", [_w(), _g()] + _R + [_w()],
        ("float16", "float32", "float32", "float32", "float32"), kwargs=dict(lr=0.1))

_S2 = (2, 5)
_MULTI_KW = dict(lrs=(0.1, 0.05), wds=(0.01, 0.0), num_weights=2)
op_case("multi_sgd", "multi_sgd_update", [_w(), _g(), _w(3, _S2), _g(4, _S2)], "float32",
        kwargs=dict(_MULTI_KW), outs=(0, 2))
op_case("multi_sgd_clip", "multi_sgd_update", [_w(), _g(), _w(3, _S2), _g(4, _S2)], "float32",
        kwargs=dict(_MULTI_KW, **_CLIP), outs=(0, 2))
op_case("multi_sgd_mom", "multi_sgd_mom_update",
        [_w(), _g(), _z(), _w(3, _S2), _g(4, _S2), _z(_S2)], "float32",
        kwargs=dict(_MULTI_KW, momentum=0.9), outs=(0, 3))
op_case("multi_sgd_mom_clip", "multi_sgd_mom_update",
        [_w(), _g(), _z(), _w(3, _S2), _g(4, _S2), _z(_S2)], "float32",
        kwargs=dict(_MULTI_KW, momentum=0.9, **_CLIP), outs=(0, 3))
op_case("multi_mp_sgd", "multi_mp_sgd_update",
        [_w(), _g(), _w(), _w(3, _S2), _g(4, _S2), _w(3, _S2)], ("float16", "float16", "float32") * 2,
        kwargs=dict(_MULTI_KW, **_CLIP), outs=(0, 3))
op_case("multi_mp_sgd_mom", "multi_mp_sgd_mom_update",
        [_w(), _g(), _z(), _w(), _w(3, _S2), _g(4, _S2), _z(_S2), _w(3, _S2)], _F16_MP * 2,
        kwargs=dict(_MULTI_KW, momentum=0.9), outs=(0, 4))
_PRE = [np.array([0.1, 0.05]), np.array([0.01, 0.0])]
op_case("pre_multi_sgd", "preloaded_multi_sgd_update",
        [_w(), _g(), _w(3, _S2), _g(4, _S2)] + _PRE, "float32",
        kwargs=dict(num_weights=2, **_CLIP), outs=(0, 2))
op_case("pre_multi_sgd_mom", "preloaded_multi_sgd_mom_update",
        [_w(), _g(), _z(), _w(3, _S2), _g(4, _S2), _z(_S2)] + _PRE, "float32",
        kwargs=dict(num_weights=2, momentum=0.9), outs=(0, 3))
op_case("pre_multi_mp_sgd", "preloaded_multi_mp_sgd_update",
        [_w(), _g(), _w(), _w(3, _S2), _g(4, _S2), _w(3, _S2)] + _PRE,
        ("float16", "float16", "float32") * 2 + ("float32", "float32"),
        kwargs=dict(num_weights=2), outs=(0, 3))
op_case("pre_multi_mp_sgd_mom", "preloaded_multi_mp_sgd_mom_update",
        [_w(), _g(), _z(), _w(), _w(3, _S2), _g(4, _S2), _z(_S2), _w(3, _S2)] + _PRE,
        _F16_MP * 2 + ("float32", "float32"), kwargs=dict(num_weights=2, momentum=0.9, **_CLIP),
        outs=(0, 4))
op_case("multi_sum_sq", "multi_sum_sq", [_w(), _g(), _w(3, (7,))], "float32",
        kwargs=dict(num_arrays=3), outs=(), steps=1)
op_case("multi_lars", "multi_lars",
        [np.array([0.1, 0.2, 0.3, 0.4]), np.array([4.0, 0.0, 9.0, 1.0]),
         np.array([1.0, 2.0, 0.0, 0.25]), np.array([0.01, 0.0, 0.1, 0.5])], "float32",
        kwargs=dict(eta=0.001, eps=1e-8, rescale_grad=0.5), outs=(), steps=1)
_LAMB_KW = dict(learning_rates=(0.1, 0.05), wds=(0.01, 0.1), num_tensors=2)
op_case("multi_lamb", "_multi_lamb_update",
        [_w(), _g(), _z(), _z(), _w(3, _S2), _g(4, _S2), _z(_S2), _z(_S2)], "float32",
        kwargs=dict(_LAMB_KW), outs=(0, 4), step_kw={"step_count": lambda s: (s, s + 1)})
op_case("multi_lamb_opts", "_multi_lamb_update",
        [_w(), _g(), _z(), _z(), _w(3, _S2), _g(4, _S2), _z(_S2), _z(_S2)], "float32",
        kwargs=dict(_LAMB_KW, beta1=0.8, beta2=0.99, epsilon=1e-4, bias_correction=False,
                    lower_bound=0.1, upper_bound=1.5, **_CLIP),
        outs=(0, 4), step_kw={"step_count": lambda s: (s, s)})
op_case("multi_mp_lamb", "_multi_mp_lamb_update",
        [_w(), _g(), _z(), _z(), _w(), _w(3, _S2), _g(4, _S2), _z(_S2), _z(_S2), _w(3, _S2)],
        ("float16", "float16", "float32", "float32", "float32") * 2, kwargs=dict(_LAMB_KW),
        outs=(0, 5), step_kw={"step_count": lambda s: (s, s)})
_SCALE = [np.array([0.7])]
op_case("adamw", "_adamw_update", [_w(), _g(), _z(), _z()] + _SCALE, "float32",
        kwargs=dict(lr=0.01, eta=0.5, wd=0.1))
op_case("adamw_clip", "_adamw_update", [_w(), _g(), _pos(3), _pos(4)] + _SCALE, "float32",
        kwargs=dict(lr=0.01, eta=0.5, wd=0.1, beta1=0.8, beta2=0.99, epsilon=1e-6,
                    clip_gradient=0.5))
op_case("adamw_inf", "_adamw_update", [_w(), _g(), _pos(3), _pos(4), np.array([np.inf])],
        "float32", kwargs=dict(lr=0.01, eta=0.5))
op_case("mp_adamw", "_mp_adamw_update", [_w(), _g(), _z(), _z(), _w()] + _SCALE,
        ("float16", "float16", "float32", "float32", "float32", "float32"),
        kwargs=dict(lr=0.01, eta=0.5, wd=0.1))
op_case("multi_adamw", "_multi_adamw_update",
        [_w(), _g(), _z(), _z(), _w(3, _S2), _g(4, _S2), _z(_S2), _z(_S2)] + _SCALE, "float32",
        kwargs=dict(lrs=(0.01, 0.02), wds=(0.1, 0.0), etas=(0.5, 1.0), num_weights=2),
        outs=(0, 4))
op_case("multi_mp_adamw", "_multi_mp_adamw_update",
        [_w(), _g(), _z(), _z(), _w(), _w(3, _S2), _g(4, _S2), _z(_S2), _z(_S2), _w(3, _S2)]
        + _SCALE, ("float16", "float16", "float32", "float32", "float32") * 2 + ("float32",),
        kwargs=dict(lrs=(0.01, 0.02), wds=(0.1, 0.0), etas=(0.5, 1.0), num_weights=2,
                    clip_gradient=0.3), outs=(0, 5))


def run_op_case(mx, c: OpCase):
    """{key: NumPy array} for one case (keys as in ops.npz, without the id prefix)."""
    nds = [mx.nd.array(np.asarray(x, dtype=dt), dtype=dt) for x, dt in zip(c.inputs, c.dtypes)]
    fn = resolve(mx, c.op)
    res = {}
    for s in range(1, c.steps + 1):
        kw = dict(c.kwargs)
        for k, f in c.step_kw.items():
            kw[k] = f(s)
        if c.outs:
            out = [nds[i] for i in c.outs]
            kw["out"] = out[0] if len(out) == 1 else out
        r = fn(*nds, **kw)
        for j, a in enumerate(r if isinstance(r, (list, tuple)) else [r]):
            res[f"s{s}/out{j}"] = a.asnumpy()
        for i, a in enumerate(nds):
            res[f"s{s}/in{i}"] = a.asnumpy()
    return res


# ------------------------------------------------------------------------ optimizers
@dataclass
class OptCase:
    """``mx.optimizer.create(name, **kwargs)`` run for ``steps`` steps on one weight per
    shape (indices 0, 1, ...).

    ``path='update'`` calls ``create_state_multi_precision`` and ``update_multi_precision``
    per index; ``path='updater'`` calls an ``mx.optimizer.get_updater`` updater with all
    indices at once (the aggregated multi_* path for SGD, LAMB and LARS).
    ``sym_mults`` builds ``sym`` from variables ``name -> (lr_mult, wd_mult)``;
    ``scheduler`` is ``(class name, kwargs)`` of an ``mx.lr_scheduler`` class.
    """

    id: str
    name: str
    kwargs: dict = field(default_factory=dict)
    shapes: tuple = ((2, 3), (4,))
    dtype: str = "float32"
    steps: int = 5
    path: str = "update"
    lr_mult: dict | None = None
    wd_mult: dict | None = None
    idx2name: dict | None = None
    sym_mults: dict | None = None
    scheduler: tuple | None = None
    grad_scale: float = 1.0


OPT_CASES: list[OptCase] = []


def opt_case(cid, name, **kw):
    if any(c.id == cid for c in OPT_CASES):
        raise ValueError(f"duplicate case id {cid!r}")
    OPT_CASES.append(OptCase(cid, name, **kw))


_OPTS = dict(rescale_grad=0.5, clip_gradient=0.3, wd=0.01)
_MULTS = dict(lr_mult={0: 0.5}, wd_mult={1: 2.0})

opt_case("sgd", "sgd", kwargs=dict(learning_rate=0.1))
opt_case("sgd_opts", "sgd", kwargs=dict(learning_rate=0.1, **_OPTS), **_MULTS)
opt_case("sgd_mom", "sgd", kwargs=dict(learning_rate=0.1, momentum=0.9, wd=0.01))
opt_case("sgd_mom_opts", "sgd", kwargs=dict(learning_rate=0.1, momentum=0.9, **_OPTS), **_MULTS)
opt_case("sgd_nolazy", "sgd", kwargs=dict(learning_rate=0.1, momentum=0.9, lazy_update=False))
opt_case("sgd_mp", "sgd", kwargs=dict(learning_rate=0.1, momentum=0.9, wd=0.01,
                                      multi_precision=True), dtype="float16")
opt_case("sgd_mp_nomom", "sgd", kwargs=dict(learning_rate=0.1, multi_precision=True, **_OPTS),
         dtype="float16")
opt_case("sgd_f16", "sgd", kwargs=dict(learning_rate=0.1, momentum=0.9), dtype="float16")
opt_case("sgd_updater", "sgd", kwargs=dict(learning_rate=0.1, wd=0.01), path="updater")
opt_case("sgd_mom_updater", "sgd", kwargs=dict(learning_rate=0.1, momentum=0.9, **_OPTS),
         path="updater", **_MULTS)
opt_case("sgd_mp_updater", "sgd", kwargs=dict(learning_rate=0.1, momentum=0.9,
                                              multi_precision=True, **_OPTS),
         dtype="float16", path="updater")
opt_case("sgd_mp_nomom_updater", "sgd", kwargs=dict(learning_rate=0.1, multi_precision=True),
         dtype="float16", path="updater")
opt_case("sgd_many_updater", "sgd", kwargs=dict(learning_rate=0.1, momentum=0.5),
         shapes=((2,), (3,), (2, 2), (1, 3), (5,), (4,)), path="updater")
opt_case("sgd_idx2name", "sgd", kwargs=dict(learning_rate=0.1, wd=0.1),
         idx2name={0: "fc_weight", 1: "fc_bias"})
opt_case("sgd_sym", "sgd", kwargs=dict(learning_rate=0.1, wd=0.1),
         idx2name={0: "a_weight", 1: "b_weight"},
         sym_mults={"a_weight": (2.0, 0.0), "b_weight": (0.5, 3.0)})
opt_case("sgd_sym_override", "sgd", kwargs=dict(learning_rate=0.1, wd=0.1),
         idx2name={0: "a_weight", 1: "b_gamma"}, sym_mults={"a_weight": (2.0, 0.0)},
         lr_mult={"a_weight": 3.0}, wd_mult={"b_gamma": 0.5})
opt_case("sgd_factor", "sgd", kwargs=dict(momentum=0.9), scheduler=(
    "FactorScheduler", dict(step=2, factor=0.5, base_lr=0.2)), steps=6)
opt_case("sgd_begin", "sgd", kwargs=dict(momentum=0.9, begin_num_update=3), scheduler=(
    "FactorScheduler", dict(step=2, factor=0.5, base_lr=0.2)))
opt_case("sgd_sched_override", "sgd", kwargs=dict(learning_rate=0.3), scheduler=(
    "MultiFactorScheduler", dict(step=[2, 4], factor=0.1, base_lr=0.2)), steps=6)
opt_case("nag", "nag", kwargs=dict(learning_rate=0.1, momentum=0.9, **_OPTS), **_MULTS)
opt_case("nag_nomom", "nag", kwargs=dict(learning_rate=0.1, wd=0.01))
opt_case("nag_mp", "nag", kwargs=dict(learning_rate=0.1, momentum=0.9, multi_precision=True,
                                      **_OPTS), dtype="float16")
opt_case("nag_mp_nomom", "nag", kwargs=dict(learning_rate=0.1, multi_precision=True),
         dtype="float16")
opt_case("signum", "signum", kwargs=dict(learning_rate=0.1, momentum=0.9, wd=0.01))
opt_case("signum_opts", "signum", kwargs=dict(learning_rate=0.1, momentum=0.8, wd_lh=0.05, **_OPTS))
opt_case("signsgd", "signum", kwargs=dict(learning_rate=0.1, momentum=0.0, wd=0.01))
opt_case("adam", "adam", kwargs=dict())
opt_case("adam_opts", "adam", kwargs=dict(learning_rate=0.01, beta1=0.8, beta2=0.99,
                                          epsilon=1e-6, **_OPTS), **_MULTS)
opt_case("adam_nolazy", "adam", kwargs=dict(learning_rate=0.01, lazy_update=False))
opt_case("adam_mp", "adam", kwargs=dict(learning_rate=0.01, multi_precision=True, **_OPTS),
         dtype="float16")
opt_case("adam_f64", "adam", kwargs=dict(learning_rate=0.01, wd=0.01), dtype="float64")
opt_case("adam_updater", "adam", kwargs=dict(learning_rate=0.01, wd=0.01), path="updater")
opt_case("adagrad", "adagrad", kwargs=dict(learning_rate=0.1))
opt_case("adagrad_opts", "adagrad", kwargs=dict(learning_rate=0.1, eps=1e-5, **_OPTS), **_MULTS)
opt_case("rmsprop", "rmsprop", kwargs=dict())
opt_case("rmsprop_opts", "rmsprop", kwargs=dict(learning_rate=0.01, gamma1=0.8, epsilon=1e-6,
                                                clip_weights=0.5, **_OPTS), **_MULTS)
opt_case("rmsprop_centered", "rmsprop", kwargs=dict(learning_rate=0.01, centered=True))
opt_case("rmsprop_centered_opts", "rmsprop",
         kwargs=dict(learning_rate=0.01, centered=True, gamma1=0.8, gamma2=0.7, epsilon=1e-6,
                     clip_weights=0.5, **_OPTS))
opt_case("adadelta", "adadelta", kwargs=dict())
opt_case("adadelta_opts", "adadelta", kwargs=dict(rho=0.8, epsilon=1e-4, **_OPTS), **_MULTS)
opt_case("ftrl", "ftrl", kwargs=dict())
opt_case("ftrl_opts", "ftrl", kwargs=dict(lamda1=0.02, learning_rate=0.2, beta=0.5, **_OPTS),
         **_MULTS)
opt_case("ftml", "ftml", kwargs=dict(learning_rate=0.01))
opt_case("ftml_opts", "ftml", kwargs=dict(learning_rate=0.01, beta1=0.5, beta2=0.99,
                                          epsilon=1e-6, **_OPTS), **_MULTS)
opt_case("adamax", "adamax", kwargs=dict())
opt_case("adamax_opts", "adamax", kwargs=dict(learning_rate=0.01, beta1=0.8, beta2=0.99, **_OPTS),
         **_MULTS)
opt_case("nadam", "nadam", kwargs=dict())
opt_case("nadam_opts", "nadam", kwargs=dict(learning_rate=0.01, beta1=0.8, beta2=0.99,
                                            epsilon=1e-6, schedule_decay=0.01, **_OPTS), **_MULTS)
opt_case("dcasgd", "dcasgd", kwargs=dict(learning_rate=0.1, lamda=0.1))
# 1.9.1's DCASGD tests ``if mom:`` on the momentum array, so momentum > 0 raises (ValueError for
# more than one element, AssertionError for one): only momentum=0 has numbers to record
opt_case("dcasgd_opts", "dcasgd", kwargs=dict(learning_rate=0.1, lamda=0.5, **_OPTS), **_MULTS)
opt_case("lamb", "lamb", kwargs=dict(learning_rate=0.01, wd=0.01))
opt_case("lamb_opts", "lamb", kwargs=dict(learning_rate=0.01, beta1=0.8, beta2=0.99,
                                          epsilon=1e-4, lower_bound=0.1, upper_bound=2.0,
                                          bias_correction=False, **_OPTS), **_MULTS)
opt_case("lamb_mp", "lamb", kwargs=dict(learning_rate=0.01, wd=0.01, multi_precision=True),
         dtype="float16")
opt_case("lamb_updater", "lamb", kwargs=dict(learning_rate=0.01, wd=0.01), path="updater")
opt_case("lamb_updater_opts", "lamb", kwargs=dict(learning_rate=0.01, lower_bound=0.1,
                                                  upper_bound=2.0, **_OPTS),
         path="updater", **_MULTS)
opt_case("lamb_mp_updater", "lamb", kwargs=dict(learning_rate=0.01, wd=0.01,
                                                multi_precision=True),
         dtype="float16", path="updater")
opt_case("lars", "lars", kwargs=dict(learning_rate=0.1, momentum=0.9, wd=0.01),
         idx2name={0: "fc_weight", 1: "fc_bias"})
opt_case("lars_opts", "lars", kwargs=dict(learning_rate=0.1, eta=0.01, eps=1e-6, **_OPTS),
         idx2name={0: "fc_weight", 1: "bn_gamma"})
opt_case("lars_updater", "lars", kwargs=dict(learning_rate=0.1, momentum=0.9, wd=0.01),
         idx2name={0: "fc_weight", 1: "fc_bias"}, path="updater",
         scheduler=("FactorScheduler", dict(step=2, factor=0.5, base_lr=0.1)))
opt_case("lars_mp_updater", "lars", kwargs=dict(learning_rate=0.1, momentum=0.9, wd=0.01,
                                                multi_precision=True),
         idx2name={0: "fc_weight", 1: "conv_weight"}, path="updater", dtype="float16")
opt_case("lars_nomom_updater", "lars", kwargs=dict(learning_rate=0.1, **_OPTS),
         idx2name={0: "fc_weight", 1: "conv_weight"}, path="updater")
opt_case("lbsgd", "lbsgd", kwargs=dict(learning_rate=0.1, momentum=0.9, wd=0.01, batch_scale=2,
                                      warmup_epochs=1, updates_per_epoch=4), steps=6)
opt_case("lbsgd_sqrt", "lbsgd", kwargs=dict(learning_rate=0.1, warmup_strategy="sqrt",
                                           batch_scale=3, warmup_epochs=2, updates_per_epoch=2,
                                           begin_epoch=1, **_OPTS), steps=6)
opt_case("lbsgd_lars", "lbsgd", kwargs=dict(learning_rate=0.1, momentum=0.5,
                                           warmup_strategy="lars", batch_scale=2), steps=6)
opt_case("groupadagrad", "groupadagrad", kwargs=dict(learning_rate=0.1), shapes=((3, 4), (2, 5)))
opt_case("groupadagrad_opts", "groupadagrad", kwargs=dict(learning_rate=0.1, eps=1e-3,
                                                         rescale_grad=0.5, clip_gradient=0.3),
         shapes=((3, 4), (2, 5)), lr_mult={0: 0.5})
opt_case("test", "test", kwargs=dict(rescale_grad=0.5))


def _flatten_state(st, prefix, res):
    """Record a (nested) state; returns its structure as a string ('A' array, 'N' None)."""
    if st is None:
        return "N"
    if isinstance(st, (tuple, list)):
        parts = [_flatten_state(x, f"{prefix}/{k}", res) for k, x in enumerate(st)]
        return ("(" if isinstance(st, tuple) else "[") + ",".join(parts) + (
            ")" if isinstance(st, tuple) else "]")
    res[prefix] = st.asnumpy()
    return "A"


def opt_inputs(c: OptCase):
    """Initial weights and the gradient of each step (NumPy, in the case's dtype)."""
    w0 = [rand(s, seed=10 + k).astype(c.dtype) for k, s in enumerate(c.shapes)]
    grads = [[(rand(s, seed=100 * step + k) * c.grad_scale).astype(c.dtype)
              for k, s in enumerate(c.shapes)] for step in range(1, c.steps + 1)]
    return w0, grads


def make_optimizer(mx, c: OptCase):
    optim = importlib.import_module(mx.__name__ + ".optimizer")
    sched = importlib.import_module(mx.__name__ + ".lr_scheduler")
    kw = dict(c.kwargs)
    if c.scheduler is not None:
        cls, skw = c.scheduler
        kw["lr_scheduler"] = getattr(sched, cls)(**skw)
    if c.idx2name is not None:
        kw["param_idx2name"] = dict(c.idx2name)
    if c.sym_mults is not None:
        vs = [mx.sym.var(n, lr_mult=lm, wd_mult=wm) for n, (lm, wm) in c.sym_mults.items()]
        kw["sym"] = mx.sym.Group(vs)
    o = optim.create(c.name, **kw)
    if c.lr_mult is not None:
        o.set_lr_mult(dict(c.lr_mult))
    if c.wd_mult is not None:
        o.set_wd_mult(dict(c.wd_mult))
    return o


def run_opt_case(mx, c: OptCase):
    optim = importlib.import_module(mx.__name__ + ".optimizer")
    o = make_optimizer(mx, c)
    w0, grads = opt_inputs(c)
    ws = [mx.nd.array(w, dtype=c.dtype) for w in w0]
    idx = list(range(len(ws)))
    res = {}
    if c.path == "updater":
        upd = optim.get_updater(o)
    else:
        states = [o.create_state_multi_precision(i, w) for i, w in zip(idx, ws)]
    for s, gs in enumerate(grads, start=1):
        gnd = [mx.nd.array(g, dtype=c.dtype) for g in gs]
        if c.path == "updater":
            upd(list(idx), gnd, ws)
        else:
            for i, w, g in zip(idx, ws, gnd):
                o.update_multi_precision(i, w, g, states[i])
        for k, w in enumerate(ws):
            res[f"s{s}/w{k}"] = w.asnumpy()
    final = [upd.states[i] for i in idx] if c.path == "updater" else states
    for k, st in enumerate(final):
        res[f"state{k}/struct"] = np.array(_flatten_state(st, f"state{k}", res))
    res["num_update"] = np.array(o.num_update)
    return res


# ------------------------------------------------------------------------ schedulers
@dataclass
class SchedCase:
    id: str
    cls: str
    kwargs: dict
    nums: list = field(default_factory=lambda: list(range(0, 40)))


SCHED_CASES: list[SchedCase] = [
    SchedCase("factor", "FactorScheduler", dict(step=5, factor=0.5, base_lr=1.0)),
    SchedCase("factor_stop", "FactorScheduler", dict(step=3, factor=0.1, stop_factor_lr=1e-3,
                                                      base_lr=0.5)),
    SchedCase("factor_jump", "FactorScheduler", dict(step=4, factor=0.9),
              nums=[0, 1, 30, 31, 5, 45, 100, 101]),
    SchedCase("factor_warm", "FactorScheduler", dict(step=5, factor=0.5, base_lr=1.0,
                                                     warmup_steps=6, warmup_begin_lr=0.1)),
    SchedCase("factor_warm_const", "FactorScheduler",
              dict(step=5, factor=0.5, base_lr=1.0, warmup_steps=6, warmup_begin_lr=0.2,
                   warmup_mode="constant")),
    SchedCase("multifactor", "MultiFactorScheduler", dict(step=[3, 7, 20], factor=0.5,
                                                          base_lr=1.0)),
    SchedCase("multifactor_warm", "MultiFactorScheduler",
              dict(step=[10, 15], factor=0.1, base_lr=0.3, warmup_steps=8,
                   warmup_begin_lr=0.01)),
    SchedCase("multifactor_jump", "MultiFactorScheduler", dict(step=[3, 7, 20], factor=0.5),
              nums=[0, 25, 2, 8, 30]),
    SchedCase("poly", "PolyScheduler", dict(max_update=30, base_lr=1.0)),
    SchedCase("poly_opts", "PolyScheduler", dict(max_update=30, base_lr=0.5, pwr=1,
                                                 final_lr=0.05, warmup_steps=5,
                                                 warmup_begin_lr=0.01)),
    SchedCase("poly_const", "PolyScheduler", dict(max_update=25, base_lr=0.5, pwr=3,
                                                  warmup_steps=5, warmup_begin_lr=0.1,
                                                  warmup_mode="constant")),
    SchedCase("cosine", "CosineScheduler", dict(max_update=30, base_lr=1.0)),
    SchedCase("cosine_opts", "CosineScheduler", dict(max_update=30, base_lr=0.5, final_lr=0.05,
                                                     warmup_steps=5, warmup_begin_lr=0.01)),
    SchedCase("cosine_const", "CosineScheduler",
              dict(max_update=20, base_lr=0.5, warmup_steps=4, warmup_begin_lr=0.3,
                   warmup_mode="constant"), nums=list(range(0, 25)) + [3, 10]),
]


def run_sched_case(mx, c: SchedCase):
    sched = importlib.import_module(mx.__name__ + ".lr_scheduler")
    s = getattr(sched, c.cls)(**c.kwargs)
    return [float(s(n)) for n in c.nums]


# ------------------------------------------------------------------------ updater states
RESUME = OptCase("resume", "sgd", kwargs=dict(learning_rate=0.1, momentum=0.9, wd=0.01),
                 steps=4, path="updater")


def main():
    import mxnet as mx
    if mx.__version__ != "1.9.1":
        sys.exit(f"run this under the reference MXNet 1.9.1, not {mx.__version__} ({mx.__file__})")
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    arrays = {}
    for c in OP_CASES:
        for k, v in run_op_case(mx, c).items():
            arrays[f"{c.id}/{k}"] = v
    np.savez_compressed(OUT_DIR / "ops.npz", **arrays)
    print(f"wrote {len(OP_CASES)} operator cases ({len(arrays)} arrays)")
    arrays = {}
    for c in OPT_CASES:
        for k, v in run_opt_case(mx, c).items():
            arrays[f"{c.id}/{k}"] = v
    np.savez_compressed(OUT_DIR / "optimizers.npz", **arrays)
    print(f"wrote {len(OPT_CASES)} optimizer cases ({len(arrays)} arrays)")
    scheds = {c.id: run_sched_case(mx, c) for c in SCHED_CASES}
    (OUT_DIR / "schedulers.json").write_text(json.dumps(scheds, indent=1) + "\n")
    print(f"wrote {len(scheds)} scheduler cases")

    # an updater pickled after two steps (with and without its optimizer), then two more steps
    o = make_optimizer(mx, RESUME)
    upd = mx.optimizer.get_updater(o)
    w0, grads = opt_inputs(RESUME)
    ws = [mx.nd.array(w) for w in w0]
    resume = {}
    for s, gs in enumerate(grads, start=1):
        upd([0, 1], [mx.nd.array(g) for g in gs], ws)
        if s == 2:
            (OUT_DIR / "sgd_states.pkl").write_bytes(upd.get_states(dump_optimizer=False))
            (OUT_DIR / "sgd_states_opt.pkl").write_bytes(upd.get_states(dump_optimizer=True))
            for k, w in enumerate(ws):
                resume[f"s2/w{k}"] = w.asnumpy()
        for k, w in enumerate(ws):
            resume[f"s{s}/w{k}"] = w.asnumpy()
    np.savez_compressed(OUT_DIR / "sgd_resume.npz", **resume)
    print("wrote the updater state fixtures")


if __name__ == "__main__":
    main()
