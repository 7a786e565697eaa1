"""The analysis in the page (issue 21, item 4), in a real headless
Chromium: a 1-point match against the beginner played to the end by
drags and keys, then "Analyse": the summary shows both sides' figures,
the move log marks every doubtful play, error and blunder the analysis
(GET /api/games/{id}/analysis, fetched here too) found, and a marked
line clicked draws that position on the board with the play made and
the best play as two sets of arrows, until Esc (or "Back to the game")
brings the live board back.  The same finished match on a phone
(390x844, touch): the summary, the list of errors and a review fit.

As the other browser tests, these wait for what the page signals
(``body[data-ready]``, ``data-analysis``, ``data-reviewing``), never for
time.  Screenshots: 20-23 in ``test-artifacts/screenshots/``.
"""
from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_web_browser import Page, api, browser, page, server  # noqa: F401  (fixtures)
from test_web_browser_phone import HEIGHT, check_layout, phone  # noqa: F401  (fixture)

#: The dice of the match (the beginner and the analysis at 0-ply are
#: deterministic, and so is the way the test plays: the same match every run).
SEED = 3
MARKS = {"doubtful": "?!", "error": "?", "blunder": "??"}

#: What the board shows: {"you:6": 5, "computer:bar": 1, "you:off": 3, ...}, counting
#: the checkers drawn on each place (a stack of more than 5, 4 on the bar, shows its count).
BOARD_COUNTS = """
const out = {};
for (const g of document.querySelectorAll('#board g.checker[data-checker]')) {
  if (g.classList.contains('flying') || g.dataset.dragging) continue;
  const key = g.dataset.checker + ':' + g.dataset.point;
  const label = g.querySelector('text');
  out[key] = Math.max(out[key] || 0, label ? Number(label.textContent) : Number(g.dataset.index) + 1);
}
for (const r of document.querySelectorAll('#board rect[data-checker][data-point="off"]')) {
  const key = r.dataset.checker + ':off';
  out[key] = (out[key] || 0) + 1;
}
return out;
"""

ARROWS = """
return Array.from(document.querySelectorAll(`#board #review-${arguments[0]} .review-arrow`))
  .map(a => [Number(a.dataset.from), Number(a.dataset.to), a.getAttribute('stroke')]);
"""


def expected_counts(board):
    """The board of the API (a state's or an analysed decision's) as BOARD_COUNTS reads the SVG."""
    out = {}
    for p in board["points"]:
        for side in ("you", "computer"):
            if p[side]:
                out[f"{side}:{p['point']}"] = p[side]
    if board["bar"]["you"]:
        out["you:25"] = board["bar"]["you"]
    if board["bar"]["computer"]:
        out["computer:bar"] = board["bar"]["computer"]
    for side in ("you", "computer"):
        if board["off"][side]:
            out[f"{side}:off"] = board["off"][side]
    return out


def signed(x):
    """The page's way of writing an equity: +0.123, −0.456 (a real minus)."""
    return f"{x:+.3f}".replace("-", "−")


def lost(x):
    return "−" + f"{abs(x):.3f}"


def play_to_the_end(page):
    """Play the match by the page: Space to roll, the longest drag each time
    (the two dice of one checker where it can), Enter to end a turn, and
    the answers by key; until the match is over."""
    keys = {"roll": Keys.SPACE, "answer-double": "t", "answer-resignation": "a", "end-turn": Keys.ENTER,
            "game-over": Keys.ENTER}
    for _ in range(600):
        st = page.page_state()
        if st == "match-over":
            return page.state()
        if st == "move":
            page.play_dice(longest=True)
        else:
            assert st in keys, f"the page is in state {st}"
            page.key(keys[st])
    raise AssertionError("the match did not end")


def play_by_api(url, body, double_at_once=False, until="match"):
    """A game or match played through the API: the human plays the hint's
    worst play of its five (``double_at_once``: doubles at its first chance)."""
    s = api(url, "POST", "/api/games", body)
    gid = s["id"]
    doubled = False
    for _ in range(800):
        if s["match"]["over"] or (until == "game" and s["game"]["phase"] == "over"):
            return s
        acts = s["actions"]
        if double_at_once and not doubled and "double" in acts:
            doubled = True
            s = api(url, "POST", f"/api/games/{gid}/actions", {"action": "double"})
        elif "roll" in acts:
            s = api(url, "POST", f"/api/games/{gid}/actions", {"action": "roll"})
        elif "accept" in acts:
            s = api(url, "POST", f"/api/games/{gid}/actions", {"action": "accept"})
        elif "take" in acts:
            s = api(url, "POST", f"/api/games/{gid}/actions", {"action": "take"})
        elif "next" in acts:
            s = api(url, "POST", f"/api/games/{gid}/actions", {"action": "next"})
        else:
            h = api(url, "POST", f"/api/games/{gid}/actions", {"action": "hint", "ply": 0})["hint"]
            s = api(url, "POST", f"/api/games/{gid}/actions", {"action": "play", "moves": h["plays"][-1]["moves"]})
    raise AssertionError("the game did not end")


