"""A player's list of rosters, shared between their devices by a private link (roster_lists):
the edit links sealed with a key only that link carries.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "roster_lists",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("lookup", sa.String(64), nullable=False, unique=True),
        sa.Column("sealed", sa.LargeBinary(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("roster_lists")
