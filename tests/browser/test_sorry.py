"""Sorry! in a real browser: the board in SVG and moves made by clicking pawns and destinations
(issue 7, "Sorry!": "the board drawn in SVG with slides, safety zones, START and HOME; click a pawn,
see its destinations; split 7 and the 11 change by clicks; partnership and point-score hands").

Every turn here is played by clicks on the board (or the module's own buttons), never through the
keyboard list of legal moves or the websocket: the test decides on a move from `msg.legal` the way
a person decides, then clicks the pawn, the card or the destination that the module drew for it.
"""

from __future__ import annotations

import random
import re
from typing import Any

from .conftest import PHONE, Server, drawn, msg, open_table, shoot, wait_turn

READY = "window.parlourTable && window.parlourTable.msg !== null"
SPLIT = re.compile(r"^7 (\S+?)\+(\d) (\S+?)\+(\d)$")


def pressed(page: Any, selector: str) -> bool:
    loc = page.locator(selector)
    return bool(loc.count() > 0 and loc.first.get_attribute("aria-pressed") == "true")


def select_pawn(page: Any, square: str) -> None:
    """Click a pawn (or a START circle) unless the module already has it selected."""
    sel = f'#board [data-pawn="{square}"]'
    if not pressed(page, sel):
        page.click(sel)
    assert pressed(page, sel), f"{square} is not selected after the click"


def click_destination(page: Any, move: str, square: str | None) -> None:
    """Click the destination drawn for `move`: a marker that plays it, or one that asks which
    (two moves end on one square: an 11 forward onto a pawn it could also change places with).
    `square`: where the move ends, or None for a move counted along the track, whose marker is
    then found as a person finds it, by the choices it offers."""
    direct = page.locator(f'#board .marks [data-move="{move}"]')
    if direct.count():
        direct.first.click()
        return
    if square is not None:
        page.click(f'#board .marks [data-dest="{square}"]')
        page.click(f'.sorry-choices button[data-move="{move}"]')
        return
    asking = page.locator("#board .marks [data-dest]")
    for dest in [asking.nth(i).get_attribute("data-dest") for i in range(asking.count())]:
        page.click(f'#board .marks [data-dest="{dest}"]')
        page.wait_for_selector(".sorry-choices button")
        choice = page.locator(f'.sorry-choices button[data-move="{move}"]')
        if choice.count():
            choice.click()
            return
    raise AssertionError(f"no destination drawn for {move}")


def play_by_clicks(page: Any, move: str) -> None:
    """Make the legal move `move` the way a person does: card, pawn, destination (or a button)."""
    m = msg(page)
    assert move in m["legal"]
    if move == "pass" or move.startswith("pass "):
        page.click(f'.sorry-controls button[data-move="{move}"]')
        return
    card, rest = move.split(" ", 1)
    if m["view"]["point_score"]:
        if not pressed(page, f'.sorry-hand [data-card="{card}"]'):
            page.click(f'.sorry-hand [data-card="{card}"]')
        assert pressed(page, f'.sorry-hand [data-card="{card}"]')
    if rest.startswith("enter "):
        colour = rest.split()[1]
        select_pawn(page, f"{colour}start")
        click_destination(page, move, f"{colour}4")
    elif "<>" in rest:  # an 11 change: own pawn, then the opponent's pawn
        mine, theirs = rest.split("<>")
        select_pawn(page, mine)
        click_destination(page, move, theirs)
    elif ">" in rest:  # SORRY!: the START pawn, then the victim
        colour, victim = rest.split(">")
        select_pawn(page, f"{colour}start")
        click_destination(page, move, victim)
    elif SPLIT.match(move):
        a, n, b, _ = SPLIT.match(move).groups()  # type: ignore[union-attr]
        select_pawn(page, a)
        page.click(f'#board .marks [data-split="{a}+{n}"]')
        page.wait_for_selector(f'#board [data-second="{b}"]')
        page.click(f'#board [data-second="{b}"]')
        choice = page.locator(f'.sorry-choices button[data-move="{move}"]')
        if choice.count():  # both orders are legal and end differently: say which goes first
            choice.click()
    else:
        square = re.sub(r"[+-]\d+$", "", rest)
        select_pawn(page, square)
        click_destination(page, move, None)


