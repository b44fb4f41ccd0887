"""Our card faces' markup parsed by libxml2 (through lxml) instead of WeasyPrint's pure-Python
HTML5 parser, which took a tenth of a card's layout time (23 ms of the 2000 pts roster's
faces, against 2 ms).

The two parsers agree on the markup our card templates write (no tables, whose rows an HTML5
parser wraps in a tbody, no inline SVG or MathML, which it puts in namespaces):
tests/printing/test_markup.py parses every face of every example roster, deck and chit pile
both ways and compares the trees. Roster and rules sheets hold tables and keep WeasyPrint's
parser, as does the straight-through reference the print benchmark measures against.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import lxml.html


def parse_html(html: str) -> ET.Element:
    """The document's root as the ElementTree WeasyPrint lays out: elements, attributes and
    text as an HTML5 parser gives them (comments dropped, their neighbours' text kept)."""
    root = lxml.html.document_fromstring(html)
    tree = ET.Element(root.tag, dict(root.attrib))
    _copy_children(root, tree)
    return tree


def _copy_children(source: lxml.html.HtmlElement, target: ET.Element) -> None:
    target.text = source.text
    for child in source:
        if isinstance(child.tag, str):
            copy = ET.SubElement(target, child.tag, dict(child.attrib))
            _copy_children(child, copy)
            copy.tail = child.tail
        elif child.tail:  # a comment: the text after it still belongs here
            if len(target):
                last = target[-1]
                last.tail = (last.tail or "") + child.tail
            else:
                target.text = (target.text or "") + child.tail
