"""Writes the small .mat files of tests/data/dialects/: one per dialect of
the programs whose exports read_mat takes (tests/data/README says where
each quirk was seen).  Nothing here is copied from those files: the games
are played here, with random legal plays of this package's move generator
and seeded dice, and written out in each program's layout.

    python tests/data/make_mat_dialects.py      # rewrites tests/data/dialects/*

The files are committed; tests/test_formats_mat_dialects.py reads them
(this script is only needed to regenerate them).
"""
from __future__ import annotations

import os
import random

import backgammon as bg
from backgammon.formats.replay import play_steps

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dialects")


# -- playing -------------------------------------------------------------------------------

# (from, to, hit) single-die steps of a Play, from the mover's side: the writers' own.
steps_of = play_steps


def play_game(rng: random.Random, length: int, score: list, crawford: bool, end: str, turns: int = 0,
              double_at: int = -1, answer: str = "take", level: int = 1) -> dict:
    """One game: items in file order and its result.  ``end``: "board"
    (played out), "drop", "resign" (the side on roll, before rolling),
    "resign-rolled" (after rolling), "resign-moved" (the side that just
    moved, while the other is on roll, as FIBS allows).  ``turns``: resign
    after that many plays; ``double_at``: the play count at which the side
    on roll doubles (answered by ``answer``)."""
    g = bg.Game(seed=rng.randrange(1 << 30))
    items: list = []
    cube, owner, plays = 1, None, 0
    while True:
        if g.phase is bg.Phase.OPENING:
            a, b = rng.sample(range(1, 7), 2)
            g.roll((a, b))
            roller, dice = g.on_roll, (a, b) if g.on_roll == 0 else (b, a)
        else:
            mover = g.on_roll
            may = (not crawford and (owner in (None, mover)) and
                   (not length or score[mover] + cube < length))
            if plays == double_at and may:
                items.append(("double", mover, cube * 2))
                if answer == "drop":
                    items.append(("drop", 1 - mover))
                    return {"items": items, "winner": mover, "points": cube, "how": "drop", "cube": cube}
                items.append(("take", 1 - mover))
                cube, owner = cube * 2, 1 - mover
            if end == "resign" and turns and plays >= turns:
                return {"items": items, "winner": 1 - mover, "points": level * cube, "how": end, "cube": cube}
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            roller = mover
            g.roll(dice)
            if end == "resign-rolled" and turns and plays >= turns and g.phase is bg.Phase.PLAY \
                    and len(g.legal_plays()) > 1:
                items.append(("dice", roller, dice))
                return {"items": items, "winner": 1 - roller, "points": level * cube, "how": end, "cube": cube}
        if g.phase is bg.Phase.PLAY:
            plays_now = g.legal_plays()
            play = plays_now[rng.randrange(len(plays_now))]
            g.play(str(play))
            items.append(("move", roller, dice, steps_of(play), play.position))
        else:
            items.append(("move", roller, dice, [], None))    # no legal play (RULES 3.4)
        plays += 1
        if g.is_over():
            o = g.outcome
            points = o.multiplier * cube
            return {"items": items, "winner": o.winner, "points": points, "how": "board", "cube": cube}
        if end == "resign-moved" and turns and plays >= turns:
            return {"items": items, "winner": 1 - roller, "points": level * cube, "how": end, "cube": cube}


def play_match(seed: int, length: int, plan: list, start=(0, 0), over: bool = True) -> list:
    """Games to a plan of play_game options; each game dict also gets the
    score before it.  With ``over`` (a match) the first seed from ``seed``
    on whose games end the match exactly with the plan's last game."""
    for tried in range(seed, seed + 5000):
        games = _play_match(tried, length, plan, start)
        score = list(games[-1]["score"])
        score[games[-1]["winner"]] += games[-1]["points"]
        before = games[-1]["score"]
        if not (over and length) or (len(games) == len(plan) and max(score) >= length and max(before) < length):
            return games
    raise RuntimeError("no seed gives that match")


