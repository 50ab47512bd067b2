"""Who's Who rule options (seed 004) and the named presets of its two games.

Every option names the sentence of the sheet it comes from. Where the sheet is silent the option
says so, cites RULES-NOTES.md, and gives the default chosen.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core import option

__all__ = ["BOOKS_PRESETS", "TRICKS_PRESETS", "BooksRules", "TricksRules", "deals_each"]


@dataclass(frozen=True)
class TricksRules:
    """Game No. 1: tricks with a Preference suit."""

    hand_size: int = option(
        5,
        "Cards dealt to each player for a round.",
        'seed 004: "Five cards are dealt, one at a time, face down, to each player, beginning on '
        "the dealer's left.\"",
        low=1,
        high=7,
    )
    deals_each: int = option(
        0,
        "How many times each player deals; 0 means as the sheet says for the table size (two "
        "players four each, three players three each, four or more twice each).",
        'seed 004: "When there are only two players, each deals four times; when there are three, '
        'each has three deals; when four or more, each deals twice"',
        low=0,
        high=10,
    )
    partnerships: bool = option(
        False,
        "Four or six players play in two or three partnerships, partners sitting opposite, scores "
        "counted together. Has no effect at other table sizes.",
        'seed 004: "When there are four or six players, they may play in two or three '
        "partnerships if they choose. Partners should sit opposite each other, with an opponent "
        'between."',
    )
    must_follow: bool = option(
        True,
        "A player who has a card of the suit led must play one.",
        'seed 004: "All players after the first must play cards of the same suit as the card '
        'first played, if they have any"',
    )

    def __post_init__(self) -> None:
        if self.hand_size * 7 > 52:
            # seven players is the most the box allows ("TWO TO SEVEN CAN PLAY")
            raise ValueError(f"hand_size {self.hand_size} is too many for seven players (52 cards)")


def deals_each(rules: TricksRules, players: int) -> int:
    """Deals per player (seed 004: two players four each, three three each, four or more two)."""
    if rules.deals_each:
        return rules.deals_each
    return {2: 4, 3: 3}.get(players, 2)


@dataclass(frozen=True)
class BooksRules:
    """Game No. 2: collecting books of four."""

    caller_must_hold: bool = option(
        True,
        "A caller must hold at least one card of the number he calls for. Reconstructed: the "
        "sheet is silent; period book games (Authors) require it.",
        'RULES-NOTES: "a caller must hold a card of the number called"; seed 004: "calls upon '
        'any other player for a card that he needs"',
    )
    thank_you: bool = option(
        True,
        "A caller who is given a card must say 'thank' before calling again; a call made without "
        "it sends the card back and the right to call passes to the giver. Off: thanks are "
        "taken as said.",
        'seed 004: "If he neglects to do this, before calling for another card, he must return '
        "the card to the player from whom he got it, and the right to make the next call passes "
        'to that player."',
    )
    success_keeps_turn: bool = option(
        True,
        "A caller who gets the card asked for calls again. Reconstructed (RULES-NOTES, from "
        "Authors); off: the call passes to the left after every successful call.",
        'RULES-NOTES: "a successful call keeps the turn (until the Thank you rule takes it '
        'away)"; seed 004: "When a player fails to get the card called for, the turn to call goes '
        'to the player he last called on."',
    )
    given_back_ends: int = option(
        3,
        "With success_keeps_turn off: the game ends when one card is given for this many times "
        "since the last book, the books counted as they stand (0: never). A referee's reading: "
        "the sheet is silent, and without it two players can hand the cards of an unfinished "
        "book back and forth for ever. With success_keeps_turn on the caller keeps the call and "
        "makes the book, and it does not apply.",
        'seed 004: "The player who collects the most books, wins the game." (the sheet names no '
        "other end: this one is ours)",
        low=0,
        high=52,
    )


TRICKS_PRESETS: dict[str, TricksRules] = {
    "standard": TricksRules(),
    "partnership": TricksRules(partnerships=True),
}

BOOKS_PRESETS: dict[str, BooksRules] = {
    "standard": BooksRules(),
}
