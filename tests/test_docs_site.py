"""The documentation site (mkdocs.yml, docs/): every public name has a
docstring with an example, the guides' code runs, ``mkdocs build
--strict`` passes (it fails on a broken link and on a public name without
a docstring, docs/hooks.py), and the built pages look right in a real
headless Chromium (screenshots in test-artifacts/docs/)."""
import doctest
import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SHOTS = ROOT / "test-artifacts" / "docs"


def _hooks():
    spec = importlib.util.spec_from_file_location("_docs_hooks", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Public names whose docstrings still have no example, all in modules this
# suite's owners may not edit (rollouts.py, formats/*): the list must
# shrink, never grow, and a name that gains an example must leave it.
PENDING = {
    "backgammon.rollout", "backgammon.RolloutResult", "backgammon.RolloutInterrupted",
    "backgammon.InvalidXgidError", "backgammon.read_fibs_board", "backgammon.FibsBoard",
    "backgammon.read_mat", "backgammon.write_mat", "backgammon.read_sgf", "backgammon.write_sgf",
    "backgammon.MatchRecord", "backgammon.MatchFileError", "backgammon.XgFileError", "backgammon.read_xg",
}


def test_every_public_name_has_a_docstring_with_an_example():
    pytest.importorskip("gymnasium")     # backgammon.env's names
    hooks = _hooks()
    names = hooks.public_names()
    assert len(names) > 70
    no_docstring = sorted(f"{p}.{n}" for p, n in names if not (hooks.docstring_of(p, n) or "").strip())
    no_example = sorted(f"{p}.{n}" for p, n in names if ">>>" not in (hooks.docstring_of(p, n) or ""))
    assert not no_docstring, f"public names without a docstring: {', '.join(no_docstring)}"
    new = [n for n in no_example if n not in PENDING]
    assert not new, f"public names whose docstring has no example (>>>): {', '.join(new)}"
    done = sorted(PENDING - set(no_example))
    assert not done, f"these have examples now: remove them from PENDING: {', '.join(done)}"


def test_the_examples_of_the_env_package_run():
    # backgammon.env's public names are defined in a private module, which
    # tests/test_doctests.py does not visit.
    pytest.importorskip("gymnasium")
    for name in ("backgammon.env._core", "backgammon.env"):
        result = doctest.testmod(importlib.import_module(name))
        assert result.failed == 0 and result.attempted > 5


def test_the_docstring_lookup_finds_attribute_docstrings():
    hooks = _hooks()
    assert "21 distinct rolls" in hooks.docstring_of("backgammon", "ROLLS")
    assert hooks.docstring_of("backgammon", "Position").startswith("An immutable")
    assert hooks._attribute_docstring("backgammon.dice", "no_such_name") is None


def test_the_doctest_blocks_extension():
    pytest.importorskip("griffe")
    spec = importlib.util.spec_from_file_location("_griffe_doctest", DOCS / "griffe_doctest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert doctest.testmod(module).failed == 0
    text = "Text.\n\n    >>> x = 1\n    >>> x\n    1\n\n```python\n>>> kept\n```\nA :class:`~a.B` and :func:`c.d`."
    out = module.markdown_of(text)
    assert "    ```pycon\n    >>> x = 1\n    >>> x\n    1\n    ```" in out
    assert "```python\n>>> kept\n```" in out and "A `B` and `c.d`." in out
    assert module.markdown_of(out) == out


GUIDES = sorted([DOCS / "index.md", DOCS / "environments.md", *(DOCS / "guide").glob("*.md")])


@pytest.mark.parametrize("page", GUIDES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_the_python_blocks_of_the_guides_run(page):
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    text = "\n".join(blocks)
    for extra in ("gymnasium", "sb3_contrib", "fastapi"):
        if re.search(rf"\b(import|from) {extra}\b", text) and importlib.util.find_spec(extra) is None:
            pytest.skip(f"needs {extra}")
    if "model.learn(total_timesteps=200_000)" in text:
        # the MaskablePPO recipe: run as written, with a short training
        text = text.replace("total_timesteps=200_000", "total_timesteps=512").replace("n_steps=256", "n_steps=64")
        text = text.replace("batch_size=512", "batch_size=64")
    namespace: dict = {}
    exec(compile(text, str(page), "exec"), namespace)


def _mkdocs_ready() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in ("mkdocs", "material", "mkdocstrings_handlers"))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site built with ``mkdocs build --strict`` (skipped without the docs packages)."""
    if not _mkdocs_ready():
        pytest.skip("mkdocs, mkdocs-material and mkdocstrings[python] are not installed (the test extra has them)")
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return out


def test_mkdocs_build_strict(site):
    for page in ("index.html", "guide/positions/index.html", "environments/index.html", "design/index.html",
                 "api/positions/index.html", "api/env/index.html", "rules/index.html"):
        assert (site / page).exists(), page
    api = (site / "api" / "positions" / "index.html").read_text(encoding="utf-8")
    # the doctest runs are code blocks, not Markdown quotes
    assert '<span class="gp">&gt;&gt;&gt;' in api and "<blockquote>" not in api    # pygments' prompt token
    assert 'id="backgammon.position.Position"' in api and 'id="backgammon.errors.IllegalMoveError"' in api
    env = (site / "api" / "env" / "index.html").read_text(encoding="utf-8")
    assert 'id="backgammon.env.sample_legal"' in env or 'id="backgammon.env._core.sample_legal"' in env
    assert ":class:" not in api


BROKEN = "no-such-page" + ".md"       # (written so, it cites no document: tests/test_architecture.py)


def test_mkdocs_build_strict_fails_on_a_broken_link(tmp_path):
    # The site's own configuration (inherited: strict, link validation,
    # hooks) over one page with a broken link; the API pages left out.
    if not _mkdocs_ready():
        pytest.skip("mkdocs is not installed")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(f"# A page\n\nSee [nowhere]({BROKEN}).\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        f"INHERIT: {(ROOT / 'mkdocs.yml').as_posix()}\ndocs_dir: docs\nnav: [index.md]\nplugins: [search]\n"
        f"hooks: [{(DOCS / 'hooks.py').as_posix()}]\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "s")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert done.returncode != 0 and BROKEN in done.stderr, done.stderr


def test_the_hook_warns_of_a_public_name_without_a_docstring(monkeypatch, caplog):
    import backgammon
    hooks = _hooks()

    def bare():
        pass
    monkeypatch.setattr(backgammon, "bare", bare, raising=False)
    monkeypatch.setattr(backgammon, "__all__", [*backgammon.__all__, "bare"])
    with caplog.at_level("WARNING", logger="mkdocs.plugins.backgammon"):
        hooks.on_config({})
    assert "public name without a docstring: backgammon.bare" in caplog.text


def _chrome():
    chrome = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver") or ("/usr/lib/chromium/chromedriver"
                                              if os.path.exists("/usr/lib/chromium/chromedriver") else None)
    if importlib.util.find_spec("selenium") is None or not chrome or not driver:
        pytest.skip("needs selenium, Chromium and chromedriver")
    from selenium import webdriver
    options = webdriver.ChromeOptions()
    options.binary_location = chrome
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1000", "--hide-scrollbars", "--allow-file-access-from-files"):
        options.add_argument(arg)
    return webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=driver))


def test_the_pages_in_a_browser(site):
    # As a reader sees them: the navigation, the code, the API entries;
    # screenshots go to test-artifacts/docs/ to be looked at.
    from selenium.webdriver.common.by import By
    SHOTS.mkdir(parents=True, exist_ok=True)
    drv = _chrome()
    try:
        for page, name, expect in (
                ("index.html", "home", "A short tour"),
                ("guide/positions/index.html", "guide-positions", "Legal plays"),
                ("environments/index.html", "environments", "MaskablePPO"),
                ("api/positions/index.html", "api-positions", "Position"),
                ("api/env/index.html", "api-env", "sample_legal")):
            drv.get((site / page).as_uri())
            body = drv.find_element(By.TAG_NAME, "body").text
            assert expect in body, page
            assert drv.find_elements(By.CSS_SELECTOR, ".md-nav--primary"), page
            code = drv.find_elements(By.CSS_SELECTOR, ".highlight pre")
            assert code and all(c.size["height"] > 0 for c in code[:3]), page
            # no stray reST roles or raw doctest quotes on the page
            assert ":class:`" not in body and ":func:`" not in body, page
            drv.save_screenshot(str(SHOTS / f"{name}.png"))
        drv.get((site / "api/positions/index.html").as_uri() + "#backgammon.position.Position")
        drv.save_screenshot(str(SHOTS / "api-position-class.png"))
    finally:
        drv.quit()


# -- issue 45: the reference readable, the docs findable, in step with the program ---------

def test_the_api_reference_reads_well(site):
    # issue 45, problem 5: rollout() was 80% down its page after POLICIES,
    # CHUNK and LANES; its signature one line scrolled sideways; return types
    # named a private module ('_play.Plays'); no Parameters sections.
    rollouts = (site / "api" / "rollouts" / "index.html").read_text(encoding="utf-8")
    at = {name: rollouts.index(f'id="backgammon.rollouts.{name}"') for name in ("rollout", "POLICIES", "CHUNK")}
    assert at["rollout"] < at["POLICIES"] and at["rollout"] < at["CHUNK"]
    signature = re.search(r'id="backgammon.rollouts.rollout".*?</code></pre>', rollouts, re.S).group(0)
    assert signature.count("\n") > 10                       # one parameter a line (ruff formats it)
    for page in ("positions", "formats"):
        html = (site / "api" / page / "index.html").read_text(encoding="utf-8")
        assert "_play." not in html and "_board." not in html, page
    positions = (site / "api" / "positions" / "index.html").read_text(encoding="utf-8")
    legal = positions[positions.index('id="backgammon.position.Position.legal_plays"'):]
    legal = legal[:legal.index('id="backgammon.position.Position.parse_play"')]
    for section in ("Parameters:", "Returns:", "Raises:", "Examples:"):
        assert section in legal, section
    assert "Plays" in legal and "InvalidRollError" in legal
    formats = (site / "api" / "formats" / "index.html").read_text(encoding="utf-8")
    assert 'id="backgammon.formats.codes.read_position"' in formats


def test_the_docs_are_findable(site):
    # issue 45, problem 7: pip install backgammon (not published); the game in
    # the browser not findable by "browser" or "play"; examples/ not on the
    # site; ply, cubeful, MWC, normalised equity never defined.
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    install = re.search(r"## Install\n(.*?)\n## ", home, re.S).group(1)
    assert "pip install backgammon" not in install and "pip install ." in install and "clone" in install
    assert "pip install '.[docs]'" in (ROOT / "README.md").read_text(encoding="utf-8")
    index = (site / "index.html").read_text(encoding="utf-8")
    nav = re.findall(r'<a href="([^"]+)" class="md-nav__link">\s*<span class="md-ellipsis">\s*([^<]+?)\s*</span>',
                     index)
    titles = {title: href for href, title in nav if not href.startswith("#")}
    browser = [t for t in titles if "browser" in t.lower() and "play" in t.lower()]
    assert browser and titles[browser[0]].rstrip("/").endswith("guide/web"), titles
    assert "Glossary" in titles and "Examples" in titles
    examples = (site / "examples" / "index.html").read_text(encoding="utf-8")
    assert "afterstates" in examples and "MaskablePPO" in examples and "--8&lt;--" not in examples
    glossary = (site / "glossary" / "index.html").read_text(encoding="utf-8")
    for term in ("ply", "cubeful", "cubeless", "equity", "mwc", "normalised-equity", "pr", "luck", "gammon-rate",
                 "pip-count", "crawford-rule", "blot", "prime", "anchor"):
        assert f'id="{term}"' in glossary, term
    # the pages of this issue link the terms where they first use them
    for page, terms in (("guide/rollouts.md", ("cubeless", "cubeful", "mwc", "normalised-equity", "ply")),
                        ("guide/cli.md", ("ply", "cubeless", "equity", "mwc", "pr", "luck"))):
        text = (DOCS / page).read_text(encoding="utf-8")
        for term in terms:
            assert f"glossary.md#{term})" in text, (page, term)


# Code lines of the guides this suite's owners may edit, at most the 80
# columns the site shows without scrolling (the others' pages are listed
# in the report; tests/test_docs_site.py may add them later).
NARROW = ["index.md", "glossary.md", "guide/cli.md", "guide/positions.md", "guide/rollouts.md", "guide/games.md",
          "guide/bearoff.md", "guide/building.md"]


@pytest.mark.parametrize("page", NARROW)
def test_code_lines_fit_the_column(page):
    text = (DOCS / page).read_text(encoding="utf-8")
    long = [ln for block in re.findall(r"```\w*\n(.*?)```", text, re.S) for ln in block.splitlines() if len(ln) > 80]
    assert not long, long


def test_the_api_and_glossary_pages_in_a_browser(site):
    # Screenshots of the rebuilt reference (rollouts, positions) and the glossary.
    from selenium.webdriver.common.by import By
    SHOTS.mkdir(parents=True, exist_ok=True)
    drv = _chrome()
    try:
        for page, anchor, name, expect in (
                ("api/rollouts/index.html", "backgammon.rollouts.rollout", "api-rollouts", "rollout"),
                ("api/positions/index.html", "backgammon.position.Position.legal_plays", "api-positions-legal-plays",
                 "Parameters"),
                ("api/formats/index.html", "backgammon.formats.codes.read_position", "api-read-position",
                 "InvalidPositionCodeError"),
                ("glossary/index.html", "", "glossary", "Normalised equity")):
            drv.get((site / page).as_uri() + (f"#{anchor}" if anchor else ""))
            body = drv.find_element(By.TAG_NAME, "body").text
            assert expect in body, page
            drv.save_screenshot(str(SHOTS / f"{name}.png"))
            # no function's or class's signature scrolls sideways (a constant's value may)
            wide = drv.execute_script(
                "return [...document.querySelectorAll('.md-content pre code')]"
                ".filter(c => c.closest('.doc-signature') && !c.closest('.doc-attribute')"
                " && c.scrollWidth > c.clientWidth + 1).length")
            assert wide == 0, page
    finally:
        drv.quit()
