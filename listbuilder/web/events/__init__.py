"""Events: a club's night, league or tournament (docs/events.md). The organiser's private link
runs it; the public link takes lists in and shows the pairings and standings; each player's
own link plays their table on the tracker; a list's verify code opens its sealed copy."""

from listbuilder.web.events import printed, views

BLUEPRINTS = (views.bp, printed.bp)
