"""Constants of the contrib text datasets."""

EOS_TOKEN = '<eos>'
