"""Token indexing for text."""
import collections

from ...base import MXNetAssertionError, MXNetError
from . import _constants as C

__all__ = ["Vocabulary"]


class TextValueError(MXNetError, ValueError):
    """A bad value given to mx.contrib.text (1.9.1 raised ValueError for these)."""


class Vocabulary:
    """Maps tokens to indices and back.

    Index 0 is ``unknown_token``; ``reserved_tokens`` (e.g. padding) follow in their order;
    then the keys of ``counter`` by descending frequency, ties broken by token order. Only
    keys counted at least ``min_freq`` times are kept, and at most ``most_freq_count`` of
    them (all when None). Keys equal to the unknown or a reserved token are not indexed twice.

    Parameters
    ----------
    counter : collections.Counter or None
        Token frequencies.
    most_freq_count : int or None
        How many of the counter's keys to index at most.
    min_freq : int, default 1
        The minimum count of a key to be indexed.
    unknown_token : hashable, default '<unk>'
        What unknown tokens map to (index 0).
    reserved_tokens : list or None
        Tokens indexed right after the unknown token.
    """

    def __init__(self, counter=None, most_freq_count=None, min_freq=1, unknown_token="<unk>",
                 reserved_tokens=None):
        if min_freq <= 0:
            raise MXNetAssertionError(f"Vocabulary: min_freq={min_freq} must be a positive value")
        if reserved_tokens is not None:
            if unknown_token in set(reserved_tokens):
                raise MXNetAssertionError(
                    f"Vocabulary: reserved_tokens={reserved_tokens!r} cannot contain "
                    f"the unknown_token {unknown_token!r}")
            if len(set(reserved_tokens)) != len(reserved_tokens):
                raise MXNetAssertionError(
                    f"Vocabulary: reserved_tokens={reserved_tokens!r} cannot contain "
                    "duplicate tokens")
        self._unknown_token = unknown_token
        self._idx_to_token = [unknown_token]
        self._reserved_tokens = None if reserved_tokens is None else list(reserved_tokens)
        if reserved_tokens is not None:
            self._idx_to_token.extend(reserved_tokens)
        self._token_to_idx = {t: i for i, t in enumerate(self._idx_to_token)}
        if counter is not None:
            self._index_counter(counter, most_freq_count, min_freq)

    def _index_counter(self, counter, most_freq_count, min_freq):
        if not isinstance(counter, collections.Counter):
            raise MXNetAssertionError(f"Vocabulary: counter must be a collections.Counter, "
                                      f"got {type(counter).__name__}")
        special = set(self._idx_to_token)
        # descending frequency; equal frequencies in ascending token order (stable sorts)
        ranked = sorted(counter.items(), key=lambda kv: kv[0])
        ranked.sort(key=lambda kv: kv[1], reverse=True)
        cap = len(special) + (len(counter) if most_freq_count is None else most_freq_count)
        for token, freq in ranked:
            if freq < min_freq or len(self._idx_to_token) == cap:
                break
            if token not in special:
                self._idx_to_token.append(token)
                self._token_to_idx[token] = len(self._idx_to_token) - 1

    def __len__(self):
        return len(self._idx_to_token)

    @property
    def token_to_idx(self):
        """dict from token to index."""
        return self._token_to_idx

    @property
    def idx_to_token(self):
        """list of tokens; position i holds the token of index i."""
        return self._idx_to_token

    @property
    def unknown_token(self):
        return self._unknown_token

    @property
    def reserved_tokens(self):
        return self._reserved_tokens

    def to_indices(self, tokens):
        """Index of a token, or list of indices of a list of tokens (unknown ones map to 0)."""
        single = not isinstance(tokens, list)
        items = [tokens] if single else tokens
        out = [self._token_to_idx.get(t, C.UNKNOWN_IDX) for t in items]
        return out[0] if single else out

    def to_tokens(self, indices):
        """Token of an index, or list of tokens of a list of indices."""
        single = not isinstance(indices, list)
        items = [indices] if single else indices
        top = len(self._idx_to_token) - 1
        out = []
        for idx in items:
            if not isinstance(idx, int) or isinstance(idx, bool) or idx > top:
                raise TextValueError(f"Token index {idx} in the provided `indices` is invalid "
                                 f"(the vocabulary has indices 0..{top}).")
            out.append(self._idx_to_token[idx])
        return out[0] if single else out