def _play_match(seed: int, length: int, plan: list, start) -> list:
    rng = random.Random(seed)
    score, games, reached = list(start), [], length and (length - 1) in start
    for options in plan:
        crawford = bool(length) and not reached and (length - 1) in score
        if crawford:
            reached = True
        game = play_game(rng, length, score, crawford, **options)
        game["score"] = tuple(score)
        games.append(game)
        score[game["winner"]] += game["points"]
        if length and max(score) >= length:
            break
        if length and (length - 1) in score:
            reached = reached or crawford
    return games


# -- writing ---------------------------------------------------------------------------------

def point(p: int, style: str) -> str:
    if style == "xg":
        return "Bar" if p == 25 else "Off" if p == 0 else str(p)
    if style == "studio":
        return "bar" if p == 25 else "off" if p == 0 else str(p)
    return str(p)


def move_text(steps, style: str, rng: random.Random) -> str:
    """The play in a program's notation: single-die steps (25/ and /0), or
    XG's (Bar/22, 6/Off, one checker's whole roll as one step, (2) for
    repeats) or Studio's (bar/21, 6/off, 13/9(2))."""
    if style in ("xg", "studio"):
        chain, merged = list(steps), []
        while chain:
            frm, to, hit = chain.pop(0)
            # one checker's whole roll as one step when it hits nowhere on the way (XG)
            while style == "xg" and not hit and chain and chain[0][0] == to and to != 0:
                _, to, hit = chain.pop(0)
            merged.append(f"{point(frm, style)}/{point(to, style)}{'*' if hit else ''}")
        counted: list = []
        for m in merged:
            if counted and counted[-1][0] == m and not m.endswith("*"):
                counted[-1][1] += 1
            else:
                counted.append([m, 1])
        return " ".join(m if n == 1 else f"{m}({n})" for m, n in counted)
    return " ".join(f"{f}/{t}{'*' if h else ''}" for f, t, h in steps)


def dice_text(dice, rolled_order: bool) -> str:
    a, b = dice if rolled_order else (max(dice), min(dice))
    return f"{a}{b}:"


class Layout:
    """How one program lays out a game: the right column's start, the
    notation, the dice, what a dance and an unplayed roll look like."""

    def __init__(self, right: int = 33, style: str = "plain", rolled_order: bool = False,
                 dance: str = "", unplayed: str = "", pad: bool = False, cube_indent: str = " ",
                 wins_word: str = "points"):
        self.right, self.style, self.rolled_order = right, style, rolled_order
        self.dance, self.unplayed, self.pad, self.cube_indent = dance, unplayed, pad, cube_indent
        self.wins_word = wins_word

    def cell(self, item, rng) -> str:
        kind = item[0]
        if kind == "illegal":
            return f"{dice_text(item[2], self.rolled_order)} Illegal play ({item[3]})"
        if kind == "move":
            text = move_text(item[3], self.style, rng)
            head = dice_text(item[2], self.rolled_order)
            return f"{head} {text}" if text else f"{head}{(' ' + self.dance) if self.dance else ''}"
        if kind == "dice":
            return dice_text(item[2], self.rolled_order) + ((" " + self.unplayed) if self.unplayed else "")
        if kind == "double":
            return f"{self.cube_indent}Doubles => {item[2]}"
        if kind == "concede":
            return f"{self.cube_indent}Concedes"
        return f"{self.cube_indent}{'Takes' if kind == 'take' else 'Drops'}"

    def rows(self, items, rng) -> list:
        rows: list = []
        for item in items:
            player, cell = item[1], self.cell(item, rng)
            if player == 0:
                rows.append([cell, None])
            elif rows and rows[-1][1] is None and rows[-1][0] is not None:
                rows[-1][1] = cell
            else:
                rows.append([None, cell])
        return rows

    def line(self, n: int, left, right) -> str:
        head = f"{n:3d}) "
        if right is None:
            return (head + (left or "")).rstrip() if not self.pad else (head + f"{left or '':<{self.right - 5}}")
        return f"{head}{(left or ''):<{self.right - 6}} {right}"

    def wins(self, points: int, match: bool) -> str:
        word = "point" if points == 1 or self.wins_word == "point" else "points"
        return f"Wins {points} {word}{' and the match' if match else ''}"


