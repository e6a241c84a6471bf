"""Command line: ``python -m domino games|simulate|replay|arena|check-deal``.

One JSON object on stdout, messages on stderr.  Exit codes:

- 0: done (``check-deal``: the seed matches the fingerprint);
- 1: a bad record or an illegal action: stdout holds the JSON error
  ``{"hand", "index", "action", "code", "message"}`` (``code`` is one of
  :data:`domino.engine.match.CODES`; a file that is not JSON, too large or
  nested too deep is ``bad-format``); ``check-deal``: the seed does not
  match the fingerprint;
- 2: a usage or option error (unknown game, option value the game does not
  allow, unreadable file): a message on stderr, nothing on stdout;
- 3: an internal error (a bug): stdout holds ``{"code": "internal", ...}``.

No input makes it print a traceback.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from domino.engine.match import IllegalAction, Match
from domino.players import COMPUTER_KINDS, play_turn
from domino.engine.records import ReplayError, from_record, to_record, load_json
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
        key = k.strip().replace("-", "_")
        if key == "players":
            raise UsageError("the number of players is --players, not an --option")
        opts[key] = coerce(key, v)
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
    if args.records:
        try:
            os.makedirs(args.records, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"cannot write records to {args.records}: {exc}") from None
    wins = [0] * rules.n_sides
    draws = hands = points = 0
    t0 = time.perf_counter()
    for i in range(args.matches):
        m = Match(rules, seed=args.seed * 1_000_003 + i, seats=seats)
        play_match(m, kinds)
        if args.records:
            path = os.path.join(args.records, f"{rules.game}-{args.seed}-{i}.json")
            with open(path, "w", encoding="utf-8") as fh:
                json.dump(to_record(m), fh, ensure_ascii=False)
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
        with open(args.record, "rb") as fh:
            data = fh.read(MAX_FILE + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {args.record}: {exc}") from None
    try:
        m = from_record(load_json(data))
    except ReplayError as exc:
        _out(exc.to_json())
        sys.stderr.write(f"hand {exc.hand}, action {exc.index}: {exc.message}\n")
        return 1
    _out(replay_summary(m))
    return 0


MAX_FILE = 4_000_000


def cmd_arena(args) -> int:
    from domino.players.arena import run_arena
    _out(run_arena(args.game, args.players, args.a, args.b, args.deals, args.seed,
                   parse_options(args.option), progress=_progress))
    return 0


def deal_of(rules, seed: str, hand: int, redeals: int | None, apart: list[str]) -> dict:
    """The deal ``seed`` makes under ``rules`` (hand ``hand`` of the match), as the engine deals it."""
    from domino.engine import deals, tiles
    from domino.engine.row import ROW_SIZES
    n = rules.n_tiles
    set_apart = [tiles.Tile.parse(x).id for x in apart]
    if rules.shape == "trains" and not rules.holder_starts and not apart:
        set_apart = [tiles.Tile(rules.first_double - hand, rules.first_double - hand).id]
    if rules.shape == "row":
        sizes = [ROW_SIZES[rules.players]] * rules.players
    else:
        sizes = [rules.hand_size] * rules.players
    if redeals is None:     # as the rules call for (a later round of the foot or the trains: give --redeals)
        rule = deals.redeal_rule(rules, deals.allowed_doubles(rules, hand, []) if hand == 0 else None)
        redeals = 0
        while rule is not None and rule(deals.deal_from(seed, redeals, n, sizes, set_apart)[0]):
            redeals += 1
    hands, bone = deals.deal_from(seed, redeals, n, sizes, set_apart)
    if rules.shape != "row":
        hands = [sorted(hd) for hd in hands]
    out = {"redeals": redeals, "apart": [tiles.NAMES[t] for t in set_apart],
           "hands": [[tiles.NAMES[t] for t in hd] for hd in hands],
           "boneyard": [tiles.NAMES[t] for t in bone]}
    random_first = (rules.shape == "line" and rules.first_opener == "random") or rules.shape == "row" \
        or (rules.shape == "trains" and not rules.holder_starts)
    if hand == 0 and random_first:       # the first hand's random opener, drawn from the deal's seed
        out["opener"] = deals.random_seat(seed, redeals, rules.players)
    return out


def cmd_check_deal(args) -> int:
    from domino.engine import deals
    seed, fp = args.seed.strip().lower(), args.fingerprint.strip().lower()
    if not deals.is_seed(seed):
        raise UsageError(f"a deal seed is {deals.SEED_HEX} hex digits, not {args.seed!r}")
    ok = deals.fingerprint(seed) == fp
    out: dict = {"seed": seed, "fingerprint": fp, "computed": deals.fingerprint(seed), "matches": ok}
    if args.game:
        rules = make_rules(args.game, players=args.players, **parse_options(args.option))
        if args.hand < 0 or (args.redeals is not None and args.redeals < 0):
            raise UsageError("--hand and --redeals count from 0")
        out.update(game=rules.game, players=rules.players, hand=args.hand,
                   **deal_of(rules, seed, args.hand, args.redeals, args.apart or []))
    _out(out)
    sys.stderr.write("the seed matches the fingerprint\n" if ok else "the seed does NOT match the fingerprint\n")
    return 0 if ok else 1


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
    s.add_argument("--records", metavar="DIR",
                   help="write every match as a record file DIR/<game>-<seed>-<i>.json (replay reads it)")
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
    c = sub.add_parser("check-deal", help="check a hand's deal seed against its fingerprint (and show its deal)")
    c.add_argument("seed", help="the hand's deal seed (shown in the review once the hand is over)")
    c.add_argument("fingerprint", help="the fingerprint shown when the hand was dealt")
    c.add_argument("--game", help="also print the deal the seed makes in this game")
    c.add_argument("--players", type=int)
    c.add_argument("--hand", type=int, default=0, help="the hand's number from 0 (Mexican Train: the round's engine)")
    c.add_argument("--redeals", type=int, help="the redeals before this deal (default: as the rules call for)")
    c.add_argument("--apart", action="append", metavar="TILE", help="a tile left out of the deal (a round's engine)")
    c.add_argument("--option", action="append", metavar="KEY=VALUE")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return {"games": cmd_games, "simulate": cmd_simulate, "replay": cmd_replay,
                "arena": cmd_arena, "check-deal": cmd_check_deal}[args.cmd](args)
    except IllegalAction as exc:
        sys.stderr.write(f"illegal action: {exc}\n")
        return 1
    except (UsageError, RulesError, ValueError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    except Exception as exc:  # a bug: still one JSON line, never a traceback
        _out({"code": "internal", "message": f"{type(exc).__name__}: {str(exc)[:300]}"})
        sys.stderr.write(f"internal error: {type(exc).__name__}: {exc}\n")
        return 3
