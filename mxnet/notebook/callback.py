"""Callbacks that record training progress for notebooks (``import mxnet.notebook.callback``).

:class:`PandasLogger` collects metrics into pandas DataFrames; :class:`LiveLearningCurve`
and :class:`LiveTimeSeries` draw live bokeh charts in Jupyter. pandas and bokeh are not
dependencies of mxnet-py: each is imported when an object needing it is created, and a
missing one raises ImportError saying what to install. :func:`args_wrapper` needs neither.
"""
from __future__ import annotations

import datetime
import time
from collections import defaultdict

__all__ = ["PandasLogger", "LiveBokehChart", "LiveTimeSeries", "LiveLearningCurve",
           "args_wrapper"]


def _pandas():
    try:
        import pandas  # noqa: PLC0415 - optional dependency, imported on use
    except ImportError as e:
        raise ImportError("mxnet.notebook.callback.PandasLogger needs pandas, which is not "
                          "installed (it is not a dependency of mxnet-py): pip install "
                          "pandas") from e
    return pandas


def _bokeh():
    try:
        import bokeh.io  # noqa: PLC0415 - optional dependency, imported on use
        import bokeh.plotting  # noqa: PLC0415
    except ImportError as e:
        raise ImportError("mxnet.notebook.callback's live charts need bokeh, which is not "
                          "installed (it is not a dependency of mxnet-py): pip install "
                          "bokeh") from e
    return bokeh


def _figure(bokeh, **kwargs):
    make = getattr(bokeh.plotting, "Figure", None) or bokeh.plotting.figure
    return make(**kwargs)


def _glyph(fig, kind, x, y, legend=None, **kwargs):
    """``fig.line`` / ``fig.circle`` with a legend entry, across bokeh versions."""
    draw = getattr(fig, kind)
    if legend is None:
        return draw(x, y, **kwargs)
    try:
        return draw(x, y, legend_label=legend, **kwargs)
    except (TypeError, AttributeError):  # bokeh < 1.4
        return draw(x, y, legend=legend, **kwargs)


def _add_new_columns(dataframe, metrics):
    """Add a column (of None) to ``dataframe`` for each key of ``metrics`` it lacks."""
    for col in set(metrics.keys()) - set(dataframe.columns):
        dataframe[col] = None


def _extend(base, new):
    """Append to ``base`` the items of the longer ``new`` beyond ``len(base)``."""
    base.extend(new[len(base):])


def _metrics_of(param):
    """The metric values of a callback ``param`` as a dict (resetting the metric)."""
    if param.eval_metric is None:
        return {}
    metrics = dict(param.eval_metric.get_name_value())
    param.eval_metric.reset()
    return metrics


class PandasLogger:
    """Records training statistics into three pandas DataFrames: ``train`` (every
    ``frequent`` batches), ``eval`` (after each evaluation) and ``epoch`` (timings).

    ``model.fit(..., **logger.callback_args())`` installs its callbacks.
    """

    def __init__(self, batch_size, frequent=50):
        pd = _pandas()
        self.batch_size = batch_size
        self.frequent = frequent
        self._dataframes = {"train": pd.DataFrame(), "eval": pd.DataFrame(),
                            "epoch": pd.DataFrame()}
        self.last_time = time.time()
        self.start_time = datetime.datetime.now()
        self.last_epoch_time = datetime.datetime.now()

    @property
    def train_df(self):
        """Training metrics, one row every ``frequent`` batches."""
        return self._dataframes["train"]

    @property
    def eval_df(self):
        """Validation metrics, one row per evaluation."""
        return self._dataframes["eval"]

    @property
    def epoch_df(self):
        """Per-epoch timings."""
        return self._dataframes["epoch"]

    @property
    def all_dataframes(self):
        """The three DataFrames by name."""
        return self._dataframes

    def elapsed(self):
        """Time since this logger was made (a timedelta)."""
        return datetime.datetime.now() - self.start_time

    def append_metrics(self, metrics, df_name):
        """Append the dict ``metrics`` as a row of DataFrame ``df_name``."""
        dataframe = self._dataframes[df_name]
        _add_new_columns(dataframe, metrics)
        dataframe.loc[len(dataframe)] = metrics

    def train_cb(self, param):
        """Batch-end callback."""
        if param.nbatch % self.frequent == 0:
            self._process_batch(param, "train")

    def eval_cb(self, param):
        """Evaluation-end callback."""
        self._process_batch(param, "eval")

    def _process_batch(self, param, df_name):
        now = time.time()
        metrics = _metrics_of(param)
        try:
            speed = self.frequent / (now - self.last_time)
        except ZeroDivisionError:
            speed = float("inf")
        # the two speeds are named as 1.9.1 names them
        metrics["batches_per_sec"] = speed * self.batch_size
        metrics["records_per_sec"] = speed
        metrics["elapsed"] = self.elapsed()
        metrics["minibatch_count"] = param.nbatch
        metrics["epoch"] = param.epoch
        self.append_metrics(metrics, df_name)
        self.last_time = now

    def epoch_cb(self):
        """Epoch-end callback: records the epoch's duration."""
        now = datetime.datetime.now()
        metrics = {"elapsed": self.elapsed(), "epoch_time": now - self.last_epoch_time}
        self.append_metrics(metrics, "epoch")
        self.last_epoch_time = now

    def callback_args(self):
        """The keyword arguments of ``model.fit`` that install all three callbacks."""
        return {"batch_end_callback": self.train_cb, "eval_end_callback": self.eval_cb,
                "epoch_end_callback": self.epoch_cb}


