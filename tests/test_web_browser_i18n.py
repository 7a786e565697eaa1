"""The page in 简体中文, 繁體中文 and English in a real headless Chromium:
the language a first visit picks from the browser's languages, the
switcher in the lobby and the gear and its memory, ``?lang=``; in each
language the lobby, a whole 5-point match without the cube played by
keyboard and drag only, the rules and the glossary (reached from the lobby
and from ``?``, and from a refusal citing a rule), and the phone view at
390x844.  In 简体 and 繁體 no Latin-alphabet word shows during the match
but pip, move notation (13/8*, bar/22, 6/off) and the files' names (.mat,
SGF); the 繁體 pages hold no Simplified-only form.

Screenshots: test-artifacts/screenshots/i18n-LANG-*.png (lobby, mid-game,
rules, glossary, game over, phone lobby / game / rules)."""
from __future__ import annotations

import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_web_browser import Page, chrome, server  # noqa: F401  (fixtures)
from test_web_browser_phone import HEIGHT, WIDTH, check_layout
from test_web_i18n import CATALOGS, SIMPLIFIED_ONLY, TERMS, simplified_forms

LANGS = ("zh-Hans", "zh-Hant", "en")
FORMS = simplified_forms(CATALOGS["zh-Hans"], CATALOGS["zh-Hant"])

#: The words a player sees: the page's visible text, the board's SVG text,
#: and the titles of what is shown (hover text).
VISIBLE = r"""
const shown = (el) => !!el.getClientRects().length && !el.closest('[hidden]') &&
  getComputedStyle(el).visibility !== 'hidden';
const parts = [document.body.innerText];
for (const t of document.querySelectorAll('#board text')) if (shown(t)) parts.push(t.textContent);
for (const el of document.querySelectorAll('[title]')) if (shown(el)) parts.push(el.getAttribute('title'));
for (const el of document.querySelectorAll('input[placeholder]')) if (shown(el)) parts.push(el.placeholder);
return parts.join('\n');
"""
NOTATION = re.compile(r"(?<![A-Za-z])(?:bar|\d{1,2})(?:/(?:\d{1,2}|off)\*?)+(?:\(\d\))?")
ALLOWED = {"pip", "mat", "SGF"}
#: Outside the match the lobby also names the language "English" and the file kinds ".mat or .sgf",
#: and the guide's controls the keyboard's keys (as seed 004 does: 空格键, H 键, Esc).
LOBBY_ALLOWED = ALLOWED | {"English", "sgf", "Esc", "U", "H", "D", "T", "P", "A", "X"}


def latin_words(text: str, allowed=ALLOWED) -> list[str]:
    """Latin-alphabet words left once notation and the allowed words are taken out."""
    rest = NOTATION.sub(" ", text)
    return sorted({w for w in re.findall(r"[A-Za-z]+", rest) if w not in allowed})


def check_chinese(page: Page, lang: str, where: str) -> str:
    """The visible words of a Chinese page: no Latin word but the allowed
    ones; in 繁體 no Simplified-only character or form."""
    text = page.js(VISIBLE)
    assert re.search(r"[\u4e00-\u9fff]", text), f"{lang} {where}: no Chinese on the page"
    allowed = ALLOWED if page.screen() == "game" else LOBBY_ALLOWED
    if lang != "en":
        assert latin_words(text, allowed) == [], f"{lang} {where}: Latin words {latin_words(text, allowed)}"
    if lang == "zh-Hant":
        assert sorted({c for c in text if c in SIMPLIFIED_ONLY}) == [], f"{where}: Simplified characters"
        assert [f for f in FORMS if f in text] == [], f"{where}: Simplified forms"
    return text


def check_english(page: Page, where: str) -> str:
    text = page.js(VISIBLE)
    assert not re.search(r"[\u4e00-\u9fff]", text.replace("简体中文", "").replace("繁體中文", "")), where
    return text


def check(page, lang, where):
    return check_english(page, where) if lang == "en" else check_chinese(page, lang, where)


def browser_languages(drv, accept: str) -> None:
    """Make the browser say it prefers ``accept`` (navigator.languages) for the next pages."""
    ua = drv.execute_script("return navigator.userAgent")
    drv.execute_cdp_cmd("Emulation.setUserAgentOverride", {"userAgent": ua, "acceptLanguage": accept})


@pytest.fixture(scope="module")
def desktop():
    drv = chrome()
    yield drv
    drv.quit()


@pytest.fixture(scope="module")
def phone():
    drv = chrome(WIDTH, HEIGHT, mobile=True)
    yield drv
    drv.quit()


