"""Command line: ``python -m domino games|simulate|replay|arena``.

One JSON object on stdout, messages on stderr.  Exit 0 ok, 1 bad record or
illegal action, 2 usage or option error.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from domino.engine.match import IllegalAction, Match
from domino.players import COMPUTER_KINDS, play_turn
from domino.engine.records import ReplayError, from_record
from domino.engine.rules import RulesError, coerce, games_catalogue, make_rules


class UsageError(Exception):
    pass


def _out(obj) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _progress(i: int, n: int, label: str) -> None:
    if sys.stderr.isatty() and n:
        width = 30
        done = int(width * i / n)
        sys.stderr.write(f"\r{label} [{'#' * done}{'.' * (width - done)}] {i}/{n}")
        if i == n:
            sys.stderr.write("\n")
        sys.stderr.flush()


def parse_options(pairs: list[str] | None) -> dict:
    opts = {}
    for p in pairs or []:
        if "=" not in p:
            raise UsageError(f"--option takes key=value, not {p!r}")
        k, v = p.split("=", 1)
        opts[k.strip().replace("-", "_")] = coerce(k.strip().replace("-", "_"), v)
    return opts


def cmd_games(args) -> int:
    _out({"games": games_catalogue()})
    return 0


def play_match(match: Match, kinds: list[str]) -> None:
    while not match.finished:
        if match.phase == "hand-over":
            match.next_hand()
            continue
        play_turn(match, kinds[match.turn])


def cmd_simulate(args) -> int:
    opts = parse_options(args.option)
    rules = make_rules(args.game, players=args.players, **opts)
    kinds = [k.strip() for k in args.seats.split(",")] if args.seats else ["random"] * rules.players
    if len(kinds) != rules.players:
        raise UsageError(f"{rules.players} players need {rules.players} seats, got {len(kinds)}")
    for k in kinds:
        if k not in COMPUTER_KINDS:
            raise UsageError(f"unknown player kind {k!r}; kinds: {', '.join(COMPUTER_KINDS)}")
    seats = [{"name": f"{k} {i}", "kind": k} for i, k in enumerate(kinds)]
    wins = [0] * rules.n_sides
    draws = hands = points = 0
    t0 = time.perf_counter()
    for i in range(args.matches):
        m = Match(rules, seed=args.seed * 1_000_003 + i, seats=seats)
        play_match(m, kinds)
        hands += len(m.records)
        points += sum(p for rec in m.records if rec["result"] for p in rec["result"]["points"])
        w = m.outcome["winner"]
        if w is None:
            draws += 1
        else:
            wins[w] += 1
        _progress(i + 1, args.matches, "matches")
    _out({
        "game": rules.game, "players": rules.players, "seats": kinds, "options": rules.options(),
        "seed": args.seed, "matches": args.matches, "hands": hands,
        "teams": rules.sides if rules.partnership else None,
        "wins": wins, "draws": draws,
        "mean_points_per_hand": round(points / hands, 3) if hands else 0,
        "seconds": round(time.perf_counter() - t0, 3),
    })
    return 0


def replay_summary(m: Match) -> dict:
    hands = [{"end": rec["result"]["end"], "points": rec["result"]["points"],
              "totals": rec["result"]["totals"]} for rec in m.records if rec["result"]]
    return {"hands": hands, "totals": list(m.scores),
            "winner": m.outcome["winner"] if m.outcome else None, "finished": m.finished}


def cmd_replay(args) -> int:
    try:
        with open(args.record, encoding="utf-8") as fh:
            doc = json.load(fh)
    except OSError as exc:
        raise UsageError(f"cannot read {args.record}: {exc}") from None
    except json.JSONDecodeError as exc:
        _out({"hand": None, "index": None, "action": None, "code": "bad-format",
              "message": f"not JSON: {exc}"})
        return 1
    try:
        m = from_record(doc)
    except ReplayError as exc:
        _out(exc.to_json())
        sys.stderr.write(f"hand {exc.hand}, action {exc.index}: {exc.message}\n")
        return 1
    _out(replay_summary(m))
    return 0


def cmd_arena(args) -> int:
    from domino.players.arena import run_arena
    _out(run_arena(args.game, args.players, args.a, args.b, args.deals, args.seed,
                   parse_options(args.option), progress=_progress))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m domino", description="Dominoes engine tools")
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("games", help="list the games and their options")
    g.add_argument("--json", action="store_true", help="JSON output (the only format)")
    s = sub.add_parser("simulate", help="play matches between computer players")
    s.add_argument("--game", required=True)
    s.add_argument("--players", type=int)
    s.add_argument("--seats", help="player kinds, comma separated (random, easy, medium, hard)")
    s.add_argument("--matches", type=int, default=10)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--option", action="append", metavar="KEY=VALUE")
    r = sub.add_parser("replay", help="check a game record")
    r.add_argument("record")
    a = sub.add_parser("arena", help="measure one computer level against another")
    a.add_argument("--game", required=True)
    a.add_argument("--players", type=int)
    a.add_argument("--a", required=True)
    a.add_argument("--b", required=True)
    a.add_argument("--deals", type=int, default=100)
    a.add_argument("--seed", type=int, default=0)
    a.add_argument("--option", action="append", metavar="KEY=VALUE")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return {"games": cmd_games, "simulate": cmd_simulate, "replay": cmd_replay,
                "arena": cmd_arena}[args.cmd](args)
    except (UsageError, RulesError, ValueError) as exc:
        if isinstance(exc, IllegalAction):
            sys.stderr.write(f"illegal action: {exc}\n")
            return 1
        sys.stderr.write(f"error: {exc}\n")
        return 2
