"""gnubg's statistics in the page's analysis (issue 40, item 5), in a real
headless Chromium: a 5-point match with the cube, the human doubling at
once (so there are cube errors to count), analysed by "Analyse"; the
panel "GNU Backgammon's statistics" shows every figure of the API's
``statistics`` (``backgammon.statistics``, gnubg's ``show statistics``)
with gnubg's names and scales: checker play (moves, marks doubtful / bad /
very bad, the error total in EMG and MWC, the rate in mEMG, the rating
Awful! ... Supernatural), luck (rolls marked lucky and unlucky, the luck
total and rate, the luck rating), the cube (doubles, takes, passes, missed
doubles below and above the cash point, wrong doubles below the double
point and above too good, wrong takes, wrong passes, the cube's own marks,
its rating) and overall (rate, rating, the actual and luck-adjusted
result); all games or one.  The same panel in 简体 and 繁體: every
label in Chinese, the only Latin words gnubg's units and its name.

Screenshots: 25-statistics-en, 26-statistics-zh-Hans, 27-statistics-game-zh-Hant, 28-statistics-phone in
``test-artifacts/screenshots/``.
"""
from __future__ import annotations

import re

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_web_browser import Page, api, browser, page, server  # noqa: F401  (fixtures)
from test_web_browser_analysis import open_in_tab, play_by_api
from test_web_browser_phone import check_layout, phone  # noqa: F401  (fixture)
from test_web_browser_i18n import FORMS, SIMPLIFIED_ONLY, latin_words
from test_web_i18n import CATALOGS

#: gnubg's rating names and their keys in the catalogs.
RATINGS = {"Awful!": "awful", "Beginner": "beginner", "Casual player": "casual", "Intermediate": "intermediate",
           "Advanced": "advanced", "Expert": "expert", "World class": "world_class", "Supernatural": "supernatural"}
LUCK = {"Go to bed": "go_to_bed", "Bad dice, man!": "bad_dice", "None": "none", "Good dice, man!": "good_dice",
        "Go to Las Vegas": "las_vegas"}

TABLE = """
const out = {};
for (const tr of document.querySelectorAll('#gnubg-stats-table tbody tr[data-stat]'))
  for (const td of tr.querySelectorAll('td'))
    out[tr.dataset.part + ':' + tr.dataset.stat + ':' + td.dataset.who] = [td.textContent, td.dataset.rating || null];
return out;
"""


def fixed(x: float, n: int) -> str:
    """The page's way of writing a signed figure: +0.123, −0.456 (a real minus)."""
    return ("+" if x >= 0 else "−") + f"{abs(x):.{n}f}"


def expected(p: dict, match: bool, lang: str) -> dict:
    """What the panel should show of one side's figures (``PlayerStatistics.to_dict()``)."""
    c = CATALOGS[lang]
    na = c["gstat.na"]

    def total(emg, cost, sign=-1):
        return f"{fixed(sign * emg, 3)} ({fixed(sign * 100 * cost, 3) + '%' if match else fixed(sign * cost, 3)})"

    def rate(r, cost, n, sign=-1):
        if r is None:
            return na
        return f"{fixed(sign * 1000 * r, 1)} ({fixed(sign * 100 * cost / n, 3) + '%' if match else fixed(sign * cost / n, 3)})"

    def named(name, counted):
        return (c[f"gstat.rating.{RATINGS[name]}"], name) if counted else (na, "n/a")

    def kind(e):
        return f"{e['count']} ({fixed(-e['emg'], 3)})" if e["count"] else "0"

    def result(x):
        return fixed(100 * x, 2) + "%" if match else fixed(x, 3)

    plain = {
        "checker:total_moves": p["total_moves"], "checker:unforced_moves": p["unforced_moves"],
        "checker:moves_doubtful": p["checker_marks"]["doubtful"], "checker:moves_bad": p["checker_marks"]["bad"],
        "checker:moves_very_bad": p["checker_marks"]["very bad"],
        "checker:checker_error": total(p["checker_error"], p["checker_cost"]),
        "checker:checker_rate": rate(p["checker_rate"], p["checker_cost"], p["unforced_moves"]),
        "luck:rolls_very_lucky": p["rolls"]["very lucky"], "luck:rolls_lucky": p["rolls"]["lucky"],
        "luck:rolls_unlucky": p["rolls"]["unlucky"], "luck:rolls_very_unlucky": p["rolls"]["very unlucky"],
        "luck:luck_total": total(p["luck"], p["luck_cost"], 1),
        "luck:luck_rate": rate(p["luck_rate"], p["luck_cost"], p["total_moves"], 1),
        "cube:total_cube": p["total_cube"], "cube:close_cube": p["close_cube"], "cube:doubles": p["doubles"],
        "cube:takes": p["takes"], "cube:passes": p["passes"],
        "cube:cube_doubtful": p["cube_marks"]["doubtful"], "cube:cube_bad": p["cube_marks"]["bad"],
        "cube:cube_very_bad": p["cube_marks"]["very bad"],
        "cube:cube_error": total(p["cube_error"], p["cube_cost"]),
        "cube:cube_rate": rate(p["cube_rate"], p["cube_cost"], p["close_cube"]),
        "overall:error": total(p["error"], p["cost"]),
        "overall:error_rate": rate(p["error_rate"], p["cost"], p["decisions"]),
        "overall:actual_result": result(p["actual_result"]),
        "overall:luck_adjusted_result": result(p["luck_adjusted_result"]),
    }
    for k in ("missed_double_below_cp", "missed_double_above_cp", "wrong_double_below_dp", "wrong_double_above_tg",
              "wrong_take", "wrong_pass"):
        plain[f"cube:{k}"] = kind(p[k])
    out = {k: (str(v), None) for k, v in plain.items()}
    out["checker:checker_rating"] = named(p["checker_rating"], p["unforced_moves"])
    out["cube:cube_rating"] = named(p["cube_rating"], p["close_cube"])
    out["overall:overall_rating"] = named(p["overall_rating"], p["decisions"])
    out["luck:luck_rating"] = (c[f"gstat.luck.{LUCK[p['luck_rating']]}"], p["luck_rating"])
    return out


