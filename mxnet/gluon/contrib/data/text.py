"""Word-level language-modelling datasets (WikiText-2 and WikiText-103).

1.9.1 downloads ``wikitext-*-v1.zip`` into ``root`` when the token file is missing or its
SHA-1 differs. This machine may be offline: a token file already in ``root`` is used as it is
(as the project's other datasets do), a missing one is downloaded when possible, and otherwise
an MXNetError names the files to place in ``root``.
"""
import os
import shutil
import zipfile

import numpy as np

from ....base import MXNetError
from ....contrib import text
from ... import utils as _gutils
from ...data import dataset
from ...data.vision.datasets import _data_dir as data_dir
from ...data.vision.datasets import _repo_file_url
from . import _constants as C

__all__ = ['WikiText2', 'WikiText103']



class _LanguageModelDataset(dataset._DownloadedDataset):  # pylint: disable=abstract-method
    def __init__(self, root, namespace, vocabulary):
        self._vocab = vocabulary
        self._counter = None
        self._namespace = namespace
        super().__init__(root, None)

    @property
    def vocabulary(self):
        """The ``contrib.text.vocab.Vocabulary`` used for indexing."""
        return self._vocab

    @property
    def frequencies(self):
        """Token counts (a ``collections.Counter``) of the loaded file, when built here."""
        return self._counter

    def _build_vocab(self, content):
        if not self._counter:
            self._counter = text.utils.count_tokens_from_str(content)
        if not self._vocab:
            self._vocab = text.vocab.Vocabulary(counter=self.frequencies,
                                                reserved_tokens=[C.EOS_TOKEN])


class _WikiText(_LanguageModelDataset):
    _name = 'WikiText'

    def _read_batch(self, filename):
        with open(filename, encoding='utf8') as fin:
            content = fin.read()
        self._build_vocab(content)
        tokens = []
        for line in content.splitlines():
            words = line.strip().split()
            if words:
                tokens.extend(words)
                tokens.append(C.EOS_TOKEN)
        indices = self.vocabulary.to_indices(tokens)
        return (np.array(indices[:-1], dtype=np.int32),
                np.array(indices[1:], dtype=np.int32))

    def _fetch(self, data_file_name):
        archive_name, archive_sha1 = self._archive_file
        url = _repo_file_url('gluon/dataset/' + self._namespace, archive_name)
        try:
            archive = _gutils.download(url, path=self._root, sha1_hash=archive_sha1)
            with zipfile.ZipFile(archive, 'r') as zf:
                for member in zf.namelist():
                    base = os.path.basename(member)
                    if base:
                        with zf.open(member) as src, \
                                open(os.path.join(self._root, base), 'wb') as dst:
                            shutil.copyfileobj(src, dst)
        except Exception as e:  # noqa: BLE001 - any failure: tell the user what to place where
            raise MXNetError(
                f"{self._name}: {data_file_name} is not in {self._root} and downloading "
                f"{archive_name} failed ({type(e).__name__}: {e}). Place the token files "
                f"({', '.join(n for n, _ in self._data_file.values())}) in {self._root} "
                f"(or pass root= pointing to a folder holding them); they are in {url}"
            ) from None

    def _get_data(self):
        if self._segment not in self._data_file:
            raise MXNetError(f"{self._name}: segment must be one of "
                             f"{sorted(self._data_file)}, got {self._segment!r}")
        data_file_name, _ = self._data_file[self._segment]
        path = os.path.join(self._root, data_file_name)
        if not os.path.isfile(path):
            self._fetch(data_file_name)
        data, label = self._read_batch(path)
        # only whole sequences of seq_len tokens are kept (as 1.9.1 does)
        usable = len(data) // self._seq_len * self._seq_len
        from .... import nd
        self._data = nd.array(data[:usable], dtype=data.dtype).reshape((-1, self._seq_len))
        self._label = nd.array(label[:usable], dtype=label.dtype).reshape((-1, self._seq_len))

    def __getitem__(self, idx):
        return self._data[idx], self._label[idx]

    def __len__(self):
        return len(self._label)


class WikiText2(_WikiText):
    """WikiText-2 (Salesforce research; CC BY-SA) for word-level language modelling.

    Samples are ``(data, label)`` int32 vectors of ``seq_len`` token indices, the label
    being the data shifted by one token; every non-empty line ends with ``'<eos>'``.

    Parameters
    ----------
    root : str, default ``$MXNET_HOME/datasets/wikitext-2``
        Folder holding ``wiki.train.tokens``, ``wiki.valid.tokens``, ``wiki.test.tokens``.
    segment : {'train', 'validation', 'test'}, default 'train'
    vocab : contrib.text.vocab.Vocabulary, default None
        Vocabulary for indexing; built from the segment's tokens (with ``'<eos>'``
        reserved) when None.
    seq_len : int, default 35
        Tokens per sample; trailing tokens that do not fill one are dropped.
    """
    _name = 'WikiText2'

    def __init__(self, root=os.path.join(data_dir(), 'datasets', 'wikitext-2'),
                 segment='train', vocab=None, seq_len=35):
        self._archive_file = ('wikitext-2-v1.zip', '3c914d17d80b1459be871a5039ac23e752a53cbe')
        self._data_file = {'train': ('wiki.train.tokens',
                                     '863f29c46ef9d167fff4940ec821195882fe29d1'),
                           'validation': ('wiki.valid.tokens',
                                          '0418625c8b4da6e4b5c7a0b9e78d4ae8f7ee5422'),
                           'test': ('wiki.test.tokens',
                                    'c7b8ce0aa086fb34dab808c5c49224211eb2b172')}
        self._segment = segment
        self._seq_len = seq_len
        super().__init__(root, 'wikitext-2', vocab)


class WikiText103(_WikiText):
    """WikiText-103 (Salesforce research; CC BY-SA) for word-level language modelling.

    Same layout and parameters as :class:`WikiText2`; default root
    ``$MXNET_HOME/datasets/wikitext-103``.
    """
    _name = 'WikiText103'

    def __init__(self, root=os.path.join(data_dir(), 'datasets', 'wikitext-103'),
                 segment='train', vocab=None, seq_len=35):
        self._archive_file = ('wikitext-103-v1.zip', '0aec09a7537b58d4bb65362fee27650eeaba625a')
        self._data_file = {'train': ('wiki.train.tokens',
                                     'b7497e2dfe77e72cfef5e3dbc61b7b53712ac211'),
                           'validation': ('wiki.valid.tokens',
                                          'c326ac59dc587676d58c422eb8a03e119582f92b'),
                           'test': ('wiki.test.tokens',
                                    '8a5befc548865cec54ed4273cf87dbbad60d1e47')}
        self._segment = segment
        self._seq_len = seq_len
        super().__init__(root, 'wikitext-103', vocab)
