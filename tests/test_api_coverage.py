"""Which of 1.9.1's public mx.nd names exist here.

tests/golden/api_names.json is written by tools/golden/gen_api_names.py under the
reference. The README's compatibility table lists what is still missing; this test
fails when a name that used to exist disappears, or when the missing list in the
README falls out of date.
"""
import json
import os
import re

import mxnet as mx

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = json.load(open(os.path.join(HERE, "golden", "api_names.json")))
README = open(os.path.join(HERE, "..", "README.md"), encoding="utf-8").read()

_MODULES = {"nd": mx.nd, "nd.linalg": mx.nd.linalg, "nd.random": mx.nd.random,
            "nd.contrib": mx.nd.contrib, "NDArray": mx.nd.NDArray}


def missing(key):
    return sorted(n for n in NAMES[key] if not hasattr(_MODULES[key], n))


def _readme_list(key):
    m = re.search(rf"<!-- missing {re.escape(key)} -->(.*?)<!-- end -->", README, re.S)
    assert m, f"README lacks the missing-names list for {key}"
    return sorted(re.findall(r"`([^`]+)`", m.group(1)))


def test_readme_lists_exactly_the_missing_names():
    for key in _MODULES:
        assert _readme_list(key) == missing(key), (
            f"README's missing list for mx.{key} is out of date; now missing: {missing(key)}")
