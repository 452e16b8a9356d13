"""Symbol.tojson/save drop the amp_cast/amp_multicast nodes by default, as 1.9.1 writes them
(golden text from tools/golden/gen_amp_cast_removal.py)."""
import json

import pytest

import mxnet as mx

from .._scripts import REPO, load_script

GEN = load_script("tools/golden/gen_amp_cast_removal.py")
GOLDEN = json.loads((REPO / "tests" / "golden" / "amp_cast_removal.json").read_text())


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_json_with_and_without_casts_as_1_9_1(name, tmp_path):
    sym = GEN.build(mx)[name]
    assert sym.tojson() == GOLDEN[name]["removed"]
    assert sym.tojson(remove_amp_cast=False) == GOLDEN[name]["kept"]
    sym.save(str(tmp_path / "s.json"))
    assert (tmp_path / "s.json").read_text() == GOLDEN[name]["removed"]


def test_removing_casts_leaves_the_symbol_itself_alone():
    sym = GEN.build(mx)["cast_and_multicast"]
    before = sym.tojson(remove_amp_cast=False)
    sym.tojson()
    assert sym.tojson(remove_amp_cast=False) == before
    loaded = mx.sym.load_json(sym.tojson())
    assert "amp_cast" not in loaded.tojson(remove_amp_cast=False)