def fresh(drv, url, lang, query="pace=instant", ask=False):
    """A first visit (no storage) from a browser whose languages are
    ``lang``'s, or (``ask``) whose address asks for ``lang``."""
    page = Page(drv, url)
    if ask:
        query = f"{query}&lang={lang}"
    else:
        browser_languages(drv, {"zh-Hans": "zh-CN,zh", "zh-Hant": "zh-TW,zh", "en": "en-US,en"}[lang])
    page.fresh(query)
    assert page.js("return document.documentElement.lang") == lang
    return page


# -- the language of a first visit, the switch and its memory -----------------------------------------

@pytest.mark.parametrize("accept, expected", [
    ("zh-CN,zh", "zh-Hans"), ("zh-SG", "zh-Hans"), ("zh-Hans-CN", "zh-Hans"), ("zh", "zh-Hans"),
    ("zh-TW,zh", "zh-Hant"), ("zh-HK", "zh-Hant"), ("zh-MO", "zh-Hant"), ("zh-Hant", "zh-Hant"),
    ("en-US,en", "en"), ("fr-FR,fr", "en"), ("ja,zh-TW", "zh-Hant")])
def test_first_visit_follows_the_browser(desktop, server, accept, expected):  # noqa: F811
    page = Page(desktop, server)
    browser_languages(desktop, accept)
    page.fresh()
    assert page.js("return [document.documentElement.lang, document.body.dataset.lang]") == [expected, expected]
    assert page.drv.find_element(By.CSS_SELECTOR, "h1 .long").text == CATALOGS[expected]["app.title"]
    page.assert_no_errors()


def test_switch_in_the_lobby_and_the_gear_is_remembered(desktop, server):  # noqa: F811
    drv = desktop
    page = fresh(drv, server, "en")
    assert drv.find_element(By.ID, "btn-start").text == "Start"
    # the lobby's switcher: at once, and kept over a reload
    page.doing(lambda: drv.find_element(By.CSS_SELECTOR, "#lang-lobby option[value='zh-Hant']").click())
    assert page.js("return document.documentElement.lang") == "zh-Hant"
    assert drv.find_element(By.ID, "btn-start").text == CATALOGS["zh-Hant"]["lobby.start"]
    check_chinese(page, "zh-Hant", "the lobby after the switch")
    page.open()
    assert page.js("return document.documentElement.lang") == "zh-Hant", "the choice is remembered"
    # the gear's switcher in a game: the game's words change at once
    page.start(length=5, level="beginner", seed=3)
    page.key(Keys.SPACE)
    page.click("btn-settings")
    page.doing(lambda: drv.find_element(By.CSS_SELECTOR, "#set-lang option[value='zh-Hans']").click())
    page.click("settings-close")
    assert page.js("return document.documentElement.lang") == "zh-Hans"
    check_chinese(page, "zh-Hans", "a game after the switch")
    assert CATALOGS["zh-Hans"]["log.title"] in drv.find_element(By.ID, "log-box").text
    drv.refresh()
    page.wait_ready()
    assert page.screen() == "game" and page.js("return document.documentElement.lang") == "zh-Hans"
    # ?lang= wins over the memory, and is remembered in its turn
    page.open("pace=instant&lang=en")
    assert page.js("return document.documentElement.lang") == "en"
    page.open("pace=instant")
    assert page.js("return document.documentElement.lang") == "en"
    page.open("pace=instant&lang=zh-Hant")
    assert page.js("return document.documentElement.lang") == "zh-Hant"
    page.assert_no_errors()


# -- each language: lobby, guide, a refusal's rule, a whole match ---------------------------------------

def _guide(page, lang, tab):
    page.wait_for(f"return document.body.dataset.guide === '{tab}' && document.body.dataset.overlay === 'help'")
    body = page.drv.find_element(By.ID, f"guide-{tab}")
    assert body.is_displayed()
    return body.text


