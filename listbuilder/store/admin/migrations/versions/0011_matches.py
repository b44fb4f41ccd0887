"""Matches at the table (matches) and the events of each (match_events).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("side1_hash", sa.String(64), nullable=False),
        sa.Column("side2_hash", sa.String(64), nullable=True),
        sa.Column("watch_token", sa.String(64), nullable=False),
        sa.Column("system", sa.String(40), nullable=False),
        sa.Column("header", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_matches_side1_hash", "matches", ["side1_hash"], unique=True)
    op.create_index("ix_matches_side2_hash", "matches", ["side2_hash"], unique=True)
    op.create_index("ix_matches_watch_token", "matches", ["watch_token"], unique=True)
    op.create_table(
        "match_events",
        sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("event_id", sa.String(40), nullable=True),
        sa.Column("side", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("match_events")
    op.drop_table("matches")
