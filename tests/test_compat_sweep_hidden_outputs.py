"""Operators whose hidden outputs (kept by 1.9.1's kernels but not shown to users) were
missing here: linalg.det (LU factors, pivots), linalg.slogdet (the same), BatchNormWithReLU
(oneDNN workspace) and DeformablePSROIPooling (top_count). They count in -symbol.json's
``node_row_ptr`` and in what an executor's monitor shows.

Literal values were recorded from MXNet 1.9.1.
"""
import numpy as np
import pytest

import mxnet as mx

# -symbol.json of graphs consuming each operator, recorded from 1.9.1
_DET_JSON = (
    '{\n'
    '  "nodes": [\n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "A", \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "_linalg_det", \n'
    '      "name": "det", \n'
    '      "inputs": [[0, 0, 0]]\n'
    '    }, \n'
    '    {\n'
    '      "op": "sum", \n'
    '      "name": "s", \n'
    '      "inputs": [[1, 0, 0]]\n'
    '    }\n'
    '  ], \n'
    '  "arg_nodes": [0], \n'
    '  "node_row_ptr": [0, 1, 4, 5], \n'
    '  "heads": [[2, 0, 0]], \n'
    '  "attrs": {"mxnet_version": ["int", 10901]}\n'
    '}')

_SLOGDET_JSON = (
    '{\n'
    '  "nodes": [\n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "A", \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "_linalg_slogdet", \n'
    '      "name": "sd", \n'
    '      "inputs": [[0, 0, 0]]\n'
    '    }, \n'
    '    {\n'
    '      "op": "sum", \n'
    '      "name": "s", \n'
    '      "inputs": [[1, 1, 0]]\n'
    '    }\n'
    '  ], \n'
    '  "arg_nodes": [0], \n'
    '  "node_row_ptr": [0, 1, 5, 6], \n'
    '  "heads": [[2, 0, 0]], \n'
    '  "attrs": {"mxnet_version": ["int", 10901]}\n'
    '}')

_BNRELU_JSON = (
    '{\n'
    '  "nodes": [\n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "data", \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "bn_gamma", \n'
    '      "attrs": {"output_mean_var": "True"}, \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "bn_beta", \n'
    '      "attrs": {"output_mean_var": "True"}, \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "bn_moving_mean", \n'
    '      "attrs": {\n'
    '        "__init__": "[\\"zero\\", {}]", \n'
    '        "output_mean_var": "True"\n'
    '      }, \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "bn_moving_var", \n'
    '      "attrs": {\n'
    '        "__init__": "[\\"one\\", {}]", \n'
    '        "output_mean_var": "True"\n'
    '      }, \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "_contrib_BatchNormWithReLU", \n'
    '      "name": "bn", \n'
    '      "attrs": {"output_mean_var": "True"}, \n'
    '      "inputs": [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 1], [4, 0, 1]]\n'
    '    }, \n'
    '    {\n'
    '      "op": "sum", \n'
    '      "name": "s", \n'
    '      "inputs": [[5, 2, 0]]\n'
    '    }\n'
    '  ], \n'
    '  "arg_nodes": [0, 1, 2, 3, 4], \n'
    '  "node_row_ptr": [0, 1, 2, 3, 4, 5, 9, 10], \n'
    '  "heads": [[6, 0, 0]], \n'
    '  "attrs": {"mxnet_version": ["int", 10901]}\n'
    '}')

_DPS_JSON = (
    '{\n'
    '  "nodes": [\n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "data", \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "rois", \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "null", \n'
    '      "name": "trans", \n'
    '      "inputs": []\n'
    '    }, \n'
    '    {\n'
    '      "op": "_contrib_DeformablePSROIPooling", \n'
    '      "name": "p", \n'
    '      "attrs": {\n'
    '        "group_size": "1", \n'
    '        "output_dim": "2", \n'
    '        "pooled_size": "2", \n'
    '        "spatial_scale": "0.5"\n'
    '      }, \n'
    '      "inputs": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]\n'
    '    }, \n'
    '    {\n'
    '      "op": "sum", \n'
    '      "name": "s", \n'
    '      "inputs": [[3, 0, 0]]\n'
    '    }\n'
    '  ], \n'
    '  "arg_nodes": [0, 1, 2], \n'
    '  "node_row_ptr": [0, 1, 2, 3, 5, 6], \n'
    '  "heads": [[4, 0, 0]], \n'
    '  "attrs": {"mxnet_version": ["int", 10901]}\n'
    '}')


