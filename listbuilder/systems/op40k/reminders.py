"""One Page 40k's rules reminders (`listbuilder.engine.reminders`): which special rules of our
sample datasheets bear on which tap. A morale test is the tested unit's, a shot or a vehicle
damage roll the unit hit, an assault the unit that charged (its target named by `target`)."""

from __future__ import annotations

from listbuilder.engine.reminders import FOE, FRIENDS, TARGET, Bearing, Reminders

TESTS = ("morale", "rally")  # a morale test, and a fleeing unit's test to activate


class Op40kReminders(Reminders):
    bearings = (
        Bearing("Fearless", "a failed morale test counts as passed", TESTS),
        Bearing("Mob", "10 or more models strong: a failed morale test is rolled again",
                TESTS),
        Bearing("Orders", "once a round, one unit within 12\" of it may roll a failed "
                "morale test again", TESTS, FRIENDS),
        Bearing("Fast", "every move is 3\" longer", ("activate",)),
        Bearing("Heavy", "it shoots only when it holds", ("activate",)),
        Bearing("Furious", "one more die when it strikes in an assault it began",
                ("activate",), when={"action": ("Assault",)}),
        Bearing("Furious", "one more die when it strikes in an assault it began",
                ("assault",)),
        Bearing("Tough", "the defender rolls one more block die", ("assault",), TARGET),
        Bearing("Tough", "one more block die against these hits", ("shot",)),
        Bearing("Sniper", "the shooter chooses which models are taken off", ("shot",), FOE),
        Bearing("Ramshackle", "a hit on its front is rolled as one on its side",
                ("vehicle-damage",)),
    )


REMINDERS = Op40kReminders()