def write_game(out: list, number: int, names, game: dict, layout: Layout, rng, length: int,
               capped: bool = False, losses: str = "", sentinel: int | None = None, concede: bool = False,
               wins_on_row: bool = True) -> None:
    """A game in ``layout``.  ``capped``: "Wins" gives what the winner
    needed to reach the length (Galaxy); ``losses``: a Galaxy "Losses N
    point" line for the loser: "row" in its empty cell of the last row,
    "line" on a row of its own with the Wins beside it, "far" the same with
    the Wins far to the right; ``sentinel``: the points "Wins" gives instead
    of the real ones (Studio's 4016, PlayOK's 100); ``concede``: a
    "Concedes" row for a resignation before rolling (Studio, XG)."""
    left = f"{names[0]} : {game['score'][0]}" if names[0] else f": {game['score'][0]}"
    out.append(f" Game {number}")
    out.append(f" {left:<{layout.right - 1}}{names[1] + ' ' if names[1] else ''}: {game['score'][1]}")
    winner, points = game["winner"], game["points"]
    loser = 1 - winner
    items = list(game["items"])
    if concede:
        items.append(("concede", loser))
    rows = layout.rows(items, rng)
    match_won = bool(length) and game["score"][winner] + points >= length
    shown = min(points, length - game["score"][winner]) if capped and match_won else points
    wins = layout.wins(sentinel if sentinel is not None else shown, match_won)
    lost = f"Losses {shown} point"
    if losses == "row" and rows and rows[-1][loser] is not None:
        losses = "line"                                # the loser's cell of the last row is taken
    if losses == "row":
        rows[-1][loser] = layout.cube_indent + lost
    elif losses in ("line", "far"):
        rows.append([layout.cube_indent + lost, None] if loser == 0 else [None, layout.cube_indent + lost])
    for k, (a, b) in enumerate(rows, 1):
        out.append(layout.line(k, a, b))
    last = rows[-1] if rows else [None, None]
    if losses == "far":
        out[-1] = f"{out[-1]:<{layout.right + 35}}{wins}"
    elif wins_on_row and winner == 1 and last[0] is not None and last[1] is None:
        out[-1] = f"{out[-1].rstrip():<{layout.right - 1}} {wins}"
    elif losses == "line" and winner == 1:
        out[-1] = f"{out[-1].rstrip():<{layout.right - 1}} {wins}"
    else:
        out.append((" " * 6 if winner == 0 else " " * (layout.right + 1)) + wins)
    out.append("")


def snowie(after, dice, names) -> str:
    """gnubg's Snowie text dump of the position ``after`` a play (row 0 the
    mover, N; row 1 its opponent, P): 12 fields of match state, N's bar,
    P's points 1-24 (P positive, N negative), P's bar, the dice."""
    n_row, p_row = [int(v) for v in after.array[0]], [int(v) for v in after.array[1]]
    points = [p_row[p - 1] if p_row[p - 1] else -n_row[24 - p] for p in range(1, 25)]
    fields = [0, 0, 1, 0, 0, names[0], names[1], 0, 0, 0, 1, 0, n_row[24], *points, p_row[24], *dice]
    return ";".join(map(str, fields)) + ";"


def write(name: str, text: str, encoding: str = "utf-8", newline: str = "\n", bom: bool = False) -> None:
    data = text.replace("\n", newline).encode(encoding)
    if bom:
        data = b"\xef\xbb\xbf" + data
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def header(tags) -> list:
    return [f'; [{k} "{v}"]' for k, v in tags] + [""]


