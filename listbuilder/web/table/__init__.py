"""At the table: a match played from each side's phone, its log replayed by the game's rules
of play (engine/match.py), with the odds at hand and a summary after."""

from listbuilder.web.table import views

BLUEPRINTS = (views.bp,)
