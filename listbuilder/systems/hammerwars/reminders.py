"""Hammer Wars' rules reminders (`listbuilder.engine.reminders`): which of the six special
rules bear on which tap. On a hit the rules are the attacker's: the unit that struck when
the hit names it (a value `by`, as the tracker now records), else every enemy unit that
carries the rule (a log from before, or a hit nobody's action made). A model's own action,
Energy Pulse and Chain Attack remind of its own rule."""

from __future__ import annotations

from listbuilder.engine.reminders import FOE, SELF, Bearing, Reminders

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
        Bearing("Energy Pulse", "the marker goes within 8\"; foes within 2\" of it take a "
                "Dice:1 attack at 5+, then it may move 4\" for a second one", ("pulse",),
                SELF),
        Bearing("Chain Attack", "it moves to a foe within 2\" of the one it killed and "
                "attacks it in melee", ("chain",), SELF),
        Bearing("Rapid Advance", "it may Run 3x its move, but then not into base contact",
                ("activate",), SELF, when={"action": ("Run",)}),
    )


REMINDERS = HammerWarsReminders()
