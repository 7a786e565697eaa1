"""Compare two outputs of fixed_figures.py figure by figure.

    python benchmarks/compare_figures.py benchmarks/fixed_figures.txt after.txt

Each figure (a line ``label: value``) is the same to the last digit, the
same once keys the newer output adds are set aside (a dict key absent from
the older value, such as an analysis's ``statistics``; every number the
older value holds must still be there, unchanged), or different; the
differences are printed.  Exit status 1 when a figure differs or is missing.
"""
from __future__ import annotations

import sys


def _split(text: str, at: int) -> tuple[list, int]:
    """Parse the value at ``text[at:]`` into nested lists of (key, value)
    pairs (dicts), lists and scalar texts; returns it and the next index."""
    if text[at] == "{":
        items, at = [], at + 1
        while text[at] != "}":
            colon = text.index(": ", at)
            key = text[at:colon]
            value, at = _split(text, colon + 2)
            items.append((key, value))
            if text.startswith(", ", at):
                at += 2
        return ["dict", items], at + 1
    if text[at] == "[":
        items, at = [], at + 1
        while text[at] != "]":
            value, at = _split(text, at)
            items.append(value)
            if text.startswith(", ", at):
                at += 2
        return ["list", items], at + 1
    if text[at] in "'\"":
        quote, end = text[at], at + 1
        while text[end] != quote:
            end += 2 if text[end] == "\\" else 1
        return ["scalar", text[at:end + 1]], end + 1
    end = at
    while end < len(text) and text[end] not in ",]}":
        end += 1
    return ["scalar", text[at:end]], end


def _without_added(old, new, added: set):
    """``new`` with the dict keys ``old`` lacks removed (their names go to ``added``)."""
    if old[0] != new[0]:
        return new
    if old[0] == "dict":
        keys = {k for k, _ in old[1]}
        olds = dict(old[1])
        kept = []
        for k, v in new[1]:
            if k in keys:
                kept.append((k, _without_added(olds[k], v, added)))
            else:
                added.add(k)
        return ["dict", kept]
    if old[0] == "list" and len(old[1]) == len(new[1]):
        return ["list", [_without_added(o, n, added) for o, n in zip(old[1], new[1])]]
    return new


def figures(path: str) -> dict[str, str]:
    out = {}
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or ": " not in line:
            continue
        label, value = line.rstrip("\n").split(": ", 1)
        out[label] = value
    return out


def main(before: str, after: str) -> int:
    old, new = figures(before), figures(after)
    same = added_only = 0
    bad = []
    for label, value in old.items():
        if label not in new:
            bad.append(f"missing: {label}")
            continue
        if new[label] == value:
            same += 1
            continue
        try:
            o, n = _split(value, 0)[0], _split(new[label], 0)[0]
        except (ValueError, IndexError):
            o = n = None
        added: set = set()
        if o is not None and _without_added(o, n, added) == o and added:
            added_only += 1
            print(f"same but for added keys {sorted(added)}: {label}")
            continue
        bad.append(f"different: {label}\n  before: {value[:400]}\n  after:  {new[label][:400]}")
    for label in new:
        if label not in old:
            print(f"new figure: {label}")
    print("\n".join(bad))
    print(f"{same} figures the same to the last digit, {added_only} the same but for added keys, "
          f"{len(bad)} different or missing (of {len(old)})")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:3]))
