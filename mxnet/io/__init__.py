"""``mx.io``: data iterators (NDArrayIter, CSVIter, MNISTIter, LibSVMIter, ImageRecordIter, ...)
and the DataDesc / DataBatch types they hand out."""
from . import io, utils  # noqa: F401  (mx.io.io, mx.io.utils as in 1.9.1)
from .csv_iter import CSVIter
from .image_det_record_iter import ImageDetRecordIter
from .image_record_iter import ImageRecordInt8Iter, ImageRecordIter, ImageRecordUInt8Iter
from .io import (DataBatch, DataDesc, DataIter, MXDataIter, NDArrayIter, PrefetchingIter,
                 ResizeIter)
from .libsvm_iter import LibSVMIter
from .mnist_iter import MNISTIter
from .utils import _getdata_by_idx, _has_instance, _init_data

# 1.9.1 keeps its older C++ image iterators under these names; they take the same options
ImageRecordIter_v1 = ImageRecordIter
ImageRecordUInt8Iter_v1 = ImageRecordUInt8Iter

__all__ = ["CSVIter", "DataBatch", "DataDesc", "DataIter", "ImageDetRecordIter",
           "ImageRecordInt8Iter", "ImageRecordIter", "ImageRecordIter_v1", "ImageRecordUInt8Iter",
           "ImageRecordUInt8Iter_v1", "LibSVMIter",
           "MNISTIter", "MXDataIter", "NDArrayIter", "PrefetchingIter", "ResizeIter",
           "_getdata_by_idx", "_has_instance", "_init_data"]
