"""One Page 40k (1st edition). (Being written: catalog, costs and limits land with this module's tests.)"""

from __future__ import annotations

from listbuilder.engine.system import RuleSystem


class OnePage40k(RuleSystem):
    id = "op40k"
    name = "One Page 40k (1st edition)"
    blurb = ""
