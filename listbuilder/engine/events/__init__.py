"""Events: a club's night, league or tournament, as plain rules. Who plays whom in a round
(pairing.py) and how the players stand after the rounds played (standings.py); the event's
lists, links and pages are built on these by the store and the web layer (docs/events.md)."""
