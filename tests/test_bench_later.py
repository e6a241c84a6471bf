"""scripts/bench_later.py's quick (CPython) part, for 2 moves: so that the benchmark cannot rot.  Its numbers
are sane: every move published something, under 64 KiB, in 1 to 10 events, and the relay holds one event per
d tag (a state, a view, an action)."""
from __future__ import annotations

import bench_later  # tests/conftest.py puts scripts/ on sys.path


def test_the_bytes_per_move_of_a_match_when_you_can_are_measured():
    res = bench_later.measure_bytes(moves=2)
    assert res["moves"] == 2 and len(res["rows"]) == 2
    for row in res["rows"]:
        assert 1 <= row["events"] <= 10, row
        assert 0 < row["content"] < row["json"] < 64 * 1024, row
        assert row["host_json"] > 0, row        # every move gives a new state (and a view)
        assert row["json"] == row["host_json"] + row["friends_json"]
        assert 1 <= row["held_events"] <= 3 and 0 < row["held_json"] < 64 * 1024, row
    by = {row["by"].split()[0] for row in res["rows"]}
    assert by == {"host", "friend"}, by          # the two moves are one of each
    friend = next(r for r in res["rows"] if r["by"].startswith("friend"))
    assert friend["friends_json"] > 0 and friend["events"] == 3     # its action, then the host's state and view
    assert set(res["held_at_end"]) == {"state", "view", "act"}
    bench_later.print_bytes(res)       # the printing runs too
