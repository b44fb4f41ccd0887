"""WarStuff's rules reminders (`listbuilder.engine.reminders`): which of the 35 special rules
bear on which tap. An activation is the unit's move and its attack (no attack on Recover); a
Wound, a stun or a kill befalls the unit tapped, whose attacker's rules show too."""

from __future__ import annotations

from listbuilder.engine.reminders import FOE, Bearing, Reminders

ACT = ("activate",)
ATTACKING = {"action": ("Hold", "Walk", "Run")}  # a unit that Recovers may not attack
HURT = ("wound", "kill")


class WarStuffReminders(Reminders):
    bearings = (
        Bearing("Fast", "walks up to 9\", runs up to 18\"", ACT),
        Bearing("Slow", "walks up to 3\", runs up to 6\"", ACT),
        Bearing("Flying", "moves over units and obstacles; terrain does not slow it", ACT),
        Bearing("Leader", "three dice as it activates: each 4+ activates one more friend "
                "within 3\"", ACT),
        Bearing("Healer", "may heal a friend within 3\" on a 4+ in place of its attack", ACT,
                when=ATTACKING),
        Bearing("Poison", "each hit's extra die: on 4+ one more Wound (not on Undead)", ACT,
                when=ATTACKING),
        Bearing("Deadly", "each hit's extra die: a 6 kills the target at once", ACT,
                when=ATTACKING),
        Bearing("Fire", "each attack's extra die: on 4+ a Quality 3 attack follows", ACT,
                when=ATTACKING),
        Bearing("Vicious", "its melee target takes D3 more Quality 0 attacks", ACT,
                when=ATTACKING),
        Bearing("Frenzy", "+D3 Quality on each melee attack", ACT, when=ATTACKING),
        Bearing("Power Strike", "+1 Quality attacking in melee", ACT, when=ATTACKING),
        Bearing("Power Shot", "+1 Quality shooting", ACT, when=ATTACKING),
        Bearing("Sweep Attack", "a 6 before each melee attack stuns the target", ACT,
                when=ATTACKING),
        Bearing("Brutal", "a melee kill makes every enemy within 6\" test morale", ACT,
                when=ATTACKING),
        Bearing("Tough", "each hit on it is shrugged off on a 4+", HURT),
        Bearing("Armored", "+1 Quality while it is the target", HURT),
        Bearing("Regeneration", "about to die, it rolls: on 4+ it takes a Wound instead",
                ("kill",)),
        Bearing("Death Blow", "dying, it makes a Quality 0 attack on each enemy within 3\"",
                ("kill",)),
        Bearing("Poison", "each hit's extra die: on 4+ one more Wound (not on Undead)", HURT,
                FOE),
        Bearing("Deadly", "each hit's extra die: a 6 kills at once", HURT, FOE),
        Bearing("Fearless", "it never fails a morale test", ("stun",)),
        Bearing("Undead", "a failed morale test kills it rather than stunning it", ("stun",)),
        Bearing("Sweep Attack", "a 6 before a melee attack stuns", ("stun",), FOE),
        Bearing("Healer", "on a 4+ the friend loses one Wound and may Recover at once",
                ("heal",)),
    )


REMINDERS = WarStuffReminders()
