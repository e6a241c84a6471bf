"""A stateful property test over Session.handle (Hypothesis): in every role
(two tabs of one page, hot-seat, a host with one guest, a host with two
guests) any sequence of inputs (taps on what the screen offers and on what
it does not, form changes, computer moves fresh and stale, timers, the
network's texts replayed and mutated, phones going away and back, another
tab's writes, file imports) leaves no exception out of ``handle``, every
screen drawable, and every save in storage a match that replays
(tests/session_fuzz.py).  CI runs a few hundred steps per role, derandomized;
scripts/fuzz_session.py runs thousands."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from tests.session_fuzz import KINDS, World

EXAMPLES = 6
STEPS = 50
CI = settings(max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))


class Sessions(RuleBasedStateMachine):
    role = "solo"

    def __init__(self):
        super().__init__()
        self.world: World | None = None

    @initialize(seed=st.integers(0, 10**6))
    def start(self, seed):
        self.world = World(self.role, seed)

    @rule(kind=st.sampled_from(KINDS), r=st.integers(0, 2**32 - 1))
    def an_input(self, kind, r):
        self.world.step(kind, random.Random(r))

    @invariant()
    def screens_draw_and_saves_replay(self):
        if self.world is not None:
            self.world.check()


def machine(role: str):
    return type(f"Sessions_{role}", (Sessions,), {"role": role})


TestSolo = settings(CI)(machine("solo")).TestCase
TestHotSeat = settings(CI)(machine("hotseat")).TestCase
TestHostAndGuest = settings(CI)(machine("friends2")).TestCase
TestHostAndTwoGuests = settings(CI)(machine("friends3")).TestCase
