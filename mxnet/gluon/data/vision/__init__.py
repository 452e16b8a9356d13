"""Vision datasets (MNIST, CIFAR, image folders and records) and image transforms."""
from .datasets import *  # noqa: F401,F403
from .datasets import (CIFAR10, CIFAR100, MNIST, FashionMNIST, ImageFolderDataset,  # noqa: F401
                       ImageRecordDataset)
from . import transforms  # noqa: F401,E402
