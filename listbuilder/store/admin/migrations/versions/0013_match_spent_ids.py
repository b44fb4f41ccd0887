"""The ids a match's phones have spent (match_spent_ids): kept when their event is undone.

A phone sends a tap again when its first answer was lost. Before this table an undone tap's id
left the log with it, so the phone's retry put the tap back and undid the other player's
undo. Each id the match has recorded stays here for the match's life, with the side whose
phone sent it; the ids already in logs are carried over.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_spent_ids",
        sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("event_id", sa.String(40), primary_key=True),
        sa.Column("side", sa.Integer(), nullable=True),
    )
    op.execute("INSERT INTO match_spent_ids (match_id, event_id, side) "
               "SELECT match_id, event_id, MIN(side) FROM match_events "
               "WHERE event_id IS NOT NULL GROUP BY match_id, event_id")


def downgrade() -> None:
    op.drop_table("match_spent_ids")
