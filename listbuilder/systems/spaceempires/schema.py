"""The schema every YAML file of data/spaceempires/ obeys: all sections optional, merged."""


from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from listbuilder.engine.schema import Count, Name, Schema, Text, in_range

# -- data schema ------------------------------------------------------------------------------

Letter = Annotated[str, Field(pattern=r"^[A-Z#]$")]
Small = Annotated[int, in_range(0, 99)]
Positive = Annotated[int, in_range(1, 99)]


class UnitModel(Schema):
    name: Name
    faction: Name
    pile: Positive  # chits of this unit in the faction's pile: the "#" of "#/Speed"
    speed: Name = "Medium"
    types: list[Letter] = Field(min_length=1, max_length=6)
    force: Small
    note: Name | None = None  # a faction's note code, e.g. BF
    fortification: bool = False


class FactionModel(Schema):
    name: Name
    text: Text


class UnitTypeModel(Schema):
    letter: Letter
    name: Name
    text: Text


class SpeedModel(Schema):
    name: Name
    letter: Letter
    min_move: Small
    max_move: Small


class PlanetModel(Schema):
    name: Name
    revenue: Small
    recruit_limit: Small
    recruits_space: bool


class TextModel(Schema):
    """A named text: a turn phase or a rule."""

    name: Name
    text: Text


class AbbreviationModel(Schema):
    code: Letter
    meaning: Name


class NoteModel(Schema):
    code: Name
    name: Name
    faction: Name


class ConstantsModel(Schema):
    setup_space_units: Small
    setup_ground_units: Small
    hand_draw: Small
    hand_max: Small
    leader_bonus: Small
    card_bonus: Small
    transport_force_in_space: Small
    bombard_force_divisor: Positive
    leader_cost_divisor: Positive
    upkeep_units_per_revenue: Small
    recruit_draw: Small
    recruit_bonus_draw: Name
    transport_speed: Name
    fortification_move: Small
    victory_planet_percent: Annotated[int, in_range(0, 100)]


# a card's name holds no comma: a draw-cards event lists its cards joined by commas
# (engine/word_counts.py)
CardName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80,
                                            pattern=r"^[^,]+$")]
CardKind = Literal["move", "force", "look", "upgrade", "cancel-move"]


class CardModel(Schema):
    name: CardName
    count: Count
    kind: CardKind
    text: Text
    stacks: Positive | None = None  # move: how many stacks
    bonus: Small | None = None  # force: Force added
    bonus_types: list[Letter] = Field(default_factory=list)  # force: which unit types
    scope: Literal["all", "one"] | None = None  # force: every such unit, or one of them
    transports: bool = False  # force: a transport may take the bonus too
    look_at: Literal["stack", "hand"] | None = None
    cost: Small | None = None  # upgrade: revenue paid
    upgrade_from: Name | None = None
    upgrade_to: Name | None = None


class DeckModel(Schema):
    name: Name
    cards: list[CardModel] = Field(min_length=1)


class SpaceEmpiresFile(Schema):
    """Every YAML file under data/spaceempires/: all sections optional, files merged."""

    sample: bool = False
    unit_types: list[UnitTypeModel] = Field(default_factory=list)
    speeds: list[SpeedModel] = Field(default_factory=list)
    planets: list[PlanetModel] = Field(default_factory=list)
    phases: list[TextModel] = Field(default_factory=list)
    abbreviations: list[AbbreviationModel] = Field(default_factory=list)
    notes: list[NoteModel] = Field(default_factory=list)
    constants: ConstantsModel | None = None
    rules: list[TextModel] = Field(default_factory=list)
    decks: list[DeckModel] = Field(default_factory=list)
    factions: list[FactionModel] = Field(default_factory=list)
    units: list[UnitModel] = Field(default_factory=list)

