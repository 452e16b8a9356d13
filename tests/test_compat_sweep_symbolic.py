"""Regressions found by running realistic MXNet 1.9.1 scripts for the symbolic API, the
Module API and the legacy mx.rnn API under both libraries.

Every expected literal below was recorded by running the same code under MXNet 1.9.1.
"""
import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError


def _partial(sym, **shapes):
    args, outs, aux = sym.infer_shape_partial(**shapes)
    return dict(zip(sym.list_arguments(), args)), outs, aux


# -- partial shape inference: learnable inputs wait for the data shape ---------------------------

def test_partial_shapes_wait_for_the_data_shape():
    d = mx.sym.var("data")
    # recorded from 1.9.1: with no shapes given, nothing is inferred, biases included
    for sym in (mx.sym.FullyConnected(d, num_hidden=3, name="x"),
                mx.sym.Convolution(d, kernel=(3, 3), num_filter=4, name="x"),
                mx.sym.Embedding(d, input_dim=7, output_dim=3, name="x"),
                mx.sym.GroupNorm(d, num_groups=2, name="x")):
        args, outs, _ = _partial(sym)
        assert set(args.values()) == {()} and outs == [()]
    # and once the data shape is known they are
    args, outs, _ = _partial(mx.sym.Convolution(d, kernel=(3, 3), num_filter=4, name="x"),
                             data=(2, 3, 5, 5))
    assert args == {"data": (2, 3, 5, 5), "x_weight": (4, 3, 3, 3), "x_bias": (4,)}
    assert outs == [(2, 4, 3, 3)]
    args, outs, _ = _partial(mx.sym.Embedding(d, input_dim=7, output_dim=3, name="x"),
                             data=(2, 5))
    assert args == {"data": (2, 5), "x_weight": (7, 3)} and outs == [(2, 5, 3)]


def test_infer_shape_warning_lists_the_unknown_biases():
    data = mx.sym.var("data")
    net = mx.sym.FullyConnected(data, num_hidden=10, name="fc1")
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(net, num_hidden=3, name="fc2"),
                               name="softmax")
    with pytest.warns(UserWarning) as rec:
        assert net.infer_shape() == (None, None, None)
    # recorded from 1.9.1: every argument is listed, the biases among them
    msg = str(rec[0].message)
    assert "\tfc1_bias: ()" in msg and "\tfc2_bias: ()" in msg


def test_regression_output_partial_batch_dimension():
    d = mx.sym.var("data")
    sym = mx.sym.LinearRegressionOutput(d, name="x")
    # recorded from 1.9.1: ([(0, 5), ()], [()], [])
    assert sym.infer_shape_partial(data=(0, 5)) == ([(0, 5), ()], [()], [])
    assert sym.infer_shape(data=(2, 5)) == ([(2, 5), (2, 5)], [(2, 5)], [])


def test_group_norm_channels_must_divide_into_groups():
    sym = mx.sym.GroupNorm(mx.sym.var("data"), num_groups=2, name="x")
    # 1.9.1: "# of channels must be divisible by # of groups" at shape inference
    with pytest.raises(MXNetError, match="num_groups=2"):
        sym.infer_shape_partial(data=(2, 3, 5, 5))
    # recorded from 1.9.1: gamma and beta have one entry per group
    assert _partial(sym, data=(2, 4, 5, 5))[0] == {"data": (2, 4, 5, 5), "x_gamma": (2,),
                                                   "x_beta": (2,)}


def test_infer_type_error_prints_the_arguments(capsys):
    a, b = mx.sym.var("a"), mx.sym.var("b")
    c = mx.sym.broadcast_mul(mx.sym.var("x", dtype="float16"), b)
    with pytest.raises(MXNetError):
        c.infer_type(b="float32")
    # recorded from 1.9.1 (stdout)
    assert capsys.readouterr().out == "infer_type error. Arguments:\n  b: float32\n"
    with pytest.raises(MXNetError):
        mx.sym.elemwise_add(a, b).infer_type(a="int32", b="float32")
    assert capsys.readouterr().out == ("infer_type error. Arguments:\n  a: int32\n"
                                       "  b: float32\n")


