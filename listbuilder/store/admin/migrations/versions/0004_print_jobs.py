"""The print queue (print_jobs): prints from the browser wait here for a worker's print runner
(since 0012, for a print worker's Huey task)
instead of being laid out in the request's thread; every worker and machine shares it.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "print_jobs",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("job", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("problems", sa.Text(), nullable=True),
        sa.Column("claim", sa.String(32), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_print_jobs_key", "print_jobs", ["key"], unique=True)
    op.create_index("ix_print_jobs_status_rank_id", "print_jobs", ["status", "rank", "id"])


def downgrade() -> None:
    op.drop_table("print_jobs")
