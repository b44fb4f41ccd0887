"""Events: a club's night, league or tournament (events), the lists sealed for it
(event_lists), the tables of its rounds (event_games) and what its organiser changed by hand
(event_changes).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("edit_hash", sa.String(64), nullable=False),
        sa.Column("share_token", sa.String(64), nullable=False),
        sa.Column("system", sa.String(40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("points_limit", sa.Integer(), nullable=True),
        sa.Column("packs", sa.Text(), nullable=False),
        sa.Column("data_revision", sa.String(40), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
    )
    op.create_index("ix_events_edit_hash", "events", ["edit_hash"], unique=True)
    op.create_index("ix_events_share_token", "events", ["share_token"], unique=True)
    op.create_table(
        "event_lists",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("roster_id", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(80), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("data_revision", sa.String(40), nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("problems", sa.Text(), nullable=False),
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("submitted", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("event_id", "roster_id", name="uq_event_lists_event_id_roster_id"),
    )
    op.create_index("ix_event_lists_event_id", "event_lists", ["event_id"])
    op.create_index("ix_event_lists_code", "event_lists", ["code"], unique=True)
    op.create_table(
        "event_games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("first_id", sa.Integer(),
                  sa.ForeignKey("event_lists.id", ondelete="CASCADE"), nullable=False),
        sa.Column("second_id", sa.Integer(),
                  sa.ForeignKey("event_lists.id", ondelete="CASCADE"), nullable=True),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("score1", sa.Integer(), nullable=False),
        sa.Column("score2", sa.Integer(), nullable=False),
        sa.Column("reported", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_event_games_event_id", "event_games", ["event_id"])
    op.create_table(
        "event_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("events.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("words", sa.Text(), nullable=False),
    )
    op.create_index("ix_event_changes_event_id", "event_changes", ["event_id"])


def downgrade() -> None:
    op.drop_table("event_changes")
    op.drop_table("event_games")
    op.drop_table("event_lists")
    op.drop_table("events")
