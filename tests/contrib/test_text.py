"""mx.contrib.text against 1.9.1 (golden): vocabularies, token counts, embeddings."""
import collections
import json
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.contrib import text

GOLDEN = json.loads((Path(__file__).resolve().parents[2] / "tests" / "golden" /
                     "contrib_misc.json").read_text())["text"]
COUNTER = collections.Counter(["a", "b", "b", "c", "c", "c", "some_word$", "b", "a", "d"])
VOCAB_KW = {
    "default": {},
    "most2": {"most_freq_count": 2},
    "min2": {"min_freq": 2},
    "reserved": {"reserved_tokens": ["<pad>", "<bos>"], "unknown_token": "<unk>"},
    "unk_in_counter": {"unknown_token": "a", "min_freq": 1},
    "reserved_most": {"reserved_tokens": ["c"], "most_freq_count": 3},
}


def test_count_tokens_from_str():
    src = " Life is great ! \n life is good . \n the the the a a b "
    assert dict(text.utils.count_tokens_from_str(src, " ", "\n", True)) == GOLDEN["count"]
    got = text.utils.count_tokens_from_str("*x*y*\n*x*", "\\*", "\n", False,
                                           collections.Counter({"x": 1, "z": 5}))
    assert dict(got) == GOLDEN["count_update"]


@pytest.mark.parametrize("case", sorted(VOCAB_KW))
def test_vocabulary(case):
    v = text.vocab.Vocabulary(COUNTER, **VOCAB_KW[case])
    want = GOLDEN["vocab"][case]
    assert v.idx_to_token == want["idx_to_token"]
    assert v.token_to_idx == want["token_to_idx"]
    assert len(v) == want["len"]
    assert v.reserved_tokens == want["reserved"]
    assert v.to_indices(["c", "zz", "a", "<pad>"]) == want["indices"]
    assert v.to_tokens(list(range(len(v)))) == want["tokens"]
    assert v.to_indices("c") == want["indices"][0]
    assert v.to_tokens(0) == want["tokens"][0]


def test_vocabulary_errors():
    with pytest.raises(MXNetError, match="min_freq"):
        text.vocab.Vocabulary(COUNTER, min_freq=0)
    with pytest.raises(MXNetError, match="unknown_token"):
        text.vocab.Vocabulary(COUNTER, reserved_tokens=["<unk>"])
    with pytest.raises(MXNetError, match="duplicate"):
        text.vocab.Vocabulary(COUNTER, reserved_tokens=["x", "x"])
    with pytest.raises(MXNetError, match="Counter"):
        text.vocab.Vocabulary({"a": 1})
    with pytest.raises(ValueError, match="invalid"):
        text.vocab.Vocabulary(COUNTER).to_tokens(99)


@pytest.fixture
def vec_files(tmp_path):
    p1 = tmp_path / "vecs.txt"
    p1.write_text("a 0.1 0.2 0.3\nb 1 2 3\nc -1 -2 -3\nunk 9 9 9\n")
    p2 = tmp_path / "vecs2.txt"
    p2.write_text("b 7 8\nd 3 4\n")
    return str(p1), str(p2)


def test_custom_embedding(vec_files):
    path, path2 = vec_files
    want = GOLDEN["custom"]
    emb = text.embedding.CustomEmbedding(path, elem_delim=" ")
    assert emb.idx_to_token == want["idx_to_token"]
    assert emb.vec_len == want["vec_len"]
    np.testing.assert_allclose(emb.idx_to_vec.asnumpy(), want["idx_to_vec"], rtol=1e-6)
    got = emb.get_vecs_by_tokens(["b", "zz", "A"], lower_case_backup=True)
    np.testing.assert_allclose(got.asnumpy(), want["get"], rtol=1e-6)
    np.testing.assert_allclose(emb.get_vecs_by_tokens("b").asnumpy(), want["get"][0])
    emb_v = text.embedding.CustomEmbedding(
        path, elem_delim=" ", vocabulary=text.vocab.Vocabulary(COUNTER, min_freq=2))
    assert emb_v.idx_to_token == want["vocab_idx_to_token"]
    np.testing.assert_allclose(emb_v.idx_to_vec.asnumpy(), want["vocab_idx_to_vec"], rtol=1e-6)
    emb.update_token_vectors(["a", "c"], mx.nd.array([[5, 5, 5], [6, 6, 6]]))
    np.testing.assert_allclose(emb.idx_to_vec.asnumpy(), want["updated"], rtol=1e-6)
    emb.update_token_vectors("<unk>", mx.nd.array([1, 1, 1]))
    np.testing.assert_allclose(emb.idx_to_vec[0].asnumpy(), [1, 1, 1])
    with pytest.raises(ValueError, match="unknown"):
        emb.update_token_vectors("zz", mx.nd.array([1, 1, 1]))
    with pytest.raises(MXNetError, match="shape"):
        emb.update_token_vectors(["a", "b"], mx.nd.ones((2, 4)))


def test_custom_embedding_file_checks(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("a 1 2\nb 1 2 3\n")
    with pytest.raises(MXNetError, match="dimension"):
        text.embedding.CustomEmbedding(str(bad))
    dup = tmp_path / "dup.txt"
    dup.write_text("3 2\na 1 2\na 5 5\n")
    with pytest.warns(UserWarning):
        emb = text.embedding.CustomEmbedding(str(dup))
    assert emb.idx_to_token == ["<unk>", "a"]
    np.testing.assert_allclose(emb.idx_to_vec.asnumpy(), [[0, 0], [1, 2]])
    with pytest.raises(ValueError, match="valid path"):
        text.embedding.CustomEmbedding(str(tmp_path / "missing.txt"))


def test_composite_embedding(vec_files):
    path, path2 = vec_files
    e1 = text.embedding.CustomEmbedding(path)
    e2 = text.embedding.CustomEmbedding(path2)
    comp = text.embedding.CompositeEmbedding(text.vocab.Vocabulary(COUNTER), [e1, e2])
    want = GOLDEN["composite"]
    assert comp.idx_to_token == want["idx_to_token"]
    assert comp.vec_len == want["vec_len"]
    np.testing.assert_allclose(comp.idx_to_vec.asnumpy(), want["idx_to_vec"], rtol=1e-6)


def test_pretrained_names_and_offline_create(tmp_path):
    names = text.embedding.get_pretrained_file_names()
    assert {k: sorted(v) for k, v in names.items()} == GOLDEN["pretrained"]
    assert "glove.6B.50d.txt" in text.embedding.get_pretrained_file_names("glove")
    with pytest.raises(KeyError):
        text.embedding.get_pretrained_file_names("nope")
    with pytest.raises(MXNetError, match="CustomEmbedding"):
        text.embedding.create("glove", pretrained_file_name="glove.6B.50d.txt",
                              embedding_root=str(tmp_path))
    with pytest.raises(KeyError, match="Valid pretrained files"):
        text.embedding.create("fasttext", pretrained_file_name="no.vec",
                              embedding_root=str(tmp_path))
    # a file already on disk is read
    (tmp_path / "glove").mkdir()
    (tmp_path / "glove" / "glove.6B.50d.txt").write_text("x 1 2\ny 3 4\n")
    emb = text.embedding.create("glove", pretrained_file_name="glove.6B.50d.txt",
                                embedding_root=str(tmp_path))
    assert emb.idx_to_token == ["<unk>", "x", "y"]


def test_register_and_create():
    @text.embedding.register
    class MyEmbed(text.embedding._TokenEmbedding):
        def __init__(self, size=2):
            super().__init__()
            self._vec_len = size

    assert text.embedding.create("myembed", size=3).vec_len == 3
