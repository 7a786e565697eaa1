"""A Griffe extension for the API reference (mkdocs.yml): the docstrings
are plain text with doctest examples and Sphinx roles, written for
``help()`` and doctest; this shows them well in Markdown.

- Each run of doctest lines (``>>>`` and its continuation and output, up
  to a blank line) becomes a ``pycon`` code block, instead of Markdown
  reading ``>>>`` as nested quotes.
- ``:class:`~a.b.C``` and the other roles become code: ``C`` (the last
  part after ``~``, else the whole name).
- A numpy "See Also" section's entries (``name : what``, or names alone)
  become a Markdown list with the names as code, instead of one run-on
  paragraph.
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


_SEE_ALSO = re.compile(r"^(\s*)See Also\n\1-{3,}\n", re.M)


def see_also_lists(text: str) -> str:
    r"""The entries of each "See Also" section of ``text`` as a Markdown list.

    >>> print(see_also_lists("See Also\n--------\nf : does f,\n    at length.\ng, h\n\nNotes\n-----\nx"))
    See Also
    --------
    - `f`: does f, at length.
    - `g`, `h`
    <BLANKLINE>
    Notes
    -----
    x
    """
    out, pos = [], 0
    for m in _SEE_ALSO.finditer(text):
        indent = m.group(1)
        out.append(text[pos:m.end()])
        lines = text[m.end():].split("\n")
        items: list[str] = []
        used = 0
        for k, line in enumerate(lines):
            nxt = lines[k + 1] if k + 1 < len(lines) else ""
            if not line.strip():
                if not nxt.strip() or re.match(r"^\s*-{3,}$", lines[k + 2] if k + 2 < len(lines) else ""):
                    break               # a blank line, then another section (or the end)
                used = k + 1
                continue
            if re.match(r"^\s*-{3,}$", nxt) or line.strip().startswith("- "):
                break
            if line.startswith(indent + " ") and items:
                items[-1] += " " + line.strip()            # an entry's description, continued
            else:
                names, _, what = line.strip().partition(" : ")
                code = ", ".join(f"`{n.strip()}`" for n in names.split(",") if n.strip())
                items.append(f"{indent}- {code}: {what.strip()}" if what else f"{indent}- {code}")
            used = k + 1
        if not items:                   # a list already (the text converted before)
            pos = m.end()
            continue
        out.append("\n".join(items) + "\n")
        pos = m.end() + len("\n".join(lines[:used])) + (1 if used else 0)
    out.append(text[pos:])
    return "".join(out)


def _convert(obj) -> None:
    if obj.is_alias:
        return
    if obj.docstring is not None:
        # idempotent: fenced runs and lists stay as they are
        obj.docstring.value = see_also_lists(markdown_of(obj.docstring.value))
    for member in obj.members.values():
        _convert(member)


class DoctestBlocks(griffe.Extension):
    """Applies ``markdown_of`` to every docstring of a package Griffe loads."""

    def on_package(self, *, pkg, **kwargs) -> None:
        _convert(pkg)
