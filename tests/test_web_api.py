"""The web server's JSON API through FastAPI's TestClient: whole games and
a whole match against the computer, actions out of turn, fuzzed input."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi) is not installed")
pytest.importorskip("httpx", reason="httpx is needed by the TestClient")

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import backgammon as bg  # noqa: E402
from backgammon.mat import read_mat  # noqa: E402
from backgammon.web import create_app  # noqa: E402
from backgammon.web.server import MAX_BODY  # noqa: E402

ACTIONS = ["roll", "move", "play", "commit", "undo", "double", "take", "drop", "resign", "accept",
           "reject", "hint", "next"]


@pytest.fixture(scope="module")
def app():
    return create_app(max_games=50)


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app) as c:
        yield c


def new(client, **body):
    """A game with the cube unless ``cube=False`` (the API's default is seed 004's game, without it)."""
    body.setdefault("cube", True)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def act(client, state, **body):
    r = client.post(f"/api/games/{state['id']}/actions", json=body)
    assert r.status_code == 200, (body, r.text)
    return r.json()


def refused(client, state, body, statuses=(409,)):
    r = client.post(f"/api/games/{state['id']}/actions", json=body)
    assert r.status_code in statuses, (body, r.status_code, r.text)
    err = r.json()
    assert isinstance(err["error"], str) and err["error"], err
    # every refusal has a stable code for programs (the page says it in the player's language)
    assert isinstance(err["code"], str) and err["code"] and isinstance(err["params"], dict), err
    return err["error"]


def play_turn(client, s):
    """Play the human's dice by clicking like the page: the first checker
    with a legal destination, to its first destination, then confirm."""
    while s["moves"] and not s["moves"]["complete"]:
        dest = s["moves"]["destinations"]
        assert dest, s["moves"]           # a legal play is always reachable
        frm = sorted(dest, key=int)[-1]
        s = act(client, s, action="move", **{"from": int(frm), "to": dest[frm][0]})
    if "commit" in s["actions"]:
        s = act(client, s, action="commit")
    return s


def probe(client, s):
    """Every action the state does not list is refused (4xx) and changes nothing."""
    before = client.get(f"/api/games/{s['id']}").json()
    for name in ACTIONS:
        if name not in s["actions"]:
            refused(client, s, {"action": name, "from": 6, "to": 5, "level": 1}, (409, 422))
    assert client.get(f"/api/games/{s['id']}").json() == before


def play_out(client, s, *, double=False, answer="take", limit=400, seen=None, probe_every=0):
    """Drive the human through the current game until it is over."""
    for step in range(limit):
        if seen is not None:
            seen.append(s)
        if probe_every and step % probe_every == 0:
            probe(client, s)
        a = s["actions"]
        if s["game"]["phase"] == "over":
            return s
        if "take" in a:
            s = act(client, s, action=answer)
        elif "accept" in a:
            s = act(client, s, action="accept")
        elif double and "double" in a:
            s = act(client, s, action="double")
        elif "roll" in a:
            s = act(client, s, action="roll")
        elif "move" in a:
            s = play_turn(client, s)
        else:
            raise AssertionError(f"stuck: {s['game']}, actions {a}")
    raise AssertionError("the game did not end")


def test_whole_money_game(client):
    s = new(client, length=0, level="beginner", side=1, seed=7)
    assert s["you"] == 1 and s["match"]["money"] and s["actions"] == ["roll"]
    assert s["board"]["pips"] == {"you": 167, "computer": 167}
    assert s["game"]["match_id"] and s["game"]["position_id"] == "4HPwATDgc/ABMA"
    seen = []
    s = play_out(client, s, seen=seen, probe_every=9)
    assert s["game"]["outcome"]["points"] >= 1
    assert s["actions"] == ["next"]
    log = [line["text"] for line in s["log"][0]["lines"]]
    assert log[0].startswith("Opening roll")
    assert "win" in log[-1]
    # every state visited showed a board of 15 checkers a side
    for st_ in seen[::7]:
        b = st_["board"]
        for side in ("you", "computer"):
            total = sum(p[side] for p in b["points"]) + b["bar"][side] + b["off"][side]
            assert total == 15
    # the records of the game
    r = client.get(f"/api/games/{s['id']}/mat")
    assert r.status_code == 200 and "point match" in r.text and "attachment" in r.headers["content-disposition"]
    rec = read_mat(r.text, partial=True)
    assert rec.players == ("Computer", "You")
    r = client.get(f"/api/games/{s['id']}/sgf")
    assert r.status_code == 200 and r.text.startswith("(;")
    # the next game of the money session
    s = act(client, s, action="next")
    assert s["match"]["game"] == 2 and s["actions"] == ["roll"]


def _to_crawford(client, seed):
    """A 3-point match where the human gets the cube turned to 2 (doubling,
    or taking the computer's double) and resigns a single: the computer
    then has 2 of 3 points and the next game is the Crawford game.  None
    if the computer passed the double instead."""
    s = new(client, length=3, level="normal", side=0, seed=seed)
    for _ in range(200):
        a = s["actions"]
        if s["game"]["phase"] == "over":
            return None
        if s["game"]["cube"]["value"] == 2 and "resign" in a:
            break
        if "double" in a:
            s = act(client, s, action="double")         # the computer answers at once
            assert any("computer" in m.lower() for m in s["said"])
        elif "take" in a:
            s = act(client, s, action="take")
        elif "roll" in a:
            s = act(client, s, action="roll")
        elif "move" in a:
            s = play_turn(client, s)
        else:
            raise AssertionError(f"stuck: {s['game']} {a}")
    s = act(client, s, action="resign", level=1)
    if s["game"]["phase"] != "over":
        return None      # the computer rejected: it expects more than a single
    return s


def test_whole_three_point_match_with_cube_and_crawford(client):
    for seed in range(1, 8):
        s = _to_crawford(client, seed)
        if s is not None:
            break
    else:
        pytest.fail("no seed reached the Crawford game")
    # the finished game is tagged as itself: not the Crawford game (the next one is)
    assert s["match"]["score"]["computer"] == 2 and s["match"]["crawford"] is False
    assert s["match"]["post_crawford"] is False
    assert s["game"]["outcome"]["ending"] == "resignation" and s["game"]["outcome"]["points"] == 2
    s = act(client, s, action="next")
    assert s["match"]["crawford"] and s["game"]["cube"]["value"] == 1 and s["match"]["game"] == 2
    s = act(client, s, action="roll")
    seen = []
    s = play_out(client, s, double=True, seen=seen)
    turns = [x for x in seen if x["game"]["phase"] == "turn" and x["game"]["turn"] == "you"]
    assert all("double" not in x["actions"] for x in turns)
    assert all(x["match"]["crawford"] for x in seen if x["game"]["phase"] != "over")
    log = s["log"][1]
    assert log["crawford"] is True
    games = 0
    while not s["match"]["over"]:
        games += 1
        assert games < 20
        s = act(client, s, action="next")
        assert not s["match"]["crawford"] and s["match"]["post_crawford"]
        s = play_out(client, s, double=True)
    m = s["match"]
    assert m["winner"] in ("you", "computer")
    assert max(m["score"].values()) >= 3
    assert s["actions"] == []
    refused(client, s, {"action": "next"})
    text = client.get(f"/api/games/{s['id']}/mat").text
    assert " 3 point match" in text
    # resume the finished match from its record
    r = client.post("/api/games", json={"resume": {"format": "mat", "text": text}, "level": "beginner"})
    assert r.status_code == 201, r.text
    again = r.json()
    assert again["match"]["score"] == m["score"] and again["match"]["over"] and again["you"] == 0


def test_the_final_crawford_game_is_tagged_crawford(client):
    """A match that ends in its Crawford game: the game shown, over, is the
    Crawford game, not a game after it (RULES 8.2), in the state and the log."""
    for seed in range(1, 8):
        s = _to_crawford(client, seed)
        if s is not None:
            break
    else:
        pytest.fail("no seed reached the Crawford game")
    s = act(client, s, action="next")
    assert s["match"]["crawford"] and not s["match"]["post_crawford"]
    s = act(client, s, action="roll")
    while s["game"]["phase"] != "over":
        if "resign" in s["actions"]:
            s = act(client, s, action="resign", level=1)      # the computer, at 2 of 3, accepts: the match ends
        elif "accept" in s["actions"]:
            s = act(client, s, action="reject")
        elif "roll" in s["actions"]:
            s = act(client, s, action="roll")
        else:
            s = play_turn(client, s)
    assert s["match"]["over"] and s["match"]["winner"] == "computer"
    assert s["match"]["crawford"] is True and s["match"]["post_crawford"] is False
    assert s["log"][-1]["crawford"] is True and s["log"][-1]["post_crawford"] is False


def test_crawford_double_refused(client):
    s = _to_crawford(client, 1) or _to_crawford(client, 2)
    assert s is not None
    s = act(client, s, action="next")
    s = act(client, s, action="roll")
    while not (s["game"]["phase"] == "turn" and s["game"]["turn"] == "you"):
        s = play_turn(client, s) if "move" in s["actions"] else act(client, s, action="roll")
        if s["game"]["phase"] == "over":
            pytest.skip("the Crawford game ended before the human's turn")
    msg = refused(client, s, {"action": "double"})
    assert "Crawford" in msg


def test_actions_out_of_turn_are_refused(client):
    s = new(client, level="beginner", seed=11)
    for name in ACTIONS:
        if name != "roll":
            refused(client, s, {"action": name, "from": 24, "to": 23, "level": 1}, (409, 422))
    s = act(client, s, action="roll")
    while s["game"]["phase"] != "play":           # a tie, or the computer started and it is our roll
        s = act(client, s, action="roll")
    assert s["game"]["turn"] == "you"
    for name in ("roll", "double", "take", "drop", "accept", "reject", "next", "commit"):
        msg = refused(client, s, {"action": name})
        assert msg
    refused(client, s, {"action": "move", "from": 1, "to": 0})          # against the rules: 409 naming it
    refused(client, s, {"action": "move"}, (422,))                      # missing arguments
    refused(client, s, {"action": "play", "play": "24/1"})
    refused(client, s, {"action": "play", "play": "nonsense"})
    # a partial move, undone step by step
    dest = s["moves"]["destinations"]
    frm = sorted(dest, key=int)[-1]
    moved = act(client, s, action="move", **{"from": int(frm), "to": dest[frm][0]})
    assert moved["moves"]["steps"] == [[int(frm), dest[frm][0]]] and "undo" in moved["actions"]
    refused(client, moved, {"action": "play", "play": "24/18"})        # notation while moves are pending
    back = act(client, moved, action="undo")
    assert back["moves"]["steps"] == [] and back["board"] == s["board"]
    done = play_turn(client, back)
    # undo of the whole last turn: the same dice, to play again
    if "undo" in done["actions"] and done["game"]["phase"] != "over":
        before = done
        undone = act(client, done, action="undo", what="turn")
        assert undone["game"]["phase"] == "play" and undone["game"]["dice"] == s["game"]["dice"]
        assert undone["board"] == s["board"]
        assert before["log"] != undone["log"]
    # a game of someone else is out of reach; ids are long and random
    assert len(s["id"]) >= 20
    r = client.get("/api/games/" + "A" * 24)
    assert r.status_code == 404 and "no such game" in r.json()["error"]
    r = client.get("/api/games/../../etc/passwd")
    assert r.status_code == 404


def test_every_listed_action_is_the_only_allowed_one(client):
    """At states along a game, each action not listed as allowed is refused
    with 4xx and changes nothing."""
    s = new(client, level="beginner", seed=5)
    seen = []
    play_out(client, s, seen=seen)
    gid = s["id"]
    last = client.get(f"/api/games/{gid}").json()
    for name in ACTIONS:
        if name not in last["actions"]:
            refused(client, last, {"action": name, "from": 6, "to": 5, "level": 1}, (409, 422))
    assert client.get(f"/api/games/{gid}").json() == last


def test_hint_and_cube_advice(client):
    s = new(client, level="beginner", seed=2)
    s = act(client, s, action="roll")
    while "move" not in s["actions"]:
        s = act(client, s, action="roll")
    h = act(client, s, action="hint")["hint"]
    assert h["kind"] == "play" and h["plays"] and h["plays"][0]["difference"] == 0
    assert 0 <= h["plays"][0]["probabilities"]["win"] <= 1
    s = play_turn(client, s)
    if "roll" in s["actions"]:
        h = act(client, s, action="hint")["hint"]
        assert h["kind"] == "cube" and h["action"] in bg.cube.ACTIONS


def test_stateless_move_and_evaluate(client):
    r = client.get("/api/move", params={"position": "4HPwATDgc/ABMA", "dice": "31", "player": "net"})
    assert r.status_code == 200
    data = r.json()
    assert data["plays"][0]["play"] == "8/5 6/5" and data["count"] == 16 and data["choice"] == "8/5 6/5"
    assert set(data["plays"][0]["probabilities"]) >= {"win", "win_gammon", "lose_gammon"}
    r = client.get("/api/move", params={"position": "4HPwATDgc/ABMA", "dice": "3-1", "player": "pubeval"})
    assert r.status_code == 200 and r.json()["choice"]
    r = client.get("/api/evaluate", params={"position": "4HPwATDgc/ABMA", "match": "MAGgAAAAAAAE"})
    assert r.status_code == 200
    data = r.json()
    assert data["cube"]["action"] == "no double" and -1 < data["equity"] < 1
    for params in ({"position": "nope", "dice": "31"}, {"position": "4HPwATDgc/ABMA", "dice": "71"},
                   {"position": "4HPwATDgc/ABMA", "dice": "31", "player": "ubgi:/bin/sh"},
                   {"position": "4HPwATDgc/ABMA"}, {"dice": "31"}):
        r = client.get("/api/move", params=params)
        assert 400 <= r.status_code < 500 and r.json()["error"], (params, r.text)
    r = client.get("/api/evaluate", params={"position": "4HPwATDgc/ABMA", "match": "bad"})
    assert r.status_code == 422 and "Match ID" in r.json()["error"]


def test_stateless_calls_read_every_position_code(client):
    """/api/move and /api/evaluate read any code ``formats.codes.read_position``
    reads (Position ID, Position ID:Match ID, XGID, FIBS board line, OGID),
    the dice and the match state from the code where it carries them."""
    pos = bg.Position.initial().legal_plays("31")[0].position.swapped()     # after a play: not symmetric
    state = bg.MatchState(on_roll=1, dice=(6, 2), match_length=5, score=(1, 3))
    xgid = bg.write_xgid(pos, state)
    fibs = bg.write_fibs_board(pos, state)
    assert len(xgid) > 40 and len(fibs) > 100      # longer than the 40 characters once allowed
    # ranked at the code's match state (issue 40): as the bare Position ID with that Match ID
    want = client.get("/api/move", params={"position": pos.to_id(), "dice": "62", "player": "net",
                                           "match": state.to_match_id()}).json()
    assert [p["play"] for p in want["plays"]] == [str(r.play) for r in bg.hint(pos, "62", state=state)]
    ogid = pos.to_ogid(state)
    for code in (xgid, xgid.removeprefix("XGID="), fibs, ogid, f"{pos.to_id()}:{state.to_match_id()}"):
        r = client.get("/api/move", params={"position": code, "player": "net"})     # the dice from the code
        assert r.status_code == 200, (code, r.text)
        got = r.json()
        assert got["position"] == pos.to_id() and got["dice"] == [6, 2], code
        assert got["match"] == state.to_match_id(), code
        assert [p["play"] for p in got["plays"]] == [p["play"] for p in want["plays"]], code
        assert [p["equity"] for p in got["plays"]] == pytest.approx([p["equity"] for p in want["plays"]]), code
        assert got["choice"] == want["choice"]
        r = client.get("/api/move", params={"position": code, "player": "net", "match": "cIkFAAAAAAAE"})
        assert r.status_code == 422 and r.json()["code"] == "match_given_twice", r.text
        r = client.get("/api/evaluate", params={"position": code})                 # the match state from the code
        assert r.status_code == 200, (code, r.text)
        assert r.json()["match"] == bg.MatchState.from_match_id(r.json()["match"]).to_match_id()
        assert bg.MatchState.from_match_id(r.json()["match"]).score == (1, 3), code
        r = client.get("/api/evaluate", params={"position": code, "match": "cIkFAAAAAAAE"})
        assert r.status_code == 422 and r.json()["code"] == "match_given_twice", r.text
    # a bare Position ID carries no roll: the dice must be given
    r = client.get("/api/move", params={"position": pos.to_id()})
    assert r.status_code == 422 and r.json()["code"] == "dice_missing" and "dice" in r.json()["error"]
    # the code's own error, naming the field or listing the forms
    bad_xgid = xgid.replace(":62:", ":72:")
    for code, says in ((bad_xgid, "dice"), ("XGID-...", "is not a position code"), ("nope", "GNU Position ID")):
        r = client.get("/api/move", params={"position": code, "dice": "31"})
        err = r.json()
        assert r.status_code == 422 and err["code"] == "invalid_position" and err["params"] == {"parameter": "position"}
        assert err["error"].startswith("position: ") and says in err["error"], (code, err)
        try:
            bg.read_position(code)
        except ValueError as e:
            assert err["error"] == f"position: {e}"
        else:
            raise AssertionError(f"{code!r} was read")


# gnubg 1.07's 0-ply hint on this position: at double match point 21/10 (+0.417), then 21/15 10/5;
# in money play 13/8 10/4* (+0.890), then 21/10 (-0.009).  Our 0-ply ranks them the same way.
DMP_XGID = "XGID=-ba-aBD-C-A-eD-----e-Aa---:0:0:1:65:6:6:0:7:10"


def test_stateless_move_ranks_at_the_codes_match_score(client):
    """Issue 40, RULES 8: /api/move ranks the plays at the match score the
    position code carries (or ``match``), by cubeful normalised match
    equity as ``hint(state=...)`` and gnubg rank them (at double match
    point gammons count nothing: equity = 2 * win - 1), and ``choice`` is
    the player's play at that score; a bare Position ID is money play,
    cubeless."""
    pos, state = bg.read_xgid(DMP_XGID)
    r = client.get("/api/move", params={"position": DMP_XGID, "player": "net"})
    assert r.status_code == 200, r.text
    dmp = r.json()
    assert dmp["match"] == state.to_match_id()
    assert dmp["plays"][0]["play"] == "21/10" and dmp["choice"] == "21/10"
    for p in dmp["plays"]:
        assert p["cubeful"] and p["equity"] == pytest.approx(2 * p["probabilities"]["win"] - 1, abs=1e-6)
        assert p["mwc"] == pytest.approx(p["probabilities"]["win"], abs=1e-6)
    assert [p["play"] for p in dmp["plays"]] == [str(h.play) for h in bg.hint(pos, "65", state=state)]
    money = client.get("/api/move", params={"position": pos.to_id(), "dice": "65", "player": "net"}).json()
    assert money["match"] is None and money["plays"][0]["play"] == "13/8 10/4*" and money["choice"] == "13/8 10/4*"
    assert not money["plays"][0]["cubeful"] and money["plays"][0]["mwc"] is None
    by_id = client.get("/api/move", params={"position": pos.to_id(), "dice": "65", "player": "net",
                                            "match": state.to_match_id()}).json()
    assert [p["play"] for p in by_id["plays"]] == [p["play"] for p in dmp["plays"]]
    # a code whose double waits for an answer has no play to rank (RULES 7.3)
    r = client.get("/api/move", params={"position": "XGID=-b----E-C---eE---c-e----B-:0:0:1:D:2:1:0:7:10",
                                        "dice": "31"})
    assert r.status_code == 422 and r.json()["error"].startswith("state: a double waits"), r.text


def test_the_games_hint_ranks_at_the_games_score(client):
    """Issue 40: the hint of a game against the computer ranks the plays as
    the analysis grades them and the computer chooses: cubeful at the
    game's cube and score; in a 1-point match (double match point) by
    winning chances alone (RULES 8)."""
    for length, match in ((1, True), (0, False)):
        s = new(client, length=length, seed=3, level="beginner")
        while "move" not in s["actions"]:
            s = act(client, s, action="roll")
        h = act(client, s, action="hint", ply=0)["hint"]
        assert h["kind"] == "play" and h["match"] is match
        assert all(p["cubeful"] for p in h["plays"])
        if match:
            for p in h["plays"]:
                assert p["equity"] == pytest.approx(2 * p["probabilities"]["win"] - 1, abs=1e-6)
        else:
            assert all(p["mwc"] is None for p in h["plays"])


def test_stateless_move_asks_the_player(client):
    """The ranking is searched as deep as the player searches (its ``ply``)
    and ``choice`` is the player's own play: no table of specs in the web."""
    start = bg.Position.initial()
    for spec in ("pubeval", "net", "net:1", "noisy:0.15", "random"):
        chooser = bg.players.player(spec, seed=0)
        r = client.get("/api/move", params={"position": start.to_id(), "dice": "43", "player": spec})
        assert r.status_code == 200, (spec, r.text)
        data = r.json()
        assert data["player"] == chooser.spec
        assert data["plays"][0]["ply"] == chooser.ply, spec     # the best searched at its depth (the rest filtered)
        assert [p["play"] for p in data["plays"]] == [str(h.play) for h in bg.hint(start, "43", chooser.ply)]
        if spec != "random":     # deterministic players: the same play as the player chooses
            assert data["choice"] == str(chooser.choose(start, "43")), spec


def test_limits(app, client):
    r = client.post("/api/games", content=b"{" + b" " * (MAX_BODY + 10) + b"}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 413 and "larger" in r.json()["error"]
    r = client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code in (400, 422) and r.json()["error"]
    r = client.get("/api/move?position=" + "A" * 5000)
    assert r.status_code == 414
    store = app.state.store
    for _ in range(store.limit + 5):
        client.post("/api/games", json={"level": "beginner"})
    assert len(store) == store.limit and store.evicted >= 5
    r = client.get("/static/server.py")
    assert r.status_code == 404
    page = client.get("/")
    assert page.status_code == 200 and "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/docs").status_code == 200 and client.get("/openapi.json").json()["paths"]["/api/move"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
action_bodies = st.fixed_dictionaries(
    {"action": st.sampled_from(ACTIONS) | st.text(max_size=8)},
    optional={"from": json_values, "to": json_values, "play": st.text(max_size=30) | json_values,
              "moves": json_values, "level": json_values, "what": st.sampled_from(["step", "moves", "turn", "x"]),
              "ply": json_values})


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=action_bodies | json_values)
def test_fuzzed_action_bodies_never_500(client, body):
    s = _fuzz_game(client)
    r = client.post(f"/api/games/{s}/actions", json=body)
    assert r.status_code < 500, r.text
    assert r.headers["content-type"].startswith("application/json")
    if r.status_code >= 400:
        assert r.json()["error"]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=json_values | st.fixed_dictionaries({}, optional={
    "length": json_values, "level": st.sampled_from(["beginner", "expert", "x"]) | json_values,
    "side": json_values, "seed": json_values,
    "resume": st.fixed_dictionaries({"format": st.sampled_from(["mat", "sgf", "x"]),
                                     "text": st.text(max_size=80)})}))
