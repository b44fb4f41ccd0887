"""Space Empires' rules reminders (`listbuilder.engine.reminders`). A chit prints no special
rules, only type letters; what those letters do in a battle are the game's own rules
(Leader Bonus, Bombardment…), so a chit's rules here are the ones its kind is bound by, and a
tap names its chit by the value `chit`, not by a number."""

from __future__ import annotations

from listbuilder.engine.match import Event
from listbuilder.engine.model import Unit
from listbuilder.engine.reminders import Bearing, Reminders
from listbuilder.systems.spaceempires.model import Chit

BATTLE = ("join",)
LOST = ("lose",)


class SpaceEmpiresReminders(Reminders):
    bearings = (
        Bearing("Leader Bonus", "a stack with a Leader has +5 Force against one without",
                BATTLE),
        Bearing("Bombardment", "on the ground it fights only with the invaders, at half "
                "its Force", BATTLE),
        Bearing("Transports", "in space it rides a transport: Force 0, and no card bonus",
                BATTLE),
        Bearing("Fortifications", "it never moves, and falls if its stack is beaten", BATTLE),
        Bearing("Space Casualties", "ships go before transports in space", LOST),
        Bearing("Bombardment", "a bombarding ship is lost last of its stack", LOST),
        Bearing("Destroyed and Captured", "a Leader taken is kept out of play, not returned "
                "to the pile", LOST),
        Bearing("Fortifications", "it falls at once when its stack is beaten", LOST),
    )

    by_catalog_name = True  # most chits in play were dealt at setup, not recruited

    def rules(self, sheet: Unit) -> tuple[str, ...]:
        if not isinstance(sheet, Chit):
            return ()
        names = ["Leader Bonus", "Destroyed and Captured"] if sheet.is_leader else []
        names += ["Space Casualties", "Bombardment"] if sheet.is_space else ["Transports"]
        if sheet.fortification:
            names.append("Fortifications")
        return tuple(names)

    def names(self, ev: Event) -> int | str | None:
        chit = ev.get("chit")
        return chit if isinstance(chit, str) else None


REMINDERS = SpaceEmpiresReminders()