@pytest.mark.parametrize("lang", LANGS)
def test_lobby_rules_and_glossary(desktop, server, lang):  # noqa: F811
    drv = desktop
    page = fresh(drv, server, lang)
    c = CATALOGS[lang]
    lobby = check(page, lang, "the lobby")
    for key in ("level.beginner", "level.normal", "level.expert", "format.single", "format.match5", "format.match7",
                "lobby.cube"):
        assert c[key] in lobby, key
    assert c["format.money"] not in lobby and c["format.match3"] not in lobby     # they come with the cube
    page.shot(f"i18n-{lang}-lobby")
    # the rules from the lobby, every step there
    page.doing(lambda: drv.find_element(By.CSS_SELECTOR, ".guide-links [data-guide='rules']").click())
    rules = _guide(page, lang, "rules")
    for key in ("rules.1.title", "rules.2.title", "rules.3.title", "rules.4.title", "rules.5.title", "rules.6.title",
                "rules.8.title", "rules.7.title", "rules.leave.title"):
        assert c[key] in rules, key
    assert c["rules.6.4"] in rules
    check(page, lang, "the rules")
    page.shot(f"i18n-{lang}-rules")
    for tab in ("controls", "tips", "glossary"):
        page.doing(lambda tab=tab: drv.find_element(By.ID, f"tab-{tab}").click())
        text = _guide(page, lang, tab)
        check(page, lang, tab)
        if tab == "glossary":
            terms = [c[k] for k in c if re.fullmatch(r"glossary\.\w+\.term", k)]
            assert len(terms) >= 13 and all(t in text for t in terms)
            if lang != "en":
                assert all(t in text for t in TERMS[lang] if t not in ("外盘", "外盤"))
            page.shot(f"i18n-{lang}-glossary")
        if tab == "tips":
            assert len(drv.find_elements(By.CSS_SELECTOR, "#guide-tips li")) >= 8
    page.key(Keys.ESCAPE)
    # ? opens the guide too
    page.doing(lambda: page.drv.find_element(By.TAG_NAME, "body").send_keys("?"))
    assert page.body("overlay") == "help"
    page.key(Keys.ESCAPE)
    # a URL can name a rule
    page.open("pace=instant#rule-5-3")
    assert page.body("guideAnchor") == "rule-5-3" and c["rules.5.3"] in drv.find_element(By.ID, "rule-5-3").text
    page.assert_no_errors()


def _one_die_move(s):
    """Notation that uses one die where both can be played (refused, RULES 3.4)."""
    m = s["moves"]
    for frm, targets in m["destinations"].items():
        for to in targets:
            if int(to) > 0 and int(frm) < 25:
                return f"{frm}/{to}"
    return None


@pytest.mark.parametrize("lang", LANGS)
def test_a_refusal_links_to_its_rule(desktop, server, lang):  # noqa: F811
    drv = desktop
    page = fresh(drv, server, lang)
    page.start(length=1, level="beginner", seed=3)
    for _ in range(10):
        page.to_my_move()
        s = page.state()
        text = _one_die_move(s)
        if text and s["moves"]["legal_plays"] and not s["moves"]["steps"]:
            break
        page.play_dice()
    page.allowed.append(r"/actions .* 409")            # the refusal itself
    field = drv.find_element(By.ID, "notation-text")
    field.send_keys(text)
    page.doing(lambda: drv.find_element(By.CSS_SELECTOR, "#notation button[type=submit]").click())
    box = drv.find_element(By.ID, "error")
    assert box.is_displayed() and box.get_attribute("data-code") in ("must_use_both", "play_illegal", "must_play_more")
    link = box.find_element(By.CSS_SELECTOR, "a.rule-link")
    rule = link.get_attribute("data-rule")
    assert rule == "3.4" and CATALOGS[lang]["error.rule_link"].replace("{rule}", rule) == link.text
    check(page, lang, "a refusal")
    page.doing(link.click)
    assert page.body("overlay") == "help" and page.body("guideAnchor") == "rule-3-4"
    assert CATALOGS[lang]["rules.3.4"] in drv.find_element(By.ID, "rule-3-4").text
    page.key(Keys.ESCAPE)
    page.assert_no_errors()


@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_cubeless_match_by_keyboard_and_drag(desktop, server, lang):  # noqa: F811
    """A 5-point match without the cube, every action a key or a drag: no
    cube drawn, no Double button, the scores 1, 2 or 3 a game; the page's
    words all in ``lang`` at every step."""
    drv = desktop
    page = fresh(drv, server, lang)
    page.start(length=5, level="beginner", seed=11, cube=False)
    assert not page.state()["match"]["cube"]
    games, drags, steps, mid = [], 0, 0, False
    for _ in range(3000):
        st = page.page_state()
        s = page.state()
        steps += 1
        if steps % 4 == 0 or st in ("game-over", "match-over"):
            check(page, lang, f"the match ({st})")
        assert not drv.find_elements(By.CSS_SELECTOR, "#board .cube"), "a cube is drawn"
        assert "double" not in s["actions"] and not drv.find_element(By.ID, "btn-double").is_displayed()
        if st == "match-over":
            break
        if st == "roll":
            page.key(Keys.SPACE)
        elif st == "move":
            m = s["moves"]
            frm, to, _ = max(((int(f), int(t), len(p)) for f, ts in m["paths"].items() for t, p in ts.items()),
                             key=lambda x: (x[1] == 0, x[2], x[0]))
            page.drag(frm, to)
            drags += 1
            if drags == 12 and not mid:
                page.shot(f"i18n-{lang}-mid-game")
                mid = True
        elif st == "end-turn":
            page.key(Keys.ENTER)
        elif st == "answer-resignation":
            page.key("a")
        elif st == "game-over":
            o = s["game"]["outcome"]
            games.append(o["points"])
            assert o["cube"] == 1 and o["points"] in (1, 2, 3)
            if len(games) == 1:
                page.shot(f"i18n-{lang}-game-over")
            page.key(Keys.ENTER)
        else:
            raise AssertionError(f"the page is in state {st}")
    s = page.state()
    assert s["match"]["over"] and max(s["match"]["score"].values()) >= 5, s["match"]
    games.append(s["game"]["outcome"]["points"])
    assert sum(games) == sum(s["match"]["score"].values())
    assert drags > 30
    text = check(page, lang, "the match's end")
    assert CATALOGS[lang]["status.you_won_match" if s["match"]["winner"] == "you" else "status.computer_won_match"] in text
    page.shot(f"i18n-{lang}-match-over")
    page.assert_no_errors()


