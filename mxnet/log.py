"""MXNet's logging helpers: :func:`get_logger` gives a logger whose console lines look like
glog's (``W0505 00:29:47 3525 file.py:func:12] message``, coloured by level)."""
from __future__ import annotations

import logging
import warnings

__all__ = ["get_logger", "getLogger", "CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG",
           "NOTSET"]

CRITICAL = logging.CRITICAL
ERROR = logging.ERROR
WARNING = logging.WARNING
INFO = logging.INFO
DEBUG = logging.DEBUG
NOTSET = logging.NOTSET

_LABELS = {CRITICAL: "C", ERROR: "E", WARNING: "W", INFO: "I", DEBUG: "D"}
_RED, _GREEN, _BLUE, _RESET = "\x1b[31m", "\x1b[32m", "\x1b[34m", "\x1b[0m"
_BODY = "%(asctime)s %(process)d %(pathname)s:%(funcName)s:%(lineno)d]"


class _Formatter(logging.Formatter):
    """glog-like lines: a coloured one-letter level, ``MMDD HH:MM:SS``, the process id and
    the call site, then the message."""

    def __init__(self):
        super().__init__(datefmt="%m%d %H:%M:%S")

    def _get_color(self, level):
        if level >= logging.WARNING:
            return _RED
        if level >= logging.INFO:
            return _GREEN
        return _BLUE

    def _get_label(self, level):
        return _LABELS.get(level, "U")

    def format(self, record):
        lvl = record.levelno
        self._style._fmt = f"{self._get_color(lvl)}{self._get_label(lvl)}{_BODY}{_RESET} %(message)s"
        return super().format(record)


def get_logger(name=None, filename=None, filemode=None, level=WARNING):
    """A logger set up for MXNet's format.

    The first call for a given ``name`` adds one handler: a file handler for ``filename``
    (opened with ``filemode``, ``'a'`` by default; plain format) or else a console handler
    with the coloured format, and sets ``level``. Later calls return the same logger
    unchanged. ``name=None`` returns the root logger as it is.
    """
    logger = logging.getLogger(name)
    if name is not None and not getattr(logger, "_init_done", None):
        logger._init_done = True
        if filename:
            handler = logging.FileHandler(filename, filemode if filemode else "a")
        else:
            handler = logging.StreamHandler()
            handler.setFormatter(_Formatter())
        logger.addHandler(handler)
        logger.setLevel(level)
    return logger


def getLogger(name=None, filename=None, filemode=None, level=WARNING):  # noqa: N802 - 1.9.1 name
    """Deprecated spelling of :func:`get_logger` (warns with DeprecationWarning)."""
    warnings.warn("getLogger is deprecated, Use get_logger instead.", DeprecationWarning,
                  stacklevel=2)
    return get_logger(name, filename, filemode, level)
