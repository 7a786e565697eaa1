"""Test helpers: a match record written in the layouts of the formats gnubg
imports and no program here writes (FIBS oldmoves, GamesGrid .sgg,
TrueMoneyGames .tmg, PartyGammon, BGRoom), as gnubg's import code
documents them, so that gnubg's own reading of real games in each layout
can be compared with ours (tests/test_formats_legacy.py,
tests/data/README).  Not product code: the formats are read, not written,
by the package.
"""
from __future__ import annotations

from backgammon.formats.record import record_items


def _turns(game):
    """Each action of a replayed game as (player, kind, data)."""
    for item in game.items:
        kind = item[0]
        if kind == "move":
            yield item[1], "move", (item[2], item[3])
        elif kind == "dice":
            yield item[1], "dice", item[2]
        elif kind == "double":
            yield item[1], "double", item[2]
        elif kind in ("take", "drop"):
            yield item[1], kind, None
        elif kind == "wins":
            yield item[1], "wins", item[2]


def _own(steps, sep="/"):
    return [f"{'bar' if f == 25 else f}{sep}{'off' if t == 0 else t}" for f, t, _ in steps]


def oldmoves(record) -> str:
    rec, games = record_items(record)
    names = rec.players
    out = []
    for g in games:
        length = f" in a {rec.length} point match." if rec.length else " in a money game."
        out.append(f"Score is {g.score[0]}-{g.score[1]}{length}")
        out.append(f"{names[0]} is X - {names[1]} is O")
        for player, kind, data in _turns(g):
            who = "X" if player == 0 else "O"
            if kind == "move":
                dice, steps = data
                if not steps:
                    out.append(f"{who}: ({dice[0]} {dice[1]}) can't move")
                    continue
                words = []
                for f, t, _ in steps:
                    if player == 1:           # O's points in FIBS's numbering
                        f = f if f == 25 else 25 - f
                        t = t if t == 0 else 25 - t
                    words.append(f"{'bar' if f == 25 else f}-{'off' if t == 0 else t}")
                out.append(f"{who}: ({dice[0]} {dice[1]}) " + " ".join(words))
            elif kind == "dice":
                continue
            elif kind == "double":
                out.append(f"{who}: doubles")
            elif kind == "take":
                out.append(f"{who}: accepts")
            elif kind == "drop":
                out.append(f"{who}: rejects")
            elif kind == "wins":
                out.append(f"{who}: wins {data} point{'s' if data != 1 else ''}")
        out.append("")
    return "\n".join(out) + "\n"


def sgg(record) -> str:
    rec, games = record_items(record)
    names = rec.players
    out = [f"{names[0]} vs. {names[1]}", "Sunday, January 1, 2006", "Crawford: Yes",
           f"Jacoby: {'Yes' if rec.rules.jacoby else 'No'}",
           f"Match Length: {rec.length}" if rec.length else "Doubling Cube: Yes", "Variant: Backgammon"]
    for k, g in enumerate(games, 1):
        s0 = f"{g.score[0]}{'*' if g.crawford and g.score[0] == rec.length - 1 else ''}"
        s1 = f"{g.score[1]}{'*' if g.crawford and g.score[1] == rec.length - 1 else ''}"
        out.append(f"Game {k}. {s0}-{s1}" + (f"/{rec.length}" if rec.length else ""))
        n = 0
        resigner = None
        for player, kind, data in _turns(g):
            if player == 0 or n == 0:
                n += 1
            tabs = "\t" if player == 0 else "\t\t"
            if kind == "move":
                dice, steps = data
                if steps:                 # GamesGrid writes the dice, then the dice and the play
                    out.append(f"{n}{tabs}{dice[0]}{dice[1]}: ")
                    out.append(f"{n}{tabs}{dice[0]}{dice[1]}: {', '.join(_own(steps))}")
                else:
                    out.append(f"{n}{tabs}{dice[0]}{dice[1]}: O-O")
            elif kind == "dice":
                out.append(f"{n}{tabs}{data[0]}{data[1]}: resign")
                resigner = player
            elif kind == "double":
                out.append(f"{n}{tabs}{'Double' if data == 'double' else data.capitalize()}")
            elif kind == "take":
                out.append(f"{n}{tabs}Accept")
            elif kind == "drop":
                out.append(f"{n}{tabs}Pass")
            elif kind == "wins":
                if g.resigned and resigner is None:
                    out.append(f"{n}{chr(9) if player == 1 else chr(9) * 2}Resign")
                out.append(f"{names[player]}  wins {data} point{'s' if data != 1 else ''}.")
        out.append("")
    return "\n".join(out) + "\n"


