"""Text utilities (``mx.contrib.text``), as in MXNet 1.9.1.

- ``vocab.Vocabulary``: indexing of tokens (unknown token at index 0, then reserved tokens,
  then counter keys by descending frequency);
- ``utils.count_tokens_from_str``: token counting;
- ``embedding``: token embeddings loaded from local vector files (``CustomEmbedding``,
  ``GloVe`` and ``FastText`` from files already on disk) and ``CompositeEmbedding``.
  Nothing is downloaded.
"""
from . import embedding, utils, vocab
from .vocab import Vocabulary

__all__ = ["embedding", "utils", "vocab", "Vocabulary"]
