"""Space Empires: a hand drawn in one event (`draw-cards`, issue 50 item 5). The cards picked
are listed in one word value; the phase's rules are the one-card draw's (5 in the Draw Phase,
a hand filled to 7 after a battle), the deck is drawn before its discards are shuffled, and a
log of one-card draws still replays to the same state."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from pydantic import ValidationError
from test_spaceempires_play import (
    ANN_HAND,
    BEN_HAND,
    PLAY,
    _space,
    data,
    draws,
    play,
    refused,
    to_phase,
)

from listbuilder.engine.library import Library
from listbuilder.engine.match import Event, event, replay
from listbuilder.engine.match_file import dump_match, read_match
from listbuilder.engine.word_counts import counts, joined, split_words
from listbuilder.systems.spaceempires.play import BATTLE, DRAW, MOVE, SpaceEmpiresState
from listbuilder.systems.spaceempires.schema import CardModel

ROOT = Path(__file__).resolve().parents[2]
OLD_LOG = Path(__file__).parent / "data" / "spaceempires-one-card-draws.yaml"


def drawn(side: int, *cards: str) -> Event:
    return event("draw-cards", side, cards=", ".join(cards))


def test_one_event_draws_the_five_cards_of_the_draw_phase() -> None:
    s = play(drawn(1, *ANN_HAND))
    assert data(s, 1)["hand"] == {c: 1 for c in ANN_HAND}
    assert data(s, 1)["drawn_this_phase"] == 5
    assert PLAY.to_data(s)["deck_left"] == 49 - 5
    assert "has drawn the 5 cards" in refused(drawn(1, *ANN_HAND), drawn(1, "Recon"))
    # the same hand drawn one card at a time reaches the same state
    assert s == play(*draws(1, ANN_HAND))


def test_copies_of_a_card_are_named_once_each() -> None:
    s = play(drawn(1, "Recon", "Recon", "Tactical Move", "Tactical Move", "Tactical Move"))
    assert data(s, 1)["hand"] == {"Tactical Move": 3, "Recon": 2}
    assert PLAY.to_data(s)["deck"]["Tactical Move"] == 12 - 3
    assert "Recon" not in PLAY.to_data(s)["deck"]


def test_one_card_and_several_card_draws_mix() -> None:
    """A phone can draw some now and the rest later; an old one-card draw counts the same."""
    mixed = [*draws(1, ANN_HAND[:2]), drawn(1, *ANN_HAND[2:4]), event("draw", 1,
                                                                       card=ANN_HAND[4])]
    s = play(*mixed, drawn(2, *BEN_HAND[:1]), drawn(2, *BEN_HAND[1:]))
    assert s == play(*to_phase(DRAW))
    assert "may draw 3 more cards this Draw Phase, not 4" in refused(
        *draws(1, ANN_HAND[:2]), drawn(1, "Recon", "Recon", "Barrage", "Barrage"))
    assert "Pick 3 or fewer" in refused(
        *draws(1, ANN_HAND[:2]), drawn(1, "Recon", "Recon", "Barrage", "Barrage"))


def test_a_draw_refuses_cards_not_left_naming_the_card() -> None:
    assert "no Terraform is left in the deck" in refused(drawn(1, "Terraform"),
                                                         drawn(2, "Recon", "Terraform"))
    why = refused(drawn(1, "Recon", "Recon", "Recon"))
    assert "the deck holds 2 Recon, not 3" in why and "Pick 2 Recon or fewer" in why
    assert "has no card 'Joker'" in refused(drawn(1, "Recon", "Joker"))
    assert "no card is picked" in refused(event("draw-cards", 1, cards=" , "))
    assert "only in the Draw Phase or the Battle Phase" in refused(
        *to_phase(MOVE), drawn(1, "Recon"))


def test_a_refused_draw_changes_nothing() -> None:
    """All or nothing: a draw naming one card too many takes none of them."""
    before = play(drawn(1, "Terraform"))
    with pytest.raises(Exception, match="no Terraform"):
        PLAY.apply(before, drawn(2, "Recon", "Recon", "Terraform"))
    assert PLAY.to_data(before)["deck_left"] == 48


def emptying(state: SpaceEmpiresState, deck: dict[str, int]) -> SpaceEmpiresState:
    """`state` with only `deck` left in the deck; every other card in the discards."""
    names = [c.name for c in state.cards]
    left = tuple(deck.get(n, 0) for n in names)
    return replace(state, deck=left,
                   discard=tuple(c.count - n for c, n in zip(state.cards, left, strict=True)))


def test_the_deck_runs_out_mid_draw_and_the_discards_are_shuffled() -> None:
    """The deck's last cards are drawn first; the rest come from the discards, shuffled into
    a new deck, as the one-card draws would have it."""
    low = emptying(play(), {"Recon": 1, "Barrage": 1})
    after = PLAY.apply(low, drawn(1, "Recon", "Barrage", "Tactical Move", "Tactical Move",
                                  "Recon"))
    out = PLAY.to_data(after)
    assert data(after, 1)["hand"] == {"Tactical Move": 2, "Barrage": 1, "Recon": 2}
    assert out["reshuffles"] == 1 and out["discard_size"] == 0
    assert out["deck_left"] == 49 - 2 - 3
    one_by_one = low
    for card in ("Recon", "Barrage", "Tactical Move", "Tactical Move", "Recon"):
        one_by_one = PLAY.apply(one_by_one, event("draw", 1, card=card))
    assert one_by_one == after


def refusal(state: SpaceEmpiresState, ev: Event) -> str:
    from listbuilder.engine.match import Refused
    with pytest.raises(Refused) as raised:
        PLAY.apply(state, ev)
    assert raised.value.fix
    return raised.value.message + " | " + raised.value.fix


def test_a_reshuffle_takes_the_whole_deck_first() -> None:
    low = emptying(play(), {"Recon": 1, "Barrage": 1})
    why = refusal(low, drawn(1, "Recon", "Tactical Move", "Tactical Move", "Terraform"))
    assert "the deck holds only 2 cards (Barrage, Recon)" in why
    assert "Pick every card the deck holds" in why
    # the discards shuffled hold one Terraform, and the hand can't take two
    low = emptying(play(), {"Terraform": 1})
    why = refusal(low, drawn(1, "Terraform", "Terraform"))
    assert "the discards shuffled into a new one hold no Terraform" in why
    nothing = replace(play(), deck=(0,) * len(low.deck), discard=(0,) * len(low.deck))
    assert "only 0 cards are left to draw" in refusal(nothing, drawn(1, "Recon"))


def test_after_a_battle_one_draw_fills_the_hand_to_seven() -> None:
    fight = _space(("Nobz Hulk", 1), ben=(("Wraithship", 1),))
    done = [*fight, event("resolve")]  # a standoff: both hands hold 5
    fill = [drawn(1, "Recon", "Recon"), drawn(2, "Barrage", "Barrage")]
    s = play(*done, *fill, event("next-phase"))
    assert PLAY.to_data(s)["phase"] == "Revenue" and data(s, 1)["hand_size"] == 7
    why = refused(*done, drawn(1, "Recon", "Recon", "Outflank"))
    assert "Ann may draw 2 more cards to fill the hand to 7, not 3" in why
    assert "battle 1 is being fought" in refused(*fight, drawn(1, "Recon"))
    assert "only to fill the hands" in refused(*to_phase(BATTLE), drawn(1, "Recon"))


def test_old_one_card_logs_replay_to_the_same_state() -> None:
    """The example log as it was written before draw-cards (one event a card) and as it is
    now (one event a hand) end in the same state, and the old file still loads and replays."""
    library = Library()
    old = read_match(OLD_LOG.read_text(encoding="utf-8"), str(OLD_LOG), library.read_roster)
    new_path = ROOT / "examples" / "spaceempires" / "match.yaml"
    new = read_match(new_path.read_text(encoding="utf-8"), str(new_path), library.read_roster)
    assert sum(e.kind == "draw" for e in old.match.events) == 21
    assert sum(e.kind == "draw-cards" for e in new.match.events) == 5
    assert not any(e.kind == "draw" for e in new.match.events)
    before, after = replay(PLAY, old.match), replay(PLAY, new.match)
    assert PLAY.to_data(before) == PLAY.to_data(after)
    assert PLAY.outcome(before) == PLAY.outcome(after)
    # a draw-cards event goes through the match file and back unchanged
    again = read_match(dump_match(new.match), "again", library.read_roster).match
    assert again.events == new.match.events


def test_the_offers_give_the_picker_each_card_at_its_most() -> None:
    """What the tracker's picker is drawn from: a draw of the most cards allowed, and for
    each card the most of it that may be drawn now; every one accepted."""
    s = play(drawn(1, "Terraform", "Recon"))
    offers = [e for e in PLAY.offers(s) if e.kind == "draw-cards"]
    ann = [counts(e.get("cards")) for e in offers if e.side == 1]
    most = {name: max(c[name] for c in ann) for c in ann for name in c}
    assert max(sum(c.values()) for c in ann) == 3
    assert most["Tactical Move"] == 3 and most["Recon"] == 1 and "Terraform" not in most
    assert len(most) == 17  # every card kind the deck still holds
    assert max(sum(counts(e.get("cards")).values()) for e in offers if e.side == 2) == 5
    for e in offers:
        PLAY.apply(s, e)
    assert not any(e.kind == "draw" for e in PLAY.offers(s))
    done = play(*to_phase(DRAW))
    assert not any(e.kind == "draw-cards" for e in PLAY.offers(done))


def test_a_card_name_may_not_hold_the_lists_separator() -> None:
    with pytest.raises(ValidationError):
        CardModel.model_validate({"name": "Hit, Run", "count": 1, "kind": "look",
                                  "text": "Look."})
    assert all("," not in c.name for c in play().cards)
    assert split_words("Recon, Recon ,Barrage,,") == ["Recon", "Recon", "Barrage"]
    assert joined([("Recon", 2), ("Barrage", 1), ("Surprise", 0)]) == "Recon, Recon, Barrage"
