"""Issue 41 on the phones: a guest at an honest table sees no warning about the deals; a guest whose host
reveals a seed that does not deal what it saw is told so plainly, in a banner on its table."""
from __future__ import annotations

from domino.app.i18n import t
from domino.app.nodes import find, text_of
from domino.engine.match import Match
from tests.test_friends_session import _play_out, started


def banner(s) -> str:
    got = find(s.screen(), data_testid="net-banner")
    return text_of(got[0]) if got else ""


def test_an_honest_host_shows_the_fingerprint_and_no_warning():
    net, host, g = started(seed="3")
    fp = host.ctrl.match.fingerprint(0)
    line = find(g.screen(), data_testid="log-deal")
    assert line and line[0][1]["data-fingerprint"] == fp and fp in text_of(line[0])
    _play_out(net, ["ana"])
    m = host.ctrl.match
    table = g.link.table
    assert table.deal_warning is None
    assert all(e["checked"] for k, e in table.deals.hands.items() if k < len(m.records) - 1 or m.phase != "play")
    assert t(g.lang, "guest.deal_bad", n=1)[:12] not in banner(g)


def test_a_host_that_reveals_another_seed_is_called_out(monkeypatch):
    real = Match.dealing

    def forged(self, k=None, reveal=False):
        out = real(self, k, reveal)
        if reveal:      # the hostile host shows a seed of another deal than the one it committed to
            out["seed"] = self.deal_seed((self.hand_no if k is None else k) + 9)
        return out

    net, host, g = started(seed="3")
    net.audit = lambda who, to, text: None      # the audit would catch the forged seed first
    monkeypatch.setattr(Match, "dealing", forged)
    _play_out(net, ["ana"])
    w = g.link.table.deal_warning
    assert w is not None and "fingerprint" in w["problems"]
    assert t(g.lang, "guest.deal_bad", n=w["hand"] + 1) in banner(g)
