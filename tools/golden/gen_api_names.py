"""Record the public names of 1.9.1's mx.nd, mx.nd.linalg/random/contrib and mx.sym.

Run under the reference venv, outside the checkout:
    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python /work/main/tools/golden/gen_api_names.py
Writes tests/golden/api_names.json, used by tests/test_api_coverage.py and the README.
"""
import json
import os

import mxnet as mx

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "golden",
                   "api_names.json")


def public(mod):
    return sorted(n for n in dir(mod) if not n.startswith("_"))


names = {"nd": public(mx.nd), "nd.linalg": public(mx.nd.linalg), "nd.random": public(mx.nd.random),
         "nd.contrib": public(mx.nd.contrib), "sym": public(mx.sym),
         "NDArray": sorted(n for n in dir(mx.nd.NDArray) if not n.startswith("_"))}
with open(OUT, "w") as f:
    json.dump(names, f, indent=1, sort_keys=True)
print({k: len(v) for k, v in names.items()})