class LiveBokehChart:
    """Base class of the live charts: a bokeh chart in a Jupyter notebook, redrawn at
    most every ``display_freq`` seconds from a :class:`PandasLogger`'s data. Subclasses
    define :meth:`setup_chart` and :meth:`update_chart_data`."""

    def __init__(self, pandas_logger, metric_name, display_freq=10, batch_size=None,
                 frequent=50):
        self._bokeh = _bokeh()
        if pandas_logger:
            self.pandas_logger = pandas_logger
        else:
            self.pandas_logger = PandasLogger(batch_size=batch_size, frequent=frequent)
        self.display_freq = display_freq
        self.last_update = time.time()
        self.metric_name = metric_name
        self._bokeh.io.output_notebook()
        self.handle = self.setup_chart()

    def setup_chart(self):
        """Draw the chart; return its notebook handle."""
        raise NotImplementedError("Incomplete base class: LiveBokehChart must be sub-classed")

    def update_chart_data(self):
        """Copy new data into the chart."""
        raise NotImplementedError("Incomplete base class: LiveBokehChart must be sub-classed")

    def interval_elapsed(self):
        """Whether ``display_freq`` seconds have passed since the last redraw."""
        return time.time() - self.last_update > self.display_freq

    def _push_render(self):
        self._bokeh.io.push_notebook(handle=self.handle)
        self.last_update = time.time()

    def _do_update(self):
        self.update_chart_data()
        self._push_render()

    def batch_cb(self, param):
        """Batch-end callback: redraw when due."""
        if self.interval_elapsed():
            self._do_update()

    def eval_cb(self, param):
        """Evaluation-end callback: redraw now."""
        self._do_update()

    def callback_args(self):
        """The keyword arguments of ``model.fit`` that install the callbacks."""
        return {"batch_end_callback": self.batch_cb, "eval_end_callback": self.eval_cb}


class LiveTimeSeries(LiveBokehChart):
    """A line of values against elapsed time; ``fig_params`` go to bokeh's figure."""

    def __init__(self, **fig_params):
        bokeh = _bokeh()
        self.fig = _figure(bokeh, x_axis_type="datetime", x_axis_label="Elapsed time",
                           **fig_params)
        super().__init__(None, None)

    def setup_chart(self):
        self.start_time = datetime.datetime.now()
        self.x_axis_val = []
        self.y_axis_val = []
        self.fig.line(self.x_axis_val, self.y_axis_val)
        return self._bokeh.plotting.show(self.fig, notebook_handle=True)

    def elapsed(self):
        """Time since the chart was drawn."""
        return datetime.datetime.now() - self.start_time

    def update_chart_data(self, value):
        self.x_axis_val.append(self.elapsed())
        self.y_axis_val.append(value)
        self._push_render()


class LiveLearningCurve(LiveBokehChart):
    """The training and validation values of metric ``metric_name`` against training
    time, updated as training goes."""

    def __init__(self, metric_name, display_freq=10, frequent=50):
        self.frequent = frequent
        self.start_time = datetime.datetime.now()
        self._data = {"train": {"elapsed": []}, "eval": {"elapsed": []}}
        # as in 1.9.1, ``frequent`` lands in the base class's batch_size
        super().__init__(None, metric_name, display_freq, frequent)

    def setup_chart(self):
        self.fig = _figure(self._bokeh, x_axis_type="datetime", x_axis_label="Training time")
        self.x_axis_val1, self.y_axis_val1 = [], []
        self.train1 = _glyph(self.fig, "line", self.x_axis_val1, self.y_axis_val1, "train",
                             line_dash="dotted", alpha=0.3)
        self.train2 = _glyph(self.fig, "circle", self.x_axis_val1, self.y_axis_val1, "train",
                             size=1.5, line_alpha=0.3, fill_alpha=0.3)
        self.train2.visible = False  # shown once there are many points
        self.x_axis_val2, self.y_axis_val2 = [], []
        self.valid1 = _glyph(self.fig, "line", self.x_axis_val2, self.y_axis_val2,
                             "validation", line_color="green", line_width=2)
        self.valid2 = _glyph(self.fig, "circle", self.x_axis_val2, self.y_axis_val2, None,
                             line_color="green", line_width=2)
        self.fig.legend.location = "bottom_right"
        self.fig.yaxis.axis_label = self.metric_name
        return self._bokeh.plotting.show(self.fig, notebook_handle=True)

    def batch_cb(self, param):
        if param.nbatch % self.frequent == 0:
            self._process_batch(param, "train")
        if self.interval_elapsed():
            self._do_update()

    def eval_cb(self, param):
        self._process_batch(param, "eval")
        self._do_update()

    def _process_batch(self, param, df_name):
        metrics = _metrics_of(param)
        metrics["elapsed"] = datetime.datetime.now() - self.start_time
        table = self._data[df_name]
        for key, value in metrics.items():
            table.setdefault(key, []).append(value)

    def update_chart_data(self):
        train = self._data["train"]
        if train["elapsed"]:
            _extend(self.x_axis_val1, train["elapsed"])
            _extend(self.y_axis_val1, train[self.metric_name])
        evals = self._data["eval"]
        if evals["elapsed"]:
            _extend(self.x_axis_val2, evals["elapsed"])
            _extend(self.y_axis_val2, evals[self.metric_name])
        if len(evals) > 10:
            self.train1.visible = False
            self.train2.visible = True


def args_wrapper(*args):
    """Merge the ``callback_args()`` of several callback objects (PandasLogger, live
    charts) into ``model.fit`` keyword arguments: each key maps to a list of callbacks."""
    out = defaultdict(list)
    for callback in args:
        for key, value in callback.callback_args().items():
            out[key].append(value)
    return dict(out)
