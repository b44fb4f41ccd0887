"""WeasyPrint is imported without its library search (listbuilder/printing/weasy.py): no
ldconfig, gcc or ld run at import, its libraries still open, and a system where only the
search finds them still gets them. Each case runs in a fresh interpreter, as the import is
once per process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.print

REPORT = """
import ctypes.util, json, sys
from weasyprint.text import ffi

print(json.dumps({"spawned": spawned, "pango": ffi.pango is not None,
                  "fontconfig": ffi.fontconfig is not None,
                  "find_library_back": ctypes.util.find_library is real}))
"""


def run(code: str) -> tuple[dict[str, object], str]:
    done = subprocess.run([sys.executable, "-c", code + REPORT], cwd=ROOT, capture_output=True,
                          text=True, check=True, timeout=120)
    *before, last = done.stdout.strip().splitlines()
    return json.loads(last), "\n".join(before)


WATCH = """
import ctypes.util, sys
real = ctypes.util.find_library
spawned = []
sys.addaudithook(lambda event, args: spawned.append(str(args[0]))
                 if event == "subprocess.Popen" else None)
"""


def test_importing_the_renderer_runs_no_program_and_opens_weasyprints_libraries() -> None:
    found, printed = run(WATCH + "import listbuilder.printing.render\n")
    assert found == {"spawned": [], "pango": True, "fontconfig": True,
                     "find_library_back": True}
    assert printed == ""


def test_without_the_search_weasyprint_alone_runs_ldconfig_gcc_and_ld() -> None:
    """What the module saves: WeasyPrint imported directly looks each name up with programs
    (if this starts to fail, a WeasyPrint release stopped searching: weasy.py can go)."""
    found, _ = run(WATCH + "import weasyprint\n")
    assert any("ldconfig" in program for program in found["spawned"])  # type: ignore[union-attr]


def test_a_library_only_the_search_finds_is_still_found() -> None:
    """The loader refuses every name while the search is off (as on a system whose
    libraries are outside the loader's paths): the import is tried again with the search,
    and WeasyPrint's installation advice from the first try is not shown."""
    refuse = WATCH + """
import cffi
loader = cffi.FFI.dlopen
def dlopen(self, name, flags=0):
    if ctypes.util.find_library is not real:
        raise OSError("not on the loader's paths: " + str(name))
    return loader(self, name, flags)
cffi.FFI.dlopen = dlopen
import listbuilder.printing.weasy
"""
    found, printed = run(refuse)
    assert found["pango"] and found["fontconfig"] and found["find_library_back"]
    assert found["spawned"], "the second try searched as WeasyPrint does"
    assert "could not import" not in printed and printed == ""


def test_font_subsetting_arrays_add_no_c_type_a_glyph_count() -> None:
    """WeasyPrint builds `hb_codepoint_t[n]` arrays, n the font's glyph count: each new n was a
    C type cffi parsed (about 2 ms) and kept. The module gives it the open-length type instead:
    the same values, and no type more, whatever the count."""
    from weasyprint.text.ffi import ffi

    import listbuilder.printing.weasy  # noqa: F401

    ffi.new("hb_codepoint_t[2]", [1, 2])  # the open-length type is parsed once, here
    kept = len(ffi._parsed_types)
    for n in (61, 5041, 777):
        values = list(range(3, 3 + n))
        array = ffi.new(f"hb_codepoint_t[{n}]", values)
        assert len(array) == n and list(array) == values
    assert len(ffi._parsed_types) == kept
    # a length other than the values' keeps cffi's own meaning: zeros after them
    padded = ffi.new("hb_codepoint_t[4]", [7])
    assert list(padded) == [7, 0, 0, 0]


def test_weasyprint_still_names_its_subsetting_arrays_by_length() -> None:
    """Why the shim above is there (if this fails, a WeasyPrint release stopped doing it and
    `_open_arrays` can go)."""
    import inspect

    from weasyprint.pdf import fonts

    assert "ffi.new(f'hb_codepoint_t[{len(" in inspect.getsource(fonts)


def test_fontconfigs_default_is_empty_and_weasyprints_own_still_has_the_machines_fonts() -> None:
    """Pango applies fontconfig's default configuration at every new text size: the renderer
    makes it an empty one (see weasy.py), while the configuration WeasyPrint lays out with
    keeps the machine's fonts for characters ours lack."""
    code = """
import json
from listbuilder.printing.layout import STYLES, CARD_CSS
from weasyprint.text.ffi import ffi, fontconfig
def fonts(config):
    found = fontconfig.FcConfigGetFonts(config, fontconfig.FcSetSystem)
    return 0 if found == ffi.NULL else found.nfont
with STYLES.borrow() as styles:
    styles.get(CARD_CSS)
    theirs = styles.fonts._config
print(json.dumps({"default": fonts(ffi.NULL), "weasyprint": fonts(theirs)}))
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True, timeout=120)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["default"] == 0
    assert found["weasyprint"] > 0
