"""The pack, the deal and how play opens (seed 000; seed 002 for the turn-up rule sets)."""

from __future__ import annotations

from collections import Counter

import pytest

import parlour
from parlour.core import GameRng, RulesError
from parlour.core.options import option_table
from parlour.core.registry import info
from parlour.games.whot.cards import PACK, WHOT, card_text, parse_card
from parlour.games.whot.rules import WhotRules


def make(players: int = 2, rules: str = "nigerian", **opts: object) -> parlour.Game:  # type: ignore[type-arg]
    return parlour.make("whot", players=players, rules=rules, **opts)


def all_cards(state: parlour.State) -> Counter[str]:
    full = state.to_dict()
    cards = Counter(full["pile"] + full["pack"])
    for hand in full["hands"]:
        cards.update(hand)
    return cards


# --- the pack ----------------------------------------------------------------------------------


def test_the_pack_is_exactly_seed_000s_list() -> None:
    # seed 000, "THE CARDS IN THE PACK": CIRCLES 1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14. TRIANGLES
    # the same. CROSSES 1, 2, 3, - 5, 7, - 10, 11, - 13, 14. SQUARES the same. STARS 1, 2, 3, 4, 5,
    # 7, 8. "WHOT" - FIVE Cards. (54 Cards in all)
    expected = Counter(
        [f"{n} circle" for n in (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14)]
        + [f"{n} triangle" for n in (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14)]
        + [f"{n} cross" for n in (1, 2, 3, 5, 7, 10, 11, 13, 14)]
        + [f"{n} square" for n in (1, 2, 3, 5, 7, 10, 11, 13, 14)]
        + [f"{n} star" for n in (1, 2, 3, 4, 5, 7, 8)]
        + ["whot"] * 5
    )
    assert sum(expected.values()) == 54
    assert Counter(card_text(c) for c in PACK) == expected


def test_no_sixes_or_nines_and_no_multiples_of_four_in_four_sided_symbols() -> None:
    # seed 000: "There are no 6's or 9's of ANY symbol. SQUARES & CROSSES (FOUR Sided Symbols)
    # have no 4's or multiples of 4 (i.e., 4, 8, and 12)."
    texts = [card_text(c) for c in PACK]
    assert not any(t.split()[0] in ("6", "9") for t in texts)
    for sym in ("square", "cross"):
        for n in (4, 8, 12):
            assert f"{n} {sym}" not in texts
            with pytest.raises(parlour.IllegalMove, match=r"no .* in the Whot! pack"):
                parse_card(f"{n} {sym}")
    # seed 000: "STARS 1, 2, 3, 4, 5, 7, 8" — no star above 8, and no 6.
    assert sorted(int(t.split()[0]) for t in texts if t.endswith("star")) == [1, 2, 3, 4, 5, 7, 8]


def test_five_whot_cards() -> None:
    # seed 000: '"WHOT" - FIVE Cards (count 20 when scoring)'
    assert Counter(PACK)[WHOT] == 5


@pytest.mark.parametrize("rules", ["storey-1935", "nigerian", "english"])
def test_a_dealt_game_holds_the_whole_pack(rules: str) -> None:
    state = make(3, rules).new_game(3)
    assert all_cards(state) == Counter(card_text(c) for c in PACK)


def test_two_packs_make_108_cards() -> None:
    # seed 000: "For more than five players it is desirable (though not essential) to use two
    # packs."
    state = make(6, "storey-1935", packs=2).new_game(5)
    cards = all_cards(state)
    assert sum(cards.values()) == 108
    assert cards == Counter({card_text(c): 2 * k for c, k in Counter(PACK).items()})
    assert cards["whot"] == 10