def test_fuzzed_new_game_bodies_never_500(client, body):
    r = client.post("/api/games", json=body)
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        assert r.json()["error"]


XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"
OGID = "11ccccchhhjjjjj:66666888dddddoo:N0N::B:IW:0:0:0:0"


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(["/api/move", "/api/evaluate"]),
       params=st.dictionaries(st.sampled_from(["position", "dice", "player", "limit", "match", "ply", "x"]),
                              st.text(max_size=16) | st.sampled_from(["4HPwATDgc/ABMA", "31", "66", "net:2",
                                                                      "MAGgAAAAAAAE", "0", "3", XGID, XGID[:40],
                                                                      "4HPwATDgc/ABMA:cIkFAAAAAAAE", OGID,
                                                                      "board:You:x:3:0:0"]), max_size=5))
def test_fuzzed_query_strings_never_500(client, path, params):
    r = client.get(path, params=params)
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        assert r.json()["error"]


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=st.binary(max_size=200))
def test_raw_bytes_never_500(client, raw):
    s = _fuzz_game(client)
    r = client.post(f"/api/games/{s}/actions", content=raw, headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500 or r.status_code == 200, r.text
    json.loads(r.text)


_FUZZ = {}


def _fuzz_game(client):
    if "id" not in _FUZZ or _FUZZ["id"] not in client.app.state.store._games:
        _FUZZ["id"] = new(client, level="beginner", seed=1)["id"]
    return _FUZZ["id"]


def test_main_warns_off_loopback(monkeypatch, capsys):
    import uvicorn
    import backgammon.web as web
    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append((app, kw)))
    assert web.main("127.0.0.1", 8123, False) == 0
    assert "warning" not in capsys.readouterr().err
    assert calls[-1][1] == {"host": "127.0.0.1", "port": 8123, "log_level": "warning"}
    assert web.main("0.0.0.0", 8124, False) == 0
    assert "warning" in capsys.readouterr().err