def shown(page) -> dict:
    return {k: tuple(v) for k, v in page.js(TABLE).items()}


def wanted(players: dict, match: bool, lang: str) -> dict:
    return {f"{k}:{who}": v for who in ("you", "computer") for k, v in expected(players[who], match, lang).items()}


def shot_whole_panel(page, name):
    """A screenshot of the whole panel: the window made tall enough for it, then as it was."""
    size = page.drv.get_window_size()
    height = page.js("return document.getElementById('gnubg-stats').getBoundingClientRect().height")
    page.drv.set_window_size(size["width"], int(height) + 400)
    page.js("document.getElementById('gnubg-stats').scrollIntoView({block: 'start'})")
    page.shot(name, "#gnubg-stats")
    page.drv.set_window_size(size["width"], size["height"])


def switch_lang(page, lang):
    """The language switched by the gear's select, as a person does."""
    page.js("const s = document.querySelector('[data-setting-lang]');"
            "s.value = arguments[0]; s.dispatchEvent(new Event('change', {bubbles: true}))", lang)
    page.wait_for(f"return document.body.dataset.lang === '{lang}' && document.body.dataset.ready === '1'")


def test_gnubg_statistics_panel(page, server):  # noqa: F811
    s = play_by_api(server, {"length": 5, "level": "beginner", "seed": 3, "cube": True}, double_at_once=True)
    gid = s["id"]
    open_in_tab(page, gid)
    drv = page.drv
    page.click("btn-analyse")
    page.wait_for("return document.body.dataset.analysis === 'ready' && document.body.dataset.ready === '1'")
    a = api(server, "GET", f"/api/games/{gid}/analysis?ply=0")
    st = a["statistics"]
    assert a["games"] >= 2 and len(st["games"]) == a["games"]
    assert st["marks"] == [0.03, 0.06, 0.12], "gnubg 1.07's own marks"
    you = st["match"]["you"]
    assert you["doubles"] >= 1 and you["close_cube"] >= 1, "the human's doubles at once are cube decisions"

    details = drv.find_element(By.ID, "gnubg-stats")
    assert details.is_displayed() and details.get_attribute("open") is None, "closed until asked"
    page.click(drv.find_element(By.CSS_SELECTOR, "#gnubg-stats > summary"))
    assert details.get_attribute("open") is not None
    table = drv.find_element(By.ID, "gnubg-stats-table")
    assert table.is_displayed()
    # every figure of the whole match, as the API gives it, in gnubg's scales
    assert shown(page) == wanted(st["match"], True, "en")
    assert all(r in RATINGS for k, (_, r) in shown(page).items() if k.endswith(("rating:you", "rating:computer"))
               and "luck" not in k and r != "n/a")
    text = details.text
    for label in ("Checker play", "Moves marked very bad", "Error rate mEMG (MWC)", "Checker play rating",
                  "Rolls marked very lucky", "Luck rate mEMG (MWC)", "Missed doubles below cash point",
                  "Missed doubles above cash point", "Wrong doubles below double point",
                  "Wrong doubles above too good", "Wrong takes", "Wrong passes", "Cube decisions marked doubtful",
                  "Cube decision rating", "Overall rating", "Luck-adjusted result"):
        assert label in text, label
    assert "Marked when a decision loses more than 0.030 (doubtful), 0.060 (bad), 0.120 (very bad)" in text
    # the cube: the human doubled at once, a cube error counted in its kind and in the cube's marks
    assert sum(you[k]["count"] for k in ("wrong_double_below_dp", "wrong_double_above_tg", "missed_double_below_cp",
                                          "missed_double_above_cp", "wrong_take", "wrong_pass")) >= 1
    assert shown(page)["cube:wrong_double_below_dp:you"][0].startswith(str(you["wrong_double_below_dp"]["count"]))
    shot_whole_panel(page, "25-statistics-en")

    # one game's figures: the select lists the games with their scores
    scope = Select(drv.find_element(By.ID, "gnubg-stats-scope"))
    assert [o.text for o in scope.options] == ["All games"] + [
        f"Game {g['number']} ({g['score']['you']}–{g['score']['computer']})" for g in st["games"]]
    scope.select_by_value("1")
    page.wait_for("return document.body.dataset.ready === '1'")
    assert shown(page) == wanted(st["games"][0]["players"], True, "en")
    assert st["games"][0]["players"] != st["match"], "game 1 alone is not the match"

    # 简体: the same figures, every label and rating name in Chinese, game 1 still chosen
    switch_lang(page, "zh-Hans")
    assert Select(drv.find_element(By.ID, "gnubg-stats-scope")).first_selected_option.get_attribute("value") == "1"
    assert shown(page) == wanted(st["games"][0]["players"], True, "zh-Hans")
    Select(drv.find_element(By.ID, "gnubg-stats-scope")).select_by_value("all")
    page.wait_for("return document.body.dataset.ready === '1'")
    assert shown(page) == wanted(st["match"], True, "zh-Hans")
    text = drv.find_element(By.ID, "gnubg-stats").text
    for zh in ("走棋评级", "加倍骰评级", "总体评级", "漏掉的加倍（兑现点以下）", "错误的加倍（加倍点以下）", "错误的接受",
               "错误的放弃", "去除运气后的结果", "非常幸运的掷骰"):
        assert zh in text, zh
    # the only Latin words: gnubg's name and units (and the page's own "pip")
    assert latin_words(text, {"GNU", "Backgammon", "EMG", "mEMG", "MWC"}) == []
    shot_whole_panel(page, "26-statistics-zh-Hans")

    # 繁體: no Simplified character or form in the panel
    switch_lang(page, "zh-Hant")
    assert shown(page) == wanted(st["match"], True, "zh-Hant")
    text = drv.find_element(By.ID, "gnubg-stats").text
    assert "走棋評級" in text and "加倍骰評級" in text
    assert sorted({c for c in text if c in SIMPLIFIED_ONLY}) == [] and [f for f in FORMS if f in text] == []
    Select(drv.find_element(By.ID, "gnubg-stats-scope")).select_by_value(str(st["games"][-1]["number"]))
    page.wait_for("return document.body.dataset.ready === '1'")
    assert shown(page) == wanted(st["games"][-1]["players"], True, "zh-Hant")
    shot_whole_panel(page, "27-statistics-game-zh-Hant")
    assert re.search(r"[\u4e00-\u9fff]", drv.find_element(By.ID, "gnubg-stats-about").text)
    page.assert_no_errors()


