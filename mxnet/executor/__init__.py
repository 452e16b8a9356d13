"""Graph passes over Symbols (shape/type inference, memory planning) and the Executor."""


def __getattr__(name):
    # ``from mxnet.executor import Executor`` as in 1.9.1; loaded on use, since the symbol
    # layer imports the graph passes of this package while it is itself being imported
    if name == "Executor":
        from .executor import Executor
        return Executor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
