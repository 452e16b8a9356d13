"""``import mxnet`` before NumPy shortens OpenBLAS's busy-wait after a GEMM (its worker threads
otherwise hold a core for about 0.1 s, slowing the kernels that run between GEMMs), keeps a
value the user set, and changes nothing when NumPy (and with it OpenBLAS) is already loaded."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _timeout_after(code, **env):
    e = dict(os.environ, PYTHONPATH=ROOT)
    e.pop("OPENBLAS_THREAD_TIMEOUT", None)
    e.update(env)
    out = subprocess.run([sys.executable, "-c", code + "\nimport os\n"
                          "print(os.environ.get('OPENBLAS_THREAD_TIMEOUT'))"],
                         capture_output=True, text=True, env=e, cwd=ROOT, check=True).stdout
    return out.strip().splitlines()[-1]


def test_import_mxnet_first_sets_a_short_openblas_timeout():
    assert _timeout_after("import mxnet") == "16"


def test_a_timeout_the_user_set_is_kept():
    assert _timeout_after("import mxnet", OPENBLAS_THREAD_TIMEOUT="24") == "24"


def test_nothing_changes_when_numpy_came_first():
    assert _timeout_after("import numpy\nimport mxnet") == "None"
