"""The KVStore interface, the registry of Python-defined stores, and ``create``.

A store maps keys (all ints or all strs) to arrays. Workers ``push`` values that the
store sums (and optionally feeds through an updater), and ``pull`` the stored value
back into arrays on any device.
"""
from __future__ import annotations

import warnings

from ..base import MXNetError
from ..ndarray import NDArray

__all__ = ["KVStoreBase", "TestStore", "create"]


def _fail(message=""):
    # 1.9.1 checks these with ``assert``; raise explicitly so ``python -O`` keeps them.
    raise AssertionError(message)


def _key_value_pairs(keys, vals):
    """Flatten the ``(key, value)`` arguments of a store call.

    ``keys`` is one key or a (nested) list of keys; ``vals`` gives, for each key, one
    NDArray or a list of NDArrays (one per device). Returns ``(pairs, use_str)`` where
    ``pairs`` lists ``(key, NDArray)`` in argument order and ``use_str`` says whether
    the keys are strings (None when there are no keys).
    """
    if isinstance(keys, (tuple, list)):
        if len(keys) != len(vals):
            _fail(f"KVStore: got {len(keys)} keys but {len(vals)} values; expected one value "
                  "(an NDArray or a list of NDArrays) per key")
        pairs = []
        use_str = None
        for k, v in zip(keys, vals):
            sub, sub_str = _key_value_pairs(k, v)
            pairs.extend(sub)
            if use_str is None:
                use_str = sub_str
            elif sub_str is not None and sub_str != use_str:
                _fail("inconsistent types of keys detected.")
        return pairs, use_str
    if not isinstance(keys, (int, str)):
        _fail("unexpected type for keys: " + str(type(keys)))
    use_str = isinstance(keys, str)
    if not use_str and not -2**31 <= keys < 2**31:   # 1.9.1 passes int keys as C ints
        raise OverflowError(f"KVStore key {keys}: signed integer is "
                            f"{'greater than maximum' if keys > 0 else 'less than minimum'} "
                            "(int keys must fit in 32 bits)")
    if isinstance(vals, NDArray):
        return [(keys, vals)], use_str
    vals = list(vals)  # a non-iterable raises TypeError, as in 1.9.1
    for v in vals:
        if not isinstance(v, NDArray):
            _fail(f"KVStore: the values of key {keys!r} must be NDArrays, got {type(v).__name__}")
    return [(keys, v) for v in vals], use_str


def _check_param_dict(params):
    if not isinstance(params, dict):
        _fail("unexpected type for param_dict: " + str(type(params)))
    return {str(k): str(v) for k, v in params.items()}


def parse_compression(compression_params):
    """The threshold of ``{'type': '2bit', 'threshold': t}`` (t defaults to 0.5)."""
    params = _check_param_dict(compression_params)
    if "type" not in params:
        raise MXNetError("Required parameter type of string is not presented")
    kind = params["type"]
    if kind != "2bit":
        raise MXNetError(f"Unknown type for gradient compression {kind}")
    try:
        threshold = float(params.get("threshold", 0.5))
    except ValueError:
        raise MXNetError(f"Invalid threshold for gradient compression: "
                         f"{params['threshold']!r}") from None
    if not threshold > 0:
        raise MXNetError(f"threshold must be greater than 0, got {threshold}")
    return threshold


