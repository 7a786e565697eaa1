"""The page in a real headless Chromium (Debian's chromium and
chromium-driver, with selenium): a whole game against the computer played
by clicking, a hint, undo, save, reload and resume, no JavaScript errors.

Screenshots go to ``test-artifacts/screenshots/`` (the directory CI keeps;
``BACKGAMMON_ARTIFACTS`` moves it).  Chromium missing is a failure, not a
skip: ``.ci/run`` installs it.
"""
from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
from selenium import webdriver  # noqa: E402  (selenium is in the test extra: a missing one fails)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from backgammon.web import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("BACKGAMMON_ARTIFACTS", ROOT / "test-artifacts"))
SHOTS = ARTIFACTS / "screenshots"
DOWNLOADS = ARTIFACTS / "downloads"


def _browser_paths():
    chrome = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver") or ("/usr/lib/chromium/chromedriver"
                                              if os.path.exists("/usr/lib/chromium/chromedriver") else None)
    return chrome, driver


@pytest.fixture(scope="module")
def server():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(allowed_hosts=["127.0.0.1"]), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="off")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not srv.started:
        assert time.time() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    chrome, driver_path = _browser_paths()
    if not chrome or not driver_path:
        pytest.fail("Chromium and chromedriver are needed for the browser tests: "
                    "apt-get install chromium chromium-driver (.ci/run does)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for old in SHOTS.glob("*.png"):
        old.unlink()
    DOWNLOADS.mkdir(parents=True, exist_ok=True)
    options = webdriver.ChromeOptions()
    options.binary_location = chrome
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,1000", "--disable-extensions", "--no-first-run"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.add_experimental_option("prefs", {"download.default_directory": str(DOWNLOADS),
                                              "download.prompt_for_download": False})
    service = webdriver.ChromeService(executable_path=driver_path)
    drv = webdriver.Chrome(options=options, service=service)
    drv.set_page_load_timeout(30)
    try:
        drv.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(DOWNLOADS)})
    except Exception:   # older drivers: the prefs above do it
        pass
    yield drv
    drv.quit()


def errors(drv):
    """SEVERE entries of the browser log (JavaScript errors, failed loads)."""
    return [e for e in drv.get_log("browser") if e.get("level") == "SEVERE"]


def version(drv) -> int:
    return int(drv.execute_script("return Number(document.body.dataset.version || 0)"))


def settled(drv, before: int | None = None, timeout: float = 15):
    """Wait until the page has drawn a new state (after ``before``) and is
    not waiting for the server; returns the page's version."""
    script = ("return document.body.dataset.busy === '1' ? -1 : Number(document.body.dataset.version || 0)")
    seen = {}

    def ready(d):
        v = d.execute_script(script)
        seen["v"] = v
        return v >= 0 and (before is None or v > before)
    WebDriverWait(drv, timeout, poll_frequency=0.01).until(ready)
    return seen["v"]


def click(drv, element, before: int | None = None):
    """Click, and wait for the page to draw the answer."""
    if before is None:
        before = version(drv)
    element.click()
    return settled(drv, before)


def state(drv):
    """The game state the page drew last (it keeps it in window.backgammonState)."""
    return drv.execute_script("return window.backgammonState")


def page(drv):
    """The state, the page's version and the ids of the buttons shown, in one call."""
    return drv.execute_script(
        "return {state: window.backgammonState, version: Number(document.body.dataset.version || 0),"
        " buttons: Array.from(document.querySelectorAll('.controls button'))"
        ".filter(b => b.offsetParent !== null).map(b => b.id)}")


def visible(drv, id_):
    el = drv.find_element(By.ID, id_)
    return el if el.is_displayed() else None


def play_my_turn(drv):
    """Click a checker the page marks movable, then a highlighted destination,
    until the play is complete; then confirm."""
    v = version(drv)
    for _ in range(8):
        sources = drv.find_elements(By.CSS_SELECTOR, "#board rect.hit.src")
        if not sources:
            break
        v = click(drv, sources[-1], v)
        dests = drv.find_elements(By.CSS_SELECTOR, "#board rect.hit.dest")
        assert dests, "a movable checker has no highlighted destination"
        v = click(drv, dests[0], v)
    confirm = visible(drv, "btn-commit")
    if confirm:
        click(drv, confirm, v)


def shot(drv, name):
    """A screenshot of the page (board and panels) in SHOTS."""
    path = SHOTS / f"{name}.png"
    drv.find_element(By.CSS_SELECTOR, "body").screenshot(str(path))
    return path


