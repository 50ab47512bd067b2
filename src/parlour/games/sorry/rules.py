"""Sorry! rule options and presets.

Every option names the sentence of seed 003 it comes from; where the sheet is silent the doc says
so, and the default is the one documented in docs/sorry.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.core import option

from .board import COLOURS

__all__ = ["PRESETS", "SorryRules"]


@dataclass(frozen=True)
class SorryRules:
    """The rules of one Sorry! game, as data."""

    colours: tuple[str, ...] = option(
        (),
        "The colours the players choose, one for each seat in seat order, which is the order of "
        "play: 'green,red' gives seat 1 green and seat 2 red, green playing first. Empty: the "
        "fixed seating (2 players red and yellow; 3 red, blue and yellow; 4 red, blue, yellow "
        "and green). Not in the partnership game, whose colours the sheet fixes.",
        'seed 003 rule 2: "Each player chooses a colour and places the 4 pieces of that colour on '
        'the matching START circle."',
        choices=COLOURS,
    )
    partnership: bool = option(
        False,
        "Partnership game: RED with YELLOW, GREEN with BLUE; a player moves his own or his "
        "partner's pawns and the first partnership with all 8 pawns HOME wins. With 2 players each "
        "plays both colours of one partnership (a reconstruction); 3 players cannot play it.",
        "seed 003, partnership rule 1: \"RED is always YELLOW's partner; GREEN is always "
        'BLUE\'s."; rule 5: "The first partnership to reach HOME with all 8 pieces wins the game."',
    )
    point_score: bool = option(
        False,
        "Point-score game: 5-card hands; play a card, then draw; discard and draw when nothing "
        "in hand can be used; scored at the end.",
        'seed 003, point score rule 2: "Each player on his turn discards one card from his hand, '
        'FACE UP ... Next he draws a card from the pack into his hand."',
    )
    pawns_out: int = option(
        0,
        "Pawns each colour has on its start exit when the game begins (the point-score game "
        "puts 1 there).",
        'seed 003, point score rule 1: "Each player places 3 of his pieces on his START. The 4th '
        'piece is placed on the starting space next to his START circle."',
        low=0,
        high=1,
    )
    hand_size: int = option(
        5,
        "Cards in each hand in the point-score game.",
        'seed 003, point score rule 1: "5 cards are dealt to each player FACE DOWN"; rule 2: '
        '"Each player must have 5 cards in hand at the end of each turn."',
        low=1,
        high=8,
    )
    deck: str = option(
        "1972",
        "The pack: '1972' has 45 cards (five 1s, four each of 2 3 4 5 7 8 10 11 12 SORRY!); "
        "'1939' has 44, four of each.",
        "seed 003 rule 1: \"1 pack of cards (there are no 6's or 9's in the pack)\"; the counts "
        "are from RULES-NOTES (the sheet does not print them).",
        choices=("1972", "1939"),
    )
    two_draws_again_always: bool = option(
        True,
        "Regular and partnership games: a 2 gives a second card even when it could not be used "
        "(the card reads 'Draw again' whether or not you moved). False: only after entering or "
        "moving with it. Not in the point-score game, where a 2 discarded unused is a forfeit "
        "and the turn ends (point score rule 2).",
        'seed 003 rule 5: "On the draw of a \\"2\\" card a player may enter a piece ... and draw a '
        'second card to move that piece or any other" (silent on a 2 that cannot be used).',
    )
    point_two_again: bool = option(
        True,
        "Point-score game: a 2 played from the hand gives another turn: the player draws (back "
        "to 5 cards), then plays again from the hand, as the 2 reads 'Draw again' and the "
        "regular game's rules apply but for the exceptions the sheet lists. False: the turn "
        "ends after the draw, as it does for every other card. (A 2 discarded unused never "
        "gives another turn.)",
        'seed 003, point score rules: "All rules of the regular game apply EXCEPT"; rule 2: '
        '"Next he draws a card from the pack into his hand. His turn ends." (silent on the 2); '
        'rule 5: "draw a second card to move that piece or any other".',
    )
    eleven_change_optional: bool = option(
        True,
        "When an 11 cannot be moved forward 11, changing places is optional: the player may "
        "forfeit instead (the 11 card's text).",
        'seed 003 rule 6: "a player MUST make any move directed by the cards drawn if possible"; '
        'RULES-NOTES: "if you cannot go 11, the change is optional (you may forfeit)".',
    )
    point_eleven_decline: str = option(
        "free",
        "Point-score game, an 11 that cannot go forward 11 (its change of places optional, "
        "eleven_change_optional): 'free' — it may be discarded without a move ('pass 11'), the "
        "turn ending, even when another card in hand could be used: playing the 11 and declining "
        "the change follows its directions. 'forfeit' — declining the change is forfeiting the "
        "turn, open only when no other card in hand can be used; the player then discards any "
        "one card.",
        'seed 003, point score rule 2: "A player forfeits his chance to play if unable to use any '
        "card in hand to enter or move a piece. In that case, he discards one card and draws "
        'another from the pack."; the 11 card (RULES-NOTES): "if you cannot go 11, the change is '
        'optional (you may forfeit)".',
        choices=("free", "forfeit"),
    )
    slide_after_change: bool = option(
        True,
        "A pawn put on a slide's triangle by a SORRY! or an 11 change of places slides (it "
        "'lands' there). The sheet is silent.",
        'seed 003 rule 8: "A piece which lands on the triangle of a SLIDE of a colour other than '
        'its own SLIDES DIRECTLY TO THE ROUND END OF THAT SLIDE."',
    )
    bonus: str = option(
        "highest",
        "Point-score winner's bonus: 'highest' — only the highest of 100/50/25 that applies; "
        "'all' — every line that applies is added.",
        "seed 003, point score rule 3: \"100 points if no opponent's piece reached HOME; 50 "
        "points if no opponent has more than 1 piece HOME; 25 points if no opponent has more than "
        '2 pieces HOME"',
        choices=("highest", "all"),
    )

    def __post_init__(self) -> None:
        for colour in self.colours:
            if colour not in COLOURS:
                raise ValueError(
                    f"colours: {colour!r} is not a colour of the board ({', '.join(COLOURS)})"
                )
            if self.colours.count(colour) > 1:
                raise ValueError(
                    f"colours: {colour} is chosen twice; each player chooses a colour of his own"
                )
        if self.colours and self.partnership:
            raise ValueError(
                "colours cannot be chosen in the partnership game: partnership rule 1 fixes them "
                "(\"RED is always YELLOW's partner; GREEN is always BLUE's\"), seats taking red, "
                "blue, yellow and green in turn"
            )
        if self.deck not in ("1972", "1939"):
            raise ValueError(f"deck must be 1972 or 1939, not {self.deck!r}")
        if self.point_eleven_decline not in ("free", "forfeit"):
            raise ValueError(
                f"point_eleven_decline must be free or forfeit, not {self.point_eleven_decline!r}"
            )


PRESETS: dict[str, SorryRules] = {
    "regular": SorryRules(),
    "partnership": SorryRules(partnership=True),
    "points": SorryRules(point_score=True, pawns_out=1),
}