class KVStoreBase:
    """The interface every key-value store offers for data-parallel training."""

    OPTIMIZER = "optimizer"
    kv_registry: dict = {}

    def broadcast(self, key, value, out, priority=0):
        """Initialise ``key`` with ``value`` and copy it into every array of ``out``."""
        raise NotImplementedError()

    def pushpull(self, key, value, out=None, priority=0):
        """Sum ``value`` over devices into the store, then pull the result into ``out``.

        With ``out=None`` the result is written back into ``value``.
        """
        raise NotImplementedError()

    def set_optimizer(self, optimizer):
        """Run ``optimizer`` inside the store: each push updates the stored weight."""
        raise NotImplementedError()

    def is_capable(self, capability):
        """Whether this store supports ``capability`` (only ``'optimizer'`` is known)."""
        raise NotImplementedError()

    def save_optimizer_states(self, fname, dump_optimizer=False):
        """Write the updater's states (and the optimizer, if asked) to ``fname``."""
        raise NotImplementedError()

    def load_optimizer_states(self, fname):
        """Read updater states written by :meth:`save_optimizer_states`."""
        raise NotImplementedError()

    @property
    def type(self):
        """The store's type name, such as ``'local'`` or ``'device'``."""
        raise NotImplementedError()

    @property
    def rank(self):
        """This worker's index in ``[0, num_workers)``."""
        raise NotImplementedError()

    @property
    def num_workers(self):
        """How many workers share the store."""
        raise NotImplementedError()

    @staticmethod
    def register(klass):
        """Class decorator: make ``create(klass.__name__.lower())`` build ``klass()``."""
        if not isinstance(klass, type):
            _fail()
        name = klass.__name__.lower()
        old = KVStoreBase.kv_registry.get(name)
        if old is not None:
            warnings.warn(f"WARNING: New kvstore {klass.__module__}.{klass.__name__} is overriding "
                          f"existing kvstore {old.__module__}.{old.__name__}", stacklevel=2)
        KVStoreBase.kv_registry[name] = klass
        return klass


@KVStoreBase.register
class TestStore(KVStoreBase):
    """A minimal single-process store, written against the bare interface (for tests)."""

    def broadcast(self, key, value, out, priority=0):
        outs = out if isinstance(out, list) else [out]
        for o in outs:
            o[:] = value

    def pushpull(self, key, value, out=None, priority=0):
        if isinstance(value, NDArray):
            if out is not None:
                for o in (out if isinstance(out, list) else [out]):
                    o[:] = value
            return
        ctx = value[0].context
        total = value[0].as_in_context(ctx).copy()
        for v in value[1:]:
            total += v.as_in_context(ctx)
        targets = value if out is None else (out if isinstance(out, list) else [out])
        for t in targets:
            t[:] = total.as_in_context(t.context)

    @staticmethod
    def is_capable(capability):
        if capability.lower() == KVStoreBase.OPTIMIZER:
            return False
        raise ValueError(f"Unknown capability: {capability}")

    @property
    def type(self):
        return "teststore"

    @property
    def rank(self):
        return 0

    @property
    def num_workers(self):
        return 1

    def set_optimizer(self, optimizer):
        raise NotImplementedError()

    def save_optimizer_states(self, fname, dump_optimizer=False):
        raise NotImplementedError()

    def load_optimizer_states(self, fname):
        raise NotImplementedError()


class UpdaterStatesMixin:
    """save/load_optimizer_states for stores that keep an updater (``self._updater``)."""

    def save_optimizer_states(self, fname, dump_optimizer=False):
        """Write the updater's states (with the optimizer when ``dump_optimizer``) to ``fname``."""
        if self._updater is None:
            _fail("Cannot save states for distributed training")
        from ..ndarray.serialization import write_file_atomic
        write_file_atomic(fname, self._updater.get_states(dump_optimizer))

    def load_optimizer_states(self, fname):
        """Read updater states written by :meth:`save_optimizer_states`."""
        if self._updater is None:
            _fail("Cannot load states for distributed training")
        with open(fname, "rb") as f:
            self._updater.set_states(f.read())


def create(name="local"):
    """Create a key-value store.

    ``name`` (case-insensitive) picks the kind, by substring as 1.9.1 does:

    - a name registered with :meth:`KVStoreBase.register` builds that class;
    - anything containing ``dist`` is a distributed store (see mxnet/kvstore/dist.py);
    - ``nccl`` and anything containing ``device`` sum on the devices the values live
      on, spreading keys over those devices;
    - any other name (``local`` ...) sums and updates in CPU memory.
    """
    if not isinstance(name, str):
        raise TypeError("name must be a string")
    name = name.lower()
    cls = KVStoreBase.kv_registry.get(name)
    if cls is not None:
        return cls()
    if "dist" in name:
        from .dist import create_dist
        return create_dist(name)
    from .local import KVStore
    return KVStore(name, on_device="device" in name or "nccl" in name)


def _raise_mixed(expected_str, key):
    kind = "str" if expected_str else "int"
    raise MXNetError(f"Mixed key types are not allowed: this store uses {kind} keys, "
                     f"got {type(key).__name__} key {key!r}")