def test_play_a_whole_game_in_the_browser(server, browser):
    drv = browser
    drv.get(server + "/")
    drv.execute_script("localStorage.clear()")
    drv.get(server + "/")
    settled(drv)
    assert drv.find_elements(By.CSS_SELECTOR, "#board path"), "no board drawn"
    # a new money game against the fastest level
    drv.find_element(By.CSS_SELECTOR, "#newgame-box summary")
    drv.execute_script("document.getElementById('newgame-box').open = true")
    drv.find_element(By.CSS_SELECTOR, "#ng-length option[value='0']").click()
    drv.find_element(By.CSS_SELECTOR, "#ng-level option[value='beginner']").click()
    click(drv, drv.find_element(By.ID, "btn-new"))
    shot(drv, "01-new-game")
    first_id = drv.execute_script("return localStorage.getItem('backgammon.game')")
    assert first_id

    hinted = undone = False
    for turn in range(200):
        p = page(drv)
        s, shown = p["state"], p["buttons"]
        if s["game"]["phase"] == "over":
            break
        if "btn-roll" in shown:
            click(drv, drv.find_element(By.ID, "btn-roll"), p["version"])
            if turn == 0:
                shot(drv, "02-after-opening-roll")
            continue
        if s["game"]["phase"] == "play" and s["game"]["turn"] == "you":
            movable = s["moves"]["destinations"]
            if not hinted and movable:
                click(drv, drv.find_element(By.ID, "btn-hint"))
                rows = drv.find_elements(By.CSS_SELECTOR, "#hint tbody tr")
                assert rows and "Equity" in drv.find_element(By.ID, "hint").text
                hinted = True
                # the best play, typed into the notation box (a click on the hint fills it in)
                best = rows[0].find_element(By.CSS_SELECTOR, "td").text
                rows[0].click()
                box = drv.find_element(By.ID, "notation-text")
                assert box.get_attribute("value") == best
                click(drv, drv.find_element(By.CSS_SELECTOR, "#notation button[type=submit]"))
                mine = [ln["text"] for ln in state(drv)["log"][0]["lines"] if ln["player"] == "you"]
                assert mine[-1].endswith(": " + best), (mine, best)
                continue
            if not undone and movable:
                board_before = s["board"]
                sources = drv.find_elements(By.CSS_SELECTOR, "#board rect.hit.src")
                click(drv, sources[-1])
                shot(drv, "03-checker-selected")
                click(drv, drv.find_elements(By.CSS_SELECTOR, "#board rect.hit.dest")[0])
                assert state(drv)["moves"]["steps"], "the move was not made"
                click(drv, visible(drv, "btn-undo"))
                assert state(drv)["board"] == board_before, "undo did not take the move back"
                undone = True
            play_my_turn(drv)
            if turn > 25 and not (SHOTS / "04-middle-game.png").exists():
                shot(drv, "04-middle-game")
            continue
        for name in ("btn-take", "btn-accept", "btn-next"):
            if name in shown:
                click(drv, drv.find_element(By.ID, name), p["version"])
                break
        else:
            raise AssertionError(f"nothing to click: {s['game']} {s['actions']}")
    s = state(drv)
    assert s["game"]["phase"] == "over", "the game did not finish"
    assert hinted and undone
    shot(drv, "05-game-over")
    assert "win" in drv.find_element(By.ID, "status").text.lower()
    log = drv.find_elements(By.CSS_SELECTOR, "#log li")
    assert len(log) > 10

    # save: the .mat download holds the game
    for f in DOWNLOADS.glob("backgammon*.mat"):
        f.unlink()
    drv.find_element(By.ID, "save-mat").click()
    deadline = time.time() + 10
    while not list(DOWNLOADS.glob("backgammon*.mat")) and time.time() < deadline:
        time.sleep(0.1)
    saved = list(DOWNLOADS.glob("backgammon*.mat"))
    assert saved, "the .mat file was not downloaded"
    text = saved[0].read_text()
    assert "point match" in text and "You" in text and "Computer" in text

    # reload: the same game comes back
    drv.refresh()
    settled(drv)
    assert drv.execute_script("return localStorage.getItem('backgammon.game')") == first_id
    assert state(drv)["game"]["phase"] == "over"

    # resume from the saved file: a new game id, the same score
    click(drv, drv.find_element(By.ID, "btn-next"))
    before = version(drv)
    drv.find_element(By.ID, "resume-file").send_keys(str(saved[0]))
    settled(drv, before)
    resumed = state(drv)
    assert resumed["id"] != first_id
    assert resumed["match"]["score"] == s["match"]["score"]
    shot(drv, "06-resumed")
    assert not errors(drv), errors(drv)


def test_a_match_position_in_play(server, browser):
    """A 5-point match at an advanced level: the board mid-game with the
    dice up (a screenshot to look at), and the API docs page."""
    drv = browser
    drv.get(server + "/")
    settled(drv)
    drv.execute_script("document.getElementById('newgame-box').open = true")
    drv.find_element(By.CSS_SELECTOR, "#ng-length option[value='5']").click()
    drv.find_element(By.CSS_SELECTOR, "#ng-level option[value='intermediate']").click()
    drv.find_element(By.CSS_SELECTOR, "#ng-side option[value='1']").click()
    click(drv, drv.find_element(By.ID, "btn-new"))
    for _ in range(16):
        s = state(drv)
        if s["game"]["phase"] == "over":
            break
        if visible(drv, "btn-roll"):
            click(drv, visible(drv, "btn-roll"))
        elif visible(drv, "btn-take"):
            click(drv, visible(drv, "btn-take"))
        elif s["moves"]:
            if len(s["log"][0]["lines"]) > 8:
                break
            play_my_turn(drv)
        else:
            break
    shot(drv, "07-match-in-play")
    assert "5-point match" in drv.find_element(By.ID, "scoreboard").text
    drv.get(server + "/docs")
    WebDriverWait(drv, 10).until(lambda d: "/api/games/{gid}/actions" in d.find_element(By.ID, "endpoints").text)
    shot(drv, "08-api-docs")
    assert not errors(drv), errors(drv)
