"""War Hammer Space Empires (Warp Empires). (Being written: catalog, costs and limits land with this module's tests.)"""

from __future__ import annotations

from listbuilder.engine.system import RuleSystem


class SpaceEmpires(RuleSystem):
    id = "spaceempires"
    name = "War Hammer Space Empires (Warp Empires)"
    blurb = ""
