"""Rewrite the README's lists of 1.9.1 names that mxnet-py still lacks.

    python tools/update_readme_api.py
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from test_api_coverage import _MODULES, missing  # noqa: E402


def main():
    path = os.path.join(ROOT, "README.md")
    text = open(path, encoding="utf-8").read()
    for key in _MODULES:
        names = missing(key)
        body = " ".join(f"`{n}`" for n in names) if names else "(none)"
        block = f"<!-- missing {key} -->\n{body}\n<!-- end -->"
        pattern = rf"<!-- missing {re.escape(key)} -->.*?<!-- end -->"
        if re.search(pattern, text, re.S):
            text = re.sub(pattern, lambda _m: block, text, flags=re.S)
        else:
            raise SystemExit(f"README has no placeholder for {key}")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
