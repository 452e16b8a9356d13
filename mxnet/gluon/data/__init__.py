"""gluon.data: datasets, samplers and the DataLoader (``mx.gluon.data``)."""
from .dataset import *  # noqa: F401,F403
from .sampler import *  # noqa: F401,F403
from .dataloader import *  # noqa: F401,F403
from .dataset import ArrayDataset, Dataset, RecordFileDataset, SimpleDataset  # noqa: F401
from .sampler import BatchSampler, FilterSampler, RandomSampler, Sampler, SequentialSampler  # noqa: F401
from .dataloader import DataLoader  # noqa: F401
from . import vision  # noqa: F401,E402