def played(page: Any, ply: int, move: str = "") -> dict[str, Any]:
    """Wait for the move to be taken: the game's ply moves on."""
    try:
        page.wait_for_function(f"window.parlourTable.msg.ply > {ply}", timeout=15_000)
    except Exception as e:  # say which move the clicks failed to make, and what the page showed
        marks = page.evaluate(
            "[...document.querySelectorAll('#board .marks [data-move], #board .marks [data-dest],"
            " #board [aria-pressed=true]')].map(e => e.outerHTML.slice(0, 120))"
        )
        said = page.inner_text("body")[:1500]
        why = f"{move!r} not taken after ply {ply}; marks {marks}; page: {said}"
        raise AssertionError(why) from e
    return msg(page)


def on_board(squares: list[str]) -> list[str]:
    return [q for q in squares if q not in ("start", "home")]


def test_play_into_a_sorry_game_by_clicking_pawns_and_destinations(
    page: Any, server: Server
) -> None:
    """Issue 7: "Sorry!: the board drawn in SVG with slides, safety zones, START and HOME; click
    a pawn, see its destinations"; "play into a Sorry! game"."""
    open_table(page, server, "sorry", players=4)
    page.wait_for_function(READY)
    board = page.locator("#board svg.sorry-board")
    assert board.get_attribute("viewBox") == "0 0 640 640"
    # the 60-square track, 8 slides, 4 × 5 safety squares, 4 STARTs and 4 HOMEs
    assert page.locator("#board .sq").count() == 60
    assert page.locator("#board .zone-name").count() == 8
    rng = random.Random(7)
    snapshots = []
    turns = 0
    ply = -1
    while turns < 40:
        m = wait_turn(page, ply)
        if m.get("result"):
            break
        legal = m["legal"]
        ply = m["ply"]
        snapshots.append(m["view"]["pawns"])
        # pawns that can move are marked, each with its destinations once clicked
        if legal != ["pass"]:
            assert page.locator("#board [data-pawn]").count() >= 1
        if turns == 0:  # the hint bot's move is shown on the board
            page.click("#hint")
            page.wait_for_function(
                "document.querySelector('#hint-text').textContent.startsWith('Hint:')"
            )
            assert page.locator("#board .hinted").count() >= 1
        moves = [x for x in legal if x != "pass"] or legal
        entering = [x for x in moves if " enter " in x]
        move = rng.choice(entering or moves)
        play_by_clicks(page, move)
        after = played(page, ply, move)
        turns += 1
        red = on_board(after["view"]["pawns"]["red"])
        if move != "pass":
            assert after["view"]["pawns"] != m["view"]["pawns"], move
        if turns >= 8 and red:
            break
    # the pawn is drawn where the view says, with its letter. The bots move on meanwhile, so the
    # view and the drawing are read together, in one task of the page.
    drawn = page.evaluate(
        """() => window.parlourTable.msg.view.pawns.red.map((sq) => [sq,
            [...document.querySelectorAll(`#board g.pawn[data-colour="red"][data-at="${sq}"]`)]
                .map((g) => g.querySelector("text").textContent)])"""
    )
    assert turns >= 8, f"only {turns} turns were played"
    assert red, "no red pawn left START in 40 turns"
    for square, letters in drawn:
        if square in on_board([square]):
            assert letters == ["R"], (square, letters)
    assert len({str(s) for s in snapshots}) > 1  # the board changed as the game went on
    log = page.locator("#log li").all_inner_texts()
    assert any(line.startswith("Ada (red) plays") for line in log), log[-10:]