# --- how many players, how many packs ----------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "one_pack", "two_packs"),
    [("storey-1935", (2, 5), (6, 17)), ("nigerian", (2, 3), (4, 17)), ("english", (2, 3), (4, 17))],
)
def test_two_packs_by_default_as_the_source_advises(
    rules: str, one_pack: tuple[int, int], two_packs: tuple[int, int]
) -> None:
    # seed 000: "For more than five players it is desirable (though not essential) to use two
    # packs." seed 002: "If there are many players, (four or more), it is advisable to mix two
    # Whot-card decks into one".
    for players in range(one_pack[0], one_pack[1] + 1):
        assert make(players, rules).rules.packs == 1
    for players in range(two_packs[0], two_packs[1] + 1):
        game = make(players, rules)
        assert game.rules.packs == 2
        assert sum(all_cards(game.new_game(1)).values()) == 108


def test_an_eight_player_nigerian_table_has_two_packs() -> None:
    # The lobby's default preset at eight: one pack left 13 cards in the market.
    game = parlour.make("whot", players=8, rules="nigerian")
    assert game.rules.packs == 2
    assert game.new_game(0).view(None)["pack_count"] == 108 - 8 * 5 - 1
    assert game == parlour.make("whot", players=8, rules="nigerian", packs=2)


def test_one_pack_still_works_where_it_fits() -> None:
    # seed 000: "(though not essential)"
    game = parlour.make("whot", players=8, rules="nigerian", packs=1)
    assert game.rules.packs == 1
    assert game.new_game(0).view(None)["pack_count"] == 54 - 8 * 5 - 1
    with pytest.raises(parlour.RulesError, match="need 61 cards, but the pack has 54"):
        parlour.make("whot", players=10, rules="english", packs=1)


def test_any_number_of_players_the_packs_can_deal() -> None:
    # seed 000: "For Two or any number of Players" — as many as two packs can deal: six cards
    # each and one turned up for 17 (the most any preset deals to).
    assert parlour.core.registry.games()["whot"].max_players == 17
    for rules in parlour.core.registry.games()["whot"].presets:
        state = make(17, rules).new_game(2)
        assert state.view(None)["hand_counts"] == [state.game.rules.deal] * 17
    with pytest.raises(parlour.RulesError, match="2 packs have 108"):
        parlour.make("whot", players=17, rules="english", deal=7)
    with pytest.raises(parlour.RulesError, match="for 2 to 17 players"):
        parlour.make("whot", players=18)


def test_one_pack_when_the_deal_needs_two() -> None:
    # With packs=0 the deal is made to fit: a big deal at a small table takes two packs.
    assert make(3, "nigerian", deal=20).rules.packs == 2
    assert make(3, "nigerian", two_packs_from=5).rules.packs == 1
    assert make(5, "nigerian", two_packs_from=5).rules.packs == 2


# --- the deal ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "deal"), [(2, 3), (4, 5), (6, 6)])
def test_each_player_gets_deal_cards(players: int, deal: int) -> None:
    state = make(players, "nigerian", deal=deal).new_game(11)
    assert state.view(None)["hand_counts"] == [deal] * players
    size = 54 * state.game.rules.packs  # two from four players (seed 002)
    assert state.view(None)["pack_count"] == size - players * deal - 1  # one turned up


def test_storey_deals_six() -> None:
    # seed 000: "deals out one card ... and so on until every player has SIX cards."
    state = make(5, "storey-1935").new_game(2)
    assert state.view(None)["hand_counts"] == [6] * 5
    assert state.view(None)["pack_count"] == 54 - 30


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_dealt_one_at_a_time_starting_at_the_dealers_left(dealer: int) -> None:
    # seed 000: "The dealer, holding the pack face downwards, deals out one card to the player on
    # his LEFT, then a card to the next player on the left, and so on until every player has SIX
    # cards."
    n, seed = 3, 42
    state = make(n, "storey-1935").new_game(seed, dealer=dealer)
    pack = list(PACK)
    GameRng(seed).shuffle(pack)  # the engine's own shuffle: the pack's top is its end
    hands: list[list[int]] = [[] for _ in range(n)]
    for _ in range(6):
        for i in range(1, n + 1):
            hands[(dealer + i) % n].append(pack.pop())
    assert [[card_text(c) for c in h] for h in hands] == state.to_dict()["hands"]
    left = (dealer + 1) % n
    # The top card went to the player on the dealer's left, and the dealer's first card is the
    # n-th one: the cards went round one at a time, not in blocks.
    assert state.to_dict()["hands"][left][1] != card_text(pack[-1])


