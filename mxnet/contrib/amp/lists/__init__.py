"""MXNet 1.9.1's AMP operator lists: which operators run in low precision, which in float32.

``symbol_fp16`` / ``symbol_bf16`` hold the names (generated from the reference installation
by tools/golden/gen_contrib_misc.py); ``output_names`` records which operators name their
outputs in the cast nodes that ``convert_symbol`` inserts.
"""
from . import symbol_bf16, symbol_fp16

__all__ = ["symbol_fp16", "symbol_bf16"]
