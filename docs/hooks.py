"""MkDocs hooks (mkdocs.yml): ``mkdocs build --strict`` fails when a
public name of the package (``backgammon.__all__``, ``backgammon.env.__all__``)
has no docstring: each is logged as a warning, and strict mode stops on
warnings.  tests/test_docs_site.py holds the stricter check (every one has
an example) and uses the same lookup, ``docstring_of``.
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import logging
import types
from pathlib import Path

log = logging.getLogger("mkdocs.plugins.backgammon")

PACKAGES = ("backgammon", "backgammon.env")


def _attribute_docstring(module: str, name: str, seen: frozenset = frozenset()) -> str | None:
    """The string literal that follows ``name = ...`` at the top level of
    ``module`` (the docstring Griffe and mkdocstrings show for a constant),
    following ``from .x import name`` to where it is defined."""
    if (module, name) in seen:
        return None
    mod = importlib.import_module(module)
    path = getattr(mod, "__file__", None)
    if not path or not path.endswith(".py"):
        return None
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    body = tree.body
    for i, node in enumerate(body):
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            nxt = body[i + 1] if i + 1 < len(body) else None
            if (isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant)
                    and isinstance(nxt.value.value, str)):
                return inspect.cleandoc(nxt.value.value)
            return None
    for node in body:
        if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
            source = next(a.name for a in node.names if (a.asname or a.name) == name)
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), mod.__package__) \
                if node.level else node.module
            return _attribute_docstring(base, source, seen | {(module, name)})
    return None


def docstring_of(package: str, name: str) -> str | None:
    """The docstring a reader sees for ``package.name``: its own
    ``__doc__`` for a module, class or function (not one inherited from a
    base class), else the attribute docstring in the source."""
    obj = getattr(importlib.import_module(package), name)
    if isinstance(obj, type):
        return obj.__dict__.get("__doc__")
    if isinstance(obj, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType)):
        return obj.__doc__
    return _attribute_docstring(package, name)


def public_names() -> list[tuple[str, str]]:
    """(package, name) of every public name the API reference covers."""
    return [(p, n) for p in PACKAGES for n in importlib.import_module(p).__all__]


def on_config(config, **kwargs):
    # The installed package (pip install . or an editable install) is the one checked.
    missing = [f"{p}.{n}" for p, n in public_names() if not (docstring_of(p, n) or "").strip()]
    for name in missing:
        log.warning(f"public name without a docstring: {name}")
    return config
