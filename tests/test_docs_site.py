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


# Public names whose docstrings still have no example: none since issue 45
# gave rollouts.py and formats/* theirs.  A name may be added here only
# with a reason; the list must never grow back.
PENDING: set[str] = set()


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


# The file the guides read by name (docs/guide/files.md: "Reading a match
# file"): a 9-point match gnubg exported, as a reader would have one.
MATCH_FILE = ROOT / "tests" / "data" / "gnubg_selfplay_9.mat"


@pytest.mark.parametrize("page", GUIDES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_the_python_blocks_of_the_guides_run(page, tmp_path, monkeypatch):
    # in a directory of their own, holding the match.mat they read
    shutil.copy(MATCH_FILE, tmp_path / "match.mat")
    monkeypatch.chdir(tmp_path)
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
    at = {name: rollouts.index(f'id="backgammon.rollouts.{name}"') for name in ("rollout", "CHUNK", "LANES")}
    assert at["rollout"] < at["CHUNK"] and at["rollout"] < at["LANES"]
    # the page documents the public names, not the package's inner modules
    assert 'id="backgammon.rollouts.plan"' not in rollouts and 'id="backgammon.rollouts.loop"' not in rollouts
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
          "guide/bearoff.md", "guide/building.md", "design.md", "environments.md", "evaluation.md", "examples.md",
          "cython-api.md", "guide/analysis.md", "guide/batch.md", "guide/correctness.md", "guide/evaluation.md",
          "guide/files.md"]


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


def test_the_example_scripts_fit_and_are_all_on_the_site():
    # issue 45, problem 7: examples/ on the site, every script of it, and
    # its lines within 100 columns (the site shows them in a code block).
    page = (DOCS / "examples.md").read_text(encoding="utf-8")
    for script in sorted((ROOT / "examples").glob("*.py")):
        assert f'--8<-- "examples/{script.name}"' in page, script.name
        long = [i for i, ln in enumerate(script.read_text(encoding="utf-8").splitlines(), 1) if len(ln) > 100]
        assert not long, (script.name, long)


# -- the docs in step with the program ---------------------------------------------------

def _table_rows(text: str, heading: str) -> list[list[str]]:
    """The rows of the first Markdown table after ``heading``, as cells."""
    after = text[text.index(heading):]
    rows = re.findall(r"^\|(.+)\|\s*$", after[:after.index("\n\n", after.index("|"))], re.M)
    return [[c.strip() for c in r.split("|")] for r in rows[2:]]


def test_the_browser_game_page_names_the_browser_and_every_level():
    # issue 45, problem 7: the game in the browser was under "The web API",
    # its page never said "browser", and it said four levels where the code
    # had five; the page's levels are now read against the code's.
    from backgammon.web.computer import LEVELS
    page = (DOCS / "guide/web.md").read_text(encoding="utf-8")
    title = page.splitlines()[0]
    assert title.startswith("# ") and "browser" in title.lower() and "play" in title.lower()
    game = page[page.index("## The game"):]
    assert "browser" in game[:game.index("\n\n", game.index("The page at"))]
    rows = _table_rows(page, "### Levels")
    documented = {re.search(r"\(`(\w+)`\)", level).group(1): spec.strip("`") for level, spec, _ in rows}
    assert documented == LEVELS
    words = {3: "three", 4: "four", 5: "five", 6: "six"}
    levels_line = next(ln for ln in page.splitlines() if ln.startswith("- **Levels**"))
    paragraph = page[page.index(levels_line):page.index("- **Pace**")]
    assert f"{words[len(LEVELS)]} different players" in " ".join(paragraph.split())
    for wrong in set(words.values()) - {words[len(LEVELS)]}:
        assert f"{wrong} different players" not in " ".join(paragraph.split())


