"""Helpers for text data."""
import collections
import re

__all__ = ["count_tokens_from_str"]


def count_tokens_from_str(source_str, token_delim=" ", seq_delim="\n", to_lower=False,
                          counter_to_update=None):
    """Count the tokens of ``source_str``.

    Tokens are separated by ``token_delim`` and sequences by ``seq_delim``; both are regular
    expressions (escape special characters, e.g. ``'\\*'``). Empty tokens are dropped. With
    ``to_lower`` tokens are lower-cased first. The counts are added to ``counter_to_update``
    when given (and it is returned), else a new ``collections.Counter`` is returned.

    >>> sorted(count_tokens_from_str(' Life is great ! \\n life is good . \\n', ' ', '\\n',
    ...                              True).items())
    [('!', 1), ('.', 1), ('good', 1), ('great', 1), ('is', 2), ('life', 2)]
    """
    tokens = [t for t in re.split(token_delim + "|" + seq_delim, source_str) if t]
    if to_lower:
        tokens = [t.lower() for t in tokens]
    if counter_to_update is None:
        return collections.Counter(tokens)
    counter_to_update.update(tokens)
    return counter_to_update
