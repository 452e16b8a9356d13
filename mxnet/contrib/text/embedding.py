"""Token embeddings: vectors for the tokens of a vocabulary.

A token embedding is a :class:`~.vocab.Vocabulary` plus ``idx_to_vec``, an NDArray whose
row i is the vector of token i. Vectors come from text files with one token per line
followed by its numbers (``token<delim>v1<delim>v2...``). Nothing is downloaded: ``GloVe``
and ``FastText`` read the file of that name from ``embedding_root/<glove|fasttext>/``
when it is already there, and say where to put it otherwise.
"""
import logging
import os
import warnings

from ... import ndarray as nd
from ... import base as _base
from ... import registry
from ...base import MXNetAssertionError, MXNetError
from ...util import is_np_array
from . import _constants as C
from . import _pretrained_names, vocab
from .vocab import TextValueError

__all__ = ["register", "create", "get_pretrained_file_names", "GloVe", "FastText",
           "CustomEmbedding", "CompositeEmbedding"]


def register(embedding_cls):
    """Register a token-embedding class so that ``create`` finds it by (lower-cased) name."""
    return registry.get_register_func(_TokenEmbedding, "token embedding")(embedding_cls)


def create(embedding_name, **kwargs):
    """An instance of the registered embedding ``embedding_name`` built with ``kwargs``.

    'glove' and 'fasttext' are registered; they read their pre-trained file from disk (see
    :class:`GloVe`). Classes added with :func:`register` are found by lower-cased name.
    """
    return registry.get_create_func(_TokenEmbedding, "token embedding")(embedding_name, **kwargs)


def get_pretrained_file_names(embedding_name=None):
    """The pre-trained file names known for ``embedding_name`` (a list), or for every
    registered embedding (a dict from name to list) when it is None."""
    table = registry._registry(_TokenEmbedding, "token embedding").table
    if embedding_name is not None:
        if embedding_name not in table:
            raise KeyError(f"Cannot find `embedding_name` {embedding_name}. Use "
                           "`get_pretrained_file_names(embedding_name=None).keys()` to get all "
                           "the valid embedding names.")
        return list(table[embedding_name].pretrained_file_name_sha1.keys())
    return {name: list(cls.pretrained_file_name_sha1.keys()) for name, cls in table.items()}


def _array(values):
    if is_np_array():
        from ... import numpy as mnp
        return mnp.array(values)
    return nd.array(values)


