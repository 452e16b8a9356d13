"""Command-line tools shipped with mxnet, run as modules: ``python -m mxnet.tools.im2rec``."""