def test_answering_the_computers_double(app, client):
    """The computer's double waits for the human: only take, drop and hint."""
    s = new(client, level="normal", side=0)
    session = app.state.store.get(s["id"])
    g = session.game
    g.roll((1, 3))                 # the computer (player 1) starts
    g.play("8/5 6/5")
    g.roll((4, 2))
    g.play("8/4 6/4")
    g.double()                     # as the computer would
    s = client.get(f"/api/games/{s['id']}").json()
    assert s["game"]["phase"] == "doubled" and s["game"]["turn"] == "you"
    assert sorted(s["actions"]) == ["drop", "hint", "take"]
    assert s["game"]["cube"]["offered"] == 2 and s["game"]["cube"]["offered_by"] == "computer"
    for name in ("roll", "double", "move", "play", "commit", "undo", "accept", "reject", "next"):
        refused(client, s, {"action": name, "from": 6, "to": 5})
    h = act(client, s, action="hint")["hint"]
    assert h["kind"] == "take" and h["take"] in ("take", "pass", "beaver")
    s = act(client, s, action="take")
    assert s["game"]["cube"]["value"] == 2 and s["game"]["cube"]["owner"] == "you"
    assert any("computer rolled" in m for m in s["said"])     # the doubler rolls on at once
    if s["game"]["phase"] == "turn":
        assert s["game"]["turn"] == "you" and "double" in s["actions"]     # a redouble, as the owner


