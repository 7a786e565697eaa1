"""The page's three languages and seed 004's game, without a browser: the
catalogs (static/lang-*.json) have the same keys, every key is used by the
page and every key the page uses is in them, every refusal the server can
send has a message, the Traditional catalog has no Simplified-only
character, the seed's terms are there in both scripts; and the API's game
by default: no doubling cube, four levels that are four different players,
dice written larger first in the log and in the files."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi) is not installed")
pytest.importorskip("httpx", reason="httpx is needed by the TestClient")

from fastapi.testclient import TestClient  # noqa: E402

from backgammon.web import create_app  # noqa: E402
from backgammon.web.computer import LEVELS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "python" / "backgammon" / "web" / "static"
LANGS = ("en", "zh-Hans", "zh-Hant")
CATALOGS = {lang: json.loads((STATIC / f"lang-{lang}.json").read_text(encoding="utf-8")) for lang in LANGS}
HTML = (STATIC / "index.html").read_text(encoding="utf-8")
JS = (STATIC / "app.js").read_text(encoding="utf-8")
SOURCES = [ROOT / "python" / "backgammon" / name for name in ("game.py", "match.py", "doubling.py", "turn.py")] + \
    sorted((ROOT / "python" / "backgammon" / "web").glob("*.py"))

# the seed's 13 terms (seed 004's glossary) and the other terms the issue names, in each script
TERMS = {
    "zh-Hans": ["点位", "内盘", "外盘", "吧台", "落单", "打击", "占点", "连续点", "锚", "进场", "移出", "pip 数", "跑棋",
                "单胜", "全胜", "大胜", "加倍骰"],
    "zh-Hant": ["點位", "內盤", "外盤", "吧檯", "落單", "打擊", "佔點", "連續點", "錨", "進場", "移出", "pip 數", "跑棋",
                "單勝", "全勝", "大勝", "加倍骰"],
}


def _server_codes(family: str) -> set[str]:
    """The codes the server can send: refusals (``code="..."``, ApiError's
    third argument, Verdict's third) or notes and log lines (say / line)."""
    codes: set[str] = set()
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        if family == "error":
            literal = r'(?:f?"(?:[^"\\]|\\.)*"\s*)+'          # a message, maybe split over lines
            codes |= set(re.findall(r'code="([a-z0-9_]+)"', text))
            heads = (r"ApiError\([^\"\n]*?,\s*", r"Verdict\(False,\s*", r"send_error\(send,\s*\d+,\s*", r"return \d{3},\s*\(?",
                     r"_need\(Phase\.\w+,\s*", r"return \(?")
            for head in heads:
                codes |= set(re.findall(head + literal + r'\)?,\s*\\?\s*"([a-z0-9_]+)"', text, re.S))
            codes |= set(re.findall(r'\b\d{3}: "([a-z0-9_]+)"', text))            # the HTTP errors' codes
            codes |= set(re.findall(r'Verdict\(False, reason, "([a-z0-9_]+)"\)', text))   # doubling.verdict
            for table in re.findall(r'^CODES = \{(.*?)\}', text, re.M | re.S):        # doubling.CODES
                codes |= set(re.findall(r': "([a-z0-9_]+)"', table))
            # turn.Turn's refusals: (message, "code", {params}) returned to the raise
            codes |= set(re.findall(r'\(RULES [0-9.-]+\)"?\)?,\s*"([a-z0-9_]+)",\s*\{', text))
            codes |= set(re.findall(r'status_code, "([a-z0-9_]+)"|\bor "([a-z0-9_]+)"', text) and
                         [c for pair in re.findall(r'status_code, "([a-z0-9_]+)"|\bor "([a-z0-9_]+)"', text) for c in pair if c])
            codes |= set(re.findall(r'_error\(\d+, (?:str\(exc\)|f"[^"]*"), "([a-z0-9_]+)"', text))
            codes |= set(re.findall(r'Error: "([a-z0-9_]+)"|type\(e\), "([a-z0-9_]+)"', text) and
                         [c for pair in re.findall(r'Error: "([a-z0-9_]+)"|type\(e\), "([a-z0-9_]+)"', text) for c in pair if c])
            codes |= set(re.findall(r'code: str = "([a-z0-9_]+)"', text))
        elif family == "note":
            codes |= set(re.findall(r'say\(said,\s*"([a-z0-9_]+)"', text))
            for a, b in re.findall(r'say\(said,\s*"([a-z0-9_]+)" if [^\n]+? else "([a-z0-9_]+)"', text):
                codes |= {a, b}
        elif family == "log":
            codes |= set(re.findall(r'\bline\([^,\n]+,\s*f?"[^"\n]*",\s*"([a-z0-9_]+)"', text))
            for a, b in re.findall(r'"([a-z0-9_]+)" if ev\.value else "([a-z0-9_]+)"', text):
                codes |= {a, b}
            if "ev.kind, value=cube" in text:
                codes |= {"beaver", "raccoon"}
    return codes


def test_every_catalog_has_every_key():
    keys = {lang: set(c) for lang, c in CATALOGS.items()}
    for lang in LANGS:
        assert keys[lang] == keys["en"], (lang, sorted(keys[lang] ^ keys["en"]))
    for lang, catalog in CATALOGS.items():
        for key, value in catalog.items():
            if isinstance(value, dict):      # a plural: the forms Intl.PluralRules names, "other" always
                assert "other" in value and set(value) <= {"zero", "one", "two", "few", "many", "other"}, (lang, key)
                assert all("{n}" in v or key.startswith("review.candidates") for v in value.values()), (lang, key)
            else:
                assert isinstance(value, str), (lang, key)
            # the same places in every language
            places = lambda v: set(re.findall(r"\{(\w+)\}", json.dumps(v, ensure_ascii=False)))  # noqa: E731
            assert places(value) == places(CATALOGS["en"][key]) or key in ("review.candidates",), (lang, key, value)


def test_every_key_is_used_and_every_key_used_exists():
    """A key is used when index.html names it (data-i18n*) or app.js quotes
    it; the families the page builds from the server's codes (error.*,
    note.*, log.*) are used when the server can send that code."""
    used_html = set(re.findall(r'data-i18n(?:-title|-aria-label|-placeholder)?="([^"]+)"', HTML))
    used_js = set(re.findall(r'"((?:[a-z0-9_]+\.)+[a-z0-9_]+)"', JS)) & set(CATALOGS["en"])
    errors = {f"error.{c}" for c in _server_codes("error")}
    notes = {f"note.{c}" for c in _server_codes("note")}
    logs = {f"log.{c}" for c in _server_codes("log")} - {"log.play", "log.rolled", "log.outcome"}
    assert "error.opening_first" in errors and "note.computer_played" in notes and "log.double" in logs
    page_errors = set(re.findall(r'refusal\("([a-z0-9_]+)"', JS))
    page_notes = set(re.findall(r'code: "([a-z0-9_]+)"', JS))
    used = used_html | used_js | errors | notes | logs | {f"error.{c}" for c in page_errors} | \
        {f"note.{c}" for c in page_notes}
    catalog = set(CATALOGS["en"])
    assert not used_html - catalog, sorted(used_html - catalog)
    assert not errors - catalog, f"refusals the page cannot say: {sorted(errors - catalog)}"
    assert not notes - catalog, sorted(notes - catalog)
    assert not logs - catalog, sorted(logs - catalog)
    unused = catalog - used
    assert not unused, f"keys no page uses: {sorted(unused)}"


def test_no_message_is_built_by_joining_english_words():
    """The page's words are the catalog's: no English sentence in app.js's
    string literals (the old page's "You win " + ... and the like), apart
    from the server's own cube-action words that it looks up."""
    code = re.sub(r"^\s*//.*$|\s//[^\n\"`]*$", "", JS, flags=re.M)
    cube_words = set(re.findall(r'"([a-z ,]+)": "cube\.', JS))
    words = re.findall(r'(?:"|`)((?:[A-Z][a-z]+|[a-z]+) (?:[a-z]+ ){2,}[a-z]+[^"`]*)(?:"|`)', code)
    assert [w for w in words if w not in cube_words] == []


#: Characters that exist only as Simplified forms (their Traditional forms differ), among those a
#: backgammon page uses; none may show in 繁體.  (里, 后, 台, 只 and the like are left out: they are
#: Traditional characters too.)
SIMPLIFIED_ONLY = set("盘单胜击点进场连锚数双陆对认输设语节较实开钮动画显编结们这个为时让样么请吗电脑记录赛难选择"
                      "态键读写转换项传应该说话问题种错误谱档间离终过运气损标计关从还会没经给头边码务网页"
                      "规则术掷领赢应决销确认继续户线护华内标赌币级师阶")


def simplified_forms(hans: dict, hant: dict) -> list[str]:
    """The catalog's short translations (terms, buttons, levels, formats:
    up to 10 characters) whose Simplified form differs from the Traditional."""
    out = []
    for key, a in hans.items():
        b = hant[key]
        if isinstance(a, str) and a != b and 0 < len(a) <= 10 and re.search(r"[\u4e00-\u9fff]", a):
            out.append(a)
    return out


def test_traditional_has_no_simplified_only_form():
    """No Simplified-only character, and no Simplified form of a term or
    label the catalogs translate, in the 繁體 catalog (and no Traditional
    form of one in 简体)."""
    hans, hant = CATALOGS["zh-Hans"], CATALOGS["zh-Hant"]
    text_hant = json.dumps(hant, ensure_ascii=False)
    text_hans = json.dumps(hans, ensure_ascii=False)
    assert sorted({c for c in text_hant if c in SIMPLIFIED_ONLY}) == []
    assert sum(c in SIMPLIFIED_ONLY for c in text_hans) > 500          # the list fits what 简体 uses
    forms = simplified_forms(hans, hant)
    assert len(forms) > 100
    assert [f for f in forms if f in text_hant] == []
    back = [hant[k] for k in hans if isinstance(hans[k], str) and hans[k] != hant[k] and 0 < len(hant[k]) <= 10]
    assert [f for f in back if f in text_hans] == []
    for lang, terms in TERMS.items():
        text = json.dumps(CATALOGS[lang], ensure_ascii=False)
        assert [t for t in terms if t not in text] == [], lang
    assert not [t for t in TERMS["zh-Hans"] if t not in TERMS["zh-Hant"] and t in text_hant]


def test_the_guide_has_the_rules_tips_and_the_glossary_in_each_language():
    for lang, c in CATALOGS.items():
        tips = [k for k in c if re.fullmatch(r"tips\.\d+", k)]
        terms = [k for k in c if re.fullmatch(r"glossary\.\w+\.term", k)]
        rules = [k for k in c if re.fullmatch(r"rules\.\d\.\d", k)]
        assert len(tips) >= 8 and len(terms) >= 13 and len(rules) >= 25, (lang, len(tips), len(terms), len(rules))
        assert all(c[k].strip() for k in tips + terms + rules)
    # every rule a refusal can cite has its paragraph on the page
    cited = set()
    for path in SOURCES:
        cited |= set(re.findall(r'"rule": "(\d+(?:\.\d+)?)"', path.read_text(encoding="utf-8")))
        cited |= set(re.findall(r"RULES (\d+\.\d+)", path.read_text(encoding="utf-8")))
    for rule in cited:
        assert f'id="rule-{rule.replace(".", "-")}"' in HTML, rule


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(max_games=50)) as c:
        yield c


