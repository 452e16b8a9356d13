"""Contents of 1.9.1's generated operator modules ``mxnet.ndarray.gen_*``.

1.9.1 writes one Python file per operator namespace at build time; here each
``mxnet/ndarray/gen_X.py`` fills itself from the functions ``mx.nd`` already made
(:func:`mxnet.ndarray.register.build_namespaces`), so the modules cost nothing until first
imported. :func:`names` gives each module's names as they appear in 1.9.1:

* ``gen_op``: every operator whose registered name has no leading underscore;
* ``gen__internal``: underscore names outside the ``_contrib_`` / ``_linalg_`` / ``_image_``
  / ``_random_`` / ``_sparse_`` namespaces and the NumPy-interface ``_np*`` operators
  (``_sample_*`` stays here, as in 1.9.1);
* ``gen_contrib`` / ``gen_linalg`` / ``gen_image`` / ``gen_random``: the namespace's operators,
  prefix removed (``gen_random``: the ``_random_`` ones);
* ``gen_sparse``: the operators 1.9.1 registers with a ``_sparse_`` alias (those with sparse
  storage support); here they are the ordinary functions, which hand sparse arguments to the
  mx.nd.sparse front ends (``retain`` and ``adagrad_update``, which exist only there, come
  from mx.nd.sparse).
"""
from __future__ import annotations

__all__ = ["names", "fill"]

_OTHER_NAMESPACES = ("_contrib_", "_linalg_", "_image_", "_random_", "_sparse_", "_np")

# the operators 1.9.1 also registers as ``_sparse_<name>``
_SPARSE = """ElementWiseSum Embedding FullyConnected LinearRegressionOutput LogisticRegressionOutput
MAERegressionOutput _contrib_round_ste _contrib_sign_ste abs adagrad_update adam_update add_n
arccos arccosh arcsin arcsinh arctan arctanh broadcast_add broadcast_div broadcast_minus
broadcast_mul broadcast_plus broadcast_sub cast_storage cbrt ceil clip concat cos cosh degrees
dot elemwise_add elemwise_div elemwise_mul elemwise_sub exp expm1 fix floor ftrl_update gamma
gammaln log log10 log1p log2 make_loss mean negative norm radians relu retain rint round rsqrt
sgd_mom_update sgd_update sigmoid sign sin sinh slice sqrt square stop_gradient sum tan tanh trunc
where zeros_like""".split()


def names(kind, package=None):
    """{public name: function} for ``<package>.gen_<kind>`` (default ``mxnet.ndarray``; the
    same rules serve ``mxnet.symbol``, whose ``op`` and sub-namespaces mirror mx.nd's)."""
    import importlib
    pkg = package or importlib.import_module(__package__)
    _subs, op = pkg._subs, pkg.op
    every = {n: getattr(op, n) for n in vars(op) if not n.startswith("__")}
    if kind == "op":
        return {n: f for n, f in every.items() if not n.startswith("_")}
    if kind == "_internal":
        return {n: f for n, f in every.items()
                if n.startswith("_") and not n.startswith(_OTHER_NAMESPACES)}
    if kind == "sparse":
        fns = {n: every[n] for n in _SPARSE if n in every}
        if len(fns) < len(_SPARSE):  # sparse-only operators live in mx.nd.sparse here
            sparse = importlib.import_module(f"{pkg.__name__}.sparse")
            fns.update((n, getattr(sparse, n)) for n in _SPARSE
                       if n not in fns and hasattr(sparse, n))
        return fns
    if kind == "random":  # the ``_random_`` operators only (``_sample_`` ones are internal)
        return {n[len("_random_"):]: f for n, f in every.items() if n.startswith("_random_")}
    return dict(_subs[kind])


def fill(namespace, kind, package=None):
    """Fill a ``gen_<kind>`` module's globals and ``__all__``."""
    fns = names(kind, package)
    namespace.update(fns)
    namespace["__all__"] = sorted(fns)