# -- the phone ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_phone_view(phone, server, lang):  # noqa: F811
    drv = phone
    page = fresh(drv, server, lang, ask=True)        # (the phone's emulation keeps its own languages)
    check_layout(page, f"{lang} lobby")
    check(page, lang, "the phone's lobby")
    page.shot(f"i18n-{lang}-phone-lobby", "window")
    page.start(length=5, level="beginner", seed=3)
    page.key(Keys.SPACE)
    s = page.to_my_move()
    m = s["moves"]
    frm, to = next((int(f), int(t)) for f, ts in m["destinations"].items() for t in ts)
    page.drag(frm, to, touch=True)
    page.key("h")        # the hint (and a key: chromedriver's emulated taps need one after a touch drag)
    check_layout(page, f"{lang} game")
    check(page, lang, "the phone's game")
    # a touch-only screen: no keyboard hints
    assert page.js("return matchMedia('(hover: none) and (pointer: coarse)').matches")
    assert page.js("return Array.from(document.querySelectorAll('.keyhint')).every(e => !e.getClientRects().length)")
    page.shot(f"i18n-{lang}-phone-game", "window")
    page.js("window.scrollTo(0, 0)")                 # the header in view (a drag scrolls the board to the middle)
    page.click("btn-help")
    page.doing(lambda: drv.find_element(By.ID, "tab-rules").click())
    check_layout(page, f"{lang} rules")
    check(page, lang, "the phone's rules")
    page.shot(f"i18n-{lang}-phone-rules", "window")
    page.key(Keys.ESCAPE)
    page.assert_no_errors()


# -- the defects: Resign after an animated turn, every control labelled ---------------------------------

LABELS = r"""
const shown = (el) => !!el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden';
const out = [];
for (const el of document.querySelectorAll('select, input, button')) {
  if (!shown(el) || el.type === 'hidden') continue;
  const byFor = el.id && document.querySelector(`label[for="${el.id}"]`);
  const wrapped = el.closest('label');
  const name = (el.getAttribute('aria-label') || (byFor && byFor.textContent) || (wrapped && wrapped.textContent) ||
                (el.tagName === 'BUTTON' ? el.textContent : '') || '').trim();
  if (!name) out.push(el.id || el.outerHTML.slice(0, 80));
}
return out;
"""


@pytest.mark.parametrize("lang", LANGS)
def test_resign_stays_after_an_animated_turn_and_every_control_is_labelled(desktop, server, lang):  # noqa: F811
    drv = desktop
    page = fresh(drv, server, lang, query="pace=fast")
    assert page.js(LABELS) == [], "controls without a label in the lobby"
    page.start(length=5, level="beginner", seed=3, query="pace=fast", cube=False)
    animated = 0
    for _ in range(3):                       # three of your turns, each followed by the computer's, animated
        page.to_my_move()
        page.play_dice()
        animated += int(page.body("animated") or 0)
        s = page.state()
        if "resign" in s["actions"]:
            assert drv.find_element(By.ID, "btn-resign").is_displayed(), "Resign vanished after the computer's turn"
            assert drv.find_element(By.ID, "resign-level").is_displayed()
            label = drv.find_element(By.CSS_SELECTOR, "label[for='resign-level']")
            assert label.is_displayed() and label.text == CATALOGS[lang]["resign.label"]
    assert animated > 0, "the computer's checkers were never animated"
    assert page.js(LABELS) == [], "controls without a label in the game"
    page.click("btn-settings")
    assert page.js(LABELS) == [], "controls without a label in the settings"
    page.click("settings-close")
    page.assert_no_errors()
