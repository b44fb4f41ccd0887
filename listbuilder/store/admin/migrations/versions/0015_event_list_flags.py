"""What an event's own terms find in a sealed list (event_lists.flags): over the event's points
limit, a pack it does not allow, another data revision. Kept apart from the game's problems
so that the organiser's page can tell the game's verdict from the event's. And an index on
event_games.match_id: a tracker's match that ends looks up the table it was started from.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("event_lists") as batch:
        batch.add_column(sa.Column("flags", sa.Text(), nullable=False, server_default="[]"))
    op.create_index("ix_event_games_match_id", "event_games", ["match_id"])


def downgrade() -> None:
    op.drop_index("ix_event_games_match_id", table_name="event_games")
    with op.batch_alter_table("event_lists") as batch:
        batch.drop_column("flags")
