"""Record what MXNet 1.9.1's ``mx.test_utils`` helpers return for seeded NumPy inputs,
for tests/test_test_utils.py.

Run with the reference interpreter, from outside the repository root::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python \
        /work/main/tools/golden/gen_test_utils.py

Each case in ``CASES`` is ``f(mx, tu) -> dict`` of numpy arrays / numbers computed only
from ``np.random`` (seeded inside the case), so both implementations must agree. The
results go to ``tests/golden/test_utils.npz``. This module must import without mxnet.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "tests" / "golden" / "test_utils.npz"


def case_random_arrays(mx, tu):
    np.random.seed(0)
    a, b = tu.random_arrays((2, 3), ())
    c = tu.random_arrays((4,))
    u = tu.random_uniform_arrays((3,), (2, 2), low=-2, high=3, dtype=np.float64)
    s = tu.random_sample(list(range(10)), 4)
    d = tu.rand_ndarray((3, 2)).asnumpy()
    xy = tu.rand_coord_2d(0, 10, 5, 50)
    shapes = [tu.rand_shape_2d(), tu.rand_shape_3d(), tu.rand_shape_nd(4, 5)]
    return {"a": a, "b": b, "c": c, "u0": u[0], "u1": u[1], "sample": np.array(s), "dense": d,
            "coord": np.array(xy), "shape2": np.array(shapes[0]),
            "shape3": np.array(shapes[1]), "shapen": np.array(shapes[2])}


def case_row_sparse(mx, tu):
    np.random.seed(1)
    arr, (vals, idx) = tu.rand_sparse_ndarray((6, 3), "row_sparse", density=0.5)
    fixed, _ = tu.rand_sparse_ndarray((5, 2), "row_sparse", rsp_indices=np.array([1, 3]),
                                      data_init=2.5)
    mod = tu.rand_ndarray((4, 2), "row_sparse", density=1.0, modifier_func=lambda v: v * 10)
    zd = tu.create_sparse_array_zd((4, 3), "row_sparse", density=0.3,
                                   rsp_indices=[2, 0])
    return {"dense": arr.asnumpy(), "vals": vals, "idx": idx, "fixed": fixed.asnumpy(),
            "mod": mod.asnumpy(), "zd": zd.asnumpy(), "zd_idx": zd.indices.asnumpy()}


def case_powerlaw_csr(mx, tu):
    np.random.seed(2)
    csr, (indptr, indices, data) = tu.rand_sparse_ndarray((5, 16), "csr", density=0.5,
                                                          distribution="powerlaw")
    return {"dense": csr.asnumpy(), "indptr": indptr.asnumpy(), "indices": indices.asnumpy()}


def case_numpy_helpers(mx, tu):
    x = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    return {
        "reduce_sum": tu.np_reduce(x, (0, 2), True, np.sum),
        "reduce_max": tu.np_reduce(x, 1, False, np.max),
        "reduce_all": tu.np_reduce(x, None, False, np.sum),
        "collapse": tu.collapse_sum_like(x, (3, 1)),
        "collapse_zero": tu.collapse_sum_like(np.zeros((2, 0)), (1, 0)),
        "assign": tu.assign_each(x[0], lambda v: v * v + 1),
        "assign2": tu.assign_each2(x[0], x[1], lambda a, b: a - 2 * b),
        "tensor2d": tu.create_2d_tensor(3, 4).asnumpy(),
        "vector": tu.create_vector(5).asnumpy(),
        "eye": tu.get_identity_mat(3).asnumpy(),
        "eye_batch": tu.get_identity_mat_batch(2).asnumpy(),
    }


def case_matrices(mx, tu):
    np.random.seed(3)
    return {"real": tu.new_matrix_with_real_eigvals_nd((2, 3, 3)),
            "ortho": tu.new_orthonormal_matrix_2d(4),
            "sym": tu.new_sym_matrix_with_real_eigvals_nd((2, 3, 3))}


class _StatOnly:
    """Stands in for scipy.stats (absent under the reference): returns the chi-square
    statistic and NaN for the p-value, so only the counts are recorded."""

    @staticmethod
    def chisquare(f_obs, f_exp):
        f_obs, f_exp = np.asarray(f_obs, np.float64), np.asarray(f_exp, np.float64)
        return float(((f_obs - f_exp) ** 2 / f_exp).sum()), float("nan")


def case_generator_checks(mx, tu):
    """Buckets and counts (p-values are checked in the test against chi-square tables:
    the reference has no scipy, without which its chi_square_check refuses to run)."""

    def ppf(p):  # quantiles of U(-1, 3)
        return -1 + 4 * p

    buckets, probs = tu.gen_buckets_probs_with_ppf(ppf, 5)
    np.random.seed(4)
    p_cont, obs, exp = tu.chi_square_check(lambda n: np.random.uniform(-1, 3, n), buckets,
                                           probs, nsamples=5000)
    np.random.seed(5)
    p_disc, obs_d, exp_d = tu.chi_square_check(
        lambda n: np.random.choice([0, 1, 2], size=n, p=[0.2, 0.3, 0.5]), [0, 1, 2],
        [0.2, 0.3, 0.5], nsamples=3000)
    np.random.seed(6)
    p_bad, _, _ = tu.chi_square_check(lambda n: np.random.uniform(-1, 2, n), buckets, probs,
                                      nsamples=5000)
    np.random.seed(7)
    mean_ok = tu.mean_check(lambda n: np.random.normal(1.0, 2.0, n), 1.0, 2.0, 20000)
    mean_bad = tu.mean_check(lambda n: np.random.normal(1.5, 2.0, n), 1.0, 2.0, 20000)
    var_ok = tu.var_check(lambda n: np.random.normal(0.0, 2.0, n), 2.0, 20000)
    var_bad = tu.var_check(lambda n: np.random.normal(0.0, 3.0, n), 2.0, 20000)
    del p_cont, p_disc, p_bad
    return {"buckets": np.array(buckets), "probs": np.array(probs),
            "obs": obs, "exp": exp, "obs_d": obs_d, "exp_d": exp_d,
            "checks": np.array([mean_ok, mean_bad, var_ok, var_bad])}


CASES = {
    "random_arrays": case_random_arrays,
    "row_sparse": case_row_sparse,
    "powerlaw_csr": case_powerlaw_csr,
    "numpy_helpers": case_numpy_helpers,
    "matrices": case_matrices,
    "generator_checks": case_generator_checks,
}


def main():
    import mxnet as mx
    from mxnet import test_utils as tu
    if Path(mx.__file__).resolve().is_relative_to(REPO / "mxnet"):
        sys.exit("run this with the reference interpreter, outside the repository")
    if tu.ss is None:
        tu.ss = _StatOnly()
    out = {}
    for name, fn in CASES.items():
        for key, value in fn(mx, tu).items():
            out[f"{name}/{key}"] = np.asarray(value)
    np.savez_compressed(OUT, **out)
    print(len(out), "arrays")


if __name__ == "__main__":
    main()