def choose_target(legal: list[str], done: set[str]) -> tuple[str, str]:
    """The move a player hunting for an 11 change and a split 7 would make, and its kind."""
    swaps = [x for x in legal if "<>" in x]
    splits = [x for x in legal if SPLIT.match(x)]
    if "swap" not in done and swaps:
        return swaps[0], "swap"
    if "split" not in done and splits:
        return splits[0], "split"
    sorry = [x for x in legal if x.startswith("S ")]
    if "sorry" not in done and sorry:
        return sorry[0], "sorry"
    keep = ("7", "11", "S")
    board = [x for x in legal if not x.startswith("pass")]
    enters = [x for x in board if " enter " in x]
    if enters:
        return enters[0], "other"
    others = [x for x in board if x.split()[0] not in keep]
    if others:
        return others[0], "other"
    discards = [x for x in legal if x.startswith("pass ") and x.split()[1] not in keep]
    if discards:
        return discards[0], "other"
    return (board or legal)[0], "other"


def test_a_split_7_an_11_change_and_a_sorry_made_by_clicks(page: Any, server: Server) -> None:
    """Issue 7: "split 7 and the 11 change by clicks" (and SORRY! by a click on the victim). The
    point-score game (5-card hands, one pawn of each colour out at the start) brings all three
    about within a bound; the test fails if they do not come."""
    open_table(page, server, "sorry", preset="points", players=4)
    page.wait_for_function(READY)
    done: set[str] = set()
    made: list[str] = []
    ply = -1
    for _ in range(120):
        m = wait_turn(page, ply)
        if m.get("result") or done == {"swap", "split", "sorry"}:
            break
        ply = m["ply"]
        move, kind = choose_target(m["legal"], done)
        if kind == "sorry":  # SORRY! is one click on the victim: START is already chosen
            if not pressed(page, '.sorry-hand [data-card="S"]'):  # (chosen already if alone)
                page.click('.sorry-hand [data-card="S"]')
            assert pressed(page, '#board [data-pawn="rstart"]')
            victim = move.split(">")[1]
            marker = page.locator(f'#board .marks [data-move="{move}"]')
            assert marker.locator("circle.ring").count() == 1
            box = marker.bounding_box()
            pawn = page.locator(f'#board g.pawn[data-at="{victim}"]').bounding_box()
            assert abs(box["x"] + box["width"] / 2 - (pawn["x"] + pawn["width"] / 2)) < 3
            marker.click()
        else:
            play_by_clicks(page, move)
        played(page, ply)
        if kind != "other":
            logged(page, move)
            done.add(kind)
            made.append(move)
    assert done == {"swap", "split", "sorry"}, f"only {done} came about in 120 turns"
    assert any("<>" in x for x in made) and any(SPLIT.match(x) for x in made)


def logged(page: Any, move: str) -> None:
    """The move just made shows in the log, in words."""
    rest = move.split(" ", 1)[1]
    if "<>" in rest:
        mine, theirs = rest.split("<>")
        words = (
            f"Ada (red) plays an 11: the pawn on {mine} changes places with the pawn on {theirs}"
        )
    elif SPLIT.match(move):
        a, n, b, k = SPLIT.match(move).groups()  # type: ignore[union-attr]
        words = (
            f"Ada (red) plays a 7, split: the pawn on {a} forward {n}, "
            f"then the pawn on {b} forward {k}"
        )
    else:
        victim = rest.split(">")[1]
        words = f"Ada (red) plays SORRY!: a red pawn leaves START for {victim}"
    page.wait_for_function(
        "w => [...document.querySelectorAll('#log li')].some(li => li.textContent.startsWith(w))",
        arg=words,
    )


