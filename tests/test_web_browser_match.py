"""A whole 5-point match played through the page by keyboard and drag
only (the test reads the state the page drew to decide which key or drag;
every action is a key press or a pointer drag), against the fast
normal computer (pubeval) with the animation off, with the cube; then the page's record of
it (GET /api/games/{id}/mat) imports into gnubg as the same match: the
same games, each with its score, winner and points."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from selenium.webdriver.common.keys import Keys

from test_web_browser import SHOTS, Page, api, browser, server  # noqa: F401  (fixtures)

GNUBG = textwrap.dedent("""
    import json, sys
    from gnubg import _gnubg
    for command in ("set threads 1", "set confirm new off", "set player 0 human", "set player 1 human"):
        _gnubg.command(command)
    _gnubg.command("import mat " + sys.argv[1])
    m = _gnubg.match(0, 1, 0, 0)
    print("RESULT " + json.dumps({"info": m["match-info"], "games": [g["info"] for g in m["games"]]}))
""")


def gnubg_games(path):
    """gnubg's reading of a .mat file, in a child process (gnubg can hang)."""
    run = subprocess.run([sys.executable, "-c", GNUBG, str(path)], capture_output=True, text=True, timeout=120)
    line = next((ln for ln in run.stdout.splitlines() if ln.startswith("RESULT ")), None)
    assert line, f"gnubg did not read the file: {run.stdout[-2000:]} {run.stderr[-2000:]}"
    return json.loads(line[len("RESULT "):])


#: The match's dice.  The computer (0-ply) and the hint are deterministic, so
#: the match is the same every run: five games, bearing off, doubles and
#: two-dice drags (any seed plays a whole match; this one is a long one).
SEED = 5


def test_a_five_point_match_by_keyboard_and_drag(server, browser, tmp_path):  # noqa: F811
    page = Page(browser, server)
    page.fresh()
    page.start(length=5, level="normal", seed=SEED, cube=True)
    games = []          # per game: the score before it, its winner and points
    drags = combined = bear_offs = doubles = passes = hints = 0
    shot_over = False
    plan = []           # the hint's moves still to drag this turn
    for _ in range(3000):
        st = page.page_state()
        s = page.state()
        if st == "match-over":
            break
        g = s["game"]
        if st == "roll":
            pips = s["board"]["pips"]
            if "double" in s["actions"] and pips["you"] + 10 < pips["computer"]:
                page.key("h")           # the cube advice first
                hints += 1
                page.key("d" if page.state()["hint"]["should_double"] else Keys.SPACE)
                doubles += page.page_state() != "move"
            else:
                page.key(Keys.SPACE)
            plan = []
        elif st == "move":
            m = s["moves"]
            if not m["steps"] and not plan:
                page.key("h")           # the play the hint suggests, dragged move by move
                hints += 1
                plan = [tuple(mv) for mv in (page.state()["hint"] or {}).get("plays", [{}])[0].get("moves", [])]
                continue
            while plan and str(plan[0][1]) not in m["paths"].get(str(plan[0][0]), {}):
                plan.pop(0)             # a move the steps made so far have taken care of
            if len(plan) >= 2 and plan[0][1] == plan[1][0] and \
                    m["paths"].get(str(plan[0][0]), {}).get(str(plan[1][1])) == [list(plan[0]), list(plan[1])]:
                frm, to = plan[0][0], plan[1][1]        # one checker, two dice: one drag
                plan = plan[2:]
            elif plan:
                frm, to = plan.pop(0)
            else:                       # the farthest reach: two dice at once when it can, bearing off first
                frm, to, _ = max(((int(f), int(t), len(p)) for f, ts in m["paths"].items() for t, p in ts.items()),
                                 key=lambda x: (x[1] == 0, x[2], x[0]))
            combined += len(m["paths"][str(frm)][str(to)]) > 1
            bear_offs += to == 0
            page.drag(frm, to)
            drags += 1
        elif st == "end-turn":
            page.key(Keys.ENTER)
            plan = []
        elif st == "answer-double":
            page.key("h")
            hints += 1
            take = page.state()["hint"]["take"] != "pass"
            passes += not take
            page.key("t" if take else "p")
        elif st == "answer-resignation":
            page.key("a")
        elif st == "game-over":
            games.append((s["log"][-1]["score"], g["outcome"]["winner"], g["outcome"]["points"]))
            if not shot_over:
                page.shot("16-game-over")
                shot_over = True
            page.key(Keys.ENTER)
        else:
            raise AssertionError(f"the page is in state {st}: {g} {s['actions']}")
    print(f"{len(games) + 1} games, {drags} drags ({combined} of several dice, {bear_offs} bearing off), "
          f"{hints} hints, {doubles} doubles, {passes} passes")
    s = page.state()
    assert s["match"]["over"], "the match did not finish"
    g = s["game"]
    games.append((s["log"][-1]["score"], g["outcome"]["winner"], g["outcome"]["points"]))
    page.shot("17-match-over")
    assert drags > 30 and combined and bear_offs, (drags, combined, bear_offs)
    final = s["match"]["score"]
    assert max(final.values()) >= 5
    assert [x[0] for x in games] == [lg["score"] for lg in s["log"]]
    page.assert_no_errors()

    # the record, read by gnubg: the same match
    mat = api(server, "GET", f"/api/games/{s['id']}/mat")
    saved = tmp_path / "match.mat"
    saved.write_text(mat)
    (SHOTS.parent / "match-from-the-page.mat").write_text(mat)
    got = gnubg_games(saved)
    info = got["info"]
    assert info["match-length"] == 5
    side = {info["X"]["name"]: "X", info["O"]["name"]: "O"}
    assert set(side) == {"You", "Computer"}, info
    you, comp = side["You"], side["Computer"]
    assert len(got["games"]) == len(games), (got["games"], games)
    for ours, theirs in zip(games, got["games"]):
        score, winner, points = ours
        assert (theirs[f"score-{you}"], theirs[f"score-{comp}"]) == (score["you"], score["computer"]), (ours, theirs)
        assert theirs["winner"] == (you if winner == "you" else comp), (ours, theirs)
        assert theirs["points-won"] == points, (ours, theirs)