# -- mx.rnn ---------------------------------------------------------------------------------------

def test_bucket_sentence_iter_without_a_usable_bucket(capsys):
    sents = [[1, 2, 3], [4, 5], [1, 2, 3, 4, 5]] * 3
    # 1.9.1 prints the discard warning, then fails with a ValueError (max() of no buckets)
    with pytest.raises(ValueError):
        mx.rnn.BucketSentenceIter(sents, batch_size=100)
    assert capsys.readouterr().out == ("WARNING: discarded 9 sentences longer than the "
                                       "largest bucket.\n")
    # recorded from 1.9.1: an explicit bucket list keeps the buckets that receive sentences
    it = mx.rnn.BucketSentenceIter(sents, batch_size=2, buckets=[1, 2, 3, 4, 50])
    assert it.buckets == [2, 3, 50] and it.default_bucket_key == 50
    assert [len(d) for d in it.data] == [3, 3, 3]
    assert np.asarray(it.data[0]).tolist() == [[4, 5]] * 3


def test_not_implemented_for_symbol_lives_in_base():
    # 1.9.1 defines it in mxnet.base (a subclass of MXNetError), where scripts import it from
    from mxnet.base import NotImplementedForSymbol
    a = mx.sym.var("a")
    with pytest.raises(NotImplementedForSymbol) as e:
        a += 1
    # recorded from 1.9.1
    assert str(e.value) == ('Function __iadd__ (namely operator "+=") with arguments '
                            "(<class 'int'>, <class 'int'>) is not implemented for Symbol and "
                            "only available in NDArray.")
    assert issubclass(NotImplementedForSymbol, MXNetError)


# -- Executor ------------------------------------------------------------------------------------

def _close(got, want):
    assert sorted(got) == sorted(want)
    for k, v in want.items():
        np.testing.assert_allclose(got[k].asnumpy(), v, rtol=1e-4, atol=1e-4)


def _fc_times_b():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    with mx.name.NameManager():
        c = mx.sym.FullyConnected(a, num_hidden=3, name="fc") * b
    ex = c.simple_bind(mx.cpu(), a=(2, 2), b=(2, 3))
    for _, v in sorted(ex.arg_dict.items()):
        v[:] = np.arange(v.size).reshape(v.shape) * 0.1 - 0.2
    return ex


def test_backward_after_an_inference_forward():
    ex = _fc_times_b()
    ex.forward()   # is_train=False: 1.9.1 still back-propagates from this forward's values
    ex.backward(mx.nd.ones((2, 3)))
    # recorded from 1.9.1
    _close(ex.grad_dict, {"a": [[0.04, 0.01], [0.04, 0.1]],
                          "b": [[-0.15, -0.11, -0.07], [-0.21, -0.09, 0.03]],
                          "fc_bias": [-0.1, 0.1, 0.3],
                          "fc_weight": [[0.04, 0.03], [0.02, 0.03], [0.0, 0.03]]})
    # BatchNorm after an inference forward: the moving statistics, left unchanged
    a = mx.sym.var("a")
    eb = mx.sym.BatchNorm(a, name="bn", fix_gamma=False).simple_bind(mx.cpu(), a=(3, 2))
    eb.arg_dict["a"][:] = [[1, 2], [3, 5], [0, 1]]
    eb.arg_dict["bn_gamma"][:] = 1
    eb.aux_dict["bn_moving_var"][:] = 2
    eb.forward(is_train=False)
    eb.backward(mx.nd.array([[1, 0], [0, 1], [1, 1]]))
    _close(eb.grad_dict, {"a": [[0.1179, -1.8844], [-0.8246, -3.2972], [0.2356, -0.4709]],
                          "bn_beta": [2.0, 2.0], "bn_gamma": [0.7069, 4.2416]})
    assert eb.aux_dict["bn_moving_var"].asnumpy().tolist() == [2.0, 2.0]


