"""gluon.contrib: experimental layers (``contrib.nn``)."""
from . import nn  # noqa: F401