def _cli(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "backgammon", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_cli_page_shows_what_the_commands_print():
    # issue 45, problem 7: the CLI page showed no sample output.  The
    # deterministic ones (no timing in them) are the program's, to the
    # character; the page has one for every command but serve, ubgi, train.
    page = (DOCS / "guide/cli.md").read_text(encoding="utf-8")
    samples = re.findall(r"```console\n\$ backgammon (.*?)\n(.*?)```", page, re.S)
    shown = {cmd.split()[0] for cmd, _ in samples}
    assert {"moves", "hint", "rollout", "duel", "analyse", "convert"} <= shown
    checked = 0
    for cmd, out in samples:
        if cmd.split()[0] in ("moves", "hint"):
            printed = [line.rstrip() for line in _cli(*cmd.split()).splitlines()]
            assert printed == out.splitlines(), cmd          # (Markdown drops trailing blanks)
            checked += 1
    assert checked >= 3


def test_the_cli_defaults_the_docs_name_are_the_parsers():
    # issue 45, problem 6: the depths each command searches by default, on
    # the CLI page and in each --help, are the parser's.
    from backgammon.cli import build_parser
    sub = build_parser()._subparsers._group_actions[0].choices
    page = (DOCS / "guide/cli.md").read_text(encoding="utf-8")
    rows = {cmd.strip("`"): default.strip("`") for cmd, default, _ in _table_rows(page, "## Default search depths")}
    assert rows == {"rollout": f"--policy {sub['rollout'].get_default('policy')}",
                    "hint": f"--ply {sub['hint'].get_default('ply')}",
                    "analyse": f"--ply {sub['analyse'].get_default('ply')}",
                    "ubgi": f"--player {sub['ubgi'].get_default('player')}"}
    for name in ("hint", "analyse"):
        helptext = " ".join(sub[name].format_help().split())
        assert f"default {sub[name].get_default('ply')}" in helptext, name
    # the rollout guide names the same games per chunk and default games as the code
    from backgammon.rollouts import CHUNK
    assert sub["rollout"].get_default("games") == CHUNK and "1,296" in page


# The terms issue 45 names, and the backgammon words of the glossary, with
# the first words of each that count as a use (a link may name any of them).
GLOSSARY_TERMS = {
    "normalised-equity": r"\bnormali[sz]ed (?:match )?equit(?:y|ies)\b",
    "mwc": r"\bMWC\b|\bmatch winning chances?\b",
    "gammon-rate": r"\bgammon rates?\b",
    "pip-count": r"\bpip counts?\b",
    "pr": r"\bPR\b",
    "cubeful": r"\bcubeful(?:ly)?\b",
    "cubeless": r"\bcubeless\b",
    "ply": r"\b(?:\d-)?(?:ply|plies)\b",
    "luck": r"\bluck\b",
    "equity": r"\bequit(?:y|ies)\b",
    "crawford-rule": r"\bCrawford(?: rule| game)?\b",
    "blot": r"\bblots?\b",
}
_SHIELD = re.compile(r"`[^`]*`|!?\[[^\]]*\]\([^)]*\)|<[^>]+>|https?://\S+")
LINKED_PAGES = sorted(p for p in [*DOCS.glob("*.md"), *(DOCS / "guide").glob("*.md")]
                      if p.name not in ("glossary.md", "rules.md") and p.relative_to(DOCS).as_posix() != "guide/web.md")


@pytest.mark.parametrize("page", LINKED_PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_the_first_use_of_each_term_links_the_glossary(page):
    # issue 45, problem 7: "ply", "cubeful", "MWC", "normalised match equity"
    # were used and never defined.  On every page (the rules, which ship
    # with the package as plain text, and the web engineer's page aside)
    # the first use of each term outside code is a link to its entry.
    lines, fenced = [], False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and not line.lstrip().startswith("#"):
            lines.append(line)
    text = "\n".join(lines)
    glossary = ("" if page.parent == DOCS else "../") + "glossary.md#"
    for anchor, rx in GLOSSARY_TERMS.items():
        # (a word joined to another by -, / or _ is a name, not the term: win_gammon, 2-ply-deep)
        bare = re.search(rf"(?<![-/_])(?:{rx})(?![-/_])", _SHIELD.sub(lambda m: " " * len(m.group(0)), text))
        link = re.search(rf"\[[^\]]*\]\({re.escape(glossary + anchor)}\)", text)
        if bare is None:
            continue                      # every use is in a link or code: then one must be a link here
        assert link is not None and link.start() <= bare.start(), \
            f"{page.name}: first use of {anchor!r} ({bare.group(0)!r}) does not link the glossary"


LEAD_PAGES = ["analysis", "batch", "bearoff", "evaluation", "formats", "games", "positions", "rollouts"]


@pytest.mark.parametrize("name", LEAD_PAGES)
def test_each_api_page_leads_with_its_main_functions(name, site):
    # issue 45, problem 5: rollout() was 80% down its page.  Each reference
    # page opens with a table of its main calls, each linking its entry on
    # the page (mkdocs --strict checks the anchors; here: they exist).
    text = (DOCS / "api" / f"{name}.md").read_text(encoding="utf-8")
    lead = text[:text.index("\n::: ")]
    anchors = re.findall(r"\]\(#(backgammon\.[\w.]+)\)", lead)
    assert len(anchors) >= 3, name
    html = (site / "api" / name / "index.html").read_text(encoding="utf-8")
    for anchor in anchors:
        assert f'id="{anchor}"' in html, (name, anchor)


# The modules whose reference issue 45 rewrote: their examples fit the 80
# columns an API page shows (the signatures' and the guides' code too).
EXAMPLE_MODULES = [
    "rollouts/__init__", "rollouts/api", "rollouts/plan", "rollouts/statistics", "lockstep", "game", "match",
    "matchid", "met", "chouette", "resignation", "cube", "hint", "duel", "evaluation", "evaluator", "players",
    "network", "analysis", "statistics", "formats/codes", "formats/detection", "formats/registry", "formats/mat",
    "formats/sgf", "formats/xg", "formats/xgid", "formats/fibs", "formats/record", "bearoff/__init__",
    "bearoff/cache", "batch", "perft", "sample", "errors", "ubgi", "position", "play", "dice", "env/single",
    "env/vector", "env/aec"]


@pytest.mark.parametrize("module", EXAMPLE_MODULES)
def test_the_examples_fit_the_api_column(module):
    import ast
    source = (ROOT / "python" / "backgammon" / f"{module}.py").read_text(encoding="utf-8")
    long = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)):
            for line in (ast.get_docstring(node, clean=True) or "").splitlines():
                if line.strip().startswith((">>>", "...")) and len(line) > 80:
                    long.append(line)
    assert not long, long
