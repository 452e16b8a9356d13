"""Golden imperative-NDArray cases recorded from MXNet 1.9.1.

Every snippet of ``tools/golden/ndarray_cases.py`` is run against this
repository's ``mxnet`` and compared with what the reference 1.9.1 produced
(``tests/golden/ndarray_cases.{json,npz}``, written by
``tools/golden/gen_ndarray_cases.py``):

* raised vs. returned must agree; where 1.9.1 raised ``MXNetError`` ours must
  raise ``mxnet.base.MXNetError``, where it raised a builtin exception
  (``ValueError``, ``IndexError``, ``TypeError``, ...) ours must raise an
  instance of that class (messages are never compared);
* NDArrays: dtype, shape, context, storage type and values; values are exact
  for integer and bool dtypes, otherwise ``assert_allclose(rtol=1e-5,
  atol=1e-6)`` with NaN == NaN (float16 results get rtol=atol=1e-3, one ulp);
* NumPy arrays likewise; Python/NumPy scalars, strings, dtypes, contexts,
  lists and tuples by type and value.
"""
from __future__ import annotations

import builtins
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
TABLE_PATH = REPO / "tools" / "golden" / "ndarray_cases.py"
FIXTURE_JSON = REPO / "tests" / "golden" / "ndarray_cases.json"
FIXTURE_NPZ = REPO / "tests" / "golden" / "ndarray_cases.npz"
REGENERATE = "MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_ndarray_cases.py"

RTOL, ATOL = 1e-5, 1e-6
RTOL_F16, ATOL_F16 = 1e-3, 1e-3


def _load_table():
    spec = importlib.util.spec_from_file_location("golden_ndarray_cases", TABLE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_TABLE = _load_table()
CASE_IDS = [case_id for case_id, _ in _TABLE.CASES]
CODE = dict(_TABLE.CASES)

try:
    import mxnet
except Exception as _exc:  # noqa: BLE001 - any import failure means "not ready yet"
    mxnet = None
    _SKIP_REASON = f"`import mxnet` failed: {type(_exc).__name__}: {_exc}"
else:
    _SKIP_REASON = None if hasattr(mxnet, "nd") else "mxnet.nd is missing"


@pytest.fixture(scope="module")
def golden():
    if not FIXTURE_JSON.exists() or not FIXTURE_NPZ.exists():
        pytest.fail(f"golden fixtures missing; regenerate with: {REGENERATE}")
    data = json.loads(FIXTURE_JSON.read_text())
    with np.load(FIXTURE_NPZ, allow_pickle=False) as npz:
        arrays = {key: npz[key] for key in npz.files}
    return data["cases"], arrays


# ------------------------------------------------------------- our side
class _Arr:
    """An NDArray of ours, read back once (so lazy errors surface in the case)."""

    def __init__(self, nd):
        self.dtype = np.dtype(nd.dtype).name
        self.shape = tuple(nd.shape)
        self.context = str(nd.context)
        self.stype = getattr(nd, "stype", None)
        self.values = nd.asnumpy()

    def __repr__(self):
        return f"NDArray({self.dtype}{self.shape} @{self.context} {self.values.tolist()!r})"


def _materialize(value):
    if isinstance(value, mxnet.nd.NDArray):
        return _Arr(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_materialize(v) for v in value)
    return value


def _run(code):
    try:
        return "value", _materialize(_TABLE.evaluate(code, mxnet, np))
    except Exception as exc:  # noqa: BLE001 - comparing failures is the point
        return "error", exc
    finally:
        autograd = getattr(mxnet, "autograd", None)
        for setter in ("set_recording", "set_training"):
            fn = getattr(autograd, setter, None)
            if fn is not None:
                try:
                    fn(False)
                except Exception:  # noqa: BLE001 - best-effort reset between cases
                    pass


# ----------------------------------------------------------- comparison
def _here(ctx_text):
    """1.9.1 recorded its default context, cpu(0); a run with another default context
    (MXNET_TEST_DEVICE, as tools/gpu_check.sh does) expects that one instead."""
    default = str(mxnet.current_context()) if mxnet is not None else "cpu(0)"
    return ctx_text.replace("cpu(0)", default) if isinstance(ctx_text, str) else ctx_text


def _show_expected(exp, arrays):
    kind = exp["kind"]
    if kind in ("ndarray", "numpy"):
        where = f" @{exp['context']}" if kind == "ndarray" else " (numpy)"
        return f"{kind}({exp['dtype']}{tuple(exp['shape'])}{where} {arrays[exp['array']].tolist()!r})"
    if kind in ("list", "tuple"):
        return f"{kind}[" + ", ".join(_show_expected(i, arrays) for i in exp["items"]) + "]"
    if kind == "py":
        return f"{exp['type']} {exp['value']!r}"
    if kind == "npscalar":
        return f"np.{exp['dtype']} {exp['value']!r}"
    if kind == "dtype":
        return f"dtype {exp['name']} (as {exp['form']})"
    return f"{kind} {exp.get('value')!r}"


def _compare_values(want, got, where):
    want = np.asarray(want)
    got = np.asarray(got)
    assert got.shape == want.shape, f"{where}: value shape {got.shape} != {want.shape}"
    if want.dtype.kind not in "fc":
        assert np.array_equal(got, want), f"{where}: values differ\n got: {got!r}\nwant: {want!r}"
        return
    rtol, atol = (RTOL_F16, ATOL_F16) if want.dtype == np.float16 else (RTOL, ATOL)
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol,
                               atol=atol, equal_nan=True, err_msg=f"{where}: values differ")


