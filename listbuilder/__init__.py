"""Listbuilder: army lists and printable cards for one-page tabletop wargames."""

__version__ = "0.1.0"
