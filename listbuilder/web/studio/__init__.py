"""The faction studio: a player's own packs (factions, units, chits, goals) made from the
game's schema, their cards as they will print, and the packs a roster uses."""

from listbuilder.web.studio import cards, form_views, roster_packs, views

BLUEPRINTS = (views.bp, form_views.bp, roster_packs.bp, cards.bp)
