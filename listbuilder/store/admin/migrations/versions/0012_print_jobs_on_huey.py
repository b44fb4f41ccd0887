"""Prints are Huey tasks (listbuilder.jobs): a print's row names the worker process laying it
out instead of a runner's claim, and keeps the asking client's turn, from which Huey's
priority and the place in line are both read.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a print in line at the upgrade is asked again by its page, and queued anew
    op.execute("DELETE FROM print_jobs WHERE status IN ('waiting', 'running')")
    op.drop_index("ix_print_jobs_status_rank_id", "print_jobs")
    with op.batch_alter_table("print_jobs") as batch:
        batch.drop_column("claim")
        batch.add_column(sa.Column("worker", sa.String(64), nullable=True))
        batch.add_column(sa.Column("turn", sa.Integer(), server_default="0", nullable=False))
    op.create_index("ix_print_jobs_status_rank_turn_id", "print_jobs",
                    ["status", "rank", "turn", "id"])


def downgrade() -> None:
    op.execute("DELETE FROM print_jobs WHERE status IN ('waiting', 'running')")
    op.drop_index("ix_print_jobs_status_rank_turn_id", "print_jobs")
    with op.batch_alter_table("print_jobs") as batch:
        batch.drop_column("turn")
        batch.drop_column("worker")
        batch.add_column(sa.Column("claim", sa.String(32), nullable=True))
    op.create_index("ix_print_jobs_status_rank_id", "print_jobs", ["status", "rank", "id"])
