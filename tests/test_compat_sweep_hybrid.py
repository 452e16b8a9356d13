"""Compatibility sweep: HybridBlock hybridization semantics and block introspection
(warnings at trace time, call-structure checks, hooks), against behaviour recorded from
MXNet 1.9.1."""
import json
import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon, nd
from mxnet.gluon import DeferredInitializationError, nn


def _messages(fn):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        out = fn()
    return out, [str(w.message) for w in rec if issubclass(w.category, UserWarning)]


# -- unused inputs / parameters --------------------------------------------------------------------
class _AddFirstAndLast(gluon.HybridBlock):
    def hybrid_forward(self, F, a, b=None, c=None, d=None):
        return a + d


class _UsesSecondOfList(gluon.HybridBlock):
    def hybrid_forward(self, F, a, lst):
        return a + lst[1]


def test_unused_input_warning_counts_non_none_flattened_inputs():
    # recorded from 1.9.1: inputs (a, None, c, d) with c unused -> "The 1-th input ..."
    blk = _AddFirstAndLast()
    blk.hybridize()
    one = nd.ones((2,))
    out, msgs = _messages(lambda: blk(one, None, one, one))
    assert out.asnumpy().tolist() == [2.0, 2.0]
    assert msgs == ["The 1-th input to HybridBlock is not used by any computation. "
                    "Is this intended?"]
    # the warning comes with the trace only
    _, msgs = _messages(lambda: blk(one, None, one, one))
    assert msgs == []


def test_unused_inputs_in_a_list_are_listed_in_one_warning():
    # recorded from 1.9.1: "The 1-th, 3-th input to HybridBlock is not used ..."
    blk = _UsesSecondOfList()
    blk.hybridize()
    one = nd.ones((2,))
    out, msgs = _messages(lambda: blk(one, [one, one, one]))
    assert out.asnumpy().tolist() == [2.0, 2.0]
    assert msgs == ["The 1-th, 3-th input to HybridBlock is not used by any computation. "
                    "Is this intended?"]


