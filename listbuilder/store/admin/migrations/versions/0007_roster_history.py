"""Each roster's last saves (roster_history), which undo and redo on the roster page replay.
Every roster already saved gets its current text as the first row, so the first change made
after the upgrade can be undone.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "roster_history",
        sa.Column("roster_id", sa.Integer(),
                  sa.ForeignKey("rosters.id", ondelete="CASCADE"), primary_key=True),
        # version % 30 (engine.history.HISTORY_KEPT: changing it needs a migration that moves the
        # rows to their new slots): a save writes over the row of the save 30 before it
        sa.Column("slot", sa.Integer(), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("label", sa.String(120), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.execute("INSERT INTO roster_history (roster_id, slot, version, text, label, kind, "
               "created) SELECT id, version % 30, version, text, '', 'edit', updated "
               "FROM rosters")


def downgrade() -> None:
    op.drop_table("roster_history")