def test_monitor_callback_names_are_bytes():
    ex = _fc_times_b()
    names = []
    ex.set_monitor_callback(lambda name, arr: names.append(name))
    ex.forward(is_train=True)
    # recorded from 1.9.1 (its callback receives C strings)
    assert names == [b"fc_output", b"_mul0_output"]
    names.clear()
    ex.set_monitor_callback(lambda name, arr: names.append(name), monitor_all=True)
    ex.forward(is_train=False)
    assert names == [b"a", b"fc_data", b"fc_weight", b"fc_weight", b"fc_bias", b"fc_bias",
                     b"fc_output", b"_mul0_lhs", b"b", b"_mul0_rhs", b"_mul0_output"]
    names.clear()
    ex.backward(mx.nd.ones((2, 3)))
    assert names[:4] == [b"_head_grad_0", b"_head_grad_0_id_lhs", b"_head_grad_0_id_rhs",
                         b"_head_grad_0_id_output"]
    assert names[-3:] == [b"fc_backward_output0", b"fc_backward_output1",
                          b"fc_backward_output2"]
    # a reshaped executor keeps the callback, bytes names included
    names.clear()
    ex.reshape(a=(1, 2), b=(1, 3)).forward()
    assert names and all(isinstance(n, bytes) for n in names)


def test_bad_grad_req_is_both_value_and_runtime_error():
    c = mx.sym.FullyConnected(mx.sym.var("a"), num_hidden=2, name="fc")
    # 1.9.1: simple_bind (and Module.bind) raise RuntimeError, bind raises ValueError
    with pytest.raises(RuntimeError):
        c.simple_bind(mx.cpu(), a=(2, 3), grad_req="bogus")
    with pytest.raises(ValueError):
        c.bind(mx.cpu(), {"a": mx.nd.ones((2, 3)), "fc_weight": mx.nd.ones((2, 3)),
                          "fc_bias": mx.nd.ones(2)}, grad_req="bogus")
    mod = mx.mod.Module(c, label_names=None, data_names=["a"])
    with pytest.raises(RuntimeError):
        mod.bind([("a", (2, 3))], grad_req={"a": "bogus"})


def test_non_symbol_in_an_input_position_is_an_assertion_error():
    d = mx.sym.var("data")
    # recorded from 1.9.1: AssertionError "Argument rhs must be Symbol instances, but got 1"
    with pytest.raises(AssertionError, match="^Argument rhs must be Symbol instances, but got 1$"):
        mx.sym.elemwise_add(d, 1)
    with pytest.raises(AssertionError, match="Argument rhs must be Symbol instances"):
        mx.sym.broadcast_add(d, [1, 2])
    with pytest.raises(AssertionError, match="Argument data must be Symbol instances"):
        mx.sym.FullyConnected(mx.nd.ones((2, 2)), num_hidden=2)
    # parameters given positionally after the inputs still work
    assert mx.sym.clip(d, 0, 1).eval(data=mx.nd.array([-1, 0.5, 2]))[0].asnumpy().tolist() == \
        [0.0, 0.5, 1.0]
    assert mx.sym.Dropout(d, 0.5).attr("p") == "0.5"
    # recorded from 1.9.1: an input given twice is Python's TypeError
    with pytest.raises(TypeError, match="relu\\(\\) got multiple values for argument 'data'"):
        mx.sym.relu(d, data=d)


def test_make_loss_gradient_node_reads_the_data_only_for_valid_normalization():
    x = mx.sym.var("x")
    with mx.name.NameManager():
        sq = mx.sym.square(x)
    for norm, inputs in (("null", []), ("batch", []), ("valid", ["\targ[0]=square0(0)"])):
        ex = mx.sym.MakeLoss(sq, name="loss", normalization=norm).simple_bind(mx.cpu(), x=(2,))
        block = ex.debug_str().split("Op:_backward_MakeLoss, Name=loss_backward\n")[1]
        block = block.split("--------------------")[0].rstrip("\n").split("\n")
        # recorded from 1.9.1
        assert block == ["Inputs:", *inputs, "Attrs:", f"\tnormalization={norm}",
                         "Control deps:", "\tcdep[0]=loss"]


