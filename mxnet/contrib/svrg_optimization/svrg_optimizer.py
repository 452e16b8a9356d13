"""The optimizers SVRGModule installs: ``_SVRGOptimizer`` and ``_AssignmentOptimizer``."""
from ... import optimizer as opt

__all__ = ["_AssignmentOptimizer", "_SVRGOptimizer"]


@opt.register
class _AssignmentOptimizer(opt.Optimizer):
    """Sets each weight to its gradient; SVRGModule uses it to gather full gradients in a
    KVStore (the keys ending in ``_full``)."""

    def update(self, index, weight, grad, state):
        weight[:] = grad


# the parameters of the Optimizer base class, which _SVRGOptimizer takes for itself
_BASE_PARAMS = ("rescale_grad", "param_idx2name", "wd", "clip_gradient", "learning_rate",
                "lr_scheduler", "sym", "begin_num_update", "multi_precision", "param_dict")


@opt.register
class _SVRGOptimizer(opt.Optimizer):
    """Dispatches updates: ``*_full`` keys go to an assignment optimizer, every other key to
    ``default_optimizer`` (a name, created with the same keyword arguments, or an instance).
    Meant for SVRGModule only."""

    def __init__(self, default_optimizer, **kwargs):
        super().__init__(**self._check_params(**kwargs))
        if isinstance(default_optimizer, str):
            self.default_opt = opt.create(default_optimizer, **kwargs)
        else:
            self.default_opt = default_optimizer
        self.aux_opt = opt.create(_AssignmentOptimizer.__name__)

    @staticmethod
    def _check_params(**kwargs):
        """The keyword arguments the Optimizer base class accepts."""
        return {k: v for k, v in kwargs.items() if k in _BASE_PARAMS}

    def _check_index(self, index):
        """The parameter name of ``index`` (which may be the name itself)."""
        if index in self.idx2name.values():
            return index
        return self.idx2name[index]

    def update(self, index, weight, grad, state):
        if "full" in self._check_index(index):
            self.aux_opt.update(index, weight, grad, state)
        else:
            self.default_opt.update(index, weight, grad, state)

    def create_state(self, index, weight):
        if "full" in self._check_index(index):
            return self.aux_opt.create_state(index, weight)
        return self.default_opt.create_state(index, weight)
