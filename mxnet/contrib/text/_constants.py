"""Constants of mx.contrib.text."""

# The unknown token always has index 0.
UNKNOWN_IDX = 0