def test_a_money_game_s_statistics_are_in_points(page, server):  # noqa: F811
    """A single game: no game select, totals and results in points (no %)."""
    s = play_by_api(server, {"length": 0, "level": "beginner", "seed": 5, "cube": True}, until="game")
    open_in_tab(page, s["id"])
    page.click("btn-analyse")
    page.wait_for("return document.body.dataset.analysis === 'ready' && document.body.dataset.ready === '1'")
    a = api(server, "GET", f"/api/games/{s['id']}/analysis?ply=0")
    page.click(page.drv.find_element(By.CSS_SELECTOR, "#gnubg-stats > summary"))
    assert shown(page) == wanted(a["statistics"]["match"], False, "en")
    assert not page.drv.find_element(By.ID, "gnubg-stats-scope").is_displayed()
    assert "%" not in page.drv.find_element(By.ID, "gnubg-stats-table").text
    assert "Error total EMG (points)" in page.drv.find_element(By.ID, "gnubg-stats-table").text
    page.assert_no_errors()


def test_the_statistics_on_a_phone(phone, server):  # noqa: F811
    """The panel opened on a phone (390x844, touch) fits: no text under
    11 px, nothing wider than the screen."""
    s = play_by_api(server, {"length": 5, "level": "beginner", "seed": 2, "cube": True}, double_at_once=True)
    page = Page(phone, server)
    open_in_tab(page, s["id"])
    page.click("btn-analyse")
    page.wait_for("return document.body.dataset.analysis === 'ready' && document.body.dataset.ready === '1'")
    page.click(phone.find_element(By.CSS_SELECTOR, "#gnubg-stats > summary"))
    assert phone.find_element(By.ID, "gnubg-stats-table").is_displayed()
    check_layout(page, "gnubg's statistics")
    page.js("document.getElementById('gnubg-stats').scrollIntoView({block: 'start'})")
    page.shot("28-statistics-phone", "window")
    page.assert_no_errors()
