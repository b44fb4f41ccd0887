"""Each print job remembers which client asked for it (print_jobs.client, a keyed digest of
the address): a client holds a bounded share of the print line, and the line is served
fairly between clients, so one address can't keep another's print out.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("print_jobs") as batch:
        batch.add_column(sa.Column("client", sa.String(64), nullable=True))
    op.create_index("ix_print_jobs_status_client_rank", "print_jobs",
                    ["status", "client", "rank"])


def downgrade() -> None:
    op.drop_index("ix_print_jobs_status_client_rank", "print_jobs")
    with op.batch_alter_table("print_jobs") as batch:
        batch.drop_column("client")
