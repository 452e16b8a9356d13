"""mx.viz: print_summary's text and plot_network's graph, against 1.9.1.

The expected texts were printed by MXNet 1.9.1 for the network built in ``_net()``
(rows are compared with trailing blanks stripped; their padded width is checked apart).
The expected graphs are 1.9.1's ``Digraph.source`` (graphviz 0.8.4), compared as sets of
node and edge statements so that the graphviz package's quoting does not matter.
"""
from __future__ import annotations

import re
import sys

import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.visualization import plot_network, print_summary


def _net():
    data = mx.sym.var("data")
    c = mx.sym.Convolution(data, num_filter=8, kernel=(3, 3), pad=(1, 1), name="conv1")
    b = mx.sym.BatchNorm(c, name="bn1")
    r = mx.sym.Activation(b, act_type="relu", name="relu1")
    p = mx.sym.Pooling(r, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool1")
    c2 = mx.sym.Convolution(p, num_filter=4, kernel=(1, 1), no_bias=True, name="conv2")
    cat = mx.sym.Concat(p, c2, dim=1, name="cat")
    f = mx.sym.Flatten(cat, name="flat")
    fc = mx.sym.FullyConnected(f, num_hidden=10, name="fc1")
    return mx.sym.SoftmaxOutput(fc, name="softmax")


SHAPE = {"data": (2, 3, 8, 8)}

SUMMARY_SHAPED = [
    "_" * 120,
    "Layer (type)                                        Output Shape            Param #     Previous Layer",
    "=" * 120,
    "data(null)                                          3x8x8                   0",
    "_" * 120,
    "conv1(Convolution)                                  8x8x8                   224         data",
    "_" * 120,
    "bn1(BatchNorm)                                      8x8x8                   16          conv1",
    "_" * 120,
    "relu1(Activation)                                   8x8x8                   0           bn1",
    "_" * 120,
    "pool1(Pooling)                                      8x4x4                   0           relu1",
    "_" * 120,
    "conv2(Convolution)                                  4x4x4                   32          pool1",
    "_" * 120,
    "cat(Concat)                                         12x4x4                  0           pool1",
    "                                                                                        conv2",
    "_" * 120,
    "flat(Flatten)                                       192                     0           cat",
    "_" * 120,
    "fc1(FullyConnected)                                 10                      1930        flat",
    "_" * 120,
    "softmax(SoftmaxOutput)                              10                      0           fc1",
    "=" * 120,
    "Total params: 2202",
    "_" * 120,
]

SUMMARY_NO_SHAPE = [
    "_" * 120,
    "Layer (type)                                        Output Shape            Param #     Previous Layer",
    "=" * 120,
    "data(null)                                                                  0",
    "_" * 120,
    "conv1(Convolution)                                                          8           data",
    "_" * 120,
    "bn1(BatchNorm)                                                              0           conv1",
    "_" * 120,
    "relu1(Activation)                                                           0           bn1",
    "_" * 120,
    "pool1(Pooling)                                                              0           relu1",
    "_" * 120,
    "conv2(Convolution)                                                          0           pool1",
    "_" * 120,
    "cat(Concat)                                                                 0           pool1",
    "                                                                                        conv2",
    "_" * 120,
    "flat(Flatten)                                                               0           cat",
    "_" * 120,
    "fc1(FullyConnected)                                                         10          flat",
    "_" * 120,
    "softmax(SoftmaxOutput)                                                      0           fc1",
    "=" * 120,
    "Total params: 18",
    "_" * 120,
]

SUMMARY_80 = [
    "_" * 80,
    "Layer (type)            Output Shape            Param #         Previous Layer",
    "=" * 80,
    "data(null)              3x8x8                   0",
    "_" * 80,
    "conv1(Convolution)      8x8x8                   224             data",
    "_" * 80,
    "bn1(BatchNorm)          8x8x8                   16              conv1",
    "_" * 80,
    "relu1(Activation)       8x8x8                   0               bn1",
    "_" * 80,
    "pool1(Pooling)          8x4x4                   0               relu1",
    "_" * 80,
    "conv2(Convolution)      4x4x4                   32              pool1",
    "_" * 80,
    "cat(Concat)             12x4x4                  0               pool1",
    "                                                                conv2",
    "_" * 80,
    "flat(Flatten)           192                     0               cat",
    "_" * 80,
    "fc1(FullyConnected)     10                      1930            flat",
    "_" * 80,
    "softmax(SoftmaxOutput)  10                      0               fc1",
    "=" * 80,
    "Total params: 2202",
    "_" * 80,
]

GRAPH_SHAPED = (
    'digraph plot {\n'
    '\tdata [label=data fillcolor="#8dd3c7" fixedsize=true height=0.8034 shape=oval style=filled width=1.3]\n'
    '\tconv1 [label="Convolution\n'
    '3x3/1, 8" fillcolor="#fb8072" fixedsize=true height=0.8034 shape=box style=filled width=1.3]\n'
    '\tbn1 [label=bn1 fillcolor="#bebada" fixedsize=true height=0.8034 shape=box style=filled width=1.3]\n'
    '\trelu1 [label="Activation\n'
    'relu" fillcolor="#ffffb3" fixedsize=true height=0.8034 shape=box style=filled width=1.3]\n'
    '\tpool1 [label="Pooling\n'
    'max, 2x2/2x2" fillcolor="#80b1d3" fixedsize=true height=0.8034 shape=box style=filled width=1.3]\n'
    '\tconv2 [label="Convolution\n'
    '1x1/1, 4" fillcolor="#fb8072" fixedsize=true height=0.8034 shape=box style=filled width=1.3]\n'
    '\tcat [label=cat fillcolor="#fdb462" fixedsize=true height=0.8034 shape=box style=filled width=1.3]\n'
    '\tflat [label=flat fillcolor="#fdb462" fixedsize=true height=0.8034 shape=box style=filled width=1.3]\n'
    '\tfc1 [label="FullyConnected\n'
    '10" fillcolor="#fb8072" fixedsize=true height=0.8034 shape=box style=filled width=1.3]\n'
    '\tsoftmax_label [label=softmax_label'
    ' fillcolor="#8dd3c7" fixedsize=true height=0.8034 shape=oval style=filled width=1.3]\n'
    '\tsoftmax [label=softmax'
    ' fillcolor="#fccde5" fixedsize=true height=0.8034 shape=box style=filled width=1.3]\n'
    '\tconv1 -> data [label="3x8x8" arrowtail=open dir=back]\n'
    '\tbn1 -> conv1 [label="8x8x8" arrowtail=open dir=back]\n'
    '\trelu1 -> bn1 [label="8x8x8" arrowtail=open dir=back]\n'
    '\tpool1 -> relu1 [label="8x8x8" arrowtail=open dir=back]\n'
    '\tconv2 -> pool1 [label="8x4x4" arrowtail=open dir=back]\n'
    '\tcat -> pool1 [label="8x4x4" arrowtail=open dir=back]\n'
    '\tcat -> conv2 [label="4x4x4" arrowtail=open dir=back]\n'
    '\tflat -> cat [label="12x4x4" arrowtail=open dir=back]\n'
    '\tfc1 -> flat [label=192 arrowtail=open dir=back]\n'
    '\tsoftmax -> fc1 [label=10 arrowtail=open dir=back]\n'
    '\tsoftmax -> softmax_label [label="" arrowtail=open dir=back]\n'
    '}\n'
)

GRAPH_WEIGHTS = (
    'digraph net {\n'
    '\tdata [label=data'
    ' fillcolor="#8dd3c7" fixedsize=false height=0.8034 shape=oval style=filled width=1.3]\n'
    '\tconv1 [label="Convolution\n'
    '3x3/1, 8" fillcolor="#fb8072" fixedsize=false height=0.8034 shape=box style=filled width=1.3]\n'
    '\tbn1 [label=bn1 fillcolor="#bebada" fixedsize=false height=0.8034 shape=box style=filled width=1.3]\n'
    '\trelu1 [label="Activation\n'
    'relu" fillcolor="#ffffb3" fixedsize=false height=0.8034 shape=box style=filled width=1.3]\n'
    '\tpool1 [label="Pooling\n'
    'max, 2x2/2x2" fillcolor="#80b1d3" fixedsize=false height=0.8034 shape=box style=filled width=1.3]\n'
    '\tconv2 [label="Convolution\n'
    '1x1/1, 4" fillcolor="#fb8072" fixedsize=false height=0.8034 shape=box style=filled width=1.3]\n'
    '\tcat [label=cat fillcolor="#fdb462" fixedsize=false height=0.8034 shape=box style=filled width=1.3]\n'
    '\tflat [label=flat fillcolor="#fdb462" fixedsize=false height=0.8034 shape=box style=filled width=1.3]\n'
    '\tfc1 [label="FullyConnected\n'
    '10" fillcolor="#fb8072" fixedsize=false height=0.8034 shape=box style=filled width=1.3]\n'
    '\tsoftmax_label [label=softmax_label'
    ' fillcolor="#8dd3c7" fixedsize=false height=0.8034 shape=oval style=filled width=1.3]\n'
    '\tsoftmax [label=softmax'
    ' fillcolor="#fccde5" fixedsize=false height=0.8034 shape=box style=filled width=1.3]\n'
    '\tconv1 -> data [label="" arrowtail=open dir=back]\n'
    '\tconv1 -> conv1_weight [label="" arrowtail=open dir=back]\n'
    '\tconv1 -> conv1_bias [label="" arrowtail=open dir=back]\n'
    '\tbn1 -> conv1 [label="" arrowtail=open dir=back]\n'
    '\tbn1 -> bn1_gamma [label="" arrowtail=open dir=back]\n'
    '\tbn1 -> bn1_beta [label="" arrowtail=open dir=back]\n'
    '\tbn1 -> bn1_moving_mean [label="" arrowtail=open dir=back]\n'
    '\tbn1 -> bn1_moving_var [label="" arrowtail=open dir=back]\n'
    '\trelu1 -> bn1 [label="" arrowtail=open dir=back]\n'
    '\tpool1 -> relu1 [label="" arrowtail=open dir=back]\n'
    '\tconv2 -> pool1 [label="" arrowtail=open dir=back]\n'
    '\tconv2 -> conv2_weight [label="" arrowtail=open dir=back]\n'
    '\tcat -> pool1 [label="" arrowtail=open dir=back]\n'
    '\tcat -> conv2 [label="" arrowtail=open dir=back]\n'
    '\tflat -> cat [label="" arrowtail=open dir=back]\n'
    '\tfc1 -> flat [label="" arrowtail=open dir=back]\n'
    '\tfc1 -> fc1_weight [label="" arrowtail=open dir=back]\n'
    '\tfc1 -> fc1_bias [label="" arrowtail=open dir=back]\n'
    '\tsoftmax -> fc1 [label="" arrowtail=open dir=back]\n'
    '\tsoftmax -> softmax_label [label="" arrowtail=open dir=back]\n'
    '}\n'
)


def _summary(capsys, *args, **kwargs):
    capsys.readouterr()
    print_summary(*args, **kwargs)
    return capsys.readouterr().out


@pytest.mark.parametrize("kwargs,expected,width", [
    ({"shape": SHAPE}, SUMMARY_SHAPED, 120),
    ({}, SUMMARY_NO_SHAPE, 120),
    ({"shape": SHAPE, "line_length": 80, "positions": [.3, .6, .8, 1.]}, SUMMARY_80, 80),
], ids=["shape", "no_shape", "width80"])
def test_print_summary_matches_1_9_1(capsys, kwargs, expected, width):
    out = _summary(capsys, _net(), **kwargs)
    lines = out.splitlines()
    assert [line.rstrip() for line in lines] == expected
    assert all(len(line) == width for line in lines if not line.startswith("Total params"))


def test_print_summary_positions_in_characters(capsys):
    out = _summary(capsys, _net(), shape=SHAPE, line_length=80, positions=[24, 48, 64, 80])
    assert [line.rstrip() for line in out.splitlines()] == SUMMARY_80


def test_print_summary_counts():
    """Grouped convolution, no-bias dense layer and Embedding parameter counts."""
    d = mx.sym.var("data")
    g = mx.sym.Convolution(d, num_filter=4, kernel=(3, 3), num_group=2, name="g")
    fc = mx.sym.FullyConnected(mx.sym.Flatten(g), num_hidden=5, no_bias=True, name="fc")
    e = mx.sym.Embedding(mx.sym.var("idx"), input_dim=7, output_dim=3, name="emb")
    import io
    from contextlib import redirect_stdout
    buf = io.StringIO()
    with redirect_stdout(buf):
        print_summary(mx.sym.Group([fc, e]), shape={"data": (2, 4, 6, 6), "idx": (2, 5)})
    rows = {line.split("(")[0]: line.split() for line in buf.getvalue().splitlines()
            if "(" in line}
    assert rows["g"][2] == "76"          # 4 * 4 / 2 * 9 + 4
    assert rows["fc"][2] == "320"        # 64 * 5, no bias
    assert rows["emb"][2] == "21"        # 7 * 3
    assert buf.getvalue().splitlines()[-2] == "Total params: 417"


@pytest.mark.filterwarnings("ignore:Cannot decide shape")
def test_print_summary_rejects_non_symbols():
    with pytest.raises(TypeError):
        print_summary("not a symbol")
    with pytest.raises(ValueError):
        print_summary(_net(), shape={"softmax_label": (2,)})


_STMT = re.compile(r'^\t(?P<a>"[^"]*"|\S+)(?: -> (?P<b>"[^"]*"|\S+))? \[(?P<attrs>.*)\]$',
                   re.S)
_ATTR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|[^\s"]+)')


def _unquote(s):
    return s[1:-1] if s.startswith('"') and s.endswith('"') else s


def _statements(source):
    """Node and edge statements of a DOT source as comparable tuples."""
    out, buf = [], ""
    lines = source.splitlines()[1:-1]
    for line in lines:
        buf = buf + "\n" + line if buf else line
        if buf.count('"') % 2:       # a quoted label spans lines
            continue
        m = _STMT.match(buf)
        assert m, buf
        attrs = {k: _unquote(v) for k, v in _ATTR.findall(m.group("attrs"))}
        out.append((_unquote(m.group("a")), m.group("b") and _unquote(m.group("b")),
                    tuple(sorted(attrs.items()))))
        buf = ""
    return out


def test_plot_network_matches_1_9_1():
    pytest.importorskip("graphviz")
    g = plot_network(_net(), shape=SHAPE)
    assert g.name == "plot" and g.format == "pdf"
    assert _statements(g.source) == _statements(GRAPH_SHAPED)
    g = plot_network(_net(), title="net", save_format="png", hide_weights=False,
                     node_attrs={"fixedsize": "false"})
    assert g.name == "net" and g.format == "png"
    assert _statements(g.source) == _statements(GRAPH_WEIGHTS)


def test_plot_network_dtype_labels():
    pytest.importorskip("graphviz")
    g = plot_network(_net(), shape=SHAPE, dtype={"data": "float32"})
    edges = {(a, b): dict(attrs) for a, b, attrs in _statements(g.source) if b}
    assert edges[("conv1", "data")]["label"] == "3x8x8(float32)"
    assert edges[("fc1", "flat")]["label"] == "192(float32)"


def test_plot_network_without_graphviz(monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    with pytest.raises(MXNetError, match="graphviz"):
        plot_network(_net())
    with pytest.raises(ImportError):   # what 1.9.1 raised, for code that catches it
        plot_network(_net())