def test_the_point_score_game_card_from_the_hand_then_its_move(page: Any, server: Server) -> None:
    """Issue 7: "partnership and point-score hands": the point-score game's hand of cards —
    choose a card, then its move, by clicks."""
    open_table(page, server, "sorry", preset="points", players=4)
    m = wait_turn(page)
    hand = m["view"]["hands"]["red"]
    assert len(hand) == 5
    buttons = page.locator(".sorry-hand button[data-card]")
    assert sorted(buttons.evaluate_all("bs => bs.map(b => b.dataset.card)")) == sorted(hand)
    playable = {x.split()[0] for x in m["legal"] if not x.startswith("pass")}
    for b in buttons.all():  # only the cards that can be played are enabled
        assert b.is_enabled() == (b.get_attribute("data-card") in playable)
    turns = 0
    ply = -1
    while turns < 3:
        m = wait_turn(page, ply)
        if m.get("result"):
            break
        ply = m["ply"]
        legal = m["legal"]
        board_moves = [x for x in legal if not x.startswith("pass")]
        if not board_moves:  # nothing in hand can be used: discard one and draw
            play_by_clicks(page, legal[0])
            played(page, ply)
            continue
        card = board_moves[-1].split()[0]
        if not pressed(page, f'.sorry-hand [data-card="{card}"]'):  # (chosen already if alone)
            page.click(f'.sorry-hand [data-card="{card}"]')
        assert pressed(page, f'.sorry-hand [data-card="{card}"]')
        # the chosen card is shown on the board and its pawns are offered
        assert page.locator(f'#board [data-card-face="{card}"]').count() == 1
        assert page.locator("#board [data-pawn]").count() >= 1
        move = next(x for x in board_moves if x.split()[0] == card)
        if turns == 0:  # a picture of the hand on a phone, a card chosen
            page.set_viewport_size(PHONE)
            drawn(page)
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            shoot(page, "sorry-points-phone")
        play_by_clicks(page, move)
        after = played(page, ply, move)
        turns += 1
        # the card left the hand and a new one was drawn (only red's own moves touch red's hand)
        rest = list(m["view"]["hands"]["red"])
        rest.remove(card)
        now = list(after["view"]["hands"]["red"])
        for c in rest:
            now.remove(c)
        assert len(now) == 1
        assert len(after["view"]["hands"]["red"]) == 5  # played one, drew one
    assert turns >= 1
    log = page.locator("#log li").all_inner_texts()
    assert any(line.startswith("Ada (red) draws a card") for line in log), log[-8:]