def tmg(record) -> str:
    rec, games = record_items(record)
    names = rec.players
    out = ["MatchID: 1", f"Player1: 1001 {names[0]} 0.00", f"Player2: 1002 {names[1]} 0.00",
           "Startdate: 2006-01-01 12:00:00", f"Jacoby: {int(rec.rules.jacoby)}", "Beavers: 1", "Crawford: 1", "Cube: 1",
           f"Length: {rec.length}", "Variant: 1"]
    for k, g in enumerate(games, 1):
        out.append(f"Game {k}: {g.score[0]}-{g.score[1]}")
        t = 0
        for player, kind, data in _turns(g):
            t += 1
            turn = f" {t}" if player == 0 else f"-{t}"
            if kind == "move":
                dice, steps = data
                out.append(f"{turn} 1 {dice[0]}{dice[1]}")
                moves = " ".join(f"{f}/{tt}" for f, tt, _ in steps) if steps else "0/0"
                out.append(f"{turn} 4 {moves}")
            elif kind == "dice":
                out.append(f"{turn} 1 {data[0]}{data[1]}")
            elif kind == "double":
                out.append(f"{turn} {5 if data == 'double' else 8} Double")
            elif kind == "take":
                out.append(f"{turn} 7 Take")
            elif kind == "drop":
                out.append(f"{turn} 10 Pass")
            elif kind == "wins":
                out.append(f"{turn} 14 {data} {names[player]} wins {data} point{'s' if data != 1 else ''}")
    return "\n".join(out) + "\n"


def party(record) -> str:
    rec, games = record_items(record)
    names = rec.players
    out = ["boardid=1", "creator=tests", f"MATCHLENGTH={rec.length}"]
    score = [0, 0]
    for k, g in enumerate(games, 1):
        tokens = []
        for player, kind, data in _turns(g):
            side = player + 1
            if kind == "move":
                dice, steps = data
                tokens.append(f"{side} 0 0 {dice[0]}{dice[1]} " + " ".join(_own(steps)))
            elif kind == "double":
                tokens.append(f"{side} Double")
            elif kind == "take":
                tokens.append(f"{side} Take")
            elif kind == "drop":
                tokens.append(f"{side} Drop")
            elif kind == "wins":
                score[player] += data
        out += [f"GAME_{k}_PLAYER_1={names[0]}", f"GAME_{k}_PLAYER_2={names[1]}",
                f"GAME_{k}_GAMEPLAY=" + "#".join(t.rstrip() for t in tokens),
                f"GAME_{k}_SCORE1={score[0]}", f"GAME_{k}_SCORE2={score[1]}"]
    return "\n".join(out) + "\n"


def bgroom(record) -> str:
    rec, games = record_items(record)
    names = rec.players
    out = ["BGF version 1.2", ""]
    for k, g in enumerate(games, 1):
        out += [f"Game {k} - {names[0]} (X) vs. {names[1]} (0)", "Single game"]
        n = 0
        for player, kind, data in _turns(g):
            who = "X" if player == 0 else "0"
            if kind == "move":
                n += 1
                dice, steps = data
                body = " ".join(_own(steps)) if steps else "can't move"
                out.append(f"{n}.{who}:({dice[0]} {dice[1]}) {body}")
            elif kind == "double":
                n += 1
                out.append(f"{n}.{who}:Double")
        out.append("")
    out.append("Win the Match")
    return "\n".join(out) + "\n"


WRITERS = {"oldmoves": oldmoves, "sgg": sgg, "tmg": tmg, "party": party, "bgroom": bgroom}
