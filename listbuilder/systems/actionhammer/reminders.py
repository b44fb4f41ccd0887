"""ActionHammer's rules reminders (`listbuilder.engine.reminders`): which abilities of our
sample datasheets bear on which tap (a weapon's features, on its weapon line, are not here)."""

from __future__ import annotations

from listbuilder.engine.reminders import FOE, Bearing, Reminders


class ActionHammerReminders(Reminders):
    bearings = (
        Bearing("Fearless", "it never takes a morale test", ("morale",)),
        Bearing("Rally Cry", "once a game, the unit passes a morale test without rolling",
                ("morale",)),
        Bearing("Regenerate", "as it activates, the model gets back 1 lost wound",
                ("activate",)),
        Bearing("Hex", "once an activation, an enemy unit within 18\" in sight is -1 to hit "
                "until it next activates", ("activate",)),
        Bearing("Frenzy", "charging, its melee weapons get +1 Att", ("activate",)),
        Bearing("Stealthy", "shots from more than 18\" away are -1 to hit it", ("wound",)),
        Bearing("Frenzy", "a charge gives its melee weapons +1 Att", ("wound",), FOE),
    )


REMINDERS = ActionHammerReminders()