def test_loopback_server_answers_only_loopback_hosts():
    with TestClient(create_app(allowed_hosts=["127.0.0.1", "localhost"]), base_url="http://127.0.0.1:8000") as c:
        assert c.get("/").status_code == 200
        r = c.get("/", headers={"host": "evil.example"})
        assert r.status_code == 400 and "evil.example" in r.json()["error"]
        assert c.get("/", headers={"host": "localhost:8000"}).status_code == 200


# -- what another page, a long session and undo may not do --------------------------------------

def test_another_page_cannot_touch_a_players_game():
    # A page on any origin can make a browser POST with no body or a
    # text/plain body (no CORS preflight); such requests change nothing,
    # and a flood of them cannot push the player's game out.
    app = create_app(max_games=1000)
    with TestClient(app) as c:
        mine = new(c, length=5, seed=1)
        codes = set()
        for k in range(1001):
            headers = {"Origin": "http://evil.example"} if k % 2 else {"Content-Type": "text/plain"}
            r = c.post("/api/games", content=b"{}" if k % 3 else b"", headers=headers)
            codes.add(r.status_code)
            assert r.json()["error"]
        assert codes <= {403, 415} and len(app.state.store) == 1
        r = c.post(f"/api/games/{mine['id']}/actions", content=b'{"action": "roll"}',
                   headers={"Content-Type": "text/plain"})
        assert r.status_code == 415
        r = c.post(f"/api/games/{mine['id']}/actions", json={"action": "roll"},
                   headers={"Origin": "http://localhost.evil:8000"})
        assert r.status_code == 403
        assert c.get(f"/api/games/{mine['id']}").json()["game"]["phase"] == "opening"
        # The page itself (same origin, JSON) is served.
        r = c.post(f"/api/games/{mine['id']}/actions", json={"action": "roll"}, headers={"Origin": "http://testserver"})
        assert r.status_code == 200