class _TwoInputsOneParamUnused(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.d = nn.Dense(3, in_units=4)
            self.unused_w = self.params.get("unused_w", shape=(2, 2))

    def hybrid_forward(self, F, x, y, unused_w):
        return self.d(x)


def test_unused_input_and_parameter_warnings_text_and_order():
    # recorded from 1.9.1 (prefix two0_): input warning first, then one per parameter
    blk = _TwoInputsOneParamUnused(prefix="two0_")
    blk.initialize()
    blk.hybridize()
    out, msgs = _messages(lambda: blk(nd.ones((2, 4)), nd.ones((2, 5))))
    assert out.shape == (2, 3)
    assert msgs == ["The 1-th input to HybridBlock is not used by any computation. "
                    "Is this intended?",
                    "Parameter two0_unused_w is not used by any computation. Is this intended?"]


class _OneOfTwoLayers(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.fc1 = nn.Dense(2)
            self.fc2 = nn.Dense(5)

    def hybrid_forward(self, F, x):
        return self.fc1(x)


def test_unused_layer_one_warning_and_deferred_init_value_error():
    # recorded from 1.9.1: one warning names every unused parameter; as fc1's shapes are
    # deferred, the call then fails with a ValueError (fc2's shapes cannot be inferred), and
    # fails again on the next call; nothing was initialized
    blk = _OneOfTwoLayers(prefix="n_")
    blk.initialize(mx.init.One())
    blk.hybridize()
    for _ in range(2):
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            with pytest.raises(ValueError, match="Deferred initialization failed"):
                blk(nd.ones((1, 3)))
        # (1.9.1 lists the names in set order, this implementation in collect order)
        msgs = [str(w.message) for w in rec]
        assert len(msgs) == 1 and msgs[0].startswith("Parameter ")
        tail = " is not used by any computation. Is this intended?"
        assert msgs[0].endswith(tail)
        names = msgs[0][len("Parameter "):-len(tail)].split(", ")
        assert sorted(names) == ["n_dense1_bias", "n_dense1_weight"]
    with pytest.raises(DeferredInitializationError):
        blk.fc1.weight.data()
    # not hybridized: fc2 is never called and the block runs
    blk2 = _OneOfTwoLayers()
    blk2.initialize(mx.init.One())
    assert blk2(nd.ones((1, 3))).asnumpy().tolist() == [[3.0, 3.0]]


def test_unused_initialized_layer_only_warns():
    # recorded from 1.9.1: a child added later, initialized but deferred and unused, gives
    # the warning and the call runs since every parameter the graph uses has its data
    blk = _OneOfTwoLayers()
    blk.fc1.initialize(mx.init.One())
    blk.hybridize()
    blk.fc1(nd.ones((1, 3)))
    blk.fc2.initialize()
    out, msgs = _messages(lambda: blk(nd.ones((1, 3))))
    assert out.asnumpy().tolist() == [[3.0, 3.0]]
    assert len(msgs) == 1 and "dense" in msgs[0] and "not used" in msgs[0]


# -- when hybrid_forward is traced --------------------------------------------------------------------
class _Counting(gluon.HybridBlock):
    def __init__(self, in_units=0, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.d = nn.Dense(2, in_units=in_units)
        self.traces = []

    def hybrid_forward(self, F, x):
        self.traces.append(type(x).__name__)
        return self.d(x)


def test_graph_is_traced_once_and_shared_with_infer_shape():
    # recorded from 1.9.1: a hybridized block traces at its first call only; infer_shape
    # then infer_type trace once; hybridize() drops the graph. (When the first call also
    # infers deferred shapes, this implementation traces a second time, with the shapes
    # known; 1.9.1 traces once.)
    blk = _Counting(in_units=3)
    blk.initialize()
    blk.hybridize()
    blk(nd.ones((1, 3)))
    blk(nd.ones((1, 3)))
    assert blk.traces == ["Symbol"]
    blk2 = _Counting()
    blk2.initialize()
    blk2.infer_shape(nd.ones((1, 3)))
    blk2.infer_type(nd.ones((1, 3)))
    assert blk2.traces == ["Symbol"]
    blk2.hybridize()
    blk2(nd.ones((1, 3)))
    assert blk2.traces == ["Symbol", "Symbol"]
    # imperative: the child infers its own shapes; the outer block runs on NDArrays once
    blk3 = _Counting()
    blk3.initialize()
    blk3(nd.ones((1, 3)))
    assert blk3.traces == ["NDArray"]
    # cast and hybridize() trace again; new shapes and repeated calls do not
    blk.cast("float64")
    blk(nd.ones((4, 3), dtype="float64"))
    blk(nd.ones((2, 3), dtype="float64"))
    assert blk.traces == ["Symbol", "Symbol"]


# -- call structure against the traced one -----------------------------------------------------------
class _OptionalMask(gluon.HybridBlock):
    def hybrid_forward(self, F, x, mask=None):
        return x * 2 if mask is None else x * mask


class _PairInput(gluon.HybridBlock):
    def hybrid_forward(self, F, a, b):
        return a + b[0] * b[1]


def test_trailing_none_matches_but_other_structures_raise_value_error():
    # recorded from 1.9.1: f(x) then f(x, None) runs; f(x, mask) after f(x) raises ValueError
    x, m = nd.ones((2,)), nd.array([1, 0])
    blk = _OptionalMask()
    blk.hybridize()
    assert blk(x).asnumpy().tolist() == [2.0, 2.0]
    assert blk(x, None).asnumpy().tolist() == [2.0, 2.0]
    with pytest.raises(ValueError, match="argument structure"):
        blk(x, m)
    blk2 = _OptionalMask()
    blk2.hybridize()
    assert blk2(x, None).asnumpy().tolist() == [2.0, 2.0]
    assert blk2(x).asnumpy().tolist() == [2.0, 2.0]


def test_same_count_different_nesting_raises_value_error():
    # recorded from 1.9.1: traced with (x, [m, m]); (x, (m, m)) runs, while (x, m, m),
    # (x, [m, [m]]) and ([x], [m, m]) raise ValueError; an identity block traced on x
    # refuses [x]
    x, m = nd.ones((2,)), nd.array([1, 0])
    blk = _PairInput()
    blk.hybridize()
    assert blk(x, [m, m]).asnumpy().tolist() == [2.0, 1.0]
    assert blk(x, (m, m)).asnumpy().tolist() == [2.0, 1.0]
    for args in [(x, m, m), (x, [m, [m]]), ([x], [m, m])]:
        with pytest.raises(ValueError, match="argument structure"):
            blk(*args)
    ident = nn.HybridLambda(lambda F, a: a)
    ident.hybridize()
    assert ident(x).asnumpy().tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="argument structure"):
        ident([x])


# -- summary of a SymbolBlock -------------------------------------------------------------------------
# recorded from 1.9.1
_SB_SUMMARY = """\
--------------------------------------------------------------------------------
        Layer (type)                                Output Shape         Param #
================================================================================
               Input                                      (2, 4)               0
       SymbolBlock-1                                      (2, 3)              15
================================================================================
Parameters in forward computation graph, duplicate included
   Total params: 15
   Trainable params: 15
   Non-trainable params: 0
Shared params in forward computation graph: 0
Unique parameters in model: 15
--------------------------------------------------------------------------------
"""


def test_symbol_block_summary_until_hybridized(capsys):
    data = mx.sym.var("data")
    sym = mx.sym.relu(mx.sym.FullyConnected(data, num_hidden=3, name="fc"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sb = gluon.SymbolBlock(sym, data)
    sb.initialize(mx.init.One())
    capsys.readouterr()
    sb.summary(nd.ones((2, 4)))
    assert capsys.readouterr().out == _SB_SUMMARY
    assert sb(nd.ones((2, 4))).asnumpy().tolist() == [[5.0] * 3] * 2
    sb.hybridize()
    with pytest.raises(AssertionError, match="must not be hybridized"):
        sb.summary(nd.ones((2, 4)))
    sb.hybridize(False)
    sb.summary(nd.ones((2, 4)))
    assert capsys.readouterr().out == _SB_SUMMARY


def test_symbol_block_hybridize_warns_about_hooks_and_rebuilds():
    # recorded from 1.9.1: hybridize() on a SymbolBlock with a forward hook warns, and the
    # next call rebuilds the graph (the unused-input warning comes again)
    a, b = mx.sym.var("a"), mx.sym.var("b")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sb = gluon.SymbolBlock(mx.sym.relu(a) * 2, [a, b])
    x, y = nd.array([1, -1]), nd.ones((2,))
    out, msgs = _messages(lambda: sb(x, y))
    assert out.asnumpy().tolist() == [2.0, 0.0]
    assert msgs == ["The 1-th input to HybridBlock is not used by any computation. "
                    "Is this intended?"]
    assert _messages(lambda: sb(x, y))[1] == []
    seen = []
    sb.register_forward_hook(lambda blk, i, o: seen.append(type(o).__name__))
    _, msgs = _messages(sb.hybridize)
    assert len(msgs) == 1 and msgs[0].startswith('"SymbolBlock(') and "hook" in msgs[0]
    out, msgs = _messages(lambda: sb(x, y))
    assert out.asnumpy().tolist() == [2.0, 0.0] and seen == ["NDArray"]
    assert len(msgs) == 1 and msgs[0].startswith("The 1-th input")


# -- Parameter attributes -------------------------------------------------------------------------------
def test_overriding_a_parameter_attribute_raises_assertion():
    # recorded from 1.9.1: AssertionError (share through params=), while a new attribute
    # name registers the parameter and a different type is a TypeError
    class Blk(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.w = self.params.get("w", shape=(1,))

        def hybrid_forward(self, F, x, w):
            return x * w

    blk = Blk()
    with pytest.raises(AssertionError, match="Overriding Parameter attribute"):
        blk.w = gluon.Parameter("z", shape=(2,))
    with pytest.raises(TypeError, match="Changing attribute type for w"):
        blk.w = nd.ones((1,))
    blk.extra = gluon.Parameter("extra_p", shape=(1,))
    assert list(blk._reg_params) == ["w", "extra"]


# -- forward hooks ----------------------------------------------------------------------------------
def test_hook_handle_is_importable_and_one_function_registers_once():
    # recorded from 1.9.1: the same function registered twice is called once, and one
    # detach() removes it
    from mxnet.gluon.utils import HookHandle
    dense = nn.Dense(2, in_units=2)
    dense.initialize()
    calls = []

    def hook(blk, inp, out):
        calls.append(blk.name)

    h1 = dense.register_forward_hook(hook)
    dense.register_forward_hook(hook)
    assert isinstance(h1, HookHandle)
    dense(nd.ones((1, 2)))
    assert len(calls) == 1
    h1.detach()
    h1.detach()   # a second detach is harmless
    dense(nd.ones((1, 2)))
    assert len(calls) == 1
    pre = []
    with dense.register_forward_pre_hook(lambda blk, inp: pre.append(len(inp))):
        dense(nd.ones((1, 2)))
    dense(nd.ones((1, 2)))
    assert pre == [1]


# -- parameters on several contexts ----------------------------------------------------------------------
def test_save_and_reset_ctx_average_the_copies(tmp_path):
    # recorded from 1.9.1: copies [1, 1] and [4, 4] save and move as [2.5, 2.5]; int32
    # copies 1 and 2 average to 1
    p = gluon.Parameter("w", shape=(2,))
    p.initialize(ctx=[mx.cpu(0), mx.cpu(1)])
    p.data(mx.cpu(0))[:] = 1
    p.data(mx.cpu(1))[:] = 4
    pd = gluon.ParameterDict()
    pd._params["w"] = p
    pd.save(str(tmp_path / "w.params"))
    assert nd.load(str(tmp_path / "w.params"))["w"].asnumpy().tolist() == [2.5, 2.5]
    p.reset_ctx(mx.cpu(3))
    assert p.list_ctx() == [mx.cpu(3)] and p.data().asnumpy().tolist() == [2.5, 2.5]
    q = gluon.Parameter("q", shape=(3,), dtype="int32")
    q.initialize(ctx=[mx.cpu(0), mx.cpu(1)], init=mx.init.Zero())
    q.data(mx.cpu(0))[:] = 1
    q.data(mx.cpu(1))[:] = 2
    q.reset_ctx(mx.cpu(0))
    assert q.data().asnumpy().tolist() == [1, 1, 1] and q.data().dtype == np.int32


def test_batchnorm_running_stats_trained_on_two_contexts_are_averaged():
    # recorded from 1.9.1: after one training step per context, moving the block to a
    # third context averages the running means (0.2 and 0.4) before inference
    net = nn.HybridSequential()
    net.add(nn.Dense(2, in_units=2), nn.BatchNorm(in_channels=2))
    net.initialize(mx.init.One(), ctx=[mx.cpu(0), mx.cpu(1)])
    net.hybridize(static_alloc=True)
    from mxnet import autograd
    with autograd.record():
        l0 = net(nd.ones((2, 2), ctx=mx.cpu(0))).sum()
        l1 = net(nd.ones((2, 2), ctx=mx.cpu(1)) * 2).sum()
    autograd.backward([l0, l1])
    net.collect_params().reset_ctx(mx.cpu(2))
    out = net(nd.ones((1, 2), ctx=mx.cpu(2)))
    np.testing.assert_allclose(out.asnumpy(), [[1.7919, 1.7919]], rtol=1e-4)


# -- infer_shape before the first hybridized call ------------------------------------------------------------
@pytest.mark.parametrize("order", ["call", "infer_then_hybridize", "hybridize_then_infer"])
def test_rnn_layer_export_after_infer_shape(order, tmp_path):
    # recorded from 1.9.1: the exported graph is the same in every order
    from mxnet.gluon import rnn
    layer = rnn.LSTM(3, num_layers=1, prefix="l_")
    layer.initialize()
    x, st = nd.ones((2, 1, 4)), layer.begin_state(1)
    if order == "infer_then_hybridize":
        layer.infer_shape(x, st)
    layer.hybridize()
    if order == "hybridize_then_infer":
        layer.infer_shape(x, st)
    layer(x, st)
    layer.export(str(tmp_path / "l"))
    graph = json.loads((tmp_path / "l-symbol.json").read_text())
    assert [n["op"] for n in graph["nodes"] if n["op"] != "null"] == \
        ["Reshape", "Reshape", "Reshape", "Reshape", "_rnn_param_concat", "RNN"]
