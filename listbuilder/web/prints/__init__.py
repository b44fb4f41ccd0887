"""Printing from the browser: the print menu, the queue that lays prints out away from the
request, and the cache that keeps each PDF once made."""

from listbuilder.web.prints import views

BLUEPRINTS = (views.bp,)