class _TokenEmbedding(vocab.Vocabulary):
    """Base class of token embeddings (a Vocabulary with a vector per token)."""

    # pre-trained file name -> checksum; the names are what get_pretrained_file_names lists
    pretrained_file_name_sha1 = {}

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._vec_len = None
        self._idx_to_vec = None

    # -- loading -------------------------------------------------------------------------------
    def _load_embedding(self, pretrained_file_path, elem_delim, init_unknown_vec,
                        encoding="utf8"):
        """Index the tokens of a vector file and load their vectors.

        The first vector of a token wins (later duplicates are skipped with a warning);
        lines with a single number are taken for a header and skipped. The unknown token's
        vector is the file's when it has one, else ``init_unknown_vec(shape=vec_len)``.
        """
        path = os.path.expanduser(pretrained_file_path)
        if not os.path.isfile(path):
            raise TextValueError(f"`pretrained_file_path` must be a valid path to the pre-trained "
                                 f"token embedding file; {pretrained_file_path!r} is not a file")
        logging.info("Loading pre-trained token embedding vectors from %s", path)
        vec_len, rows, seen, unknown_vec = None, [], set(), None
        with open(path, encoding=encoding) as f:
            for line_num, line in enumerate(f, 1):
                elems = line.rstrip().split(elem_delim)
                if len(elems) <= 1:
                    raise MXNetAssertionError(f"At line {line_num} of the pre-trained text embedding file "
                                              f"{path}: expected a token followed by numbers separated by "
                                              f"{elem_delim!r}, got {line.rstrip()!r}")
                token, values = elems[0], [float(v) for v in elems[1:]]
                if token == self.unknown_token and unknown_vec is None:
                    unknown_vec = values
                    seen.add(token)
                elif token in seen:
                    warnings.warn(f"At line {line_num} of the pre-trained token embedding file: "
                                  f"the embedding vector for token {token} has been loaded and a "
                                  "duplicate embedding for the same token is seen and skipped.",
                                  stacklevel=3)
                elif len(values) == 1:
                    warnings.warn(f"At line {line_num} of the pre-trained text embedding file: "
                                  f"token {token} with 1-dimensional vector {values} is likely a "
                                  "header and is skipped.", stacklevel=3)
                else:
                    if vec_len is None:
                        vec_len = len(values)
                    elif len(values) != vec_len:
                        raise MXNetAssertionError(
                            f"At line {line_num} of the pre-trained token embedding file: the "
                            f"dimension of token {token} is {len(values)} but the dimension of "
                            f"previous tokens is {vec_len}. Dimensions of all the tokens must "
                            "be the same.")
                    rows.append(values)
                    self._idx_to_token.append(token)
                    self._token_to_idx[token] = len(self._idx_to_token) - 1
                    seen.add(token)
        if vec_len is None:
            raise MXNetError(f"The pre-trained token embedding file {path} holds no vectors")
        self._vec_len = vec_len
        self._idx_to_vec = _array([[0.0] * vec_len] + rows)
        if unknown_vec is None:
            init = init_unknown_vec(shape=vec_len)
            self._idx_to_vec[C.UNKNOWN_IDX] = init.as_np_ndarray() if is_np_array() else init
        else:
            self._idx_to_vec[C.UNKNOWN_IDX] = _array(unknown_vec)

    def _index_tokens_from_vocabulary(self, vocabulary):
        self._token_to_idx = dict(vocabulary.token_to_idx)
        self._idx_to_token = list(vocabulary.idx_to_token)
        self._unknown_token = vocabulary.unknown_token
        self._reserved_tokens = None if vocabulary.reserved_tokens is None \
            else list(vocabulary.reserved_tokens)

    def _set_idx_to_vec_by_embeddings(self, token_embeddings, vocab_len, vocab_idx_to_token):
        """Rows for the vocabulary's tokens: the embeddings' vectors side by side."""
        width = sum(e.vec_len for e in token_embeddings)
        zeros = nd.zeros
        if is_np_array():
            from ... import numpy as mnp
            zeros = mnp.zeros
        table = zeros(shape=(vocab_len, width))
        start = 0
        for e in token_embeddings:
            end = start + e.vec_len
            table[0, start:end] = e.idx_to_vec[0]
            if vocab_len > 1:
                table[1:, start:end] = e.get_vecs_by_tokens(list(vocab_idx_to_token[1:]))
            start = end
        self._vec_len = width
        self._idx_to_vec = table

    def _build_embedding_for_vocabulary(self, vocabulary):
        if vocabulary is None:
            return
        if not isinstance(vocabulary, vocab.Vocabulary):
            raise MXNetAssertionError("The argument `vocabulary` must be an instance of "
                                      f"mxnet.contrib.text.vocab.Vocabulary, got {type(vocabulary).__name__}")
        self._set_idx_to_vec_by_embeddings([self], len(vocabulary), vocabulary.idx_to_token)
        self._index_tokens_from_vocabulary(vocabulary)

    # -- access --------------------------------------------------------------------------------
    @property
    def vec_len(self):
        """The length of every vector."""
        return self._vec_len

    @property
    def idx_to_vec(self):
        """NDArray of shape (len(self), vec_len): row i is the vector of token i."""
        return self._idx_to_vec

    def get_vecs_by_tokens(self, tokens, lower_case_backup=False):
        """The vector of a token (1-D) or the vectors of a list of tokens (2-D).

        Unknown tokens get the unknown token's vector. With ``lower_case_backup`` a token not
        found as given is looked up again in lower case.
        """
        single = not isinstance(tokens, list)
        items = [tokens] if single else tokens
        if lower_case_backup:
            idx = [self._token_to_idx[t] if t in self._token_to_idx
                   else self._token_to_idx.get(t.lower(), C.UNKNOWN_IDX) for t in items]
        else:
            idx = [self._token_to_idx.get(t, C.UNKNOWN_IDX) for t in items]
        if is_np_array():
            from ... import numpy as mnp
            from ... import numpy_extension as npx
            vecs = npx.embedding(mnp.array(idx), self.idx_to_vec, self.idx_to_vec.shape[0],
                                 self.idx_to_vec.shape[1])
        else:
            vecs = nd.Embedding(nd.array(idx), self.idx_to_vec, self.idx_to_vec.shape[0],
                                self.idx_to_vec.shape[1])
        return vecs[0] if single else vecs

    def update_token_vectors(self, tokens, new_vectors):
        """Overwrite the vectors of known ``tokens`` with the rows of ``new_vectors``.

        The unknown token's vector can be updated by naming ``unknown_token`` explicitly;
        any other unknown token is an error.
        """
        if self.idx_to_vec is None:
            raise MXNetAssertionError("update_token_vectors: the embedding has no vectors yet")
        ndim = len(new_vectors.shape)
        if not isinstance(tokens, list) or len(tokens) == 1:
            if not isinstance(new_vectors, nd.NDArray) or ndim not in (1, 2):
                raise MXNetAssertionError("update_token_vectors: new_vectors must be a 1-D or 2-D NDArray "
                                          "if tokens is a singleton")
            tokens = tokens if isinstance(tokens, list) else [tokens]
            if ndim == 1:
                new_vectors = new_vectors.reshape((1, -1))
        elif not isinstance(new_vectors, nd.NDArray) or ndim != 2:
            raise MXNetAssertionError("update_token_vectors: new_vectors must be a 2-D NDArray if tokens "
                                      "is a list of multiple strings")
        if new_vectors.shape != (len(tokens), self.vec_len):
            raise MXNetAssertionError(f"update_token_vectors: new_vectors has shape {new_vectors.shape}; "
                                      f"expected ({len(tokens)}, {self.vec_len}): one row per token, as "
                                      "wide as the embedding")
        rows = []
        for t in tokens:
            if t not in self._token_to_idx:
                raise TextValueError(
                    f"Token {t} is unknown. To update the embedding vector for an unknown token, "
                    f"please specify it explicitly as the `unknown_token` "
                    f"{self.idx_to_token[C.UNKNOWN_IDX]} in `tokens`. This is to avoid "
                    "unintended updates.")
            rows.append(self._token_to_idx[t])
        for i, r in enumerate(rows):
            self._idx_to_vec[r] = new_vectors[i]

    @classmethod
    def _check_pretrained_file_names(cls, pretrained_file_name):
        if pretrained_file_name not in cls.pretrained_file_name_sha1:
            name = cls.__name__.lower()
            raise KeyError(f"Cannot find pretrained file {pretrained_file_name} for token "
                           f"embedding {name}. Valid pretrained files for embedding {name}: "
                           f"{', '.join(cls.pretrained_file_name_sha1)}")

    @classmethod
    def _local_pretrained_file(cls, embedding_root, pretrained_file_name):
        """The path of a pre-trained file already on disk; MXNetError when it is absent."""
        cls._check_pretrained_file_names(pretrained_file_name)
        path = os.path.join(os.path.expanduser(embedding_root), cls.__name__.lower(),
                            pretrained_file_name)
        if not os.path.isfile(path):
            raise MXNetError(
                f"{cls.__name__}: the pre-trained file {pretrained_file_name!r} is not on disk at "
                f"{path!r}, and this MXNet does not download files. Put the (unpacked) file there "
                "(or pass embedding_root=<folder holding "
                f"'{cls.__name__.lower()}/{pretrained_file_name}'>), or load any local file with "
                "CustomEmbedding(pretrained_file_path=..., elem_delim=' ').")
        return path