def _scalar_equal(want, got):
    if isinstance(want, float) and isinstance(got, (float, int)):
        if np.isnan(want):
            return bool(np.isnan(got))
        return bool(np.isclose(got, want, rtol=RTOL, atol=ATOL)) or got == want
    return got == want


def _compare(exp, got, arrays, where="result"):
    kind = exp["kind"]
    if kind == "ndarray":
        assert isinstance(got, _Arr), f"{where}: expected an NDArray, got {type(got).__name__}: {got!r}"
        assert got.dtype == exp["dtype"], f"{where}: dtype {got.dtype} != {exp['dtype']}"
        assert got.shape == tuple(exp["shape"]), f"{where}: shape {got.shape} != {tuple(exp['shape'])}"
        assert got.context == _here(exp["context"]), \
            f"{where}: context {got.context} != {_here(exp['context'])}"
        assert got.stype == exp["stype"], f"{where}: stype {got.stype!r} != {exp['stype']!r}"
        assert got.values.dtype.name == exp["dtype"], \
            f"{where}: asnumpy() dtype {got.values.dtype.name} != {exp['dtype']}"
        _compare_values(arrays[exp["array"]], got.values, where)
    elif kind == "numpy":
        assert isinstance(got, np.ndarray), f"{where}: expected a numpy.ndarray, got {type(got).__name__}"
        assert got.dtype.name == exp["dtype"], f"{where}: dtype {got.dtype.name} != {exp['dtype']}"
        assert got.shape == tuple(exp["shape"]), f"{where}: shape {got.shape} != {tuple(exp['shape'])}"
        _compare_values(arrays[exp["array"]], got, where)
    elif kind == "npscalar":
        assert isinstance(got, np.generic), \
            f"{where}: expected a NumPy scalar np.{exp['dtype']}, got {type(got).__name__} {got!r}"
        assert got.dtype.name == exp["dtype"], f"{where}: scalar dtype {got.dtype.name} != {exp['dtype']}"
        assert _scalar_equal(exp["value"], got.item()), f"{where}: {got.item()!r} != {exp['value']!r}"
    elif kind == "py":
        assert type(got).__name__ == exp["type"], \
            f"{where}: expected {exp['type']} {exp['value']!r}, got {type(got).__name__} {got!r}"
        want = _here(exp["value"]) if exp["type"] == "str" else exp["value"]
        assert _scalar_equal(want, got), f"{where}: {got!r} != {want!r}"
    elif kind == "dtype":
        form = "dtype" if isinstance(got, np.dtype) else "type"
        assert form == exp["form"], \
            f"{where}: expected a NumPy {exp['form']} object for {exp['name']}, got {got!r}"
        assert np.dtype(got).name == exp["name"], f"{where}: dtype {np.dtype(got).name} != {exp['name']}"
    elif kind == "context":
        assert isinstance(got, mxnet.Context), f"{where}: expected a Context, got {type(got).__name__}"
        assert str(got) == _here(exp["value"]), f"{where}: context {got} != {_here(exp['value'])}"
    elif kind in ("list", "tuple"):
        assert type(got).__name__ == kind, f"{where}: expected a {kind}, got {type(got).__name__}: {got!r}"
        assert len(got) == len(exp["items"]), f"{where}: length {len(got)} != {len(exp['items'])}"
        for i, (e, g) in enumerate(zip(exp["items"], got)):
            _compare(e, g, arrays, f"{where}[{i}]")
    else:  # pragma: no cover - fixture written by a newer generator
        raise AssertionError(f"{where}: unknown golden kind {kind!r}")