def open_in_tab(page, gid):
    """The page showing game ``gid`` (this tab's game: the page opens it)."""
    page.fresh()
    page.js("sessionStorage.setItem('backgammon.tab', arguments[0])", gid)
    page.open()
    assert page.screen() == "game" and page.state()["id"] == gid


def test_analyse_a_game_and_review_an_error(page, server):  # noqa: F811
    drv = page.drv
    page.start(length=1, level="beginner", seed=SEED, cube=True)
    assert not drv.find_element(By.ID, "btn-analyse").is_displayed(), "nothing to analyse before the game is over"
    s = play_to_the_end(page)
    gid = s["id"]
    button = drv.find_element(By.ID, "btn-analyse")
    assert button.is_displayed() and button.text == "Analyse"
    assert page.body("analysis") is None

    # Analyse: the summary, both sides' figures as the API gives them
    page.click(button)
    page.wait_for("return document.body.dataset.analysis === 'ready' && document.body.dataset.ready === '1'",
                  message="the analysis did not arrive")
    a = api(server, "GET", f"/api/games/{gid}/analysis?ply=0")
    assert page.js("return window.backgammonAnalysis.decisions.length") == len(a["decisions"])
    panel = drv.find_element(By.ID, "analysis")
    assert panel.is_displayed()
    assert not button.is_displayed(), "an analysis up to date: no second Analyse"
    summary = {(tr.get_attribute("data-stat"), td.get_attribute("data-who")): td.text
               for tr in panel.find_elements(By.CSS_SELECTOR, "#analysis-summary tbody tr")
               for td in tr.find_elements(By.TAG_NAME, "td")}
    for who in ("you", "computer"):
        st = a["stats"][who]
        assert summary[("pr", who)] == f"{st['pr']:.1f}", (who, summary)
        assert summary[("decisions", who)] == str(st["decisions"])
        assert summary[("blunders", who)] == str(st["blunders"]) and summary[("errors", who)] == str(st["errors"])
        assert summary[("doubtful", who)] == str(st["doubtful"])
        assert summary[("luck", who)] == signed(st["luck"])
    assert "PR" in panel.text and "Luck" in panel.text and "Cube errors" in panel.text
    # the marked rows' help texts name the marks the server graded by (gnubg's own, issue 40 item 5)
    doubtful, error, blunder = (f"{m:.2f}" for m in a["thresholds"])
    titles = {tr.get_attribute("data-stat"): tr.get_attribute("title")
              for tr in panel.find_elements(By.CSS_SELECTOR, "#analysis-summary tbody tr")}
    assert titles["doubtful"] == f"Decisions losing more than {doubtful}, up to {error}.", titles
    assert titles["errors"] == f"Decisions losing more than {error}, up to {blunder}."
    assert titles["blunders"] == f"Decisions losing more than {blunder}."

    # every marked decision is marked on its line of the log: "?!", "?" or "??" and the equity lost
    marked = [e for e in a["decisions"] if e["skill"]]
    assert marked, "the beginner and the test's own play made no error the analysis marks"
    marks = page.js("return Array.from(document.querySelectorAll('#log .line .mark')).map(m => "
                    "[Number(m.parentNode.dataset.game), Number(m.parentNode.dataset.action), m.dataset.skill, "
                    "m.textContent, getComputedStyle(m).backgroundColor])")
    assert len(marks) == len(marked) == int(page.body("analysisMarked"))
    assert sorted(m[:3] for m in marks) == sorted([e["game"], e["action"], e["skill"]] for e in marked)
    for e in marked:
        m = next(m for m in marks if m[:2] == [e["game"], e["action"]])
        assert m[3] == f"{MARKS[e['skill']]} {lost(e['error'])}", m
        assert m[4] not in ("rgba(0, 0, 0, 0)", "transparent"), "the mark has no colour"
    colours = {m[2]: m[4] for m in marks}
    assert len(set(colours.values())) == len(colours), f"each kind of mark its own colour: {colours}"
    entries = drv.find_elements(By.CSS_SELECTOR, "#analysis-errors button.entry")
    assert len(entries) == len(marked)
    page.shot("20-analysis-summary")
    page.js("const box = document.getElementById('log-box'); box.scrollIntoView({block: 'end'});"
            "const log = document.getElementById('log'), m = log.querySelector('.mark');"
            "log.scrollTop = m.offsetTop - log.offsetTop - 40")
    page.shot("20-analysis-log", "#log-box")

    # a marked line clicked: that position, the play made and the best, on the board
    live = expected_counts(s["board"])
    plays = [e for e in marked if e["kind"] == "play" and e["played_moves"] != e["best_moves"]]
    e = max(plays, key=lambda d: (d["who"] == "you", d["error"]))
    line = drv.find_element(By.CSS_SELECTOR, f"#log .line[data-game='{e['game']}'][data-action='{e['action']}']")
    page.click(line)
    assert page.body("reviewing") == "1"
    assert (page.body("reviewGame"), page.body("reviewAction")) == (str(e["game"]), str(e["action"]))
    assert page.js(BOARD_COUNTS) == expected_counts(e["board"]), "the board is not the analysed position"
    assert expected_counts(e["board"]) != live
    played, best = page.js(ARROWS, "played"), page.js(ARROWS, "best")
    assert [a_[:2] for a_ in played] == e["played_moves"], (played, e["played_moves"])
    assert [a_[:2] for a_ in best] == e["best_moves"], (best, e["best_moves"])
    assert {a_[2] for a_ in played} != {a_[2] for a_ in best}, "the two plays in the same colour"
    dice = page.js("return Array.from(document.querySelectorAll('#dice-layer .die'))"
                   ".map(d => [d.dataset.dieSide, Number(d.dataset.value)])")
    assert sorted(dice) == sorted([e["who"], v] for v in e["roll"])
    review = drv.find_element(By.ID, "review")
    assert review.is_displayed() and not drv.find_element(By.CSS_SELECTOR, ".controls").is_displayed()
    legend = {r.get_attribute("data-set"): r.text for r in review.find_elements(By.CSS_SELECTOR, ".legend")}
    assert e["played"] in legend["played"] and signed(e["played_equity"]) in legend["played"], legend
    assert e["best"] in legend["best"] and signed(e["best_equity"]) in legend["best"], legend
    assert lost(e["error"]) in drv.find_element(By.ID, "review-mark").text
    shown = drv.find_elements(By.CSS_SELECTOR, "#log .line.reviewed")      # (the log is drawn again)
    assert [(x.get_attribute("data-game"), x.get_attribute("data-action")) for x in shown] == \
        [(str(e["game"]), str(e["action"]))], "the line reviewed is not picked out in the log"
    assert page.state()["id"] == gid and page.state()["match"]["over"], "the review changed the game"
    page.shot("21-analysis-review")

    # the arrows step through the marked decisions; Esc is the game again
    order = sorted(marked, key=lambda d: (d["game"], d["action"]))
    at = order.index(e)
    if at + 1 < len(order):
        page.key(Keys.ARROW_RIGHT)
        nxt = order[at + 1]
        assert page.body("reviewAction") == str(nxt["action"])
        assert page.js(BOARD_COUNTS) == expected_counts(nxt["board"])
    page.key(Keys.ESCAPE)
    assert page.body("reviewing") is None
    assert page.js(BOARD_COUNTS) == live, "the live board is not back"
    assert not drv.find_elements(By.CSS_SELECTOR, "#board .review-arrow")
    assert not review.is_displayed() and drv.find_element(By.ID, "status").is_displayed()
    assert "won the match" in drv.find_element(By.ID, "status").text

    # an entry of the panel's list, then "Back to the game"
    first = drv.find_element(By.CSS_SELECTOR, "#analysis-errors button.entry")
    page.click(first)
    assert page.body("reviewing") == "1" and page.body("reviewAction") == str(order[0]["action"])
    assert page.js(BOARD_COUNTS) == expected_counts(order[0]["board"])
    assert "reviewed" in first.get_attribute("class")
    page.click("review-back")
    assert page.body("reviewing") is None and page.js(BOARD_COUNTS) == live
    page.assert_no_errors()