# --- the opening -------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "dealer"), [(2, 1), (3, 1), (4, 3), (4, 0)])
def test_storey_leader_is_dealers_left_and_there_is_no_call_card(players: int, dealer: int) -> None:
    # seed 000: "THE LEADER, who is the player on the LEFT of the dealer, begins the game by
    # playing ANY card from his hand"
    state = make(players, "storey-1935").new_game(7, dealer=dealer)
    view = state.view(None)
    assert state.to_play == (dealer + 1) % players
    assert view["pile"] == [] and view["call_card"] is None and view["call"] is None


def test_storey_leader_may_play_any_card() -> None:
    # seed 000: "begins the game by playing ANY card from his hand"
    for seed in range(20):
        state = make(3, "storey-1935").new_game(seed)
        hand = state.view(0)["hand"]
        plays = {m.card for m in state.legal_moves() if m.kind == "play"}
        assert {card_text(c) for c in plays} == set(hand)
        assert "draw" in {str(m) for m in state.legal_moves()}


def test_storey_first_card_played_becomes_the_call_card() -> None:
    # seed 000: "THE CALL CARD is the name given to the card thus exposed, and as each card is
    # played, that card in turn becomes the Call Card."
    state = make(2, "storey-1935").new_game(1)
    card = next(
        m for m in state.legal_moves() if str(m).startswith("play ") and "whot" not in str(m)
    )
    state.apply(card)
    assert state.view(None)["call_card"] == str(card)[5:]


@pytest.mark.parametrize("rules", ["nigerian", "english", "knockout", "variant-pick-7"])
def test_turn_up_rule_sets_turn_up_the_top_card_as_call_card(rules: str) -> None:
    # seed 002: "The top card from the deck is placed face up to serve as the call card"
    n, seed = 3, 9
    game = make(n, rules)
    state = game.new_game(seed)
    pack = list(PACK)
    GameRng(seed).shuffle(pack)
    del pack[len(pack) - n * game.rules.deal :]
    view = state.view(None)
    assert view["pile"] == [card_text(pack[-1])] or game.rules.opening_special == "bury"
    top = view["call_card"]
    if top != "whot":
        assert view["call"] == top.split()[1]
        # the leader must follow it
        for m in state.legal_moves():
            if m.kind == "play" and m.card != WHOT:
                num, sym = card_text(m.card).split()
                assert sym == top.split()[1] or num == top.split()[0]


def test_the_packs_option_says_only_what_a_table_can_be() -> None:
    # issue 31, item 17: its words said "two packs to 17 (18) and 21" while tables stop at 17;
    # each figure it gives now holds, and none names a table larger than the game seats
    doc = option_table(WhotRules)
    (packs,) = [row.doc for row in doc if row.name == "packs"]
    assert "17 (18)" not in packs and "21" not in packs
    assert "two packs deal six each to the largest table, 17 players" in packs
    assert info("whot").max_players == 17
    turn_up = WhotRules(packs=1, opening="turn-up")
    assert turn_up.for_table(8).packs == 1
    with pytest.raises(RulesError):
        turn_up.for_table(9)  # six each to 8 with a card turned up, not 9
    assert WhotRules(packs=1).for_table(9).packs == 1  # the leader plays any card: 9
    assert WhotRules(packs=1, deal=5, opening="turn-up").for_table(10).packs == 1
    with pytest.raises(RulesError):
        WhotRules(packs=1, deal=5, opening="turn-up").for_table(11)
    assert WhotRules(packs=2, opening="turn-up").for_table(17).packs == 2
