"""1.9.1's generated module of the ``_random_`` symbol operators (filled from ``mx.sym``'s
functions)."""
from .. import symbol as _package
from ..ndarray._gen_modules import fill as _fill

_fill(globals(), "random", _package)
