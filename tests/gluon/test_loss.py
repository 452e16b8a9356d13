"""gluon.loss against 1.9.1: values and input gradients with and without sample_weight,
imperative and hybridized; reprs and argument checks."""
from __future__ import annotations

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd
from mxnet.gluon import loss as gloss

from ._golden_nn import GOLD, META, TABLE, close

NS = TABLE.namespace(mx)


def _call(net, case, arrays, with_sw, record=True):
    nds = {k: mx.nd.array(v) for k, v in arrays.items()}
    grad = case.grad if record else ()
    for name in grad:
        nds[name].attach_grad()
    args = [nds[name] for name, _, _ in case.inputs]
    if case.extra:
        args.append(nds["sample_weight"] if with_sw else mx.nd.ones(case.sw))
        args += [nds[name] for name, _, _ in case.extra]
    elif with_sw:
        args += [None] * case.nones + [nds["sample_weight"]]
    if not record:
        return net(*args), {}
    with autograd.record():
        out = net(*args)
    out.backward()
    return out, {name: nds[name].grad for name in grad}


def _arrays(case):
    names = [n for n, _, _ in case.inputs + case.extra]
    if case.sw is not None:
        names.append("sample_weight")
    return {n: GOLD[f"loss/{case.id}/in/{n}"] for n in names}


@pytest.mark.parametrize("case", TABLE.LOSSES, ids=lambda c: c.id)
def test_loss_matches_reference(case):
    arrays = _arrays(case)
    variants = [False, True] if case.sw is not None or case.extra else [False]
    for mode in ("imperative", "hybrid") if case.hybrid else ("imperative",):
        for with_sw in variants:
            with mx.name.NameManager():
                net = eval(case.expr, NS)  # noqa: S307 - expressions from the golden table
            assert repr(net) == META["losses"][case.id]["repr"]
            if mode == "hybrid":
                net.hybridize()
            tag = ("sw_" if with_sw else "") + ("h" if mode == "hybrid" else "")
            out, grads = _call(net, case, arrays, with_sw, case.record)
            what = f"{case.id} {mode}{' with sample_weight' if with_sw else ''}"
            close(out, GOLD[f"loss/{case.id}/{tag}y"], f"{what}: loss")
            for name, g in grads.items():
                close(g, GOLD[f"loss/{case.id}/{tag}g/{name}"], f"{what}: gradient of {name}")


def test_poisson_full_works_under_autograd_and_hybridized():
    # 1.9.1 multiplies in place here, so it cannot record or hybridize; this one can
    case = next(c for c in TABLE.LOSSES if c.id == "poisson_full")
    arrays = _arrays(case)
    expected = GOLD[f"loss/{case.id}/sw_y"]
    for hybrid in (False, True):
        net = gloss.PoissonNLLLoss(from_logits=False, compute_full=True)
        if hybrid:
            net.hybridize()
        pred = mx.nd.array(arrays["pred"])
        pred.attach_grad()
        with autograd.record():
            out = net(pred, mx.nd.array(arrays["target"]), mx.nd.array(arrays["sample_weight"]))
        out.backward()
        close(out, expected, f"poisson_full hybrid={hybrid}")
        target, sw = arrays["target"], arrays["sample_weight"]
        close(pred.grad, (1 - target / (arrays["pred"] + 1e-8)) * sw / target.size,
              "poisson_full gradient", rtol=1e-3)


def test_loss_reprs_and_aliases():
    assert repr(gloss.L1Loss()) == "L1Loss(batch_axis=0, w=None)"
    assert repr(gloss.HuberLoss(weight=0.5, batch_axis=1)) == "HuberLoss(batch_axis=1, w=0.5)"
    assert gloss.SigmoidBCELoss is gloss.SigmoidBinaryCrossEntropyLoss
    assert gloss.SoftmaxCELoss is gloss.SoftmaxCrossEntropyLoss
    with mx.name.NameManager():
        assert gloss.L2Loss().prefix == "l2loss0_"


def test_loss_argument_checks():
    with pytest.raises(ValueError):
        gloss.LogisticLoss(label_format="zero_one")
    with pytest.raises(AssertionError):
        gloss.CTCLoss(layout="NCT")
    with pytest.raises(AssertionError):
        gloss.CTCLoss(label_layout="TT")
    with pytest.raises(AssertionError):
        gloss.L1Loss(weight="2")(mx.nd.ones((2, 2)), mx.nd.ones((2, 2)))


def test_batch_axis_means_over_other_axes():
    pred = mx.nd.array(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    out = gloss.L1Loss(batch_axis=1)(pred, mx.nd.zeros((2, 3, 4)))
    np.testing.assert_allclose(out.asnumpy(), pred.asnumpy().mean(axis=(0, 2)), rtol=1e-6)
