"""Regressions found by a compatibility sweep of NLP / sequence-model code (gluon.rnn, sequence
ops, attention, text vocabularies, bucketing) against MXNet 1.9.1.

Literal expected values were recorded from MXNet 1.9.1 unless a comment says otherwise.
"""
import collections
import warnings

import numpy as onp
import pytest

import mxnet as mx
from mxnet import gluon
from mxnet.contrib import text


# -- mx.contrib.text ---------------------------------------------------------------------------
def test_pretrained_file_names_keep_the_reference_order():
    # recorded from 1.9.1: the lists come in its own (not alphabetical) order
    glove = text.embedding.get_pretrained_file_names("glove")
    assert glove[:4] == ["glove.42B.300d.txt", "glove.6B.50d.txt", "glove.6B.100d.txt",
                         "glove.6B.200d.txt"]
    assert glove[-2:] == ["glove.twitter.27B.100d.txt", "glove.twitter.27B.200d.txt"]
    fasttext = text.embedding.get_pretrained_file_names("fasttext")
    assert len(fasttext) == 327
    assert fasttext[:3] == ["crawl-300d-2M.vec", "wiki.aa.vec", "wiki.ab.vec"]
    assert fasttext[10:12] == ["wiki.an.vec", "wiki.arc.vec"]


@pytest.mark.parametrize("kwargs", [
    dict(reserved_tokens=["a", "a"]),
    dict(counter={"a": 1}),
    dict(min_freq=0),
    dict(reserved_tokens=["<unk>"]),
])
def test_vocabulary_bad_arguments_raise_assertion_error(kwargs):
    # 1.9.1 raises AssertionError for each of these
    with pytest.raises(AssertionError, match="Vocabulary"):
        text.vocab.Vocabulary(**kwargs)
    with pytest.raises(mx.base.MXNetError):
        text.vocab.Vocabulary(**kwargs)


def test_vocabulary_most_freq_count_zero_keeps_only_unknown():
    v = text.vocab.Vocabulary(collections.Counter("abc"), most_freq_count=0)
    assert v.idx_to_token == ["<unk>"]


# -- SymbolBlock parameter dtypes ----------------------------------------------------------------
def _export_float64_mlp(tmp_path):
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(3, in_units=2), gluon.nn.Dense(1, in_units=3))
    net.initialize(mx.init.One())
    net.cast("float64")
    net.hybridize()
    net(mx.nd.ones((2, 2), dtype="float64"))
    prefix = str(tmp_path / "f64")
    net.export(prefix)
    return prefix


def test_symbolblock_imports_keeps_saved_float64_dtype(tmp_path):
    prefix = _export_float64_mlp(tmp_path)
    # 1.9.1 warns that it cannot decide the bare input's type, then keeps the saved dtypes
    with pytest.warns(UserWarning, match="Cannot decide type"):
        sb = gluon.SymbolBlock.imports(prefix + "-symbol.json", ["data"], prefix + "-0000.params")
    assert {p.dtype for p in sb.collect_params().values()} == {onp.float64}
    out = sb(mx.nd.ones((2, 2), dtype="float64"))
    assert out.dtype == onp.float64
    assert out.asnumpy().tolist() == [[6.0], [6.0]]   # closed form: all-ones weights, zero biases


def test_symbolblock_param_dtypes_follow_typed_input_variable(tmp_path):
    prefix = _export_float64_mlp(tmp_path)
    data = mx.sym.var("data", dtype="float64")
    sb = gluon.SymbolBlock(mx.sym.load(prefix + "-symbol.json"), data)
    assert {p.dtype for p in sb.collect_params().values()} == {onp.float64}
    sb.collect_params().load(prefix + "-0000.params")      # no cast needed
    assert sb(mx.nd.ones((1, 2), dtype="float64")).dtype == onp.float64
    # an untyped input: every parameter defaults to float32 (as 1.9.1)
    d = mx.sym.var("d")
    fc = mx.sym.FullyConnected(mx.sym.Cast(d, dtype="float16"), num_hidden=2, name="fc")
    with pytest.warns(UserWarning, match="Cannot decide type"):
        sb3 = gluon.SymbolBlock(fc, [d])
    assert {p.dtype for p in sb3.collect_params().values()} == {onp.float32}


