"""1.9.1's generated module of the ``_random_`` operators (filled from ``mx.nd``'s functions)."""
from ._gen_modules import fill as _fill

_fill(globals(), "random")
