"""Faction packs made in the studio (packs) and every version saved of each (pack_versions).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "packs",
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
    op.create_index("ix_packs_edit_hash", "packs", ["edit_hash"], unique=True)
    op.create_index("ix_packs_share_token", "packs", ["share_token"], unique=True)
    op.create_table(
        "pack_versions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("pack_id", sa.Integer(), sa.ForeignKey("packs.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("revision", sa.String(12), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("saved", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_pack_versions_pack_id", "pack_versions", ["pack_id"])


def downgrade() -> None:
    op.drop_table("pack_versions")
    op.drop_table("packs")