def test_an_evicted_game_says_so():
    app = create_app(max_games=3)
    with TestClient(app) as c:
        first = new(c, seed=1)
        for seed in range(2, 5):
            new(c, seed=seed)
        r = c.get(f"/api/games/{first['id']}")
        assert r.status_code == 410 and "removed" in r.json()["error"] and "saved copy" in r.json()["error"]
        r = c.post(f"/api/games/{first['id']}/actions", json={"action": "roll"})
        assert r.status_code == 410
        assert c.get("/api/games/" + "x" * 24).status_code == 404


def _long_session_text():
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from test_mat import random_match
    return bg.write_mat(random_match(0, 5, games=42), players=("You", "Computer"))


def test_memory_is_bounded_by_bytes():
    # Resumes of a 42-game money session (about 200 kB each) stay within the byte budget.
    import gc
    from backgammon.web.store import session_bytes
    text = _long_session_text()
    budget = 4 << 20
    app = create_app(max_games=1000, max_bytes=budget)
    store = app.state.store

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * 4096

    with TestClient(app) as c:
        for _ in range(20):
            c.post("/api/games", json={"resume": {"format": "mat", "text": text}})
        gc.collect()
        before = rss()
        for _ in range(60):
            r = c.post("/api/games", json={"resume": {"format": "mat", "text": text}})
            assert r.status_code == 201
        gc.collect()
        grown = rss() - before
        assert store.bytes <= budget and len(store) < 60 and store.evicted > 0
        assert grown < budget + (16 << 20), grown
        # The estimate is close to what a session really holds.
        import tracemalloc
        tracemalloc.start()
        c.post("/api/games", json={"resume": {"format": "mat", "text": text}})
        gc.collect()
        snap = tracemalloc.take_snapshot()
        tracemalloc.stop()
        held = sum(s.size for s in snap.statistics("filename"))
        one = next(reversed(store._games.values()))
        assert 0.4 * held < session_bytes(one) < 2.5 * held