def _backward_block(sym, shape):
    txt = sym.simple_bind(mx.cpu(), x=shape).debug_str()
    return txt[txt.index("Op:_backward"):].split("Total")[0].rstrip("\n").split("\n")


def test_legacy_gradient_nodes_in_debug_str():
    x = mx.sym.var("x")
    # recorded from 1.9.1: what each legacy operator's gradient node reads
    assert _backward_block(mx.sym.L2Normalization(x, name="op"), (2, 3)) == [
        "Op:_backward_L2Normalization, Name=op_backward", "Inputs:",
        "\targ[0]=_head_grad_0_id(0)", "\targ[1]=op(0)", "\targ[2]=op(1)",
        "Control deps:", "\tcdep[0]=op"]
    assert _backward_block(mx.sym.SVMOutput(x, name="op"), (2, 3))[1:4] == [
        "Inputs:", "\targ[0]=op_label(0) version=0", "\targ[1]=op(0)"]
    assert _backward_block(mx.sym.InstanceNorm(x, name="op"), (2, 3, 4))[2:7] == [
        "\targ[0]=_head_grad_0_id(0)", "\targ[1]=op(1)", "\targ[2]=op(2)",
        "\targ[3]=x(0) version=0", "\targ[4]=op_gamma(0) version=0"]
    pad = mx.sym.pad(x, mode="edge", pad_width=(0, 0, 0, 0, 1, 1, 1, 1), name="op")
    assert _backward_block(pad, (1, 1, 2, 2))[1:4] == ["Inputs:", "\targ[0]=_head_grad_0_id(0)",
                                                       "Attrs:"]
    # an operator whose gradient is not traced (GridGenerator) no longer breaks debug_str
    grid = mx.sym.GridGenerator(x, transform_type="affine", target_shape=(2, 2), name="op")
    assert _backward_block(grid, (1, 6))[1:4] == ["Inputs:", "\targ[0]=_head_grad_0_id(0)",
                                                  "\targ[1]=op(1)"]


def test_legacy_gradient_outputs_are_named_after_the_arguments():
    x = mx.sym.var("x")
    names = {}
    for key, sym, shape in (("svm", mx.sym.SVMOutput(x, name="op"), (2, 3)),
                            ("crop", mx.sym.Crop(x, offset=(1, 1), h_w=(1, 1), name="op"),
                             (1, 1, 3, 3)),
                            ("bn_v1", mx.sym.BatchNorm_v1(x, name="op"), (2, 3))):
        ex = sym.simple_bind(mx.cpu(), x=shape)
        seen = []
        ex.set_monitor_callback(lambda n, a, seen=seen: seen.append(n.decode()))
        ex.forward(is_train=True)
        ex.backward([mx.nd.ones(o.shape) for o in ex.outputs])
        names[key] = [n for n in seen if "_backward_" in n]
    # recorded from 1.9.1 (mx.monitor.Monitor output)
    assert names == {"svm": ["op_backward_data", "op_backward_label"],
                     "crop": ["op_backward_arg0"],
                     "bn_v1": ["op_backward_data", "op_backward_gamma", "op_backward_beta"]}


def _node_block(ex, name):
    """The debug_str lines of node ``name`` (without the separator)."""
    lines = ex.debug_str().split("\n")
    i = next(k for k, ln in enumerate(lines) if ln.endswith(f"Name={name}"))
    j = next((k for k in range(i + 1, len(lines)) if lines[k].startswith(("-----", "Total", "Variable:"))),
             len(lines))
    return lines[i:j]