def main() -> None:
    os.makedirs(HERE, exist_ok=True)

    # Backgammon Galaxy: "Losses" lines (in the loser's cell of the last row, on a row of their
    # own, beside a far Wins), "Wins N point" singular, capped "... and the match", an empty
    # name on a score line, no leading space before "5 point match", bare "64:" dances.
    rng = random.Random(1)
    games = play_match(11, 5, [dict(end="resign", turns=14, double_at=4), dict(end="resign", turns=10),
                               dict(end="resign", turns=9), dict(end="board", double_at=3)])
    lay = Layout(right=33, wins_word="point")
    out = header([("Site", "BackgammonGalaxy"), ("Match ID", "1234567"), ("Player 1", "ann"),
                  ("Player 2", "bob"), ("Player 1 Elo", "3,00/0"), ("Player 2 Elo", "0,00/0"),
                  ("Variation", "Backgammon"), ("Unrated", "Off"), ("Crawford", "On"), ("CubeLimit", "1024")])
    out += ["5 point match", ""]
    for k, (g, losses) in enumerate(zip(games, ["row", "line", "far", ""]), 1):
        write_game(out, k, ("ann", "") if k == 2 else ("ann", "bob"), g, lay, rng, 5, capped=True,
                   losses=losses)
    write("galaxy.txt", "\n".join(out))

    # Backgammon Studio: right column at 40, cells padded, bar/21, 6/off, 13/9(2), "Cannot Move",
    # "????" then a bogus "Wins 4016 point", "Concedes", Latin-1 names.
    rng = random.Random(2)
    games = play_match(22, 5, [dict(end="board"), dict(end="resign", turns=9),
                               dict(end="resign-rolled", turns=12, level=3)])
    lay = Layout(right=40, style="studio", dance="Cannot Move", unplayed="????", pad=True, wins_word="point")
    out = header([("Site", "Backgammon Studio"), ("Match ID", ""), ("Event", "Club night"), ("Round", "1"),
                  ("Player 1", "Jürgen Kümin"), ("Player 2", "Åsa Sahlén"), ("ClockType", "Standard 600/10")])
    out += ["5 point match", ""]
    names = ("vye36", "sahlen")      # nicks on the score lines, Latin-1 names in the header
    write_game(out, 1, names, games[0], lay, rng, 5)
    write_game(out, 2, names, games[1], lay, rng, 5, concede=True)
    write_game(out, 3, names, games[2], lay, rng, 5, sentinel=4016)
    write("studio_latin1.txt", "\n".join(out), encoding="latin-1")

    # XG's own text notation: a byte-order mark, CRLF, right column at 39, Bar/22, 6/Off,
    # 8/4*(2), 24/13 for one checker's whole roll, "Cannot Move", "????", "Concedes".
    rng = random.Random(3)
    games = play_match(33, 3, [dict(end="resign-rolled", turns=16, double_at=5), dict(end="resign", turns=11),
                               dict(end="board")])
    lay = Layout(right=39, style="xg", dance="Cannot Move", unplayed="????", pad=True)
    out = header([("Event", "League"), ("Round", "3"), ("Player 1", "Cleo"), ("Player 2", "Dan"),
                  ("EventDate", "2024.05.01"), ("Variation", "Backgammon"), ("Unrated", "Off"),
                  ("Crawford", "On"), ("CubeLimit", "1024")])
    out += ["3 point match", ""]
    write_game(out, 1, ("Dan", "Cleo"), games[0], lay, rng, 3)
    write_game(out, 2, ("Dan", "Cleo"), games[1], lay, rng, 3, concede=True)
    write_game(out, 3, ("Dan", "Cleo"), games[2], lay, rng, 3)
    write("xg_notation.txt", "\n".join(out), newline="\r\n", bom=True)

    # PlayOK: " 7 point match", names "name,rating", dice in the order rolled, right column 33,
    # and the last game cut inside a move (a truncated export).
    rng = random.Random(4)
    games = play_match(44, 7, [dict(end="board"), dict(end="resign", turns=8), dict(end="board")], over=False)
    lay = Layout(right=33, rolled_order=True)
    out = [" 7 point match", ""]
    write_game(out, 1, ("rook,1529", "nori,1723"), games[0], lay, rng, 7)
    write_game(out, 2, ("rook,1529", "nori,1723"), games[1], lay, rng, 7)
    third: list = []
    write_game(third, 3, ("rook,1529", "nori,1723"), games[2], lay, rng, 7)
    rows = third[:2] + [t for t in third[2:12] if t.strip()]
    cut = next(k for k in range(len(rows) - 1, 2, -1) if " " in rows[k].split(": ", 1)[-1].strip())
    last = rows[cut]
    head, moves = last.split(": ", 1)
    rows = rows[:cut] + [f"{head}: {moves.split(' ')[0]}"]        # "30) 24: 3/1": cut inside the move
    write("playok_truncated.txt", "\n".join(out + rows))

    # DailyGammon (FIBS): no header, " 7 point match", right column 37, "Wins N points";
    # resignations by the side that has just moved, the Wins line in the winner's column.
    rng = random.Random(5)
    games = play_match(55, 7, [dict(end="resign-moved", turns=20), dict(end="drop", double_at=6),
                               dict(end="resign-moved", turns=13, double_at=2)])
    lay = Layout(right=37)
    out = [" 7 point match", ""]
    for k, g in enumerate(games, 1):
        write_game(out, k, ("carol", "dave"), g, lay, rng, 7, wins_on_row=False)
    write("dailygammon.txt", "\n".join(out))

    # A Snowie-style export of a FIBS match (gnubg's layout, right column 33): the loser
    # resigns right after its own move, the Wins line on that row in the winner's column.
    rng = random.Random(6)
    games = play_match(66, 3, [dict(end="resign-moved", turns=11), dict(end="resign-moved", turns=9),
                               dict(end="board")])
    lay = Layout(right=33)
    out = [" 3 point match", ""]
    for k, g in enumerate(games, 1):
        write_game(out, k, ("erin", "finn"), g, lay, rng, 3)
    write("fibs_resign_after_move.mat", "\n".join(out))

    # gnubg (2009): a trailing space after each cell, and "Illegal play (...)": gnubg's Snowie
    # board dump in place of a play it could not write (here the position a legal play reaches).
    rng = random.Random(9)
    games = play_match(99, 3, [dict(end="board"), dict(end="board")])
    lay = Layout(right=33)
    for k, item in enumerate(games[0]["items"]):
        if item[0] == "move" and item[3] and k > 6 and item[1] == 0:
            games[0]["items"][k] = ("illegal", 0, item[2], snowie(item[4], item[2], ("finn", "erin")))
            break
    out = ['; [EventDate "2009.01.02"]', "", " 3 point match", ""]
    for k, g in enumerate(games, 1):
        write_game(out, k, ("erin", "finn"), g, lay, rng, 3)
    out = [t + " " if t[:5].strip().endswith(")") else t for t in out]
    write("gnubg_illegal_play.mat", "\n".join(out))

    # A Raccoon benchmark log: "Money session", a cubeless session, comments inside games.
    rng = random.Random(7)
    games = play_match(77, 0, [dict(end="board"), dict(end="board")], over=False)
    lay = Layout(right=33)
    out = header([("Site", "Raccoon benchmark"), ("Jacoby", "Off"), ("CubeLimit", "1")]) + ["Money session", ""]
    for k, g in enumerate(games, 1):
        write_game(out, k, ("raccoon", "gnubg"), g, lay, rng, 0)
        out.insert(len(out) - 6, "; engine note: 0.4 s for this move")
    write("raccoon_money.txt", "\n".join(out))

    # PlayOK again: a match resumed at 4-3 (the file holds only its later games), ended by
    # the sentinel "Wins 100 points" (a resignation: the lowest level that accounts for it).
    rng = random.Random(8)
    games = play_match(88, 7, [dict(end="board"), dict(end="resign", turns=6, level=3)], start=(4, 3))
    lay = Layout(right=33, rolled_order=True)
    out = [" 7 point match", ""]
    write_game(out, 1, ("gina,1600", "hank,1580"), games[0], lay, rng, 7)
    write_game(out, 2, ("gina,1600", "hank,1580"), games[1], lay, rng, 7, sentinel=100)
    write("playok_resumed.txt", "\n".join(out))


if __name__ == "__main__":
    main()
