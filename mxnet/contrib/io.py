"""Data iterators of mx.contrib (``mx.contrib.io``)."""
from .. import ndarray as nd
from ..io import DataDesc, DataIter

__all__ = ["DataLoaderIter"]


class DataLoaderIter(DataIter):
    """A Gluon ``DataLoader`` seen as an ``mx.io.DataIter``, for the Module API.

    Each item of the loader must be a (data, label) pair. The batch size is that of the
    first batch; a shorter last batch is padded (``getpad`` says by how many rows; the pad
    rows hold unspecified values) so that every batch has the same shape.

    Parameters
    ----------
    loader : mxnet.gluon.data.DataLoader
    data_name, label_name : str
        The names in ``provide_data`` / ``provide_label``.
    dtype : str, default 'float32'
        The batches are cast to this type.
    """

    def __init__(self, loader, data_name="data", label_name="softmax_label", dtype="float32"):
        super().__init__()
        self._loader = loader
        self._iter = iter(self._loader)
        data, label = next(self._iter)
        self.batch_size = data.shape[0]
        self.dtype = dtype
        self.provide_data = [DataDesc(data_name, data.shape, dtype)]
        self.provide_label = [DataDesc(label_name, label.shape, dtype)]
        self._current_batch = None
        self.reset()

    def reset(self):
        self._iter = iter(self._loader)

    def iter_next(self):
        try:
            self._current_batch = next(self._iter)
        except StopIteration:
            self._current_batch = None
        return self._current_batch is not None

    def _padded(self, arr):
        arr = arr.astype(self.dtype)
        if not self.getpad():
            return arr
        out = nd.empty((self.batch_size,) + tuple(arr.shape[1:]), dtype=self.dtype)
        out[:arr.shape[0]] = arr
        return out

    def getdata(self):
        return [self._padded(self._current_batch[0])]

    def getlabel(self):
        return [self._padded(self._current_batch[1])]

    def getpad(self):
        return self.batch_size - self._current_batch[0].shape[0]

    def getindex(self):
        return None
