"""WarStuff's data schema: what every YAML file under data/warstuff/ may hold.

No postponed annotations here: pydantic resolves real types several times faster.
"""

from typing import Annotated

from pydantic import Field

from listbuilder.engine.schema import Name, Points, Schema, Text, in_range

Quality = Annotated[int, in_range(1, 5)]


class RuleModel(Schema):
    name: Name
    cost: int
    text: Text


class GenreModel(Schema):
    name: Name
    text: Text


class UnitModel(Schema):
    name: Name
    genre: Name
    quality: Quality
    rules: list[Name] = Field(default_factory=list)
    printed_pts: Points | None = None  # the figure the seed prints, kept to show differences


class QualityModel(Schema):
    min: int
    max: int
    points_per_quality: int
    minimum_cost: int


class WarStuffFile(Schema):
    sample: bool = False
    unit_quality: QualityModel | None = None
    warband_limits: list[Points] = Field(default_factory=list)
    advised_max_unit_cost: Points | None = None
    rules: list[RuleModel] = Field(default_factory=list)
    genres: list[GenreModel] = Field(default_factory=list)
    units: list[UnitModel] = Field(default_factory=list)