def test_sorry_screenshots_at_desktop_and_phone_size(page: Any, server: Server) -> None:
    """Issue 7: "works on a 390-px-wide phone screen and on a desktop"; "Screenshots of each game
    at a phone and a desktop size"."""
    open_table(page, server, "sorry", players=4)
    rng = random.Random(3)
    ply = -1
    for turn in range(40):
        m = wait_turn(page, ply)
        ply = m["ply"]
        legal = m["legal"]
        # for the pictures: a pawn on the track with somewhere to go, after a few turns
        on_track = page.locator("#board [data-pawn]:not([data-pawn$='start'])")
        if turn >= 4 and on_track.count():
            if not pressed(page, "#board [data-pawn]:not([data-pawn$='start'])"):
                on_track.first.click()
            break
        entering = [x for x in legal if " enter " in x]
        play_by_clicks(page, rng.choice(entering or legal))
        played(page, ply)
    shoot(page, "sorry-desktop")
    page.set_viewport_size(PHONE)
    drawn(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    width = page.locator("#board svg.sorry-board").bounding_box()["width"]
    assert 300 <= width <= PHONE["width"]
    shoot(page, "sorry-phone")


def test_partnership_game_moving_the_partners_pawns_by_clicks(page: Any, server: Server) -> None:
    """Issue 7: "partnership and point-score hands": in the partnership game red also moves
    yellow's pawns (its partner's), by the same clicks."""
    open_table(page, server, "sorry", preset="partnership", players=4)
    page.wait_for_function(READY)
    ply = -1
    moved_yellow = None
    for _ in range(60):
        m = wait_turn(page, ply)
        if m.get("result"):
            break
        ply = m["ply"]
        yellow = set(m["view"]["pawns"]["yellow"])
        legal = m["legal"]

        def is_yellow(x: str, yellow: set[str] = yellow) -> bool:
            rest = x.split(" ", 1)[1] if " " in x else ""
            if rest in ("enter y",) or rest.startswith("y>"):
                return True
            first = re.split(r"[ +<>-]", rest)[0]
            return first in yellow

        partner = [x for x in legal if not x.startswith("pass") and is_yellow(x)]
        entering = [x for x in legal if " enter " in x]
        move = (partner or entering or legal)[0]
        play_by_clicks(page, move)
        played(page, ply)
        if partner:
            moved_yellow = move
            break
    assert moved_yellow, "red never had a move of a yellow pawn in 60 turns"
    # the partner's pawns are labelled with their owner, not as the viewer's
    labels = page.locator("#board [data-pawn]").evaluate_all(
        "gs => gs.map(g => g.getAttribute('aria-label'))"
    )
    assert all("pawn" in x or "START" in x for x in labels)


def test_the_players_choose_their_colours_in_the_lobby(page: Any, server: Server) -> None:
    """Seed 003 rule 2: "Each player chooses a colour". The lobby asks (the rule option
    `colours`, ticked in seat order), and the board plays the colours chosen: the host's green
    pawns leave green's START and are moved by clicks."""
    page.goto(server.url + "/")
    page.select_option("#game", "sorry")
    page.select_option("#players", "2")
    page.click("details.opts summary")
    # the lobby lists every rule option, the point-score game's two readings among them
    assert page.locator("#opt-point_two_again[type=checkbox]").count() == 1
    decline = page.locator("#opt-point_eleven_decline option")
    assert decline.evaluate_all("os => os.map(o => o.value)") == ["free", "forfeit"]
    ticks = page.locator("#opt-colours input[type=checkbox]")
    assert ticks.evaluate_all("bs => bs.map(b => b.value)") == ["red", "blue", "yellow", "green"]
    assert ticks.evaluate_all("bs => bs.filter(b => b.checked).length") == 0  # fixed seating
    page.check('#opt-colours input[value="blue"]')
    page.check('#opt-colours input[value="green"]')
    page.check('#opt-colours input[value="red"]')
    page.uncheck('#opt-colours input[value="blue"]')  # the order is the order ticked
    assert page.inner_text('#opt-colours [data-place="green"]') == "(1)"
    assert page.inner_text('#opt-colours [data-place="red"]') == "(2)"
    assert page.inner_text('#opt-colours [data-place="blue"]') == ""
    page.select_option("select[data-seat='1']", "random")
    page.fill("#name", "Ada")
    page.set_viewport_size(PHONE)
    page.locator("#opt-colours").scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, "sorry-lobby-colours-phone")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.click("#create")
    page.wait_for_url("**/t/*")
    code = page.url.rsplit("/", 1)[1]
    assert server.api(f"/api/tables/{code}")["rules"]["colours"] == ["green", "red"]
    page.wait_for_function(READY)
    m = msg(page)
    assert m["view"]["colours"] == ["green", "red"] and m["view"]["seats"] == [0, 1]
    legend = page.locator(".sorry-legend li").all_inner_texts()
    # the seat is named after the level asked for in the lobby (easy: the random bot)
    assert "green — Ada" in legend[0] and "red — easy bot" in legend[1]
    # green's and red's STARTs are drawn, blue's and yellow's not
    assert page.locator('#board [data-pawn="gstart"], #board [data-at="gstart"]').count() >= 1
    assert page.locator('#board [data-at="bstart"], #board [data-at="ystart"]').count() == 0
    ply = -1
    moved = False
    for _ in range(40):  # until a green pawn on the board is moved by clicks
        m = wait_turn(page, ply)
        if m.get("result"):
            break
        ply = m["ply"]
        assert m["view"]["turn"] == "green"
        legal = m["legal"]
        entering = [x for x in legal if " enter " in x]
        moves = [x for x in legal if x != "pass" and x not in entering]
        assert all(x.endswith("enter g") for x in entering)
        move = (moves or entering or legal)[0]
        play_by_clicks(page, move)
        after = played(page, ply, move)
        if moves:
            moved = True
            assert on_board(after["view"]["pawns"]["green"])
            break
    assert moved, "green never had a pawn to move"
    shoot(page, "sorry-colours-desktop")
