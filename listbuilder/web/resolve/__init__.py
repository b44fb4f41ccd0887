"""Quick-resolve: what one of the roster's units does to a target, worked out by the game's
resolver and laid out as a panel beside the roster or a page of its own."""

from listbuilder.web.resolve import views

BLUEPRINTS = (views.bp,)
