"""ActionHammer. (Being written: catalog, costs and limits land with this module's tests.)"""

from __future__ import annotations

from listbuilder.engine.system import RuleSystem


class ActionHammer(RuleSystem):
    id = "actionhammer"
    name = "ActionHammer"
    blurb = ""
