"""The roster builder: the page behind a roster's private edit link, every change made on it
(answered with htmx parts or a whole page), and the read-only page behind its share link."""

from listbuilder.web.builder import share, views

BLUEPRINTS = (views.bp, share.bp)
