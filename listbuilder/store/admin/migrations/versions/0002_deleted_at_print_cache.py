"""Rosters can be deleted and restored (deleted_at); finished PDFs are kept in the database so
every worker and machine shares them (print_cache).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rosters") as batch:
        batch.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "print_cache",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("pdf", sa.LargeBinary(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_print_cache_last_used", "print_cache", ["last_used"])


def downgrade() -> None:
    op.drop_table("print_cache")
    with op.batch_alter_table("rosters") as batch:
        batch.drop_column("deleted_at")
