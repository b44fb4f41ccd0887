"""The studio's form, made from each game's data schema: a pack drawn as boxes and posted back
gives the same data; Add and Remove change one list; what does not parse is kept as typed for
the check to name (line and key); a game with no studio code of its own still gets a form."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import pytest
from pydantic import BaseModel, Field

from listbuilder.engine.errors import DataLoadError
from listbuilder.engine.library import Library
from listbuilder.engine.packs import Pack, check_pack
from listbuilder.engine.registry import all_systems, get_system
from listbuilder.engine.schema import Name, Points, Schema
from listbuilder.engine.system import RuleSystem
from listbuilder.engine.yaml_limits import PACK
from listbuilder.web.studio.fields import (
    Drawn,
    TooManyFields,
    draw,
    focus_after,
    form_spec,
    form_values,
    leading_comments,
    pack_data,
    pack_text,
    read_boxes,
    read_form,
    refusals,
)
from listbuilder.web.studio.fields import (
    Field as Box,
)

LIBRARY = Library()
AH = get_system("actionhammer")


def drawn_starter(system: RuleSystem) -> tuple[dict[str, Any], Drawn]:
    data = pack_data(system.pack_starter(), "house.yaml")
    return data, draw(form_spec(system), data, "house.yaml")


def boxes(drawn: Drawn) -> dict[str, Box]:
    out: dict[str, Box] = {}

    def walk(f: Box) -> None:
        out[f.name] = f
        for child in (*f.children, *f.extras):
            walk(child)

    for f in drawn.fields:
        walk(f)
    return out


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.id)
def test_each_starter_pack_goes_through_the_form_unchanged(system: RuleSystem) -> None:
    data, drawn = drawn_starter(system)
    posted = form_values(drawn)
    assert read_form(form_spec(system), posted) == data
    text = pack_text(read_form(form_spec(system), posted),
                     leading_comments(system.pack_starter()))
    assert pack_data(text, "house.yaml") == data
    assert text.startswith("# ")  # the starter's opening comments are kept
    check = check_pack(system, LIBRARY.loaded(system.id), Pack(system.id, "House", text))
    assert check.ok, check.errors


def test_the_form_is_shaped_by_the_schema() -> None:
    _data, drawn = drawn_starter(AH)
    shown = boxes(drawn)
    assert [f.name for f in drawn.fields] == ["factions", "datasheets"]  # the starter's
    save = shown["datasheets-1-save"]
    assert (save.kind, save.value, save.spec.lo, save.spec.hi) == ("number", "5", 2, 6)
    assert save.spec.label == "Save" and save.spec.hint == "2 to 6."
    assert shown["datasheets-0-name"].spec.maxlength == 80
    assert shown["datasheets-0-text"].kind == "long"
    assert shown["datasheets-0-keywords"].value == "Leader, Infantry"
    assert shown["datasheets-0-models"].kind == "group"
    assert shown["datasheets-0-weapons"].kind == "list"
    assert shown["datasheets-0-weapons"].add == "add:datasheets-0-weapons"
    assert shown["datasheets-0-weapons"].spec.add_text == "Add a weapon"
    assert shown["datasheets-0-upgrades"].spec.add_text == "Add an upgrade"
    weapon = shown["datasheets-0-weapons-1"]
    assert weapon.legend == "Weapon 2: Blade" and weapon.remove.startswith("remove:")
    assert shown["datasheets-0-weapons-1-range"].kind == "yaml"  # an int or Melee
    assert shown["datasheets-0-weapons-1-range"].value == "Melee"
    assert "Melee" in shown["datasheets-0-weapons-1-range"].spec.hint
    assert shown["datasheets-0-weapons-1-ap"].spec.label == "AP"
    assert shown["datasheets-0-upgrades-0-per_model"].kind == "check"
    assert shown["datasheets-0-upgrades-0-per_model"].spec.label == "Per model"
    assert shown["datasheets-0-upgrades-0-effects"].value == "[{set: save, to: 3}]"
    _hw_data, hw = drawn_starter(get_system("hammerwars"))
    armor = boxes(hw)["units-0-armor"]
    assert armor.kind == "select" and armor.spec.options == ("Light", "Medium", "Heavy")
    assert boxes(hw)["units-0-attacks-0-blast"].kind == "check"
    assert boxes(hw)["units-0-role"].spec.options == ("Assault", "Ranged", "Support")
    assert boxes(hw)["factions-0-goals"].value == "Duty, Revenge"


def test_add_and_remove_change_one_list_and_say_where_to_go_next() -> None:
    data, drawn = drawn_starter(AH)
    spec = form_spec(AH)
    posted = form_values(drawn)
    added = read_form(spec, posted, "add:datasheets-1-weapons")
    assert added["datasheets"][1]["weapons"][2] == {}
    assert added["datasheets"][0] == data["datasheets"][0]
    assert focus_after(spec, "add:datasheets-1-weapons", added) == \
        "pf-datasheets-1-weapons-2-name"
    removed = read_form(spec, posted, "remove:datasheets-0-weapons-0")
    assert [w["name"] for w in removed["datasheets"][0]["weapons"]] == ["Blade"]
    assert focus_after(spec, "remove:datasheets-0-weapons-0", removed) == \
        "pf-datasheets-0-weapons-add"
    # a new datasheet is drawn empty, its lists ready for their first item
    new = read_form(spec, posted, "add:datasheets")
    shown = boxes(draw(spec, new, "house.yaml"))
    assert shown["datasheets-2-name"].value == ""
    assert shown["datasheets-2-weapons"].children == []
    assert shown["datasheets-2-weapons"].add == "add:datasheets-2-weapons"


def test_a_value_that_does_not_parse_is_kept_and_named_with_its_line() -> None:
    _data, drawn = drawn_starter(AH)
    spec = form_spec(AH)
    posted = form_values(drawn) | {"datasheets-1-save": "abc", "datasheets-1-move": "1.5"}
    data = read_form(spec, posted)
    assert data["datasheets"][1]["save"] == "abc"
    assert data["datasheets"][1]["move"] == "1.5"  # kept as typed, not rounded
    text = pack_text(data)
    check = check_pack(AH, LIBRARY.loaded("actionhammer"), Pack("actionhammer", "House", text))
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "save: abc" in row)
    said = [str(e) for e in check.errors]
    assert any(s.startswith(f"house.yaml:{line}: datasheets[1].save: ") for s in said), said
    # drawn again, the box shows what was typed and carries the check's words
    again = draw(spec, pack_data(text, "house.yaml"), "house.yaml")
    save = boxes(again)["datasheets-1-save"]
    assert (save.kind, save.value) == ("text", "abc")
    marks = again.marks(check.errors)
    assert "pf-datasheets-1-save" in marks and "pf-datasheets-1-move" in marks


def test_nothing_the_text_holds_is_lost_by_the_form() -> None:
    text = AH.pack_starter().replace("    move: 8\n    save: 5\n",
                                     "    move: 8\n    sav: 5\n    save: 5\n")
    text += "abilities:\n  - {name: Stubborn, text: Never gives up.}\nnotes: hello\n"
    text = text.replace("keywords: [Infantry]", "keywords: {a: 1}")
    data = pack_data(text, "house.yaml")
    drawn = draw(form_spec(AH), data, "house.yaml")
    shown = boxes(drawn)
    assert shown["datasheets-1-_extra-sav"].value == "5"  # a key the game does not have
    assert shown["datasheets-1-keywords-_yaml"].value == "{a: 1}"  # not a list of names
    assert shown["_extra-notes"].value == "hello"  # a section the game does not have
    assert "abilities" in [f.name for f in drawn.fields]  # a section the pack has, drawn too
    assert read_form(form_spec(AH), form_values(drawn)) == data
    check = check_pack(AH, LIBRARY.loaded("actionhammer"), Pack("actionhammer", "House", text))
    marks = drawn.marks(check.errors)
    assert "pf-datasheets-1-_extra-sav" in marks
    assert "pf-_extra-notes" in marks


def test_empty_boxes_leave_keys_out_unless_the_text_gave_them_empty() -> None:
    spec = form_spec(AH)
    data = {"datasheets": [{"name": "X", "keywords": [], "text": None,
                            "upgrades": [{"name": "U", "per_model": False}]}]}
    drawn = draw(spec, data, "house.yaml")
    assert read_form(spec, form_values(drawn)) == data
    posted = form_values(drawn)
    posted.pop("datasheets-0-_keep")
    assert read_form(spec, posted) == {"datasheets": [{"name": "X", "upgrades": [
        {"name": "U", "per_model": False}]}]}


def test_the_text_is_written_as_the_data_files_are() -> None:
    data = pack_data(AH.pack_starter(), "house.yaml")
    text = pack_text(read_form(form_spec(AH), form_values(draw(form_spec(AH), data, "h"))))
    assert "  - {name: Sidearm, range: 12, att: 2, sk: 3, ap: 0}\n" in text
    assert "    models: {min: 5, max: 10}\n" in text
    assert "    keywords: [Leader, Infantry]\n" in text
    assert "datasheets:\n  - name: My Leader\n" in text
    assert "&" not in text and "*" not in text  # no anchors
    assert pack_text({"units": [{"name": "Ünï", "faction": "12"}]}) == \
        "units:\n  - {name: Ünï, faction: '12'}\n"


def test_a_hostile_form_is_refused_or_kept_as_text() -> None:
    spec = form_spec(AH)
    with pytest.raises(TooManyFields):
        read_form(spec, {f"datasheets-{i}-name": "x" for i in range(30_000)})
    deep = "[" * 5000 + "]" * 5000
    data = read_form(spec, {"datasheets-0-upgrades-0-effects": deep,
                            "datasheets-0-weapons-0-range": "{a: &x [1], b: *x}"})
    assert data["datasheets"][0]["upgrades"][0]["effects"] == deep  # as typed, not built
    assert data["datasheets"][0]["weapons"][0]["range"] == {"a": [1], "b": [1]}
    assert read_form(spec, {"datasheets-99999999-name": "x"}) == {}


def test_a_sixth_game_gets_a_form_with_no_studio_code() -> None:
    class Unit(Schema):
        name: Name
        kind: Literal["foot", "horse"] = "foot"
        pts: Points
        move: int = Field(ge=1, le=12, title="Move (inches)")
        tough: Any = None  # not a type the form can shape: drawn as YAML

    class File(Schema):
        sample: bool = False
        units: list[Unit] = Field(default_factory=list)

    class Game(RuleSystem):
        id: ClassVar[str] = "sixth"
        name: ClassVar[str] = "Sixth Game"
        data_schema: ClassVar[type[BaseModel]] = File

    spec = form_spec(Game())
    assert [s.key for s in spec.fields] == ["units", "sample"]  # the shown sections first
    assert spec.options == ("units",)  # no starter: every section but `sample` is shown
    unit = spec.fields[0].item
    assert unit is not None
    by_key = {s.key: s for s in unit.fields}
    assert by_key["kind"].kind == "select" and by_key["kind"].default == "foot"
    assert (by_key["move"].lo, by_key["move"].hi, by_key["move"].label) == (1, 12,
                                                                             "Move (inches)")
    assert by_key["pts"].kind == "number" and by_key["tough"].kind == "yaml"
    data = {"units": [{"name": "Lancer", "kind": "horse", "pts": 20, "move": 9}]}
    drawn = draw(spec, data, "p.yaml")
    assert read_form(spec, form_values(drawn)) == data


def test_hammer_wars_packs_get_their_own_goals() -> None:
    system = get_system("hammerwars")
    _data, drawn = drawn_starter(system)
    goals = boxes(drawn)["goals"]
    assert [f.name for f in drawn.fields] == ["factions", "units", "goals"]
    assert goals.kind == "list" and goals.children == [] and goals.spec.add_text == "Add a goal"
    spec = form_spec(system)
    data = read_form(spec, form_values(drawn), "add:goals")
    posted = form_values(draw(spec, data, "house.yaml")) | {
        "goals-0-name": "Glory", "goals-0-text": "Hold the centre.", "goals-0-vp": "2",
        "factions-0-goals": "Duty, Glory"}
    text = pack_text(read_form(spec, posted))
    assert "goals:\n  - {name: Glory, text: Hold the centre., vp: 2}\n" in text
    check = check_pack(system, LIBRARY.loaded(system.id), Pack(system.id, "House", text))
    assert check.ok, check.errors


def test_values_a_box_would_change_are_drawn_as_yaml_instead() -> None:
    spec = form_spec(AH)
    data = {"datasheets": [{"name": "Two\nlines", "keywords": ["A, B", 7],
                            "move": "six\nseven", "save": 4.5, "models": [1, 2],
                            "weapons": ["not a weapon"]}]}
    shown = boxes(draw(spec, data, "house.yaml"))
    assert shown["datasheets-0-name"].kind == "long"  # a text area keeps the line break
    assert shown["datasheets-0-keywords-_yaml"].value == "['A, B', 7]"
    assert shown["datasheets-0-move-_yaml"].multiline
    assert shown["datasheets-0-save-_yaml"].value == "4.5"
    assert shown["datasheets-0-models-_yaml"].value == "[1, 2]"
    assert shown["datasheets-0-weapons-0-_yaml"].value == "not a weapon"
    assert read_form(spec, form_values(draw(spec, data, "house.yaml"))) == data


# -- what the boxes expand to (issue 37) ---------------------------------------------------

def test_a_box_whose_aliases_expand_past_a_pack_is_kept_as_typed_and_named() -> None:
    # 50 KB in one box, written out by the form as 5 MB on every post
    bomb = "[&a " + "A" * 50_000 + ", *a" * 100 + "]"
    spec = form_spec(AH)
    data, refused = read_boxes(spec, {"datasheets-0-name": "X",
                                      "datasheets-0-upgrades-0-effects": bomb})
    assert data["datasheets"][0]["upgrades"][0]["effects"] == bomb  # as typed, not built
    (box,) = refused
    assert box.loc == ("datasheets", 0, "upgrades", 0, "effects") and box.error.loc == (2,)
    text = pack_text(data)
    assert len(text) < len(bomb) + 200  # written as typed, never expanded
    (error,) = refusals(refused, text, "house.yaml")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "effects:" in row)
    assert str(error) == (
        f"house.yaml:{line}: datasheets[0].upgrades[0].effects[2]: the file holds more than "
        f"131,072 characters once its aliases are expanded (an alias counts its anchor's text "
        f"again each time it repeats it); a pack may hold no more than it could written out in "
        f"full: repeat less, or split it")
    drawn = draw(spec, data, "house.yaml")
    assert drawn.field_of(error) == "pf-datasheets-0-upgrades-0-effects"
    shown = {f.name: f for f in _walk(drawn.fields)}
    assert shown["datasheets-0-upgrades-0-effects"].value == bomb  # drawn as typed, unquoted


def test_the_boxes_of_one_post_are_bounded_together() -> None:
    piece = "[&a " + "A" * 2_000 + ", *a" * 60 + "]"  # each alone reads as 122,000 characters
    posted = {f"datasheets-0-_extra-k{i}": piece for i in range(40)}
    data, refused = read_boxes(form_spec(AH), posted)
    assert len(refused) == 39 and isinstance(data["datasheets"][0]["k0"], list)
    # the bound once over, and what was posted: not 40 boxes of 122,000 characters
    assert len(pack_text(data)) < PACK.chars + 2 * len(piece) * 40


def test_a_box_holding_an_alias_of_itself_is_kept_as_typed() -> None:
    # the loader built a list holding itself, and writing the pack out recursed until Python
    # gave up (a 500)
    data, refused = read_boxes(form_spec(AH), {"datasheets-0-upgrades-0-effects": "&x [*x]"})
    assert data["datasheets"][0]["upgrades"][0]["effects"] == "&x [*x]"
    assert "the alias *x is inside its own anchor &x" in refused[0].error.message
    assert "effects: '&x [*x]'" in pack_text(data)


def test_a_saved_pack_is_read_for_the_form_with_a_packs_limits() -> None:
    text = "units: [&a " + "A" * 40_000 + ", *a, *a, *a]\n"
    with pytest.raises(DataLoadError, match=r"house\.yaml:1: units\[3\]: the file holds more "
                                            r"than 131,072 characters once its aliases are "
                                            r"expanded"):
        pack_data(text, "house.yaml")


def _walk(fields: list[Box]) -> list[Box]:
    out = []
    for f in fields:
        out.append(f)
        out += _walk([*f.children, *f.extras])
    return out