def test_undo_does_not_reroll_the_computers_dice():
    # A game's dice come from its seed in order: an undone turn is replayed
    # with the same dice, so undoing cannot fish for a better computer roll.
    with TestClient(create_app()) as c:
        s = new(c, length=0, seed=11)
        while "move" not in s["actions"]:
            s = act(c, s, action="roll")
        seen = set()
        for _ in range(5):
            after = play_turn(c, s)
            computer = [line for line in after["log"][-1]["lines"] if line["player"] == "computer"]
            seen.add((computer[-1]["text"] if computer else "", tuple(after["game"]["dice"] or ())))
            s = act(c, after, action="undo", what="turn")
            assert s["moves"] is not None
        assert len(seen) == 1, seen
        # Two games with one seed and the same actions see the same dice.
        a, b = new(c, seed=99), new(c, seed=99)
        for _ in range(3):
            a, b = act(c, a, action="roll"), act(c, b, action="roll")
            assert a["game"]["opening"] == b["game"]["opening"] and a["game"]["dice"] == b["game"]["dice"]
            if a["moves"]:
                break


def test_resume_takes_every_match_format(client):
    # issue 19: the web game resumes any file the readers take: another
    # program's .mat dialect as text, SGF, and XG's binary files as base64.
    import base64
    import os
    from test_xg import played_match, xg_bytes
    dialects = os.path.join(os.path.dirname(__file__), "data", "dialects")
    with open(os.path.join(dialects, "galaxy.txt"), "rb") as f:
        galaxy = f.read()
    record = bg.read_mat(galaxy, partial=True)
    r = client.post("/api/games", json={"resume": {"format": "mat", "text": galaxy.decode("utf-8-sig")},
                                        "level": "beginner"})
    assert r.status_code == 201, r.text
    score = r.json()["match"]["score"]
    assert sorted(score.values()) == sorted(record.score) or r.json()["match"]["over"]
    from backgammon.formats.xg import INSTALL, available
    if not available():
        pytest.skip(f"gammonview is not installed: {INSTALL}")
    match = played_match(3, seed=5)
    data = base64.b64encode(xg_bytes(match)).decode()
    r = client.post("/api/games", json={"resume": {"format": "xg", "data": data}, "level": "beginner"})
    assert r.status_code == 201, r.text
    assert sorted(r.json()["match"]["score"].values()) == sorted(match.score)
    r = client.post("/api/games", json={"resume": {"format": "sgf", "data": base64.b64encode(
        bg.write_sgf(match).encode()).decode()}, "level": "beginner"})
    assert r.status_code == 201, r.text
    for body, status in (({"format": "xg", "text": "abc"}, 409), ({"format": "xg", "data": "%%%"}, 409),
                         ({"format": "mat"}, 409), ({"format": "xg", "data": base64.b64encode(b"junk").decode()},
                                                    422)):
        r = client.post("/api/games", json={"resume": body})
        assert r.status_code == status and "error" in r.json(), (body, r.text)


