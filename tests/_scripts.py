"""Import the repository's scripts (golden-fixture generators under tools/golden/, the
benchmarks) from the tests, by path: they are not packages, and the generators must stay
importable under the reference interpreter without this repository's mxnet."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def load_script(relpath, name=None):
    """The module of the script ``relpath`` (relative to the repository root), loaded once
    under ``name`` (default: ``golden_`` + its file stem) and kept in ``sys.modules``, where
    dataclasses look their module up."""
    name = name or "golden_" + Path(relpath).stem
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, REPO / relpath)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    return module