def test_gradient_nodes_of_reductions_and_index_ops_in_debug_str():
    x = mx.sym.var("x")
    with mx.name.NameManager():
        prod = mx.sym.prod(x, axis=1)
        topk = mx.sym.topk(x, k=2, ret_typ="value")
        pick = mx.sym.pick(x, mx.sym.BlockGrad(mx.sym.zeros((2,))), axis=1)
        lossy = mx.sym.make_loss(mx.sym.sum(x))
        bcast = mx.sym.broadcast_to(mx.sym.sum(x, axis=0, keepdims=True), shape=(4, 3))
        bdot = mx.sym.batch_dot(mx.sym.expand_dims(x, 0),
                                mx.sym.expand_dims(mx.sym.transpose(x), 0))

    def block(sym, name):
        return _node_block(sym.simple_bind(mx.cpu(), x=(2, 3)), name)
    # recorded from 1.9.1
    assert block(prod, "prod0_backward")[1:5] == [
        "Inputs:", "\targ[0]=_head_grad_0_id(0)", "\targ[1]=x(0) version=0", "\targ[2]=prod0(0)"]
    assert block(topk, "topk0_backward")[1:5] == [
        "Inputs:", "\targ[0]=_head_grad_0_id(0)", "\targ[1]=topk0(0)", "\targ[2]=topk0(1)"]
    assert block(pick, "pick0_backward")[1:4] == [
        "Inputs:", "\targ[0]=_head_grad_0_id(0)", "\targ[1]=blockgrad0(0)"]
    assert block(lossy, "make_loss0_backward") == [
        "Op:ones_like, Name=make_loss0_backward", "Inputs:", "\targ[0]=sum0(0)",
        "Control deps:", "\tcdep[0]=make_loss0"]
    assert "Variable:_head_grad_0" not in lossy.simple_bind(mx.cpu(), x=(2, 3)).debug_str()
    assert block(bcast, "broadcast_to0_backward")[3:5] == ["Attrs:", "\tkeepdims=true"]
    assert block(bdot, "batch_dot0_backward_lhs")[4:7] == [
        "Attrs:", "\ttranspose_a=false", "\ttranspose_b=true"]
    assert block(bdot, "batch_dot0_backward_rhs")[4:7] == [
        "Attrs:", "\ttranspose_a=true", "\ttranspose_b=false"]


def test_monitor_names_of_make_loss_and_pick():
    x = mx.sym.var("x")
    with mx.name.NameManager():
        lossy = mx.sym.make_loss(mx.sym.sum(x))
        pick = mx.sym.pick(x, mx.sym.BlockGrad(mx.sym.zeros((2,))), axis=1)
    got = {}
    for key, sym in (("make_loss", lossy), ("pick", pick)):
        ex = sym.simple_bind(mx.cpu(), x=(2, 3))
        mon = mx.monitor.Monitor(1, pattern=".*")
        mon.install(ex)
        mon.tic()
        ex.forward(is_train=True)
        ex.backward([mx.nd.ones(o.shape) for o in ex.outputs])
        got[key] = [name for _, name, _ in mon.toc()]
    # recorded from 1.9.1
    assert got["make_loss"] == ["sum0_output", "make_loss0_loss", "make_loss0_backward_output",
                                "sum0_backward_output", "x"]
    assert got["pick"] == ["_zeros0_output", "blockgrad0_output", "pick0_output",
                           "_head_grad_0_id_output", "pick0_backward_output", "x"]