def test_the_analysis_of_the_match_so_far(client):
    # issue 21: the page's "Analyse": each side's figures and every graded
    # decision with the board before it and both plays as steps.
    s = play_out(client, new(client, length=3, level="beginner", seed=11))
    r = client.get(f"/api/games/{s['id']}/analysis")
    assert r.status_code == 200, r.text
    d = r.json()
    assert set(d["stats"]) == {"you", "computer"} and d["ply"] == 0
    plays = [e for e in d["decisions"] if e["kind"] == "play"]
    assert plays, d
    for e in plays:
        assert e["who"] in ("you", "computer") and len(e["board"]["points"]) == 24
        assert sum(p["you"] for p in e["board"]["points"]) + e["board"]["bar"]["you"] + e["board"]["off"]["you"] == 15
        assert e["error"] >= 0 and (e["played"] != e["best"] or e["error"] == 0)
        assert e["best_moves"] and e["played_moves"] and e["turn"] >= 1
    assert client.get(f"/api/games/{s['id']}/analysis?ply=3").status_code == 422
    assert client.get("/api/games/nope/analysis").status_code == 404


def test_the_analysis_carries_gnubg_s_statistics(client):
    # issue 40 item 5: the page's statistics panel shows backgammon.statistics of the same
    # analysis (gnubg's figures, its marks), by side, over the match and per game.
    from backgammon.analysis import analyse
    from backgammon.statistics import GNUBG_MARKS, statistics
    s = play_out(client, new(client, length=3, level="beginner", seed=11, cube=True), double=True)
    d = client.get(f"/api/games/{s['id']}/analysis").json()
    st = d["statistics"]
    record = read_mat(client.get(f"/api/games/{s['id']}/mat").text, partial=True)
    mine = statistics(analyse(record, ply=0, workers=1, players=("You", "Computer")))
    you = 0 if record.players[0] == "You" else 1
    assert st["marks"] == list(GNUBG_MARKS)
    # the summary's marks, which its help texts name, are the analysis's own: gnubg's
    from backgammon.analysis import THRESHOLDS
    assert d["thresholds"] == list(THRESHOLDS) == list(GNUBG_MARKS)
    assert len(st["games"]) == len(mine.games) == d["games"]
    for who, k in (("you", you), ("computer", 1 - you)):
        got, want = st["match"][who], mine.players[k].to_dict()
        assert got.pop("name") in ("You", "Computer") and want.pop("name") in ("You", "Computer")
        assert got == json.loads(json.dumps(want)), who
        for g, h in zip(st["games"], mine.games):
            assert g["score"][who] == h.score[k]
            assert g["players"][who]["unforced_moves"] == h.players[k].unforced_moves
            assert g["players"][who]["error_rate"] == pytest.approx(h.players[k].error_rate)
    assert st["match"]["you"]["doubles"] + st["match"]["computer"]["doubles"] >= 1


