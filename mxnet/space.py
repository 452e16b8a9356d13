"""Schedule configuration spaces for TVM-generated operators (``import mxnet.space``).

The classes mirror AutoTVM's ``ConfigSpace``, limited to "other option" knobs, and
convert to and from the JSON form that MXNet's ``tvmop.conf`` files use:
``{"e": [[knob, "ot", value], ...], "s": [[knob, "ot", [choices...]], ...]}``.
"""
from __future__ import annotations

from collections import OrderedDict

import numpy as np

__all__ = ["OtherOptionSpace", "OtherOptionEntity", "ConfigSpace", "ConfigSpaces"]


class OtherOptionSpace:
    """The choices of one generic knob."""

    def __init__(self, entities):
        self.entities = [OtherOptionEntity(e) for e in entities]

    @classmethod
    def from_tvm(cls, x):
        """From an ``autotvm`` OtherOptionSpace."""
        return cls([e.val for e in x.entities])

    def __len__(self):
        return len(self.entities)

    def __repr__(self):
        return f"OtherOption({self.entities}) len={len(self)}"


class OtherOptionEntity:
    """One chosen value of a generic knob."""

    def __init__(self, val):
        self.val = val

    @classmethod
    def from_tvm(cls, x):
        """From an ``autotvm`` OtherOptionEntity."""
        return cls(x.val)

    def __repr__(self):
        return str(self.val)


def _check_knob(knob_type):
    if knob_type != "ot":
        raise RuntimeError("Invalid config knob type: " + knob_type)


class ConfigSpace:
    """The knobs of one operator's schedule (``space_map``: knob -> choices) and the chosen
    values (``_entity_map``: knob -> entity). ``len()`` is the number of combinations."""

    def __init__(self, space_map, _entity_map):
        self.space_map = space_map
        self._entity_map = _entity_map
        self._length = None

    @classmethod
    def from_tvm(cls, x):
        """From an ``autotvm`` ConfigSpace."""
        spaces = OrderedDict((k, OtherOptionSpace.from_tvm(v)) for k, v in x.space_map.items())
        chosen = OrderedDict((k, OtherOptionEntity.from_tvm(v))
                             for k, v in x._entity_map.items())
        return cls(spaces, chosen)

    def __len__(self):
        if self._length is None:
            self._length = int(np.prod([len(s) for s in self.space_map.values()]))
        return self._length

    def __repr__(self):
        rows = "".join(f"  {i:2d} {name}: {space}\n"
                       for i, (name, space) in enumerate(self.space_map.items()))
        return f"ConfigSpace (len={len(self)}, space_map=\n{rows})"

    def to_json_dict(self):
        """The JSON-serialisable form (a dict with keys ``'e'`` and ``'s'``)."""
        chosen = []
        for k, v in self._entity_map.items():
            if not isinstance(v, OtherOptionEntity):
                raise RuntimeError("Invalid entity instance: " + str(v))
            chosen.append((k, "ot", v.val))
        spaces = [(k, "ot", [e.val for e in v.entities]) for k, v in self.space_map.items()]
        return {"e": chosen, "s": spaces}

    @classmethod
    def from_json_dict(cls, json_dict):
        """Build from :meth:`to_json_dict`'s form."""
        chosen = OrderedDict()
        for key, knob_type, value in json_dict["e"]:
            _check_knob(knob_type)
            chosen[str(key)] = OtherOptionEntity(value)
        spaces = OrderedDict()
        for key, knob_type, values in json_dict["s"]:
            _check_knob(knob_type)
            spaces[str(key)] = OtherOptionSpace(values)
        return cls(spaces, chosen)


class ConfigSpaces:
    """The configuration spaces of several operators, by operator name."""

    def __init__(self):
        self.spaces = {}

    def __setitem__(self, name, space):
        self.spaces[name] = space

    def __len__(self):
        return len(self.spaces)

    def __repr__(self):
        rows = "".join(f"  {i:2d} {key}:\n {val}\n"
                       for i, (key, val) in enumerate(self.spaces.items()))
        return f"ConfigSpaces (len={len(self)}, config_space=\n{rows})"

    def to_json_dict(self):
        """The JSON-serialisable form: a list of ``(name, space_json)`` pairs."""
        return [(k, v.to_json_dict()) for k, v in self.spaces.items()]

    @classmethod
    def from_json_dict(cls, json_dict):
        """Build from :meth:`to_json_dict`'s form."""
        ret = cls()
        for key, val in json_dict:
            ret.spaces[key] = ConfigSpace.from_json_dict(val)
        return ret