def _default_root():
    return os.path.join(os.environ.get("MXNET_HOME", os.path.join("~", ".mxnet")), "embeddings")


# as 1.9.1: the default folder is fixed when the module loads, and shows in the signatures
_EMBEDDING_ROOT = os.path.join(_base.data_dir(), "embeddings")


def _names(files):
    return dict.fromkeys(files)


@register
class GloVe(_TokenEmbedding):
    """GloVe vectors (https://nlp.stanford.edu/projects/glove/) read from a local file.

    Parameters
    ----------
    pretrained_file_name : str, default 'glove.840B.300d.txt'
        One of ``get_pretrained_file_names('glove')``.
    embedding_root : str, default $MXNET_HOME/embeddings
        The file is read from ``embedding_root/glove/pretrained_file_name``.
    init_unknown_vec : callable, default nd.zeros
        Makes the unknown token's vector from ``shape=vec_len``.
    vocabulary : Vocabulary or None
        When given, only its tokens are indexed (in its order).
    """

    pretrained_file_name_sha1 = _names(_pretrained_names.GLOVE_FILES)

    def __init__(self, pretrained_file_name="glove.840B.300d.txt", embedding_root=_EMBEDDING_ROOT,
                 init_unknown_vec=nd.zeros, vocabulary=None, **kwargs):
        path = GloVe._local_pretrained_file(embedding_root or _default_root(),
                                            pretrained_file_name)
        super().__init__(**kwargs)
        self._load_embedding(path, " ", init_unknown_vec)
        self._build_embedding_for_vocabulary(vocabulary)


