"""Gluon model zoo: predefined network architectures and their pretrained-weight files.

``get_model('resnet18_v1', classes=10)`` builds a network by its 1.9.1 name; ``vision`` holds the
architecture classes and constructors; ``model_store`` finds pretrained ``.params`` files.
"""
from . import model_store, vision  # noqa: F401
from .vision import get_model  # noqa: F401

__all__ = ["get_model", "model_store", "vision"]
