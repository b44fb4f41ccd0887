"""Home and the collection: the games, this browser's rosters, starting or opening a roster,
and the list link that shows one player's rosters on every device."""

from listbuilder.web.home import lists, views

BLUEPRINTS = (views.bp, lists.bp)