def test_the_analysis_on_a_phone(phone, server):  # noqa: F811
    """A finished match opened on the phone: Analyse, the summary and the
    errors list fit the screen; an error tapped shows the board with the
    review bar under it, on the first screen."""
    # the match, played through the API (the page's part is the test above)
    s = play_by_api(server, {"length": 1, "level": "beginner", "seed": SEED, "cube": True})
    gid = s["id"]
    page = Page(phone, server)
    open_in_tab(page, gid)
    assert page.page_state() == "match-over"
    page.click("btn-analyse")
    page.wait_for("return document.body.dataset.analysis === 'ready' && document.body.dataset.ready === '1'")
    assert phone.find_element(By.ID, "analysis").is_displayed()
    check_layout(page, "the analysis")
    top = page.js("return document.getElementById('analysis').getBoundingClientRect().top")
    assert 0 <= top < HEIGHT, f"the summary is not in view after Analyse ({top} px)"
    page.shot("22-analysis-phone", "window")
    entries = phone.find_elements(By.CSS_SELECTOR, "#analysis-errors button.entry")
    assert entries, "no error to review"
    page.click(entries[0])
    assert page.body("reviewing") == "1"
    out = check_layout(page, "a review")
    left, right, top, bottom = out["board"]
    assert top >= 0 and bottom <= HEIGHT, f"the board is not on the screen: {out['board']}"
    back = phone.find_element(By.ID, "review-back").rect
    assert back["y"] + back["height"] <= HEIGHT + page.js("return scrollY"), "the way back is off the screen"
    page.shot("23-analysis-phone-review", "window")
    page.key(Keys.ESCAPE)
    assert page.body("reviewing") is None
    page.assert_no_errors()