def _play_out(client, s, limit=400):
    """Play a game to its end through the API (the hint's best play each turn)."""
    gid = s["id"]
    for _ in range(limit):
        a = s["actions"]
        if s["game"]["phase"] == "over":
            return s
        if "roll" in a:
            body = {"action": "roll"}
        elif "accept" in a:
            body = {"action": "accept"}
        elif "take" in a:
            body = {"action": "take"}
        else:
            h = client.post(f"/api/games/{gid}/actions", json={"action": "hint", "ply": 0}).json()["hint"]
            body = {"action": "play", "moves": h["plays"][0]["moves"]}
        r = client.post(f"/api/games/{gid}/actions", json=body)
        assert r.status_code == 200, r.text
        s = r.json()
    raise AssertionError("the game did not end")


def test_seed_004_game_by_default_no_cube(client):
    """Without ``cube`` a game has no doubling cube: no double is ever
    allowed, the cube stays at 1, the record says so; gammons still score 2."""
    points = set()
    for seed in range(1, 7):
        s = client.post("/api/games", json={"length": 7, "level": "beginner", "seed": seed}).json()
        assert s["match"]["cube"] is False
        seen = []
        gid = s["id"]
        while s["game"]["phase"] != "over":
            seen.append(s)
            a = s["actions"]
            assert "double" not in a and "take" not in a
            if "roll" in a:
                s = client.post(f"/api/games/{gid}/actions", json={"action": "roll"}).json()
            elif "accept" in a:
                s = client.post(f"/api/games/{gid}/actions", json={"action": "accept"}).json()
            else:
                h = client.post(f"/api/games/{gid}/actions", json={"action": "hint", "ply": 0}).json()["hint"]
                s = client.post(f"/api/games/{gid}/actions", json={"action": "play", "moves": h["plays"][0]["moves"]}).json()
        r = client.post(f"/api/games/{gid}/actions", json={"action": "double"})
        assert r.status_code == 409 and r.json()["code"]
        o = s["game"]["outcome"]
        assert o["cube"] == 1 and o["points"] == o["multiplier"] and o["points"] in (1, 2, 3)
        points.add(o["points"])
        assert all(x["game"]["cube"]["value"] == 1 for x in seen)
        assert '[CubeLimit "1"]' in client.get(f"/api/games/{gid}/mat").text
    assert points & {2, 3}, f"no gammon in six games: {points}"
    # the cube on request
    s = client.post("/api/games", json={"length": 5, "cube": True, "seed": 1}).json()
    assert s["match"]["cube"] is True


