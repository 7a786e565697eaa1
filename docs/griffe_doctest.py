"""A Griffe extension for the API reference (mkdocs.yml): the docstrings
are plain text with doctest examples and Sphinx roles, written for
``help()`` and doctest; this shows them well in Markdown.

- Each run of doctest lines (``>>>`` and its continuation and output, up
  to a blank line) becomes a ``pycon`` code block, instead of Markdown
  reading ``>>>`` as nested quotes.
- ``:class:`~a.b.C``` and the other roles become code: ``C`` (the last
  part after ``~``, else the whole name).
"""
from __future__ import annotations

import re

import griffe

_ROLE = re.compile(r":(?:class|func|meth|attr|mod|data|exc|obj):`(~?)([^`]+)`")


def _role(m: re.Match) -> str:
    name = m.group(2)
    return f"`{name.rsplit('.', 1)[-1] if m.group(1) else name}`"


def markdown_of(text: str) -> str:
    r"""The docstring ``text`` with its doctest runs fenced and its roles as code.

    >>> markdown_of("Roll.\n\n>>> 1 + 1\n2\n\nSee :func:`~a.b`.").splitlines()
    ['Roll.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'See `b`.']
    """
    out: list[str] = []
    fenced = False          # inside a fence written in the docstring itself
    run: list[str] = []
    indent = ""

    def close() -> None:
        if run:
            out.append(f"{indent}```pycon")
            out.extend(run)
            out.append(f"{indent}```")
            run.clear()

    for line in text.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith("```"):
            close()
            fenced = not fenced
            out.append(line)
            continue
        if fenced:
            out.append(line)
            continue
        if run:
            if stripped:
                run.append(line)
                continue
            close()
        if stripped.startswith(">>>"):
            indent = line[:len(line) - len(stripped)]
            run.append(line)
            continue
        out.append(_ROLE.sub(_role, line))
    close()
    return "\n".join(out)


def _convert(obj) -> None:
    if obj.is_alias:
        return
    if obj.docstring is not None:
        obj.docstring.value = markdown_of(obj.docstring.value)   # idempotent: fenced runs stay as they are
    for member in obj.members.values():
        _convert(member)


class DoctestBlocks(griffe.Extension):
    """Applies ``markdown_of`` to every docstring of a package Griffe loads."""

    def on_package(self, *, pkg, **kwargs) -> None:
        _convert(pkg)
