"""A pack's link in a roster file is the pack's share link from a faction studio and nothing
else (docs/roster-format.md): a file that sets it to a `javascript:` address or another site's
page is refused, naming the file, line and field, and a roster stored before links were
checked keeps no such link (its packs page would have shown it as "the pack's page")."""

from __future__ import annotations

import json

import pytest
import yaml

from listbuilder.engine.library import Library
from listbuilder.engine.model import PackUse, Roster
from listbuilder.engine.registry import get_system
from listbuilder.engine.roster_file import (
    RosterFileError,
    RosterModel,
    dump_roster,
    pack_share,
    to_roster,
)

AH = get_system("actionhammer")
LIBRARY = Library()
SHARE = "5wFH3_xHAKBELduBnniT5Q"
LINK = f"https://club.example/studio/s/{SHARE}"


def roster_with_link(link: str) -> str:
    """A roster file building with the starter pack, its `link:` line saying `link`."""
    pack = PackUse(name="House Brigade", text=AH.pack_starter(), link=LINK)
    roster = Roster(system="actionhammer", name="Brigade", factions=("Cobalt Brigade",),
                    packs=(pack,))
    text = dump_roster(roster, AH, LIBRARY.catalog_with_packs(AH, [pack]))
    assert f"  link: {LINK}\n" in text
    return text.replace(f"  link: {LINK}\n", f"  link: {json.dumps(link)}\n")  # YAML too


@pytest.mark.parametrize("link", [
    "javascript:alert(document.cookie)",
    "https://evil.example/phish",
    "https://evil.example/x/studio/s/" + SHARE,  # our shape, on another site's path
    "//evil.example/studio/s/" + SHARE,  # no scheme: the browser keeps the page's own
    "https://me@evil.example/studio/s/" + SHARE,
    "data:text/html,<script>alert(1)</script>",
    f"/studio/s/{SHARE}?next=https://evil.example",
])
def test_a_pack_link_that_is_not_a_share_link_is_refused_naming_the_field(link: str) -> None:
    text = roster_with_link(link)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith("  link:"))
    with pytest.raises(RosterFileError) as refused:
        LIBRARY.read_roster(text, "brigade.yaml")
    said = [str(e) for e in refused.value.errors]
    assert len(said) == 1, said
    assert said[0].startswith(f"brigade.yaml:{line}: packs[0].link: found {link[:60]!r}"), said
    assert "which is not a pack's share link: write the share link from the pack's page in " \
           "the faction studio (`link: https://<site>/studio/s/<share>`, or `link: " \
           "/studio/s/<share>`), or delete the line" in said[0]


def test_the_refused_link_is_named_beside_the_files_other_problems() -> None:
    text = roster_with_link("javascript:alert(1)").replace("name: Brigade", "name: ''")
    with pytest.raises(RosterFileError) as refused:
        LIBRARY.read_roster(text, "brigade.yaml")
    said = [str(e) for e in refused.value.errors]
    assert any(": name: " in s for s in said) and any("packs[0].link: found" in s for s in said)


@pytest.mark.parametrize("link", [LINK, f"/studio/s/{SHARE}",
                                  f"http://[::1]:5000/studio/s/{SHARE}",
                                  f"HTTPS://Club.Example/studio/s/{SHARE}"])
def test_a_share_link_reads_and_exports_as_it_was(link: str) -> None:
    loaded = LIBRARY.read_roster(roster_with_link(link), "brigade.yaml")
    assert loaded.roster.packs[0].link == link
    assert pack_share(link) == SHARE
    again = dump_roster(loaded.roster, AH, loaded.catalog)
    assert LIBRARY.read_roster(again, "again.yaml").roster == loaded.roster


def test_a_roster_stored_before_links_were_checked_keeps_no_such_link() -> None:
    """Stored rosters are read by shape only (web/rosters.py: the schema, then to_roster), so
    one imported before this check opens still; its link is dropped on the way, and so never
    reaches a page, and its next save writes the file without it."""
    text = roster_with_link("javascript:alert(document.cookie)")
    model = RosterModel.model_validate(yaml.safe_load(text))
    assert model.packs[0].link == "javascript:alert(document.cookie)"
    assert to_roster(model).packs[0].link == ""
    kept = RosterModel.model_validate(yaml.safe_load(roster_with_link(LINK)))
    assert to_roster(kept).packs[0].link == LINK
