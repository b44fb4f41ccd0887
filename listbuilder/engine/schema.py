"""Building blocks for the pydantic schemas that check YAML at the edge (data and rosters)."""


from dataclasses import dataclass
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, StringConstraints


class Schema(BaseModel):
    """Strict by default: an unknown key is an error, so a typo never passes silently."""

    # defer_build: nested models get their validators built once, inside the file schema that
    # uses them, instead of once each at import (halves the cold start).
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)


@dataclass(frozen=True)
class InRange:
    """The check `in_range` gives pydantic, kept as an object so the bounds can be read back
    (the faction studio's form gives its number boxes the same min and max)."""

    lo: int
    hi: int | None = None

    def __call__(self, value: int) -> int:
        if value < self.lo or (self.hi is not None and value > self.hi):
            span = f"{self.lo} to {self.hi}" if self.hi is not None else f"at least {self.lo}"
            raise ValueError(f"must be {span}, got {value}")
        return value


def in_range(lo: int, hi: int | None = None) -> AfterValidator:
    """Use as `Annotated[int, in_range(1, 5)]`: the error reads 'must be 1 to 5, got 7'."""
    return AfterValidator(InRange(lo, hi))


MAX_COUNT = 10_000  # an entry's count at most: a roster file's limit and the builder's box
Count = Annotated[int, in_range(1, MAX_COUNT)]
Points = Annotated[int, in_range(0, 1_000_000)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=1200)]
Label = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40, pattern=r"^[\w\-]+$")
]