# -- weight tying: Dense(params=embedding.params) --------------------------------------------------
class _TiedLM(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.emb = gluon.nn.Embedding(6, 3)
            self.dec = gluon.nn.Dense(6, flatten=False, params=self.emb.params)

    def hybrid_forward(self, F, x):
        return self.dec(self.emb(x))


def test_dense_sharing_embedding_params_merges_unknown_in_units():
    net = _TiedLM(prefix="tied0_")
    # recorded from 1.9.1: the bias is created in the embedding's dict, the weight is shared
    assert sorted(net.collect_params().keys()) == ["tied0_embedding0_bias",
                                                   "tied0_embedding0_weight"]
    assert net.dec.weight is net.emb.weight
    assert net.dec.weight.shape == (6, 3)
    net.initialize()
    net.emb.weight.set_data(mx.nd.array(onp.arange(18).reshape(6, 3)))
    y = net(mx.nd.array([[1, 2]]))
    assert y.shape == (1, 2, 6)
    # closed form: logits = E[x] @ E.T (zero bias)
    e = onp.arange(18).reshape(6, 3).astype("float32")
    onp.testing.assert_allclose(y.asnumpy()[0], e[[1, 2]] @ e.T)


def test_shared_params_with_conflicting_known_dims_still_raise():
    emb = gluon.nn.Embedding(6, 3, prefix="emb_")
    with pytest.raises(AssertionError, match="emb_weight"):
        gluon.nn.Dense(5, flatten=False, params=emb.params)


def test_batch_take_logs_its_deprecation_on_each_call(capfd):
    a = mx.nd.arange(6).reshape((2, 3))
    i = mx.nd.array([2, 0], dtype="int32")
    mx.nd.batch_take(a, i)
    out = mx.nd.batch_take(a, i)
    assert out.asnumpy().tolist() == [2.0, 3.0]
    err = capfd.readouterr().err.splitlines()
    # recorded from 1.9.1 (after the "[HH:MM:SS] " stamp), once per imperative call
    line = ("../src/operator/tensor/./indexing_op.h:1090: batch_take is deprecated. "
            "Please use pick instead.")
    assert [e[11:] for e in err if "batch_take" in e] == [line, line]


def test_custom_embedding_format_errors_are_assertion_errors(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("hello 0.1 0.2\n\nfoo 1 2\n")
    # 1.9.1: AssertionError "At line 2 of the pre-trained text embedding file: ..."
    with pytest.raises(AssertionError, match="At line 2"):
        text.embedding.CustomEmbedding(str(bad), elem_delim=" ")
    good = tmp_path / "good.txt"
    good.write_text("a,1,2,3\nb,4,5,6\n")
    emb = text.embedding.CustomEmbedding(str(good), elem_delim=",")
    with pytest.raises(AssertionError, match="2-D"):
        emb.update_token_vectors(["a", "b"], mx.nd.array([0, 0, 0]))
    with pytest.raises(AssertionError):
        text.embedding.CompositeEmbedding(text.vocab.Vocabulary(), [object()])


# -- gluon.utils.clip_global_norm ------------------------------------------------------------------
def test_clip_global_norm_accepts_a_single_ndarray():
    # recorded from 1.9.1: the array is iterated row by row and clipped in place
    a = mx.nd.array([3.0, 4.0])
    norm = gluon.utils.clip_global_norm(a, 1.0)
    assert isinstance(norm, onp.float32) and norm == 5.0
    onp.testing.assert_allclose(a.asnumpy(), [0.6, 0.8], rtol=1e-6)
    b = mx.nd.array([[3.0, 4.0], [0.0, 0.0]])
    assert gluon.utils.clip_global_norm(b, 1.0) == 5.0
    onp.testing.assert_allclose(b.asnumpy(), [[0.6, 0.8], [0.0, 0.0]], rtol=1e-6)
    with pytest.raises(AssertionError):
        gluon.utils.clip_global_norm([], 1.0)


def test_symbolblock_imports_without_params_infers_from_float32_inputs(tmp_path):
    class Net(gluon.HybridBlock):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            with self.name_scope():
                self.emb = gluon.nn.Embedding(10, 4, dtype="float64")
                self.rnn = gluon.rnn.LSTM(3, input_size=4, dtype="float64", layout="NTC")
                self.out = gluon.nn.Dense(2, flatten=False, in_units=3, dtype="float64")

        def hybrid_forward(self, F, x):
            return self.out(self.rnn(self.emb(x)))

    net = Net(prefix="net0_")
    net.initialize()
    net.hybridize()
    x = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    y = net(x)
    prefix = str(tmp_path / "f64rnn")
    net.export(prefix)
    # recorded from 1.9.1: the input is typed float32 (no "Cannot decide type" warning) and the
    # Embedding's dtype attribute makes every parameter float64
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sb = gluon.SymbolBlock.imports(prefix + "-symbol.json", ["data"])
    assert {onp.dtype(p.dtype).name for p in sb.collect_params().values()} == {"float64"}
    sb.collect_params().load(prefix + "-0000.params")      # no cast_dtype needed
    out = sb(x)
    assert out.dtype == onp.float64
    onp.testing.assert_allclose(out.asnumpy(), y.asnumpy())


def test_legacy_rnn_module_reexports():
    # present in 1.9.1's mx.rnn namespace
    assert mx.rnn.load_checkpoint is mx.model.load_checkpoint
    assert mx.rnn.save_checkpoint is mx.model.save_checkpoint
    assert mx.rnn.DataDesc is mx.io.DataDesc and mx.rnn.DataBatch is mx.io.DataBatch
    assert mx.rnn.DataIter is mx.io.DataIter


# -- HybridBlock.export: record order of the .params file ------------------------------------------
class _ExportLM(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.emb = gluon.nn.Embedding(10, 4)
            self.rnn = gluon.rnn.LSTM(5, bidirectional=True, layout="NTC", input_size=4)
            self.cell = gluon.rnn.GRUCell(3, input_size=10)
            self.bn = gluon.nn.BatchNorm(axis=2, in_channels=3)

    def hybrid_forward(self, F, x):
        o, _ = self.cell.unroll(2, self.rnn(self.emb(x)), layout="NTC", merge_outputs=True)
        return self.bn(o)


def test_export_writes_params_in_graph_input_order(tmp_path):
    net = _ExportLM(prefix="lm_")
    net.initialize()
    net.hybridize()
    net(mx.nd.array([[1, 2]]))
    prefix = str(tmp_path / "lm")
    net.export(prefix)
    # recorded from 1.9.1: the fused RNN's weights come before its biases (the order of its
    # parameter concat) and each cell's i2h bias follows its i2h weight
    assert list(mx.nd.load(prefix + "-0000.params").keys()) == [
        "arg:lm_embedding0_weight", "arg:lm_lstm0_l0_i2h_weight", "arg:lm_lstm0_l0_h2h_weight",
        "arg:lm_lstm0_r0_i2h_weight", "arg:lm_lstm0_r0_h2h_weight", "arg:lm_lstm0_l0_i2h_bias",
        "arg:lm_lstm0_l0_h2h_bias", "arg:lm_lstm0_r0_i2h_bias", "arg:lm_lstm0_r0_h2h_bias",
        "arg:lm_gru0_i2h_weight", "arg:lm_gru0_i2h_bias", "arg:lm_gru0_h2h_weight",
        "arg:lm_gru0_h2h_bias", "arg:lm_batchnorm0_gamma", "arg:lm_batchnorm0_beta",
        "aux:lm_batchnorm0_running_mean", "aux:lm_batchnorm0_running_var"]


def test_symbolblock_registers_arguments_before_auxiliary_states():
    data = mx.sym.var("data")
    x = mx.sym.Convolution(data, kernel=(3,), num_filter=2, name="conv0")
    x = mx.sym.BatchNorm(x, name="bn0")
    x = mx.sym.FullyConnected(x, num_hidden=2, name="fc0")
    with pytest.warns(UserWarning, match="Cannot decide type"):
        sb = gluon.SymbolBlock(x, data)
    # recorded from 1.9.1 (also the record order of save_parameters)
    assert list(sb.collect_params().keys()) == [
        "conv0_weight", "conv0_bias", "bn0_gamma", "bn0_beta", "fc0_weight", "fc0_bias",
        "bn0_moving_mean", "bn0_moving_var"]


# -- Embedding on a row_sparse weight ---------------------------------------------------------------
def test_embedding_reads_row_sparse_weight_without_fallback_log(capfd):
    w = mx.nd.arange(12).reshape((4, 3)).tostype("row_sparse")
    for op in (mx.nd.Embedding, mx.nd.contrib.SparseEmbedding):
        out = op(mx.nd.array([1, 3]), w, input_dim=4, output_dim=3)
        assert out.stype == "default"
        assert out.asnumpy().tolist() == [[3.0, 4.0, 5.0], [9.0, 10.0, 11.0]]
    # 1.9.1 runs both natively: no "Storage type fallback detected" message
    assert "fallback" not in capfd.readouterr().err


def test_sparse_embedding_takes_deterministic():
    # a parameter 1.9.1's SparseEmbedding accepts (and writes into the graph's attributes)
    out = mx.nd.contrib.SparseEmbedding(mx.nd.array([1]), mx.nd.ones((4, 3)), input_dim=4,
                                        output_dim=3, deterministic=True)
    assert out.asnumpy().tolist() == [[1.0, 1.0, 1.0]]
    s = mx.sym.contrib.SparseEmbedding(mx.sym.var("d"), input_dim=4, output_dim=3,
                                       deterministic=True, name="se")
    assert s.attr_dict()["se"] == {"deterministic": "True", "input_dim": "4", "output_dim": "3"}
    with pytest.raises(mx.base.MXNetError):
        mx.nd.Embedding(mx.nd.array([1]), mx.nd.ones((4, 3)), input_dim=4, output_dim=3,
                        deterministic=True)
