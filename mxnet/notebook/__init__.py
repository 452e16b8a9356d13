"""Training-progress helpers for Jupyter notebooks: ``import mxnet.notebook.callback``
(its pandas and bokeh dependencies are optional and imported only when used)."""
