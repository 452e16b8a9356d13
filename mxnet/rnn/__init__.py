"""``mx.rnn``: the legacy symbolic recurrent API of MXNet 1.x (cells that build ``mx.sym``
graphs, a bucketing sentence iterator, checkpoint helpers). See docs/legacy_rnn.md."""
from . import io, rnn, rnn_cell  # noqa: F401
from .io import *  # noqa: F401,F403
from .io import BucketSentenceIter, encode_sentences  # noqa: F401
from .rnn import *  # noqa: F401,F403
from .rnn_cell import *  # noqa: F401,F403
# names 1.9.1's mx.rnn also exposes (it re-exported its own imports)
from .rnn import load_checkpoint, save_checkpoint  # noqa: F401,E402
from ..io import DataBatch, DataDesc, DataIter  # noqa: F401,E402

__all__ = rnn_cell.__all__ + rnn.__all__ + io.__all__  # noqa: F405