def test_resume_a_file_holding_an_illegal_play(client):
    # A resumed file whose play the rules refuse (RULES 3.1): read on as a set board, shown in the
    # log with the rule, and written back by the page's record as gnubg's "Illegal play (...)".
    import os
    path = os.path.join(os.path.dirname(__file__), "data", "dialects", "gnubg_setboard.mat")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    r = client.post("/api/games", json={"resume": {"format": "mat", "text": text}, "level": "beginner"})
    assert r.status_code == 201, r.text
    s = r.json()
    lines = [line for game in s["log"] for line in game["lines"] if line["code"].startswith("set_board")]
    assert [line["code"] for line in lines] == ["set_board_only"]      # gnubg's "Illegal play": no play text
    assert lines[0]["params"]["rule"] == "3" and lines[0]["params"]["dice"] == [3, 1]
    assert "not a legal play (RULES 3)" in lines[0]["text"]
    assert "31: Illegal play (" in client.get(f"/api/games/{s['id']}/mat").text
    # a real match whose play the rules refuse (BGBlitz's .mat export of gammonview's sample): the play
    # as written, and the rule it breaks (RULES 3.1)
    mat = os.path.join(os.path.dirname(__file__), "data", "gammonview", "mat", "5nqfGw9bWG3deTaU.mat")
    with open(mat, encoding="utf-8") as f:
        text = f.read()
    r = client.post("/api/games", json={"resume": {"format": "mat", "text": text}, "level": "beginner"})
    assert r.status_code == 201, r.text
    lines = [line for game in r.json()["log"] for line in game["lines"] if line["code"].startswith("set_board")]
    assert [(line["code"], line["params"]["play"], line["params"]["rule"]) for line in lines] == \
        [("set_board", "14/10 13/12", "3.1")]
    assert lines[0]["text"] == "31: 14/10 13/12 — not a legal play (RULES 3.1): the board set as written"