def _graphs():
    A, d = mx.sym.var("A"), mx.sym.var("data")
    return {
        "det": mx.sym.sum(mx.sym.linalg.det(A, name="det"), name="s"),
        "slogdet": mx.sym.sum(mx.sym.linalg.slogdet(A, name="sd")[1], name="s"),
        "bnrelu": mx.sym.sum(mx.sym.contrib.BatchNormWithReLU(
            d, output_mean_var=True, name="bn")[2], name="s"),
        "dps": mx.sym.sum(mx.sym.contrib.DeformablePSROIPooling(
            d, mx.sym.var("rois"), mx.sym.var("trans"), spatial_scale=0.5, output_dim=2,
            group_size=1, pooled_size=2, name="p"), name="s"),
    }


@pytest.mark.parametrize("key,expected", [("det", _DET_JSON), ("slogdet", _SLOGDET_JSON),
                                          ("bnrelu", _BNRELU_JSON), ("dps", _DPS_JSON)])
def test_json_counts_hidden_outputs(key, expected):
    sym = _graphs()[key]
    assert sym.tojson() == expected
    # and the graph loads back with the same visible outputs
    back = mx.sym.load_json(expected)
    assert back.tojson() == expected
    assert back.list_outputs() == ["s_output"]


def test_visible_outputs_unchanged():
    A, d = mx.sym.var("A"), mx.sym.var("data")
    assert mx.sym.linalg.det(A, name="x").list_outputs() == ["x_output0"]
    assert mx.sym.linalg.slogdet(A, name="x").list_outputs() == ["x_output0", "x_output1"]
    assert mx.sym.contrib.BatchNormWithReLU(d, name="x").list_outputs() == ["x_output"]
    p = mx.sym.contrib.DeformablePSROIPooling(d, mx.sym.var("r"), no_trans=True, name="x",
                                              spatial_scale=1, output_dim=1, group_size=1,
                                              pooled_size=2)
    assert p.list_outputs() == ["x_output"]
    _, outs, _ = mx.sym.linalg.slogdet(A).infer_shape(A=(2, 3, 3))
    assert outs == [(2,), (2,)]
    _, outs, _ = mx.sym.linalg.det(A).infer_type(A="float64")
    assert outs == [np.float64]
    # nd front ends return the visible outputs only
    a = mx.nd.array([[1.0, 2.0], [3.0, 4.0]])
    assert isinstance(mx.nd.linalg.det(a), mx.nd.NDArray)
    assert len(mx.nd.linalg.slogdet(a)) == 2
    x = mx.nd.ones((1, 2, 2, 2))
    c = mx.nd.ones((2,))
    assert isinstance(mx.nd.contrib.BatchNormWithReLU(x, c, c, c, c), mx.nd.NDArray)


def _monitor(sym, args, grads=None):
    ex = sym.bind(mx.cpu(), args, args_grad=grads)
    seen = {}

    def cb(name, arr):
        seen[name.decode() if isinstance(name, bytes) else name] = arr.asnumpy()

    ex.set_monitor_callback(cb, monitor_all=True)
    ex.forward(is_train=grads is not None)
    return ex, seen


_A = np.array([[[1, 2, 3], [4, 5, 6], [7, 8, 10]], [[0, 1, 0], [2, 0, 0], [0, 0, 3]]],
              dtype=np.float32)
# 1.9.1's hidden outputs of det / slogdet on _A: LAPACK's LU factors and 1-based pivots
_LU = [[[3.0, 0.33333334, 0.6666667], [6.0, 2.0, 0.5], [10.0, 3.6666665, -0.5]],
       [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]]
_PIV = [[3, 3, 3], [2, 2, 3]]


def test_det_hidden_outputs_in_monitor_and_gradient():
    A = mx.sym.var("A")
    g = {"A": mx.nd.zeros(_A.shape)}
    ex, seen = _monitor(mx.sym.linalg.det(A, name="det0"), {"A": mx.nd.array(_A)}, g)
    assert [k for k in seen if k.startswith("det0_output")] == [
        "det0_output0", "det0_output1", "det0_output2"]
    np.testing.assert_allclose(seen["det0_output0"], [-3.0, -6.0], rtol=1e-5)
    np.testing.assert_allclose(seen["det0_output1"], _LU, rtol=1e-5, atol=1e-6)
    assert seen["det0_output2"].dtype == np.int32
    assert seen["det0_output2"].tolist() == _PIV
    assert [o.shape for o in ex.outputs] == [(2,)]
    ex.backward(mx.nd.ones((2,)))
    # d det(A) / dA = det(A) A^-T
    want = np.linalg.det(_A.astype(np.float64))[:, None, None] * \
        np.linalg.inv(_A.astype(np.float64)).transpose(0, 2, 1)
    np.testing.assert_allclose(g["A"].asnumpy(), want, rtol=1e-4, atol=1e-5)


