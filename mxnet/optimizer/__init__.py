"""``mx.optimizer``: weight update rules, their registry (``create``/``register``) and the
Updater used by KVStore and Gluon's Trainer.

The base class and Updater live in :mod:`.optimizer`; each family of rules has its own
module (:mod:`.sgd`, :mod:`.adaptive`, :mod:`.lamb`, :mod:`.contrib`).
"""
from . import adaptive, contrib, lamb, optimizer, sgd  # noqa: F401  (the family modules)
from .adaptive import FTML, AdaDelta, AdaGrad, Adam, Adamax, Ftrl, Nadam, RMSProp
from .contrib import GroupAdaGrad
from .lamb import LAMB
from .optimizer import Optimizer, Updater, create, get_updater, register
from .sgd import DCASGD, LARS, LBSGD, NAG, SGD, SGLD, Signum, Test, ccSGD
from ..ndarray import abs as NDabs  # noqa: E402,F401,N812  (a name 1.9.1's module offers)

__all__ = ["AdaDelta", "AdaGrad", "Adam", "Adamax", "DCASGD", "FTML", "Ftrl", "LARS", "NAG",
           "LBSGD", "Nadam", "Optimizer", "RMSProp", "SGD", "SGLD", "Signum", "LAMB", "Test", "Updater",
           "ccSGD", "create", "get_updater", "register", "GroupAdaGrad", "contrib"]

# 1.9.1 defines every optimizer in mxnet/optimizer/optimizer.py, so its pickles (Updater
# states saved with dump_optimizer=True) name classes there: expose them under that path too.
# Pickles made here name that path as well, so that 1.9.1 can load them.
for _name in __all__:
    _obj = globals()[_name]
    if isinstance(_obj, type) and not hasattr(optimizer, _name):
        setattr(optimizer, _name, _obj)
    if isinstance(_obj, type) and _obj.__module__ in (sgd.__name__, adaptive.__name__,
                                                      lamb.__name__):
        _obj.__module__ = optimizer.__name__
del _name, _obj
