"""Hammer Wars' rules reminders (`listbuilder.engine.reminders`): which of the six special
rules bear on which tap. The tracker records no activation, only the lives a hit took, so
every rule here is the attacker's: on a hit it names the unit that struck when the hit says
(a value `by`), else every enemy unit that carries the rule."""

from __future__ import annotations

from listbuilder.engine.reminders import FOE, Bearing, Reminders

HIT = ("hit",)


class HammerWarsReminders(Reminders):
    bearings = (
        Bearing("Ignores Cover", "the target's cover costs it no -1 to hit", HIT, FOE),
        Bearing("Trample Attack", "reaching base contact, it makes a Dice:1* attack that hits "
                "on 4+, no modifiers", HIT, FOE),
        Bearing("Energy Pulse", "once a round, its marker's Dice:1 attack hits on 5+ within "
                "2\", no modifiers", HIT, FOE),
        Bearing("Chain Attack", "a kill in melee lets it move to a foe within 2\" of the "
                "fallen one and strike again, up to 3 times an activation", HIT, FOE),
        Bearing("Hit & Run", "once its melee attack is made it may move up to 4\", not into "
                "contact", HIT, FOE),
    )


REMINDERS = HammerWarsReminders()
