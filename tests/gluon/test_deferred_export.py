"""Exported -symbol.json of blocks whose shapes were inferred at the first call: byte-equal
to 1.9.1's (golden from tools/golden/gen_deferred_export.py), unknown sizes written as 0."""
import json

import pytest

import mxnet as mx

from .._scripts import REPO, load_script

GEN = load_script("tools/golden/gen_deferred_export.py")
GOLDEN = json.loads((REPO / "tests" / "golden" / "deferred_export.json").read_text())


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_export_is_byte_equal_to_1_9_1(name, tmp_path):
    block, shape = GEN.build(mx)[name]
    assert GEN.export(mx, block, shape, str(tmp_path / name)) == GOLDEN[name]