def _expected_exception(err):
    if err["mxnet_error"]:
        return mxnet.base.MXNetError
    cls = getattr(builtins, err["builtin"] or "", None)
    return cls if isinstance(cls, type) and issubclass(cls, BaseException) else Exception


@pytest.mark.skipif(_SKIP_REASON is not None, reason=_SKIP_REASON or "mxnet available")
@pytest.mark.parametrize("case_id", CASE_IDS)
def test_golden_case(case_id, golden):
    cases, arrays = golden
    rec = cases.get(case_id)
    code = CODE[case_id]
    if rec is None or rec["code"] != code:
        pytest.fail(f"golden fixture is stale for {case_id}; regenerate with: {REGENERATE}")
    if _here("cpu(0)") != "cpu(0)" and any(k in code for k in ("mx.cpu(", "mx.gpu(", "Context(")):
        pytest.skip("the case names a context; it is checked with the default context cpu(0)")
    if rec["outcome"] == "crash":
        pytest.skip("MXNet 1.9.1 crashed on this case; nothing to compare")

    outcome, got = _run(code)
    header = f"case {case_id}:\n{code}"
    if rec["outcome"] == "error":
        err = rec["error"]
        if outcome != "error":
            pytest.fail(f"{header}\n1.9.1 raised {err['type']}, ours returned {got!r}", pytrace=False)
        want = _expected_exception(err)
        if not isinstance(got, want):
            raise AssertionError(f"{header}\n1.9.1 raised {err['type']} (expect {want.__name__}), "
                                 f"ours raised {type(got).__name__}: {got}") from got
        return
    if outcome == "error":
        raise AssertionError(f"{header}\nours raised {type(got).__name__}: {got}\n"
                             f"1.9.1 returned {_show_expected(rec['value'], arrays)}") from got
    try:
        _compare(rec["value"], got, arrays)
    except AssertionError as exc:
        raise AssertionError(f"{header}\n{exc}\n1.9.1: {_show_expected(rec['value'], arrays)}\n"
                             f" ours: {got!r}") from None


def test_fixture_covers_table(golden):
    """The committed fixture matches the table (regenerate after editing it)."""
    cases, _ = golden
    missing = [cid for cid in CASE_IDS if cid not in cases]
    extra = [cid for cid in cases if cid not in CODE]
    stale = [cid for cid in CASE_IDS if cid in cases and cases[cid]["code"] != CODE[cid]]
    assert not (missing or extra or stale), \
        f"missing={missing[:5]} extra={extra[:5]} stale={stale[:5]}; regenerate with: {REGENERATE}"
