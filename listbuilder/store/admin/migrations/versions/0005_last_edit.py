"""Each roster remembers the last change saved to it (rosters.last_edit, an id the page's
script gives every change): a change sent again because its answer was lost on a dropped
connection is recognised and not applied twice.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rosters") as batch:
        batch.add_column(sa.Column("last_edit", sa.String(40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rosters") as batch:
        batch.drop_column("last_edit")