def test_a_cube_decision_reviewed(page, server):  # noqa: F811
    """A 3-point match whose first game is over: the human doubled at once
    (a blunder at 0-0), the computer took.  The double reviewed shows the
    position with the cube in the middle and no arrows, what was done and
    what was proper; the take (an unmarked line of the log, clickable too)
    shows the double's position with the cube offered."""
    s = play_by_api(server, {"length": 3, "level": "beginner", "seed": 7, "cube": True}, double_at_once=True, until="game")
    gid = s["id"]
    open_in_tab(page, gid)
    assert page.page_state() in ("game-over", "match-over")
    page.click("btn-analyse")
    page.wait_for("return document.body.dataset.analysis === 'ready' && document.body.dataset.ready === '1'")
    a = api(server, "GET", f"/api/games/{gid}/analysis?ply=0")
    double = next(e for e in a["decisions"] if e["kind"] == "cube" and e["who"] == "you" and e["done"] == "double")
    take = next(e for e in a["decisions"] if e["kind"] == "take" and e["game"] == double["game"]
                and e["action"] == double["action"] + 1)
    assert double["skill"] == "blunder", double
    drv = page.drv
    # the double: in the list of errors, and marked on the log's "Doubles to 2"
    line = drv.find_element(By.CSS_SELECTOR, f"#log .line[data-game='1'][data-action='{double['action']}']")
    assert line.text.startswith("Doubles to 2") and f"cube ?? {lost(double['error'])}" in line.text, line.text
    page.click(drv.find_element(By.CSS_SELECTOR, f"#analysis-errors button[data-action='{double['action']}']"))
    assert page.body("reviewing") == "1"
    assert page.js(BOARD_COUNTS) == expected_counts(double["board"])
    cube = page.js("const c = document.querySelector('#board g.cube[data-value]');"
                   "return [c.dataset.value, c.dataset.owner]")
    assert cube == ["1", "centre"]
    rows = {tr.get_attribute("data-option"): tr.get_attribute("class")
            for tr in drv.find_elements(By.CSS_SELECTOR, "#review .cube-equities tr")}
    assert rows["no_double"] == "proper" and "done" in rows["double_take"], rows
    assert not drv.find_elements(By.CSS_SELECTOR, "#board .review-arrow, #board [data-offered]")
    done, proper = (drv.find_element(By.CSS_SELECTOR, f"#review .cube-line .{k}").text for k in ("done", "proper"))
    assert done == "Done: double" and proper == f"proper: {double['proper']}", (done, proper)
    assert signed(double["double_take"]) in drv.find_element(By.ID, "review").text
    page.shot("24-analysis-cube-review")
    # the take: the position the double was made in, the cube offered at 2
    page.key(Keys.ESCAPE)
    page.click(drv.find_element(By.CSS_SELECTOR, f"#log .line[data-game='1'][data-action='{take['action']}']"))
    assert page.body("reviewAction") == str(take["action"])
    assert page.js(BOARD_COUNTS) == expected_counts(double["board"]), "the take's board is not the double's"
    assert page.js("return document.querySelector('#board [data-offered]').dataset.offered") == "2"
    assert drv.find_element(By.CSS_SELECTOR, "#review .cube-line .done").text == f"Done: {take['done']}"
    page.key(Keys.ESCAPE)
    assert page.body("reviewing") is None
