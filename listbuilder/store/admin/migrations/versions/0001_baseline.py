"""Baseline: the rosters table as the first release made it (before migrations existed).

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rosters",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("edit_hash", sa.String(64), nullable=False),
        sa.Column("share_token", sa.String(64), nullable=False),
        sa.Column("system", sa.String(40), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rosters_edit_hash", "rosters", ["edit_hash"], unique=True)
    op.create_index("ix_rosters_share_token", "rosters", ["share_token"], unique=True)


def downgrade() -> None:
    op.drop_table("rosters")
