"""``mx.mod``: the Module API for training Symbols.

- :class:`BaseModule`: the interface, and the ``fit`` / ``score`` / ``predict`` loops;
- :class:`Module`: one Symbol on one or several devices;
- :class:`BucketingModule`: one Module per bucket key, sharing parameters;
- :class:`SequentialModule`: modules chained output to input;
- :class:`PythonModule` / :class:`PythonLossModule`: modules written in Python.
"""
from .base_module import BaseModule
from .bucketing_module import BucketingModule
from .module import Module
from .python_module import PythonLossModule, PythonModule
from .sequential_module import SequentialModule

__all__ = ["BaseModule", "Module", "BucketingModule", "SequentialModule", "PythonModule",
           "PythonLossModule"]
