"""What is left of a deleted pack (pack_tombstones): its links, which then say so.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pack_tombstones",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("edit_hash", sa.String(64), nullable=False),
        sa.Column("share_token", sa.String(64), nullable=False),
        sa.Column("deleted", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_pack_tombstones_edit_hash", "pack_tombstones", ["edit_hash"],
                    unique=True)
    op.create_index("ix_pack_tombstones_share_token", "pack_tombstones", ["share_token"],
                    unique=True)


def downgrade() -> None:
    op.drop_table("pack_tombstones")