@register
class FastText(_TokenEmbedding):
    """fastText vectors (https://fasttext.cc/) read from a local ``.vec`` file.

    Parameters are those of :class:`GloVe`; the default file is 'wiki.simple.vec', read from
    ``embedding_root/fasttext/``. The header line of ``.vec`` files is skipped.
    """

    pretrained_file_name_sha1 = _names(_pretrained_names.FASTTEXT_FILES)

    def __init__(self, pretrained_file_name="wiki.simple.vec", embedding_root=_EMBEDDING_ROOT,
                 init_unknown_vec=nd.zeros, vocabulary=None, **kwargs):
        path = FastText._local_pretrained_file(embedding_root or _default_root(),
                                               pretrained_file_name)
        super().__init__(**kwargs)
        self._load_embedding(path, " ", init_unknown_vec)
        self._build_embedding_for_vocabulary(vocabulary)


class CustomEmbedding(_TokenEmbedding):
    """Vectors from any local text file: one ``token<elem_delim>v1<elem_delim>v2...`` per line.

    Parameters
    ----------
    pretrained_file_path : str
        The file.
    elem_delim : str, default ' '
        What separates the token and the numbers.
    encoding : str, default 'utf8'
    init_unknown_vec : callable, default nd.zeros
        Makes the unknown token's vector when the file has none.
    vocabulary : Vocabulary or None
        When given, only its tokens are indexed (in its order).
    """

    def __init__(self, pretrained_file_path, elem_delim=" ", encoding="utf8",
                 init_unknown_vec=nd.zeros, vocabulary=None, **kwargs):
        super().__init__(**kwargs)
        self._load_embedding(pretrained_file_path, elem_delim, init_unknown_vec, encoding)
        self._build_embedding_for_vocabulary(vocabulary)


class CompositeEmbedding(_TokenEmbedding):
    """The tokens of ``vocabulary`` with the vectors of several embeddings concatenated."""

    def __init__(self, vocabulary, token_embeddings):
        if not isinstance(vocabulary, vocab.Vocabulary):
            raise MXNetAssertionError("CompositeEmbedding: vocabulary must be an instance of "
                                      f"mxnet.contrib.text.vocab.Vocabulary, got {type(vocabulary).__name__}")
        if not isinstance(token_embeddings, list):
            token_embeddings = [token_embeddings]
        for e in token_embeddings:
            if not isinstance(e, _TokenEmbedding):
                raise MXNetAssertionError("CompositeEmbedding: token_embeddings must be token embeddings "
                                          f"of mxnet.contrib.text.embedding, got {type(e).__name__}")
        super().__init__()
        self._index_tokens_from_vocabulary(vocabulary)
        self._set_idx_to_vec_by_embeddings(token_embeddings, len(self), self.idx_to_token)