def test_a_cubeless_match_resumes_without_the_cube(client):
    s = client.post("/api/games", json={"length": 5, "seed": 3}).json()
    s = _play_out(client, s)
    text = client.get(f"/api/games/{s['id']}/mat").text
    r = client.post("/api/games", json={"resume": {"format": "mat", "text": text}})
    assert r.status_code == 201 and r.json()["match"]["cube"] is False


def test_levels_are_four_different_players(client):
    assert list(LEVELS) == ["beginner", "normal", "expert", "master"]
    assert len(set(LEVELS.values())) == len(LEVELS)
    specs = {}
    for level in LEVELS:
        s = client.post("/api/games", json={"level": level, "seed": 1}).json()
        specs[level] = s["player"]
    assert specs == LEVELS
    for old in ("intermediate", "advanced"):
        r = client.post("/api/games", json={"level": old})
        assert r.status_code == 422 and r.json()["code"] == "invalid_request"


def test_dice_are_written_larger_first_everywhere(client):
    """The log, what is said and the files write each roll larger die first."""
    s = client.post("/api/games", json={"length": 5, "level": "beginner", "seed": 4}).json()
    said, plays = [], 0
    gid = s["id"]
    for _ in range(60):
        if s["game"]["phase"] == "over":
            break
        said += s["said"]
        for n in s["notes"]:
            if "dice" in n["params"]:
                assert n["params"]["dice"][0] >= n["params"]["dice"][1], n
        if s["game"]["dice"]:
            assert s["game"]["dice"][0] >= s["game"]["dice"][1]
        if "roll" in s["actions"]:
            s = client.post(f"/api/games/{gid}/actions", json={"action": "roll"}).json()
        else:
            h = client.post(f"/api/games/{gid}/actions", json={"action": "hint", "ply": 0}).json()["hint"]
            s = client.post(f"/api/games/{gid}/actions", json={"action": "play", "moves": h["plays"][0]["moves"]}).json()
            plays += 1
    rolls = [ln["text"][:2] for g in s["log"] for ln in g["lines"] if re.match(r"\d\d:", ln["text"])]
    assert len(rolls) > 10 and any(r[0] != r[1] for r in rolls)
    assert all(r[0] >= r[1] for r in rolls), rolls
    for line in said:
        for a, b in re.findall(r"(\d)-(\d)", line):
            assert a >= b, line
    mat = client.get(f"/api/games/{gid}/mat").text
    written = re.findall(r"\b(\d)(\d):", mat)
    assert len(written) > 10 and all(a >= b for a, b in written), written
    sgf = client.get(f"/api/games/{gid}/sgf").text
    dice = re.findall(r";[BW]\[(\d)(\d)", sgf)
    assert dice and all(a >= b for a, b in dice)


def test_the_chinese_docs():
    """The docs' Chinese pages: linked from the README and the site's
    navigation, their Python runs, and they name the page's languages,
    formats and levels."""
    zh = ROOT / "docs" / "zh"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for name in ("index", "quickstart", "rules"):          # the home page, the quick start, the rules
        page = "zh/" + name + ".md"
        assert "docs/" + page in readme and page in nav
    for page in sorted(zh.glob("*.md")):
        blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
        exec(compile("\n".join(blocks), str(page), "exec"), {})
    home = (zh / "index.md").read_text(encoding="utf-8")
    for words in ("简体中文", "繁體中文", "单局", "5 分赛", "7 分赛", "使用加倍骰", "入门", "普通", "高手", "真实", "较快"):
        assert words in home, words
    rules = (zh / "rules.md").read_text(encoding="utf-8")
    assert all(t in rules for t in ("点位", "内盘", "吧台", "落单", "打击", "占点", "进场", "移出", "单胜", "全胜", "大胜"))