def test_slogdet_hidden_outputs_in_monitor_and_gradient():
    A = mx.sym.var("A")
    g = {"A": mx.nd.zeros(_A.shape)}
    ex, seen = _monitor(mx.sym.linalg.slogdet(A, name="sd"), {"A": mx.nd.array(_A)}, g)
    assert [k for k in seen if k.startswith("sd_output")] == [
        "sd_output0", "sd_output1", "sd_output2", "sd_output3"]
    np.testing.assert_allclose(seen["sd_output0"], [-1.0, -1.0])
    np.testing.assert_allclose(seen["sd_output1"], [1.0986123, 1.7917595], rtol=1e-6)
    np.testing.assert_allclose(seen["sd_output2"], _LU, rtol=1e-5, atol=1e-6)
    assert seen["sd_output3"].tolist() == _PIV
    assert len(ex.outputs) == 2
    ex.backward([mx.nd.zeros((2,)), mx.nd.ones((2,))])
    want = np.linalg.inv(_A.astype(np.float64)).transpose(0, 2, 1)
    np.testing.assert_allclose(g["A"].asnumpy(), want, rtol=1e-4, atol=1e-5)


def test_single_matrix_pivots_shape():
    A = mx.sym.var("A")
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    _, seen = _monitor(mx.sym.linalg.det(A, name="d"), {"A": mx.nd.array(a, dtype="float64")})
    assert seen["d_output0"].shape == (1,)
    assert seen["d_output1"].shape == (2, 2) and seen["d_output1"].dtype == np.float64
    assert seen["d_output2"].shape == (2,) and seen["d_output2"].dtype == np.int32


def test_batchnorm_relu_workspace_in_monitor():
    d = mx.sym.var("data")
    sym = mx.sym.contrib.BatchNormWithReLU(d, name="bn")
    x = (np.arange(8, dtype=np.float32) - 3.5).reshape(1, 2, 2, 2)
    args = {"data": mx.nd.array(x), "bn_gamma": mx.nd.ones((2,)), "bn_beta": mx.nd.zeros((2,))}
    ex = sym.bind(mx.cpu(), args, aux_states={"bn_moving_mean": mx.nd.zeros((2,)),
                                              "bn_moving_var": mx.nd.ones((2,))})
    seen = {}
    ex.set_monitor_callback(lambda n, a: seen.__setitem__(n.decode(), a.asnumpy()),
                            monitor_all=True)
    ex.forward(is_train=True)
    # 1.9.1 names: inputs by argument name, outputs output/mean/var/workspace
    assert [k for k in seen if k.startswith("bn_")] == [
        "bn_data", "bn_gamma", "bn_beta", "bn_moving_mean", "bn_moving_var", "bn_output",
        "bn_mean", "bn_var", "bn_workspace"]
    assert seen["bn_workspace"].shape == x.shape and seen["bn_workspace"].dtype == np.float32
    # recorded from 1.9.1 (fix_gamma: gamma is 1)
    np.testing.assert_allclose(seen["bn_output"].ravel(), [0, 0, 0.4470348, 1.3411044] * 2,
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(seen["bn_mean"], [-2.0, 2.0])
    assert [o.shape for o in ex.outputs] == [(1, 2, 2, 2)]


def test_deformable_psroi_top_count():
    d = mx.sym.var("data")
    sym = mx.sym.contrib.DeformablePSROIPooling(
        d, mx.sym.var("rois"), mx.sym.var("trans"), spatial_scale=0.5, output_dim=2,
        group_size=1, pooled_size=2, sample_per_part=2, trans_std=0.1, name="p")
    rs = np.random.RandomState(0)
    args = {"data": mx.nd.array(rs.rand(1, 2, 5, 5)),
            "rois": mx.nd.array([[0, 0, 0, 7, 7], [0, 6, 6, 12, 12]]),
            "trans": mx.nd.array(rs.rand(2, 2, 2, 2))}
    _, seen = _monitor(sym, args)
    assert [k for k in seen if k.startswith("p_")] == [
        "p_data", "p_rois", "p_trans", "p_output", "p_top_count"]
    # recorded from 1.9.1: valid samples per bin
    assert seen["p_top_count"].tolist() == [[[[4, 4], [4, 4]], [[4, 4], [4, 4]]],
                                            [[[4, 2], [2, 1]], [[4, 2], [2, 1]]]]
    np.testing.assert_allclose(seen["p_output"][1, 0], [[0.7085, 0.5305], [0.567, 0.1183]],
                               atol=1e-4)