def test_gradient_nodes_of_two_input_ops_in_debug_str():
    x, y = mx.sym.var("x"), mx.sym.var("y")

    def block(make, name, **shapes):
        with mx.name.NameManager():
            sym = make()
        return _node_block(sym.simple_bind(mx.cpu(), **shapes), name)
    # recorded from 1.9.1
    roi = block(lambda: mx.sym.ROIPooling(x, mx.sym.BlockGrad(y), pooled_size=(1, 1),
                                          spatial_scale=1.0),
                "roipooling0_backward", x=(1, 1, 4, 4), y=(1, 5))
    assert roi[:5] == ["Op:_backward_ROIPooling, Name=roipooling0_backward", "Inputs:",
                       "\targ[0]=_head_grad_0_id(0)", "\targ[1]=blockgrad0(0)",
                       "\targ[2]=roipooling0(1)"]
    # BlockGrad's zero gradient node depends on the BlockGrad node
    zero = block(lambda: mx.sym.where(mx.sym.BlockGrad(y), x, x * 2), "blockgrad0_backward",
                 x=(2, 2), y=(2, 2))
    assert zero == ["Op:zeros_like, Name=blockgrad0_backward", "Inputs:",
                    "\targ[0]=y(0) version=0", "Control deps:", "\tcdep[0]=blockgrad0"]
    mask = block(lambda: mx.sym.SequenceMask(x, mx.sym.BlockGrad(y), use_sequence_length=True),
                 "sequencemask0_backward", x=(3, 2, 2), y=(2,))
    assert mask[1:4] == ["Inputs:", "\targ[0]=_head_grad_0_id(0)", "\targ[1]=blockgrad0(0)"]
    ctc = block(lambda: mx.sym.ctc_loss(x, mx.sym.BlockGrad(y)), "ctc_loss0_backward",
                x=(4, 1, 3), y=(1, 2))
    assert ctc[:6] == ["Op:_backward_ctc_loss, Name=ctc_loss0_backward", "Inputs:",
                       "\targ[0]=_head_grad_0_id(0)", "\targ[1]=zeros_without_dtype(0)",
                       "\targ[2]=ctc_loss0(0)", "\targ[3]=ctc_loss0(1)"]


class _SqLoss(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], 2 * in_data[0])
        self.assign(in_grad[1], req[1], in_data[1] * 0)


@mx.operator.register("compat_sweep_sqloss")
class _SqLossProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=False)

    def list_arguments(self):
        return ["data", "label"]

    def infer_shape(self, in_shape):
        return in_shape, [in_shape[0]], []

    def create_operator(self, ctx, shapes, dtypes):
        return _SqLoss()


def test_custom_op_gradient_node_in_debug_str_and_monitor():
    x, lab = mx.sym.var("data"), mx.sym.var("label")
    net = mx.sym.Custom(data=x, label=lab, name="sq", op_type="compat_sweep_sqloss")
    ex = net.simple_bind(mx.cpu(), data=(2, 3), label=(2, 3))
    # recorded from 1.9.1 (for a prop with need_top_grad=False): the gradient node carries
    # the forward node's name, reads what the prop declares and shows no attributes
    assert _node_block(ex, "sq")[:3] == ["Op:Custom, Name=sq", "Inputs:", "\targ[0]=data(0) version=0"]
    text = ex.debug_str()
    assert "\toutput[2]=sq(1)" in text
    i = text.index("Op:_backward_Custom, Name=sq")
    assert text[i:].split("Total")[0].rstrip("\n").split("\n") == [
        "Op:_backward_Custom, Name=sq", "Inputs:", "\targ[0]=data(0) version=0",
        "\targ[1]=label(0) version=0", "\targ[2]=sq(0)", "Control deps:", "\tcdep[0]=sq"]
    names = []
    ex.set_monitor_callback(lambda n, a: names.append(n.decode()), monitor_all=True)
    ex.forward(is_train=True)
    assert names == ["data", "sq_data", "label", "sq_label", "sq_output"]


def test_shared_buffer_holds_only_the_unshared_arguments():
    net = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=3, name="fc")
    # recorded from 1.9.1
    for shared, want in ((["fc_weight"], ["data", "fc_bias", "grad of data", "grad of fc_bias"]),
                         (None, ["data", "fc_bias", "fc_weight", "grad of data",
                                 "grad of fc_bias", "grad of fc_weight"])):
        buf = {}
        net.simple_bind(mx.cpu(), data=(4, 2), shared_buffer=buf, shared_arg_names=shared)
        assert sorted(buf) == want
    ex = net.simple_bind(mx.cpu(), data=(4, 2), grad_req={"data": "null", "fc_bias": "write"})
    assert {k: v is None for k, v in ex.grad_dict.items()} == {
        "data": True, "fc_bias": False, "fc_weight": True}
