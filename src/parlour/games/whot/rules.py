"""Whot! rule options and the named rule sets of the sources.

Every option names the sentence it comes from. Where the sheets leave a point open (see
RULES-NOTES.md) the option's doc says so and gives the default chosen.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from parlour.core import RulesError, option

from .cards import PACK

__all__ = ["POWERS", "PRESETS", "WhotRules"]

POWERS = ("hold_on", "pick_two", "pick_three", "suspension", "general_market")
PICK_AMOUNT = {"pick_two": 2, "pick_three": 3}
DECLARATIONS = ("last card", "semi-last card", "check up")


@dataclass(frozen=True)
class WhotRules:
    """Every rule of Whot! that differs between the sources, as data."""

    packs: int = option(
        0,
        "Number of 54-card packs shuffled together; 0: by the size of the table, as the rule "
        "set's source advises — one pack below `two_packs_from` players, two from it (and two "
        "whenever one cannot deal every hand). One pack deals six cards each to 8 players with a "
        "card turned up (9 when the leader plays any card), five each to 10; two packs deal six "
        "each to the largest table, 17 players.",
        'seed 000: "For Two or any number of Players"; "For more than five players it is '
        'desirable (though not essential) to use two packs"; seed 002: "If there are many '
        'players, (four or more), it is advisable to mix two Whot-card decks into one".',
        low=0,
        high=2,
    )
    two_packs_from: int = option(
        6,
        "With packs=0, the number of players from which two packs are shuffled together.",
        'seed 000: "For more than five players it is desirable ... to use two packs" (6); seed '
        '002: "If there are many players, (four or more), it is advisable to mix two Whot-card '
        'decks into one" (4).',
        low=2,
        high=17,
    )
    deal: int = option(
        6,
        "Cards dealt to each player.",
        'seed 000: "until every player has SIX cards"; seed 002 (Nigerian): "usually three to '
        'six".',
        low=1,
        high=20,
    )
    opening: str = option(
        "leader-plays-any",
        "How play begins: the leader (left of the dealer) plays any card, or the top card of the "
        "pack is turned up as the first call card.",
        'seed 000: "THE LEADER ... begins the game by playing ANY card"; seed 002: "The top card '
        'from the deck is placed face up to serve as the call card".',
        choices=("leader-plays-any", "turn-up"),
    )
    opening_special: str = option(
        "inert",
        "A special card turned up as the first call card: 'inert' (no power), 'applies' (a card "
        "with a power acts as if the dealer had played it), or 'bury' (it goes back into the pack "
        "and another is turned up). A turned-up WHOT calls no symbol: under 'inert' and "
        "'applies' alike the leader plays any card. The sheets are silent.",
        "RULES-NOTES: open point 'what a special card turned up as the first call card does'.",
        choices=("inert", "applies", "bury"),
    )
    may_draw_instead: bool = option(
        True,
        "A player who could follow may still draw instead (the draw ends the turn).",
        'seed 000: "Even when a player CAN follow the Call he is NOT COMPELLED to do so, but if he '
        'does not PLAY a card ... he MUST draw a card."',
    )
    whot_on_whot: bool = option(
        True,
        "A WHOT may be played on a WHOT, changing or keeping the call.",
        'seed 000: "A WHOT card may be played on to another WHOT card and cancel the Call ... On '
        'the other hand, he may play a WHOT card and let the Call remain".',
    )
    whot_powers: tuple[str, ...] = option(
        (),
        "What a WHOT may do besides calling a symbol: 'reverse' the direction, 'skip' the next "
        "player (each chosen by the player when playing it).",
        'seed 002 (English): "The Whot-card has three functions ... Symbol-change ... '
        'Direction-change ... Skip the next player".',
        choices=("reverse", "skip"),
    )
    whot_answers_skip: bool = option(
        False,
        "A player skipped by a WHOT may answer with a WHOT of their own instead of losing the "
        "turn.",
        'seed 002 (English): "three functions that can be defended by playing another Whot-card".',
    )
    powers: tuple[tuple[int, str], ...] = option(
        (),
        "Special powers by card number (number:power pairs). Powers: hold_on (everyone else is "
        "skipped and the player plays again), pick_two / pick_three (the next player picks that "
        "many unless they answer), suspension (the next player is skipped), general_market "
        "(every other player picks one and the player plays again).",
        'seed 002: "1-card (Hold on)", "2-card (Pick 2)", "5-card (Pick 3)", "8-card (Skips the '
        'next player)", "14-card (General market)", and the two variant tables.',
        choices=POWERS,
    )
    pick_stacking: bool = option(
        True,
        "A pick card may be answered by a card of the same number, passing on the whole pick.",
        'seed 002: "Pick 2 - Defended with a 2-card ... Then that player must pick two cards for '
        'every 2-cards that was played".',
    )
    pick_reverses: bool = option(
        False,
        "The change of direction agreed before the game: whoever plays a pick card may say 'and "
        "change direction' with it (`play 2 circle reverse`), reversing the direction of play "
        "before the pick passes on; each pick card is played with or without it, as its player "
        "chooses.",
        'seed 002: "the players can agree to allow the option of changing the playing direction '
        "... when a 2- or 5-card is played ... In this case it is said out loud: Pick two and "
        'change direction".',
    )
    whot_answers_pick: bool = option(
        False,
        "A WHOT may answer a pending pick, cancelling it. The sheets are silent.",
        "RULES-NOTES: open point 'whether a WHOT may answer a pending pick'.",
    )
    straights: str = option(
        "off",
        "Runs of consecutive numbers in one turn ('same-symbol' or 'any-symbol'); the first card "
        "must follow the call and may not be a WHOT.",
        'seed 002 (English): "If you have cards in ascending or descending order you can play them '
        "in a row ... It can be agreed ... if a straight should only be allowed for cards with the "
        "same symbol or if the symbol doesn't matter.\"",
        choices=("off", "same-symbol", "any-symbol"),
    )
    straight_gaps: bool = option(
        False,
        "A straight may step over the numbers no card has, 6 and 9: 5 then 7, 8 then 10 (and "
        "down). Off: a straight is of consecutive numbers, so it stops at 5 and at 8 (and at 7 and "
        "10 going down). The sheets are silent.",
        'seed 002 (English): "If you have cards in ascending or descending order you can play '
        'them in a row"; seed 000: "There are no 6\'s or 9\'s of ANY symbol".',
    )
    turn_powers: str = option(
        "last",
        "Which cards of a turn of several cards (straights, double decking) have their power: "
        "'last', only the last card's, except that pick cards of its number played together "
        "each add to the pick; 'each', every card's: the picks add up (answered by the last pick "
        "card's number), each suspension skips one more player, each general market gives every "
        "other player a card, and the last card says whether the player plays again (as when "
        "the suspensions skip every other player; the next player then picks any pick at once). "
        "The sheets are silent.",
        'seed 002: "Then that player must pick two cards for every 2-cards that was played"; how '
        "other powers act in a turn of several cards is not said (RULES-NOTES: open points).",
        choices=("last", "each"),
    )
    double_decking: str = option(
        "off",
        "After a card that follows the call, more cards of the same 'number' (or, as agreed, the "
        "same 'symbol') in the same turn.",
        'seed 002: "Double decking ... playing different cards of the same number after each '
        'other ... the players may agree ... playing different cards of the same shape".',
        choices=("off", "number", "symbol"),
    )
    knockout: bool = option(
        False,
        "Knock-out Whot: a star may be played on a star or on either of its numbers; one star left "
        "in hand doubles the hand's score, two or more multiply it by four.",
        'seed 002: "Knock-out Whot ... You can play your star card if the call-card shows a star '
        'or any of the numbers on your star card".',
    )
    star_doubling: bool = option(
        False,
        "Each star card left in a hand doubles the hand's whole score (three stars: x8), and a "
        "star may be played on a star or on a call of either of its numbers (the outer one or the "
        "doubled one in the star), as in Knock-out Whot. Not with `knockout`, which scores stars "
        "its own way.",
        'seed 002 (Variations): "Players double their entire score for each star card remaining '
        "in their hand at the end of play, but are also able to play star cards using either the "
        'number in the top left or the doubled number written in the star."',
    )
    declarations: tuple[str, ...] = option(
        (),
        "Declarations that must be said, with a penalty of two cards when forgotten: 'last card', "
        "'semi-last card', 'check up'. Say one by adding it to the play that needs it: "
        "'play 5 circle, last card'. A forgotten 'last card' or 'semi-last card' is charged once "
        "the next player has played, so a player who goes out first in a turn that goes on (Hold "
        "on, General market) owes nothing; a forgotten 'check up' at once, and the turn passes.",
        'seed 002: "If you fail to say Last card before the next player has played, you have to '
        'pick two more cards"; "If you fail to say Check up ... and the next player continues '
        'playing, then you have to pick two more cards from the market and the game continues."',
        choices=DECLARATIONS,
    )
    declaration_penalty: int = option(
        2,
        "Cards picked for a forgotten declaration.",
        'seed 002: "you have to pick two more cards from the market".',
        low=0,
        high=10,
    )
    empty_pack: str = option(
        "turn-over",
        "When the pack runs out: 'turn-over' the played cards under the call card without "
        "shuffling, 'shuffle' them into a new market, or 'end' the game as soon as the last card "
        "is taken from the market and count hands (lowest wins).",
        'seed 000: "the remainder of the pack turned FACE DOWNWARDS (without shuffling)"; seed '
        '002: "The removed cards are shuffled"; RULES-NOTES: the app rule "market runs out, game '
        'ends".',
        choices=("turn-over", "shuffle", "end"),
    )
    nothing_to_draw: str = option(
        "end",
        "When a card must be drawn and none is left anywhere (the market is empty and nothing "
        "lies under the call card): 'end' the game and count hands (lowest wins); or 'pass': "
        "what cannot be drawn is not, and play goes on, until every player in a row has gone to "
        "market and found nothing — the game is then blocked and hands are counted. The sheets "
        "are silent.",
        "RULES-NOTES: open point 'what happens when the market is empty and nothing can be "
        "turned over (every card is in a hand)'.",
        choices=("end", "pass"),
    )
    may_finish_on_special: bool = option(
        True,
        "A player may play a card with a power (not WHOT) as the last card. The sheets are silent.",
        "RULES-NOTES: open point 'whether a player may finish on a special card'.",
    )
    move_clock: int = option(
        0,
        "Seconds a player has to move (0: no clock); when it runs out the player draws.",
        'seed 002: "Usually every player has 10 seconds to play a card ... the player is demanded '
        'by the other players to pick a card from the market".',
        low=0,
        high=3600,
    )
    match: str = option(
        "single",
        "The usual multi-game format: single, rubber-5, rubber-10 (Storey's kitty), "
        "elimination-100 (English), rounds-N.",
        'seed 000: "A SHORT RUBBER consists of FIVE games. A LONG RUBBER consists of TEN games."; '
        'seed 002 (English): "players whose card values add up to 100 or more must leave".',
    )
    dealer_by_cut: bool = option(
        False,
        "The first dealer of a match is found by cutting: lowest deals, WHOT high.",
        'seed 000: "THE DEALER for the first game is decided by each player cutting from the pack. '
        'The WHOT Card (20-W) counts high. The player cutting LOWEST deals".',
    )

    def __post_init__(self) -> None:
        numbers = [n for n, _ in self.powers]
        if len(set(numbers)) != len(numbers):
            raise RulesError("powers gives one number two powers")
        for n, _ in self.powers:
            if n not in (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14):
                raise RulesError(f"powers names card number {n}, which no Whot! card has")
        if self.straights != "off" and self.double_decking != "off":
            raise RulesError("straights and double_decking cannot both be on")
        if self.knockout and self.star_doubling:
            raise RulesError(
                "knockout and star_doubling each score stars their own way: choose one"
            )

    @property
    def power_of(self) -> dict[int, str]:
        return dict(self.powers)

    def cards_needed(self, players: int) -> int:
        """Cards the deal takes at a table of `players`, the card turned up included."""
        return players * self.deal + (1 if self.opening == "turn-up" else 0)

    def for_table(self, players: int) -> WhotRules:
        """These rules at a table of `players`: `packs` made definite (0 follows the table's size,
        see the option) and the deal checked against the packs. Raises RulesError."""
        packs = self.packs
        needed = self.cards_needed(players)
        if not packs:
            packs = 2 if players >= self.two_packs_from or needed > len(PACK) else 1
        size = len(PACK) * packs
        if needed > size:
            more = " or set packs=2" if packs == 1 else ""
            held = "the pack has" if packs == 1 else f"{packs} packs have"
            raise RulesError(
                f"{players} players with {self.deal} cards each need {needed} cards, but {held} "
                f"{size}; deal fewer{more}"
            )
        if self.empty_pack == "end" and needed == size:
            raise RulesError(
                f"{players} players with {self.deal} cards each take the whole market, and with "
                "empty_pack=end the game would be over before it began; deal fewer"
            )
        return self if packs == self.packs else replace(self, packs=packs)


# seed 002's rule sets: a card turned up, the market shuffled when it runs out, and two packs from
# four players ("If there are many players, (four or more), it is advisable to mix two Whot-card
# decks into one").
_GENERAL = WhotRules(opening="turn-up", empty_pack="shuffle", two_packs_from=4)

NIGERIAN_POWERS = (
    (1, "hold_on"),
    (2, "pick_two"),
    (5, "pick_three"),
    (8, "suspension"),
    (14, "general_market"),
)

PRESETS: dict[str, WhotRules] = {
    # seed 000 exactly: the leader plays any card, voluntary draw, no powers, no reshuffle.
    "storey-1935": WhotRules(match="rubber-5", dealer_by_cut=True),
    # seed 002, Nigerian rules. Deal: the sheet says "usually three to six"; five is our default.
    "nigerian": replace(_GENERAL, deal=5, powers=NIGERIAN_POWERS, match="rounds-5"),
    # seed 002, English rules: WHOT changes symbol, reverses or skips; straights of one symbol.
    "english": replace(
        _GENERAL,
        whot_powers=("reverse", "skip"),
        whot_answers_skip=True,
        straights="same-symbol",
        match="elimination-100",
    ),
    # seed 002, Knock-out Whot: English rules with star play and star scoring changed.
    "knockout": replace(
        _GENERAL,
        whot_powers=("reverse", "skip"),
        whot_answers_skip=True,
        straights="same-symbol",
        knockout=True,
        match="elimination-100",
    ),
    # seed 002, "In one variant": 1 Hold On, 2 Pick Two, 3 Suspension, 14 General Market. The
    # table's Pick Two is not answered: "The next player draws two cards from the deck and loses
    # their turn".
    "variant-suspension-3": replace(
        _GENERAL,
        powers=((1, "hold_on"), (2, "pick_two"), (3, "suspension"), (14, "general_market")),
        pick_stacking=False,
    ),
    # seed 002, "In another variant": 1 Hold On, 4 General Market, 7 Pick Two, 8 Suspension; its
    # Pick Two is not answered either.
    "variant-pick-7": replace(
        _GENERAL,
        powers=((1, "hold_on"), (4, "general_market"), (7, "pick_two"), (8, "suspension")),
        pick_stacking=False,
    ),
}
