"""The renderer reads only the project's static files, and player text stays text."""

from __future__ import annotations

import io
from pathlib import Path

import pdfplumber
import pikepdf
import pytest

from listbuilder.printing.fetcher import STATIC, RefusedURL, StaticFetcher, static_path
from listbuilder.printing.layout import CARD_CSS, STYLES
from listbuilder.printing.options import PrintOptions
from listbuilder.printing.render import print_roster

pytestmark = pytest.mark.print

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = '<img src="file:///etc/passwd"><a rel="attachment" href="/etc/hosts">x</a>'


@pytest.mark.parametrize("url", [
    "http://example.com/style.css",
    "https://example.com/font.ttf",
    "data:text/css,body{color:red}",
    "ftp://example.com/x.css",
    "file:///etc/passwd",
    (STATIC / ".." / "pyproject.toml").as_uri(),
    (STATIC / "css" / ".." / ".." / "README.md").as_uri(),
    (STATIC / "css").as_uri(),  # a folder, not a file
    (STATIC / "fonts" / "LICENSE-DejaVu.txt").as_uri(),  # a static file of a kind never served
])
def test_fetcher_refuses_everything_but_static_files(url: str) -> None:
    fetcher = StaticFetcher()
    with pytest.raises(RefusedURL):
        fetcher.fetch(url)
    assert fetcher.refused == [url]


def test_fetcher_refuses_a_link_out_of_static(tmp_path: Path) -> None:
    static = tmp_path / "static"
    (static / "css").mkdir(parents=True)
    secret = tmp_path / "secret.css"
    secret.write_text("body { color: red }")
    (static / "css" / "link.css").symlink_to(secret)
    with pytest.raises(RefusedURL):
        static_path((static / "css" / "link.css").as_uri(), static)


def test_fetcher_serves_static_files_with_their_type() -> None:
    response = StaticFetcher().fetch((STATIC / "css" / "print.css").as_uri())
    assert response.content_type == "text/css"
    assert b"@font-face" in response.read()


def _attachments(pdf: pikepdf.Pdf) -> list[str]:
    found = []
    names = pdf.Root.get("/Names")
    if names is not None and "/EmbeddedFiles" in names:
        found.append("EmbeddedFiles")
    for page in pdf.pages:
        for annot in page.obj.get("/Annots", []):
            if annot.get("/Subtype") == "/FileAttachment":
                found.append("FileAttachment")
    return found


def _images(pdf: pikepdf.Pdf) -> int:
    return sum(1 for obj in pdf.objects
               if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image")


def test_html_that_asks_for_local_files_gets_nothing() -> None:
    """Even markup that reaches the renderer unescaped can't fetch or attach a file."""
    fetcher = StaticFetcher()
    html = ('<html><head><link rel="attachment" href="file:///etc/hosts"></head><body>'
            '<p>safe</p><img src="file:///etc/passwd"><img src="http://example.com/x.png">'
            '<a rel="attachment" href="file:///etc/hostname">note</a></body></html>')
    with STYLES.borrow() as styles:
        pdf_bytes = styles.document(html, CARD_CSS, fetcher).write_pdf()
    assert "file:///etc/passwd" in fetcher.refused
    assert "http://example.com/x.png" in fetcher.refused
    pdf = pikepdf.open(io.BytesIO(pdf_bytes))
    assert _images(pdf) == 0
    assert _attachments(pdf) == []


def test_a_hostile_name_prints_as_text_and_fetches_nothing(read) -> None:
    loaded = read(f"""
format: 1
system: warstuff
name: '{HOSTILE[:80]}'
points_limit: 150
designs:
  - name: '<img src="file:///etc/passwd">'
    quality: 2
    rules: [Fast]
entries:
  - unit: '<img src="file:///etc/passwd">'
""")
    printed = print_roster(loaded.catalog, loaded.system, loaded.roster,
                           PrintOptions(what="all", duplex="long"))
    assert printed.refused == ()  # escaped markup never even asked for a file
    pdf = pikepdf.open(io.BytesIO(printed.pdf))
    assert _attachments(pdf) == []
    assert _images(pdf) == 0
    with pdfplumber.open(io.BytesIO(printed.pdf)) as doc:
        text = "\n".join(page.extract_text() or "" for page in doc.pages)
    assert '<img src="file:///etc/passwd">' in text  # on the card, its back and the sheet
    assert "root:" not in text
    passwd = Path("/etc/passwd")
    if passwd.exists():
        first = passwd.read_text().splitlines()[0]
        assert first not in text


def test_fetcher_keeps_stylesheets_but_reads_fonts_afresh() -> None:
    """WeasyPrint keeps its own copy of each font it is given, so the fetcher does not keep
    theirs (1.9 MB a process); stylesheets and icons, asked for by every document, it keeps."""
    from listbuilder.printing.fetcher import _read_kept

    fetcher = StaticFetcher()
    _read_kept.cache_clear()
    font = fetcher.fetch((STATIC / "fonts" / "DejaVuSansCondensed.ttf").as_uri())
    sheet = fetcher.fetch((STATIC / "css" / "print.css").as_uri())
    assert font.read()[:4] == b"\x00\x01\x00\x00" and b"@font-face" in sheet.read()
    assert _read_kept.cache_info().currsize == 1
